// SPDX-License-Identifier: GPL-3.0-or-later
// "Record Steps…" wired into the main window: the recorder records the page the window shows and the
// document's scenario (only the fields that changed), and its handout export renders every step
// through the window, one PDF page per step, then gives the window back to the user's document.
#include "pdf_pages.h"
#include "document/scenario_document.h"
#include "lessons/lesson_recorder.h"
#include "lessons/lesson_recorder_dialog.h"
#include "lessons/lesson_recorder_step_editor.h"
#include "lessons/lesson_scenario.h"
#include "main_window.h"

#include "scenario/scenario_json.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QTextEdit>

using namespace lse;
using namespace lse::gui;

namespace {

// Records the window's current view with `text` through the dialog's own button and step editor.
void recordStep(LessonRecorderDialog &dialog, const QString &text)
{
    dialog.recordStep();
    LessonRecorderStepEditor *editor = dialog.stepEditor();
    QVERIFY(editor);
    editor->textEnglish()->setPlainText(text);
    editor->accept();
}

}  // namespace

class TestLessonAuthoring : public QObject {
    Q_OBJECT
private slots:
    void recordsThePageAndTheChangedFields()
    {
        MainWindow window(false);
        window.resize(1280, 800);
        window.openLessonRecorder();
        LessonRecorderDialog *dialog = window.lessonRecorder();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());

        QVERIFY(window.selectPage(QStringLiteral("memory")));
        recordStep(*dialog, QStringLiteral("The course example."));
        window.document()->edit(QStringLiteral("cluster.gpus"), QStringLiteral("GPUs"), [](Scenario &scenario) {
            scenario.cluster.gpus = 512;
            scenario.training.parallel.dp = 16;
        });
        QVERIFY(window.document()->isValid());
        QVERIFY(window.selectPage(QStringLiteral("architecture/choices")));
        recordStep(*dialog, QStringLiteral("Half the GPUs."));

        const Lesson &lesson = dialog->recorder()->lesson();
        QCOMPARE(lesson.steps.size(), std::size_t(2));
        QCOMPARE(lesson.steps[0].page, std::string("memory"));
        QVERIFY(lesson.steps[0].scenario_changes.empty());  // the default scenario is the start
        QCOMPARE(lesson.steps[1].page, std::string("architecture/choices"));
        QCOMPARE(lesson.steps[1].scenario_changes.size(), std::size_t(2));
        // Replaying the lesson gives the scenario the document had when each step was recorded.
        const Result<std::vector<Scenario>> replayed = lessonScenarios(lesson);
        QVERIFY(replayed.ok());
        QCOMPARE(scenarioToJson((*replayed)[1]), scenarioToJson(window.document()->scenario()));
    }

    void nothingIsRecordedFromAnInvalidScenario()
    {
        MainWindow window(false);
        window.openLessonRecorder();
        window.document()->edit(QStringLiteral("training.tp"), QStringLiteral("tp"),
                                [](Scenario &scenario) { scenario.training.parallel.tp = 3; });
        QVERIFY(!window.document()->isValid());
        window.lessonRecorder()->recordStep();
        QVERIFY(!window.lessonRecorder()->stepEditor());
        QCOMPARE(window.lessonRecorder()->recorder()->stepCount(), 0);
    }

    void handoutRendersEveryStepThroughTheWindow()
    {
        MainWindow window(false);
        window.resize(1280, 800);
        window.openLessonRecorder();
        LessonRecorderDialog *dialog = window.lessonRecorder();
        for (const char *page : {"overview", "time", "collectives"}) {
            QVERIFY(window.selectPage(QString::fromLatin1(page)));
            recordStep(*dialog, QStringLiteral("Step on %1.").arg(QString::fromLatin1(page)));
        }
        const QString before = QString::fromUtf8(scenarioToJson(window.document()->scenario()));
        QTemporaryDir dir;
        const QString pdf = dir.filePath("recorded.pdf");
        QVERIFY2(dialog->exportPdfTo(pdf), qPrintable(dialog->statusText()));
        QCOMPARE(lse::test::pdfFilePageCount(pdf), 3);
        // The export went through lesson mode and came back out of it.
        QVERIFY(!window.inLesson());
        QCOMPARE(QString::fromUtf8(scenarioToJson(window.document()->scenario())), before);
    }
};

QTEST_MAIN(TestLessonAuthoring)
#include "test_lesson_authoring.moc"
