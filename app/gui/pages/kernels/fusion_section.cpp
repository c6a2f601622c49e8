// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/kernels/fusion_section.h"

#include "charts/chart_palette.h"
#include "charts/chart_view.h"
#include "enum_labels.h"
#include "hardware/hardware_catalog.h"
#include "kernels/kernel_roofline.h"
#include "pages/page_format.h"
#include "pages/side_by_side_layout.h"
#include "pages/table_fill_batch.h"
#include "pages/table_key_columns.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace lse::gui {

namespace {

constexpr DType kDTypes[] = {DType::FP32, DType::BF16, DType::FP16, DType::FP8};
const QStringList kDTypeKeys{QStringLiteral("fp32"), QStringLiteral("bf16"), QStringLiteral("fp16"), QStringLiteral("fp8")};

QString opName(kernels::ElementwiseOp op)
{
    switch (op) {
    case kernels::ElementwiseOp::Bias: return FusionSection::tr("bias");
    case kernels::ElementwiseOp::GeLU: return FusionSection::tr("GeLU");
    case kernels::ElementwiseOp::Dropout: return FusionSection::tr("dropout");
    case kernels::ElementwiseOp::Residual: return FusionSection::tr("residual");
    }
    return {};
}

QString modelSource()
{
    return FusionSection::tr("core/kernels/fusion_chain (bytes: ops/byte_rules elementwiseForward; FLOPs: ops/flop_rules; "
                             "time: performance/kernel_time streamingTime); fused accounting as roofline/fusion.cpp");
}

QString micro(double seconds) { return format::decimal(seconds * 1e6, 1) + QStringLiteral(" µs"); }
QString milli(double seconds) { return format::decimal(seconds * 1e3, 2) + QStringLiteral(" ms"); }

Accelerator defaultAccelerator()
{
    const Accelerator *h100 = builtinHardwareCatalog().find("h100-sxm");
    return h100 ? *h100 : Accelerator{};
}

}  // namespace

