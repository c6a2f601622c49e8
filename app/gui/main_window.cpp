// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window.h"

#include "pages/traces/trace_page.h"
#include "pages/traces/trace_session.h"

#include "page_navigator.h"

#include "charts/chart_view.h"
#include "document/document_autosaver.h"
#include "document/scenario_document.h"
#include "editor/scenario_editor.h"
#include "lessons/lesson_bar.h"
#include "lessons/lesson_catalog.h"
#include "lessons/lesson_controller.h"
#include "lessons/lesson_overlay.h"
#include "pages/page.h"
#include "pages/page_registry.h"
#include "pages/sectioned_page.h"
#include "scenario/scenario_json.h"
#include "stale_banner.h"
#include "theme.h"

#include <qcustomplot.h>

#include <QAbstractSpinBox>
#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QCursor>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QHeaderView>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLibraryInfo>
#include <QLineEdit>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QKeyEvent>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QScreen>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyleFactory>
#include <QTabWidget>
#include <QTextEdit>
#include <QTimer>
#include <QTranslator>
#include <QUndoGroup>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>

namespace lse::gui {

namespace {

constexpr int kMaxRecentFiles = 8;
constexpr int kNavigationWidth = 150;  // pixels, group indentation included
constexpr double kFirstLaunchScreenShare = 0.8;
constexpr int kZoomStepPercent = 10;
constexpr int kMinZoomPercent = 60;
constexpr int kMaxZoomPercent = 250;
constexpr int kPointerIntervalMs = 30;  // the big pointer follows the mouse at ~33 frames a second

// True when `edited` differs from `shown` in its model alone. Cluster and training have no
// operator==; their JSON holds every field, so equal JSON is equal settings.
bool changesOnlyTheModel(const Scenario &shown, const Scenario &edited)
{
    return !(shown.model == edited.model) && clusterToJson(shown.cluster) == clusterToJson(edited.cluster)
        && trainingToJson(shown.training) == trainingToJson(edited.training);
}

QTranslator *&activeTranslator()
{
    static QTranslator *translator = nullptr;
    return translator;
}

QTranslator *&activeQtTranslator()
{
    static QTranslator *translator = nullptr;
    return translator;
}

QString &activeLanguage()
{
    static QString language = QStringLiteral("en");
    return language;
}

bool isScenarioFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    return file.read(4096).contains("llm-explorer-scenario");
}

}  // namespace

QString MainWindow::currentLanguage() { return activeLanguage(); }

bool MainWindow::installLanguage(const QString &language)
{
    if (QTranslator *old = activeTranslator()) {
        QCoreApplication::removeTranslator(old);
        delete old;
        activeTranslator() = nullptr;
    }
    if (QTranslator *old = activeQtTranslator()) {
        QCoreApplication::removeTranslator(old);
        delete old;
        activeQtTranslator() = nullptr;
    }
    activeLanguage() = QStringLiteral("en");
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    const auto applyFonts = [](const QString &code) {
        if (auto *gui = qobject_cast<QGuiApplication *>(QCoreApplication::instance()))
            gui->setFont(withFallbackFamilies(gui->font(), code));
    };
    const bool english = language.isEmpty() || language.startsWith(QLatin1String("en"));
    // English is the source language, but "%n problem(s)" needs its plural forms ("1 problem",
    // "2 problems") from llm_explorer_en.qm, which holds nothing else.
    auto *translator = new QTranslator;
    if (!translator->load(QStringLiteral(":/i18n/llm_explorer_%1.qm").arg(english ? QStringLiteral("en") : language))) {
        delete translator;
        return false;
    }
    QCoreApplication::installTranslator(translator);
    activeTranslator() = translator;
    if (english) {
        applyFonts(QStringLiteral("en"));
        return true;
    }
    activeLanguage() = language;
    QLocale::setDefault(QLocale(language));
    // Qt's own dialogs and buttons (Save/Discard, file dialogs) from the system's Qt translations
    // (Debian: qt6-translations-l10n). Qt 6 ships them per module: qtbase_<lang>.qm holds every
    // Widgets string; qt_<lang>.qm is only a catalogue of module files and fails to load when one
    // of them (multimedia, declarative, ...) is not installed, so it is the fallback.
    const QString qt_translations = QLibraryInfo::path(QLibraryInfo::TranslationsPath);
    auto *qt_translator = new QTranslator;
    if (qt_translator->load(QStringLiteral("qtbase_%1").arg(language), qt_translations)
        || qt_translator->load(QStringLiteral("qt_%1").arg(language), qt_translations)) {
        QCoreApplication::installTranslator(qt_translator);
        activeQtTranslator() = qt_translator;
    } else {
        delete qt_translator;
    }
    applyFonts(language);
    return true;
}

