// SPDX-License-Identifier: GPL-3.0-or-later
// The start-up and footprint benchmark (issue 20): llm-explorer's first-paint hook, and a smoke run
// of bench_gui_footprint that must measure every page. No timing is asserted: the benchmark prints
// its figures and verdicts, these tests only check that it runs and covers everything.

#include "main_window.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

using namespace lse::gui;

namespace {

// Built beside llm-explorer (app/gui/CMakeLists.txt).
QString benchPath() { return QFileInfo(QStringLiteral(LSE_GUI_PATH)).dir().filePath(QStringLiteral("bench_gui_footprint")); }

struct Run {
    int exit_code = -1;
    QString out;
    QString err;
};

Run runBench(const QStringList &arguments)
{
    QProcess bench;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    bench.setProcessEnvironment(environment);
    bench.start(benchPath(), arguments);
    // Generous: one launch plus every page under the sanitizers on a shared machine.
    if (!bench.waitForFinished(600000)) {
        bench.kill();
        bench.waitForFinished();
    }
    return {bench.exitStatus() == QProcess::NormalExit ? bench.exitCode() : -1,
            QString::fromUtf8(bench.readAllStandardOutput()), QString::fromUtf8(bench.readAllStandardError())};
}

}  // namespace

class TestBenchGuiFootprint : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY2(QFileInfo(benchPath()).isExecutable(), qPrintable(benchPath() + " is not built")); }

    // LSE_REPORT_FIRST_PAINT=1: the app prints "first-paint-ms <ms>" once its window has painted,
    // and keeps running (the benchmark reads its idle memory afterwards).
    void appReportsItsFirstPaintAndKeepsRunning()
    {
        QProcess app;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        environment.insert(QStringLiteral("LSE_REPORT_FIRST_PAINT"), QStringLiteral("1"));
        environment.insert(QStringLiteral("XDG_CONFIG_HOME"), QDir::tempPath() + QStringLiteral("/lse-bench-test-config"));
        app.setProcessEnvironment(environment);
        app.setReadChannel(QProcess::StandardError);
        app.start(QStringLiteral(LSE_GUI_PATH), {});
        QVERIFY(app.waitForStarted());
        const QRegularExpression line(QStringLiteral("^first-paint-ms (\\d+(\\.\\d+)?)$"));
        QRegularExpressionMatch match;
        while (!match.hasMatch() && (app.canReadLine() || app.waitForReadyRead(120000)))
            while (app.canReadLine() && !match.hasMatch())
                match = line.match(QString::fromUtf8(app.readLine()).trimmed());
        const bool running = app.state() == QProcess::Running;
        app.kill();
        app.waitForFinished();
        QVERIFY2(match.hasMatch(), "no first-paint-ms line on stderr");
        QVERIFY(match.captured(1).toDouble() > 0.0);
        QVERIFY2(running, "the app exited after reporting its first paint");
    }

    // --quick measures one launch and every page and tab the window offers, with a verdict line
    // for each target.
    void quickRunCoversEveryPage()
    {
        const Run run = runBench({QStringLiteral("--quick")});
        QVERIFY2(run.exit_code == 0, qPrintable(run.err));
        MainWindow window(false);
        for (const QString &id : window.pageAndSectionIds())
            QVERIFY2(run.out.contains(QRegularExpression(QStringLiteral("^  %1 ").arg(QRegularExpression::escape(id)),
                                                         QRegularExpression::MultilineOption)),
                     qPrintable(id + " missing from:\n" + run.out));
        QVERIFY(run.out.contains(QRegularExpression(QStringLiteral("start-up offscreen: .*: (PASS|OVER)"))));
        QVERIFY(run.out.contains(QRegularExpression(QStringLiteral("idle RSS offscreen: .*: (PASS|OVER)"))));
        QVERIFY(run.out.contains(QRegularExpression(QStringLiteral("edit->repaint on the heaviest page .*: (PASS|OVER)"))));
    }

    void jsonListsEveryPageWithItsFigures()
    {
        const Run run = runBench({QStringLiteral("--quick"), QStringLiteral("--no-startup"), QStringLiteral("--json")});
        QVERIFY2(run.exit_code == 0, qPrintable(run.err));
        const QJsonObject json = QJsonDocument::fromJson(run.out.toUtf8()).object();
        const QJsonObject repaint = json.value(QStringLiteral("edit_to_repaint")).toObject();
        QStringList ids;
        for (const QJsonValue &page : repaint.value(QStringLiteral("pages")).toArray()) {
            ids << page.toObject().value(QStringLiteral("id")).toString();
            QCOMPARE(page.toObject().value(QStringLiteral("edit_to_repaint_ms")).toObject().value(QStringLiteral("count")).toInt(), 1);
        }
        MainWindow window(false);
        QCOMPARE(ids, window.pageAndSectionIds());
        QVERIFY(ids.contains(repaint.value(QStringLiteral("heaviest_page")).toString()));
        QCOMPARE(json.value(QStringLiteral("targets")).toObject().value(QStringLiteral("edit_to_repaint_ms")).toDouble(), 16.0);
    }

    // Bad command lines: exit 2 and a message naming the flag.
    void badFlagsAreNamed_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("flag");
        QTest::newRow("edits 0") << QStringList{"--edits", "0"} << "--edits";
        QTest::newRow("runs text") << QStringList{"--runs", "many"} << "--runs";
        QTest::newRow("unknown page") << QStringList{"--no-startup", "--pages", "no-such-page"} << "--pages";
        QTest::newRow("not an integer field") << QStringList{"--no-startup", "--field", "model.norm"} << "--field";
        QTest::newRow("unknown flag") << QStringList{"--frobnicate"} << "frobnicate";
    }
    void badFlagsAreNamed()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, flag);
        const Run run = runBench(arguments);
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains(flag), qPrintable(run.err));
    }
};

QTEST_MAIN(TestBenchGuiFootprint)
#include "test_bench_gui_footprint.moc"
