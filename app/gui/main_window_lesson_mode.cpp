// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's lesson mode: entering and leaving it, showing a step, the lesson keys.
#include "main_window.h"

#include "charts/chart_view.h"
#include "document/scenario_document.h"
#include "editor/scenario_editor.h"
#include "lessons/lesson_bar.h"
#include "lessons/lesson_catalog.h"
#include "lessons/lesson_controller.h"
#include "lessons/lesson_overlay.h"
#include "lessons/lesson_page_settings.h"
#include "lessons/lesson_targets.h"
#include "page_navigator.h"
#include "pages/page.h"

#include <qcustomplot.h>

#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QCursor>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeyEvent>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSet>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextEdit>
#include <QTimer>
#include <QUndoGroup>
#include <QUndoStack>

namespace lse::gui {

namespace {

// Widgets that need the arrow keys, Space and Home for themselves: there only Page Up / Page
// Down and Esc drive the lesson.
bool needsArrowKeys(const QObject *widget)
{
    if (qobject_cast<const QLineEdit *>(widget) || qobject_cast<const QAbstractSpinBox *>(widget)
        || qobject_cast<const QTextEdit *>(widget) || qobject_cast<const QPlainTextEdit *>(widget))
        return true;
    const auto *combo = qobject_cast<const QComboBox *>(widget);
    return combo && combo->isEditable();
}

// The entries of `wanted` whose value differs from `now`'s.
QJsonObject settingsChanges(const QJsonObject &now, const QJsonObject &wanted)
{
    QJsonObject changes;
    for (auto it = wanted.begin(); it != wanted.end(); ++it)
        if (now.value(it.key()) != it.value())
            changes.insert(it.key(), it.value());
    return changes;
}

// Gives `page` the settings `wanted` when it does not show them all yet. All of them, not only the
// different ones: the page applies them in its own order (a preset first, which resets the step
// count a setting after it then sets). False with *error when the page refuses them.
bool moveToSettings(Page *page, const QJsonObject &wanted, QString *error)
{
    if (settingsChanges(page->lessonSettings(), wanted).isEmpty())
        return true;
    return page->applyLessonSettings(wanted, error);
}

}  // namespace

ScenarioDocument *MainWindow::shownDocument() const { return lesson_document_ ? lesson_document_ : document_; }

ScenarioEditor *MainWindow::shownEditor() const { return lesson_editor_ ? lesson_editor_ : editor_; }

QWidget *MainWindow::lessonBar() const { return lesson_bar_; }

bool MainWindow::startLesson(const Lesson &lesson, int step_index, QString *error)
{
    // Every step's page exists, checked before the first step shows: a lesson file written for
    // another version of the app fails here with the step named, not in front of the class.
    const QStringList pages = pageAndSectionIds() + pageIds();
    QStringList unknown_pages;
    for (std::size_t k = 0; k < lesson.steps.size(); ++k)
        if (!pages.contains(QString::fromStdString(lesson.steps[k].page)))
            unknown_pages << tr("steps[%1].page: '%2' is not a page of this app (see --list-pages)")
                                 .arg(k)
                                 .arg(QString::fromStdString(lesson.steps[k].page));
    if (!unknown_pages.isEmpty()) {
        if (error)
            *error = unknown_pages.join(QLatin1Char('\n'));
        return false;
    }
    if (!lesson_controller_->start(lesson, step_index, error))
        return false;
    if (!inLesson())
        enterLessonMode();
    showLessonStep();
    return true;
}

void MainWindow::enterLessonMode()
{
    page_before_lesson_ = currentPageAndSection();
    page_settings_before_lesson_.clear();
    lesson_page_baselines_.clear();
    for (Page *page : builtPages())
        page_settings_before_lesson_.insert(page->id(), page->lessonSettings());

    lesson_document_ = new ScenarioDocument(this);
    connect(lesson_document_, &ScenarioDocument::scenarioChanged, this, &MainWindow::onScenarioChanged);
    undo_group_->addStack(lesson_document_->undoStack());
    undo_group_->setActiveStack(lesson_document_->undoStack());
    // The student may try fields inside the lesson; the user's editor waits hidden in the dock.
    lesson_editor_ = new ScenarioEditor(lesson_document_);
    lesson_editor_->setPresentation(presentation_);
    editor_->hide();
    editor_dock_->setWidget(lesson_editor_);
    lesson_editor_->show();
    editor_dock_->setWindowTitle(tr("Scenario (lesson)"));

    lesson_dock_->show();
    // The bar takes the height its text needs; the page area gives way (each page scrolls), rather
    // than the largest page's minimum height pushing the page area past the window's bottom edge.
    stack_->setMinimumHeight(kLessonPageAreaMinimumHeight);
    lesson_overlay_->setAreaSource([this] {
        LessonOverlay::Areas areas;
        if (!inLesson() || !lesson_controller_->currentStep().highlight)
            return areas;
        const Highlight &highlight = *lesson_controller_->currentStep().highlight;
        const QString target = QString::fromStdString(highlight.target);
        if (highlight.kind == HighlightKind::Field) {
            // An editor field: dim the whole window around it (nothing when the dock is hidden).
            QWidget *field = lesson_editor_->fieldWidget(target);
            if (!field || !field->isVisible())
                return areas;
            areas.dim = rect();
            // Only what the editor's scroll area shows of it (a wide field runs under the dock's edge).
            const QRect visible = field->visibleRegion().boundingRect();
            areas.target = visible.isEmpty() ? QRect() : QRect(field->mapTo(this, visible.topLeft()), visible.size());
            if (areas.target.isEmpty())
                areas = {};
            return areas;
        }
        Page *page = currentPage();
        const QRect in_page = page ? page->lessonTargetRect(highlight.kind, target) : QRect();
        if (in_page.isNull())
            return areas;
        areas.dim = QRect(stack_->mapTo(this, QPoint(0, 0)), stack_->size());
        // A target scrolled partly out of the page shows its visible part only.
        areas.target = QRect(page->mapTo(this, in_page.topLeft()), in_page.size()).intersected(areas.dim);
        if (areas.target.isEmpty())
            areas = {};
        return areas;
    });
    lesson_overlay_->show();
}

void MainWindow::showLessonStep()
{
    if (!inLesson())
        return;
    const LessonStep &step = lesson_controller_->currentStep();
    // A fresh document per step: the student's edits of the last step neither carry over nor
    // undo into it.
    lesson_document_->undoStack()->clear();
    lesson_document_->applyScenario(lesson_controller_->scenario());
    const QString page_id = QString::fromStdString(step.page);
    QStringList problems;
    const bool page_selected = selectPage(page_id);
    if (!page_selected)
        problems << tr("page: '%1' is not a page").arg(page_id);
    Page *page = currentPage();
    QString error;
    if (page && page_selected && !applyLessonPageSettings(page, &error))
        problems << tr("page_settings: %1").arg(error);
    if (page && lesson_controller_->stepAnimates())
        page->restartLessonAnimation();
    lesson_bar_->setError(problems.join(QLatin1Char('\n')));
    updateLessonChrome();
    revealLessonTarget();
    // Again once the page has laid out what the settings changed (charts replot, tables refill).
    QTimer::singleShot(0, this, &MainWindow::revealLessonTarget);

    lesson_overlay_->unwatchAll();
    lesson_overlay_->watch(stack_);
    lesson_overlay_->watch(page);
    if (editor_dock_)
        lesson_overlay_->watch(editor_dock_);
    if (page) {
        for (ChartView *chart : page->charts())
            lesson_overlay_->watch(chart->plot());
        for (QAbstractScrollArea *area : page->findChildren<QAbstractScrollArea *>())
            lesson_overlay_->watch(area);
    }
    lesson_overlay_->refresh();
}

bool MainWindow::applyLessonPageSettings(Page *page, QString *error)
{
    // The step shows its page as walking the lesson from its first step would have left it,
    // whether it was reached by Next, by Previous or by a jump (--step K, the step list): the page's
    // settings from before the lesson, then those of every step so far on this page and section, in
    // order (a preset chosen by one step resets what a later one sets). A stage the page shows
    // already is not applied, so nothing changes that needs no change (a run's setup, refused
    // while it trains, stays as it is).
    const QString page_key = QString::fromStdString(lesson_controller_->currentStep().page);
    if (!lesson_page_baselines_.contains(page_key))
        lesson_page_baselines_.insert(page_key, page->lessonSettings());
    std::vector<QJsonObject> stages{lesson_page_baselines_.value(page_key)};
    for (QJsonObject &settings : pageSettingsWalkedTo(lesson_controller_->lesson(), std::size_t(lesson_controller_->stepIndex())))
        stages.push_back(std::move(settings));
    bool ok = true;
    for (std::size_t i = 0; i < stages.size(); ++i) {
        // Only the step's own settings can be wrong in front of the class; the stages before it
        // were shown (and their problems named) by their own steps.
        QString stage_error;
        if (!moveToSettings(page, stages[i], &stage_error) && i + 1 == stages.size()) {
            ok = false;
            if (error)
                *error = stage_error;
        }
    }
    return ok;
}

void MainWindow::updateLessonChrome()
{
    // On a projector every pixel goes to the lesson: while one runs in presentation mode the page
    // list is hidden (the lesson chooses the pages; Esc brings it back with the end of the lesson),
    // and the editor shows only for a step that points at one of its fields, as wide as its form,
    // so the field is shown whole and the lesson bar keeps the rest of the width.
    if (!editor_dock_)
        return;
    navigation_->setVisible(!(presentation_ && inLesson()));
    statusBar()->setVisible(!(presentation_ && inLesson()));
    const bool field_step = inLesson() && lesson_controller_->currentStep().highlight
                            && lesson_controller_->currentStep().highlight->kind == HighlightKind::Field;
    // The form the field sits in, without sideways scrolling, plus its scroll bar and margins.
    int wanted = kEditorDockMinimumWidth;
    if (presentation_ && field_step && lesson_editor_) {
        const QString target = QString::fromStdString(lesson_controller_->currentStep().highlight->target);
        for (QWidget *parent = lesson_editor_->fieldWidget(target); parent; parent = parent->parentWidget())
            if (auto *scroll = qobject_cast<QScrollArea *>(parent); scroll && scroll->widget()) {
                constexpr int kFramesAndMargins = 16;  // the editor's layout margins and the dock's frame
                wanted = std::max(wanted, scroll->widget()->minimumSizeHint().width()
                                              + scroll->verticalScrollBar()->sizeHint().width() + kFramesAndMargins);
                break;
            }
    }
    // Never most of a projector's 1024 pixels, whatever a form asks for.
    constexpr int kMaximumDockWidth = 600;
    editor_dock_->setMinimumWidth(std::min(wanted, kMaximumDockWidth));
    if (presentation_)
        editor_dock_->setVisible(field_step);
}

void MainWindow::revealLessonTarget()
{
    // The target may sit on another tab (of the editor, of the page) or below the fold of a
    // projector's small screen, and an animated step plays beside it: bring both into view, the
    // page's charts made lower where they do not fit together (lessons/lesson_view_fit.h).
    if (!inLesson())
        return;
    lesson_view_fit_.restore();
    Page *page = currentPage();
    QList<QWidget *> on_page;
    if (page && lesson_controller_->stepAnimates())
        on_page = page->lessonAnimationWidgets();
    if (const std::optional<Highlight> &highlight = lesson_controller_->currentStep().highlight) {
        const QString target = QString::fromStdString(highlight->target);
        if (highlight->kind == HighlightKind::Field) {
            if (QWidget *field = lesson_editor_->fieldWidget(target))
                lesson_view_fit_.fit({field});
        } else if (QWidget *widget = page ? lessonTargetWidget(page, highlight->kind, target) : nullptr) {
            on_page.prepend(widget);
        }
    }
    lesson_view_fit_.fit(on_page);
    lesson_overlay_->refresh();
}

void MainWindow::endLesson()
{
    if (!inLesson())
        return;
    // Out of lesson mode first: the controller's finished() calls endLesson() again, which then
    // returns at once.
    ScenarioDocument *lesson_document = lesson_document_;
    lesson_document_ = nullptr;
    disconnect(lesson_document, nullptr, this, nullptr);
    lesson_controller_->finish();

    setLessonPointerVisible(false);
    lesson_view_fit_.restore();
    updateLessonChrome();  // presentation mode's own state, whatever the last step showed
    lesson_overlay_->unwatchAll();
    lesson_overlay_->setAreaSource({});
    lesson_overlay_->hide();
    lesson_dock_->hide();
    stack_->setMinimumHeight(0);  // the pages' own minimum again

    undo_group_->setActiveStack(document_->undoStack());
    undo_group_->removeStack(lesson_document->undoStack());
    editor_dock_->setWidget(editor_);
    editor_->show();
    editor_dock_->setWindowTitle(tr("Scenario"));
    lesson_editor_->hide();
    lesson_editor_->deleteLater();
    lesson_editor_ = nullptr;
    lesson_document->deleteLater();

    // Every page and section a step showed goes back to its settings from before the lesson (the
    // same settings a next lesson starts from), the other pages to theirs.
    QSet<QString> restored_pages;
    for (auto it = lesson_page_baselines_.cbegin(); it != lesson_page_baselines_.cend(); ++it) {
        if (!selectPage(it.key()))
            continue;
        Page *page = currentPage();
        restored_pages.insert(page->id());
        QString ignored;  // the page gave these settings itself
        moveToSettings(page, it.value(), &ignored);
    }
    lesson_page_baselines_.clear();
    for (Page *page : builtPages()) {
        if (restored_pages.contains(page->id()))
            continue;
        QString ignored;  // the page gave these settings itself
        page->applyLessonSettings(page_settings_before_lesson_.value(page->id()), &ignored);
    }
    selectPage(page_before_lesson_);
    onScenarioChanged();  // every page shows the user's scenario again
    lesson_file_input_ = InputFileRegistration();
}

void MainWindow::openLessonFileWithDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Lesson"), QString(), tr("Lessons (*.json)"));
    if (path.isEmpty())
        return;
    const Result<Lesson> lesson = loadLessonFile(path.toStdString());
    if (!lesson.ok())
        return showError(tr("Cannot open lesson %1").arg(QFileInfo(path).fileName()),
                         QString::fromStdString(formatProblems(lesson.problems())));
    QString error;
    if (!startLesson(*lesson, 0, &error))
        return showError(tr("Cannot start lesson %1").arg(QFileInfo(path).fileName()), error);
    // While it is shown, the lesson's file is an input no export may replace (core/common/input_files.h).
    lesson_file_input_ = InputFileRegistration(QFile::encodeName(path).toStdString(), "the lesson shown in this window");
}

