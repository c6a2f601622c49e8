// SPDX-License-Identifier: GPL-3.0-or-later
// llm-explorer: the desktop app.

#include "main_window.h"
#include "first_paint_reporter.h"

#include "common/input_files.h"
#include "common/interrupt_cleanup.h"
#include "desktop_identity.h"
#include "document/autosave_store.h"
#include "document/scenario_document.h"
#include "pages/traces/trace_page.h"
#include "lessons/lesson_catalog.h"
#include "output/output_file.h"
#include "output/stale_temporary_prompt.h"
#include "pages/page.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QEventLoop>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QSettings>

#include <cerrno>
#include <cstdio>
#include <cstring>

using lse::gui::MainWindow;

namespace {

std::optional<QSize> parseSize(const QString &text)
{
    const QStringList parts = text.toLower().split('x');
    if (parts.size() != 2)
        return std::nullopt;
    bool ok_width = false, ok_height = false;
    const int width = parts[0].toInt(&ok_width), height = parts[1].toInt(&ok_height);
    if (!ok_width || !ok_height || width < 320 || height < 240 || width > 10000 || height > 10000)
        return std::nullopt;
    return QSize(width, height);
}

int fail(const QString &message)
{
    std::fprintf(stderr, "llm-explorer: %s\n", message.toUtf8().constData());
    return 2;
}

// What the listings printed must have reached standard output (`--list-pages > /dev/full` exited 0):
// exit 1 with a message when a write failed.
int finishStandardOutput(int status)
{
    if (std::fflush(stdout) == 0 && !std::ferror(stdout))
        return status;
    std::fprintf(stderr, "llm-explorer: cannot write to standard output (%s); the output is incomplete.\n",
                 std::strerror(errno != 0 ? errno : EIO));
    return status == 0 ? 1 : status;
}

// True when Qt's default platform would have nowhere to draw: no platform chosen and neither an X
// nor a Wayland display. Constructing QApplication then aborts (SIGABRT), so main() switches to the
// offscreen platform and refuses only the one thing that needs a screen: showing the window.
// The built-in lesson named `name`, or the lesson file at that path; nullopt with *error naming
// --lesson and what it accepts.
std::optional<lse::Lesson> findLesson(const QString &name, QString *error)
{
    if (const lse::Lesson *builtin = lse::findBuiltinLesson(name.toStdString()))
        return *builtin;
    if (QFileInfo(name).isFile()) {
        lse::Result<lse::Lesson> lesson = lse::loadLessonFile(name.toStdString());
        if (lesson.ok())
            return lesson.value();
        *error = QStringLiteral("--lesson '%1' is not a valid lesson file:\n%2")
                     .arg(name, QString::fromStdString(lse::formatProblems(lesson.problems())));
        return std::nullopt;
    }
    QStringList ids;
    for (const lse::Lesson &lesson : lse::builtinLessons())
        ids << QString::fromStdString(lesson.id);
    *error = QStringLiteral("--lesson '%1' is neither a built-in lesson (%2) nor a lesson file")
                 .arg(name, ids.isEmpty() ? QStringLiteral("none") : ids.join(QStringLiteral(", ")));
    return std::nullopt;
}

bool noDisplay()
{
    return qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY")
        && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

}  // namespace

int main(int argc, char *argv[])
{
    // The start-up benchmark's clock (LSE_REPORT_FIRST_PAINT, see first_paint_reporter.h).
    QElapsedTimer since_main;
    since_main.start();
    // Temporaries of an export or save in progress are removed when the app is stopped by
    // SIGINT/SIGTERM (core/common/interrupt_cleanup.h).
    lse::installInterruptCleanup();
    // Listing pages and rendering screenshots need no display: use the offscreen platform unless
    // the user chose one, so scripts and CI work without X. Without any display, --help, --version
    // and command-line errors must still print and exit instead of aborting in QApplication.
    const bool no_display = noDisplay();
    for (int i = 1; i < argc; ++i) {
        const QByteArray argument(argv[i]);
        if ((argument == "--list-pages" || argument == "--list-lessons" || argument == "--list-lesson-targets"
             || argument.startsWith("--list-lesson-targets=") || argument == "--screenshot" || argument.startsWith("--screenshot=")
             || argument == "--handout" || argument.startsWith("--handout=") || argument == "--slides"
             || argument.startsWith("--slides="))
            && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    if (no_display)
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("LLM Systems Explorer"));
    QApplication::setApplicationName(QStringLiteral("llm-explorer"));
    QApplication::setApplicationDisplayName(QStringLiteral("LLM Systems Explorer"));
    QApplication::setApplicationVersion(QStringLiteral(LSE_VERSION));
    // The window class (StartupWMClass) is the application name; the desktop file name and icon
    // match the installed .desktop entry (resources/desktop/).
    lse::gui::applyDesktopIdentity();

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Parameters, FLOPs, memory, time and communication of LLM training."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption scenario_option("scenario", "Open this scenario file (or Hugging Face config.json).", "FILE");
    const QCommandLineOption trace_option(
        "trace", "Open this PyTorch profiler trace (.json or .json.gz) on the Trace page; repeat for more ranks.", "FILE");
    const QCommandLineOption page_option("page", "Show this page (see --list-pages).", "NAME");
    const QCommandLineOption screenshot_option("screenshot", "Render the page to PNG and exit.", "PNG");
    const QCommandLineOption size_option("size", "Window size for --screenshot (default 1280x800).", "WxH", "1280x800");
    const QCommandLineOption presentation_option("presentation", "Start in presentation mode.");
    const QCommandLineOption lang_option("lang", "User interface language: en or zh_CN (default: system).", "LANG");
    const QCommandLineOption theme_option("theme", "Theme: system, light, dark or high-contrast.", "THEME");
    const QCommandLineOption list_pages_option("list-pages", "Print the page names --page accepts and exit.");
    const QCommandLineOption list_lessons_option("list-lessons",
                                                 "Print the built-in lessons (id, a tab, title, step count) and exit.");
    const QCommandLineOption lesson_option("lesson", "Start this lesson: a built-in lesson's id or a lesson file.",
                                           "NAME_OR_FILE");
    const QCommandLineOption step_option("step", "With --lesson: start at this step (from 1).", "K");
    const QCommandLineOption list_targets_option(
        "list-lesson-targets", "Print every highlight target of a page (kind, a tab, target) and exit.", "PAGE");
    const QCommandLineOption handout_option(
        "handout", "With --lesson: write its handout (a PDF, one page per step, rendered at --size) and exit.", "PDF");
    const QCommandLineOption slides_option(
        "slides", "With --lesson: write one PNG per step (<lesson>-step-NN.png) into this folder and exit.", "FOLDER");
    const QCommandLineOption recover_option(
        "recover", "Recover every autosave left by an instance that did not quit cleanly, without asking "
                   "(also before --screenshot).");
    const QCommandLineOption no_recover_option("no-recover", "Do not offer autosaves back at start-up (they are kept).");
    for (const QCommandLineOption &option :
         {scenario_option, trace_option, page_option, screenshot_option, size_option, presentation_option, lang_option,
          theme_option, list_pages_option, list_lessons_option, lesson_option, step_option, list_targets_option,
          handout_option, slides_option, recover_option, no_recover_option})
        parser.addOption(option);
    // An unknown flag is a command-line error like any other: message naming it, exit 2
    // (process() alone would exit 1). process() then handles --help, --help-all and --version.
    if (!parser.parse(QCoreApplication::arguments()))
        return fail(QStringLiteral("%1 (see --help)").arg(parser.errorText()));
    parser.process(app);

    const bool handout = parser.isSet(handout_option) || parser.isSet(slides_option);
    // Handouts are rendered like screenshots: offscreen, with no user settings read or written.
    const bool screenshot = parser.isSet(screenshot_option) || handout;
    // Language: the flag, else the menu choice saved last time, else the system locale.
    QString language = parser.value(lang_option);
    if (language.isEmpty() && !screenshot)
        language = QSettings().value(QStringLiteral("view/language")).toString();
    if (language.isEmpty())
        language = QLocale::system().name().startsWith(QLatin1String("zh")) ? QStringLiteral("zh_CN") : QStringLiteral("en");
    if (language != QLatin1String("en") && language != QLatin1String("zh_CN"))
        return fail(QStringLiteral("--lang '%1' is not supported; use en or zh_CN").arg(language));
    if (!MainWindow::installLanguage(language))
        return fail(QStringLiteral("the %1 translation could not be loaded").arg(language));

    if (parser.isSet(list_lessons_option)) {
        for (const lse::Lesson &lesson : lse::builtinLessons())
            std::printf("%s\t%s\t%zu\n", lesson.id.c_str(),
                        lse::localizedText(lesson.title, language.toStdString()).c_str(), lesson.steps.size());
        return finishStandardOutput(0);
    }
    // The lesson and its step are checked before any window exists: a bad one is a command-line
    // error (exit 2) naming the flag and what it accepts.
    std::optional<lse::Lesson> lesson;
    int lesson_step = 0;
    if (parser.isSet(step_option) && !parser.isSet(lesson_option))
        return fail(QStringLiteral("--step needs --lesson"));
    if (handout && !parser.isSet(lesson_option))
        return fail(QStringLiteral("%1 needs --lesson").arg(parser.isSet(handout_option) ? "--handout" : "--slides"));
    if (parser.isSet(lesson_option)) {
        QString error;
        lesson = findLesson(parser.value(lesson_option), &error);
        if (!lesson)
            return fail(error);
        const int steps = int(lesson->steps.size());
        if (parser.isSet(step_option)) {
            bool ok = false;
            lesson_step = parser.value(step_option).toInt(&ok);
            if (!ok || lesson_step < 1 || lesson_step > steps)
                return fail(QStringLiteral("--step '%1' is out of range: lesson '%2' has steps 1 to %3")
                                .arg(parser.value(step_option), QString::fromStdString(lesson->id))
                                .arg(steps));
            --lesson_step;
        }
    }

    if (parser.isSet(recover_option) && parser.isSet(no_recover_option))
        return fail(QStringLiteral("--recover and --no-recover exclude each other; give one"));
    if (parser.isSet(recover_option) && handout)
        return fail(QStringLiteral("--recover cannot be combined with %1 (a lesson shows its own scenarios)")
                        .arg(parser.isSet(handout_option) ? "--handout" : "--slides"));

    // A lesson file given here is an input for the whole run: no screenshot, handout or export may
    // replace it (core/common/input_files.h). The open scenario registers itself (ScenarioDocument).
    const lse::InputFileRegistration lesson_input(
        parser.isSet(lesson_option) && QFileInfo(parser.value(lesson_option)).isFile()
            ? QFile::encodeName(parser.value(lesson_option)).toStdString()
            : std::string(),
        "the lesson file given with --lesson");

    // Screenshots and scripted runs must not read or write the user's settings.
    const bool listing = parser.isSet(list_pages_option) || parser.isSet(list_targets_option);
    lse::gui::StaleTemporaryPrompt::install(!screenshot && !listing);
    MainWindow window(!screenshot && !listing);
    if (parser.isSet(list_pages_option)) {
        for (const QString &id : window.pageAndSectionIds())
            std::printf("%s\n", id.toUtf8().constData());
        return finishStandardOutput(0);
    }
    if (parser.isSet(list_targets_option)) {
        const QString page_id = parser.value(list_targets_option);
        if (!window.selectPage(page_id))
            return fail(QStringLiteral("--list-lesson-targets '%1' is not a page; pages: %2")
                            .arg(page_id, window.pageAndSectionIds().join(QStringLiteral(", "))));
        // Field targets are the editor's field paths (the scenario file's), not the page's.
        const lse::HighlightKind kinds[] = {lse::HighlightKind::Region, lse::HighlightKind::ChartSeries,
                                            lse::HighlightKind::ChartPoint, lse::HighlightKind::TableRow};
        for (const lse::HighlightKind kind : kinds)
            for (const QString &target : window.currentPage()->lessonTargets(kind))
                std::printf("%s\t%s\n", std::string(lse::toString(kind)).c_str(), target.toUtf8().constData());
        return finishStandardOutput(0);
    }
    if (parser.isSet(theme_option)) {
        const QString theme = parser.value(theme_option);
        const std::pair<const char *, lse::gui::Theme> themes[] = {{"system", lse::gui::Theme::System},
                                                                   {"light", lse::gui::Theme::Light},
                                                                   {"dark", lse::gui::Theme::Dark},
                                                                   {"high-contrast", lse::gui::Theme::HighContrast}};
        bool known = false;
        for (const auto &[name, value] : themes)
            if (theme == QLatin1String(name)) {
                window.setTheme(value);
                known = true;
            }
        if (!known)
            return fail(QStringLiteral("--theme '%1' is not one of system, light, dark, high-contrast").arg(theme));
    } else if (screenshot) {
        window.setTheme(lse::gui::Theme::Light);
    }
    if (parser.isSet(scenario_option)) {
        QString error;
        if (!window.openFile(parser.value(scenario_option), &error))
            return fail(QStringLiteral("cannot open %1:\n%2").arg(parser.value(scenario_option), error));
    }
    // Autosave runs in interactive sessions, and with --recover (whose recovered documents must
    // stay autosaved); screenshots, handouts and listings leave no files behind.
    const bool interactive = !screenshot && !listing;
    if (interactive || parser.isSet(recover_option))
        window.enableAutosave(lse::gui::autosaveDirectory());
    QObject::connect(&window, &MainWindow::recoveryProblem, [](const QString &message) {
        std::fprintf(stderr, "llm-explorer: autosave not recovered: %s\n", message.toUtf8().constData());
    });
    // A document named by --scenario stays in this window; recovered ones then open beside it.
    if (parser.isSet(recover_option))
        window.offerRecovery(MainWindow::RecoveryMode::RecoverAll, !parser.isSet(scenario_option));
    // Before --page, which may name another page: the trace then loads in the background.
    if (parser.isSet(trace_option)) {
        window.openTraces(parser.values(trace_option));
        // A screenshot of any page (the Roofline page's overlay too) shows the trace read.
        auto *trace = qobject_cast<lse::gui::TracePage *>(window.page(lse::gui::TracePage::pageId()));
        if (screenshot && trace && trace->loading()) {
            QEventLoop loop;
            QObject::connect(trace, &lse::gui::TracePage::loadFinished, &loop, &QEventLoop::quit);
            loop.exec();
        }
        if (screenshot && trace && !trace->lastProblems().isEmpty())
            return fail(QStringLiteral("--trace: %1").arg(trace->lastProblems()));
    }
    if (parser.isSet(page_option) && !window.selectPage(parser.value(page_option)))
        return fail(QStringLiteral("--page '%1' is not a page; pages: %2")
                        .arg(parser.value(page_option), window.pageAndSectionIds().join(QStringLiteral(", "))));
    if (parser.isSet(presentation_option))
        window.setPresentation(true);
    if (lesson) {
        QString error;
        if (!window.startLesson(*lesson, lesson_step, &error))
            return fail(QStringLiteral("--lesson '%1' cannot start:\n%2").arg(parser.value(lesson_option), error));
    }

    if (handout) {
        const std::optional<QSize> size = parseSize(parser.value(size_option));
        if (!size)
            return fail(QStringLiteral("--size '%1' must look like 1280x800").arg(parser.value(size_option)));
        window.resize(*size);
        QString error;
        if (!window.exportLessonHandout(*lesson, parser.value(handout_option), parser.value(slides_option), &error))
            return fail(error);
        return 0;
    }
    if (screenshot) {
        const std::optional<QSize> size = parseSize(parser.value(size_option));
        if (!size)
            return fail(QStringLiteral("--size '%1' must look like 1280x800").arg(parser.value(size_option)));
        const QString path = parser.value(screenshot_option);
        // Refused before rendering: the scenario or lesson this run reads, a device, a FIFO.
        if (const QString problem = lse::gui::outputPathProblemText(path); !problem.isEmpty())
            return fail(QStringLiteral("--screenshot: %1").arg(problem));
        const QImage image = window.renderScreenshot(*size);
        QString error;
        // Atomic, as every output: a full disk leaves the old PNG whole (output/output_file.h).
        if (!lse::gui::writeImageFile(path, image, &error))
            return fail(QStringLiteral("--screenshot: %1").arg(error));
        return 0;
    }
    if (no_display)
        return fail(QStringLiteral("no display: DISPLAY and WAYLAND_DISPLAY are unset (set one, or use "
                                   "--screenshot FILE to render offscreen)"));
    lse::gui::reportFirstPaintIfRequested(&window, since_main);
    window.show();
    for (MainWindow *recovered : window.recoveryWindows())
        recovered->show();
    // Asked once the window is on screen, so the dialog has something to sit over.
    if (!parser.isSet(recover_option) && !parser.isSet(no_recover_option))
        window.offerRecovery(MainWindow::RecoveryMode::Ask, !parser.isSet(scenario_option));
    return QApplication::exec();
}
