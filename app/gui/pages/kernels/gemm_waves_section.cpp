// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/kernels/gemm_waves_section.h"

#include "charts/chart_palette.h"
#include "charts/chart_view.h"
#include "enum_labels.h"
#include "hardware/hardware_catalog.h"
#include "pages/kernels/gemm_tile_grid.h"
#include "pages/page_format.h"
#include "pages/side_by_side_layout.h"
#include "qcustomplot.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace lse::gui {

namespace {

constexpr DType kDTypes[] = {DType::FP32, DType::TF32, DType::BF16, DType::FP16, DType::FP8};
const QStringList kDTypeKeys{QStringLiteral("fp32"), QStringLiteral("tf32"), QStringLiteral("bf16"),
                             QStringLiteral("fp16"), QStringLiteral("fp8")};
const QStringList kFigureKeys{QStringLiteral("accelerator"),      QStringLiteral("tile"),
                              QStringLiteral("tiles"),            QStringLiteral("waves"),
                              QStringLiteral("last_wave"),        QStringLiteral("tile_efficiency"),
                              QStringLiteral("wave_efficiency"),  QStringLiteral("depth_efficiency"),
                              QStringLiteral("total_efficiency"), QStringLiteral("time"),
                              QStringLiteral("achieved"),         QStringLiteral("peak")};

QString source()
{
    return GemmWavesSection::tr("NVIDIA Deep Learning Performance Guide, \"Matrix Multiplication Background\" (tile and "
                                "wave quantisation); core/performance/kernel_time (gemmTiling, gemmEfficiency, "
                                "gemmTime)");
}

QString tflops(double flops_per_second) { return format::decimal(flops_per_second / 1e12, 1) + QStringLiteral(" TFLOP/s"); }

Accelerator defaultAccelerator()
{
    const Accelerator *h100 = builtinHardwareCatalog().find("h100-sxm");
    return h100 ? *h100 : Accelerator{};
}

}  // namespace