bool MainWindow::qtTranslationLoaded() { return activeQtTranslator() != nullptr; }

MainWindow::MainWindow(bool use_settings, QWidget *parent)
    : QMainWindow(parent), use_settings_(use_settings), document_(new ScenarioDocument(this)),
      undo_group_(new QUndoGroup(this)), lesson_controller_(new LessonController(this))
{
    normal_font_ = QApplication::font();
    trace_session_ = new TraceSession(this);
    undo_group_->addStack(document_->undoStack());
    undo_group_->setActiveStack(document_->undoStack());
    lesson_controller_->setLanguage(currentLanguage());
    lesson_controller_->setAnimationAdvancer([this] {
        Page *page = currentPage();
        return page && page->advanceLessonAnimation();
    });
    connect(lesson_controller_, &LessonController::stepChanged, this, [this] { showLessonStep(); });
    connect(lesson_controller_, &LessonController::finished, this, &MainWindow::endLesson);
    // Sees Ctrl+Z / Ctrl+Shift+Z before the focused field does (see eventFilter).
    QCoreApplication::instance()->installEventFilter(this);
    setAcceptDrops(true);
    setObjectName(QStringLiteral("MainWindow"));
    // The palette before any widget exists: set after them, QApplication::setPalette sends a
    // PaletteChange through every widget (150 ms of a 450 ms start-up, bench_gui_footprint).
    if (use_settings_)
        setTheme(Theme(QSettings().value(QStringLiteral("view/theme"), int(Theme::System)).toInt()));
    buildUi();
    connect(document_, &ScenarioDocument::scenarioChanged, this, &MainWindow::onScenarioChanged);
    connect(document_, &ScenarioDocument::fileStateChanged, this, &MainWindow::updateTitle);

    bool geometry_restored = false;
    if (use_settings_) {
        QSettings settings;
        geometry_restored = restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
        restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
        lesson_dock_->hide();  // a state saved during a lesson must not show its bar without one
        setZoomPercent(settings.value(QStringLiteral("view/zoom_percent"), 100).toInt());
        const QString last = settings.value(QStringLiteral("document/last")).toString();
        if (!last.isEmpty() && QFileInfo::exists(last)) {
            QString error;
            document_->open(last, &error);  // a broken last file just leaves the default scenario
        }
    }
    if (!geometry_restored)
        resizeToScreenShare();
    onScenarioChanged();
    updateTitle();
    // Over everything the window shows; created last so it stays on top.
    lesson_overlay_ = new LessonOverlay(this);
    lesson_overlay_->hide();
    pointer_timer_ = new QTimer(this);
    pointer_timer_->setInterval(kPointerIntervalMs);
    connect(pointer_timer_, &QTimer::timeout, this,
            [this] { lesson_overlay_->setPointerPosition(QCursor::pos()); });
}

void MainWindow::resizeToScreenShare()
{
    // Without saved geometry the layouts' minimum would give a small, oddly shaped window
    // (1038×454 on a 1600×1000 screen): take a fixed share of the available screen instead.
    const QScreen *target = screen() ? screen() : QGuiApplication::primaryScreen();
    if (!target)
        return;
    const QRect available = target->availableGeometry();
    const QSize size(int(available.width() * kFirstLaunchScreenShare), int(available.height() * kFirstLaunchScreenShare));
    resize(size.expandedTo(minimumSizeHint()).boundedTo(available.size()));
    move(available.center() - QPoint(width() / 2, height() / 2));
}

