// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/roofline/roofline_page.h"

#include "charts/chart_palette.h"
#include "charts/chart_view.h"
#include "common/file_writer.h"
#include "enum_labels.h"
#include "hardware/hardware_catalog.h"
#include "pages/flow_layout.h"
#include "pages/page_format.h"
#include "pages/roofline/machine_warnings.h"
#include "pages/roofline/reference_ops_run.h"
#include "pages/roofline/roofline_page_parts.h"
#include "reference/peak_utilisation.h"
#include "pages/table_key_columns.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QTableWidget>
#include <QTextStream>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <memory>

namespace lse::gui {

using namespace roofline_parts;

RooflinePage::RooflinePage(QWidget *parent) : Page(parent)
{
    buildControls();
    bindLessonControls();
    std::string why_not;
    cpu_ = loadCachedMachineRoofline(&why_not);
    cpu_missing_reason_ = QString::fromStdString(why_not);
    if (cpu_)
        cache_measured_at_ = cpu_->measured_at;
    setPresentation(false);
    retranslateUi();
    refresh();
}

void RooflinePage::showEvent(QShowEvent *event)
{
    Page::showEvent(event);
    // The Reference run page measures this machine too (a lesson's step before this page); all
    // pages are built when a lesson starts, so this one looks again each time it is shown.
    if (worker_)
        return;
    const std::optional<MachineRoofline> cached = loadCachedMachineRoofline();
    if (cached && cached->measured_at != cache_measured_at_) {
        cache_measured_at_ = cached->measured_at;
        cpu_ = cached;
        cpu_missing_reason_.clear();
        refresh();
    }
}

RooflinePage::~RooflinePage()
{
    cancel_ = true;
    if (worker_)
        worker_->wait();  // a machine measurement takes a few seconds; results are dropped with us
}

void RooflinePage::buildControls()
{
    auto *layout = new QVBoxLayout(addScrollingContent(this));
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(8);
    QWidget *content = layout->parentWidget();

    intro_ = new QLabel(content);
    intro_->setWordWrap(true);
    layout->addWidget(intro_);

    // The rows of controls wrap so the page fits beside the scenario editor on a 1024-px screen.
    auto *machines = new FlowLayout;
    machines_label_ = new QLabel(content);
    machines->addWidget(machines_label_);
    const HardwareCatalog &catalog = builtinHardwareCatalog();
    for (const OverlayEntry &entry : kOverlay) {
        const Accelerator *accelerator = catalog.find(entry.id);
        if (accelerator == nullptr)
            continue;
        auto *check = new QCheckBox(QString::fromLatin1(entry.short_name), content);
        check->setObjectName(QStringLiteral("machine-%1").arg(QLatin1String(entry.id)));
        check->setToolTip(QString::fromStdString(accelerator->name));
        check->setChecked(entry.checked);
        machine_checks_.insert(QLatin1String(entry.id), check);
        machines->addWidget(check);
        connect(check, &QCheckBox::toggled, this, &RooflinePage::refresh);
    }
    auto *cpu_check = new QCheckBox(content);
    cpu_check->setObjectName(QStringLiteral("machine-this-cpu"));
    cpu_check->setChecked(true);
    machine_checks_.insert(QLatin1String(kThisCpu), cpu_check);
    machines->addWidget(cpu_check);
    connect(cpu_check, &QCheckBox::toggled, this, &RooflinePage::refresh);
    layout->addLayout(machines);

    auto *options = new QGridLayout;
    options->setHorizontalSpacing(8);
    precision_label_ = new QLabel(content);
    precision_box_ = new QComboBox(content);
    precision_box_->setObjectName(QStringLiteral("precisionBox"));
    precision_label_->setBuddy(precision_box_);
    phase_label_ = new QLabel(content);
    phase_box_ = new QComboBox(content);
    phase_box_->setObjectName(QStringLiteral("phaseBox"));
    phase_label_->setBuddy(phase_box_);
    flash_check_ = new QCheckBox(content);
    flash_check_->setObjectName(QStringLiteral("flashCheck"));
    fused_check_ = new QCheckBox(content);
    fused_check_->setObjectName(QStringLiteral("fusedCheck"));
    batch_title_ = new QLabel(content);
    batch_slider_ = new QSlider(Qt::Horizontal, content);
    batch_slider_->setObjectName(QStringLiteral("batchSlider"));
    batch_slider_->setRange(0, kMaxBatchExponent);
    batch_slider_->setPageStep(1);
    batch_slider_->setTickPosition(QSlider::TicksBelow);
    batch_slider_->setMinimumWidth(140);
    batch_title_->setBuddy(batch_slider_);
    batch_label_ = new QLabel(content);
    batch_label_->setMinimumWidth(batch_label_->fontMetrics().horizontalAdvance(QStringLiteral("00000")));
    options->addWidget(precision_label_, 0, 0);
    options->addWidget(precision_box_, 0, 1);
    options->addWidget(phase_label_, 0, 2);
    options->addWidget(phase_box_, 0, 3);
    // The two check boxes get a row of their own so the options fit a 1024-pixel projector in
    // presentation mode.
    auto *checks_row = new QHBoxLayout;
    checks_row->addWidget(flash_check_);
    checks_row->addWidget(fused_check_);
    trace_check_ = new QCheckBox(content);
    trace_check_->setObjectName(QStringLiteral("traceCheck"));
    trace_check_->setChecked(true);
    trace_check_->setVisible(false);  // shown once the Trace page has loaded a trace
    checks_row->addWidget(trace_check_);
    checks_row->addStretch(1);
    options->addLayout(checks_row, 1, 1, 1, 3);
    auto *batch_row = new QHBoxLayout;
    batch_row->addWidget(batch_slider_, 1);
    batch_row->addWidget(batch_label_);
    options->addWidget(batch_title_, 2, 0);
    options->addLayout(batch_row, 2, 1, 1, 3);
    options->setColumnStretch(6, 1);
    layout->addLayout(options);
    connect(precision_box_, &QComboBox::currentIndexChanged, this, &RooflinePage::refresh);
    connect(phase_box_, &QComboBox::currentIndexChanged, this, &RooflinePage::refresh);
    connect(flash_check_, &QCheckBox::toggled, this, &RooflinePage::refresh);
    connect(fused_check_, &QCheckBox::toggled, this, &RooflinePage::refresh);
    connect(trace_check_, &QCheckBox::toggled, this, [this] {
        trace_point_label_->clear();
        accelerator_chart_->setData(acceleratorChartData());
    });
    connect(batch_slider_, &QSlider::valueChanged, this, [this] {
        updateBatchLabel();
        refresh();
    });

    crossover_label_ = new QLabel(content);
    crossover_label_->setObjectName(QStringLiteral("crossoverLabel"));
    crossover_label_->setWordWrap(true);
    layout->addWidget(crossover_label_);

    accelerator_chart_ = new ChartView(QStringLiteral("roofline-accelerators"), content);
    layout->addWidget(accelerator_chart_, 2);
    trace_point_label_ = new QLabel(content);
    trace_point_label_->setObjectName(QStringLiteral("tracePointLabel"));
    trace_point_label_->setWordWrap(true);
    trace_point_label_->setTextFormat(Qt::RichText);
    trace_point_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(trace_point_label_);
    connectTracePointClicks();

    // The operator table.
    table_title_ = new QLabel(content);
    table_title_->setWordWrap(true);
    layout->addWidget(table_title_);
    table_ = new QTableWidget(0, ColumnCount, content);
    table_->setObjectName(QStringLiteral("operatorTable"));
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSortingEnabled(true);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setMinimumHeight(260);
    setKeyColumns(table_, {ColName, ColPass, ColTime, ColShare, ColBound});
    layout->addWidget(table_, 1);
    auto *table_buttons = new QHBoxLayout;
    summary_label_ = new QLabel(content);
    summary_label_->setObjectName(QStringLiteral("summaryLabel"));
    summary_label_->setWordWrap(true);
    summary_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    export_button_ = new QPushButton(content);
    export_button_->setObjectName(QStringLiteral("exportCsvButton"));
    table_buttons->addWidget(summary_label_, 1);
    table_buttons->addWidget(export_button_, 0, Qt::AlignTop);
    layout->addLayout(table_buttons);
    connect(export_button_, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export operators as CSV"),
                                                          QStringLiteral("roofline-operators.csv"),
                                                          tr("CSV files (*.csv)"));
        if (path.isEmpty())
            return;
        QString error;
        if (!exportTableCsv(path, &error))
            summary_label_->setText(tr("Could not write %1: %2").arg(path, error));
    });

    // This machine.
    machine_title_ = new QLabel(content);
    machine_title_->setWordWrap(true);
    layout->addWidget(machine_title_);
    machine_status_ = new QLabel(content);
    machine_status_->setObjectName(QStringLiteral("machineStatus"));
    machine_status_->setWordWrap(true);
    measure_machine_button_ = new QPushButton(content);
    measure_machine_button_->setObjectName(QStringLiteral("measureMachineButton"));
    measure_ops_button_ = new QPushButton(content);
    measure_ops_button_->setObjectName(QStringLiteral("measureOpsButton"));
    cancel_button_ = new QPushButton(content);
    cancel_button_->setObjectName(QStringLiteral("cancelMeasurementButton"));
    cancel_button_->setEnabled(false);
    progress_ = new QProgressBar(content);
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setMaximumWidth(220);
    layout->addWidget(machine_status_);
    auto *machine_row = new FlowLayout;
    machine_row->addWidget(measure_machine_button_);
    machine_row->addWidget(measure_ops_button_);
    machine_row->addWidget(cancel_button_);
    machine_row->addWidget(progress_);
    layout->addLayout(machine_row);
    connect(measure_machine_button_, &QPushButton::clicked, this, &RooflinePage::startMachineMeasurement);
    connect(measure_ops_button_, &QPushButton::clicked, this, &RooflinePage::startReferenceRun);
    connect(cancel_button_, &QPushButton::clicked, this, &RooflinePage::cancelWorker);
    machine_chart_ = new ChartView(QStringLiteral("roofline-this-machine"), content);
    layout->addWidget(machine_chart_, 2);
}

