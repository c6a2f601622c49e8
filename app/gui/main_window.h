// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/input_files.h"
#include "cost/estimate.h"
#include "lessons/lesson.h"
#include "lessons/lesson_handout.h"
#include "lessons/lesson_view_fit.h"
#include "pages/page_registry.h"

#include <QEvent>
#include <QHash>
#include <QJsonObject>
#include <QMainWindow>
#include <QPointer>

class QAction;
class QDockWidget;

class QMenu;
class QStackedWidget;
class QLabel;
class QKeyEvent;
class QTimer;
class QUndoGroup;

namespace lse::gui {

class DocumentAutosaver;
class Page;
class PageNavigator;
class StaleBanner;
class TraceSession;
class ScenarioDocument;
class ScenarioEditor;
class LessonBar;
class LessonController;
class LessonOverlay;
class LessonRecorderDialog;

enum class Theme { System, Light, Dark, HighContrast };

// The application window: scenario editor (dock), page navigation and the page area, menus for
// documents, export, view and language. It owns the document; pages only read its estimate.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // `use_settings` restores and saves window state, recent files and the last scenario
    // (off for screenshots and tests).
    explicit MainWindow(bool use_settings = true, QWidget *parent = nullptr);
    ~MainWindow() override;

    ScenarioDocument *document() const { return document_; }
    // The profiler traces the Trace page loaded, shared with the pages that show them (the
    // Roofline page's "Your trace" overlay).
    TraceSession *traceSession() const { return trace_session_; }
    // Shows the Trace page and starts reading `paths` (one rank each) in the background (--trace,
    // File ▸ Open Trace…); false when there is no path.
    bool openTraces(const QStringList &paths);
    ScenarioEditor *editor() const { return editor_; }
    QStringList pageIds() const;
    // What `page` was last given to show (the scenario and its estimate), null before its first
    // showEstimate. The GUI monkey test checks it against the document after every action.
    struct ShownEstimate {
        Scenario scenario;
        Estimate estimate;
    };
    const ShownEstimate *shownEstimate(const Page *page) const
    {
        const auto found = shown_.constFind(page);
        return found == shown_.constEnd() ? nullptr : &found.value();
    }
    // The page `id`, built now if it was not yet (pages are built when first needed); null for an
    // unknown id.
    Page *page(const QString &id) const;
    Page *currentPage() const;
    // The pages built so far, in navigation order (start-up builds only the first one shown).
    QList<Page *> builtPages() const;
    // `id` is a page id, or "page/section" for a tab of a page made of tabs ("architecture/choices").
    bool selectPage(const QString &id);
    // What --page accepts, for --list-pages: every page, and for a page made of tabs each of its tabs
    // instead ("architecture/atlas", ...).
    QStringList pageAndSectionIds() const;

    // Lesson mode: the pages show each step's scenario from a document of the lesson's own (its
    // editor replaces the user's in the dock), so the user's document, undo history and page come
    // back exactly when the lesson ends. `step_index` counts from 0. False with *error when the
    // lesson's scenarios are invalid or the step is out of range; a running lesson is replaced.
    bool startLesson(const lse::Lesson &lesson, int step_index, QString *error);
    void endLesson();
    bool inLesson() const { return lesson_document_ != nullptr; }
    LessonController *lessonController() const { return lesson_controller_; }
    QWidget *lessonBar() const;
    LessonOverlay *lessonOverlay() const { return lesson_overlay_; }
    // The lesson's own document and editor while a lesson runs, else null.
    ScenarioDocument *lessonDocument() const { return lesson_document_; }
    ScenarioEditor *lessonEditor() const { return lesson_editor_; }
    // The current page, and its tab on a page made of tabs ("architecture/choices").
    QString currentPageAndSection() const;

    // "Record Steps…" (Lessons menu): the non-modal recorder over the current page and the shown
    // document (main_window_lesson_authoring.cpp).
    void openLessonRecorder();
    LessonRecorderDialog *lessonRecorder() const { return lesson_recorder_; }
    // Step `index` of `lesson` as a handout page: the lesson started at that step, the page area
    // rendered with its highlight, the texts filled from that step's estimate. With
    // `restore_after_last`, rendering the last step puts back what the window showed before step 0
    // (the user's document, or the lesson and step that ran). nullopt when the step cannot be shown.
    std::optional<HandoutStep> renderLessonHandoutStep(const lse::Lesson &lesson, int index, bool restore_after_last);
    // The handout of `lesson`: a PDF with one page per step when `pdf_path` is given and one PNG per
    // step in `png_folder` when that is; false with *error (naming the path) on failure or cancel,
    // existing files left as they were.
    bool exportLessonHandout(const lse::Lesson &lesson, const QString &pdf_path, const QString &png_folder,
                             QString *error, const HandoutProgress &progress = {});

