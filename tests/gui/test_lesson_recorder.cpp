// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 18, "Record step": a lesson written from what the app shows. The recorded scenarios come
// back exactly from the saved file (through lessonScenarios), also after steps are moved or deleted;
// the dialog's buttons drive the recorder.

#include "lessons/lesson_catalog.h"
#include "lessons/lesson_recorder.h"
#include "lessons/lesson_recorder_dialog.h"
#include "lessons/lesson_recorder_step_editor.h"
#include "lessons/lesson_scenario.h"
#include "pages/page.h"
#include "scenario/scenario_json.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QFile>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextEdit>

#include <optional>
#include <vector>

using namespace lse;
using namespace lse::gui;

namespace {

// Three scenarios that differ from the start and from one another in more than one field, so a
// difference taken against the wrong step shows.
std::vector<Scenario> threeScenarios()
{
    Scenario first = defaultScenario();
    first.training.tokens = 1'000'000'000'000;
    Scenario second = first;
    second.training.global_batch = first.training.global_batch * 2;
    Scenario third = second;
    third.training.tokens = 3'000'000'000'000;
    return {first, second, third};
}

QByteArray fileForm(const Scenario &scenario) { return scenarioToJson(scenario); }

// lessonScenarios(lesson) is what a lesson shows; it must be what was recorded, step by step.
void verifyShowsRecorded(const LessonRecorder &recorder, const std::vector<Scenario> &expected)
{
    const Result<std::vector<Scenario>> shown = lessonScenarios(recorder.lesson());
    QVERIFY2(shown.ok(), formatProblems(shown.problems()).c_str());
    QCOMPARE(int(shown->size()), int(expected.size()));
    for (std::size_t k = 0; k < expected.size(); ++k) {
        QCOMPARE(fileForm((*shown)[k]), fileForm(expected[k]));
        QCOMPARE(fileForm(recorder.recordedScenario(int(k))), fileForm(expected[k]));
    }
}

// QCOMPARE inside the helper only leaves the helper; this leaves the test too.
#define VERIFY_SHOWS_RECORDED(recorder, ...)                   \
    do {                                                       \
        verifyShowsRecorded(recorder, __VA_ARGS__);            \
        if (QTest::currentTestFailed())                        \
            return;                                            \
    } while (false)

RecordedStepInput stepOn(const QString &page, const Scenario &scenario, const std::string &text)
{
    return RecordedStepInput{page, scenario, QJsonObject{{QStringLiteral("phase"), QStringLiteral("decode")}},
                             Highlight{HighlightKind::Region, "summary"}, LocalizedText{text, "中文 " + text},
                             LocalizedText{"How many days?", "多少天？"}, LocalizedText{"{time.days}", ""}};
}

void recordThree(LessonRecorder &recorder)
{
    const std::vector<Scenario> scenarios = threeScenarios();
    recorder.setId(QStringLiteral("recorded"));
    recorder.setTitle({"Recorded lesson", "录制的课程"});
    recorder.setLecture(QStringLiteral("Lecture 2"));
    recorder.addStep(stepOn(QStringLiteral("time"), scenarios[0], "First step."));
    recorder.addStep(stepOn(QStringLiteral("memory"), scenarios[1], "Second step."));
    recorder.addStep(stepOn(QStringLiteral("roofline"), scenarios[2], "Third step."));
}

// A page with fixed highlight targets, standing in for a real page.
class TargetPage : public Page {
public:
    using Page::Page;
    QString id() const override { return QStringLiteral("target-page"); }
    QString title() const override { return QStringLiteral("Target page"); }
    QJsonObject lessonSettings() const override { return {{QStringLiteral("batch"), 16}}; }
    QStringList lessonTargets(HighlightKind kind) const override
    {
        if (kind == HighlightKind::TableRow)
            return {QStringLiteral("breakdown/weights"), QStringLiteral("breakdown/activations")};
        return {};
    }
};

}  // namespace

