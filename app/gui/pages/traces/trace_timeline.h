// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_data.h"
#include "charts/chart_layer.h"
#include "pages/traces/trace_session.h"

#include <QColor>
#include <QCoreApplication>
#include <QStringList>

#include <memory>
#include <vector>

namespace lse::gui {

// The colour of a kernel class on the timeline, the breakdown and the roofline overlay
// (Okabe–Ito colours, distinguishable with the common colour-vision deficiencies).
QColor kernelClassColor(traces::KernelClass cls);
// The translated name of a class ("GEMM", "communication", …).
QString kernelClassLabel(traces::KernelClass cls);

// The hover text of GPU activity `index` of `rank`: name, class, time, operator, shape, FLOPs,
// achieved FLOP/s (the timeline and the Roofline page's overlay).
QString traceKernelToolTip(const traces::TraceRank &rank, std::size_t index);
// The hover text of CPU operator `index` of `rank`: name, class, thread, time, shape, FLOPs,
// achieved FLOP/s.
QString traceCpuOpToolTip(const traces::TraceRank &rank, std::size_t index);

// One rank's timeline as a ChartLayer: a row per GPU stream (and one for the ProfilerStep ranges on
// the CPU), every kernel a bar coloured by its class. A CPU-only trace (our own exports, a PyTorch
// CPU profile) has no GPU rows; it gets two rows per CPU thread instead: the top-level operators
// (parent -1; in our exports the forward/backward/optimizer phases, or the communication thread's
// collectives) and the operators one level inside them, coloured by classOfOperatorCall. Drawn by
// one plottable per class that paints
// only the bars in the visible time range and merges bars closer than a pixel, so a trace of 100k
// kernels zooms and pans smoothly (per-kernel QCPItemRects took seconds). x is milliseconds from
// the trace's first event; zoom and drag act on x only.
class TraceTimelineLayer : public ChartLayer {
    Q_DECLARE_TR_FUNCTIONS(TraceTimelineLayer)
public:
    // `traces` keeps the rank alive; `rank_index` indexes it. `cpu_rows_with_gpu`: also draw the CPU
    // operator rows when the rank has GPU activities (always drawn when it has none).
    TraceTimelineLayer(LoadedTraces traces, int rank_index, bool cpu_rows_with_gpu = false);

    void addTo(QCustomPlot *plot, const QPalette &palette, double pen_scale) const override;
    bool ranges(QCPRange &x, QCPRange &y) const override;
    QString toolTipAt(const QCustomPlot *plot, const QPointF &pixel, QString *key) const override;
    QString csv() const override;

    // Row labels, top to bottom (ChartData::y_categories).
    const QStringList &rowLabels() const { return row_labels_; }
    // The row of kernel `index` (of the rank's kernels).
    int rowOfKernel(std::size_t index) const { return kernel_rows_[index]; }
    // Kernels drawn (every GPU activity of the rank).
    std::size_t kernelCount() const { return kernel_rows_.size(); }
    // The kernel under `pixel`, -1 when none (tests and the tooltip).
    std::ptrdiff_t kernelAt(const QCustomPlot *plot, const QPointF &pixel) const;
    // The tooltip of kernel `index`.
    QString kernelToolTip(std::size_t index) const;
    // CPU operators drawn (depth 0 and 1 of every thread; none when the CPU rows are off).
    std::size_t cpuOpCount() const { return cpu_op_count_; }
    // The row of CPU operator `index` (of the rank's cpu_ops), -1 when it is not drawn.
    int rowOfCpuOp(std::size_t index) const { return index < cpu_op_rows_.size() ? cpu_op_rows_[index] : -1; }
    // The drawn CPU operator under `pixel`, -1 when none.
    std::ptrdiff_t cpuOpAt(const QCustomPlot *plot, const QPointF &pixel) const;

    // One bar of a plottable, in plot coordinates.
    struct Bar {
        double start_ms = 0;
        double end_ms = 0;
        int row = 0;
    };
    struct BarSet {
        std::vector<Bar> bars;      // by start
        double longest_ms = 0;      // for the visible-range search
        bool outlined = false;      // drawn one by one with an outline (the few ProfilerStep ranges)
    };

private:
    // The item (kernel or CPU operator) nearest `pixel` within a few pixels, on its row; -1 none.
    std::ptrdiff_t itemAt(const QCustomPlot *plot, const QPointF &pixel, int *row) const;
    const traces::TraceRank &rank() const { return (*traces_)[std::size_t(rank_index_)].rank; }

    LoadedTraces traces_;
    int rank_index_ = 0;
    QStringList row_labels_;
    std::vector<int> kernel_rows_;
    std::vector<int> cpu_op_rows_;  // per cpu_ops entry, -1 not drawn
    std::size_t cpu_op_count_ = 0;
    std::vector<bool> row_is_cpu_;  // rows of CPU operators (row_items_ index cpu_ops) vs GPU streams
    // Per class (allKernelClasses order), then the CPU annotation ranges of no class, then the
    // ProfilerStep ranges last.
    std::vector<std::shared_ptr<const BarSet>> sets_;
    // Per row: kernel (GPU rows) or CPU operator (CPU rows) indices by start, and the longest
    // duration there (for the hover search).
    std::vector<std::vector<std::size_t>> row_items_;
    std::vector<double> row_longest_ms_;
    int step_row_ = -1;
    double first_ms_ = 0;
    double last_ms_ = 0;
};

// The timeline chart of `traces`' rank `rank_index` (title, axes, rows, the layer);
// `cpu_rows_with_gpu` as TraceTimelineLayer's.
ChartData traceTimelineChart(const LoadedTraces &traces, int rank_index, bool cpu_rows_with_gpu = false);

}  // namespace lse::gui
