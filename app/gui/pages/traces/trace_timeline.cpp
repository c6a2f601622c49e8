// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/traces/trace_timeline.h"

#include "pages/page_format.h"
#include "traces/kernel_classifier.h"

#include <qcustomplot.h>

#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace lse::gui {

using traces::KernelClass;

QColor kernelClassColor(KernelClass cls)
{
    switch (cls) {
    case KernelClass::Gemm: return QColor(0xD5, 0x5E, 0x00);           // vermillion
    case KernelClass::Attention: return QColor(0xCC, 0x79, 0xA7);      // reddish purple
    case KernelClass::Convolution: return QColor(0xE6, 0x9F, 0x00);    // orange
    case KernelClass::Communication: return QColor(0x00, 0x72, 0xB2);  // blue
    case KernelClass::Norm: return QColor(0x00, 0x9E, 0x73);           // bluish green
    case KernelClass::Reduction: return QColor(0x56, 0xB4, 0xE9);      // sky blue
    case KernelClass::Elementwise: return QColor(0x7F, 0xB8, 0x6B);    // light green
    case KernelClass::Memcpy: return QColor(0xF0, 0xE4, 0x42);         // yellow
    case KernelClass::Memset: return QColor(0xB8, 0xA9, 0x2E);         // dark yellow
    case KernelClass::Unknown: return QColor(0x99, 0x99, 0x99);        // grey
    }
    return QColor(0x99, 0x99, 0x99);
}

QString kernelClassLabel(KernelClass cls)
{
    switch (cls) {
    case KernelClass::Gemm: return TraceTimelineLayer::tr("GEMM");
    case KernelClass::Attention: return TraceTimelineLayer::tr("attention");
    case KernelClass::Convolution: return TraceTimelineLayer::tr("convolution");
    case KernelClass::Communication: return TraceTimelineLayer::tr("communication (NCCL)");
    case KernelClass::Norm: return TraceTimelineLayer::tr("normalisation");
    case KernelClass::Reduction: return TraceTimelineLayer::tr("reduction");
    case KernelClass::Elementwise: return TraceTimelineLayer::tr("element-wise");
    case KernelClass::Memcpy: return TraceTimelineLayer::tr("memory copy");
    case KernelClass::Memset: return TraceTimelineLayer::tr("memset");
    case KernelClass::Unknown: return TraceTimelineLayer::tr("unknown");
    }
    return TraceTimelineLayer::tr("unknown");
}

namespace {

constexpr double kBarHalfHeight = 0.38;  // of a row
constexpr double kHoverPixels = 3;

// Bars of one colour: paints those in the visible x range, merging a bar into the previous one of
// its row when it starts within half a pixel of that one's end (at a zoomed-out view thousands of
// kernels fall on one pixel, and one rectangle draws them all).
class TimelineBars : public QCPAbstractPlottable {
public:
    TimelineBars(QCPAxis *key_axis, QCPAxis *value_axis, std::shared_ptr<const TraceTimelineLayer::BarSet> set,
                 int rows)
        : QCPAbstractPlottable(key_axis, value_axis), set_(std::move(set)), rows_(rows)
    {
        setSelectable(QCP::stNone);
    }

    double selectTest(const QPointF &, bool, QVariant *) const override { return -1; }

