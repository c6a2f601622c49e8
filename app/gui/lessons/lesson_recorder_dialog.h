// SPDX-License-Identifier: GPL-3.0-or-later
// "Record step" (issue 18): a non-modal dialog where a lecturer writes a lesson without JSON. Its
// buttons record the page the main window shows now, reorder and delete steps, save and open lesson
// files, and export the handout. It knows the main window only through the functions it is given.
#pragma once

#include "lessons/lesson.h"
#include "lessons/lesson_handout.h"
#include "scenario/scenario.h"

#include <QDialog>
#include <QJsonObject>
#include <QPointer>
#include <QStringList>

#include <functional>
#include <optional>

class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace lse::gui {

class LessonRecorder;
class LessonRecorderStepEditor;
class Page;

// What "Record step" takes from the main window: the current page and the document's scenario.
struct RecordingSource {
    QString page_id;
    Scenario scenario;
    QJsonObject page_settings;
    std::function<QStringList(HighlightKind)> targets;  // the page's lessonTargets
};
// The page's id, settings and targets, with `scenario` (the document's). The page must outlive the
// returned targets function (pages live as long as the main window).
RecordingSource recordingSourceOf(const Page &page, const Scenario &scenario);

class LessonRecorderDialog : public QDialog {
    Q_OBJECT
public:
    // nullopt when nothing can be recorded now (no page shown).
    using CaptureCurrentView = std::function<std::optional<RecordingSource>()>;
    // The handout page of step `index` of `lesson`: the step applied and rendered, its text with
    // figures filled in (LessonHandout::stepOf does the texts). nullopt when the step cannot be shown
    // (the export stops with a message).
    using StepRenderer = std::function<std::optional<HandoutStep>(const Lesson &lesson, int index)>;

    explicit LessonRecorderDialog(CaptureCurrentView capture, QWidget *parent = nullptr);
    // Enables "Export PDF…" and "Export slides…".
    void setStepRenderer(StepRenderer renderer);

    LessonRecorder *recorder() const { return recorder_; }
    QListWidget *stepList() const { return step_list_; }
    int selectedStep() const;
    void selectStep(int index);
    // The open step editor while "Record step" or "Edit step" waits for it, else nullptr.
    LessonRecorderStepEditor *stepEditor() const;
    // The message shown under the step list (the last error, or what was saved).
    QString statusText() const;

    // What the buttons do after their file dialogs; false with the message shown on failure.
    bool saveTo(const QString &path);
    bool openFrom(const QString &path);
    bool exportPdfTo(const QString &path, const HandoutProgress &progress = {});
    bool exportSlidesTo(const QString &folder, const HandoutProgress &progress = {});

public slots:
    void recordStep();  // opens the step editor; the step is added when it is accepted
    void editSelectedStep();
    void moveSelectedUp();
    void moveSelectedDown();
    void deleteSelectedStep();
    void saveWithDialog();
    void openWithDialog();
    void exportPdfWithDialog();
    void exportSlidesWithDialog();

signals:
    // A save, open or export failed; `message` names the file and the problem.
    void errorShown(const QString &message);

private:
    void refreshSteps();
    void refreshDetails();
    void updateButtons();
    void showStatus(const QString &message, bool is_error);
    std::optional<QList<HandoutStep>> handoutSteps();
    bool progressWithDialog(int done, int total);

    CaptureCurrentView capture_;
    StepRenderer renderer_;
    LessonRecorder *recorder_;
    // Cleared by Qt when the editor closes (WA_DeleteOnClose) or the dialog deletes its children.
    QPointer<LessonRecorderStepEditor> editor_;
    QLineEdit *id_edit_;
    QLineEdit *title_en_edit_;
    QLineEdit *title_zh_edit_;
    QLineEdit *lecture_edit_;
    QListWidget *step_list_;
    QPushButton *record_button_;
    QPushButton *edit_button_;
    QPushButton *up_button_;
    QPushButton *down_button_;
    QPushButton *delete_button_;
    QPushButton *save_button_;
    QPushButton *open_button_;
    QPushButton *pdf_button_;
    QPushButton *slides_button_;
    QLabel *status_label_;
    QString last_folder_;
};

}  // namespace lse::gui