MainWindow::~MainWindow()
{
    // Windows that recovery opened are top-level windows of their own; they go with this one.
    // Their unsaved work stays in their autosaves (only a clean close deletes those).
    qDeleteAll(recoveryWindows());
}

void MainWindow::buildUi()
{
    // Editor dock.
    editor_ = new ScenarioEditor(document_);
    editor_dock_ = new QDockWidget(tr("Scenario"), this);
    editor_dock_->setObjectName(QStringLiteral("ScenarioDock"));
    editor_dock_->setWidget(editor_);
    editor_dock_->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable);
    editor_dock_->setMinimumWidth(kEditorDockMinimumWidth);
    addDockWidget(Qt::LeftDockWidgetArea, editor_dock_);

    // Navigation + pages.
    auto *central = new QWidget;
    auto *layout = new QHBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    navigation_ = new PageNavigator;
    navigation_->setFixedWidth(kNavigationWidth);
    stack_ = new QStackedWidget;
    const QList<PageGroup> groups = pageCatalog();
    page_slots_.clear();
    for (const PageGroup &group : groups)
        for (const PageEntry &entry : group.pages) {
            // Until the page is first needed (pageAt) an empty widget holds its place in the stack.
            stack_->addWidget(new QWidget);
            page_slots_.append({entry, group.domain, nullptr});
        }
    navigation_->setGroups(groups);
    connect(navigation_, &PageNavigator::currentPageChanged, this, [this](int index) {
        if (index < 0 || index >= page_slots_.size())
            return;
        pageAt(index);
        stack_->setCurrentIndex(index);
        showEstimateOnCurrentPage();
    });
    layout->addWidget(navigation_);
    // The page area: the lesson bar (while a lesson runs) and the stale-scenario banner above
    // the pages.
    auto *page_area = new QVBoxLayout;
    page_area->setSpacing(0);
    // The lesson bar spans the whole window, above the editor dock too: a step that points at an
    // editor field shows the editor beside the page, and the bar keeps the window's width for the
    // title and the text a projector shows large.
    lesson_bar_ = new LessonBar(lesson_controller_);
    connect(lesson_bar_, &LessonBar::closeRequested, this, &MainWindow::endLesson);
    lesson_dock_ = new QDockWidget(this);
    lesson_dock_->setObjectName(QStringLiteral("LessonDock"));
    lesson_dock_->setTitleBarWidget(new QWidget(lesson_dock_));
    lesson_dock_->setFeatures(QDockWidget::NoDockWidgetFeatures);
    lesson_dock_->setWidget(lesson_bar_);
    addDockWidget(Qt::TopDockWidgetArea, lesson_dock_);
    // Docks shown and hidden by a lesson step (the bar, the editor for a field step) take their
    // place at once: an animated change left the page at its old height while the step fitted it.
    setAnimated(false);
    setCorner(Qt::TopLeftCorner, Qt::TopDockWidgetArea);
    setCorner(Qt::TopRightCorner, Qt::TopDockWidgetArea);
    lesson_dock_->hide();
    stale_banner_ = new StaleBanner;
    page_area->addWidget(stale_banner_);
    page_area->addWidget(stack_, 1);
    layout->addLayout(page_area, 1);
    setCentralWidget(central);
    navigation_->setCurrentPage(0);

    status_label_ = new QLabel;
    statusBar()->addWidget(status_label_, 1);
    buildMenus();
}