    QCPRange getKeyRange(bool &found, QCP::SignDomain) const override
    {
        found = !set_->bars.empty();
        if (!found)
            return {};
        double last = 0;
        for (const TraceTimelineLayer::Bar &bar : set_->bars)
            last = std::max(last, bar.end_ms);
        return QCPRange(set_->bars.front().start_ms, last);
    }
    QCPRange getValueRange(bool &found, QCP::SignDomain, const QCPRange &) const override
    {
        found = rows_ > 0;
        return QCPRange(-0.5, rows_ - 0.5);
    }

protected:
    void draw(QCPPainter *painter) override
    {
        QCPAxis *x_axis = keyAxis();
        QCPAxis *y_axis = valueAxis();
        if (!x_axis || !y_axis || set_->bars.empty())
            return;
        const QCPRange visible = x_axis->range();
        const auto &bars = set_->bars;
        auto it = std::lower_bound(bars.begin(), bars.end(), visible.lower - set_->longest_ms,
                                   [](const TraceTimelineLayer::Bar &bar, double t) { return bar.start_ms < t; });
        std::vector<QRectF> pending(std::size_t(std::max(rows_, 1)));
        std::vector<QRectF> rects;
        rects.reserve(4096);
        const auto flush = [&](QRectF &rect) {
            if (rect.isValid())
                rects.push_back(rect);
            rect = QRectF();
        };
        for (; it != bars.end() && it->start_ms <= visible.upper; ++it) {
            if (it->end_ms < visible.lower || it->row < 0 || it->row >= rows_)
                continue;
            double x0 = x_axis->coordToPixel(it->start_ms);
            double x1 = x_axis->coordToPixel(it->end_ms);
            if (x1 < x0)
                std::swap(x0, x1);
            x1 = std::max(x1, x0 + 1.0);  // a 2 µs kernel stays visible at any zoom
            const double ya = y_axis->coordToPixel(it->row - kBarHalfHeight);
            const double yb = y_axis->coordToPixel(it->row + kBarHalfHeight);
            QRectF &row = pending[std::size_t(it->row)];
            if (row.isValid() && x0 <= row.right() + 0.5 && !set_->outlined) {
                row.setRight(std::max(row.right(), x1));
                continue;
            }
            flush(row);
            row = QRectF(QPointF(x0, std::min(ya, yb)), QPointF(x1, std::max(ya, yb)));
        }
        for (QRectF &row : pending)
            flush(row);
        applyDefaultAntialiasingHint(painter);
        painter->setAntialiasing(false);
        painter->setPen(set_->outlined ? pen() : QPen(Qt::NoPen));
        painter->setBrush(brush());
        painter->drawRects(rects.data(), int(rects.size()));
    }
    void drawLegendIcon(QCPPainter *painter, const QRectF &rect) const override
    {
        painter->setPen(Qt::NoPen);
        painter->setBrush(brush());
        painter->drawRect(rect.adjusted(0, rect.height() * 0.2, 0, -rect.height() * 0.2));
    }

private:
    std::shared_ptr<const TraceTimelineLayer::BarSet> set_;
    int rows_ = 0;
};

QString elided(const std::string &text, int limit = 160)
{
    QString value = QString::fromStdString(text);
    if (value.size() > limit)
        value = value.left(limit - 1) + QChar(0x2026);
    return value;
}

}  // namespace

namespace {

// Kinds of bar set after the kernel classes.
constexpr std::size_t kAnnotationSet = std::size_t(traces::kKernelClassCount);
constexpr std::size_t kStepSet = kAnnotationSet + 1;

// The class a CPU operator is drawn in: its recorded class or its name's (core's rule).
KernelClass cpuOpClass(const traces::TraceRank &r, const traces::TraceCpuOp &op)
{
    return traces::classOfOperatorCall(r.text(op.name), op.recorded_class);
}

}  // namespace