FusionSection::FusionSection(QWidget *parent) : PageSection(parent), accelerator_(defaultAccelerator())
{
    QWidget *content = addScrollingContent(this);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(8);
    intro_ = new QLabel(content);
    intro_->setWordWrap(true);
    intro_->setObjectName(QStringLiteral("fusion-intro"));
    layout->addWidget(intro_);

    auto *inputs = new QHBoxLayout;
    const auto spin = [&](QLabel *&label, QSpinBox *&box, int low, int high, int value) {
        label = new QLabel(content);
        box = new QSpinBox(content);
        box->setRange(low, high);
        box->setValue(value);
        box->setGroupSeparatorShown(true);
        inputs->addWidget(label);
        inputs->addWidget(box);
    };
    // The default is the CLI's: 8192 tokens (a micro-batch of 4 × 2048) × d_model 4096.
    spin(tokens_label_, tokens_spin_, 1, 1 << 24, 8192);
    spin(width_label_, width_spin_, 1, 1 << 20, 4096);
    dtype_label_ = new QLabel(content);
    dtype_box_ = new QComboBox(content);
    for (DType dtype : kDTypes)
        dtype_box_->addItem(displayName(dtype));
    dtype_box_->setCurrentIndex(1);  // bf16
    inputs->addWidget(dtype_label_);
    inputs->addWidget(dtype_box_);
    training_box_ = new QCheckBox(content);
    inputs->addWidget(training_box_);
    inputs->addStretch(1);
    layout->addLayout(inputs);
    for (QSpinBox *box : {tokens_spin_, width_spin_})
        connect(box, &QSpinBox::valueChanged, this, [this] { recompute(); });
    connect(dtype_box_, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
    connect(training_box_, &QCheckBox::toggled, this, [this] { recompute(); });

    accelerator_label_ = new QLabel(content);
    accelerator_label_->setWordWrap(true);
    layout->addWidget(accelerator_label_);
    message_label_ = new QLabel(content);
    message_label_->setWordWrap(true);
    message_label_->setObjectName(QStringLiteral("fusion-message"));
    layout->addWidget(message_label_);
    summary_ = new QLabel(content);
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText);
    summary_->setObjectName(QStringLiteral("fusion-summary"));
    layout->addWidget(summary_);

    auto *bars = new SideBySideLayout;
    bytes_chart_ = new ChartView(QStringLiteral("fusion-bytes"), content);
    bytes_chart_->setObjectName(QStringLiteral("fusion-bytes"));
    time_chart_ = new ChartView(QStringLiteral("fusion-time"), content);
    time_chart_->setObjectName(QStringLiteral("fusion-time"));
    bars->addWidget(bytes_chart_);
    bars->addWidget(time_chart_);
    layout->addLayout(bars);
    roofline_chart_ = new ChartView(QStringLiteral("fusion-roofline"), content);
    roofline_chart_->setObjectName(QStringLiteral("fusion-roofline"));
    layout->addWidget(roofline_chart_);

    measure_intro_ = new QLabel(content);
    measure_intro_->setWordWrap(true);
    layout->addWidget(measure_intro_);
    auto *row = new QHBoxLayout;
    repeats_label_ = new QLabel(content);
    repeats_spin_ = new QSpinBox(content);
    repeats_spin_->setRange(1, reference::kMaxFusionMeasureRepeats);
    repeats_spin_->setValue(5);
    measure_button_ = new QPushButton(content);
    measure_button_->setObjectName(QStringLiteral("fusion-measure"));
    cancel_button_ = new QPushButton(content);
    cancel_button_->setEnabled(false);
    progress_ = new QProgressBar(content);
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setMaximumWidth(200);
    row->addWidget(repeats_label_);
    row->addWidget(repeats_spin_);
    row->addWidget(measure_button_);
    row->addWidget(cancel_button_);
    row->addWidget(progress_);
    row->addStretch(1);
    layout->addLayout(row);
    measure_status_ = new QLabel(content);
    measure_status_->setWordWrap(true);
    measure_status_->setObjectName(QStringLiteral("fusion-measure-status"));
    layout->addWidget(measure_status_);
    measured_table_ = new QTableWidget(content);
    measured_table_->setObjectName(QStringLiteral("fusion-measured-table"));
    measured_table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    measured_table_->verticalHeader()->hide();
    measured_table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    measured_table_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    setKeyColumns(measured_table_, {0, 2});  // variant, measured time
    layout->addWidget(measured_table_);
    measured_summary_ = new QLabel(content);
    measured_summary_->setWordWrap(true);
    measured_summary_->setTextFormat(Qt::RichText);
    measured_summary_->setObjectName(QStringLiteral("fusion-measured-summary"));
    layout->addWidget(measured_summary_);
    sources_ = new QLabel(content);
    sources_->setWordWrap(true);
    sources_->setTextFormat(Qt::RichText);
    sources_->setObjectName(QStringLiteral("fusion-sources"));
    layout->addWidget(sources_);
    layout->addStretch(1);

    connect(measure_button_, &QPushButton::clicked, this, &FusionSection::measure);
    connect(cancel_button_, &QPushButton::clicked, this, &FusionSection::cancel);

    lesson_controls_.addInt(QStringLiteral("tokens"), tokens_spin_);
    lesson_controls_.addInt(QStringLiteral("width"), width_spin_);
    lesson_controls_.addChoice(QStringLiteral("dtype"), dtype_box_, kDTypeKeys);
    lesson_controls_.addFlag(QStringLiteral("training"), training_box_);
    lesson_controls_.addInt(QStringLiteral("repeats"), repeats_spin_);

    setPresentation(false);
    retranslate();
}

FusionSection::~FusionSection() = default;  // measurement_ cancels and joins

QString FusionSection::title() const { return tr("Kernel fusion"); }

QList<ChartView *> FusionSection::charts() const { return {bytes_chart_, time_chart_, roofline_chart_}; }

void FusionSection::showEstimate(const Scenario &scenario, const Estimate &)
{
    accelerator_ = scenario.cluster.accelerator;
    recompute();
}

