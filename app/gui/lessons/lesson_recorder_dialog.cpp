// SPDX-License-Identifier: GPL-3.0-or-later
#include "lessons/lesson_recorder_dialog.h"

#include "lessons/lesson_recorder.h"
#include "lessons/lesson_recorder_step_editor.h"
#include "work_progress_dialog.h"
#include "pages/page.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRegularExpression>
#include <QRegularExpressionValidator>
#include <QVBoxLayout>

#include <utility>

namespace lse::gui {
namespace {

constexpr int kPreviewWords = 8;  // enough of the text to tell steps apart in the list

QString firstWords(const std::string &text)
{
    const QStringList words = QString::fromStdString(text).simplified().split(QLatin1Char(' '));
    QString preview = words.mid(0, kPreviewWords).join(QLatin1Char(' '));
    if (words.size() > kPreviewWords)
        preview += QStringLiteral("…");
    return preview;
}

// Delete on the step list deletes the selected step; text fields keep their own Delete.
class DeleteKeyFilter : public QObject {
public:
    DeleteKeyFilter(std::function<void()> on_delete, QObject *parent)
        : QObject(parent), on_delete_(std::move(on_delete))
    {
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::KeyPress && static_cast<QKeyEvent *>(event)->key() == Qt::Key_Delete) {
            on_delete_();
            return true;
        }
        return QObject::eventFilter(watched, event);
    }

private:
    std::function<void()> on_delete_;
};

}  // namespace

RecordingSource recordingSourceOf(const Page &page, const Scenario &scenario)
{
    const Page *source = &page;
    return RecordingSource{page.id(), scenario, page.lessonSettings(),
                           [source](HighlightKind kind) { return source->lessonTargets(kind); }};
}