TraceTimelineLayer::TraceTimelineLayer(LoadedTraces traces, int rank_index, bool cpu_rows_with_gpu)
    : traces_(std::move(traces)), rank_index_(rank_index)
{
    const traces::TraceRank &r = rank();
    // Rows: the ProfilerStep ranges (when any), the CPU threads' operators (CPU-only traces, or when
    // asked), then each (device, stream) in order.
    if (!r.steps.empty()) {
        step_row_ = 0;
        row_labels_ << tr("CPU: ProfilerStep");
        row_is_cpu_.push_back(false);
    }

    // CPU operators at depth 0 (parent -1) and 1: cpu_ops lists parents before their children, so
    // one pass gives every depth.
    const bool cpu_rows = !r.hasGpu() || cpu_rows_with_gpu;
    cpu_op_rows_.assign(cpu_rows ? r.cpu_ops.size() : 0, -1);
    if (cpu_rows) {
        std::vector<int> depth(r.cpu_ops.size(), 0);
        // Per thread: whether it has depth-1 operators, and whether every top-level operator is
        // communication (our distributed export's communication thread).
        struct ThreadRows {
            bool nested = false;
            bool communication = true;
            int top = -1;
            int inner = -1;
        };
        std::map<std::int64_t, ThreadRows> threads;
        for (std::size_t i = 0; i < r.cpu_ops.size(); ++i) {
            const traces::TraceCpuOp &op = r.cpu_ops[i];
            const bool has_parent = op.parent >= 0 && std::size_t(op.parent) < i;
            depth[i] = has_parent ? depth[std::size_t(op.parent)] + 1 : 0;
            ThreadRows &t = threads[op.thread];
            if (depth[i] == 1)
                t.nested = true;
            if (depth[i] == 0 && cpuOpClass(r, op) != KernelClass::Communication)
                t.communication = false;
        }
        for (auto &[thread, t] : threads) {
            t.top = int(row_labels_.size());
            row_labels_ << (t.communication ? tr("CPU thread %1 · communication").arg(thread)
                                            : tr("CPU thread %1 · top level").arg(thread));
            row_is_cpu_.push_back(true);
            if (t.nested) {
                t.inner = int(row_labels_.size());
                row_labels_ << tr("CPU thread %1 · one level in").arg(thread);
                row_is_cpu_.push_back(true);
            }
        }
        for (std::size_t i = 0; i < r.cpu_ops.size(); ++i) {
            if (depth[i] > 1)
                continue;
            const ThreadRows &t = threads[r.cpu_ops[i].thread];
            cpu_op_rows_[i] = depth[i] == 0 ? t.top : t.inner;
            ++cpu_op_count_;
        }
    }

    std::map<std::pair<int, int>, int> stream_rows;
    for (const traces::TraceKernel &kernel : r.kernels)
        stream_rows.emplace(std::make_pair(kernel.device, kernel.stream), 0);
    for (auto &[key, row] : stream_rows) {
        row = int(row_labels_.size());
        row_labels_ << tr("GPU %1 · stream %2").arg(key.first).arg(key.second);
        row_is_cpu_.push_back(false);
    }
    const int rows = int(row_labels_.size());
    row_items_.resize(std::size_t(rows));
    row_longest_ms_.assign(std::size_t(rows), 0.0);

    std::vector<std::shared_ptr<BarSet>> sets;
    for (std::size_t i = 0; i <= kStepSet; ++i)
        sets.push_back(std::make_shared<BarSet>());
    bool any = false;
    const auto add = [&](BarSet &set, std::size_t item, const Bar &bar) {
        set.bars.push_back(bar);
        set.longest_ms = std::max(set.longest_ms, bar.end_ms - bar.start_ms);
        if (item != std::size_t(-1)) {
            row_items_[std::size_t(bar.row)].push_back(item);
            row_longest_ms_[std::size_t(bar.row)] =
                std::max(row_longest_ms_[std::size_t(bar.row)], bar.end_ms - bar.start_ms);
        }
        first_ms_ = any ? std::min(first_ms_, bar.start_ms) : bar.start_ms;
        last_ms_ = any ? std::max(last_ms_, bar.end_ms) : bar.end_ms;
        any = true;
    };
    kernel_rows_.reserve(r.kernels.size());
    for (std::size_t i = 0; i < r.kernels.size(); ++i) {
        const traces::TraceKernel &kernel = r.kernels[i];
        const int row = stream_rows[{kernel.device, kernel.stream}];
        kernel_rows_.push_back(row);
        add(*sets[std::size_t(kernel.kernel_class)], i, {kernel.start_us / 1000.0, kernel.endUs() / 1000.0, row});
    }
    for (std::size_t i = 0; i < cpu_op_rows_.size(); ++i) {
        if (cpu_op_rows_[i] < 0)
            continue;
        const traces::TraceCpuOp &op = r.cpu_ops[i];
        const KernelClass cls = cpuOpClass(r, op);
        // A user annotation of no class (a phase: forward, backward, optimizer) is a range that
        // encloses operators of every class: drawn as the ProfilerStep ranges are, not as unknown.
        const std::size_t set = op.annotation && cls == KernelClass::Unknown ? kAnnotationSet : std::size_t(cls);
        add(*sets[set], i, {op.start_us / 1000.0, op.endUs() / 1000.0, cpu_op_rows_[i]});
    }
    sets[kAnnotationSet]->outlined = true;
    sets[kStepSet]->outlined = true;
    for (const traces::TraceStep &step : r.steps)
        add(*sets[kStepSet], std::size_t(-1), {step.start_us / 1000.0, step.endUs() / 1000.0, step_row_});
    // The draw and hover searches need every list by start; cpu_ops are by thread, then start.
    for (const auto &set : sets)
        std::stable_sort(set->bars.begin(), set->bars.end(),
                         [](const Bar &a, const Bar &b) { return a.start_ms < b.start_ms; });
    for (std::size_t row = 0; row < row_items_.size(); ++row) {
        if (!row_is_cpu_[row])
            continue;
        std::stable_sort(row_items_[row].begin(), row_items_[row].end(), [&](std::size_t a, std::size_t b) {
            return r.cpu_ops[a].start_us < r.cpu_ops[b].start_us;
        });
    }
    for (const auto &set : sets)
        sets_.push_back(set);
}