void FusionSection::setPresentation(bool presentation)
{
    PageSection::setPresentation(presentation);
    for (ChartView *chart : charts())
        chart->setMinimumHeight(presentation ? kPresentationChartMinimumHeight : kChartMinimumHeight);
    measured_table_->setFixedHeight(measured_table_->fontMetrics().height() * (presentation ? 6 : 5) + 16);
}

void FusionSection::setConfig(const kernels::FusionChainConfig &config)
{
    const QSignalBlocker bt(tokens_spin_), bw(width_spin_), bd(dtype_box_), bx(training_box_);
    tokens_spin_->setValue(int(std::clamp<std::int64_t>(config.tokens, 1, tokens_spin_->maximum())));
    width_spin_->setValue(int(std::clamp<std::int64_t>(config.width, 1, width_spin_->maximum())));
    for (int i = 0; i < int(std::size(kDTypes)); ++i)
        if (kDTypes[i] == config.dtype)
            dtype_box_->setCurrentIndex(i);
    training_box_->setChecked(config.training);
    recompute();
}

kernels::FusionChainConfig FusionSection::config() const
{
    kernels::FusionChainConfig config;
    config.tokens = tokens_spin_->value();
    config.width = width_spin_->value();
    config.dtype = kDTypes[std::clamp(dtype_box_->currentIndex(), 0, int(std::size(kDTypes)) - 1)];
    config.training = training_box_->isChecked();
    return config;
}

void FusionSection::setRepeats(int repeats) { repeats_spin_->setValue(repeats); }

QString FusionSection::message() const { return format::fromStd(problem_text_).trimmed(); }

QString FusionSection::summaryText() const { return summary_->text(); }

QString FusionSection::measureStatus() const { return measure_status_->text(); }

RooflineMachine FusionSection::rooflineMachineShown() const
{
    // Element-wise operators run on the vector units, not the tensor cores: the fp32 (CUDA-core)
    // peak, as kernel_time's streamingTime uses (vector_peak_flops_per_second), else the dtype's.
    const DType dtype = accelerator_.dense_peak.fp32_flops_per_second > 0 ? DType::FP32 : config().dtype;
    return rooflineMachine(accelerator_, dtype);
}

QStringList FusionSection::categoryNames() const
{
    QStringList names;
    if (chain_)
        for (const kernels::FusionChainOp &op : chain_->ops)
            names << opName(op.op);
    names << tr("unfused total") << tr("fused kernel");
    return names;
}

void FusionSection::recompute()
{
    const Result<kernels::FusionChain> chain = kernels::fusionChain(config(), accelerator_);
    chain_.reset();
    problem_text_.clear();
    if (chain)
        chain_ = *chain;
    else
        problem_text_ = formatProblems(chain.problems());
    const kernels::FusionChainConfig c = config();
    accelerator_label_->setText(tr("On the scenario's accelerator: <b>%1</b>, %2 HBM, %3 fp32 vector peak")
                                    .arg(format::fromStd(accelerator_.name).toHtmlEscaped(),
                                         format::si(accelerator_.memory_bandwidth_bytes_per_second, QStringLiteral("B/s")),
                                         format::si(accelerator_.dense_peak.fp32_flops_per_second, QStringLiteral("FLOP/s"))));
    const QString error = message();
    message_label_->setVisible(!error.isEmpty());
    message_label_->setText(error.isEmpty() ? QString()
                                            : QStringLiteral("<span style=\"color:%1\">%2</span>")
                                                  .arg(chartReferenceColor(palette()).name(), error.toHtmlEscaped()));
    if (chain_) {
        const kernels::FusionChain &f = *chain_;
        summary_->setText(
            tr("%1 × %2 %3%4. <b>Unfused</b>: %5 kernels move %6 (%7 FLOP/byte) in %8. <b>Fused</b>: one kernel moves %9 "
               "(%10 FLOP/byte) in %11 — <b>%12× faster</b>, the same %13 FLOP.")
                .arg(format::integer(c.tokens), format::integer(c.width), displayName(c.dtype),
                     c.training ? tr(", training (GeLU's input is kept for the backward pass)") : QString())
                .arg(f.ops.size())
                .arg(format::bytes(f.unfused_bytes), format::decimal(f.unfusedIntensity(), 2), micro(f.unfused_seconds),
                     format::bytes(f.fused_bytes), format::decimal(f.fusedIntensity(), 2), micro(f.fused_time.seconds),
                     format::decimal(f.speedup(), 2), format::si(f.flops, QString())));
        summary_->setToolTip(format::tooltip(tr("Speedup"), QString(),
                                             tr("unfused time / fused time; each kernel's time = max(FLOPs / vector peak, "
                                                "bytes / (bandwidth · memory efficiency)) + launch overhead"),
                                             modelSource()));
    } else {
        summary_->clear();
    }
    bytes_chart_->setData(bytesData());
    time_chart_->setData(timeData());
    roofline_chart_->setData(rooflineData());
    refreshMeasured();
}