LessonRecorderDialog::LessonRecorderDialog(CaptureCurrentView capture, QWidget *parent)
    : QDialog(parent), capture_(std::move(capture)), recorder_(new LessonRecorder(this))
{
    setWindowTitle(tr("Record a lesson"));
    setModal(false);

    id_edit_ = new QLineEdit(this);
    id_edit_->setToolTip(tr("The lesson's name for --lesson: lower-case letters, digits and '-'."));
    // The id also names the slide files, so it stays a plain file-name part.
    id_edit_->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[a-z0-9][a-z0-9-]*")),
                                                           id_edit_));
    title_en_edit_ = new QLineEdit(this);
    title_en_edit_->setToolTip(tr("The lesson's title in English (required)."));
    title_zh_edit_ = new QLineEdit(this);
    title_zh_edit_->setToolTip(tr("The lesson's title in Simplified Chinese (optional)."));
    lecture_edit_ = new QLineEdit(this);
    lecture_edit_->setToolTip(tr("Which lecture of the course the lesson follows."));

    step_list_ = new QListWidget(this);
    step_list_->setToolTip(tr("The recorded steps: page, number of scenario changes, first words of the text."));
    step_list_->installEventFilter(new DeleteKeyFilter([this] { deleteSelectedStep(); }, this));

    auto button = [this](const QString &text, const QString &tip, void (LessonRecorderDialog::*slot)()) {
        auto *made = new QPushButton(text, this);
        made->setToolTip(tip);
        made->setAutoDefault(false);
        connect(made, &QPushButton::clicked, this, slot);
        return made;
    };
    record_button_ = button(tr("Record step"),
                            tr("Add the page shown now, its settings and the scenario's changes since the "
                               "last step, with a text you write."),
                            &LessonRecorderDialog::recordStep);
    edit_button_ = button(tr("Edit step…"), tr("Change the selected step's text, question and highlight."),
                          &LessonRecorderDialog::editSelectedStep);
    up_button_ = button(tr("Move up"), tr("Show the selected step one step earlier."),
                        &LessonRecorderDialog::moveSelectedUp);
    down_button_ = button(tr("Move down"), tr("Show the selected step one step later."),
                          &LessonRecorderDialog::moveSelectedDown);
    delete_button_ = button(tr("Delete"), tr("Remove the selected step (Delete key)."),
                            &LessonRecorderDialog::deleteSelectedStep);
    save_button_ = button(tr("Save…"), tr("Write the lesson file."), &LessonRecorderDialog::saveWithDialog);
    open_button_ = button(tr("Open…"), tr("Continue a lesson from its file."), &LessonRecorderDialog::openWithDialog);
    pdf_button_ = button(tr("Export PDF…"), tr("A handout with one page per step: the page, the text, the "
                                               "question and its answer."),
                         &LessonRecorderDialog::exportPdfWithDialog);
    slides_button_ = button(tr("Export slides…"), tr("One PNG per step in a folder, for slides."),
                            &LessonRecorderDialog::exportSlidesWithDialog);

    status_label_ = new QLabel(this);
    status_label_->setWordWrap(true);
    status_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *details = new QFormLayout;
    details->addRow(tr("Id:"), id_edit_);
    details->addRow(tr("Title (English):"), title_en_edit_);
    details->addRow(tr("Title (Chinese):"), title_zh_edit_);
    details->addRow(tr("Lecture:"), lecture_edit_);
    auto *step_buttons = new QVBoxLayout;
    for (QPushButton *made : {record_button_, edit_button_, up_button_, down_button_, delete_button_})
        step_buttons->addWidget(made);
    step_buttons->addStretch();
    auto *steps = new QHBoxLayout;
    steps->addWidget(step_list_, 1);
    steps->addLayout(step_buttons);
    auto *file_buttons = new QHBoxLayout;
    for (QPushButton *made : {open_button_, save_button_, pdf_button_, slides_button_})
        file_buttons->addWidget(made);
    file_buttons->addStretch();
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(details);
    layout->addLayout(steps, 1);
    layout->addWidget(status_label_);
    layout->addLayout(file_buttons);

    connect(id_edit_, &QLineEdit::textEdited, recorder_, &LessonRecorder::setId);
    connect(lecture_edit_, &QLineEdit::textEdited, recorder_, &LessonRecorder::setLecture);
    auto set_title = [this] {
        recorder_->setTitle({title_en_edit_->text().toStdString(), title_zh_edit_->text().toStdString()});
    };
    connect(title_en_edit_, &QLineEdit::textEdited, this, set_title);
    connect(title_zh_edit_, &QLineEdit::textEdited, this, set_title);
    connect(recorder_, &LessonRecorder::stepsChanged, this, &LessonRecorderDialog::refreshSteps);
    connect(step_list_, &QListWidget::currentRowChanged, this, &LessonRecorderDialog::updateButtons);
    connect(step_list_, &QListWidget::itemDoubleClicked, this, &LessonRecorderDialog::editSelectedStep);
    refreshSteps();
    resize(720, 520);
}

void LessonRecorderDialog::setStepRenderer(StepRenderer renderer)
{
    renderer_ = std::move(renderer);
    updateButtons();
}

int LessonRecorderDialog::selectedStep() const { return step_list_->currentRow(); }

void LessonRecorderDialog::selectStep(int index) { step_list_->setCurrentRow(index); }

LessonRecorderStepEditor *LessonRecorderDialog::stepEditor() const { return editor_; }

QString LessonRecorderDialog::statusText() const { return status_label_->text(); }

void LessonRecorderDialog::recordStep()
{
    const std::optional<RecordingSource> source = capture_ ? capture_() : std::nullopt;
    if (!source) {
        showStatus(tr("Nothing to record: no page is shown, or the scenario is not valid (fix it first)."), true);
        return;
    }
    // Non-modal to the app (the lecturer may look at the page) but one editor at a time.
    delete editor_;
    editor_ = new LessonRecorderStepEditor(source->page_id, source->targets, this);
    editor_->setAttribute(Qt::WA_DeleteOnClose);
    connect(editor_, &QDialog::accepted, this, [this, captured = *source] {
        const StepTexts texts = editor_->texts();
        recorder_->addStep(RecordedStepInput{captured.page_id, captured.scenario, captured.page_settings,
                                             texts.highlight, texts.text, texts.question, texts.answer});
        selectStep(recorder_->stepCount() - 1);
        showStatus(tr("Recorded step %1 on page %2.").arg(recorder_->stepCount()).arg(captured.page_id), false);
    });
    editor_->open();
}