QString RooflinePage::pageId() { return QStringLiteral("roofline"); }

QString RooflinePage::pageTitle() { return tr("Roofline"); }

QList<ChartView *> RooflinePage::charts() const
{
    // The CPU chart only once it shows something: a roofline or measured operators.
    QList<ChartView *> list{accelerator_chart_};
    if (cpu_ || !measured_records_.empty())
        list << machine_chart_;
    return list;
}

// charts() may leave the CPU chart out; presentation mode sizes both.
QList<ChartView *> RooflinePage::presentationCharts() const { return {accelerator_chart_, machine_chart_}; }

void RooflinePage::applyPresentation(bool presentation)
{
    const int height = presentation ? kPresentationChartMinimumHeight + 250 : kChartMinimumHeight + 400;
    accelerator_chart_->setMinimumHeight(height);
    machine_chart_->setMinimumHeight(presentation ? kPresentationChartMinimumHeight : kChartMinimumHeight + 60);
    table_->setMinimumHeight(presentation ? 420 : 260);
}

void RooflinePage::retranslate() { retranslateUi(); }

void RooflinePage::retranslateUi()
{
    intro_->setText(tr("A kernel that performs I FLOPs per byte it moves to or from main memory runs at most at "
                       "min(peak, I · bandwidth) (the roofline, Williams, Waterman & Patterson 2009). Left of a "
                       "machine's ridge point (peak / bandwidth) it waits for memory; right of it, for its math "
                       "units. Points are the scenario's operators on its accelerator; hover for the numbers."));
    machines_label_->setText(tr("Rooflines:"));
    machine_checks_.value(QLatin1String(kThisCpu))->setText(tr("This CPU (measured)"));
    machine_checks_.value(QLatin1String(kThisCpu))
        ->setToolTip(tr("This machine's measured roofline (float32): needs a measurement, see \"Measure this "
                        "machine\" below the table."));
    precision_label_->setText(tr("&Precision"));
    phase_label_->setText(tr("P&hase"));
    flash_check_->setText(tr("&FlashAttention"));
    flash_check_->setToolTip(tr("FlashAttention (Dao et al. 2022) tiles QKᵀ, softmax and P·V in on-chip SRAM: the "
                                "s×s score matrix never reaches HBM, so attention moves far fewer bytes."));
    trace_check_->setText(tr("&Your trace"));
    trace_check_->setToolTip(tr("The kernels of the trace loaded on the Trace page with known FLOPs and bytes, at "
                                "their achieved FLOP/s (FLOPs ÷ duration) and intensity (FLOPs ÷ bytes); click a "
                                "point to name its kernel"));
    fused_check_->setText(tr("F&used element-wise"));
    fused_check_->setToolTip(tr("A fused kernel runs a chain of element-wise operators (residual add, norm, "
                                "activation) in one pass: it reads the chain's inputs and writes its outputs once."));
    batch_title_->setText(tr("&Batch"));
    batch_slider_->setToolTip(tr("Sequences per step (log-spaced 1 … 1,024). In decode every sequence adds one token "
                                 "per weight read: intensity ≈ batch FLOP/B per weight byte, so larger batches move "
                                 "the weight matmuls from memory-bound toward the ridge point."));
    {
        const int precision = precision_box_->currentIndex();
        const QSignalBlocker block(precision_box_);
        precision_box_->clear();
        precision_box_->addItem(tr("Scenario's matmul dtype"), -1);
        for (DType dtype : {DType::FP32, DType::TF32, DType::BF16, DType::FP16, DType::FP8})
            precision_box_->addItem(displayName(dtype), int(dtype));
        precision_box_->setCurrentIndex(std::max(0, precision));
    }
    {
        const int phase = phase_box_->currentIndex();
        const QSignalBlocker block(phase_box_);
        phase_box_->clear();
        phase_box_->addItem(tr("Training step"), int(StepPhase::Train));
        phase_box_->addItem(tr("Prefill (prompt)"), int(StepPhase::Prefill));
        phase_box_->addItem(tr("Decode (one token)"), int(StepPhase::Decode));
        phase_box_->setCurrentIndex(std::max(0, phase));
        phase_box_->setToolTip(tr("Training: forward + backward + optimizer of one micro-batch. Prefill: the forward "
                                  "pass over the prompts. Decode: one new token per sequence against a KV cache of "
                                  "seq_len tokens (Kwon et al. 2023)."));
    }
    export_button_->setText(tr("Export &CSV…"));
    export_button_->setToolTip(tr("Write the operator table (raw numbers) to a CSV file."));
    measure_machine_button_->setText(tr("&Measure this machine"));
    measure_machine_button_->setToolTip(tr("Measure this CPU's float32 GEMM peak and STREAM triad bandwidth (a few "
                                           "seconds, in the background) and cache the result, as `llm-explorer-cli "
                                           "machine` does."));
    measure_ops_button_->setText(tr("Measure &reference ops"));
    cancel_button_->setText(tr("Cancel"));
    cancel_button_->setToolTip(tr("Stop the measurement before its next stage; nothing is kept or cached."));
    measure_ops_button_->setToolTip(tr("Train the tiny reference transformer for a few steps with the op profiler on "
                                       "(in the background) and plot each operator's achieved FLOP/s."));
    machine_title_->setText(tr("<b>This machine</b>: the CPU's measured roofline (float32 SGEMM peak, STREAM triad "
                               "bandwidth) with the reference transformer's operators at the FLOP/s they achieved."));
    updateBatchLabel();
    refresh();
}