    void setPresentation(bool presentation);
    bool presentation() const { return presentation_; }
    void setTheme(Theme theme);
    Theme theme() const { return theme_; }
    // The application font's size relative to the launch font (100 = unchanged), outside
    // presentation mode; Ctrl++ / Ctrl+- / Ctrl+0. Ignored in presentation mode.
    void setZoomPercent(int percent);
    int zoomPercent() const { return zoom_percent_; }

    // Opens a scenario, or imports a Hugging Face config.json into the model. On failure shows
    // nothing, returns false and sets *error; the current document is kept.
    bool openFile(const QString &path, QString *error);
    enum class ExportResult { Done, Cancelled, Failed };
    // Writes every chart of every page (PNG, PDF, SVG, CSV) and a PNG of each page to `folder`,
    // one subfolder per page, with a progress dialog. Each page is shown, laid out at the window's
    // size and finished (its search done) before it is rendered. Cancel (the dialog or
    // cancelExport()) stops before the next page and keeps the pages written; *pages_written says
    // how many. Failed sets *error.
    ExportResult exportAllPages(const QString &folder, QString *error, int *pages_written = nullptr);
    void cancelExport();
    // The window rendered at `size` (used by --screenshot).
    QImage renderScreenshot(const QSize &size);

    // Autosave and crash recovery (main_window_recovery.cpp, docs/user-guide-autosave.md). Off
    // until enabled: main() enables it for interactive runs, so screenshots and tests leave no files.
    void enableAutosave(const QString &directory);
    DocumentAutosaver *autosaver() const { return autosaver_; }
    enum class RecoveryMode { Ask, RecoverAll };
    // Offers back the autosaves that instances no longer running left in the autosave folder:
    // Ask shows RecoveryDialog (Recover / Discard / Later per autosave), RecoverAll recovers every
    // readable one without asking. This window takes the first recovered document when
    // `into_this_window` and its own document is unmodified; the others open in new windows.
    // Unreadable autosaves are reported (recoveryProblem) and kept. Returns how many were
    // recovered; 0 when autosave is off.
    int offerRecovery(RecoveryMode mode, bool into_this_window = true);
    // The windows that recovery opened beside this one.
    QList<MainWindow *> recoveryWindows() const;

    // The language the UI is shown in ("en" or "zh_CN"); switching rebuilds the interface.
    static QString currentLanguage();
    static bool installLanguage(const QString &language);
    // Whether Qt's own translation (qtbase_<lang>.qm) was found for the current language.
    static bool qtTranslationLoaded();

signals:
    // exportAllPages is about to export page `index` of `count`.
    void exportPageStarted(int index, int count);
    void exportCancelRequested();
    // Autosaves of ended instances were found and are being offered (before the dialog shows).
    void recoveryOffered(const QStringList &autosave_files);
    // An autosave that cannot be read: `message` names the file and the rule it breaks.
    void recoveryProblem(const QString &message);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void buildUi();
    // Page `index` in navigation order, built (and given the window's presentation, lesson and
    // stale state) on its first call; null when out of range.
    Page *pageAt(int index) const;
    // A page asked for a new scenario (Page::scenarioEditRequested).
    void applyPageEdit(const Scenario &scenario, const QString &description);
    void buildMenus();
    void updateTitle();
    void showEstimateOnCurrentPage();
    void onScenarioChanged();
    bool maybeSave();
    bool saveTo(const QString &path);
    void openWithDialog();
    bool saveAsWithDialog();
    void addRecentFile(const QString &path);
    void rebuildRecentMenu();
    void switchLanguage(const QString &language);
    void exportCurrentPage();
    void exportAllWithDialog();
    void showError(const QString &title, const QString &text);
    // Selects `page` and brings it to its final state before rendering; false when cancelled.
    bool finishPageForExport(Page *page);
    void resizeToScreenShare();
    // Re-resolves this window's font or palette (`change`: ApplicationFontChange or
    // ApplicationPaletteChange) after QApplication's changed; see its comment.
    void followApplication(QEvent::Type change);
    void stepPage(int delta);  // next (+1) or previous (-1) page, wrapping around
    QFont zoomedFont() const;
    void updateZoomActions();
    // The document the pages and the editor dock show: the lesson's while one runs.
    ScenarioDocument *shownDocument() const;
    ScenarioEditor *shownEditor() const;
    void enterLessonMode();
    void showLessonStep();
    void revealLessonTarget();  // scrolls and switches tabs so the step's highlight target shows
    // The page list and the editor dock around a lesson in presentation mode.
    void updateLessonChrome();
    static constexpr int kEditorDockMinimumWidth = 330;  // pixels
    static constexpr int kLessonPageAreaMinimumHeight = 200;  // pixels, below the lesson bar
    // Gives `page` the current step's settings as walking the lesson to it would (false with *error
    // when the step's own settings are refused; main_window_lesson_mode.cpp).
    bool applyLessonPageSettings(Page *page, QString *error);
    void openLessonFileWithDialog();
    void exportCurrentLessonHandoutWithDialog();
    // A lesson key (Next, Previous, ...) typed anywhere in the window; true when it was one.
    bool handleLessonKey(QObject *watched, const QKeyEvent *key);
    void setLessonPointerVisible(bool visible);
    // Saving a recovered document over its original file asks first (the file may be newer).
    bool confirmSaveOverRecovered(const QString &path);

