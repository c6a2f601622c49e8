// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "bench_statistics.h"

#include <QSize>
#include <QStringList>

#include <vector>

namespace lse::gui::bench {

class RepaintClock;

// Edit→repaint latency of one page (or one tab of a page made of tabs).
struct PageRepaintResult {
    QString id;
    // selectPage() until the window has repainted and gone quiet: the page's first show (it is
    // filled from the estimate then) — one sample.
    double first_show_ms = 0.0;
    // Per edit: from the editor's spin box stepping (QSpinBox::stepBy, what an arrow key or the
    // mouse wheel does) to the end of the last repaint that followed, with the event queue drained
    // (queued chart replots, the window's paint and flush) and background work the page started done.
    SampleSummary edit_to_repaint_ms;
    // Per edit: as edit_to_repaint_ms, but without waiting for background work the page started
    // (the Search page's re-run of the layout search): to the end of the last repaint once the
    // event queue had gone quiet while that work ran. Equal to edit_to_repaint_ms for a page that
    // starts none.
    SampleSummary edit_to_response_ms;
    // Per edit: the synchronous part alone, from the step until the document's recompute and the
    // page's showEstimate() have returned (no painting yet).
    SampleSummary edit_to_estimate_shown_ms;
    // Per edit: CPU time of the GUI thread from the step to the end of the last repaint (other
    // processes' load does not inflate it; the page's background threads are not in it).
    SampleSummary edit_to_repaint_cpu_ms;
    double chart_replots_per_edit = 0.0;  // QCustomPlot::afterReplot of the page's charts
    double repaints_per_edit = 0.0;       // window repaints (see RepaintClock)
    int charts = 0;
    bool scenario_stayed_valid = true;  // the edited scenario had no problems after every edit
    bool timed_out = false;
};

struct RepaintOptions {
    QStringList page_ids;  // empty: every page and tab (MainWindow::pageAndSectionIds())
    QString field = QStringLiteral("model.n_layers");  // an integer field of the editor
    int edits = 15;
    int warmup_edits = 2;
    QSize window_size{1280, 800};
    int timeout_ms = 60000;  // per edit, for pages with background work
};

// Builds the main window (no user settings), shows it at options.window_size and measures each
// page. Empty with *error when a page id or the field is unknown.
std::vector<PageRepaintResult> measureRepaints(RepaintClock &clock, const RepaintOptions &options, QString *error);

}  // namespace lse::gui::bench