StepPhase RooflinePage::phase() const
{
    const QVariant value = phase_box_->currentData();
    return value.isValid() ? StepPhase(value.toInt()) : StepPhase::Train;
}

std::optional<DType> RooflinePage::chosenDtype() const
{
    const QVariant value = precision_box_->currentData();
    if (!value.isValid() || value.toInt() < 0)
        return std::nullopt;
    return DType(value.toInt());
}

std::int64_t RooflinePage::sliderBatch() const { return std::int64_t(1) << batch_slider_->value(); }

void RooflinePage::setSliderBatch(std::int64_t batch)
{
    int exponent = 0;
    while (exponent < kMaxBatchExponent && (std::int64_t(1) << (exponent + 1)) <= batch)
        ++exponent;
    const QSignalBlocker block(batch_slider_);
    batch_slider_->setValue(exponent);
    updateBatchLabel();
}

void RooflinePage::updateBatchLabel() { batch_label_->setText(format::integer(sliderBatch())); }

RooflineMachine RooflinePage::operatorMachine() const
{
    const std::optional<DType> dtype = chosenDtype();
    if (!dtype)
        return rooflineMachine(scenario());
    return rooflineMachine(scenario().cluster.accelerator, *dtype);
}

void RooflinePage::estimateChanged(const Scenario *previous)
{
    const Scenario &scenario = this->scenario();
    const bool first = previous == nullptr;
    // Follow the scenario's micro-batch and attention setting when they change; the user's own
    // choice stays otherwise.
    if (first || scenario.training.micro_batch != scenario_micro_batch_) {
        scenario_micro_batch_ = scenario.training.micro_batch;
        setSliderBatch(scenario.training.micro_batch);
    }
    if (first || scenario.training.flash_attention != scenario_flash_attention_) {
        scenario_flash_attention_ = scenario.training.flash_attention;
        const QSignalBlocker block(flash_check_);
        flash_check_->setChecked(scenario.training.flash_attention);
    }
    refresh();
}

