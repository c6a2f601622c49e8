// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's lesson authoring and handouts: the "Record Steps…" dialog over the current page, and
// a lesson rendered step by step into a PDF handout and PNG slides.
#include "main_window.h"

#include "common/folder_lock.h"
#include "document/scenario_document.h"
#include "editor/scenario_editor.h"
#include "lessons/lesson_catalog.h"
#include "work_progress_dialog.h"
#include "lessons/lesson_controller.h"
#include "lessons/lesson_handout.h"
#include "lessons/lesson_overlay.h"
#include "lessons/lesson_recorder_dialog.h"
#include "output/output_file.h"
#include "pages/page.h"

#include <QAbstractScrollArea>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QStackedWidget>

namespace lse::gui {

void MainWindow::openLessonRecorder()
{
    if (!lesson_recorder_) {
        lesson_recorder_ = new LessonRecorderDialog(
            [this]() -> std::optional<RecordingSource> {
                Page *page = currentPage();
                // A step replays a scenario, so an invalid one (the stale banner's) cannot be recorded.
                if (!page || !shownDocument()->isValid())
                    return std::nullopt;
                RecordingSource source = recordingSourceOf(*page, shownDocument()->scenario());
                source.page_id = currentPageAndSection();  // "architecture/choices", not just the page
                return source;
            },
            this);
        lesson_recorder_->setStepRenderer(
            [this](const Lesson &lesson, int index) { return renderLessonHandoutStep(lesson, index, true); });
    }
    lesson_recorder_->show();
    lesson_recorder_->raise();
    lesson_recorder_->activateWindow();
}

std::optional<HandoutStep> MainWindow::renderLessonHandoutStep(const Lesson &lesson, int index, bool restore_after_last)
{
    // The window as it was before the first step, put back after the last (or a failure).
    if (index == 0) {
        handout_restore_ = {};
        handout_restore_.was_in_lesson = inLesson();
        if (inLesson()) {
            handout_restore_.lesson = lesson_controller_->lesson();
            handout_restore_.step = lesson_controller_->stepIndex();
        }
    }
    const auto restore = [this] {
        if (handout_restore_.was_in_lesson) {
            QString ignored;  // it ran a moment ago
            startLesson(handout_restore_.lesson, handout_restore_.step, &ignored);
        } else {
            endLesson();
        }
    };
    QString error;
    if (!startLesson(lesson, index, &error)) {
        restore();
        return std::nullopt;
    }
    // The step's target as the page shows it, undimmed and large on the handout (the overlay's
    // dimming and outline stay on the screen); an animated step's region with it; the page area
    // for a step that points at nothing; an editor field in the rows of the form around it,
    // outlined, rather than the whole window at thumbnail size.
    lesson_overlay_->hide();
    const QImage window = renderScreenshot(size());
    lesson_overlay_->show();
    const qreal ratio = window.devicePixelRatio();
    const QRect page_area(stack_->mapTo(this, QPoint(0, 0)), stack_->size());
    QRect crop = page_area;
    QRect outline;
    const std::optional<Highlight> &highlight = lesson.steps[std::size_t(index)].highlight;
    const QString target = highlight ? QString::fromStdString(highlight->target) : QString();
    Page *page = currentPage();
    if (highlight && highlight->kind == HighlightKind::Field) {
        if (QWidget *field = lesson_editor_->fieldWidget(target); field && field->isVisible()) {
            QWidget *form = field->parentWidget();
            for (QWidget *parent = field->parentWidget(); parent; parent = parent->parentWidget())
                if (auto *scroll = qobject_cast<QAbstractScrollArea *>(parent)) {
                    form = scroll->viewport();
                    break;
                }
            const QRect form_rect(form->mapTo(this, QPoint(0, 0)), form->size());
            const QRect field_rect(field->mapTo(this, QPoint(0, 0)), field->size());
            // A few rows above and below: which form, which neighbours.
            const int context = field_rect.height() * 4;
            crop = QRect(form_rect.left(), field_rect.top() - context, form_rect.width(), field_rect.height() + 2 * context)
                       .intersected(form_rect);
            outline = field_rect.translated(-crop.topLeft());
        }
    } else if (page) {
        QRect shown;
        if (highlight) {
            const QRect in_page = page->lessonTargetRect(highlight->kind, target);
            if (!in_page.isNull())
                shown = QRect(page->mapTo(this, in_page.topLeft()), in_page.size());
        }
        if (lesson_controller_->stepAnimates())
            for (const QWidget *widget : page->lessonAnimationWidgets())
                if (widget->isVisible())
                    shown = shown.united(QRect(widget->mapTo(this, QPoint(0, 0)), widget->size()));
        constexpr int kMarginPx = 6;
        if (!shown.isEmpty()) {
            crop = shown.adjusted(-kMarginPx, -kMarginPx, kMarginPx, kMarginPx).intersected(page_area);
            // A flat target (a heading, a status line) would leave half the handout page blank: the
            // page around it too, the target outlined in it.
            constexpr double kWidestAspect = 1.9;  // about the image's room on an A4 landscape page
            const int least_height = std::min(page_area.height(), int(crop.width() / kWidestAspect));
            if (crop.height() < least_height) {
                const int centre = crop.center().y();
                crop.setTop(std::max(page_area.top(), centre - least_height / 2));
                crop.setHeight(least_height);
                if (crop.bottom() > page_area.bottom())
                    crop.moveBottom(page_area.bottom());
                outline = shown.translated(-crop.topLeft());
            }
        }
    }
    const QImage page_image = window.copy(QRect(crop.topLeft() * ratio, crop.size() * ratio));
    HandoutStep step = LessonHandout::stepOf(lesson, index, page_image, lesson_document_->estimate(),
                                             currentLanguage().toStdString());
    if (!outline.isNull())
        step.outline = QRect(outline.topLeft() * ratio, outline.size() * ratio);
    if (restore_after_last && index + 1 == int(lesson.steps.size()))
        restore();
    return step;
}

bool MainWindow::exportLessonHandout(const Lesson &lesson, const QString &pdf_path, const QString &png_folder,
                                     QString *error, const HandoutProgress &progress)
{
    // Refused before the steps are rendered: the lesson file itself, the open scenario, a device.
    if (!pdf_path.isEmpty())
        if (const QString problem = outputPathProblemText(pdf_path); !problem.isEmpty()) {
            if (error)
                *error = problem;
            return false;
        }
    QList<HandoutStep> steps;
    for (int k = 0; k < int(lesson.steps.size()); ++k) {
        std::optional<HandoutStep> step = renderLessonHandoutStep(lesson, k, true);
        if (!step) {
            if (error)
                *error = tr("Cannot show step %1 of the lesson for the handout.").arg(k + 1);
            return false;
        }
        steps.append(std::move(*step));
    }
    if (!pdf_path.isEmpty() && !LessonHandout::writePdf(steps, pdf_path, progress, error))
        return false;
    // The slides' folder is made, as an export folder is; the files in it are written all or none.
    if (!png_folder.isEmpty() && !QDir().mkpath(png_folder)) {
        if (error)
            *error = tr("Cannot create the folder %1.").arg(QDir::toNativeSeparators(png_folder));
        return false;
    }
    // One writer per folder: two runs writing slides into one folder would mix their steps.
    Result<FolderLock> lock = png_folder.isEmpty() ? Result<FolderLock>(FolderLock())
                                                   : FolderLock::acquire(QFile::encodeName(png_folder).toStdString(),
                                                                         "--slides", "llm-explorer --slides");
    if (!lock) {
        if (error)
            *error = QString::fromStdString(lock.problems().front().message);
        return false;
    }
    if (!png_folder.isEmpty()
        && !LessonHandout::writePngs(steps, png_folder, QString::fromStdString(lesson.id), progress, error))
        return false;
    return true;
}

void MainWindow::exportCurrentLessonHandoutWithDialog()
{
    if (!inLesson())
        return showError(tr("No lesson"), tr("Start a lesson (Lessons menu) to export its handout."));
    const Lesson lesson = lesson_controller_->lesson();
    const QString pdf = QFileDialog::getSaveFileName(this, tr("Export Handout"),
                                                     QString::fromStdString(lesson.id) + QStringLiteral(".pdf"),
                                                     tr("PDF (*.pdf)"));
    if (pdf.isEmpty())
        return;
    WorkProgressDialog progress(tr("Writing the handout…"), int(lesson.steps.size()), this);
    progress.setMinimumDuration(200);
    QString error;
    const bool written = exportLessonHandout(lesson, pdf, QString(), &error, [&progress](int done, int total) {
        progress.setMaximum(total);
        progress.setValue(done);
        return !progress.wasCanceled();
    });
    if (!written && !progress.wasCanceled())
        showError(tr("Cannot export the handout"), error);
}

}  // namespace lse::gui
