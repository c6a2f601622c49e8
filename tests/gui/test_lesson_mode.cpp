// SPDX-License-Identifier: GPL-3.0-or-later
// Lesson mode in the main window, offscreen: the controller's steps, the keys, the user's document
// kept exactly, the highlight following the target, and --lesson / --step on the command line.

#include "document/scenario_document.h"
#include "editor/scenario_editor.h"
#include "lessons/lesson_bar.h"
#include "lessons/lesson_catalog.h"
#include "lessons/lesson_controller.h"
#include "lessons/lesson_overlay.h"
#include "main_window.h"
#include "pages/page.h"

#include "scenario/scenario_json.h"

#include <QApplication>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QScopeGuard>
#include <QAction>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace lse;
using namespace lse::gui;

namespace {

// Three steps on overview, memory and collectives; the second asks a question and points at
// `memory_target` (a chart series of the memory page), the third changes the tokens.
Lesson smallLesson(const QString &memory_target = QString())
{
    QJsonObject highlight;
    if (!memory_target.isEmpty())
        highlight = QJsonObject{{"kind", "chart_series"}, {"target", memory_target}};
    QJsonObject memory_step{{"page", "memory"},
                            {"text", QJsonObject{{"en", "Each GPU holds {memory.total_gb}."}}},
                            {"question", QJsonObject{{"en", "Does it fit?"}}},
                            {"answer", QJsonObject{{"en", "Fits: {memory.fits}."}}}};
    if (!highlight.isEmpty())
        memory_step.insert("highlight", highlight);
    const QJsonObject file{
        {"format", kLessonFormat},
        {"version", kLessonVersion},
        {"id", "test-lesson"},
        {"title", QJsonObject{{"en", "Test lesson"}, {"zh_CN", "测试课"}}},
        {"lecture", "none"},
        {"steps",
         QJsonArray{QJsonObject{{"page", "overview"}, {"text", QJsonObject{{"en", "The run takes {time.days}."}}}},
                    memory_step,
                    QJsonObject{{"page", "collectives"},
                                {"scenario_changes", QJsonArray{QJsonObject{{"field", "training.tokens"},
                                                                            {"value", 2e12}}}},
                                {"text", QJsonObject{{"en", "Fewer tokens: {time.days}."}}}}}}};
    Result<Lesson> lesson = parseLesson(QJsonDocument(file).toJson());
    if (!lesson.ok())
        qFatal("test lesson: %s", formatProblems(lesson.problems()).c_str());
    return *lesson;
}

void settle()
{
    for (int pass = 0; pass < 4; ++pass) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::processEvents();
    }
}

struct DocumentState {
    QByteArray json;
    int count = 0;
    int index = 0;
    bool modified = false;
    bool operator==(const DocumentState &) const = default;
};

DocumentState stateOf(const ScenarioDocument &document)
{
    return {scenarioToJson(document.scenario()), document.undoStack()->count(), document.undoStack()->index(),
            document.isModified()};
}

}  // namespace