bool MainWindow::handleLessonKey(QObject *watched, const QKeyEvent *key)
{
    const auto *widget = qobject_cast<const QWidget *>(watched);
    if (!widget || widget->window() != this)
        return false;  // a dialog or a popup keeps its keys
    if ((key->modifiers() & ~Qt::KeypadModifier) != Qt::NoModifier)
        return false;  // Ctrl+Page Down and friends stay menu shortcuts
    const bool text_input = needsArrowKeys(watched);
    switch (key->key()) {
    case Qt::Key_PageDown: lesson_controller_->next(); return true;
    case Qt::Key_PageUp: lesson_controller_->previous(); return true;
    case Qt::Key_Escape: endLesson(); return true;
    default: break;
    }
    if (text_input)
        return false;
    switch (key->key()) {
    case Qt::Key_Right:
    case Qt::Key_Down:
    case Qt::Key_Space: lesson_controller_->next(); return true;
    case Qt::Key_Left:
    case Qt::Key_Up: lesson_controller_->previous(); return true;
    case Qt::Key_Home: lesson_controller_->restart(); return true;
    case Qt::Key_P: setLessonPointerVisible(!lesson_overlay_->pointerVisible()); return true;
    default: return false;
    }
}

void MainWindow::setLessonPointerVisible(bool visible)
{
    lesson_overlay_->setPointerPosition(QCursor::pos());
    lesson_overlay_->setPointerVisible(visible);
    if (visible)
        pointer_timer_->start();
    else
        pointer_timer_->stop();
}

}  // namespace lse::gui
