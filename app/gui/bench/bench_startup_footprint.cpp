// SPDX-License-Identifier: GPL-3.0-or-later
// bench_gui_footprint: start-up time, idle memory and edit→repaint latency of every page
// (issue 20; what each number includes: docs/benchmarks-gui.md). Prints figures and a verdict per
// target; it asserts nothing. Exit 0 when everything was measured, 1 when a measurement failed,
// 2 for a bad command line.

#include "bench_report.h"
#include "repaint_clock.h"
#include "repaint_probe.h"
#include "startup_probe.h"
#include "xvfb_server.h"

#include "main_window.h"

#include <QCommandLineParser>
#include <QGuiApplication>
#include <QJsonDocument>
#include <QTemporaryDir>

#include <cstdio>
#include <memory>
#include <optional>

using namespace lse::gui::bench;

namespace {

int fail(const QString &message)
{
    std::fprintf(stderr, "bench_gui_footprint: %s\n", message.toUtf8().constData());
    return 2;
}

// A whole number >= `minimum` from option `name`; nullopt with *error naming the flag.
std::optional<int> countOption(const QCommandLineParser &parser, const QString &name, int fallback, int minimum,
                               QString *error)
{
    if (!parser.isSet(name))
        return fallback;
    bool ok = false;
    const int value = parser.value(name).toInt(&ok);
    if (!ok || value < minimum) {
        *error = QStringLiteral("--%1 '%2' must be a whole number >= %3").arg(name, parser.value(name)).arg(minimum);
        return std::nullopt;
    }
    return value;
}

struct Platform {
    QString name;
    QProcessEnvironment environment;
};

// Runs the launches: `warmup` unmeasured ones per platform first (they fill the page cache), then
// `runs` rounds that alternate the platforms so both see the same load on a shared machine.
std::vector<StartupPlatformResult> runStartup(const QString &app_path, const std::vector<Platform> &platforms,
                                              int warmup, int runs, int idle_ms, bool *failed)
{
    std::vector<StartupPlatformResult> results;
    for (const Platform &platform : platforms)
        results.push_back({platform.name, {}, {}});
    for (int round = -warmup; round < runs; ++round)
        for (size_t p = 0; p < platforms.size(); ++p) {
            if (!results[p].error.isEmpty())
                continue;
            // A private settings folder: every launch is a first launch (no saved window or document).
            QTemporaryDir settings;
            StartupOptions options;
            options.app_path = app_path;
            options.environment = platforms[p].environment;
            options.environment.insert(QStringLiteral("XDG_CONFIG_HOME"), settings.path());
            options.idle_ms = round < 0 ? 0 : idle_ms;
            QString error;
            const std::optional<StartupSample> sample = measureStartup(options, &error);
            if (!sample) {
                results[p].error = error;
                *failed = true;
            } else if (round >= 0) {
                results[p].samples.push_back(*sample);
            }
        }
    return results;
}

}  // namespace