void MainWindow::buildMenus()
{
    menuBar()->clear();
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New"), QKeySequence::New, this, [this] {
        endLesson();
        if (maybeSave())
            document_->newDocument();
    });
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::openWithDialog);
    recent_menu_ = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addAction(tr("&Save"), QKeySequence::Save, this, [this] {
        if (document_->filePath().isEmpty())
            saveAsWithDialog();
        else
            saveTo(document_->filePath());
    });
    file->addAction(tr("Save &As…"), QKeySequence::SaveAs, this, &MainWindow::saveAsWithDialog);
    file->addSeparator();
    file->addAction(tr("Open &Trace…"), QKeySequence(tr("Ctrl+Shift+O")), this, [this] {
        if (selectPage(TracePage::pageId()))
            if (auto *trace = qobject_cast<TracePage *>(page(TracePage::pageId())))
                trace->openWithDialog();
    });
    file->addAction(tr("&Import Hugging Face config.json…"), QKeySequence(tr("Ctrl+I")), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Import config.json"), QString(),
                                                          tr("Hugging Face config (*.json)"));
        if (!path.isEmpty())
            endLesson();
        QString error;
        if (!path.isEmpty() && !document_->importHuggingFaceConfig(path, &error))
            showError(tr("Cannot import %1").arg(QFileInfo(path).fileName()), error);
    });
    file->addAction(tr("&Export Current Page…"), QKeySequence(tr("Ctrl+E")), this, &MainWindow::exportCurrentPage);
    file->addAction(tr("Export &All Pages…"), QKeySequence(tr("Ctrl+Shift+E")), this, &MainWindow::exportAllWithDialog);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    // Document undo/redo win over a field's own text undo everywhere in the window (see
    // eventFilter); application-wide so they also work from the editor dock when it floats.
    QAction *undo = undo_group_->createUndoAction(this, tr("&Undo"));
    undo->setShortcuts(QKeySequence::Undo);
    undo->setShortcutContext(Qt::ApplicationShortcut);
    QAction *redo = undo_group_->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts(QKeySequence::Redo);
    redo->setShortcutContext(Qt::ApplicationShortcut);
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    presentation_action_ = view->addAction(tr("&Presentation Mode"), QKeySequence(Qt::Key_F11), this,
                                           [this](bool on) { setPresentation(on); });
    presentation_action_->setCheckable(true);
    presentation_action_->setChecked(presentation_);
    QAction *toggle_editor = editor_dock_->toggleViewAction();
    toggle_editor->setText(tr("Scenario &Editor"));
    toggle_editor->setShortcut(QKeySequence(tr("Ctrl+Shift+D")));
    view->addAction(toggle_editor);
    // Zoom scales the application font outside presentation mode (which has its own size).
    view->addSeparator();
    zoom_in_action_ = view->addAction(tr("Zoom &In"), this, [this] { setZoomPercent(zoom_percent_ + kZoomStepPercent); });
    zoom_in_action_->setShortcuts(QList<QKeySequence>(QKeySequence::keyBindings(QKeySequence::ZoomIn))
                                  << QKeySequence(Qt::CTRL | Qt::Key_Equal));
    zoom_out_action_ = view->addAction(tr("Zoom &Out"), this, [this] { setZoomPercent(zoom_percent_ - kZoomStepPercent); });
    zoom_out_action_->setShortcuts(QKeySequence::ZoomOut);
    zoom_reset_action_ = view->addAction(tr("&Actual Size"), QKeySequence(Qt::CTRL | Qt::Key_0), this,
                                         [this] { setZoomPercent(100); });
    updateZoomActions();
    view->addSeparator();
    QMenu *themes = view->addMenu(tr("&Theme"));
    auto *theme_group = new QActionGroup(themes);
    const std::pair<Theme, QString> theme_names[] = {{Theme::System, tr("System")},
                                                     {Theme::Light, tr("Light")},
                                                     {Theme::Dark, tr("Dark")},
                                                     {Theme::HighContrast, tr("High Contrast")}};
    for (const auto &[value, name] : theme_names) {
        QAction *action = themes->addAction(name, this, [this, theme = value] { setTheme(theme); });
        action->setCheckable(true);
        action->setChecked(theme_ == value);
        theme_group->addAction(action);
    }
    QMenu *language = view->addMenu(tr("&Language"));
    auto *language_group = new QActionGroup(language);
    const std::pair<QString, QString> languages[] = {{QStringLiteral("en"), QStringLiteral("English")},
                                                     {QStringLiteral("zh_CN"), QStringLiteral("简体中文")}};
    for (const auto &[code, name] : languages) {
        QAction *action = language->addAction(name, this, [this, language_code = code] { switchLanguage(language_code); });
        action->setCheckable(true);
        action->setChecked(currentLanguage() == code);
        language_group->addAction(action);
    }

    // Pages from the keyboard: previous/next and the first nine directly.
    QMenu *go = menuBar()->addMenu(tr("&Go"));
    go->addAction(tr("&Previous Page"), QKeySequence(Qt::CTRL | Qt::Key_PageUp), this, [this] { stepPage(-1); });
    go->addAction(tr("&Next Page"), QKeySequence(Qt::CTRL | Qt::Key_PageDown), this, [this] { stepPage(+1); });
    for (int i = 0; i < page_slots_.size(); ++i) {
        if (i == 0 || page_slots_.at(i).domain != page_slots_.at(i - 1).domain)
            go->addSection(PageNavigator::groupTitle(page_slots_.at(i).domain));
        QAction *action = go->addAction(page_slots_.at(i).entry.title(), this, [this, i] { navigation_->setCurrentPage(i); });
        if (i < 9)
            action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
    }

    // Lessons: the built-in ones in course order, a lesson file, and leaving.
    QMenu *lessons = menuBar()->addMenu(tr("&Lessons"));
    for (const Lesson &lesson : builtinLessons()) {
        const QString title = QString::fromStdString(localizedText(lesson.title, currentLanguage().toStdString()));
        lessons->addAction(title, this, [this, id = lesson.id] {
            const Lesson *found = findBuiltinLesson(id);
            QString error;
            if (found && !startLesson(*found, 0, &error))
                showError(tr("Cannot start the lesson"), error);
        });
    }
    if (!builtinLessons().empty())
        lessons->addSeparator();
    lessons->addAction(tr("&Open Lesson File…"), this, &MainWindow::openLessonFileWithDialog);
    lessons->addAction(tr("&Leave Lesson"), this, &MainWindow::endLesson);
    lessons->addSeparator();
    lessons->setToolTipsVisible(true);
    QAction *handout = lessons->addAction(tr("Export &Handout…"), this, &MainWindow::exportCurrentLessonHandoutWithDialog);
    handout->setToolTip(tr("A PDF of the running lesson: one page per step with the page, its text, question and answer"));
    lessons->addAction(tr("&Record Steps…"), this, &MainWindow::openLessonRecorder);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About"), this, [this] {
        QMessageBox::about(this, tr("About LLM Systems Explorer"),
                           tr("<h3>LLM Systems Explorer %1</h3><p>Parameters, FLOPs, memory, time and communication "
                              "of training large language models, with every formula's source.</p>"
                              "<p>Licence: GPL-3.0-or-later.</p>")
                               .arg(QStringLiteral(LSE_VERSION)));
    });
}