void TraceTimelineLayer::addTo(QCustomPlot *plot, const QPalette &palette, double /*pen_scale*/) const
{
    const int rows = int(row_labels_.size());
    const auto classes = traces::allKernelClasses();
    const bool cpu_only = !rank().hasGpu();
    // Drawn from the last set to the first, so the ProfilerStep ranges lie under everything and the
    // many short element-wise kernels under the GEMMs, attention and NCCL kernels they surround;
    // the legend then lists the classes in their usual order.
    std::vector<TimelineBars *> drawn(sets_.size(), nullptr);
    for (std::size_t j = sets_.size(); j-- > 0;) {
        if (sets_[j]->bars.empty())
            continue;
        auto *bars = new TimelineBars(plot->xAxis, plot->yAxis, sets_[j], rows);
        drawn[j] = bars;
        if (j < classes.size()) {
            // A CPU-only trace's communication is whatever its program called (MPI, gloo), not NCCL.
            bars->setName(cpu_only && classes[j] == KernelClass::Communication ? tr("communication")
                                                                                : kernelClassLabel(classes[j]));
            bars->setBrush(kernelClassColor(classes[j]));
        } else {
            bars->setName(j == kStepSet ? tr("ProfilerStep (CPU)") : tr("CPU ranges (annotations)"));
            QColor step = palette.color(QPalette::WindowText);
            step.setAlpha(j == kStepSet ? 70 : 40);
            bars->setBrush(step);
            bars->setPen(QPen(palette.color(QPalette::Base), 2));
        }
    }
    for (TimelineBars *bars : drawn)
        if (bars) {
            bars->removeFromLegend();
            bars->addToLegend();
        }
    // Time is the only axis worth zooming: the rows are categories.
    plot->axisRect()->setRangeZoom(Qt::Horizontal);
    plot->axisRect()->setRangeDrag(Qt::Horizontal);
}

bool TraceTimelineLayer::ranges(QCPRange &x, QCPRange &y) const
{
    if (row_labels_.isEmpty())
        return false;
    x = QCPRange(first_ms_, std::max(last_ms_, first_ms_ + 1e-3));
    y = QCPRange(-0.5, double(row_labels_.size()) - 0.5);
    return true;
}

