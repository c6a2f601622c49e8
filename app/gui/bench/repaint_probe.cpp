// SPDX-License-Identifier: GPL-3.0-or-later
#include "repaint_probe.h"

#include "repaint_clock.h"

#include "charts/chart_view.h"
#include "document/scenario_document.h"
#include "editor/scenario_editor.h"
#include "main_window.h"
#include "pages/page.h"

#include <QEventLoop>
#include <QSpinBox>
#include <QTimer>

#include <qcustomplot.h>

namespace lse::gui::bench {

namespace {

struct Settled {
    qint64 end_ns = 0;  // end of the last repaint after start_ns, or start_ns when none followed
    qint64 end_cpu_ns = 0;  // the GUI thread's CPU time then
    // End of the last repaint once the event queue had gone quiet while background work the page
    // started was still running: what the window showed before that work's results arrived.
    // end_ns when the page started no background work (or it finished first).
    qint64 response_end_ns = 0;
    bool timed_out = false;
};

// Runs the event loop until `page` is ready and two passes in a row delivered no event, and
// returns when the last repaint in that time ended. The passes that find the queue empty are not
// counted: the end is the repaint's, not the moment the queue was seen empty.
Settled settle(RepaintClock &clock, const Page *page, qint64 start_ns, qint64 start_cpu_ns, int timeout_ms)
{
    Settled settled;
    const qint64 deadline_ns = start_ns + qint64(timeout_ms) * 1000000;
    int quiet_passes = 0;
    int quiet_passes_while_busy = 0;
    while (quiet_passes < 2) {
        if (clock.nowNs() > deadline_ns) {
            settled.timed_out = true;
            break;
        }
        const qint64 before = clock.eventsDelivered();
        QCoreApplication::processEvents(QEventLoop::AllEvents);
        const bool quiet = clock.eventsDelivered() == before;
        if (page && !page->isReady()) {
            // Background work (the layout search). Once the queue is quiet, what the window shows
            // is the page's response to the edit; then sleep until the page says it is done.
            quiet_passes_while_busy = quiet ? quiet_passes_while_busy + 1 : 0;
            if (quiet_passes_while_busy == 2 && settled.response_end_ns == 0)
                settled.response_end_ns = clock.lastRepaintEndNs() > start_ns ? clock.lastRepaintEndNs() : start_ns;
            if (quiet) {
                QEventLoop wait;
                QObject::connect(page, &Page::ready, &wait, &QEventLoop::quit);
                QTimer::singleShot(50, &wait, &QEventLoop::quit);
                wait.exec();
            }
            quiet_passes = 0;
            continue;
        }
        quiet_passes = quiet ? quiet_passes + 1 : 0;
    }
    const bool repainted = clock.lastRepaintEndNs() > start_ns;
    settled.end_ns = repainted ? clock.lastRepaintEndNs() : start_ns;
    settled.end_cpu_ns = repainted ? clock.lastRepaintEndCpuNs() : start_cpu_ns;
    if (settled.response_end_ns == 0)
        settled.response_end_ns = settled.end_ns;
    return settled;
}

double toMs(qint64 ns) { return double(ns) / 1e6; }

}  // namespace

std::vector<PageRepaintResult> measureRepaints(RepaintClock &clock, const RepaintOptions &options, QString *error)
{
    MainWindow window(false);
    window.resize(options.window_size);
    window.show();
    settle(clock, window.currentPage(), clock.nowNs(), RepaintClock::threadCpuNs(), options.timeout_ms);

    auto *spin = qobject_cast<QSpinBox *>(window.editor()->fieldWidget(options.field));
    if (!spin) {
        *error = QStringLiteral("--field '%1' is not an integer field of the scenario editor (e.g. model.n_layers, "
                                "training.global_batch)")
                     .arg(options.field);
        return {};
    }
    const QStringList all_ids = window.pageAndSectionIds();
    const QStringList ids = options.page_ids.isEmpty() ? all_ids : options.page_ids;
    for (const QString &id : ids)
        if (!all_ids.contains(id)) {
            *error = QStringLiteral("--pages: '%1' is not a page; pages: %2").arg(id, all_ids.join(QStringLiteral(", ")));
            return {};
        }
    // Alternating up and down keeps the scenario toggling between two values, so every edit
    // changes it and the page never drifts to an unusual model.
    const int first_step = spin->value() < spin->maximum() ? +1 : -1;
    int next_step = first_step;

    std::vector<PageRepaintResult> results;
    for (const QString &id : ids) {
        PageRepaintResult result;
        result.id = id;
        const qint64 switch_start = clock.nowNs();
        window.selectPage(id);
        Page *page = window.currentPage();
        const Settled shown = settle(clock, page, switch_start, RepaintClock::threadCpuNs(), options.timeout_ms);
        result.first_show_ms = toMs(shown.end_ns - switch_start);
        result.timed_out = shown.timed_out;

        qint64 replots = 0;
        QList<QMetaObject::Connection> connections;
        const QList<ChartView *> charts = page->charts();
        result.charts = int(charts.size());
        for (ChartView *chart : charts)
            connections << QObject::connect(chart->plot(), &QCustomPlot::afterReplot, [&replots] { ++replots; });

        std::vector<double> to_repaint_ms, to_response_ms, to_estimate_ms, to_repaint_cpu_ms;
        qint64 replots_measured = 0, repaints_measured = 0;
        for (int edit = 0; edit < options.warmup_edits + options.edits; ++edit) {
            const bool measured = edit >= options.warmup_edits;
            const qint64 replots_before = replots, repaints_before = clock.repaints();
            const qint64 start_cpu = RepaintClock::threadCpuNs();
            const qint64 start = clock.nowNs();
            spin->stepBy(next_step);
            const qint64 estimate_shown = clock.nowNs();
            next_step = -next_step;
            const Settled settled = settle(clock, page, start, start_cpu, options.timeout_ms);
            result.timed_out = result.timed_out || settled.timed_out;
            result.scenario_stayed_valid = result.scenario_stayed_valid && window.document()->isValid();
            if (!measured)
                continue;
            to_repaint_ms.push_back(toMs(settled.end_ns - start));
            to_response_ms.push_back(toMs(settled.response_end_ns - start));
            to_estimate_ms.push_back(toMs(estimate_shown - start));
            to_repaint_cpu_ms.push_back(toMs(settled.end_cpu_ns - start_cpu));
            replots_measured += replots - replots_before;
            repaints_measured += clock.repaints() - repaints_before;
        }
        for (const QMetaObject::Connection &connection : connections)
            QObject::disconnect(connection);
        result.edit_to_repaint_ms = summarize(to_repaint_ms);
        result.edit_to_response_ms = summarize(to_response_ms);
        result.edit_to_estimate_shown_ms = summarize(to_estimate_ms);
        result.edit_to_repaint_cpu_ms = summarize(to_repaint_cpu_ms);
        if (options.edits > 0) {
            result.chart_replots_per_edit = double(replots_measured) / options.edits;
            result.repaints_per_edit = double(repaints_measured) / options.edits;
        }
        results.push_back(result);
    }
    // An even number of steps leaves the field where it started.
    if (next_step != first_step)
        spin->stepBy(next_step);
    return results;
}

}  // namespace lse::gui::bench