class TestLessonMode : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void controllerStepsRevealAndRestart()
    {
        LessonController controller;
        QSignalSpy steps(&controller, &LessonController::stepChanged);
        QSignalSpy answers(&controller, &LessonController::answerRevealedChanged);
        QString error;
        QVERIFY2(controller.start(smallLesson(), 0, &error), qPrintable(error));
        QCOMPARE(steps.count(), 1);
        QCOMPARE(controller.stepCount(), 3);
        QVERIFY(!controller.text().contains('{'));  // the figure is filled in
        QVERIFY(controller.text().contains(QLatin1String("days")));

        QVERIFY(controller.next());
        QCOMPARE(controller.stepIndex(), 1);
        QCOMPARE(steps.last().at(0).toInt(), 1);
        // The question's answer comes before the next step.
        QVERIFY(controller.next());
        QCOMPARE(controller.stepIndex(), 1);
        QCOMPARE(answers.count(), 1);
        QCOMPARE(answers.last().at(0).toBool(), true);
        QVERIFY(controller.answer().startsWith(QLatin1String("Fits: ")));
        QVERIFY(controller.next());
        QCOMPARE(controller.stepIndex(), 2);
        QVERIFY(!controller.next());  // the last step: nothing more
        QCOMPARE(controller.stepIndex(), 2);
        // Step 3 has fewer tokens: its figure differs from step 1's.
        const QString fewer = controller.text();

        QVERIFY(controller.previous());
        QCOMPARE(controller.stepIndex(), 1);
        QVERIFY(!controller.answerRevealed());  // a step shows its question afresh
        controller.reveal();
        QVERIFY(controller.answerRevealed());
        const int before = int(steps.count());
        controller.restart();
        QCOMPARE(controller.stepIndex(), 0);
        QCOMPARE(steps.count(), before + 1);
        QVERIFY(controller.text() != fewer);

        QSignalSpy finished(&controller, &LessonController::finished);
        controller.finish();
        QCOMPARE(finished.count(), 1);
        QVERIFY(!controller.isRunning());
    }

    void controllerRefusesAStepOutOfRange()
    {
        LessonController controller;
        QString error;
        QVERIFY(!controller.start(smallLesson(), 3, &error));
        QVERIFY2(error.contains(QLatin1String("1 to 3")), qPrintable(error));
        QVERIFY(!controller.isRunning());
    }

    void barShowsStepQuestionAndAnswer()
    {
        MainWindow window(false);
        QString error;
        QVERIFY2(window.startLesson(smallLesson(), 1, &error), qPrintable(error));
        auto *bar = qobject_cast<LessonBar *>(window.lessonBar());
        QVERIFY(bar);
        QCOMPARE(bar->stepLabelText(), QStringLiteral("Step 2/3"));
        QVERIFY(bar->textShown().contains(QLatin1String("GB")));
        QVERIFY(bar->answerShown().isEmpty());
        QSignalSpy answers(window.lessonController(), &LessonController::answerRevealedChanged);
        bar->revealButton()->click();
        QCOMPARE(answers.count(), 1);
        QVERIFY(bar->answerShown().contains(QLatin1String("Fits")));
        QCOMPARE(window.currentPage()->id(), QStringLiteral("memory"));
        bar->nextButton()->click();
        QCOMPARE(window.currentPage()->id(), QStringLiteral("collectives"));
        bar->previousButton()->click();
        bar->restartButton()->click();
        QCOMPARE(window.lessonController()->stepIndex(), 0);
        QCOMPARE(window.currentPage()->id(), QStringLiteral("overview"));
        bar->closeButton()->click();
        QVERIFY(!window.inLesson());
    }

    void keysMoveTheStep()
    {
        MainWindow window(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;
        QVERIFY2(window.startLesson(smallLesson(), 0, &error), qPrintable(error));
        QSignalSpy steps(window.lessonController(), &LessonController::stepChanged);
        QTest::keyClick(&window, Qt::Key_PageDown);
        QCOMPARE(window.lessonController()->stepIndex(), 1);
        QTest::keyClick(&window, Qt::Key_Space);  // reveals the answer
        QVERIFY(window.lessonController()->answerRevealed());
        QCOMPARE(window.lessonController()->stepIndex(), 1);
        QTest::keyClick(&window, Qt::Key_Space);
        QCOMPARE(window.lessonController()->stepIndex(), 2);
        QTest::keyClick(&window, Qt::Key_PageUp);
        QCOMPARE(window.lessonController()->stepIndex(), 1);
        QTest::keyClick(&window, Qt::Key_Left);
        QCOMPARE(window.lessonController()->stepIndex(), 0);
        QTest::keyClick(&window, Qt::Key_Right);
        QTest::keyClick(&window, Qt::Key_Home);
        QCOMPARE(window.lessonController()->stepIndex(), 0);
        QCOMPARE(steps.count(), 6);
        // A text field keeps its arrows: Right moves the cursor, not the lesson.
        auto *field = qobject_cast<QLineEdit *>(window.lessonEditor()->findChild<QLineEdit *>());
        QVERIFY(field);
        QTest::keyClick(field, Qt::Key_Right);
        QCOMPARE(window.lessonController()->stepIndex(), 0);
        QTest::keyClick(&window, Qt::Key_P);
        QVERIFY(window.lessonOverlay()->pointerVisible());
        QTest::keyClick(&window, Qt::Key_Escape);
        QVERIFY(!window.inLesson());
        QVERIFY(!window.lessonOverlay()->pointerVisible());
    }

    void leavingRestoresTheDocumentExactly()
    {
        MainWindow window(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ScenarioDocument *document = window.document();
        document->edit("training.tokens", "tokens", [](Scenario &s) { s.training.tokens = 3'000'000'000'000; });
        document->edit("cluster.gpus", "gpus", [](Scenario &s) { s.cluster.gpus = 2048; });
        document->undoStack()->undo();
        QVERIFY(window.selectPage("time"));
        const DocumentState before = stateOf(*document);
        QCOMPARE(before.count, 2);
        QCOMPARE(before.index, 1);

        QString error;
        QVERIFY2(window.startLesson(smallLesson(), 2, &error), qPrintable(error));
        QVERIFY(window.inLesson());
        QVERIFY(window.lessonDocument() && window.lessonDocument() != document);
        QCOMPARE(window.editor()->isVisibleTo(&window), false);
        // The pages show the step's scenario; the student plays with the lesson's document only.
        QCOMPARE(window.lessonDocument()->scenario().training.tokens, qint64(2'000'000'000'000));
        window.lessonDocument()->edit("cluster.gpus", "gpus", [](Scenario &s) { s.cluster.gpus = 512; });
        QTest::keyClick(&window, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(window.lessonDocument()->scenario().cluster.gpus, 1024);
        QTest::keyClick(&window, Qt::Key_PageUp);
        QVERIFY(stateOf(*document) == before);

        window.endLesson();
        QVERIFY(!window.inLesson());
        QVERIFY(stateOf(*document) == before);
        QCOMPARE(window.currentPage()->id(), QStringLiteral("time"));
        QVERIFY(window.editor()->isVisibleTo(&window));
        // The user's undo is the document's again.
        QTest::keyClick(&window, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(document->undoStack()->index(), 0);
    }

    // Switching the language rebuilds the window: the lesson goes on at the same step, in the new
    // language, and leaving it still returns to the user's page.
    void languageSwitchKeepsTheLesson()
    {
        MainWindow window(false);
        QVERIFY(window.selectPage("time"));
        QString error;
        QVERIFY(window.startLesson(smallLesson(), 1, &error));
        const auto language_action = [&](const QString &name) -> QAction * {
            for (QAction *action : window.findChildren<QAction *>())
                if (action->text() == name)
                    return action;
            return nullptr;
        };
        QAction *chinese = language_action(QStringLiteral("简体中文"));
        QVERIFY(chinese);
        const auto restore = qScopeGuard([] { MainWindow::installLanguage(QStringLiteral("en")); });
        chinese->trigger();
        QCOMPARE(MainWindow::currentLanguage(), QStringLiteral("zh_CN"));
        QVERIFY(window.inLesson());
        QCOMPARE(window.lessonController()->stepIndex(), 1);
        QCOMPARE(window.lessonController()->title(), QStringLiteral("测试课"));
        QCOMPARE(window.currentPage()->id(), QStringLiteral("memory"));
        window.endLesson();
        QCOMPARE(window.currentPage()->id(), QStringLiteral("time"));
        QAction *english = language_action(QStringLiteral("English"));
        QVERIFY(english);
        english->trigger();
    }

    void openingAFileEndsTheLesson()
    {
        MainWindow window(false);
        QTemporaryDir dir;
        const QString path = dir.filePath("s.json");
        QString error;
        QVERIFY(window.document()->save(path, &error));
        QVERIFY(window.startLesson(smallLesson(), 0, &error));
        QSignalSpy finished(window.lessonController(), &LessonController::finished);
        QVERIFY2(window.openFile(path, &error), qPrintable(error));
        QVERIFY(!window.inLesson());
        QCOMPARE(finished.count(), 1);
    }

    void highlightFollowsTheTarget()
    {
        MainWindow window(false);
        window.resize(1024, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.selectPage("memory"));
        settle();
        const QStringList series = window.currentPage()->lessonTargets(HighlightKind::ChartSeries);
        QVERIFY(!series.isEmpty());
        QString error;
        QVERIFY2(window.startLesson(smallLesson(series.first()), 1, &error), qPrintable(error));
        settle();
        Page *page = window.currentPage();
        const auto expected = [&] {
            const QRect in_page = page->lessonTargetRect(HighlightKind::ChartSeries, series.first());
            return QRect(page->mapTo(&window, in_page.topLeft()), in_page.size())
                .intersected(window.lessonOverlay()->dimRect());
        };
        LessonOverlay *overlay = window.lessonOverlay();
        QVERIFY(!overlay->targetRect().isNull());
        QCOMPARE(overlay->targetRect(), expected());
        QVERIFY(overlay->outlineRect().contains(overlay->targetRect()));
        const QRect small = overlay->targetRect();

        window.resize(1600, 1000);
        settle();
        QCOMPARE(overlay->geometry(), window.rect());
        QCOMPARE(overlay->targetRect(), expected());
        QVERIFY(overlay->targetRect() != small);

        // Scrolling the page moves the target with it.
        auto *scroll = page->findChild<QScrollArea *>();
        QVERIFY(scroll);
        window.resize(1024, 768);
        settle();
        const QRect unscrolled = overlay->targetRect();
        scroll->verticalScrollBar()->setValue(40);
        settle();
        QCOMPARE(overlay->targetRect(), expected());
        QVERIFY(overlay->targetRect() != unscrolled);

        // A step without a highlight dims nothing.
        window.lessonController()->goToStep(0);
        settle();
        QVERIFY(overlay->targetRect().isNull());
    }

    void nextAdvancesTheAnimationFirst()
    {
        Lesson lesson = smallLesson();
        lesson.steps.at(0).page_settings = QJsonObject{{"animate", true}};
        LessonController controller;
        int frames_left = 2;
        int calls = 0;
        controller.setAnimationAdvancer([&] {
            ++calls;
            return frames_left-- > 0;
        });
        QString error;
        QVERIFY(controller.start(lesson, 0, &error));
        QSignalSpy steps(&controller, &LessonController::stepChanged);
        QVERIFY(controller.next());
        QVERIFY(controller.next());
        QCOMPARE(controller.stepIndex(), 0);  // two frames of the animation
        QCOMPARE(steps.count(), 0);
        QVERIFY(controller.next());  // the animation is at its end: the next step
        QCOMPARE(controller.stepIndex(), 1);
        QCOMPARE(calls, 3);
        QVERIFY(controller.next());  // step 2 does not animate: its question's answer
        QCOMPARE(calls, 3);
    }

    void badPageSettingsShowInTheBar()
    {
        Lesson lesson = smallLesson();
        lesson.steps.at(0).page_settings = QJsonObject{{"no_such_setting", 1}};
        MainWindow window(false);
        QString error;
        QVERIFY(window.startLesson(lesson, 0, &error));
        auto *bar = qobject_cast<LessonBar *>(window.lessonBar());
        QVERIFY2(bar->errorShown().contains(QLatin1String("no_such_setting")), qPrintable(bar->errorShown()));
        window.lessonController()->next();
        QVERIFY(bar->errorShown().isEmpty());
    }

    void unknownPageRefusesTheLessonNamingTheStep()
    {
        Lesson lesson = smallLesson();
        lesson.steps.at(1).page = "no-such-page";
        MainWindow window(false);
        QString error;
        QVERIFY(!window.startLesson(lesson, 0, &error));
        QVERIFY2(error.contains(QLatin1String("steps[1].page")) && error.contains(QLatin1String("no-such-page")),
                 qPrintable(error));
        QVERIFY(!window.inLesson());
    }

    void fieldHighlightPointsAtTheLessonEditor()
    {
        Lesson lesson = smallLesson();
        lesson.steps.at(0).highlight = Highlight{HighlightKind::Field, "model.n_layers"};
        MainWindow window(false);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;
        QVERIFY(window.startLesson(lesson, 0, &error));
        settle();
        QWidget *field = window.lessonEditor()->fieldWidget("model.n_layers");
        QVERIFY(field);
        QCOMPARE(window.lessonOverlay()->targetRect(), QRect(field->mapTo(&window, QPoint(0, 0)), field->size()));
        QCOMPARE(window.lessonOverlay()->dimRect(), window.rect());

        // A field on another tab of the editor (Cluster): the lesson shows that tab.
        lesson.steps.at(1).highlight = Highlight{HighlightKind::Field, "cluster.gpus"};
        QVERIFY(window.startLesson(lesson, 1, &error));
        settle();
        QWidget *gpus = window.lessonEditor()->fieldWidget("cluster.gpus");
        QVERIFY(gpus);
        QVERIFY(gpus->isVisible());
        QCOMPARE(window.lessonOverlay()->targetRect(), QRect(gpus->mapTo(&window, QPoint(0, 0)), gpus->size()));

        // Presentation mode hides the editor, except on a step that points at one of its fields.
        window.setPresentation(true);
        QVERIFY(window.startLesson(lesson, 1, &error));
        settle();
        QVERIFY(gpus->isVisible());
        QVERIFY(!window.lessonOverlay()->targetRect().isEmpty());
        QVERIFY(window.startLesson(lesson, 2, &error));
        settle();
        QVERIFY(!gpus->isVisible());
        window.endLesson();
        QVERIFY(!window.editor()->isVisible());
        window.setPresentation(false);
        QVERIFY(window.editor()->isVisible());
    }

    void barGrowsWithPresentationFonts()
    {
        MainWindow window(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;
        QVERIFY(window.startLesson(smallLesson(), 0, &error));
        auto *text = window.lessonBar()->findChildren<QLabel *>().at(2);  // title, step, text
        const double normal = text->font().pointSizeF();
        window.setPresentation(true);
        settle();
        QVERIFY2(text->font().pointSizeF() > normal, qPrintable(QStringLiteral("%1 -> %2, bar %3, app %4").arg(normal).arg(text->font().pointSizeF()).arg(window.lessonBar()->font().pointSizeF()).arg(QApplication::font().pointSizeF())));
        window.setPresentation(false);
        settle();
        QCOMPARE(text->font().pointSizeF(), normal);
    }

    void commandLineRefusesAStepOutOfRange()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("lesson.json");
        QVERIFY(saveLessonFile(smallLesson(), path.toStdString()).empty());
        const auto run = [](const QStringList &arguments) {
            QProcess process;
            process.start(QStringLiteral(LSE_GUI_PATH), arguments);
            if (!process.waitForFinished(120000))
                qFatal("llm-explorer did not finish");
            return std::pair(process.exitCode(), QString::fromUtf8(process.readAllStandardError()));
        };
        for (const QString &step : {QStringLiteral("4"), QStringLiteral("0"), QStringLiteral("two")}) {
            const auto [code, error] = run({"--lesson", path, "--step", step, "--screenshot", dir.filePath("x.png")});
            QCOMPARE(code, 2);
            QVERIFY2(error.contains(QLatin1String("--step")) && error.contains(QLatin1String("1 to 3")), qPrintable(error));
        }
        const auto [code, error] = run({"--lesson", "no-such-lesson", "--screenshot", dir.filePath("x.png")});
        QCOMPARE(code, 2);
        QVERIFY2(error.contains(QLatin1String("--lesson")), qPrintable(error));
        const auto [step_code, step_error] = run({"--step", "1", "--screenshot", dir.filePath("x.png")});
        QCOMPARE(step_code, 2);
        QVERIFY2(step_error.contains(QLatin1String("--step")), qPrintable(step_error));

        // One line per built-in lesson: id, a tab, title, a tab, step count.
        QProcess list;
        list.start(QStringLiteral(LSE_GUI_PATH), {"--list-lessons"});
        QVERIFY(list.waitForFinished(120000));
        QCOMPARE(list.exitCode(), 0);
        const QStringList lines = QString::fromUtf8(list.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), qsizetype(builtinLessons().size()));
        for (const QString &line : lines)
            QVERIFY2(line.split('\t').size() == 3 && line.split('\t').at(2).toInt() > 0, qPrintable(line));

        const QString png = dir.filePath("step.png");
        const auto [ok_code, ok_error] = run({"--lesson", path, "--step", "2", "--screenshot", png, "--size", "1024x768"});
        QCOMPARE(ok_code, 0);
        QVERIFY2(QImage(png).size() == QSize(1024, 768), qPrintable(ok_error));
    }
};

QTEST_MAIN(TestLessonMode)
#include "test_lesson_mode.moc"