void RooflinePage::refresh()
{
    report_.reset();
    report_problem_.clear();
    if (hasEstimate()) {
        RooflineOptions options = rooflineOptionsFor(scenario(), phase());
        options.batch = sliderBatch();
        options.flash_attention = flash_check_->isChecked();
        options.fused_elementwise = fused_check_->isChecked();
        const RooflineMachine machine = operatorMachine();
        Result<RooflineReport> result = rooflineReport(scenario(), options, machine);
        if (result)
            report_ = std::move(result.value());
        else
            report_problem_ = QString::fromStdString(formatProblems(result.problems())).trimmed();
    }
    accelerator_chart_->setData(acceleratorChartData());
    fillTable();
    updateSummary();
    refreshMachineChart();

    if (report_) {
        const std::int64_t crossover = report_->decode_crossover_batch;
        const QString machine = QString::fromStdString(report_->machine.name);
        if (crossover <= 0)
            crossover_label_->setText(tr("Decode: the weight matmuls of this model stay memory-bound on %1 up to a "
                                         "batch of 2²⁴ sequences.").arg(machine));
        else if (phase() == StepPhase::Decode)
            crossover_label_->setText(
                tr("Decode crossover: from a batch of <b>%1</b> sequences every weight matmul is compute-bound on %2 "
                   "(ridge point %3). Current batch %4: %5.")
                    .arg(format::integer(crossover), machine.toHtmlEscaped(),
                         intensityText(report_->ridge_point_flop_per_byte), format::integer(report_->batch),
                         report_->batch >= crossover ? tr("compute-bound") : tr("memory-bound")));
        else
            crossover_label_->setText(tr("Decode crossover on %1: batch %2 (choose the decode phase to move the "
                                         "matmuls with the slider).")
                                          .arg(machine.toHtmlEscaped(), format::integer(crossover)));
    } else {
        crossover_label_->setText(report_problem_.isEmpty() ? tr("No valid scenario yet.") : report_problem_);
    }
}

void RooflinePage::updateSummary()
{
    if (!report_) {
        summary_label_->setText(QString());
        return;
    }
    const RooflineReport &r = *report_;
    QString text = tr("Step time from the roofline (Σ operators, one after another): <b>%1</b> (compute-bound %2, "
                      "memory-bound %3). ")
                       .arg(format::si(r.step_seconds, QStringLiteral("s")),
                            format::si(r.compute_bound_seconds, QStringLiteral("s")),
                            format::si(r.memory_bound_seconds, QStringLiteral("s")));
    text += tr("MFU-based time (model FLOPs %1 / (peak · MFU %2)): <b>%3</b>. Implied MFU of the roofline time: "
               "<b>%4</b> — the roofline is an upper bound on speed, so real MFU is lower.")
                .arg(format::si(r.model_flops, tr("FLOP")), format::percent(r.mfu),
                     format::si(r.mfu_step_seconds, QStringLiteral("s")), format::percent(r.implied_mfu));
    summary_label_->setText(text);
}

}  // namespace lse::gui