class TestLessonRecorder : public QObject {
    Q_OBJECT
private slots:
    void threeStepsRoundTripThroughTheFile()
    {
        const std::vector<Scenario> scenarios = threeScenarios();
        for (const Scenario &scenario : scenarios)
            QVERIFY(validate(scenario).empty());
        LessonRecorder recorder;
        QSignalSpy steps_changed(&recorder, &LessonRecorder::stepsChanged);
        recordThree(recorder);
        QCOMPARE(steps_changed.count(), 3);
        QCOMPARE(recorder.stepCount(), 3);
        // Each step stores only what changed since the step before.
        QCOMPARE(int(recorder.lesson().steps[1].scenario_changes.size()), 1);
        QCOMPARE(recorder.lesson().steps[1].scenario_changes[0].field, std::string("training.global_batch"));
        VERIFY_SHOWS_RECORDED(recorder, scenarios);

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("recorded.json"));
        QString error;
        QVERIFY2(recorder.save(path, &error), qPrintable(error));
        const Result<Lesson> loaded = loadLessonFile(path.toStdString());
        QVERIFY2(loaded.ok(), formatProblems(loaded.problems()).c_str());
        QCOMPARE(loaded->steps[2].page, std::string("roofline"));
        QCOMPARE(loaded->steps[0].page_settings.value(QStringLiteral("phase")).toString(), QStringLiteral("decode"));
        QCOMPARE(loaded->steps[0].text.zh_CN, std::string("中文 First step."));
        QVERIFY(loaded->steps[0].question.has_value() && loaded->steps[0].answer.has_value());
        const Result<std::vector<Scenario>> shown = lessonScenarios(*loaded);
        QVERIFY(shown.ok());
        for (std::size_t k = 0; k < scenarios.size(); ++k)
            QCOMPARE(fileForm((*shown)[k]), fileForm(scenarios[k]));