ChartData FusionSection::bytesData() const
{
    ChartData chart;
    chart.title = tr("HBM bytes per kernel");
    chart.y_label = tr("Bytes moved (MB)");
    chart.y_unit = QStringLiteral("MB");
    chart.formula.inputs = tr("%1 × %2, %3 bytes per element")
                               .arg(format::integer(config().tokens), format::integer(config().width))
                               .arg(bytesPerElement(config().dtype));
    chart.formula.formula = tr("each kernel reads its inputs and writes its output (tokens · width · E each; the residual "
                               "add reads two); fused: the intermediates stay in registers");
    chart.formula.source = modelSource();
    chart.categories = categoryNames();
    if (!chain_)
        return chart;
    const kernels::FusionChain &f = *chain_;
    ChartSeries read, written;
    read.kind = written.kind = ChartSeries::Kind::Bar;
    read.stack_group = written.stack_group = 0;
    read.name = tr("read");
    written.name = tr("written");
    read.color = chartSeriesColor(0, palette());
    written.color = chartSeriesColor(1, palette());
    double unfused_read = 0, unfused_written = 0;
    for (std::size_t i = 0; i < f.ops.size(); ++i) {
        const kernels::FusionChainOp &op = f.ops[i];
        read.x << double(i);
        written.x << double(i);
        read.y << op.bytes_read / 1e6;
        written.y << op.bytes_written / 1e6;
        const QString tip = tr("%1: reads %2, writes %3").arg(opName(op.op), format::bytes(op.bytes_read), format::bytes(op.bytes_written));
        read.point_tooltips << tip;
        written.point_tooltips << tip;
        unfused_read += op.bytes_read;
        unfused_written += op.bytes_written;
    }
    const double n = double(f.ops.size());
    read.x << n;
    written.x << n;
    read.y << unfused_read / 1e6;
    written.y << unfused_written / 1e6;
    read.point_tooltips << tr("unfused: %1 in all").arg(format::bytes(f.unfused_bytes));
    written.point_tooltips << tr("unfused: %1 in all").arg(format::bytes(f.unfused_bytes));
    // The fused kernel's split: it writes the last output (and, training, GeLU's input); the rest is read.
    const double fused_written = f.ops.back().bytes_written * (config().training ? 2 : 1);
    read.x << n + 1;
    written.x << n + 1;
    read.y << (f.fused_bytes - fused_written) / 1e6;
    written.y << fused_written / 1e6;
    read.point_tooltips << tr("fused: %1 in all").arg(format::bytes(f.fused_bytes));
    written.point_tooltips << tr("fused: %1 in all").arg(format::bytes(f.fused_bytes));
    chart.series << read << written;
    return chart;
}

