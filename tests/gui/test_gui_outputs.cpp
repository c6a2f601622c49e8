// SPDX-License-Identifier: GPL-3.0-or-later
// The GUI's outputs go through the one writer (issue 28 items 4, 5 and 25): a screenshot or handout
// never replaces the scenario or lesson the run reads, nor a FIFO; on a full disk the old PNG stays
// whole; a missing folder is reported with the reason; chart exports and saves follow the same rules
// in-process (a file the window reads is refused, the document's own file is saved over).

#include "charts/chart_view.h"
#include "common/input_files.h"
#include "document/scenario_document.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <functional>
#include <cstring>

#include <sys/resource.h>
#include <sys/stat.h>

using namespace lse;
using namespace lse::gui;

namespace {

struct Run {
    int exit_code = -1;
    QByteArray err;
};

Run runGui(const QStringList &arguments, rlim_t file_size_limit = RLIM_INFINITY)
{
    QProcess app;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    app.setProcessEnvironment(environment);
    app.setChildProcessModifier([file_size_limit] {
        if (file_size_limit == RLIM_INFINITY)
            return;
        ::signal(SIGXFSZ, SIG_IGN);
        const rlimit limit{file_size_limit, file_size_limit};
        ::setrlimit(RLIMIT_FSIZE, &limit);
    });
    app.start(QStringLiteral(LSE_GUI_PATH), arguments);
    if (!app.waitForFinished(180'000))
        return {};
    return {app.exitStatus() == QProcess::NormalExit ? app.exitCode() : -1, app.readAllStandardError()};
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}

bool writeAll(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QStringList partials(const QString &dir)
{
    return QDir(dir).entryList({QStringLiteral("*.llm-explorer-partial-*")}, QDir::Files | QDir::Hidden);
}

}  // namespace

class TestGuiOutputs : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString path(const QString &name) const { return dir_.filePath(name); }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // Item 4: `--scenario mine.json --screenshot mine.json` left a PNG in place of the scenario.
    void aScreenshotNeverReplacesTheScenario()
    {
        ScenarioDocument document;
        QVERIFY(document.save(path("mine.json"), nullptr));
        const QByteArray scenario = readAll(path("mine.json"));
        const Run run = runGui({"--scenario", path("mine.json"), "--screenshot", path("mine.json")});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("--screenshot") && run.err.contains("would destroy the input"), run.err.constData());
        QCOMPARE(readAll(path("mine.json")), scenario);
    }

    void aHandoutNeverReplacesTheLesson()
    {
        QFile shipped(QStringLiteral(":/lessons/02-resource-accounting.json"));
        QVERIFY(shipped.open(QIODevice::ReadOnly));
        const QByteArray lesson = shipped.readAll();
        QVERIFY(writeAll(path("les.json"), lesson));
        const Run run = runGui({"--lesson", path("les.json"), "--handout", path("les.json")});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("the lesson file given with --lesson"), run.err.constData());
        QCOMPARE(readAll(path("les.json")), lesson);
    }

    // Item 3's sibling in the GUI: a FIFO as the screenshot's name is left a FIFO.
    void aScreenshotNeverReplacesAFifo()
    {
        QCOMPARE(::mkfifo(QFile::encodeName(path("pipe.png")).constData(), 0600), 0);
        const Run run = runGui({"--screenshot", path("pipe.png")});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("pipe (FIFO)"), run.err.constData());
        struct stat st {};
        QCOMPARE(::lstat(QFile::encodeName(path("pipe.png")).constData(), &st), 0);
        QVERIFY(S_ISFIFO(st.st_mode));
    }

    // Item 5: on a full disk the old PNG was left cut at 4,096 bytes (or a 0-byte file).
    void aFullDiskLeavesTheOldScreenshotWhole()
    {
        const QByteArray old(20'000, 'p');
        QVERIFY(writeAll(path("shot.png"), old));
        const Run run = runGui({"--screenshot", path("shot.png")}, 4096);
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains(std::strerror(EFBIG)), run.err.constData());
        QCOMPARE(readAll(path("shot.png")), old);
        QVERIFY(partials(dir_.path()).isEmpty());
    }

    // Item 25: "cannot write X" said nothing of why.
    void aMissingFolderIsReportedWithTheReason()
    {
        const Run run = runGui({"--screenshot", path("no/such/folder/shot.png")});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains(std::strerror(ENOENT)), run.err.constData());
    }

    // In-process: a chart export and a document's Save follow the same rules.
    void chartExportsRefuseAFileTheWindowReads()
    {
        QVERIFY(writeAll(path("read.json"), "{}"));
        const InputFileRegistration input(QFile::encodeName(path("read.json")).toStdString(), "the lesson shown in this window");
        ChartView chart(QStringLiteral("test-chart"));
        ChartData data;
        ChartSeries series;
        series.name = QStringLiteral("s");
        series.x = {1, 2, 3};
        series.y = {1, 4, 9};
        data.series.append(series);
        chart.setData(data);
        chart.resize(400, 300);
        for (const auto &[name, write] :
             std::initializer_list<std::pair<const char *, std::function<bool(QString *)>>>{
                 {"png", [&](QString *e) { return chart.exportPng(path("read.json"), 1.0, e); }},
                 {"pdf", [&](QString *e) { return chart.exportPdf(path("read.json"), e); }},
                 {"svg", [&](QString *e) { return chart.exportSvg(path("read.json"), e); }},
                 {"csv", [&](QString *e) { return chart.exportCsv(path("read.json"), e); }}}) {
            QString error;
            QVERIFY2(!write(&error), name);
            QVERIFY2(error.contains(QStringLiteral("the lesson shown in this window")), qPrintable(error));
        }
        QCOMPARE(readAll(path("read.json")), QByteArray("{}"));
        // Elsewhere the four files are written whole.
        QString error;
        QVERIFY2(chart.exportAll(dir_.path(), &error), qPrintable(error));
        for (const char *suffix : {".png", ".pdf", ".svg", ".csv"})
            QVERIFY(QFileInfo(path(QStringLiteral("test-chart") + suffix)).size() > 0);
        QVERIFY(readAll(path("test-chart.pdf")).startsWith("%PDF"));
        QVERIFY(readAll(path("test-chart.png")).startsWith("\x89PNG"));
    }

    void aDocumentSavesOverItsOwnFileButNotOverAnotherInput()
    {
        ScenarioDocument document;
        QVERIFY(document.save(path("doc.json"), nullptr));
        QVERIFY(document.save(path("doc.json"), nullptr));  // its own file, registered as an input
        QVERIFY(writeAll(path("lesson.json"), "{\"lesson\": true}"));
        const InputFileRegistration lesson(QFile::encodeName(path("lesson.json")).toStdString(), "the lesson shown in this window");
        QString error;
        QVERIFY(!document.save(path("lesson.json"), &error));
        QVERIFY2(error.contains(QStringLiteral("same_file")) || error.contains(QStringLiteral("destroy the input")),
                 qPrintable(error));
        QCOMPARE(readAll(path("lesson.json")), QByteArray("{\"lesson\": true}"));
        // Another window's document is an input too.
        ScenarioDocument other;
        QVERIFY(!other.save(path("doc.json"), &error));
    }
};

QTEST_MAIN(TestGuiOutputs)
#include "test_gui_outputs.moc"
