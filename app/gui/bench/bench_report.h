// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "repaint_probe.h"
#include "startup_probe.h"

#include <QJsonObject>
#include <QString>

#include <vector>

namespace lse::gui::bench {

// The targets of issue 20 ("Start-up and footprint benchmark"): a benchmark's printed verdict, not
// a test assertion.
inline constexpr double kStartTargetMs = 500.0;         // launch to first painted window, median
inline constexpr double kEditToRepaintTargetMs = 16.0;  // median on the heaviest page (one 60 Hz frame)
inline constexpr double kIdleRssTargetMb = 100.0;       // VmRSS after ~2 s idle, median

// The start-up runs on one Qt platform ("offscreen", "xcb").
struct StartupPlatformResult {
    QString platform;
    std::vector<StartupSample> samples;
    QString error;  // why the platform was skipped or a launch failed
};

struct BenchmarkResults {
    std::vector<StartupPlatformResult> startup;
    QString repaint_platform;  // the platform this process's edit→repaint runs used
    QString repaint_field;
    QSize repaint_window_size;
    std::vector<PageRepaintResult> pages;
};

// The page with the largest median of `figure` (edit_to_repaint_ms, edit_to_response_ms), or
// -1 when there are none.
int heaviestPage(const std::vector<PageRepaintResult> &pages, SampleSummary PageRepaintResult::*figure);

// Human-readable tables with the targets and a PASS/OVER line per target.
QString formatText(const BenchmarkResults &results);
// The same figures as JSON (docs/benchmarks-gui.md quotes it).
QJsonObject toJson(const BenchmarkResults &results);

}  // namespace lse::gui::bench