std::ptrdiff_t TraceTimelineLayer::itemAt(const QCustomPlot *plot, const QPointF &pixel, int *row_out) const
{
    if (!plot->axisRect()->rect().contains(pixel.toPoint()))
        return -1;
    const double row_coord = plot->yAxis->pixelToCoord(pixel.y());
    const int row = int(std::lround(row_coord));
    if (row < 0 || row >= int(row_items_.size()) || std::abs(row_coord - row) > kBarHalfHeight)
        return -1;
    *row_out = row;
    const double t = plot->xAxis->pixelToCoord(pixel.x());
    const double tolerance = std::abs(plot->xAxis->pixelToCoord(pixel.x() + kHoverPixels) - t);
    const traces::TraceRank &r = rank();
    const bool cpu = row_is_cpu_[std::size_t(row)];
    const auto start_ms = [&](std::size_t i) {
        return (cpu ? r.cpu_ops[i].start_us : r.kernels[i].start_us) / 1000.0;
    };
    const auto end_ms = [&](std::size_t i) { return (cpu ? r.cpu_ops[i].endUs() : r.kernels[i].endUs()) / 1000.0; };
    const std::vector<std::size_t> &list = row_items_[std::size_t(row)];
    auto it = std::lower_bound(list.begin(), list.end(), t - tolerance - row_longest_ms_[std::size_t(row)],
                               [&](std::size_t k, double v) { return start_ms(k) < v; });
    std::ptrdiff_t best = -1;
    double best_distance = tolerance;
    for (; it != list.end() && start_ms(*it) <= t + tolerance; ++it) {
        const double start = start_ms(*it);
        const double end = end_ms(*it);
        const double distance = t < start ? start - t : (t > end ? t - end : 0.0);
        if (distance <= best_distance) {
            best_distance = distance;
            best = std::ptrdiff_t(*it);
        }
    }
    return best;
}

std::ptrdiff_t TraceTimelineLayer::kernelAt(const QCustomPlot *plot, const QPointF &pixel) const
{
    int row = -1;
    const std::ptrdiff_t index = itemAt(plot, pixel, &row);
    return index >= 0 && !row_is_cpu_[std::size_t(row)] ? index : -1;
}

std::ptrdiff_t TraceTimelineLayer::cpuOpAt(const QCustomPlot *plot, const QPointF &pixel) const
{
    int row = -1;
    const std::ptrdiff_t index = itemAt(plot, pixel, &row);
    return index >= 0 && row_is_cpu_[std::size_t(row)] ? index : -1;
}

QString TraceTimelineLayer::kernelToolTip(std::size_t index) const { return traceKernelToolTip(rank(), index); }

QString traceKernelToolTip(const traces::TraceRank &r, std::size_t index)
{
    const traces::TraceKernel &kernel = r.kernels[index];
    QStringList lines;
    lines << QStringLiteral("<b>%1</b>").arg(elided(r.text(kernel.name)).toHtmlEscaped());
    lines << TraceTimelineLayer::tr("class: %1").arg(kernelClassLabel(kernel.kernel_class));
    lines << TraceTimelineLayer::tr("start %1 ms, duration %2 µs, GPU %3 stream %4")
                 .arg(format::decimal(kernel.start_us / 1000.0, 3), format::decimal(kernel.duration_us, 1))
                 .arg(kernel.device)
                 .arg(kernel.stream);
    if (kernel.op_index >= 0 && std::size_t(kernel.op_index) < r.cpu_ops.size()) {
        const traces::TraceCpuOp &op = r.cpu_ops[std::size_t(kernel.op_index)];
        lines << TraceTimelineLayer::tr("operator: %1").arg(elided(r.text(op.name), 80).toHtmlEscaped());
        if (op.shape != traces::kNoText)
            lines << TraceTimelineLayer::tr("shape: %1 %2").arg(elided(r.text(op.shape), 120).toHtmlEscaped(),
                                             QString::fromStdString(r.text(op.dtype)).toHtmlEscaped());
    }
    if (kernel.flops > 0) {
        lines << TraceTimelineLayer::tr("FLOPs %1, bytes %2").arg(format::si(kernel.flops, TraceTimelineLayer::tr("FLOP")), format::bytes(kernel.bytes));
        lines << TraceTimelineLayer::tr("achieved %1 = FLOPs / duration; intensity %2 FLOP/B")
                     .arg(format::si(kernel.achievedFlopsPerSecond(), TraceTimelineLayer::tr("FLOP/s")),
                          format::decimal(kernel.arithmeticIntensity(), 1));
    } else if (kernel.bytes > 0) {
        lines << TraceTimelineLayer::tr("bytes %1, %2").arg(format::bytes(kernel.bytes),
                                        format::si(kernel.duration_us > 0 ? kernel.bytes / (kernel.duration_us * 1e-6) : 0,
                                                   QStringLiteral("B/s")));
    } else {
        lines << TraceTimelineLayer::tr("FLOPs unknown (no linked operator with recorded shapes)");
    }
    return lines.join(QStringLiteral("<br>"));
}