ChartData FusionSection::timeData() const
{
    ChartData chart;
    chart.title = tr("Predicted time per kernel on %1").arg(format::fromStd(accelerator_.name));
    chart.y_label = tr("Time (µs)");
    chart.y_unit = QStringLiteral("µs");
    chart.formula.inputs = chart.title;
    chart.formula.formula = tr("max(FLOPs / vector peak, bytes / (HBM bandwidth · memory efficiency)) + launch overhead, per "
                               "kernel; unfused = the sum of the four");
    chart.formula.source = modelSource();
    chart.categories = categoryNames();
    if (!chain_)
        return chart;
    const kernels::FusionChain &f = *chain_;
    ChartSeries ops, totals;
    ops.kind = totals.kind = ChartSeries::Kind::Bar;
    ops.name = tr("one operator's kernel");
    totals.name = tr("whole chain");
    ops.color = chartSeriesColor(0, palette());
    totals.color = chartSeriesColor(2, palette());
    for (std::size_t i = 0; i < f.ops.size(); ++i) {
        ops.x << double(i);
        ops.y << f.ops[i].unfused_time.seconds * 1e6;
        ops.point_tooltips << tr("%1: %2, %3").arg(opName(f.ops[i].op), micro(f.ops[i].unfused_time.seconds),
                                                  f.ops[i].unfused_time.memory_bound ? tr("memory bound") : tr("compute bound"));
    }
    const double n = double(f.ops.size());
    totals.x << n << n + 1;
    totals.y << f.unfused_seconds * 1e6 << f.fused_time.seconds * 1e6;
    totals.point_tooltips << tr("unfused: %1 in %2 kernels").arg(micro(f.unfused_seconds)).arg(f.ops.size())
                          << tr("fused: %1 in one kernel (%2× faster)").arg(micro(f.fused_time.seconds), format::decimal(f.speedup(), 2));
    chart.series << ops << totals;
    return chart;
}

ChartData FusionSection::rooflineData() const
{
    ChartData chart;
    const RooflineMachine machine = rooflineMachineShown();
    chart.title = tr("The chain on the roofline of %1 (vector units)").arg(format::fromStd(accelerator_.name));
    chart.x_label = tr("Arithmetic intensity (FLOP/byte)");
    chart.y_label = tr("Attainable TFLOP/s");
    chart.x_unit = QStringLiteral("FLOP/byte");
    chart.y_unit = QStringLiteral("TFLOP/s");
    chart.log_x = chart.log_y = true;
    chart.formula.inputs = tr("peak %1, bandwidth %2, ridge %3 FLOP/byte")
                               .arg(format::si(machine.peak_flops_per_second, QStringLiteral("FLOP/s")),
                                    format::si(machine.memory_bandwidth_bytes_per_second, QStringLiteral("B/s")),
                                    format::decimal(machine.ridgePointFlopPerByte(), 1));
    chart.formula.formula = tr("attainable = min(peak, intensity · bandwidth); intensity = FLOPs / HBM bytes");
    chart.formula.source = tr("Williams, Waterman & Patterson 2009, \"Roofline\"; core/kernels/kernel_roofline");
    if (!chain_ || !machine.valid())
        return chart;
    const kernels::FusionChain &f = *chain_;
    ChartSeries roof;
    roof.name = tr("roofline");
    roof.color = chartSeriesColor(7, palette());
    for (double x = 0.01; x <= 1000.0 * 1.0001; x *= std::pow(10.0, 0.1)) {
        roof.x << x;
        roof.y << attainableFlopsPerSecond(machine, x) / 1e12;
    }
    chart.series << roof;
    const auto point = [&](double flops, double bytes) {
        kernels::IoCounts counts;
        counts.read_bytes = std::int64_t(bytes);
        counts.flops = std::int64_t(flops);
        return kernels::rooflinePoint(counts, machine);
    };
    ChartSeries ops;
    ops.name = tr("one operator's kernel");
    ops.kind = ChartSeries::Kind::Marker;
    ops.hollow = true;
    ops.color = chartSeriesColor(0, palette());
    for (const kernels::FusionChainOp &op : f.ops) {
        const kernels::KernelRooflinePoint p = point(op.flops, op.bytes_read + op.bytes_written);
        ops.x << p.intensity_flop_per_byte;
        ops.y << p.attainable_flops_per_second / 1e12;
        ops.point_tooltips << tr("%1: %2 FLOP/byte, %3 TFLOP/s attainable")
                                  .arg(opName(op.op), format::decimal(p.intensity_flop_per_byte, 2),
                                       format::decimal(p.attainable_flops_per_second / 1e12, 2));
        ops.point_labels << opName(op.op);
    }
    chart.series << ops;
    const auto whole = [&](const QString &name, int color, double bytes) {
        ChartSeries s;
        s.name = name;
        s.kind = ChartSeries::Kind::Marker;
        s.marker_size = 11;
        s.color = chartSeriesColor(color, palette());
        const kernels::KernelRooflinePoint p = point(f.flops, bytes);
        s.x << p.intensity_flop_per_byte;
        s.y << p.attainable_flops_per_second / 1e12;
        s.point_tooltips << tr("%1: %2 FLOP / %3 = %4 FLOP/byte, %5 TFLOP/s attainable (%6)")
                                .arg(name, format::si(f.flops, QString()), format::bytes(bytes),
                                     format::decimal(p.intensity_flop_per_byte, 2),
                                     format::decimal(p.attainable_flops_per_second / 1e12, 2),
                                     p.memory_bound ? tr("memory bound") : tr("compute bound"));
        s.point_labels << name;
        chart.series << s;
    };
    whole(tr("unfused chain"), 3, f.unfused_bytes);
    whole(tr("fused kernel"), 2, f.fused_bytes);
    return chart;
}