GemmWavesSection::GemmWavesSection(QWidget *parent) : PageSection(parent), accelerator_(defaultAccelerator())
{
    QWidget *content = addScrollingContent(this);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(8);
    intro_ = new QLabel(content);
    intro_->setWordWrap(true);
    layout->addWidget(intro_);

    auto *inputs = new QHBoxLayout;
    const auto spin = [&](QLabel *&label, QSpinBox *&box, int value) {
        label = new QLabel(content);
        box = new QSpinBox(content);
        box->setRange(1, int(kernels::kMaxGemmDimension));
        box->setValue(value);
        box->setGroupSeparatorShown(true);
        inputs->addWidget(label);
        inputs->addWidget(box);
        connect(box, &QSpinBox::valueChanged, this, [this] { recompute(); });
    };
    // The NVIDIA guide's figures use M = K = 8192-class products; 4096 × 4096 × 4096 on an H100 is
    // 32 × 32 tiles = 1024 tiles in 8 waves of 132, the last one partial.
    spin(m_label_, m_spin_, 4096);
    spin(n_label_, n_spin_, 4096);
    spin(k_label_, k_spin_, 4096);
    dtype_label_ = new QLabel(content);
    dtype_box_ = new QComboBox(content);
    for (DType dtype : kDTypes)
        dtype_box_->addItem(displayName(dtype));
    dtype_box_->setCurrentIndex(2);  // bf16
    inputs->addWidget(dtype_label_);
    inputs->addWidget(dtype_box_);
    inputs->addStretch(1);
    connect(dtype_box_, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
    layout->addLayout(inputs);
    accelerator_label_ = new QLabel(content);
    accelerator_label_->setWordWrap(true);
    layout->addWidget(accelerator_label_);
    message_label_ = new QLabel(content);
    message_label_->setWordWrap(true);
    message_label_->setObjectName(QStringLiteral("gemm-waves-message"));
    layout->addWidget(message_label_);

    picture_row_ = new SideBySideLayout;
    picture_row_->setStretch(3, 2);
    picture_row_->setSideBySideMinimumWidths(320, 300);
    grid_ = new GemmTileGrid(content);
    picture_row_->addWidget(grid_);
    auto *figures_widget = new QWidget(content);
    figures_widget->setObjectName(QStringLiteral("gemm-waves-figures"));
    figures_ = new QGridLayout(figures_widget);
    figures_->setContentsMargins(0, 0, 0, 0);
    figures_->setVerticalSpacing(3);
    for (const QString &key : kFigureKeys)
        addFigure(key);
    figures_->setRowStretch(int(kFigureKeys.size()), 1);
    figures_->setColumnStretch(1, 1);
    picture_row_->addWidget(figures_widget);
    layout->addLayout(picture_row_);

    sweep_chart_ = new ChartView(QStringLiteral("gemm-waves-sawtooth"), content);
    sweep_chart_->setObjectName(QStringLiteral("gemm-waves-sawtooth"));
    layout->addWidget(sweep_chart_);
    // A click on the saw-tooth picks that N (the hover tooltip says which point is under the mouse).
    connect(sweep_chart_->plot(), &QCustomPlot::mousePress, this, [this](QMouseEvent *event) {
        if (event->button() == Qt::LeftButton && sweep_chart_->plot()->axisRect()->rect().contains(event->position().toPoint()))
            pickN(sweep_chart_->plot()->xAxis->pixelToCoord(event->position().x()));
    });
    sources_ = new QLabel(content);
    sources_->setWordWrap(true);
    sources_->setTextFormat(Qt::RichText);
    sources_->setObjectName(QStringLiteral("gemm-waves-sources"));
    layout->addWidget(sources_);
    layout->addStretch(1);

    intro_->setObjectName(QStringLiteral("gemm-waves-intro"));
    lesson_controls_.addInt(QStringLiteral("m"), m_spin_);
    lesson_controls_.addInt(QStringLiteral("n"), n_spin_);
    lesson_controls_.addInt(QStringLiteral("k"), k_spin_);
    lesson_controls_.addChoice(QStringLiteral("dtype"), dtype_box_, kDTypeKeys);

    setPresentation(false);
    retranslate();  // also computes
}

QString GemmWavesSection::title() const { return tr("GEMM tiles and waves"); }

QList<ChartView *> GemmWavesSection::charts() const { return {sweep_chart_}; }

void GemmWavesSection::addFigure(const QString &key)
{
    const int row = int(figure_names_.size());
    auto *name = new QLabel(this);
    auto *value = new QLabel(this);
    value->setObjectName(QStringLiteral("gemm-waves-") + key);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    value->setWordWrap(true);
    figures_->addWidget(name, row, 0, Qt::AlignTop);
    figures_->addWidget(value, row, 1, Qt::AlignTop);
    figure_names_[key] = name;
    figure_values_[key] = value;
}

void GemmWavesSection::showEstimate(const Scenario &scenario, const Estimate &)
{
    accelerator_ = scenario.cluster.accelerator;
    recompute();
}

void GemmWavesSection::setPresentation(bool presentation)
{
    PageSection::setPresentation(presentation);
    grid_->setPresentation(presentation);
    sweep_chart_->setMinimumHeight(presentation ? kPresentationChartMinimumHeight : kChartMinimumHeight + 40);
}

void GemmWavesSection::setProblem(const kernels::GemmProblem &problem)
{
    const QSignalBlocker bm(m_spin_), bn(n_spin_), bk(k_spin_), bd(dtype_box_);
    m_spin_->setValue(int(std::clamp<std::int64_t>(problem.m, 1, kernels::kMaxGemmDimension)));
    n_spin_->setValue(int(std::clamp<std::int64_t>(problem.n, 1, kernels::kMaxGemmDimension)));
    k_spin_->setValue(int(std::clamp<std::int64_t>(problem.k, 1, kernels::kMaxGemmDimension)));
    for (int i = 0; i < int(std::size(kDTypes)); ++i)
        if (kDTypes[i] == problem.dtype)
            dtype_box_->setCurrentIndex(i);
    recompute();
}

kernels::GemmProblem GemmWavesSection::problem() const
{
    kernels::GemmProblem problem;
    problem.m = m_spin_->value();
    problem.n = n_spin_->value();
    problem.k = k_spin_->value();
    problem.dtype = kDTypes[std::clamp(dtype_box_->currentIndex(), 0, int(std::size(kDTypes)) - 1)];
    return problem;
}

GemmWavesSection::SweepRange GemmWavesSection::sweepRange() const
{
    SweepRange range;
    const std::int64_t n = n_spin_->value();
    range.last = std::min<std::int64_t>(kernels::kMaxGemmDimension, std::max<std::int64_t>(2 * n, 1024));
    // About 600 points, in steps of 8 (a tile edge is a multiple of 16), so each 128-wide tile
    // column shows as a tooth of several points.
    range.step = std::max<std::int64_t>(8, (range.last / 600 + 7) / 8 * 8);
    range.first = range.step;
    return range;
}

void GemmWavesSection::recompute()
{
    const kernels::GemmProblem p = problem();
    const Result<kernels::GemmWaves> waves = kernels::gemmWaves(p, accelerator_);
    problem_text_.clear();
    waves_.reset();
    sweep_.clear();
    if (waves) {
        waves_ = *waves;
        const SweepRange range = sweepRange();
        const Result<std::vector<kernels::GemmSweepPoint>> sweep =
            kernels::gemmWaveSweep(p, range.first, range.last, range.step, accelerator_);
        if (sweep)
            sweep_ = *sweep;
        else
            problem_text_ = formatProblems(sweep.problems());
    } else {
        problem_text_ = formatProblems(waves.problems());
    }
    grid_->setWaves(waves_);
    refreshFigures();
    sweep_chart_->setData(sweepData());
}

QString GemmWavesSection::message() const { return format::fromStd(problem_text_).trimmed(); }

QString GemmWavesSection::figureText(const QString &key) const
{
    const QLabel *label = figure_values_.value(key);
    return label ? label->text() : QString();
}

void GemmWavesSection::pickN(double n)
{
    if (sweep_.empty() || !std::isfinite(n))
        return;
    const auto nearest = std::min_element(sweep_.begin(), sweep_.end(), [n](const auto &a, const auto &b) {
        return std::abs(double(a.n) - n) < std::abs(double(b.n) - n);
    });
    n_spin_->setValue(int(nearest->n));
}

void GemmWavesSection::retranslate()
{
    intro_->setText(
        tr("Why a big matrix product reaches only part of the peak. The GPU cuts C = A·B into thread-block tiles and "
           "runs one tile per SM at a time: a <i>wave</i>. When M or N is not a multiple of the tile, the edge tiles "
           "compute padding (tile quantisation); when the tiles are not a multiple of the SMs, the last wave leaves "
           "SMs idle (wave quantisation). Change N by a few columns and the time jumps: the saw-tooth below. Click it "
           "to pick an N."));
    m_label_->setText(tr("M:"));
    n_label_->setText(tr("N:"));
    k_label_->setText(tr("K:"));
    dtype_label_->setText(tr("Type:"));
    m_spin_->setToolTip(tr("Rows of A and C"));
    n_spin_->setToolTip(tr("Columns of B and C"));
    k_spin_->setToolTip(tr("Columns of A, rows of B: the depth each tile loops over"));
    const QMap<QString, QString> names{
        {QStringLiteral("accelerator"), tr("Accelerator")},
        {QStringLiteral("tile"), tr("Thread-block tile")},
        {QStringLiteral("tiles"), tr("Tiles of C")},
        {QStringLiteral("waves"), tr("Waves")},
        {QStringLiteral("last_wave"), tr("Last wave")},
        {QStringLiteral("tile_efficiency"), tr("Tile quantisation")},
        {QStringLiteral("wave_efficiency"), tr("Wave quantisation")},
        {QStringLiteral("depth_efficiency"), tr("Depth (K) factor")},
        {QStringLiteral("total_efficiency"), tr("Total efficiency")},
        {QStringLiteral("time"), tr("Predicted time")},
        {QStringLiteral("achieved"), tr("Achieved")},
        {QStringLiteral("peak"), tr("Dense peak")}};
    for (auto it = names.begin(); it != names.end(); ++it)
        figure_names_[it.key()]->setText(it.value() + QLatin1Char(':'));
    sources_->setText(tr("<b>Source:</b> %1. Tiles run in row-major order, tile t on SM t mod SMs in wave ⌊t / SMs⌋; "
                         "the efficiencies multiply into the time the step-time model predicts for this product.")
                          .arg(source()));
    recompute();
}

void GemmWavesSection::refreshFigures()
{
    accelerator_label_->setText(tr("On the scenario's accelerator: <b>%1</b>, %2 SMs, %3 dense %4")
                                    .arg(format::fromStd(accelerator_.name).toHtmlEscaped(),
                                         format::integer(accelerator_.sm_count),
                                         tflops(accelerator_.dense_peak.forDType(problem().dtype)),
                                         displayName(problem().dtype)));
    const QString error = message();
    message_label_->setVisible(!error.isEmpty());
    message_label_->setText(error.isEmpty() ? QString()
                                            : QStringLiteral("<span style=\"color:%1\">%2</span>")
                                                  .arg(chartReferenceColor(palette()).name(), error.toHtmlEscaped()));
    const QString dash = QStringLiteral("—");
    QMap<QString, QString> values, tips;
    if (waves_) {
        const kernels::GemmWaves &w = *waves_;
        const kernels::GemmProblem &p = w.problem;
        const QString shape = QStringLiteral("M = %1, N = %2, K = %3").arg(format::integer(p.m), format::integer(p.n), format::integer(p.k));
        values[QStringLiteral("accelerator")] = tr("%1 (%2 SMs)").arg(format::fromStd(accelerator_.name), format::integer(w.sm_count));
        values[QStringLiteral("tile")] = QStringLiteral("%1 × %2").arg(format::integer(w.tile_rows), format::integer(w.tile_columns));
        tips[QStringLiteral("tile")] = tr("The model's thread-block tile, %1 × %2 from the catalog's efficiency factors; a "
                                          "side shrinks to the next power of two ≥ 16 of a skinny dimension")
                                           .arg(accelerator_.efficiency.gemm_tile_rows).arg(accelerator_.efficiency.gemm_tile_columns);
        values[QStringLiteral("tiles")] = QStringLiteral("%1 × %2 = %3")
                                              .arg(format::integer(w.row_tiles), format::integer(w.column_tiles), format::integer(w.tiles));
        tips[QStringLiteral("tiles")] = tr("tiles = ⌈M / tile rows⌉ · ⌈N / tile columns⌉");
        values[QStringLiteral("waves")] = tr("%1 (%2 full)").arg(format::integer(w.waves), format::integer(w.full_waves));
        tips[QStringLiteral("waves")] = tr("waves = ⌈tiles / SMs⌉ = ⌈%1 / %2⌉").arg(format::integer(w.tiles), format::integer(w.sm_count));
        values[QStringLiteral("last_wave")] = tr("%1 of %2 SMs busy, %3 idle")
                                                  .arg(format::integer(w.last_wave_tiles), format::integer(w.sm_count),
                                                       format::integer(w.sm_count - w.last_wave_tiles));
        tips[QStringLiteral("last_wave")] = tr("last wave's tiles = tiles − (waves − 1) · SMs");
        values[QStringLiteral("tile_efficiency")] = format::percent(w.efficiency.tile_quantisation);
        tips[QStringLiteral("tile_efficiency")] = tr("M·N / (⌈M / tile rows⌉·tile rows · ⌈N / tile columns⌉·tile columns): the "
                                                     "share of the computed tiles that lies inside C");
        values[QStringLiteral("wave_efficiency")] = format::percent(w.efficiency.wave_quantisation);
        tips[QStringLiteral("wave_efficiency")] = tr("tiles / (waves · SMs): the share of SM slots that get a tile");
        values[QStringLiteral("depth_efficiency")] = format::percent(w.efficiency.depth);
        tips[QStringLiteral("depth_efficiency")] = tr("K / (K + %1): a tile's fixed prologue and epilogue against its main loop over K")
                                                       .arg(format::decimal(accelerator_.efficiency.gemm_fixed_cost_depth, 0));
        values[QStringLiteral("total_efficiency")] = format::percent(w.efficiency.total);
        tips[QStringLiteral("total_efficiency")] = tr("tile · wave · depth · the catalog's GEMM peak fraction (%1)")
                                                       .arg(format::decimal(accelerator_.efficiency.gemm_peak_fraction, 2));
        values[QStringLiteral("time")] = format::decimal(w.time.seconds * 1e6, 1) + QStringLiteral(" µs")
            + (w.time.memory_bound ? tr(" (memory bound)") : tr(" (compute bound)"));
        tips[QStringLiteral("time")] = tr("max(2·M·N·K / (peak · total efficiency), bytes / (bandwidth · memory efficiency)) "
                                          "+ kernel overhead; 2·M·N·K = %1 FLOP, %2 moved")
                                           .arg(format::si(w.flops, QString()), format::bytes(w.bytes));
        values[QStringLiteral("achieved")] = tr("%1 (%2 of peak)")
                                                 .arg(tflops(w.achieved_flops_per_second),
                                                      format::percent(w.peak_flops_per_second > 0
                                                                          ? w.achieved_flops_per_second / w.peak_flops_per_second
                                                                          : 0));
        tips[QStringLiteral("achieved")] = tr("2·M·N·K / predicted time");
        values[QStringLiteral("peak")] = tflops(w.peak_flops_per_second) + QLatin1Char(' ') + displayName(p.dtype);
        tips[QStringLiteral("peak")] = tr("The catalog's dense %1 peak: %2").arg(displayName(p.dtype), format::firstSource(accelerator_.source));
        for (auto it = tips.begin(); it != tips.end(); ++it)
            it.value() = format::tooltip(figure_names_[it.key()]->text(), shape, it.value(), source());
    }
    for (const QString &key : kFigureKeys) {
        QLabel *label = figure_values_[key];
        label->setText(values.value(key, dash));
        label->setToolTip(tips.value(key));
        figure_names_[key]->setToolTip(tips.value(key));
    }
}

ChartData GemmWavesSection::sweepData() const
{
    ChartData chart;
    const kernels::GemmProblem p = problem();
    chart.title = tr("Achieved TFLOP/s over N (M = %1, K = %2, %3): the wave saw-tooth")
                      .arg(format::integer(p.m), format::integer(p.k), displayName(p.dtype));
    chart.x_label = tr("N (columns of C)");
    chart.y_label = tr("Achieved TFLOP/s");
    chart.x_unit = QStringLiteral("columns");
    chart.y_unit = QStringLiteral("TFLOP/s");
    const SweepRange range = sweepRange();
    chart.formula.inputs = tr("M = %1, K = %2, N from %3 to %4 in steps of %5, %6 (%7 SMs)")
                               .arg(format::integer(p.m), format::integer(p.k), format::integer(range.first),
                                    format::integer(range.last), format::integer(range.step),
                                    format::fromStd(accelerator_.name), format::integer(accelerator_.sm_count));
    chart.formula.formula = tr("achieved = 2·M·N·K / time, time = 2·M·N·K / (peak · tile · wave · depth · peak fraction) "
                               "(or the bytes' time when memory bound) + overhead");
    chart.formula.source = source();
    if (sweep_.empty())
        return chart;
    ChartSeries line;
    line.name = tr("achieved TFLOP/s");
    line.color = chartSeriesColor(0, palette());
    for (const kernels::GemmSweepPoint &point : sweep_) {
        line.x << double(point.n);
        line.y << point.achieved_flops_per_second / 1e12;
    }
    const std::vector<kernels::GemmSweepPoint> points = sweep_;
    line.point_tooltip = [points](qsizetype i) {
        const kernels::GemmSweepPoint &point = points[std::size_t(i)];
        return GemmWavesSection::tr("N = %1: %2 TFLOP/s, %3 waves, tile %4, wave %5")
            .arg(format::integer(point.n), format::decimal(point.achieved_flops_per_second / 1e12, 1),
                 format::integer(point.waves), format::percent(point.tile_quantisation),
                 format::percent(point.wave_quantisation));
    };
    chart.series << line;
    if (waves_) {
        ChartSeries current;
        current.name = tr("this N");
        current.kind = ChartSeries::Kind::Marker;
        current.color = chartReferenceColor(palette());
        current.marker_size = 10;
        current.x << double(waves_->problem.n);
        current.y << waves_->achieved_flops_per_second / 1e12;
        current.point_tooltips << tr("N = %1: %2, %3 waves").arg(format::integer(waves_->problem.n),
                                                                 tflops(waves_->achieved_flops_per_second),
                                                                 format::integer(waves_->waves));
        chart.series << current;
        chart.reference_lines << ReferenceLine{waves_->peak_flops_per_second / 1e12,
                                               tr("dense peak %1").arg(tflops(waves_->peak_flops_per_second)),
                                               chartSeriesColor(7, palette())};
    }
    return chart;
}

QJsonObject GemmWavesSection::lessonSettings() const { return lesson_controls_.settings(); }

bool GemmWavesSection::applyLessonSettings(const QJsonObject &settings, QString *error)
{
    return lesson_controls_.apply(settings, error);
}

}  // namespace lse::gui