QString traceCpuOpToolTip(const traces::TraceRank &r, std::size_t index)
{
    const traces::TraceCpuOp &op = r.cpu_ops[index];
    const KernelClass cls = traces::classOfOperatorCall(r.text(op.name), op.recorded_class);
    QStringList lines;
    lines << QStringLiteral("<b>%1</b>").arg(elided(r.text(op.name)).toHtmlEscaped());
    if (op.annotation && cls == KernelClass::Unknown)
        lines << TraceTimelineLayer::tr("a range the program annotated (user_annotation)");
    else
        lines << TraceTimelineLayer::tr("class: %1").arg(cls == KernelClass::Communication && !r.hasGpu()
                                                             ? TraceTimelineLayer::tr("communication")
                                                             : kernelClassLabel(cls));
    lines << TraceTimelineLayer::tr("start %1 ms, duration %2 µs, CPU thread %3")
                 .arg(format::decimal(op.start_us / 1000.0, 3), format::decimal(op.duration_us, 1))
                 .arg(op.thread);
    if (op.shape != traces::kNoText)
        lines << TraceTimelineLayer::tr("shape: %1 %2").arg(elided(r.text(op.shape), 120).toHtmlEscaped(),
                                                             QString::fromStdString(r.text(op.dtype)).toHtmlEscaped());
    if (op.flops > 0) {
        lines << TraceTimelineLayer::tr("FLOPs %1, bytes %2")
                     .arg(format::si(op.flops, TraceTimelineLayer::tr("FLOP")), format::bytes(op.bytes));
        lines << TraceTimelineLayer::tr("achieved %1 = FLOPs / duration")
                     .arg(format::si(op.achievedFlopsPerSecond(), TraceTimelineLayer::tr("FLOP/s")));
    } else if (op.bytes > 0) {
        lines << TraceTimelineLayer::tr("bytes %1").arg(format::bytes(op.bytes));
    } else {
        lines << TraceTimelineLayer::tr("FLOPs not counted (no recorded count, or no rule for this operator's shapes)");
    }
    return lines.join(QStringLiteral("<br>"));
}

QString TraceTimelineLayer::toolTipAt(const QCustomPlot *plot, const QPointF &pixel, QString *key) const
{
    int row = -1;
    const std::ptrdiff_t index = itemAt(plot, pixel, &row);
    if (index >= 0) {
        const bool cpu = row_is_cpu_[std::size_t(row)];
        if (key)
            *key = (cpu ? QStringLiteral("op-%1") : QStringLiteral("kernel-%1")).arg(index);
        return cpu ? traceCpuOpToolTip(rank(), std::size_t(index)) : kernelToolTip(std::size_t(index));
    }
    // The ProfilerStep row.
    if (step_row_ < 0)
        return {};
    const double row_coord = plot->yAxis->pixelToCoord(pixel.y());
    if (std::abs(row_coord - step_row_) > kBarHalfHeight)
        return {};
    const double t_us = plot->xAxis->pixelToCoord(pixel.x()) * 1000.0;
    for (const traces::TraceStep &step : rank().steps)
        if (t_us >= step.start_us && t_us <= step.endUs()) {
            if (key)
                *key = QStringLiteral("step-%1").arg(step.number);
            return tr("<b>ProfilerStep#%1</b> on the CPU<br>%2 ms to %3 ms (%4 ms)")
                .arg(step.number)
                .arg(format::decimal(step.start_us / 1000.0, 3), format::decimal(step.endUs() / 1000.0, 3),
                     format::decimal(step.duration_us / 1000.0, 3));
        }
    return {};
}