void MainWindow::applyPageEdit(const Scenario &scenario, const QString &description)
{
    // A page that swaps only the model (a Model atlas row) gets what choosing a preset gets: the
    // rest adapted, one undo step, the adjustment sentence shown.
    ScenarioDocument *document = shownDocument();
    if (changesOnlyTheModel(document->hasEstimate() ? document->estimatedScenario() : document->scenario(), scenario))
        document->loadModel(scenario.model, description);
    else
        document->replaceScenario(scenario, description);
}

void MainWindow::onScenarioChanged()
{
    for (Page *page : builtPages())
        stale_[page] = true;
    showEstimateOnCurrentPage();
    const ScenarioDocument *document = shownDocument();
    const int problems = int(document->problems().size());
    stale_banner_->setProblems(problems, document->hasEstimate());
    status_label_->setText(problems == 0
                               ? tr("Scenario valid.")
                               : tr("%n problem(s) in the scenario; the pages show the last valid results.", nullptr,
                                    problems));
    updateTitle();
}

void MainWindow::showEstimateOnCurrentPage()
{
    Page *page = currentPage();
    const ScenarioDocument *document = shownDocument();
    if (!page || !document->hasEstimate() || !stale_.value(page, true))
        return;
    // Only the visible page recomputes; the others catch up when shown.
    page->showEstimate(document->estimatedScenario(), document->estimate());
    shown_[page] = {document->estimatedScenario(), document->estimate()};
    stale_[page] = false;
}