    bool use_settings_;
    ScenarioDocument *document_;
    TraceSession *trace_session_ = nullptr;
    DocumentAutosaver *autosaver_ = nullptr;
    QList<QPointer<MainWindow>> recovery_windows_;
    ScenarioEditor *editor_ = nullptr;
    QDockWidget *editor_dock_ = nullptr;
    PageNavigator *navigation_ = nullptr;
    QStackedWidget *stack_ = nullptr;
    StaleBanner *stale_banner_ = nullptr;
    QLabel *status_label_ = nullptr;
    // Every page in navigation order; `page` is null until pageAt builds it (main_window_pages.cpp).
    struct PageSlot {
        PageEntry entry;
        PageDomain domain;
        Page *page = nullptr;
    };
    // Building a page on first need is not a change a caller of a const accessor sees.
    mutable QList<PageSlot> page_slots_;
    QHash<Page *, bool> stale_;
    QHash<const Page *, ShownEstimate> shown_;  // see shownEstimate()
    QMenu *recent_menu_ = nullptr;
    QAction *presentation_action_ = nullptr;
    bool presentation_ = false;
    bool editor_was_visible_ = true;
    Theme theme_ = Theme::System;
    Theme theme_before_presentation_ = Theme::System;
    QFont normal_font_;  // the launch font; zoom and presentation scale it
    int zoom_percent_ = 100;
    bool export_cancelled_ = false;
    QAction *zoom_in_action_ = nullptr;
    QAction *zoom_out_action_ = nullptr;
    QAction *zoom_reset_action_ = nullptr;
    QUndoGroup *undo_group_ = nullptr;  // the user's undo stack, or the lesson's while one runs
    LessonController *lesson_controller_ = nullptr;
    LessonBar *lesson_bar_ = nullptr;
    QDockWidget *lesson_dock_ = nullptr;  // holds the lesson bar across the top of the window
    LessonViewFit lesson_view_fit_;       // what the current step made lower to fit the view
    LessonOverlay *lesson_overlay_ = nullptr;
    QTimer *pointer_timer_ = nullptr;
    LessonRecorderDialog *lesson_recorder_ = nullptr;
    // What renderLessonHandoutStep puts back after the last step.
    struct HandoutRestore {
        bool was_in_lesson = false;
        lse::Lesson lesson;
        int step = 0;
    } handout_restore_;
    ScenarioDocument *lesson_document_ = nullptr;
    ScenarioEditor *lesson_editor_ = nullptr;
    // What endLesson() puts back: the page (and tab) and every page's own settings.
    QString page_before_lesson_;
    InputFileRegistration lesson_file_input_;  // the lesson's file while it is shown (opened from a file)
    QHash<QString, QJsonObject> page_settings_before_lesson_;
    // Each lesson page's settings ("page/section") when a step first showed it, before any step's:
    // what a key only later steps set goes back to.
    QHash<QString, QJsonObject> lesson_page_baselines_;
};

}  // namespace lse::gui