QString TraceTimelineLayer::csv() const
{
    // What is drawn, top row first: the CPU operators (device and stream empty), then the GPU
    // activities (thread empty).
    const traces::TraceRank &r = rank();
    QString out = QStringLiteral("row,name,class,start_us,duration_us,device,stream,thread,flops,bytes\n");
    out.reserve(qsizetype(r.kernels.size() + cpu_op_count_) * 120);
    const auto field = [](const QString &text) {
        QString quoted = text;
        quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
        return QLatin1Char('"') + quoted + QLatin1Char('"');
    };
    const auto number = [](double value) { return QString::number(value, 'g', 15); };
    for (std::size_t row = 0; row < row_items_.size(); ++row) {
        if (!row_is_cpu_[row])
            continue;
        for (std::size_t i : row_items_[row]) {
            const traces::TraceCpuOp &op = r.cpu_ops[i];
            out += field(row_labels_.at(int(row))) + QLatin1Char(',') + field(QString::fromStdString(r.text(op.name))) +
                   QLatin1Char(',') +
                   QString::fromUtf8(traces::kernelClassName(traces::classOfOperatorCall(r.text(op.name), op.recorded_class))) +
                   QLatin1Char(',') + number(op.start_us) + QLatin1Char(',') + number(op.duration_us) +
                   QStringLiteral(",,,") + QString::number(op.thread) + QLatin1Char(',') + number(op.flops) +
                   QLatin1Char(',') + number(op.bytes) + QLatin1Char('\n');
        }
    }
    for (std::size_t i = 0; i < r.kernels.size(); ++i) {
        const traces::TraceKernel &k = r.kernels[i];
        out += field(row_labels_.at(kernel_rows_[i])) + QLatin1Char(',') + field(QString::fromStdString(r.text(k.name))) +
               QLatin1Char(',') + QString::fromUtf8(traces::kernelClassName(k.kernel_class)) + QLatin1Char(',') +
               number(k.start_us) + QLatin1Char(',') + number(k.duration_us) + QLatin1Char(',') +
               QString::number(k.device) + QLatin1Char(',') + QString::number(k.stream) + QStringLiteral(",,") +
               number(k.flops) + QLatin1Char(',') + number(k.bytes) + QLatin1Char('\n');
    }
    return out;
}

ChartData traceTimelineChart(const LoadedTraces &traces, int rank_index, bool cpu_rows_with_gpu)
{
    ChartData chart;
    chart.x_label = TraceTimelineLayer::tr("Time since the trace's first event (ms; scroll to zoom, drag to pan, "
                                           "double-click to reset)");
    chart.x_unit = QStringLiteral("ms");
    if (!traces || rank_index < 0 || rank_index >= int(traces->size())) {
        chart.title = TraceTimelineLayer::tr("Timeline: no trace loaded");
        return chart;
    }
    auto layer = std::make_shared<TraceTimelineLayer>(traces, rank_index, cpu_rows_with_gpu);
    const traces::TraceRank &rank = (*traces)[std::size_t(rank_index)].rank;
    const QString file = QFileInfo(QString::fromStdString(rank.source)).fileName();
    chart.title = rank.hasGpu()
                      ? TraceTimelineLayer::tr("Timeline of %1: %Ln GPU activities", nullptr, int(rank.kernels.size())).arg(file)
                      : TraceTimelineLayer::tr("Timeline of %1 (CPU only): %Ln operators", nullptr, int(layer->cpuOpCount()))
                            .arg(file);
    chart.y_categories = layer->rowLabels();
    chart.y_reversed = true;
    chart.layer = layer;
    chart.formula.formula = rank.hasGpu()
        ? TraceTimelineLayer::tr(
              "One bar per GPU activity (kernel, memory copy, memset) from its ts to ts + dur, on its stream's row; "
              "class from the kernel name and the CPU operator that launched it; achieved FLOP/s = FLOPs of the "
              "linked operator's shapes / duration")
        : TraceTimelineLayer::tr(
              "No GPU activity: one bar per CPU operator from its ts to ts + dur, on its thread's rows (the top-level "
              "operators, and those one level inside them); class as the producer recorded it, else from the "
              "operator's name; achieved FLOP/s = FLOPs (recorded, or from the shapes) / duration");
    chart.formula.source = TraceTimelineLayer::tr("PyTorch profiler (Kineto) Chrome-trace events; classes as in "
                                                  "docs/user-guide/traces.md");
    return chart;
}

}  // namespace lse::gui