void LessonRecorderDialog::editSelectedStep()
{
    const int index = selectedStep();
    if (index < 0 || index >= recorder_->stepCount())
        return;
    const LessonStep &step = recorder_->lesson().steps[std::size_t(index)];
    delete editor_;
    // Targets are the current page's only when that page is the step's; otherwise the kind's combo
    // stays editable and empty.
    std::function<QStringList(HighlightKind)> targets;
    if (const std::optional<RecordingSource> source = capture_ ? capture_() : std::nullopt;
        source && source->page_id.toStdString() == step.page)
        targets = source->targets;
    editor_ = new LessonRecorderStepEditor(QString::fromStdString(step.page), targets, this);
    editor_->setAttribute(Qt::WA_DeleteOnClose);
    editor_->setTexts(StepTexts{step.text, step.question, step.answer, step.highlight});
    connect(editor_, &QDialog::accepted, this, [this, index] {
        const StepTexts texts = editor_->texts();
        recorder_->setStepText(index, texts.text);
        recorder_->setStepQuestion(index, texts.question, texts.answer);
        recorder_->setStepHighlight(index, texts.highlight);
        selectStep(index);
    });
    editor_->open();
}

void LessonRecorderDialog::moveSelectedUp()
{
    const int index = selectedStep();
    if (recorder_->moveStep(index, index - 1))
        selectStep(index - 1);
}

void LessonRecorderDialog::moveSelectedDown()
{
    const int index = selectedStep();
    if (recorder_->moveStep(index, index + 1))
        selectStep(index + 1);
}

void LessonRecorderDialog::deleteSelectedStep()
{
    const int index = selectedStep();
    if (recorder_->removeStep(index))
        selectStep(std::min(index, recorder_->stepCount() - 1));
}

bool LessonRecorderDialog::saveTo(const QString &path)
{
    QString error;
    if (!recorder_->save(path, &error)) {
        showStatus(error, true);
        emit errorShown(error);
        return false;
    }
    showStatus(tr("Saved %1.").arg(QDir::toNativeSeparators(path)), false);
    return true;
}

bool LessonRecorderDialog::openFrom(const QString &path)
{
    QString error;
    if (!recorder_->load(path, &error)) {
        showStatus(error, true);
        emit errorShown(error);
        return false;
    }
    refreshDetails();
    showStatus(tr("Opened %1.").arg(QDir::toNativeSeparators(path)), false);
    return true;
}

void LessonRecorderDialog::saveWithDialog()
{
    const QString suggested = QDir(last_folder_).filePath(
        QString::fromStdString(recorder_->lesson().id.empty() ? std::string("lesson") : recorder_->lesson().id) +
        QStringLiteral(".json"));
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Save lesson"), suggested, tr("Lesson files (*.json)"));
    if (path.isEmpty())
        return;
    last_folder_ = QFileInfo(path).absolutePath();
    saveTo(path);
}

void LessonRecorderDialog::openWithDialog()
{
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open lesson"), last_folder_, tr("Lesson files (*.json)"));
    if (path.isEmpty())
        return;
    last_folder_ = QFileInfo(path).absolutePath();
    openFrom(path);
}

std::optional<QList<HandoutStep>> LessonRecorderDialog::handoutSteps()
{
    QList<HandoutStep> steps;
    for (int k = 0; k < recorder_->stepCount(); ++k) {
        std::optional<HandoutStep> step = renderer_ ? renderer_(recorder_->lesson(), k) : std::nullopt;
        if (!step) {
            const QString message = tr("Cannot show step %1 for the handout.").arg(k + 1);
            showStatus(message, true);
            emit errorShown(message);
            return std::nullopt;
        }
        steps.append(std::move(*step));
    }
    return steps;
}

