// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "traces/trace_analysis.h"
#include "traces/trace_model.h"
#include "traces/trace_vs_prediction.h"

#include <QObject>
#include <QString>

#include <memory>
#include <vector>

namespace lse::gui {

// One loaded trace file (one rank) and core's analysis of it.
struct LoadedTrace {
    traces::TraceRank rank;
    traces::TraceRankAnalysis analysis;
};
using LoadedTraces = std::shared_ptr<const std::vector<LoadedTrace>>;

// The traces the Trace page loaded, shared with the pages that show them beside their own figures
// (the Roofline page's "Your trace" overlay). The main window owns one per window and hands it to
// every page that implements TraceSessionClient; only the Trace page loads files into it, the
// others read it and redraw on changed().
class TraceSession : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    // Replaces the loaded traces (the first rank becomes current) and emits changed().
    void setTraces(std::vector<LoadedTrace> traces);
    void clear();
    const LoadedTraces &traces() const { return traces_; }
    bool isEmpty() const { return !traces_ || traces_->empty(); }
    int rankCount() const { return traces_ ? int(traces_->size()) : 0; }
    // The rank the pages show (index into traces()); setCurrentRank emits changed() when it changes.
    int currentRank() const { return current_; }
    void setCurrentRank(int index);
    // The current rank's trace; null when nothing is loaded.
    const LoadedTrace *current() const;

    // The current rank's GEMM calls beside the engine's kernel times, as the Trace page's "Measured
    // vs predicted" tab last computed them (null: none); cleared with every new load or rank.
    // The Roofline overlay names a clicked point's predicted counterpart from it.
    void setGemmPrediction(std::shared_ptr<const traces::GemmPredictionSummary> gemms);
    const std::shared_ptr<const traces::GemmPredictionSummary> &gemmPrediction() const { return gemms_; }

signals:
    void changed();

private:
    LoadedTraces traces_;
    int current_ = 0;
    std::shared_ptr<const traces::GemmPredictionSummary> gemms_;
};

// A page that shows the window's loaded traces (MainWindow::pageAt hands it the session when it
// builds the page). A page built without a window (tests) gets none unless a test sets it.
class TraceSessionClient {
public:
    virtual ~TraceSessionClient() = default;
    virtual void setTraceSession(TraceSession *session) = 0;
};

}  // namespace lse::gui
