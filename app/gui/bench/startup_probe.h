// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QProcessEnvironment>
#include <QString>

#include <optional>

namespace lse::gui::bench {

// One launch of the real llm-explorer with LSE_REPORT_FIRST_PAINT=1 (app/gui/first_paint_reporter.h).
struct StartupSample {
    // From QProcess::start() to the "first-paint-ms" line arriving on this process's clock: exec,
    // shared libraries, static initialisers, QApplication, the main window and its first paint.
    double launch_to_paint_ms = 0.0;
    // What the app itself printed: from the first line of main() to the end of the first paint.
    double main_to_paint_ms = 0.0;
    // CPU time the app had used (all threads, user + system, /proc/<pid>/stat) when the line
    // arrived: 10 ms resolution, but not inflated by other processes' load.
    double cpu_to_paint_ms = 0.0;
    // VmRSS and VmHWM (peak RSS) of /proc/<pid>/status once the window has been idle idle_ms.
    double idle_rss_mb = 0.0;
    double peak_rss_mb = 0.0;
};

struct StartupOptions {
    QString app_path;
    // The child's environment: the platform (offscreen or xcb with DISPLAY) and a private settings
    // folder so every launch is a first launch with no saved window or document.
    QProcessEnvironment environment;
    int idle_ms = 2000;
    int timeout_ms = 30000;
};

// Launches the app, waits for its first paint, lets it idle, reads its memory and terminates it.
// nullopt with *error when it does not start, exits, or prints no first paint within the timeout.
std::optional<StartupSample> measureStartup(const StartupOptions &options, QString *error);

// Resident memory of process `pid` in MB (10^6 bytes, the unit of the 100 MB target) from /proc/<pid>/status ("VmRSS" or "VmHWM"); -1 if
// unreadable.
double residentMb(qint64 pid, const char *field);
// utime + stime of process `pid` in ms from /proc/<pid>/stat (proc(5), fields 14 and 15); -1 if
// unreadable.
double processCpuMs(qint64 pid);

}  // namespace lse::gui::bench