bool LessonRecorderDialog::exportPdfTo(const QString &path, const HandoutProgress &progress)
{
    const std::optional<QList<HandoutStep>> steps = handoutSteps();
    if (!steps)
        return false;
    QString error;
    if (!LessonHandout::writePdf(*steps, path, progress, &error)) {
        showStatus(error, true);
        emit errorShown(error);
        return false;
    }
    showStatus(tr("Wrote %1.").arg(QDir::toNativeSeparators(path)), false);
    return true;
}

bool LessonRecorderDialog::exportSlidesTo(const QString &folder, const HandoutProgress &progress)
{
    const std::optional<QList<HandoutStep>> steps = handoutSteps();
    if (!steps)
        return false;
    QString error;
    const QString id = recorder_->lesson().id.empty() ? QStringLiteral("lesson")
                                                       : QString::fromStdString(recorder_->lesson().id);
    if (!LessonHandout::writePngs(*steps, folder, id, progress, &error)) {
        showStatus(error, true);
        emit errorShown(error);
        return false;
    }
    showStatus(tr("Wrote %n slide(s) to %1.", nullptr, int(steps->size())).arg(QDir::toNativeSeparators(folder)),
               false);
    return true;
}

void LessonRecorderDialog::exportPdfWithDialog()
{
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export handout"), last_folder_, tr("PDF files (*.pdf)"));
    if (path.isEmpty())
        return;
    last_folder_ = QFileInfo(path).absolutePath();
    WorkProgressDialog progress(tr("Writing the handout…"), recorder_->stepCount(), this);
    exportPdfTo(path, [&progress](int done, int total) {
        progress.setMaximum(total);
        progress.setValue(done);
        return !progress.wasCanceled();
    });
}

void LessonRecorderDialog::exportSlidesWithDialog()
{
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Export slides to"), last_folder_);
    if (folder.isEmpty())
        return;
    last_folder_ = folder;
    WorkProgressDialog progress(tr("Writing the slides…"), recorder_->stepCount(), this);
    exportSlidesTo(folder, [&progress](int done, int total) {
        progress.setMaximum(total);
        progress.setValue(done);
        return !progress.wasCanceled();
    });
}

void LessonRecorderDialog::refreshSteps()
{
    const int selected = selectedStep();
    step_list_->clear();
    const Lesson &lesson = recorder_->lesson();
    for (std::size_t k = 0; k < lesson.steps.size(); ++k) {
        const LessonStep &step = lesson.steps[k];
        step_list_->addItem(tr("%1. %2 · %3 · %4")
                                .arg(int(k) + 1)
                                .arg(QString::fromStdString(step.page),
                                     tr("%n change(s)", nullptr, int(step.scenario_changes.size())),
                                     firstWords(step.text.en)));
    }
    step_list_->setCurrentRow(std::min(selected, step_list_->count() - 1));
    updateButtons();
}

void LessonRecorderDialog::refreshDetails()
{
    const Lesson &lesson = recorder_->lesson();
    id_edit_->setText(QString::fromStdString(lesson.id));
    title_en_edit_->setText(QString::fromStdString(lesson.title.en));
    title_zh_edit_->setText(QString::fromStdString(lesson.title.zh_CN));
    lecture_edit_->setText(QString::fromStdString(lesson.lecture));
}

void LessonRecorderDialog::updateButtons()
{
    const int index = selectedStep();
    const int count = recorder_->stepCount();
    const bool selected = index >= 0 && index < count;
    edit_button_->setEnabled(selected);
    up_button_->setEnabled(selected && index > 0);
    down_button_->setEnabled(selected && index + 1 < count);
    delete_button_->setEnabled(selected);
    save_button_->setEnabled(count > 0);
    pdf_button_->setEnabled(count > 0 && bool(renderer_));
    slides_button_->setEnabled(count > 0 && bool(renderer_));
}

void LessonRecorderDialog::showStatus(const QString &message, bool is_error)
{
    status_label_->setText(message);
    status_label_->setStyleSheet(is_error ? QStringLiteral("color: #c62828;") : QString());
}

}  // namespace lse::gui
