// SPDX-License-Identifier: GPL-3.0-or-later
// Work is never lost (issue 20): autosave on a timer and every N edits, one autosave per instance,
// none after a clean close, and after a crash (this binary starts itself as a child, edits through
// the widgets and is killed with SIGKILL) the work is offered back on the next start.

#include "document/autosave_record.h"
#include "document/autosave_store.h"
#include "document/document_autosaver.h"
#include "document/recovery_dialog.h"
#include "document/scenario_document.h"
#include "editor/scenario_editor.h"
#include "main_window.h"

#include "scenario/scenario_json.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QMessageBox>
#include <QProcess>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

#include <cstdio>

using namespace lse;
using namespace lse::gui;

namespace {

constexpr char kChildVariable[] = "LSE_CRASH_RECOVERY_CHILD";
constexpr char kChildFileVariable[] = "LSE_CRASH_RECOVERY_CHILD_FILE";
constexpr qint64 kEditedTokens = 300'000'000'000;  // "300B", typed by the child
// A pid no process has: Linux pids stay below 2^22 (pid_max's ceiling).
constexpr qint64 kDeadPid = 99'999'999;

QStringList autosaveFiles(const QString &directory)
{
    return QDir(directory).entryList({QStringLiteral("autosave-*")}, QDir::Files | QDir::Hidden, QDir::Name);
}

// An autosave as an instance that has ended would have left it (no lock, a pid that is gone).
QString writeOrphan(const QString &directory, const QString &name, qint64 tokens, const QString &document_path = {})
{
    QDir().mkpath(directory);
    AutosaveRecord record;
    record.document_path = document_path;
    record.saved_at_utc = QDateTime::currentDateTimeUtc();
    record.app_version = QStringLiteral("test");
    record.pid = kDeadPid;
    record.scenario = defaultScenario();
    record.scenario.training.tokens = tokens;
    const QString path = QDir(directory).filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(AutosaveFormat::toJson(record)) < 0)
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
}

// One undoable edit of the layer count. No field name: edits of one field in quick succession
// would merge into one undo step, and these must each be one undo-stack change.
void editLayers(MainWindow &window, int layers)
{
    window.document()->edit(QString(), QStringLiteral("Layers"),
                            [layers](Scenario &scenario) { scenario.model.n_layers = layers; });
}

// Clicks `button` of the next message box that shows (a modal dialog blocks the test otherwise).
void answerNextMessageBox(QMessageBox::StandardButton button)
{
    auto *poll = new QTimer;
    QObject::connect(poll, &QTimer::timeout, poll, [poll, button] {
        if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
            poll->deleteLater();
            box->button(button)->click();
        }
    });
    poll->start(10);
}

// The child: the real window, a value typed into the tokens field, then wait for the autosave,
// say "ready" and keep running until the parent kills it.
int runChild(int argc, char **argv)
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    MainWindow window(false);
    window.enableAutosave(autosaveDirectory());
    window.autosaver()->setIntervalMs(50);
    const QString file = qEnvironmentVariable(kChildFileVariable);
    QString error;
    if (!file.isEmpty() && !window.document()->save(file, &error)) {
        std::fprintf(stderr, "child: cannot save %s: %s\n", qPrintable(file), qPrintable(error));
        return 3;
    }
    window.show();
    auto *tokens = qobject_cast<QLineEdit *>(window.editor()->fieldWidget(QStringLiteral("training.tokens")));
    if (!tokens)
        return 4;
    tokens->setFocus();
    tokens->selectAll();
    QTest::keyClicks(tokens, QStringLiteral("300B"));
    QTest::keyClick(tokens, Qt::Key_Return);
    if (window.document()->scenario().training.tokens != kEditedTokens) {
        std::fprintf(stderr, "child: the typed value did not reach the document\n");
        return 5;
    }
    const QDeadlineTimer deadline(120'000);
    while (window.autosaver()->filePath().isEmpty() || !QFileInfo::exists(window.autosaver()->filePath())) {
        if (deadline.hasExpired()) {
            std::fprintf(stderr, "child: no autosave was written\n");
            return 6;
        }
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QTest::qSleep(10);
    }
    std::printf("ready\n");
    std::fflush(stdout);
    return QApplication::exec();
}

}  // namespace