void MainWindow::updateTitle()
{
    setWindowTitle(tr("%1[*] — LLM Systems Explorer").arg(document_->displayName()));
    setWindowModified(document_->isModified());
}

void MainWindow::setPresentation(bool presentation)
{
    if (presentation == presentation_)
        return;
    presentation_ = presentation;
    if (presentation_action_)
        presentation_action_->setChecked(presentation);
    if (presentation) {
        theme_before_presentation_ = theme_;
        editor_was_visible_ = editor_dock_->isVisible();
        QFont font = normal_font_;
        font.setPointSizeF(normal_font_.pointSizeF() * 1.5);
        QApplication::setFont(font);
        followApplication(QEvent::ApplicationFontChange);
        setTheme(Theme::HighContrast);
        editor_dock_->hide();
        if (QGuiApplication::platformName() != QLatin1String("offscreen"))
            showFullScreen();
    } else {
        QApplication::setFont(zoomedFont());
        followApplication(QEvent::ApplicationFontChange);
        setTheme(theme_before_presentation_);
        editor_dock_->setVisible(editor_was_visible_);
        if (isFullScreen())
            showNormal();
    }
    // The page titles' width at the current font, so a 1024-pixel projector keeps every pixel
    // it can for the page.
    navigation_->setFixedWidth(presentation ? navigation_->fittingWidth() : kNavigationWidth);
    lesson_view_fit_.restore();  // the pages set their charts' heights for the new mode; fitted again below
    lesson_bar_->setPresentation(presentation);
    for (Page *page : builtPages())
        page->setPresentation(presentation);
    editor_->setPresentation(presentation);
    if (lesson_editor_)
        lesson_editor_->setPresentation(presentation);
    updateZoomActions();
    updateLessonChrome();
    if (inLesson())
        revealLessonTarget();
}

void MainWindow::stepPage(int delta)
{
    const int count = navigation_->pageCount();
    if (count > 0)
        navigation_->setCurrentPage(((navigation_->currentPage() + delta) % count + count) % count);
}

QFont MainWindow::zoomedFont() const
{
    QFont font = normal_font_;
    font.setPointSizeF(normal_font_.pointSizeF() * zoom_percent_ / 100.0);
    return font;
}

void MainWindow::setZoomPercent(int percent)
{
    percent = std::clamp(percent, kMinZoomPercent, kMaxZoomPercent);
    if (presentation_ || percent == zoom_percent_)
        return;
    zoom_percent_ = percent;
    QApplication::setFont(zoomedFont());
    followApplication(QEvent::ApplicationFontChange);
    updateZoomActions();
    if (use_settings_)
        QSettings().setValue(QStringLiteral("view/zoom_percent"), zoom_percent_);
}

void MainWindow::updateZoomActions()
{
    if (!zoom_in_action_)
        return;
    zoom_in_action_->setEnabled(!presentation_ && zoom_percent_ < kMaxZoomPercent);
    zoom_out_action_->setEnabled(!presentation_ && zoom_percent_ > kMinZoomPercent);
    zoom_reset_action_->setEnabled(!presentation_ && zoom_percent_ != 100);
}

void MainWindow::setTheme(Theme theme)
{
    theme_ = theme;
    // Replacing the style re-polishes and re-lays out every widget of every page (a third of the
    // start-up time, bench_gui_footprint): only when the style is not Fusion already.
    if (QApplication::style()->name().compare(QLatin1String("fusion"), Qt::CaseInsensitive) != 0)
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    switch (theme) {
    case Theme::System: QApplication::setPalette(QApplication::style()->standardPalette()); break;
    case Theme::Light: QApplication::setPalette(lightPalette()); break;
    case Theme::Dark: QApplication::setPalette(darkPalette()); break;
    case Theme::HighContrast: QApplication::setPalette(highContrastPalette()); break;
    }
    followApplication(QEvent::ApplicationPaletteChange);
    for (Page *page : builtPages())
        for (ChartView *chart : page->charts())
            chart->applyPalette();
    if (use_settings_ && !presentation_)
        QSettings().setValue(QStringLiteral("view/theme"), int(theme));
}