        // Continuing the lesson from its file gives the same steps and scenarios.
        LessonRecorder continued;
        QSignalSpy continued_changed(&continued, &LessonRecorder::stepsChanged);
        QVERIFY2(continued.load(path, &error), qPrintable(error));
        QCOMPARE(continued_changed.count(), 1);
        QCOMPARE(continued.lesson().title.zh_CN, std::string("录制的课程"));
        QCOMPARE(continued.lesson().lecture, std::string("Lecture 2"));
        VERIFY_SHOWS_RECORDED(continued, scenarios);
    }

    void reorderAndDeleteKeepEachRecordedScenario()
    {
        const std::vector<Scenario> s = threeScenarios();
        LessonRecorder recorder;
        recordThree(recorder);
        QSignalSpy steps_changed(&recorder, &LessonRecorder::stepsChanged);

        QVERIFY(recorder.moveStep(2, 0));
        QCOMPARE(recorder.lesson().steps[0].page, std::string("roofline"));
        VERIFY_SHOWS_RECORDED(recorder, {s[2], s[0], s[1]});
        QVERIFY(recorder.moveStep(0, 2));
        VERIFY_SHOWS_RECORDED(recorder, s);

        // Without the middle step the last one must carry the global batch change itself.
        QVERIFY(recorder.removeStep(1));
        QCOMPARE(recorder.stepCount(), 2);
        VERIFY_SHOWS_RECORDED(recorder, {s[0], s[2]});
        QVERIFY(recorder.removeStep(0));
        VERIFY_SHOWS_RECORDED(recorder, {s[2]});
        QCOMPARE(steps_changed.count(), 4);

        // Out of range changes nothing.
        QVERIFY(!recorder.moveStep(0, 1));
        QVERIFY(!recorder.removeStep(1));
        QVERIFY(!recorder.setStepText(-1, {"x", ""}));
        QCOMPARE(steps_changed.count(), 4);
        QVERIFY(recorder.setStepText(0, {"Edited.", ""}));
        QCOMPARE(recorder.lesson().steps[0].text.en, std::string("Edited."));
        QCOMPARE(steps_changed.count(), 5);
    }

    void addStepInTheIssuesWordsChecksThePreviousScenario()
    {
        const std::vector<Scenario> s = threeScenarios();
        LessonRecorder recorder;
        QVERIFY(recorder.addStep(QStringLiteral("time"), defaultScenario(), s[0], {}, std::nullopt, {"One.", ""}));
        // The previous scenario is the last recorded one; anything else would make the step lie.
        QVERIFY(!recorder.addStep(QStringLiteral("time"), defaultScenario(), s[1], {}, std::nullopt, {"Two.", ""}));
        QCOMPARE(recorder.stepCount(), 1);
        QVERIFY(recorder.addStep(QStringLiteral("time"), s[0], s[1], {}, std::nullopt, {"Two.", ""}));
        VERIFY_SHOWS_RECORDED(recorder, {s[0], s[1]});
    }

    void saveAndLoadProblemsNameTheFile()
    {
        QTemporaryDir dir;
        LessonRecorder recorder;
        QString error;
        const QString empty_path = dir.filePath(QStringLiteral("empty.json"));
        QVERIFY(!recorder.save(empty_path, &error));  // no steps, no id: it would not load back
        QVERIFY2(error.contains(empty_path), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("steps")), qPrintable(error));
        QVERIFY(!QFile::exists(empty_path));

        recordThree(recorder);
        const QString unwritable = dir.filePath(QStringLiteral("missing/folder/lesson.json"));
        QVERIFY(!recorder.save(unwritable, &error));
        QVERIFY2(error.contains(unwritable), qPrintable(error));

        const QString broken = dir.filePath(QStringLiteral("broken.json"));
        QFile file(broken);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"format\": \"llm-explorer-lesson\"");
        file.close();
        QSignalSpy steps_changed(&recorder, &LessonRecorder::stepsChanged);
        QVERIFY(!recorder.load(broken, &error));
        QVERIFY2(error.contains(broken), qPrintable(error));
        QCOMPARE(steps_changed.count(), 0);
        QCOMPARE(recorder.stepCount(), 3);
    }

    void dialogButtonsRecordMoveDeleteAndSave()
    {
        TargetPage page;
        Scenario current = threeScenarios()[0];
        int captures = 0;
        LessonRecorderDialog dialog([&]() -> std::optional<RecordingSource> {
            ++captures;
            return recordingSourceOf(page, current);
        });
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        LessonRecorder *recorder = dialog.recorder();
        QSignalSpy steps_changed(recorder, &LessonRecorder::stepsChanged);
        auto buttonNamed = [&dialog](const QString &text) {
            for (QPushButton *button : dialog.findChildren<QPushButton *>(QString(), Qt::FindDirectChildrenOnly))
                if (button->text() == text)
                    return button;
            return static_cast<QPushButton *>(nullptr);
        };
        QPushButton *record_button = buttonNamed(QStringLiteral("Record step"));
        QPushButton *up = buttonNamed(QStringLiteral("Move up"));
        QPushButton *down = buttonNamed(QStringLiteral("Move down"));
        QPushButton *remove = buttonNamed(QStringLiteral("Delete"));
        QVERIFY(record_button && up && down && remove);
        QVERIFY(!record_button->toolTip().isEmpty() && !remove->toolTip().isEmpty());

        // Record step opens the editor; the page's table rows are offered as targets.
        auto recordWith = [&](const QString &text, bool with_highlight) {
            QTest::mouseClick(record_button, Qt::LeftButton);
            LessonRecorderStepEditor *editor = dialog.stepEditor();
            QVERIFY(editor != nullptr);
            QVERIFY(!editor->buttons()->button(QDialogButtonBox::Ok)->isEnabled());  // no text yet
            editor->textEnglish()->setFocus();
            QTest::keyClicks(editor->textEnglish(), text);
            if (with_highlight) {
                editor->highlightKind()->setCurrentIndex(
                    editor->highlightKind()->findData(int(HighlightKind::TableRow)));
                QCOMPARE(editor->highlightTarget()->count(), 2);
                QCOMPARE(editor->highlightTarget()->itemText(1), QStringLiteral("breakdown/activations"));
                editor->highlightTarget()->setCurrentIndex(1);
            }
            QVERIFY(editor->buttons()->button(QDialogButtonBox::Ok)->isEnabled());
            QTest::mouseClick(editor->buttons()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        };
        recordWith(QStringLiteral("First."), true);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(recorder->stepCount(), 1);
        QCOMPARE(captures, 1);
        QCOMPARE(recorder->lesson().steps[0].page, std::string("target-page"));
        QCOMPARE(recorder->lesson().steps[0].page_settings.value(QStringLiteral("batch")).toInt(), 16);
        QVERIFY(recorder->lesson().steps[0].highlight.has_value());
        QCOMPARE(recorder->lesson().steps[0].highlight->target, std::string("breakdown/activations"));
        current = threeScenarios()[1];
        recordWith(QStringLiteral("Second."), false);
        current = threeScenarios()[2];
        recordWith(QStringLiteral("Third."), false);
        QCOMPARE(recorder->stepCount(), 3);
        QCOMPARE(steps_changed.count(), 3);
        QCOMPARE(dialog.stepList()->count(), 3);
        QVERIFY2(dialog.stepList()->item(1)->text().contains(QStringLiteral("1 change")),
                 qPrintable(dialog.stepList()->item(1)->text()));
        QVERIFY(dialog.stepList()->item(2)->text().contains(QStringLiteral("Third.")));

        // Cancelling the editor records nothing.
        QTest::mouseClick(record_button, Qt::LeftButton);
        QVERIFY(dialog.stepEditor() != nullptr);
        dialog.stepEditor()->reject();
        QCOMPARE(recorder->stepCount(), 3);

        dialog.selectStep(2);
        QTest::mouseClick(up, Qt::LeftButton);
        QCOMPARE(recorder->lesson().steps[1].text.en, std::string("Third."));
        QCOMPARE(dialog.selectedStep(), 1);
        QTest::mouseClick(down, Qt::LeftButton);
        QCOMPARE(recorder->lesson().steps[2].text.en, std::string("Third."));
        QCOMPARE(dialog.selectedStep(), 2);
        QVERIFY(!down->isEnabled());
        VERIFY_SHOWS_RECORDED(*recorder, threeScenarios());

        QTest::mouseClick(remove, Qt::LeftButton);
        QCOMPARE(recorder->stepCount(), 2);
        dialog.selectStep(0);
        dialog.stepList()->setFocus();
        QTest::keyClick(dialog.stepList(), Qt::Key_Delete);
        QCOMPARE(recorder->stepCount(), 1);
        QCOMPARE(recorder->lesson().steps[0].text.en, std::string("Second."));
        VERIFY_SHOWS_RECORDED(*recorder, {threeScenarios()[1]});
        QCOMPARE(steps_changed.count(), 7);  // three recorded, moved twice, deleted twice

        // Save: an error is shown naming the file and the field; then a good save.
        QTemporaryDir dir;
        QSignalSpy errors(&dialog, &LessonRecorderDialog::errorShown);
        const QString path = dir.filePath(QStringLiteral("lesson.json"));
        QVERIFY(!dialog.saveTo(path));  // no id or title yet
        QCOMPARE(errors.count(), 1);
        QVERIFY2(dialog.statusText().contains(path), qPrintable(dialog.statusText()));
        QVERIFY2(dialog.statusText().contains(QStringLiteral("id")), qPrintable(dialog.statusText()));
        auto edits = dialog.findChildren<QLineEdit *>(QString(), Qt::FindDirectChildrenOnly);
        QVERIFY(edits.size() >= 3);
        QTest::keyClicks(edits[0], QStringLiteral("my-lesson"));
        QTest::keyClicks(edits[1], QStringLiteral("My lesson"));
        QCOMPARE(recorder->lesson().id, std::string("my-lesson"));
        QCOMPARE(recorder->lesson().title.en, std::string("My lesson"));
        QVERIFY2(dialog.saveTo(path), qPrintable(dialog.statusText()));
        QCOMPARE(errors.count(), 1);

        // Open in a fresh dialog: fields and steps come back.
        LessonRecorderDialog other([]() -> std::optional<RecordingSource> { return std::nullopt; });
        QVERIFY(other.openFrom(path));
        QCOMPARE(other.stepList()->count(), 1);
        auto other_edits = other.findChildren<QLineEdit *>(QString(), Qt::FindDirectChildrenOnly);
        QCOMPARE(other_edits[0]->text(), QStringLiteral("my-lesson"));
        VERIFY_SHOWS_RECORDED(*other.recorder(), {threeScenarios()[1]});
    }

    void dialogEditsExportsAndSaysWhenNothingCanBeRecorded()
    {
        bool page_shown = false;
        TargetPage page;
        LessonRecorderDialog dialog([&]() -> std::optional<RecordingSource> {
            if (!page_shown)
                return std::nullopt;
            return recordingSourceOf(page, threeScenarios()[0]);
        });
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        dialog.recordStep();
        QVERIFY(dialog.stepEditor() == nullptr);
        QCOMPARE(dialog.recorder()->stepCount(), 0);
        QVERIFY(!dialog.statusText().isEmpty());

        page_shown = true;
        dialog.recordStep();
        QVERIFY(dialog.stepEditor() != nullptr);
        dialog.stepEditor()->textEnglish()->setPlainText(QStringLiteral("Before."));
        dialog.stepEditor()->accept();
        QCOMPARE(dialog.recorder()->stepCount(), 1);

        // Edit step: the editor opens with the step's text; a question needs its answer.
        QSignalSpy steps_changed(dialog.recorder(), &LessonRecorder::stepsChanged);
        dialog.selectStep(0);
        dialog.editSelectedStep();
        LessonRecorderStepEditor *editor = dialog.stepEditor();
        QVERIFY(editor != nullptr);
        QCOMPARE(editor->textEnglish()->toPlainText(), QStringLiteral("Before."));
        editor->textEnglish()->setPlainText(QStringLiteral("After."));
        editor->questionEnglish()->setText(QStringLiteral("Why?"));
        QVERIFY(!editor->buttons()->button(QDialogButtonBox::Ok)->isEnabled());
        editor->answerEnglish()->setText(QStringLiteral("Because."));
        QVERIFY(editor->buttons()->button(QDialogButtonBox::Ok)->isEnabled());
        QTest::mouseClick(editor->buttons()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        QVERIFY(steps_changed.count() >= 1);
        const LessonStep &step = dialog.recorder()->lesson().steps[0];
        QCOMPARE(step.text.en, std::string("After."));
        QVERIFY(step.question.has_value() && step.answer.has_value());
        QCOMPARE(step.answer->en, std::string("Because."));

        // Export: without a renderer the buttons are off; with one, a page per step.
        auto buttonNamed = [&dialog](const QString &text) {
            for (QPushButton *button : dialog.findChildren<QPushButton *>(QString(), Qt::FindDirectChildrenOnly))
                if (button->text() == text)
                    return button;
            return static_cast<QPushButton *>(nullptr);
        };
        QPushButton *pdf = buttonNamed(QStringLiteral("Export PDF…"));
        QVERIFY(pdf != nullptr);
        QVERIFY(!pdf->isEnabled());
        int rendered = 0;
        dialog.setStepRenderer([&](const Lesson &lesson, int index) -> std::optional<HandoutStep> {
            ++rendered;
            QImage image(320, 200, QImage::Format_RGB32);
            image.fill(Qt::gray);
            return HandoutStep{image, QString::fromStdString(lesson.title.en),
                               LessonHandout::stepLabel(index + 1, int(lesson.steps.size())),
                               QString::fromStdString(lesson.steps[std::size_t(index)].text.en), {}, {}, {}};
        });
        QVERIFY(pdf->isEnabled());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("handout.pdf"));
        QVERIFY2(dialog.exportPdfTo(path), qPrintable(dialog.statusText()));
        QCOMPARE(rendered, 1);
        QVERIFY(QFileInfo(path).size() > 0);
        QSignalSpy errors(&dialog, &LessonRecorderDialog::errorShown);
        const QString missing = dir.filePath(QStringLiteral("missing"));
        QVERIFY(!dialog.exportSlidesTo(missing));
        QCOMPARE(errors.count(), 1);
        QVERIFY2(errors.first().first().toString().contains(missing), qPrintable(dialog.statusText()));
        QVERIFY(dialog.exportSlidesTo(dir.path()));
        QVERIFY(QFileInfo::exists(dir.filePath(LessonHandout::pngFileName(QStringLiteral("lesson"), 1))));
    }

    void undoWorksInsideTextFields()
    {
        LessonRecorderStepEditor editor(QStringLiteral("time"), {});
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.textEnglish()->setFocus();
        QTest::keyClicks(editor.textEnglish(), QStringLiteral("Hello"));
        QCOMPARE(editor.textEnglish()->toPlainText(), QStringLiteral("Hello"));
        QTest::keyClick(editor.textEnglish(), Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(editor.textEnglish()->toPlainText() != QStringLiteral("Hello"));
        QTest::keyClicks(editor.questionEnglish(), QStringLiteral("Why?"));
        QTest::keyClick(editor.questionEnglish(), Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(editor.questionEnglish()->text() != QStringLiteral("Why?"));
    }
};

QTEST_MAIN(TestLessonRecorder)
#include "test_lesson_recorder.moc"