class TestCrashRecovery : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // The acceptance test: kill -9 mid-edit, restart, the edited document is offered back.
    void killedInstanceIsOfferedBackOnRestart()
    {
        QTemporaryDir temporary;
        QVERIFY(temporary.isValid());
        const QString directory = temporary.filePath(QStringLiteral("autosave"));
        const QString original = temporary.filePath(QStringLiteral("run.json"));
        QProcess child;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(kChildVariable, QStringLiteral("1"));
        environment.insert(kChildFileVariable, original);
        environment.insert(QStringLiteral("LSE_AUTOSAVE_DIR"), directory);
        environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        child.setProcessEnvironment(environment);
        child.start(QCoreApplication::applicationFilePath(), {});
        QVERIFY(child.waitForStarted());
        QByteArray output;
        QTRY_VERIFY_WITH_TIMEOUT((output += child.readAllStandardOutput()).contains("ready")
                                     || child.state() == QProcess::NotRunning,
                                 180'000);
        QVERIFY2(output.contains("ready"), child.readAllStandardError().constData());
        const QStringList written = autosaveFiles(directory);
        QVERIFY2(written.filter(QStringLiteral(".json")).size() == 1, qPrintable(written.join(' ')));

        {
            // While the child runs its autosave is its own: not offered.
            MainWindow live(false);
            live.enableAutosave(directory);
            QSignalSpy offered(&live, &MainWindow::recoveryOffered);
            QCOMPARE(live.offerRecovery(MainWindow::RecoveryMode::RecoverAll), 0);
            QCOMPARE(offered.count(), 0);
            QVERIFY(!live.document()->isModified());
        }

        child.kill();  // SIGKILL: no destructor, no close event
        QVERIFY(child.waitForFinished());
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);
        // What the crash left: the autosave and the dead instance's lock.
        QCOMPARE(autosaveFiles(directory), written);
        QVERIFY(!autosaveFiles(directory).filter(QStringLiteral(".lock")).isEmpty());

        MainWindow window(false);
        window.enableAutosave(directory);
        QSignalSpy offered(&window, &MainWindow::recoveryOffered);
        QSignalSpy problems(&window, &MainWindow::recoveryProblem);
        QCOMPARE(window.offerRecovery(MainWindow::RecoveryMode::RecoverAll), 1);
        QCOMPARE(offered.count(), 1);
        QCOMPARE(problems.count(), 0);
        QCOMPARE(offered.front().front().toStringList().size(), 1);
        ScenarioDocument *document = window.document();
        QCOMPARE(document->scenario().training.tokens, kEditedTokens);
        QVERIFY(document->isModified());
        QVERIFY(document->isRecovered());
        QCOMPARE(document->filePath(), QFileInfo(original).absoluteFilePath());
        auto *tokens = qobject_cast<QLineEdit *>(window.editor()->fieldWidget(QStringLiteral("training.tokens")));
        QVERIFY(tokens);
        QCOMPARE(tokens->text(), QStringLiteral("300B"));
        // The dead instance's files are gone; the recovered work lives in this instance's autosave.
        const QStringList now = autosaveFiles(directory);
        QVERIFY2(!now.contains(written.filter(QStringLiteral(".json")).front()), qPrintable(now.join(' ')));
        QVERIFY(QFileInfo::exists(window.autosaver()->filePath()));
        // Undoing cannot make a recovered document look saved.
        QVERIFY(!document->undoStack()->canUndo());
        editLayers(window, 40);
        document->undoStack()->undo();
        QVERIFY(document->isModified());
    }

    void cleanCloseLeavesNoAutosave()
    {
        QTemporaryDir temporary;
        const QString directory = temporary.filePath(QStringLiteral("autosave"));
        MainWindow window(false);
        window.enableAutosave(directory);
        window.autosaver()->setEditsPerSave(1);
        window.show();
        editLayers(window, 40);
        QVERIFY(window.autosaver()->waitForWrites());
        QVERIFY(QFileInfo::exists(window.autosaver()->filePath()));
        // Saving removes it: nothing unsaved is left to recover.
        QString error;
        QVERIFY2(window.document()->save(temporary.filePath(QStringLiteral("saved.json")), &error), qPrintable(error));
        QVERIFY(window.autosaver()->waitForWrites());
        QCOMPARE(autosaveFiles(directory), QStringList());
        // Edited again, then closed with the changes deliberately discarded.
        editLayers(window, 48);
        QVERIFY(window.autosaver()->waitForWrites());
        QCOMPARE(autosaveFiles(directory).filter(QStringLiteral(".json")).size(), 1);
        answerNextMessageBox(QMessageBox::Discard);
        QVERIFY(window.close());
        window.autosaver()->waitForWrites();
        QCOMPARE(autosaveFiles(directory), QStringList());
    }

    // Destroyed without a close (no close event ran): the work stays for the next start.
    void destroyedWindowKeepsItsAutosave()
    {
        QTemporaryDir temporary;
        const QString directory = temporary.filePath(QStringLiteral("autosave"));
        QString path;
        {
            MainWindow window(false);
            window.enableAutosave(directory);
            window.autosaver()->setEditsPerSave(1);
            editLayers(window, 40);
            QVERIFY(window.autosaver()->waitForWrites());
            path = window.autosaver()->filePath();
        }
        QVERIFY(QFileInfo::exists(path));
        MainWindow next(false);
        next.enableAutosave(directory);
        QCOMPARE(next.offerRecovery(MainWindow::RecoveryMode::RecoverAll), 1);
        QCOMPARE(next.document()->scenario().model.n_layers, 40);
    }

    void liveInstanceAutosaveIsNotOffered()
    {
        QTemporaryDir temporary;
        const QString directory = temporary.filePath(QStringLiteral("autosave"));
        MainWindow first(false);
        first.enableAutosave(directory);
        editLayers(first, 40);
        first.autosaver()->saveNow();
        QVERIFY(first.autosaver()->waitForWrites());
        MainWindow second(false);
        second.enableAutosave(directory);
        QSignalSpy offered(&second, &MainWindow::recoveryOffered);
        QCOMPARE(second.offerRecovery(MainWindow::RecoveryMode::RecoverAll), 0);
        QCOMPARE(offered.count(), 0);
        QVERIFY(QFileInfo::exists(first.autosaver()->filePath()));
    }

    void instancesKeepSeparateAutosaves()
    {
        QTemporaryDir temporary;
        const QString directory = temporary.filePath(QStringLiteral("autosave"));
        MainWindow first(false);
        MainWindow second(false);
        for (MainWindow *window : {&first, &second}) {
            window->enableAutosave(directory);
            window->autosaver()->setEditsPerSave(1);
        }
        editLayers(first, 40);
        editLayers(second, 48);
        QVERIFY(first.autosaver()->waitForWrites() && second.autosaver()->waitForWrites());
        QVERIFY(first.autosaver()->filePath() != second.autosaver()->filePath());
        QCOMPARE(autosaveFiles(directory).filter(QStringLiteral(".json")).size(), 2);
        for (const auto &[window, layers] : {std::pair{&first, 40}, std::pair{&second, 48}}) {
            QFile file(window->autosaver()->filePath());
            QVERIFY(file.open(QIODevice::ReadOnly));
            QString error;
            const std::optional<AutosaveRecord> record = AutosaveFormat::fromJson(file.readAll(), file.fileName(), &error);
            QVERIFY2(record, qPrintable(error));
            QCOMPARE(record->scenario.model.n_layers, layers);
            QCOMPARE(record->pid, QCoreApplication::applicationPid());
            QCOMPARE(record->document_path, QString());
            QCOMPARE(record->app_version, QCoreApplication::applicationVersion());
        }
    }

    void corruptAutosaveIsReportedNotRecovered()
    {
        QTemporaryDir temporary;
        const QString directory = temporary.filePath(QStringLiteral("autosave"));
        writeFile(QDir(directory).filePath(QStringLiteral("autosave-1-1-1.json")), "{ \"format\": ");
        writeFile(QDir(directory).filePath(QStringLiteral("autosave-1-1-2.json")), "{\"format\": \"something-else\"}");
        writeFile(QDir(directory).filePath(QStringLiteral("autosave-1-1-3.json")),
                  "{\"format\": \"llm-explorer-autosave\", \"format_version\": 1, \"document_path\": \"\","
                  " \"saved_at\": \"2026-12-02T01:00:00.000Z\", \"pid\": 1, \"scenario\": {\"format\":"
                  " \"llm-explorer-scenario\", \"version\": 1, \"model\": {\"n_layers\": \"many\"}}}");
        writeFile(QDir(directory).filePath(QStringLiteral("autosave-1-1-4.json")), QByteArray("\0\xff\x01", 3));
        {
            QFile huge(QDir(directory).filePath(QStringLiteral("autosave-1-1-5.json")));
            QVERIFY(huge.open(QIODevice::WriteOnly) && huge.resize(qint64(17) * 1024 * 1024));  // sparse
        }
        MainWindow window(false);
        window.enableAutosave(directory);
        QSignalSpy problems(&window, &MainWindow::recoveryProblem);
        QSignalSpy offered(&window, &MainWindow::recoveryOffered);
        QCOMPARE(window.offerRecovery(MainWindow::RecoveryMode::RecoverAll), 0);
        QCOMPARE(offered.count(), 1);
        QCOMPARE(problems.count(), 5);
        QStringList messages;
        for (const QList<QVariant> &problem : problems)
            messages << problem.front().toString();
        messages.sort();
        QVERIFY2(messages[0].startsWith("autosave-1-1-1.json: not valid JSON"), qPrintable(messages[0]));
        QVERIFY2(messages[1].startsWith("autosave-1-1-2.json: \"format\" must be \"llm-explorer-autosave\""),
                 qPrintable(messages[1]));
        QVERIFY2(messages[2].startsWith("autosave-1-1-3.json: \"scenario\" is not a valid scenario")
                     && messages[2].contains("model.n_layers"),
                 qPrintable(messages[2]));
        QVERIFY2(messages[3].startsWith("autosave-1-1-4.json: not valid JSON"), qPrintable(messages[3]));
        QVERIFY2(messages[4].startsWith("autosave-1-1-5.json: larger than 16 MB"), qPrintable(messages[4]));
        QVERIFY(!window.document()->isModified());
        // Kept for the user to look at (Later), and offered again next time.
        QCOMPARE(autosaveFiles(directory).size(), 5);
        QSignalSpy again(&window, &MainWindow::recoveryProblem);
        window.offerRecovery(MainWindow::RecoveryMode::RecoverAll);
        QCOMPARE(again.count(), 5);
    }

    void discardDeletesAndLaterKeeps()
    {
        QTemporaryDir temporary;
        const QString directory = temporary.filePath(QStringLiteral("autosave"));
        const QString to_discard = writeOrphan(directory, QStringLiteral("autosave-1-1-1.json"), 1'000'000'000);
        const QString to_keep = writeOrphan(directory, QStringLiteral("autosave-1-1-2.json"), 2'000'000'000);
        MainWindow window(false);
        window.enableAutosave(directory);
        int dialog_rows = -1;
        connect(&window, &MainWindow::recoveryOffered, this, [&](const QStringList &files) {
            QTimer::singleShot(0, this, [&, files] {
                auto *dialog = window.findChild<RecoveryDialog *>();
                QVERIFY(dialog);
                dialog_rows = dialog->rowCount();
                for (int row = 0; row < files.size(); ++row)
                    dialog->setChoice(row, files[row] == to_discard ? RecoveryDialog::Choice::Discard
                                                                    : RecoveryDialog::Choice::Later);
                dialog->accept();
            });
        });
        QCOMPARE(window.offerRecovery(MainWindow::RecoveryMode::Ask), 0);
        QCOMPARE(dialog_rows, 2);
        QVERIFY(!QFileInfo::exists(to_discard));
        QVERIFY(QFileInfo::exists(to_keep));
        QVERIFY(!window.document()->isModified());
        // Closing the dialog is Later for everything.
        disconnect(&window, &MainWindow::recoveryOffered, this, nullptr);
        connect(&window, &MainWindow::recoveryOffered, this, [&] {
            QTimer::singleShot(0, this, [&] { window.findChild<RecoveryDialog *>()->reject(); });
        });
        QCOMPARE(window.offerRecovery(MainWindow::RecoveryMode::Ask), 0);
        QVERIFY(QFileInfo::exists(to_keep));
        // Kept, so offered again; recovered here it is an untitled document to Save As.
        disconnect(&window, &MainWindow::recoveryOffered, this, nullptr);
        QCOMPARE(window.offerRecovery(MainWindow::RecoveryMode::RecoverAll), 1);
        QCOMPARE(window.document()->scenario().training.tokens, qint64(2'000'000'000));
        QVERIFY(window.document()->isModified());
        QCOMPARE(window.document()->filePath(), QString());
        QCOMPARE(window.document()->displayName(), QStringLiteral("Untitled"));
        QVERIFY(!QFileInfo::exists(to_keep));
    }

    void severalRecoveredDocumentsOpenInTheirOwnWindows()
    {
        QTemporaryDir temporary;
        const QString directory = temporary.filePath(QStringLiteral("autosave"));
        writeOrphan(directory, QStringLiteral("autosave-1-1-1.json"), 1'000'000'000);
        writeOrphan(directory, QStringLiteral("autosave-1-1-2.json"), 2'000'000'000, temporary.filePath("b.json"));
        MainWindow window(false);
        window.enableAutosave(directory);
        QCOMPARE(window.offerRecovery(MainWindow::RecoveryMode::RecoverAll), 2);
        QCOMPARE(window.recoveryWindows().size(), 1);
        MainWindow *other = window.recoveryWindows().front();
        QSet<qint64> tokens{window.document()->scenario().training.tokens, other->document()->scenario().training.tokens};
        QCOMPARE(tokens, (QSet<qint64>{1'000'000'000, 2'000'000'000}));
        QVERIFY(other->document()->isModified());
        // Each window keeps its own autosave of what it recovered.
        QVERIFY(!window.autosaver()->filePath().isEmpty());
        QVERIFY(window.autosaver()->filePath() != other->autosaver()->filePath());
        QCOMPARE(autosaveFiles(directory).filter(QStringLiteral(".json")).size(), 2);
    }

    void unreadableAutosaveCannotBeChosenForRecovery()
    {
        RecoveryDialog dialog({{QString(), QDateTime::currentDateTimeUtc(), QString()},
                               {QString(), QDateTime(), QStringLiteral("x.json: not valid JSON")}});
        QCOMPARE(dialog.choice(0), RecoveryDialog::Choice::Recover);
        QCOMPARE(dialog.choice(1), RecoveryDialog::Choice::Later);
        dialog.setChoice(1, RecoveryDialog::Choice::Recover);
        QCOMPARE(dialog.choice(1), RecoveryDialog::Choice::Later);
    }

    void timerWritesOnlyAfterChanges()
    {
        QTemporaryDir temporary;
        const QString directory = temporary.filePath(QStringLiteral("autosave"));
        MainWindow window(false);
        window.enableAutosave(directory);
        DocumentAutosaver *autosaver = window.autosaver();
        QCOMPARE(autosaver->intervalMs(), DocumentAutosaver::kDefaultIntervalMs);
        QCOMPARE(autosaver->editsPerSave(), DocumentAutosaver::kDefaultEditsPerSave);
        autosaver->setEditsPerSave(1000);
        autosaver->setIntervalMs(20);
        editLayers(window, 40);
        QVERIFY(autosaver->waitForWrites());
        QCOMPARE(autosaver->autosavesWritten(), 0);  // not the edit itself: the timer
        QTRY_VERIFY(!autosaver->filePath().isEmpty() && QFileInfo::exists(autosaver->filePath()));
        QCOMPARE(autosaver->autosavesWritten(), 1);
        // Unchanged since: ticks write nothing.
        QTest::qWait(10 * autosaver->intervalMs());
        QVERIFY(autosaver->waitForWrites());
        QCOMPARE(autosaver->autosavesWritten(), 1);
        editLayers(window, 48);
        QTRY_COMPARE(autosaver->autosavesWritten(), 2);
    }

    void everyNthEditWrites()
    {
        QTemporaryDir temporary;
        const QString directory = temporary.filePath(QStringLiteral("autosave"));
        MainWindow window(false);
        window.enableAutosave(directory);
        DocumentAutosaver *autosaver = window.autosaver();
        autosaver->setIntervalMs(3'600'000);  // the timer stays out of it
        autosaver->setEditsPerSave(3);
        editLayers(window, 40);
        editLayers(window, 48);
        QVERIFY(autosaver->waitForWrites());
        QCOMPARE(autosaveFiles(directory), QStringList());
        editLayers(window, 56);
        QVERIFY(autosaver->waitForWrites());
        QCOMPARE(autosaver->autosavesWritten(), 1);
        QVERIFY(QFileInfo::exists(autosaver->filePath()));
        window.document()->undoStack()->undo();  // an undo is an undo-stack change too
        window.document()->undoStack()->undo();
        window.document()->undoStack()->redo();
        QVERIFY(autosaver->waitForWrites());
        QCOMPARE(autosaver->autosavesWritten(), 2);
        // Back at the saved state: the autosave goes.
        window.document()->undoStack()->undo();
        window.document()->undoStack()->undo();
        QVERIFY(!window.document()->isModified());
        QVERIFY(autosaver->waitForWrites());
        QCOMPARE(autosaveFiles(directory), QStringList());
        QCOMPARE(autosaver->filePath(), QString());
    }

    void unwritableFolderIsReported()
    {
        QTemporaryDir temporary;
        const QString blocker = temporary.filePath(QStringLiteral("file"));
        writeFile(blocker, "not a folder");
        MainWindow window(false);
        window.enableAutosave(QDir(blocker).filePath(QStringLiteral("autosave")));
        QSignalSpy failed(window.autosaver(), &DocumentAutosaver::autosaveFailed);
        editLayers(window, 40);
        window.autosaver()->saveNow();
        QVERIFY(!window.autosaver()->waitForWrites());
        window.autosaver()->saveNow();
        QVERIFY(!window.autosaver()->waitForWrites());
        QCOMPARE(failed.count(), 1);  // once, not at every tick
        QVERIFY2(failed.front().front().toString().contains(blocker), qPrintable(failed.front().front().toString()));
    }

    void commandLineOptions()
    {
        QTemporaryDir temporary;
        const QString directory = temporary.filePath(QStringLiteral("autosave"));
        const QString orphan = writeOrphan(directory, QStringLiteral("autosave-1-1-1.json"), kEditedTokens);
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("LSE_AUTOSAVE_DIR"), directory);
        environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        environment.insert(QStringLiteral("XDG_CONFIG_HOME"), temporary.filePath(QStringLiteral("config")));
        QProcess both;
        both.setProcessEnvironment(environment);
        both.start(QStringLiteral(LSE_GUI_PATH), {"--recover", "--no-recover"});
        QVERIFY(both.waitForFinished(120'000));
        QCOMPARE(both.exitCode(), 2);
        const QByteArray error = both.readAllStandardError();
        QVERIFY2(error.contains("--recover") && error.contains("--no-recover"), error.constData());
        QVERIFY(QFileInfo::exists(orphan));

        // --recover before a screenshot: recovered without asking, and kept in the new instance's
        // own autosave since that run ends without a clean close.
        QProcess recover;
        recover.setProcessEnvironment(environment);
        recover.start(QStringLiteral(LSE_GUI_PATH),
                      {"--recover", "--screenshot", temporary.filePath(QStringLiteral("x.png")), "--size", "800x600"});
        QVERIFY(recover.waitForFinished(180'000));
        QVERIFY2(recover.exitCode() == 0, recover.readAllStandardError().constData());
        QVERIFY(!QFileInfo::exists(orphan));
        const QStringList left = autosaveFiles(directory).filter(QStringLiteral(".json"));
        QCOMPARE(left.size(), 1);
        QFile file(QDir(directory).filePath(left.front()));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QString problem;
        const std::optional<AutosaveRecord> record = AutosaveFormat::fromJson(file.readAll(), left.front(), &problem);
        QVERIFY2(record, qPrintable(problem));
        QCOMPARE(record->scenario.training.tokens, kEditedTokens);
    }

    // Bench (prints, asserts nothing about speed): one autosave write (on the writer thread), and
    // what the GUI thread spends asking for it.
    void benchAutosaveWrite()
    {
        QTemporaryDir temporary;
        MainWindow window(false);
        window.enableAutosave(temporary.filePath(QStringLiteral("autosave")));
        editLayers(window, 40);
        constexpr int kWrites = 20;
        QElapsedTimer timer;
        timer.start();
        qint64 gui_thread_ns = 0;
        for (int i = 0; i < kWrites; ++i) {
            QElapsedTimer asking;
            asking.start();
            window.autosaver()->saveNow();
            gui_thread_ns += asking.nsecsElapsed();
            QVERIFY(window.autosaver()->waitForWrites());
        }
        qInfo("autosave write (fsync included): %.2f ms each over %d writes, %lld bytes; GUI thread: %.3f ms each",
              double(timer.nsecsElapsed()) / 1e6 / kWrites, kWrites, QFileInfo(window.autosaver()->filePath()).size(),
              double(gui_thread_ns) / 1e6 / kWrites);
    }
};

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsSet(kChildVariable))
        return runChild(argc, argv);
    QApplication app(argc, argv);
    TestCrashRecovery test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "test_crash_recovery.moc"
