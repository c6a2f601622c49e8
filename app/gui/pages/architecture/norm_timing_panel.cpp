// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/architecture/norm_timing_panel.h"
#include "pages/table_fill_batch.h"

#include "charts/chart_view.h"
#include "pages/page_format.h"
#include "pages/table_key_columns.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QThread>
#include <QVBoxLayout>

#include <memory>

namespace lse::gui {

namespace {

QString kernelName(const NormKernelTiming &kernel)
{
    const QString norm = kernel.norm == NormType::LayerNorm ? QStringLiteral("LayerNorm") : QStringLiteral("RMSNorm");
    return kernel.backward ? NormTimingPanel::tr("%1 backward").arg(norm) : NormTimingPanel::tr("%1 forward").arg(norm);
}

}  // namespace

NormTimingPanel::NormTimingPanel(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    intro_ = new QLabel(this);
    intro_->setWordWrap(true);
    layout->addWidget(intro_);
    share_label_ = new QLabel(this);
    share_label_->setWordWrap(true);
    share_label_->setTextFormat(Qt::RichText);
    layout->addWidget(share_label_);
    auto *row = new QHBoxLayout;
    measure_button_ = new QPushButton(this);
    cancel_button_ = new QPushButton(this);
    cancel_button_->setEnabled(false);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setMaximumWidth(220);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    row->addWidget(measure_button_);
    row->addWidget(cancel_button_);
    row->addWidget(progress_);
    row->addWidget(status_, 1);
    layout->addLayout(row);
    table_ = new QTableWidget(this);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setMinimumHeight(150);
    setKeyColumns(table_, {0, 1, 2});  // kernel, median time, GB/s
    layout->addWidget(table_);
    chart_ = new ChartView(QStringLiteral("norm-timing"), this);
    chart_->setMinimumHeight(kChartMinimumHeight);
    layout->addWidget(chart_);
    connect(measure_button_, &QPushButton::clicked, this, &NormTimingPanel::measure);
    connect(cancel_button_, &QPushButton::clicked, this, &NormTimingPanel::cancel);
    retranslate();
}

NormTimingPanel::~NormTimingPanel() = default;  // measurement_ cancels and joins

void NormTimingPanel::setRequest(const NormTimingRequest &request)
{
    request_ = request;
    refresh();
}

void NormTimingPanel::measure()
{
    if (measurement_.isRunning())
        return;
    message_.clear();
    progress_->setRange(0, 4 * request_.repetitions);
    progress_->setValue(0);
    measure_button_->setEnabled(false);
    cancel_button_->setEnabled(true);
    status_->setText(tr("Timing LayerNorm and RMSNorm on this CPU…"));
    measurement_.start(
        this,
        [request = request_](const std::atomic<bool> &cancel, const BackgroundMeasurement::ProgressFn &progress) {
            return timeNorms(request, cancel, progress);
        },
        [this](int done, int total) {
            progress_->setRange(0, total);
            progress_->setValue(done);
        },
        [this](const Result<NormTiming> &timing) { finish(timing); });
}

void NormTimingPanel::cancel()
{
    measurement_.cancel();
}

void NormTimingPanel::finish(const Result<NormTiming> &timing)
{
    measure_button_->setEnabled(true);
    cancel_button_->setEnabled(false);
    bool cancelled = false;
    if (!timing) {
        message_ = format::fromStd(formatProblems(timing.problems())).trimmed();
    } else if (timing->cancelled) {
        cancelled = true;
        message_ = tr("Cancelled; the table keeps the last finished measurement.");
    } else {
        result_ = timing.value();
    }
    refresh();
    emit finished(cancelled);
}

void NormTimingPanel::retranslate()
{
    intro_->setText(tr("Measured on this CPU with the reference transformer's norm kernels (fp32, all threads): "
                       "median of the timed calls after one warm-up call, next to the FLOPs and bytes the operator "
                       "list declares for the same pass. Both norms move the same bytes at under one or two FLOPs "
                       "per byte, far left of any GPU's ridge point: there they run at memory bandwidth, and the "
                       "time goes to moving data. A CPU kernel that reads each row twice (LayerNorm's mean, then "
                       "its variance) can show more of a difference than the bytes alone."));
    measure_button_->setText(tr("Measure"));
    cancel_button_->setText(tr("Cancel"));
    refresh();
}

void NormTimingPanel::setShare(const std::optional<NormShare> &share)
{
    share_ = share;
    refresh();
}

void NormTimingPanel::refresh()
{
    share_label_->setVisible(share_.has_value());
    if (share_)
        share_label_->setText(
            tr("<b>Data movement:</b> in one layer of the scenario the norms are <b>%1</b> of the FLOPs but <b>%2</b> "
               "of the bytes moved and <b>%3</b> of the time at each operator's roofline bound on %4 (Ivanov et "
               "al. 2021, \"Data Movement Is All You Need\", Table 1: 0.17% of a BERT layer's FLOPs, 25% of its "
               "runtime).")
                .arg(format::percent(share_->flop_share, 3), format::percent(share_->byte_share, 1),
                     format::percent(share_->roofline_time_share, 1), format::fromStd(share_->accelerator)));
    QString size = tr("Input (N, D) = (%1, %2), fp32, %3 timed calls per kernel")
                       .arg(format::integer(request_.rows), format::integer(request_.width))
                       .arg(request_.repetitions);
    if (request_.capped)
        size += tr(" — N reduced from the scenario's micro-batch · sequence so that N·D ≤ %1 elements (16 MiB per "
                   "tensor, beyond the caches)")
                    .arg(format::integer(kMaxNormTimingElements));
    if (!isRunning())
        status_->setText(message_.isEmpty() ? size : message_ + QStringLiteral("\n") + size);

    const QStringList headers{tr("Kernel"), tr("Median (ms)"), tr("GB/s"), tr("GFLOP/s"), tr("FLOPs (op list)"),
                              tr("Bytes (op list)"), tr("FLOPs per byte")};
    table_->setColumnCount(int(headers.size()));
    table_->setHorizontalHeaderLabels(headers);
    const std::vector<NormKernelTiming> kernels = result_ ? result_->kernels : std::vector<NormKernelTiming>{};
    table_->setRowCount(int(kernels.size()));
    TableFillBatch batch(table_);
    for (int row = 0; row < int(kernels.size()); ++row) {
        const NormKernelTiming &k = kernels[std::size_t(row)];
        const QStringList cells{kernelName(k),
                                format::decimal(k.median_seconds * 1e3, 3),
                                format::decimal(k.bytesPerSecond() / 1e9, 1),
                                format::decimal(k.flopsPerSecond() / 1e9, 2),
                                format::si(k.flops, tr("FLOP")),
                                format::bytes(k.bytes),
                                format::decimal(k.bytes > 0 ? k.flops / k.bytes : 0, 2)};
        for (int column = 0; column < int(cells.size()); ++column)
            table_->setItem(row, column, new QTableWidgetItem(cells[column]));
    }
    batch.finish();
    chart_->setData(chartData());
}

// Before a measurement the chart shows what the operator list declares (bytes per pass); after
// it, the bandwidth those bytes imply at the measured median time.
ChartData NormTimingPanel::chartData() const
{
    ChartData chart;
    chart.categories = {tr("forward"), tr("backward")};
    chart.formula.inputs = tr("N = %1 rows, D = %2, fp32").arg(format::integer(request_.rows), format::integer(request_.width));
    chart.formula.source = tr("Kernels: core/reference/ops/norms.h; bytes: core/ops/operator_list.cpp (roofline "
                              "backward bytes); Zhang & Sennrich 2019");
    if (result_) {
        chart.title = tr("LayerNorm vs RMSNorm on this CPU: achieved bandwidth");
        chart.y_label = tr("Achieved bandwidth (GB/s)");
        chart.y_unit = QStringLiteral("GB/s");
        chart.formula.formula = tr("GB/s = (bytes read + written of the pass, operator list) / median time");
    } else {
        chart.title = tr("LayerNorm vs RMSNorm: bytes per pass (operator list); press Measure for the times");
        chart.y_label = tr("Bytes read + written per pass (MB)");
        chart.y_unit = QStringLiteral("MB");
        chart.formula.formula = tr("forward: read x and the parameters, write y; backward: read y, dy and x, write dx "
                                   "(LayerNorm 7, RMSNorm 4 FLOPs per element forward)");
    }
    for (NormType norm : {NormType::LayerNorm, NormType::RMSNorm}) {
        ChartSeries series;
        series.kind = ChartSeries::Kind::Bar;
        series.name = norm == NormType::LayerNorm ? QStringLiteral("LayerNorm") : QStringLiteral("RMSNorm");
        for (bool backward : {false, true}) {
            NormKernelTiming k = normCost(norm, backward, request_.rows, request_.width);
            if (result_) {
                for (const NormKernelTiming &measured : result_->kernels)
                    if (measured.norm == norm && measured.backward == backward)
                        k = measured;
            }
            series.x << (backward ? 1 : 0);
            series.y << (result_ ? k.bytesPerSecond() / 1e9 : k.bytes / 1e6);
            series.point_tooltips << (result_ ? tr("%1: %2 ms, %3 GB/s, %4, %5")
                                                    .arg(kernelName(k), format::decimal(k.median_seconds * 1e3, 3),
                                                         format::decimal(k.bytesPerSecond() / 1e9, 1),
                                                         format::si(k.flops, tr("FLOP")), format::bytes(k.bytes))
                                              : tr("%1: %2, %3").arg(kernelName(k), format::bytes(k.bytes),
                                                                      format::si(k.flops, tr("FLOP"))));
        }
        chart.series << series;
    }
    return chart;
}

}  // namespace lse::gui