void FusionSection::measure()
{
    if (measurement_.isRunning())
        return;
    reference::FusionMeasureRequest request;
    request.tokens = tokens_spin_->value();
    request.width = width_spin_->value();
    request.training = training_box_->isChecked();
    request.repeats = repeats_spin_->value();
    if (const Problems problems = reference::validateFusionMeasureRequest(request); !problems.empty()) {
        measure_message_ = format::fromStd(formatProblems(problems)).trimmed();
        refreshMeasured();
        return;
    }
    measure_message_.clear();
    progress_->setRange(0, 2 * request.repeats);
    progress_->setValue(0);
    measure_button_->setEnabled(false);
    cancel_button_->setEnabled(true);
    measure_status_->setText(tr("Running the chain on this CPU: %1 × %2 float32, unfused and fused alternating…")
                                 .arg(format::integer(request.tokens), format::integer(request.width)));
    measurement_.start(
        this,
        [request](const std::atomic<bool> &cancel, const BackgroundMeasurement::ProgressFn &progress) {
            return reference::measureFusion(request, [&](int done, int total) {
                progress(done, total);
                return !cancel.load();
            });
        },
        [this](int done, int total) {
            progress_->setRange(0, total);
            progress_->setValue(done);
        },
        [this](const Result<reference::FusionMeasurement> &result) { finish(result); });
}

void FusionSection::cancel() { measurement_.cancel(); }

void FusionSection::finish(const Result<reference::FusionMeasurement> &result)
{
    measure_button_->setEnabled(true);
    cancel_button_->setEnabled(false);
    bool cancelled = false;
    if (!result) {
        measure_message_ = format::fromStd(formatProblems(result.problems())).trimmed();
    } else if (result->cancelled) {
        cancelled = true;
        measure_message_ = tr("Cancelled; the table keeps the last finished measurement.");
    } else {
        measured_ = *result;
        measure_message_.clear();
    }
    refreshMeasured();
    emit measurementFinished(cancelled);
    emit ready();
}

