// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/hardware/roofline_page.h"

#include "charts/chart_palette.h"
#include "charts/chart_view.h"
#include "common/file_writer.h"
#include "enum_labels.h"
#include "hardware/hardware_catalog.h"
#include "pages/page_format.h"
#include "pages/hardware/roofline/machine_warnings.h"
#include "pages/hardware/roofline/reference_ops_run.h"
#include "reference/peak_utilisation.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
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

namespace {

// The accelerators the overlay offers, as the issue names them; "this-cpu" is the measured CPU.
struct OverlayEntry {
    const char *id;
    const char *short_name;  // product names stay untranslated
    bool checked;
};
constexpr OverlayEntry kOverlay[] = {{"a100-sxm-80gb", "A100", true},
                                     {"h100-sxm", "H100", true},
                                     {"h200-sxm", "H200", false},
                                     {"b200", "B200", true},
                                     {"mi300x", "MI300X", false}};
constexpr const char *kThisCpu = "this-cpu";
constexpr int kMaxBatchExponent = 10;  // slider 2^0 … 2^10 sequences
constexpr int kLabelledOps = 4;        // only the slowest operators get a label beside their point
constexpr double kMinIntensity = 1e-3;  // a decade left of 0.01: room for the memory roof's slope
constexpr double kMaxIntensity = 1e4;

enum Column { ColName, ColPass, ColCount, ColShape, ColFlops, ColBytes, ColIntensity, ColAttainable, ColBound,
              ColTime, ColShare, ColumnCount };

// Sorts by the raw number in Qt::UserRole, not by the formatted text.
class NumberItem : public QTableWidgetItem {
public:
    NumberItem(const QString &text, double value) : QTableWidgetItem(text)
    {
        setData(Qt::UserRole, value);
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    bool operator<(const QTableWidgetItem &other) const override
    {
        return data(Qt::UserRole).toDouble() < other.data(Qt::UserRole).toDouble();
    }
};

QString passName(OpPass pass)
{
    switch (pass) {
    case OpPass::Forward:
        return RooflinePage::tr("forward");
    case OpPass::Backward:
        return RooflinePage::tr("backward");
    case OpPass::Recompute:
        return RooflinePage::tr("recompute");
    case OpPass::Optimizer:
        return RooflinePage::tr("optimizer");
    }
    return {};
}

QString boundName(Bound bound)
{
    return bound == Bound::Compute ? RooflinePage::tr("compute-bound") : RooflinePage::tr("memory-bound");
}

QString intensityText(double intensity) { return format::si(intensity, RooflinePage::tr("FLOP/B")); }

// Log-spaced intensities covering [low, high], for drawing a roof as a polyline (its corner at
// the ridge point is added so the kink is exact).
QVector<double> roofIntensities(double low, double high, double ridge)
{
    QVector<double> xs;
    const int steps = 48;
    for (int i = 0; i <= steps; ++i)
        xs << low * std::pow(high / low, double(i) / steps);
    if (ridge > low && ridge < high) {
        xs << ridge;
        std::sort(xs.begin(), xs.end());
    }
    return xs;
}

ChartSeries roofSeries(const RooflineMachine &machine, double low, double high, const QString &name)
{
    ChartSeries line;
    line.name = name;
    for (double x : roofIntensities(low, high, machine.ridgePointFlopPerByte())) {
        line.x << x;
        line.y << attainableFlopsPerSecond(machine, x);
        line.point_tooltips << RooflinePage::tr("<b>%1</b><br>I = %2: attainable min(%3, I · %4) = %5")
                                   .arg(name.toHtmlEscaped(), intensityText(x),
                                        format::si(machine.peak_flops_per_second, RooflinePage::tr("FLOP/s")),
                                        format::si(machine.memory_bandwidth_bytes_per_second, QStringLiteral("B/s")),
                                        format::si(line.y.back(), RooflinePage::tr("FLOP/s")));
    }
    return line;
}

// Legend names without the vendor prefix: "H100 SXM5 80GB (bf16)".
QString shortName(const std::string &name)
{
    QString text = QString::fromStdString(name);
    for (const char *prefix : {"NVIDIA ", "AMD Instinct ", "AMD ", "Google Cloud "})
        if (text.startsWith(QLatin1String(prefix)))
            return text.mid(int(qstrlen(prefix)));
    return text;
}

// Labels for the most important points only: in order of `weight`, a point gets a label unless an
// already labelled one lies within a factor of 3 in both coordinates (a cluster gets one label).
// Right of the middle of the log x range the text sits left of its point so it stays in the plot.
struct LabelCandidate {
    double x;
    double y;
    double weight;
    QString text;
};
QVector<ChartText> sparseLabels(std::vector<LabelCandidate> candidates, int limit, double low, double high)
{
    std::sort(candidates.begin(), candidates.end(),
              [](const LabelCandidate &a, const LabelCandidate &b) { return a.weight > b.weight; });
    const double middle = std::sqrt(low * high);
    QVector<ChartText> labels;
    std::vector<const LabelCandidate *> placed;
    for (const LabelCandidate &candidate : candidates) {
        if (int(labels.size()) >= limit)
            break;
        const bool crowded = std::any_of(placed.begin(), placed.end(), [&](const LabelCandidate *other) {
            return std::abs(std::log10(candidate.x / other->x)) < 0.5 &&
                   std::abs(std::log10(candidate.y / other->y)) < 0.5;
        });
        if (crowded)
            continue;
        placed.push_back(&candidate);
        ChartText label;
        label.x = candidate.x;
        label.y = candidate.y;
        label.text = candidate.text;
        label.alignment = (candidate.x > middle ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignBottom;
        label.beside_point = true;
        labels << label;
    }
    return labels;
}

QString csvField(const QString &text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

}  // namespace

RooflinePage::RooflinePage(QWidget *parent) : Page(parent)
{
    buildControls();
    bindLessonControls();
    std::string why_not;
    cpu_ = loadCachedMachineRoofline(&why_not);
    cpu_missing_reason_ = QString::fromStdString(why_not);
    setPresentation(false);
    retranslateUi();
    refresh();
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

    // Two rows of controls so the page fits beside the scenario editor at 1280 px.
    auto *machines = new QHBoxLayout;
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
    machines->addStretch(1);
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
    auto *machine_row = new QHBoxLayout;
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
    machine_row->addWidget(machine_status_, 1);
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

QString RooflinePage::id() const { return QStringLiteral("roofline"); }

QString RooflinePage::title() const { return tr("Roofline"); }

QList<ChartView *> RooflinePage::charts() const
{
    // The CPU chart only once it shows something: a roofline or measured operators.
    QList<ChartView *> list{accelerator_chart_};
    if (cpu_ || !measured_records_.empty())
        list << machine_chart_;
    return list;
}

void RooflinePage::setPresentation(bool presentation)
{
    presentation_ = presentation;
    Page::setPresentation(presentation);
    machine_chart_->setPresentation(presentation);  // charts() may leave it out
    const int height = presentation ? kPresentationChartMinimumHeight + 250 : kChartMinimumHeight + 400;
    accelerator_chart_->setMinimumHeight(height);
    machine_chart_->setMinimumHeight(presentation ? kPresentationChartMinimumHeight : kChartMinimumHeight + 60);
    table_->setMinimumHeight(presentation ? 420 : 260);
}

void RooflinePage::retranslate() { retranslateUi(); }

void RooflinePage::changeEvent(QEvent *event)
{
    Page::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

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
        return rooflineMachine(scenario_);
    return rooflineMachine(scenario_.cluster.accelerator, *dtype);
}

void RooflinePage::showEstimate(const Scenario &scenario, const Estimate &estimate)
{
    const bool first = !has_scenario_;
    scenario_ = scenario;
    estimate_ = estimate;
    has_scenario_ = true;
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
    if (has_scenario_) {
        RooflineOptions options = rooflineOptionsFor(scenario_, phase());
        options.batch = sliderBatch();
        options.flash_attention = flash_check_->isChecked();
        options.fused_elementwise = fused_check_->isChecked();
        const RooflineMachine machine = operatorMachine();
        Result<RooflineReport> result = rooflineReport(scenario_, options, machine);
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

ChartData RooflinePage::acceleratorChartData() const
{
    ChartData chart;
    chart.x_label = tr("Arithmetic intensity (FLOP per byte of memory traffic, log scale)");
    chart.x_unit = QStringLiteral("FLOP/B");
    chart.y_label = tr("Attainable FLOP/s (log scale)");
    chart.y_unit = QStringLiteral("FLOP/s");
    chart.log_x = true;
    chart.log_y = true;
    chart.formula.formula = tr("attainable = min(peak, I · bandwidth); I = FLOPs / (bytes read + bytes written); "
                               "ridge point = peak / bandwidth; time = max(FLOPs / peak, bytes / bandwidth)");
    chart.formula.source = tr("Williams, Waterman & Patterson 2009, 'Roofline' (CACM 52(4)), eq. 1; peaks and "
                              "bandwidths: hardware catalog datasheets; operator FLOPs: the cost engine's operator "
                              "list (PaLM App. B conventions)");
    if (!has_scenario_) {
        chart.title = tr("Roofline: no valid scenario yet");
        return chart;
    }

    // The machines to draw: the checked overlay entries, the scenario's accelerator, this CPU.
    struct Drawn {
        RooflineMachine machine;
        QString name;
        bool dashed = false;
    };
    std::vector<Drawn> machines;
    QStringList skipped;
    const std::optional<DType> dtype = chosenDtype();
    const DType shown_dtype = dtype ? *dtype : scenario_.training.precision.matmul_dtype;
    const RooflineMachine ops_machine = operatorMachine();
    if (ops_machine.valid())
        machines.push_back({ops_machine, tr("%1, scenario").arg(shortName(ops_machine.name)), false});
    const HardwareCatalog &catalog = builtinHardwareCatalog();
    for (const OverlayEntry &entry : kOverlay) {
        const QCheckBox *check = machine_checks_.value(QLatin1String(entry.id));
        const Accelerator *accelerator = catalog.find(entry.id);
        if (check == nullptr || !check->isChecked() || accelerator == nullptr)
            continue;
        if (accelerator->id == scenario_.cluster.accelerator.id && ops_machine.valid())
            continue;  // already drawn as the scenario's
        const RooflineMachine machine = rooflineMachine(*accelerator, shown_dtype);
        if (!machine.valid()) {
            skipped << QString::fromStdString(accelerator->name);
            continue;
        }
        machines.push_back({machine, shortName(machine.name), true});
    }
    if (machine_checks_.value(QLatin1String(kThisCpu))->isChecked() && cpu_) {
        const RooflineMachine cpu = rooflineMachine(*cpu_, true);
        if (cpu.valid())
            machines.push_back({cpu, tr("This CPU (fp32, all cores)"), true});
    }

    // The x range covers every operator as well as 0.01 … 10^4 FLOP/B.
    double low = kMinIntensity, high = kMaxIntensity;
    if (report_)
        for (const RooflineOp &op : report_->ops)
            if (op.intensity_flop_per_byte > 0) {
                low = std::min(low, op.intensity_flop_per_byte / 2);
                high = std::max(high, op.intensity_flop_per_byte * 2);
            }

    const QPalette palette = accelerator_chart_->palette();
    ChartSeries ridges;
    ridges.name = tr("Ridge points");
    ridges.kind = ChartSeries::Kind::Marker;
    ridges.color = palette.color(QPalette::WindowText);
    QStringList inputs;
    for (std::size_t i = 0; i < machines.size(); ++i) {
        const Drawn &drawn = machines[i];
        const double ridge = drawn.machine.ridgePointFlopPerByte();
        ChartSeries line = roofSeries(drawn.machine, low, high,
                                      tr("%1, ridge %2").arg(drawn.name, intensityText(ridge)));
        line.color = chartSeriesColor(int(i), palette);
        line.dashed = drawn.dashed;
        chart.series << line;
        ridges.x << ridge;
        ridges.y << drawn.machine.peak_flops_per_second;
        ridges.point_tooltips << tr("<b>Ridge point of %1</b><br>peak / bandwidth = %2 / %3 = %4")
                                     .arg(drawn.name.toHtmlEscaped(),
                                          format::si(drawn.machine.peak_flops_per_second, tr("FLOP/s")),
                                          format::si(drawn.machine.memory_bandwidth_bytes_per_second,
                                                     QStringLiteral("B/s")),
                                          intensityText(ridge));
        inputs << tr("%1: peak %2, bandwidth %3, ridge %4")
                      .arg(drawn.name.toHtmlEscaped(), format::si(drawn.machine.peak_flops_per_second, tr("FLOP/s")),
                           format::si(drawn.machine.memory_bandwidth_bytes_per_second, QStringLiteral("B/s")),
                           intensityText(ridge));
    }
    if (!skipped.isEmpty())
        inputs << tr("no %1 peak: %2").arg(displayName(shown_dtype), skipped.join(QStringLiteral(", ")));

    if (!report_) {
        chart.title = tr("Roofline (%1): the operators cannot be placed: %2")
                          .arg(displayName(shown_dtype), report_problem_);
        if (!ridges.x.isEmpty())
            chart.series << ridges;
        chart.formula.inputs = inputs.join(QStringLiteral("<br>"));
        return chart;
    }

    // The operators, coloured by the roof that limits them; labels on the slowest few only.
    std::vector<LabelCandidate> candidates;
    ChartSeries compute;
    compute.name = tr("Compute-bound operators");
    compute.kind = ChartSeries::Kind::Marker;
    compute.color = QColor(0xD5, 0x5E, 0x00);  // Okabe–Ito vermillion
    ChartSeries memory;
    memory.name = tr("Memory-bound operators");
    memory.kind = ChartSeries::Kind::Marker;
    memory.color = QColor(0x00, 0x72, 0xB2);  // Okabe–Ito blue
    int unplotted = 0;
    for (std::size_t i = 0; i < report_->ops.size(); ++i) {
        const RooflineOp &op = report_->ops[i];
        if (!(op.intensity_flop_per_byte > 0) || !(op.attainable_flops_per_second > 0)) {
            ++unplotted;
            continue;
        }
        ChartSeries &series = op.bound == Bound::Compute ? compute : memory;
        series.x << op.intensity_flop_per_byte;
        series.y << op.attainable_flops_per_second;
        const QString name = QString::fromStdString(op.name);
        candidates.push_back({op.intensity_flop_per_byte, op.attainable_flops_per_second, op.seconds,
                              tr("%1 (%2)").arg(name, passName(op.pass))});
        series.point_tooltips
            << tr("<b>%1</b> (%2, ×%3)<br>shape %4<br>FLOPs %5, bytes %6<br>intensity %7<br>attainable %8 → "
                  "%9<br>time %10 (%11 of the step)")
                   .arg(name.toHtmlEscaped(), passName(op.pass), format::integer(op.count),
                        QString::fromStdString(op.shape).toHtmlEscaped(), format::si(op.flops, tr("FLOP")),
                        format::bytes(op.bytes()), intensityText(op.intensity_flop_per_byte),
                        format::si(op.attainable_flops_per_second, tr("FLOP/s")), boundName(op.bound),
                        format::si(op.seconds, QStringLiteral("s")), format::percent(op.share_of_step));
    }
    chart.series << memory << compute << ridges;
    chart.texts = sparseLabels(candidates, kLabelledOps, low, high);
    const QString phase_name = phase_box_->currentText();
    chart.title = tr("%1, batch %2, on %3").arg(phase_name, format::integer(report_->batch),
                                                 shortName(report_->machine.name));
    inputs.prepend(tr("%1, batch %2%3, FlashAttention %4, fused element-wise %5")
                       .arg(phase_name, format::integer(report_->batch),
                            report_->context_tokens > 0
                                ? tr(", KV cache %1 tokens").arg(format::integer(report_->context_tokens))
                                : QString(),
                            report_->options.flash_attention ? tr("on") : tr("off"),
                            report_->options.fused_elementwise ? tr("on") : tr("off")));
    if (unplotted > 0)
        inputs << tr("%n operator(s) without FLOPs (lookups) are in the table only", nullptr, unplotted);
    chart.formula.inputs = inputs.join(QStringLiteral("<br>"));
    return chart;
}

void RooflinePage::fillTable()
{
    table_->setSortingEnabled(false);
    table_->clearContents();
    table_->setHorizontalHeaderLabels({tr("Operator"), tr("Pass"), tr("Count"), tr("Shape"), tr("FLOPs"),
                                       tr("Bytes"), tr("Intensity"), tr("Attainable"), tr("Bound"), tr("Time"),
                                       tr("Share of step")});
    table_->horizontalHeaderItem(ColIntensity)->setToolTip(tr("FLOPs / (bytes read + bytes written)"));
    table_->horizontalHeaderItem(ColAttainable)
        ->setToolTip(tr("min(peak, intensity · bandwidth) (Williams et al. 2009)"));
    table_->horizontalHeaderItem(ColTime)->setToolTip(tr("max(FLOPs / peak, bytes / bandwidth), all instances"));
    if (!report_) {
        table_->setRowCount(0);
        table_title_->setText(tr("<b>Operators</b>: no valid scenario yet."));
        table_->setSortingEnabled(true);
        return;
    }
    table_title_->setText(tr("<b>Operators of one %1</b> on %2 (click a header to sort):")
                              .arg(phase_box_->currentText().toLower(),
                                   QString::fromStdString(report_->machine.name).toHtmlEscaped()));
    table_->setRowCount(int(report_->ops.size()));
    for (int row = 0; row < int(report_->ops.size()); ++row) {
        const RooflineOp &op = report_->ops[std::size_t(row)];
        auto *name = new QTableWidgetItem(QString::fromStdString(op.name));
        name->setData(Qt::UserRole, row);  // the report's order, for tests and CSV
        table_->setItem(row, ColName, name);
        table_->setItem(row, ColPass, new QTableWidgetItem(passName(op.pass)));
        table_->setItem(row, ColCount, new NumberItem(format::integer(op.count), op.count));
        table_->setItem(row, ColShape, new QTableWidgetItem(QString::fromStdString(op.shape)));
        table_->setItem(row, ColFlops, new NumberItem(format::si(op.flops, tr("FLOP")), op.flops));
        table_->setItem(row, ColBytes, new NumberItem(format::bytes(op.bytes()), op.bytes()));
        table_->setItem(row, ColIntensity,
                        new NumberItem(intensityText(op.intensity_flop_per_byte), op.intensity_flop_per_byte));
        table_->setItem(row, ColAttainable, new NumberItem(format::si(op.attainable_flops_per_second, tr("FLOP/s")),
                                                           op.attainable_flops_per_second));
        auto *bound = new QTableWidgetItem(boundName(op.bound));
        bound->setData(Qt::UserRole, int(op.bound));
        table_->setItem(row, ColBound, bound);
        table_->setItem(row, ColTime, new NumberItem(format::si(op.seconds, QStringLiteral("s")), op.seconds));
        table_->setItem(row, ColShare, new NumberItem(format::percent(op.share_of_step), op.share_of_step));
    }
    table_->setSortingEnabled(true);
    table_->resizeColumnsToContents();
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

bool RooflinePage::exportTableCsv(const QString &path, QString *error) const
{
    if (!report_) {
        if (error)
            *error = tr("no operators to export");
        return false;
    }
    QByteArray csv;
    QTextStream out(&csv);
    out << "name,pass,count,shape,flops,bytes,intensity_flop_per_byte,attainable_flops_per_second,bound,seconds,"
           "share_of_step\n";
    for (const RooflineOp &op : report_->ops) {
        out << csvField(QString::fromStdString(op.name)) << ',' << QString::fromUtf8(toString(op.pass).data()) << ','
            << op.count << ',' << csvField(QString::fromStdString(op.shape)) << ','
            << QString::number(op.flops, 'g', 17) << ',' << QString::number(op.bytes(), 'g', 17) << ','
            << QString::number(op.intensity_flop_per_byte, 'g', 17) << ','
            << QString::number(op.attainable_flops_per_second, 'g', 17) << ','
            << QString::fromUtf8(toString(op.bound).data()) << ',' << QString::number(op.seconds, 'g', 17) << ','
            << QString::number(op.share_of_step, 'g', 17) << '\n';
    }
    out.flush();
    // Every write checked before the file replaces an old one (QSaveFile on Qt 6.4 can commit a short file).
    const Result<bool> written =
        writeFileReplacing(QFile::encodeName(path).toStdString(), std::string_view(csv.constData(), std::size_t(csv.size())));
    if (!written) {
        if (error)
            *error = QString::fromStdString(written.problems().front().message);
        return false;
    }
    return true;
}

void RooflinePage::setMachineRoofline(const std::optional<MachineRoofline> &machine)
{
    cpu_ = machine;
    cpu_missing_reason_ = machine ? QString() : tr("none set");
    refresh();
}

void RooflinePage::setMeasuredRun(const reference::TrainConfig &config,
                                  const std::vector<reference::OpRecord> &records, int measured_steps)
{
    measured_config_ = config;
    measured_records_ = records;
    measured_steps_ = measured_steps;
    measure_error_.clear();
    refreshMachineChart();
}

void RooflinePage::setReferenceRunSize(int measured_steps, int threads)
{
    reference_steps_ = std::max(1, measured_steps);
    reference_threads_ = std::max(0, threads);
}

void RooflinePage::setMachineMeasureOptions(const MachineMeasureOptions &options)
{
    machine_options_ = options;
}

void RooflinePage::cancelWorker()
{
    if (worker_)
        cancel_ = true;
}

void RooflinePage::refreshMachineChart()
{
    const bool running = worker_ != nullptr;
    measure_machine_button_->setEnabled(!running);
    measure_ops_button_->setEnabled(!running);
    cancel_button_->setEnabled(running);
    if (!running) {
        if (cpu_)
            machine_status_->setText(
                tr("%1: %2 peak (SGEMM n = %3, %4 threads), %5 bandwidth, measured %6.")
                    .arg(QString::fromStdString(cpu_->cpu_model).toHtmlEscaped(),
                         format::si(cpu_->peak_flops_per_s_all_cores, tr("FLOP/s")),
                         format::integer(std::int64_t(cpu_->sgemm_n)), format::integer(cpu_->threads_used),
                         format::si(cpu_->bandwidth_bytes_per_s_all_cores, QStringLiteral("B/s")),
                         QString::fromStdString(cpu_->measured_at)) +
                (machineWarningTexts(*cpu_).isEmpty() ? QString() : QLatin1Char(' ') + machineWarningSentence(*cpu_).toHtmlEscaped()));
        else
            machine_status_->setText(tr("This machine has not been measured yet (%1). Measure it to draw its "
                                        "roofline; the reference operators can be measured either way.")
                                         .arg(cpu_missing_reason_.isEmpty() ? tr("no cache") : cpu_missing_reason_));
        if (!measure_error_.isEmpty())
            machine_status_->setText(machine_status_->text() + QLatin1Char(' ') +
                                     tr("Last measurement failed: %1").arg(measure_error_));
    }
    machine_chart_->setData(machineChartData());
}

ChartData RooflinePage::machineChartData() const
{
    ChartData chart;
    chart.x_label = tr("Arithmetic intensity (FLOP/B, log scale)");
    chart.x_unit = QStringLiteral("FLOP/B");
    chart.y_label = tr("FLOP/s (log scale)");
    chart.y_unit = QStringLiteral("FLOP/s");
    chart.log_x = true;
    chart.log_y = true;
    chart.formula.formula = tr("roof = min(peak, I · bandwidth); a measured operator sits at achieved = FLOPs / "
                               "seconds, at I = FLOPs / bytes with bytes = predicted bytes · measured FLOPs / "
                               "predicted FLOPs");
    chart.formula.source = tr("Williams et al. 2009; peak: Eigen SGEMM, bandwidth: STREAM triad (McCalpin 1995), "
                              "both measured by `llm-explorer-cli machine`; operators: the reference transformer's "
                              "op profiler");
    if (!cpu_ && measured_records_.empty()) {
        chart.title = tr("This machine: not measured yet");
        return chart;
    }
    QStringList inputs;
    double low = kMinIntensity, high = 1e3;
    std::vector<MeasuredRooflinePoint> points;
    if (measured_config_ && !measured_records_.empty()) {
        const Scenario scenario = referenceScenario(*measured_config_, cpu_);
        RooflineOptions options = rooflineOptionsFor(scenario, StepPhase::Train);
        options.flash_attention = false;
        options.fused_elementwise = false;
        Result<RooflineReport> predicted = rooflineReport(scenario, options, rooflineMachine(scenario));
        if (predicted) {
            // The profiler summed `measured_steps_` steps; the predicted report is one step.
            points = measuredRooflinePoints(measured_records_, predicted.value());
            for (const MeasuredRooflinePoint &point : points)
                if (point.intensity_flop_per_byte > 0) {
                    low = std::min(low, point.intensity_flop_per_byte / 2);
                    high = std::max(high, point.intensity_flop_per_byte * 2);
                }
        } else {
            inputs << QString::fromStdString(formatProblems(predicted.problems())).trimmed().toHtmlEscaped();
        }
    }
    const QPalette palette = machine_chart_->palette();
    if (cpu_) {
        const RooflineMachine all = rooflineMachine(*cpu_, true);
        const RooflineMachine one = rooflineMachine(*cpu_, false);
        if (all.valid()) {
            ChartSeries line = roofSeries(all, low, high, tr("All %1 threads").arg(cpu_->threads_used));
            line.color = chartSeriesColor(0, palette);
            chart.series << line;
        }
        if (one.valid()) {
            ChartSeries line = roofSeries(one, low, high, tr("One core"));
            line.color = chartSeriesColor(1, palette);
            line.dashed = true;
            chart.series << line;
        }
        inputs << tr("%1: peak %2 (one core %3), bandwidth %4 (one core %5), ridge %6")
                      .arg(QString::fromStdString(cpu_->cpu_model).toHtmlEscaped(),
                           format::si(cpu_->peak_flops_per_s_all_cores, tr("FLOP/s")),
                           format::si(cpu_->peak_flops_per_s_one_core, tr("FLOP/s")),
                           format::si(cpu_->bandwidth_bytes_per_s_all_cores, QStringLiteral("B/s")),
                           format::si(cpu_->bandwidth_bytes_per_s_one_core, QStringLiteral("B/s")),
                           intensityText(cpu_->ridge_point_flop_per_byte()));
    }
    ChartSeries forward, backward;
    forward.name = tr("Measured forward operators");
    forward.kind = ChartSeries::Kind::Marker;
    forward.color = QColor(0x00, 0x9E, 0x73);  // Okabe–Ito bluish green
    backward.name = tr("Measured backward operators");
    backward.kind = ChartSeries::Kind::Marker;
    backward.color = QColor(0xCC, 0x79, 0xA7);  // Okabe–Ito reddish purple
    std::vector<LabelCandidate> candidates;  // the operators that took longest get labels
    const double peak = cpu_ ? cpu_->peak_flops_per_s_all_cores : 0;
    for (const MeasuredRooflinePoint &point : points) {
        if (!(point.intensity_flop_per_byte > 0) || !(point.achieved_flops_per_second > 0))
            continue;
        ChartSeries &series = point.pass == OpPass::Forward ? forward : backward;
        series.x << point.intensity_flop_per_byte;
        series.y << point.achieved_flops_per_second;
        candidates.push_back({point.intensity_flop_per_byte, point.achieved_flops_per_second, point.seconds,
                              tr("%1 (%2)").arg(QString::fromStdString(point.name), passName(point.pass))});
        QString tip = tr("<b>%1</b> (%2)<br>FLOPs %3, bytes %4 over %5 steps<br>intensity %6<br>time %7 → achieved "
                         "%8")
                          .arg(QString::fromStdString(point.name).toHtmlEscaped(), passName(point.pass),
                               format::si(point.flops, tr("FLOP")), format::bytes(point.bytes),
                               format::integer(measured_steps_), intensityText(point.intensity_flop_per_byte),
                               format::si(point.seconds, QStringLiteral("s")),
                               format::si(point.achieved_flops_per_second, tr("FLOP/s")));
        if (peak > 0)
            tip += reference::exceedsMeasuredPeak(point.achieved_flops_per_second / peak)
                       ? tr("<br>above the measured peak: re-measure this machine")
                       : tr("<br>%1 of the measured peak").arg(format::percent(point.achieved_flops_per_second / peak));
        series.point_tooltips << tip;
    }
    chart.texts = sparseLabels(candidates, kLabelledOps, low, high);
    if (!forward.x.isEmpty())
        chart.series << forward;
    if (!backward.x.isEmpty())
        chart.series << backward;
    if (measured_config_ && !points.empty())
        inputs << tr("reference preset '%1': %2 layers, d_model %3, batch %4 × %5 tokens, fp32, %6 measured steps after "
                     "one warm-up step")
                      .arg(QString::fromStdString(measured_config_->model.name).toHtmlEscaped())
                      .arg(measured_config_->model.n_layers)
                      .arg(measured_config_->model.d_model)
                      .arg(measured_config_->batch_size)
                      .arg(measured_config_->model.max_seq_len)
                      .arg(measured_steps_);
    chart.title = points.empty() ? tr("This machine's roofline (press \"Measure reference ops\" for operator points)")
                                 : tr("This machine: reference transformer operators at their achieved FLOP/s");
    chart.formula.inputs = inputs.join(QStringLiteral("<br>"));
    return chart;
}

void RooflinePage::startMachineMeasurement()
{
    if (worker_)
        return;
    cancel_ = false;
    measure_error_.clear();
    progress_->setRange(0, 1);
    progress_->setValue(0);
    machine_status_->setText(tr("Measuring this machine…"));
    MachineMeasureOptions options = machine_options_;
    options.cancel = &cancel_;
    worker_ = QThread::create([this, options] {
        Problems problems;
        auto measured = std::make_shared<MachineRoofline>(machineRoofline(
            true,
            [this](std::string_view stage, int index, int count) {
                const QString text = QString::fromUtf8(stage.data(), qsizetype(stage.size()));
                QMetaObject::invokeMethod(
                    this,
                    [this, text, index, count] {
                        progress_->setRange(0, count);
                        progress_->setValue(index);
                        machine_status_->setText(tr("Measuring this machine (%1 of %2): %3")
                                                     .arg(index + 1)
                                                     .arg(count)
                                                     .arg(text));
                    },
                    Qt::QueuedConnection);
            },
            &problems, options));
        const bool cancelled = measurementCancelled(options);
        const QString save_problem = problems.empty() ? QString()
                                                      : QString::fromStdString(formatProblems(problems)).trimmed();
        QMetaObject::invokeMethod(
            this,
            [this, measured, save_problem, cancelled] {
                if (cancelled) {
                    measure_error_ = tr("cancelled");  // the previous measurement (if any) stays
                    progress_->setRange(0, 1);
                    progress_->setValue(0);
                } else {
                    cpu_ = *measured;
                    cpu_missing_reason_.clear();
                    measure_error_ = save_problem;
                    progress_->setRange(0, 1);
                    progress_->setValue(1);
                }
                finishWorker();
            },
            Qt::QueuedConnection);
    });
    worker_->start(QThread::LowPriority);
    refreshMachineChart();
}

void RooflinePage::startReferenceRun()
{
    if (worker_)
        return;
    cancel_ = false;
    measure_error_.clear();
    progress_->setRange(0, reference_steps_ + 1);
    progress_->setValue(0);
    machine_status_->setText(tr("Training the tiny reference transformer with the op profiler on…"));
    worker_ = QThread::create([this, steps = reference_steps_, threads = reference_threads_] {
        auto run = std::make_shared<ReferenceOpsRun>(runReferenceOps(steps, threads, cancel_, [this](int done, int total) {
            QMetaObject::invokeMethod(
                this,
                [this, done, total] {
                    progress_->setRange(0, total);
                    progress_->setValue(done);
                },
                Qt::QueuedConnection);
        }));
        QMetaObject::invokeMethod(
            this,
            [this, run] {
                if (run->error.isEmpty()) {
                    measured_config_ = run->config;
                    measured_records_ = run->records;
                    measured_steps_ = run->measured_steps;
                } else {
                    measure_error_ = cancel_ ? tr("cancelled") : run->error;
                }
                finishWorker();
            },
            Qt::QueuedConnection);
    });
    worker_->start(QThread::LowPriority);
    refreshMachineChart();
}

void RooflinePage::finishWorker()
{
    if (worker_) {
        worker_->wait();
        worker_->deleteLater();
        worker_ = nullptr;
    }
    refresh();  // the CPU may now appear in the overlay too
    emit workerFinished();
}

}  // namespace lse::gui