int main(int argc, char *argv[])
{
    // The in-process repaint runs draw offscreen unless a platform or a display was given.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY")
        && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    RepaintClock app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("bench_gui_footprint"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Start-up time, idle memory and edit->repaint latency of every page of llm-explorer (docs/benchmarks-gui.md)."));
    parser.addHelpOption();
    parser.addOptions({
        {QStringLiteral("quick"), QStringLiteral("Smoke run: 1 offscreen launch, 1 edit per page, short idle.")},
        {QStringLiteral("runs"), QStringLiteral("Measured launches per platform (default 7)."), QStringLiteral("N")},
        {QStringLiteral("warmup"), QStringLiteral("Unmeasured launches per platform first (default 1)."), QStringLiteral("N")},
        {QStringLiteral("idle-ms"), QStringLiteral("Idle time before reading RSS (default 2000)."), QStringLiteral("MS")},
        {QStringLiteral("edits"), QStringLiteral("Measured edits per page (default 15)."), QStringLiteral("N")},
        {QStringLiteral("field"), QStringLiteral("Integer editor field to step (default model.n_layers)."), QStringLiteral("PATH")},
        {QStringLiteral("pages"), QStringLiteral("Comma-separated page ids (default: every page and tab)."), QStringLiteral("IDS")},
        {QStringLiteral("app"), QStringLiteral("The llm-explorer to launch (default: the one built with this)."), QStringLiteral("PATH")},
        {QStringLiteral("no-startup"), QStringLiteral("Skip the launches.")},
        {QStringLiteral("no-repaint"), QStringLiteral("Skip the edit->repaint runs.")},
        {QStringLiteral("no-xcb"), QStringLiteral("Launch offscreen only (no X server, no private Xvfb).")},
        {QStringLiteral("json"), QStringLiteral("Print the figures as JSON instead of tables.")},
    });
    if (!parser.parse(QCoreApplication::arguments()))
        return fail(QStringLiteral("%1 (see --help)").arg(parser.errorText()));
    if (parser.isSet(QStringLiteral("help")))
        parser.showHelp(0);
    if (!parser.positionalArguments().isEmpty())
        return fail(QStringLiteral("unexpected argument '%1' (see --help)").arg(parser.positionalArguments().first()));

    const bool quick = parser.isSet(QStringLiteral("quick"));
    QString error;
    const std::optional<int> runs = countOption(parser, QStringLiteral("runs"), quick ? 1 : 7, 1, &error);
    const std::optional<int> warmup = countOption(parser, QStringLiteral("warmup"), quick ? 0 : 1, 0, &error);
    const std::optional<int> idle_ms = countOption(parser, QStringLiteral("idle-ms"), quick ? 300 : 2000, 0, &error);
    const std::optional<int> edits = countOption(parser, QStringLiteral("edits"), quick ? 1 : 15, 1, &error);
    if (!runs || !warmup || !idle_ms || !edits)
        return fail(error);

    BenchmarkResults results;
    bool failed = false;
    std::unique_ptr<XvfbServer> xvfb;
    if (!parser.isSet(QStringLiteral("no-startup"))) {
        const QString app_path = parser.isSet(QStringLiteral("app")) ? parser.value(QStringLiteral("app"))
                                                                     : QStringLiteral(LSE_GUI_PATH);
        std::vector<Platform> platforms;
        QProcessEnvironment offscreen = QProcessEnvironment::systemEnvironment();
        offscreen.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        platforms.push_back({QStringLiteral("offscreen"), offscreen});
        StartupPlatformResult xcb_skipped{QStringLiteral("xcb"), {}, {}};
        if (!quick && !parser.isSet(QStringLiteral("no-xcb"))) {
            QString display = qEnvironmentVariable("DISPLAY");
            if (display.isEmpty()) {
                xvfb = std::make_unique<XvfbServer>();
                QString xvfb_error;
                if (xvfb->start(&xvfb_error))
                    display = xvfb->display() + QStringLiteral(" (private Xvfb)");
                else
                    xcb_skipped.error = xvfb_error;
            }
            if (!display.isEmpty()) {
                QProcessEnvironment xcb = QProcessEnvironment::systemEnvironment();
                xcb.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
                xcb.insert(QStringLiteral("DISPLAY"), display.section(QLatin1Char(' '), 0, 0));
                platforms.push_back({QStringLiteral("xcb on %1").arg(display), xcb});
            }
        }
        results.startup = runStartup(app_path, platforms, *warmup, *runs, *idle_ms, &failed);
        if (!xcb_skipped.error.isEmpty())
            results.startup.push_back(xcb_skipped);
        xvfb.reset();
    }
    if (!parser.isSet(QStringLiteral("no-repaint"))) {
        RepaintOptions options;
        options.edits = *edits;
        options.warmup_edits = quick ? 0 : 2;
        if (parser.isSet(QStringLiteral("field")))
            options.field = parser.value(QStringLiteral("field"));
        if (parser.isSet(QStringLiteral("pages")))
            options.page_ids = parser.value(QStringLiteral("pages")).split(QLatin1Char(','), Qt::SkipEmptyParts);
        // As llm-explorer does before building its window: the English UI and its fonts.
        lse::gui::MainWindow::installLanguage(QStringLiteral("en"));
        results.repaint_platform = QGuiApplication::platformName();
        results.repaint_field = options.field;
        results.repaint_window_size = options.window_size;
        results.pages = measureRepaints(app, options, &error);
        if (results.pages.empty())
            return fail(error);
    }

    const QByteArray output = parser.isSet(QStringLiteral("json"))
                                  ? QJsonDocument(toJson(results)).toJson(QJsonDocument::Indented)
                                  : formatText(results).toUtf8();
    std::fwrite(output.constData(), 1, size_t(output.size()), stdout);
    return failed ? 1 : 0;
}