void MainWindow::followApplication(QEvent::Type change)
{
    // Qt 6.4 passes a new application font or palette to every child widget, but not to a window
    // that was never shown (no native window yet): this one would keep the old font or palette
    // and hand it to the widgets made after the change (pages built on first need, the interface
    // rebuilt for a language). --screenshot and handouts never show the window.
    const bool followed = change == QEvent::ApplicationFontChange ? font() == QApplication::font()
                                                                  : palette() == QApplication::palette();
    if (!followed) {  // a shown window got it from Qt already; a second pass over every widget is slow
        QEvent event(change);
        QCoreApplication::sendEvent(this, &event);
    }
    // A table's header kept the old font when presentation mode or a zoom changed it (it was left
    // out of the propagation, so presentation mode showed small headers over large cells; issue 28
    // item 23): each header takes its table's font.
    if (change == QEvent::ApplicationFontChange)
        for (QHeaderView *header : findChildren<QHeaderView *>())
            if (QWidget *table = header->parentWidget(); table && header->font() != table->font())
                header->setFont(table->font());
}

void MainWindow::switchLanguage(const QString &language)
{
    if (language == currentLanguage())
        return;
    installLanguage(language);
    followApplication(QEvent::ApplicationFontChange);  // the language's fallback families
    // Zoom and presentation derive the application font from normal_font_: it takes the new
    // language's fallback families (the CJK cut for zh_CN) so leaving either keeps them.
    normal_font_.setFamilies(QApplication::font().families());
    if (use_settings_)
        QSettings().setValue(QStringLiteral("view/language"), language);
    // Every string was built with tr() when its widget was made: rebuilding the interface over the
    // same document re-translates all of it without losing the scenario or its undo history.
    // The page and, on a page made of tabs, its tab: the rebuilt window shows the same view.
    // A running lesson ends (its editor lives in the dock rebuilt here) and starts again at the
    // same step in the new language.
    const std::optional<Lesson> lesson = inLesson() ? std::optional(lesson_controller_->lesson()) : std::nullopt;
    const int lesson_step = lesson_controller_->stepIndex();
    endLesson();
    lesson_controller_->setLanguage(language);
    QString page_id = currentPageAndSection();
    const bool was_presentation = presentation_;
    setPresentation(false);
    removeDockWidget(editor_dock_);
    editor_dock_->deleteLater();
    removeDockWidget(lesson_dock_);
    lesson_dock_->deleteLater();
    stale_.clear();
    shown_.clear();
    page_slots_.clear();
    delete takeCentralWidget();
    statusBar()->removeWidget(status_label_);
    delete status_label_;
    buildUi();
    selectPage(page_id);
    setPresentation(was_presentation);
    onScenarioChanged();
    if (lesson)
        startLesson(*lesson, lesson_step, nullptr);
}

