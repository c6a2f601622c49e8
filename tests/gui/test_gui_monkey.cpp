// SPDX-License-Identifier: GPL-3.0-or-later
// The GUI monkey test (issue 20): thousands of random user actions on the main window, offscreen,
// from a fixed seed; after each one the pages show the document's valid scenario or the stale
// banner says why not, and undo/redo round-trips. docs/monkey-testing.md has the commands and the
// results. LSE_MONKEY_SEED / LSE_MONKEY_ACTIONS override the seed and the number of actions.

#include "monkey/action_log.h"
#include "monkey/hf_config_files.h"
#include "monkey/modal_closer.h"
#include "monkey/monkey_driver.h"
#include "monkey/monkey_invariants.h"
#include "monkey/monkey_settings.h"

#include "document/scenario_document.h"
#include "main_window.h"
#include "pages/page.h"
#include "stale_banner.h"

#include "cost/estimate.h"
#include "scenario/scenario_json.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <algorithm>

using namespace lse;
using namespace lse::gui;
using namespace lse::monkey;

namespace {

constexpr int kProgressEveryActions = 250;

// Deferred deletes (a language switch replaces the whole interface), queued replots and layout
// requests run before the invariants look at the window.
void settle()
{
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    QCoreApplication::processEvents();
}

// Where the undo history stands: the round trip is checked when this changed (a new, merged,
// undone or redone step), which keeps the checks from doubling the cost of every action.
QString undoState(const MainWindow &window)
{
    const QUndoStack *stack = window.document()->undoStack();
    return QStringLiteral("%1/%2/%3").arg(stack->index()).arg(stack->count()).arg(stack->undoText());
}

}  // namespace

class TestGuiMonkey : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void cleanupTestCase() { MainWindow::installLanguage(QStringLiteral("en")); }

    // The invariants themselves must be able to fail: a page given another scenario than the
    // document's (or none) is named, and so is a stale banner missing for an invalid scenario.
    void invariantsCatchAPageShowingAnotherScenario()
    {
        MainWindow window(false);
        window.show();
        settle();
        QCOMPARE(checkPagesShowDocument(window), QString());
        const ScenarioDocument &document = *window.document();
        MainWindow::ShownEstimate other{document.scenario(), document.estimate()};
        QCOMPARE(checkShownEstimate(document, &other, "memory"), QString());
        other.scenario.model.n_layers += 1;
        const Result<Estimate> other_estimate = estimate(other.scenario);
        QVERIFY(other_estimate.ok());
        other.estimate = other_estimate.value();
        QVERIFY(checkShownEstimate(document, &other, "memory").contains("page memory shows another scenario"));
        other.scenario = document.scenario();  // the right scenario with the other one's figures
        QVERIFY(checkShownEstimate(document, &other, "memory").contains("total parameters"));
        QVERIFY(checkShownEstimate(document, nullptr, "memory").contains("shows no scenario"));
    }

    void invariantsCatchAMissingStaleBanner()
    {
        MainWindow window(false);
        window.show();
        settle();
        window.document()->edit(QStringLiteral("training.tp"), QStringLiteral("test"),
                                [](Scenario &scenario) { scenario.training.parallel.tp = 7; });  // 7 divides no GPU count here
        settle();
        QVERIFY(!window.document()->isValid());
        QCOMPARE(checkPagesShowDocument(window), QString());
        window.findChild<StaleBanner *>()->setProblems(0, true);
        QVERIFY(checkPagesShowDocument(window).contains(QLatin1String("without the stale banner")));
    }

    void randomActionsKeepPagesOnTheDocument()
    {
        const MonkeySettings settings = monkeySettingsFromEnvironment();
        QTemporaryDir work;
        QVERIFY(work.isValid());
        QString error;
        const HfConfigFiles hf_files = writeHfConfigFiles(work.filePath(QStringLiteral("hf")), &error);
        QVERIFY2(!hf_files.valid.isEmpty(), qPrintable(error));

        MainWindow window(false);
        window.resize(1280, 800);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        ModalCloser closer;
        ActionLog log(settings.seed, settings.actions);
        MonkeyDriver driver(window, settings.seed, work.filePath(QStringLiteral("exports")), hf_files);
        QElapsedTimer elapsed;
        elapsed.start();
        QString checked_undo_state;
        for (int index = 0; index < settings.actions; ++index) {
            QString finding;
            const QString done = driver.act(&finding, [&](const QString &kind) { log.begin(index, kind); });
            log.note(done);
            if (qEnvironmentVariableIsSet("LSE_MONKEY_VERBOSE"))
                qInfo().noquote() << index << done;
            settle();
            if (finding.isEmpty())
                finding = checkPagesShowDocument(window);
            // A merged edit keeps index, count and text: the scenario JSON tells it apart.
            const QString undo_state = undoState(window) + QString::fromUtf8(scenarioToJson(window.document()->scenario()));
            if (finding.isEmpty() && undo_state != checked_undo_state) {
                checked_undo_state = undo_state;
                finding = checkUndoRedoRoundTrip(window);
                if (finding.isEmpty()) {
                    settle();
                    finding = checkPagesShowDocument(window);  // and the pages followed the undo/redo
                }
            }
            if (!finding.isEmpty())
                QFAIL(qPrintable(finding + QStringLiteral("\n") + log.report()));
            // A long local run says how far it got (killed at a deadline, it still counts).
            if ((index + 1) % kProgressEveryActions == 0)
                qInfo().noquote() << QStringLiteral("GUI monkey: %1 of %2 actions passed, %3 s")
                                         .arg(index + 1)
                                         .arg(settings.actions)
                                         .arg(double(elapsed.elapsed()) / 1000.0, 0, 'f', 1);
        }
        QStringList counts;
        for (auto it = driver.kindCounts().cbegin(); it != driver.kindCounts().cend(); ++it)
            counts.append(QStringLiteral("%1 %2 (%3 ms)").arg(it.key()).arg(it.value()).arg(driver.kindMilliseconds().value(it.key())));
        qInfo().noquote() << QStringLiteral("GUI monkey: %1 actions, seed %2, %3 s, findings 0; %4; modal dialogs closed: %5")
                                 .arg(settings.actions)
                                 .arg(settings.seed)
                                 .arg(double(elapsed.elapsed()) / 1000.0, 0, 'f', 1)
                                 .arg(counts.join(QStringLiteral(", ")))
                                 .arg(closer.closedCount());
    }
};

// QTEST_MAIN, after giving a long run the time it needs: Qt Test's watchdog aborts any test function
// after QTEST_FUNCTION_TIMEOUT (default 300 s), which a run of thousands of actions outlasts. The
// watchdog reads the variable once, before the first test function, so it is set here.
int main(int argc, char **argv)
{
    if (!qEnvironmentVariableIsSet("QTEST_FUNCTION_TIMEOUT")) {
        constexpr qint64 kMinimumMs = 300'000;
        constexpr qint64 kPerActionMs = 3'000;  // about 10x the slowest measured mean under ASan
        const qint64 timeout_ms = std::max(kMinimumMs, kPerActionMs * monkeySettingsFromEnvironment().actions);
        qputenv("QTEST_FUNCTION_TIMEOUT", QByteArray::number(timeout_ms));
    }
    QApplication app(argc, argv);
    app.setAttribute(Qt::AA_Use96Dpi, true);
    TestGuiMonkey test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "test_gui_monkey.moc"