void FusionSection::refreshMeasured()
{
    if (!isRunning()) {
        const QString idle = measured_ ? tr("Measured %1 × %2 float32 on %n thread(s), median of %3 alternating runs each.",
                                            nullptr, measured_->threads)
                                             .arg(format::integer(measured_->request.tokens),
                                                  format::integer(measured_->request.width))
                                             .arg(measured_->request.repeats)
                                       : tr("Not measured yet.");
        measure_status_->setText(measure_message_.isEmpty() ? idle : measure_message_);
    }
    const QStringList headers{tr("Variant"), tr("Predicted on %1").arg(format::fromStd(accelerator_.name)),
                              tr("Measured here"), tr("Bytes (model, 4 B)"), tr("GB/s here")};
    measured_table_->setColumnCount(int(headers.size()));
    measured_table_->setHorizontalHeaderLabels(headers);
    measured_table_->setRowCount(2);
    TableFillBatch batch(measured_table_);
    const QString dash = QStringLiteral("—");
    for (int row = 0; row < 2; ++row) {
        const bool fused = row == 1;
        const reference::FusionVariantRun *run = measured_ ? (fused ? &measured_->fused : &measured_->unfused) : nullptr;
        const double predicted = chain_ ? (fused ? chain_->fused_time.seconds : chain_->unfused_seconds) : 0;
        const QStringList cells{fused ? tr("fused (one loop)") : tr("unfused (one pass per operator)"),
                                chain_ ? micro(predicted) : dash,
                                run ? milli(run->seconds) : dash,
                                run ? format::bytes(run->bytes) : dash,
                                run ? format::decimal(run->bytes_per_second / 1e9, 2) : dash};
        for (int column = 0; column < int(cells.size()); ++column) {
            auto *item = new QTableWidgetItem(cells[column]);
            if (column > 0)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            measured_table_->setItem(row, column, item);
        }
    }
    batch.finish();
    if (measured_) {
        const reference::FusionMeasurement &m = *measured_;
        measured_summary_->setText(
            tr("Measured speedup here: <b>%1×</b> (predicted on %2: %3×; the model's bytes fall %4×). Outputs %5.")
                .arg(format::decimal(m.speedup(), 2), format::fromStd(accelerator_.name).toHtmlEscaped(),
                     chain_ ? format::decimal(chain_->speedup(), 2) : dash,
                     format::decimal(m.fused.bytes > 0 ? m.unfused.bytes / m.fused.bytes : 0, 2),
                     m.outputs_bitwise_equal ? tr("bitwise equal")
                                             : tr("differ by up to %1").arg(format::scientific(m.max_abs_difference))));
    } else {
        measured_summary_->clear();
    }
}

void FusionSection::retranslate()
{
    intro_->setText(
        tr("After the MLP's matmul come four element-wise operators: add the bias, GeLU, dropout, add the residual. Each "
           "does about one FLOP per byte it moves, so each is memory bound. Run as four kernels, every intermediate "
           "goes to HBM and back; fused into one kernel, the element stays in a register through the whole chain and "
           "only the input, the residual and the result cross HBM."));
    tokens_label_->setText(tr("Tokens:"));
    width_label_->setText(tr("Width:"));
    dtype_label_->setText(tr("Type:"));
    training_box_->setText(tr("Training"));
    training_box_->setToolTip(tr("The backward pass keeps GeLU's input (Korthikanti et al. 2022 §4.1), so the fused "
                                 "kernel still writes it"));
    tokens_spin_->setToolTip(tr("Rows: micro-batch × sequence length"));
    width_spin_->setToolTip(tr("Columns: d_model, or d_ff after the up projection"));
    measure_intro_->setText(
        tr("<b>Measured on this CPU.</b> The same chain in float32 on tokens × width: four passes over memory (the "
           "reference transformer's GeLU and residual kernels) vs one fused loop, timed alternately. The bytes are "
           "the model's count at 4 bytes per element, not a hardware counter; the outputs are compared bit for bit."));
    measure_intro_->setTextFormat(Qt::RichText);
    repeats_label_->setText(tr("Runs:"));
    measure_button_->setText(tr("Measure on this CPU"));
    cancel_button_->setText(tr("Cancel"));
    sources_->setText(tr("<b>Sources:</b> %1; the roofline: Williams, Waterman & Patterson 2009. The CPU run: "
                         "core/reference/fusion_measurement.")
                          .arg(modelSource()));
    recompute();
}

QJsonObject FusionSection::lessonSettings() const { return lesson_controls_.settings(); }

bool FusionSection::applyLessonSettings(const QJsonObject &settings, QString *error)
{
    return lesson_controls_.apply(settings, error);
}

}  // namespace lse::gui