bool MainWindow::maybeSave()
{
    if (!document_->isModified())
        return true;
    const auto answer = QMessageBox::warning(
        this, tr("Unsaved changes"), tr("%1 has unsaved changes. Save them?").arg(document_->displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel)
        return false;
    if (answer == QMessageBox::Save)
        return document_->filePath().isEmpty() ? saveAsWithDialog() : saveTo(document_->filePath());
    return true;
}

bool MainWindow::saveTo(const QString &path)
{
    if (!confirmSaveOverRecovered(path))
        return false;
    QString error;
    if (!document_->save(path, &error)) {
        showError(tr("Cannot save %1").arg(QFileInfo(path).fileName()), error);
        return false;
    }
    addRecentFile(path);
    statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
    return true;
}

bool MainWindow::saveAsWithDialog()
{
    QString path = QFileDialog::getSaveFileName(this, tr("Save Scenario"), document_->filePath(),
                                                tr("Scenarios (*.json)"));
    if (path.isEmpty())
        return false;
    if (!path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
        path += QLatin1String(".json");
    return saveTo(path);
}

void MainWindow::openWithDialog()
{
    if (!maybeSave())
        return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Scenario"), QString(),
                                                      tr("Scenarios and Hugging Face configs (*.json)"));
    QString error;
    if (!path.isEmpty() && !openFile(path, &error))
        showError(tr("Cannot open %1").arg(QFileInfo(path).fileName()), error);
}

bool MainWindow::openFile(const QString &path, QString *error)
{
    endLesson();  // the user opens their own document: the lesson would hide it
    if (!isScenarioFile(path))
        return document_->importHuggingFaceConfig(path, error);
    if (!document_->open(path, error))
        return false;
    addRecentFile(path);
    return true;
}

void MainWindow::addRecentFile(const QString &path)
{
    if (!use_settings_)
        return;
    QSettings settings;
    QStringList recent = settings.value(QStringLiteral("document/recent")).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecentFiles)
        recent.removeLast();
    settings.setValue(QStringLiteral("document/recent"), recent);
    settings.setValue(QStringLiteral("document/last"), absolute);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    recent_menu_->clear();
    const QStringList recent = use_settings_ ? QSettings().value(QStringLiteral("document/recent")).toStringList()
                                             : QStringList();
    for (const QString &path : recent) {
        recent_menu_->addAction(QFileInfo(path).fileName(), this, [this, path] {
            if (!maybeSave())
                return;
            QString error;
            if (!openFile(path, &error))
                showError(tr("Cannot open %1").arg(QFileInfo(path).fileName()), error);
        })->setToolTip(path);
    }
    recent_menu_->setEnabled(!recent.isEmpty());
}

void MainWindow::showError(const QString &title, const QString &text)
{
    if (QGuiApplication::platformName() == QLatin1String("offscreen")) {
        statusBar()->showMessage(title + QStringLiteral(": ") + text, 8000);
        return;
    }
    QMessageBox::warning(this, title, text);
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    // Line edits and spin boxes claim Ctrl+Z through ShortcutOverride for their own text undo,
    // which would leave the document's undo unreachable while a field has focus. Refusing the
    // override for this window's widgets lets the Undo/Redo actions fire; text typed but not yet
    // committed becomes an edit first, so undo reverts it instead of losing it. Multi-line text
    // editors (sample text on the Tokenization page) keep their own undo: their text is not
    // part of the document.
    if (event->type() == QEvent::KeyPress && inLesson()
        && handleLessonKey(watched, static_cast<QKeyEvent *>(event)))
        return true;
    if (event->type() == QEvent::ShortcutOverride) {
        auto *widget = qobject_cast<QWidget *>(watched);
        const auto *key = static_cast<QKeyEvent *>(event);
        if (widget && (key->matches(QKeySequence::Undo) || key->matches(QKeySequence::Redo))
            && (widget == this || isAncestorOf(widget) || editor_dock_->isAncestorOf(widget))
            && !qobject_cast<QTextEdit *>(widget) && !qobject_cast<QPlainTextEdit *>(widget)) {
            shownEditor()->commitPendingEdits();
            event->ignore();
            return true;
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    if (use_settings_) {
        QSettings settings;
        if (!presentation_) {
            settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
            settings.setValue(QStringLiteral("window/state"), saveState());
        }
        settings.setValue(QStringLiteral("document/last"), document_->filePath());
    }
    // A clean close: the document was saved or its changes deliberately discarded.
    if (autosaver_)
        autosaver_->discard();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.front().isLocalFile()
        && urls.front().toLocalFile().endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QString path = event->mimeData()->urls().front().toLocalFile();
    if (isScenarioFile(path) && !maybeSave())
        return;
    QString error;
    if (!openFile(path, &error))
        showError(tr("Cannot open %1").arg(QFileInfo(path).fileName()), error);
    event->acceptProposedAction();
}

}  // namespace lse::gui
