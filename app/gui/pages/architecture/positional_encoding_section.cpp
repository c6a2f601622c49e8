// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/architecture/positional_encoding_section.h"

#include "architecture/positional_encodings.h"
#include "charts/chart_view.h"
#include "pages/page_format.h"

#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace lse::gui {

namespace {

constexpr int kMaxHeatMapDimensions = 64;  // columns of the heat map; wider models are sampled
constexpr int kMaxDModel = 65536;
constexpr int kSectionChartMinimumHeight = 400;  // four charts in one scrolling column

// Blue (−1) – white (0) – red (+1).
QColor divergingColor(double value)
{
    const double t = std::clamp(value, -1.0, 1.0);
    const int fade = int(std::round(255 * (1 - std::abs(t))));
    return t >= 0 ? QColor(255, fade, fade) : QColor(fade, fade, 255);
}

}  // namespace

PositionalEncodingSection::PositionalEncodingSection(QWidget *parent) : PageSection(parent)
{
    QWidget *content = addScrollingContent(this);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(8);
    intro_ = new QLabel(content);
    intro_->setWordWrap(true);
    layout->addWidget(intro_);

    // Two rows of label/box pairs: one row would not fit a 1024-pixel window beside the editor.
    auto *controls = new QGridLayout;
    int slot = 0;
    auto place = [&](QLabel *label, QWidget *box) {
        controls->addWidget(label, slot / 3, 2 * (slot % 3));
        controls->addWidget(box, slot / 3, 2 * (slot % 3) + 1);
        ++slot;
    };
    auto spin = [&](QLabel *&label, QSpinBox *&box, int low, int high, int value) {
        label = new QLabel(content);
        box = new QSpinBox(content);
        box->setRange(low, high);
        box->setValue(value);
        place(label, box);
        connect(box, &QSpinBox::valueChanged, this, [this] {
            if (!updating_)
                refresh();
        });
    };
    spin(d_label_, d_spin_, 2, kMaxDModel, 512);
    d_spin_->setSingleStep(2);
    spin(head_dim_label_, head_dim_spin_, 2, 1024, 64);
    head_dim_spin_->setSingleStep(2);
    spin(heads_label_, heads_spin_, 1, 256, 8);
    spin(positions_label_, positions_spin_, 2, 128, 64);
    base_label_ = new QLabel(content);
    base_spin_ = new QDoubleSpinBox(content);
    base_spin_->setRange(2, 1e7);
    base_spin_->setDecimals(0);
    base_spin_->setValue(10000);
    place(base_label_, base_spin_);
    controls->setColumnStretch(6, 1);
    connect(base_spin_, &QDoubleSpinBox::valueChanged, this, [this] {
        if (!updating_)
            refresh();
    });
    layout->addLayout(controls);

    sinusoidal_chart_ = new ChartView(QStringLiteral("sinusoidal-encoding"), content);
    rope_frequency_chart_ = new ChartView(QStringLiteral("rope-frequencies"), content);
    rope_angle_chart_ = new ChartView(QStringLiteral("rope-angles"), content);
    alibi_chart_ = new ChartView(QStringLiteral("alibi-biases"), content);
    for (ChartView *chart : charts())
        layout->addWidget(chart, 1);
    setPresentation(false);
    retranslateControls();
    refresh();
    bindLessonControls();
}

QString PositionalEncodingSection::title() const { return tr("Positional encodings"); }

QList<ChartView *> PositionalEncodingSection::charts() const
{
    return {sinusoidal_chart_, rope_frequency_chart_, rope_angle_chart_, alibi_chart_};
}

void PositionalEncodingSection::showEstimate(const Scenario &scenario, const Estimate &)
{
    // Follow the scenario's model; the user's edits last until the next scenario change.
    const ModelConfig &model = scenario.model;
    const int d_model = int(std::clamp<std::int64_t>(model.d_model, 2, kMaxDModel));
    const int head_dim = std::clamp(model.head_dim, 2, 1024);
    const int heads = std::clamp(model.n_heads, 1, 256);
    // The charts always show the spins' values (the constructor and the spins' own edits refresh
    // them), so an estimate that leaves all three as they are has nothing new to draw. Most edits
    // (layers, batch, cluster) are such, and the sinusoid heat map alone is thousands of chart items
    // that took ~40 ms to rebuild on every edit of any Architecture tab (bench_gui_footprint).
    if (d_spin_->value() == d_model && head_dim_spin_->value() == head_dim && heads_spin_->value() == heads)
        return;
    updating_ = true;
    d_spin_->setValue(d_model);
    head_dim_spin_->setValue(head_dim);
    heads_spin_->setValue(heads);
    updating_ = false;
    refresh();
}

void PositionalEncodingSection::setPresentation(bool presentation)
{
    PageSection::setPresentation(presentation);
    for (ChartView *chart : charts())
        chart->setMinimumHeight(presentation ? kPresentationChartMinimumHeight : kSectionChartMinimumHeight);
}

void PositionalEncodingSection::retranslate()
{
    retranslateControls();
    refresh();
}

void PositionalEncodingSection::setDModel(int d_model) { d_spin_->setValue(d_model); }
void PositionalEncodingSection::setHeadDim(int head_dim) { head_dim_spin_->setValue(head_dim); }
void PositionalEncodingSection::setHeads(int heads) { heads_spin_->setValue(heads); }
void PositionalEncodingSection::setRopeBase(double base) { base_spin_->setValue(base); }
void PositionalEncodingSection::setPositions(int positions) { positions_spin_->setValue(positions); }

void PositionalEncodingSection::retranslateControls()
{
    intro_->setText(tr("How each family tells attention where a token is. Sinusoids are added to the embeddings "
                       "(fast dimensions first, slow ones last); RoPE rotates each (q, k) dimension pair by an angle "
                       "proportional to the position, so q·k depends on the distance only; ALiBi subtracts a "
                       "per-head multiple of the distance from the scores. The sizes follow the scenario's model."));
    d_label_->setText(tr("d_model:"));
    head_dim_label_->setText(tr("head_dim:"));
    heads_label_->setText(tr("heads:"));
    positions_label_->setText(tr("positions:"));
    base_label_->setText(tr("RoPE base:"));
}

std::vector<int> PositionalEncodingSection::heatMapDimensions() const
{
    const int d = d_spin_->value();
    const int pairs = d / 2;
    const int shown_pairs = std::min(pairs, kMaxHeatMapDimensions / 2);
    std::vector<int> dims;
    for (int k = 0; k < shown_pairs; ++k) {
        // Evenly spread pairs, the first and the last included.
        const int pair = shown_pairs > 1 ? int(std::lround(double(k) * (pairs - 1) / (shown_pairs - 1))) : 0;
        dims.push_back(2 * pair);
        dims.push_back(2 * pair + 1);
    }
    return dims;
}

std::vector<int> PositionalEncodingSection::anglePairs() const
{
    const int pairs = head_dim_spin_->value() / 2;
    std::vector<int> chosen;
    for (int pair : {0, 1, pairs / 8, pairs / 4, pairs / 2, pairs - 1})
        if (pair >= 0 && pair < pairs && std::find(chosen.begin(), chosen.end(), pair) == chosen.end())
            chosen.push_back(pair);
    std::sort(chosen.begin(), chosen.end());
    return chosen;
}

std::vector<int> PositionalEncodingSection::alibiHeads() const
{
    const int heads = heads_spin_->value();
    std::vector<int> chosen;
    const int shown = std::min(heads, heads <= 16 ? 16 : 8);
    for (int k = 0; k < shown; ++k) {
        const int head = shown > 1 ? int(std::lround(double(k) * (heads - 1) / (shown - 1))) : 0;
        if (chosen.empty() || chosen.back() != head)
            chosen.push_back(head);
    }
    return chosen;
}

void PositionalEncodingSection::refresh()
{
    sinusoidal_chart_->setData(sinusoidalData());
    rope_frequency_chart_->setData(ropeFrequencyData());
    rope_angle_chart_->setData(ropeAngleData());
    alibi_chart_->setData(alibiData());
}

ChartData PositionalEncodingSection::sinusoidalData() const
{
    const int d = d_spin_->value() - d_spin_->value() % 2;
    const int positions = positions_spin_->value();
    const std::vector<int> dims = heatMapDimensions();
    ChartData chart;
    chart.title = dims.size() < std::size_t(d)
        ? tr("Sinusoidal encoding PE(position, dimension), %1 of %2 dimensions (evenly spread pairs)")
              .arg(dims.size())
              .arg(d)
        : tr("Sinusoidal encoding PE(position, dimension)");
    chart.x_label = tr("Position");
    chart.x_unit = QStringLiteral("position");
    chart.y_label = tr("Dimension (blue −1 … red +1)");
    chart.y_unit = QStringLiteral("column");
    chart.formula.inputs = tr("d_model = %1, positions 0–%2").arg(d).arg(positions - 1);
    chart.formula.formula = tr("PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(pos / 10000^(2i/d))");
    chart.formula.source = tr("Vaswani et al. 2017, §3.5");
    for (int column = 0; column < int(dims.size()); ++column) {
        for (int pos = 0; pos < positions; ++pos) {
            const double value = sinusoidalEncoding(pos, dims[std::size_t(column)], d);
            ChartRect cell;
            cell.x0 = pos;
            cell.x1 = pos + 1;
            cell.y0 = column;
            cell.y1 = column + 1;
            cell.color = divergingColor(value);
            cell.tooltip = tr("PE(%1, %2) = %3").arg(pos).arg(dims[std::size_t(column)]).arg(format::decimal(value, 4));
            chart.rects << cell;
        }
    }
    return chart;
}

ChartData PositionalEncodingSection::ropeFrequencyData() const
{
    const int head_dim = head_dim_spin_->value() - head_dim_spin_->value() % 2;
    const double base = base_spin_->value();
    ChartData chart;
    chart.title = tr("RoPE rotation frequency per dimension pair");
    chart.x_label = tr("Dimension pair i");
    chart.x_unit = QStringLiteral("pair");
    chart.y_label = tr("θ_i (radians per position, log scale)");
    chart.y_unit = QStringLiteral("rad/position");
    chart.log_y = true;
    chart.formula.inputs = tr("head_dim = %1, base = %2").arg(head_dim).arg(format::integer(std::int64_t(base)));
    chart.formula.formula = tr("θ_i = base^(−2i/d), i = 0 … d/2 − 1; wavelength 2π/θ_i positions");
    chart.formula.source = tr("Su et al. 2021 (RoFormer), eq. 15");
    ChartSeries series;
    series.name = tr("θ_i");
    const std::vector<double> theta = ropeFrequencies(head_dim, base);
    for (std::size_t i = 0; i < theta.size(); ++i) {
        series.x << double(i);
        series.y << theta[i];
        series.point_tooltips << tr("pair %1: θ = %2 rad/position, one turn every %3 positions")
                                     .arg(i)
                                     .arg(format::scientific(theta[i]))
                                     .arg(format::count(2 * std::numbers::pi / theta[i]));
    }
    chart.series << series;
    return chart;
}

ChartData PositionalEncodingSection::ropeAngleData() const
{
    const int head_dim = head_dim_spin_->value() - head_dim_spin_->value() % 2;
    const double base = base_spin_->value();
    const int positions = positions_spin_->value();
    ChartData chart;
    chart.title = tr("RoPE rotation angle of a few pairs vs position");
    chart.x_label = tr("Position (log scale)");
    chart.x_unit = QStringLiteral("position");
    chart.y_label = tr("Angle pos·θ_i (radians, log scale)");
    chart.y_unit = QStringLiteral("rad");
    // Both logarithmic: every pair is a line of slope 1, shifted by its θ_i; a pair completes its
    // first turn where it crosses 2π (its wavelength).
    chart.log_x = chart.log_y = true;
    chart.reference_lines << ReferenceLine{2 * std::numbers::pi, tr("one full turn (2π)"), QColor()};
    chart.formula.inputs = tr("head_dim = %1, base = %2").arg(head_dim).arg(format::integer(std::int64_t(base)));
    chart.formula.formula = tr("angle = pos · θ_i, θ_i = base^(−2i/d); each pair (x_2i, x_2i+1) is rotated by it");
    chart.formula.source = tr("Su et al. 2021 (RoFormer), eq. 15");
    for (int pair : anglePairs()) {
        ChartSeries series;
        series.name = tr("pair %1").arg(pair);
        for (int pos = 1; pos < positions; ++pos) {
            const double angle = ropeAngle(pos, pair, head_dim, base);
            series.x << pos;
            series.y << angle;
            series.point_tooltips << tr("pair %1, position %2: %3 rad").arg(pair).arg(pos).arg(format::scientific(angle));
        }
        chart.series << series;
    }
    return chart;
}

ChartData PositionalEncodingSection::alibiData() const
{
    const int heads = heads_spin_->value();
    const int positions = positions_spin_->value();
    const std::vector<double> slopes = alibiSlopes(heads);
    ChartData chart;
    chart.title = tr("ALiBi bias per head vs distance");
    chart.x_label = tr("Distance i − j (tokens)");
    chart.x_unit = QStringLiteral("tokens");
    chart.y_label = tr("Bias added to the attention score");
    chart.y_unit = QStringLiteral("logit");
    chart.formula.inputs = tr("%n head(s)", nullptr, heads);
    chart.formula.formula = tr("bias(i, j) = −m_h · (i − j), m_h = 2^(−8h/H) (H a power of two; else the paper's "
                               "interleaving)");
    chart.formula.source = tr("Press et al. 2022 (ALiBi), §3");
    for (int head : alibiHeads()) {
        const double m = slopes[std::size_t(head)];
        ChartSeries series;
        series.name = tr("head %1 (m = %2)").arg(head + 1).arg(QString::number(m, 'g', 3));  // plain text: a legend shows no HTML
        for (int distance = 0; distance < positions; ++distance) {
            series.x << distance;
            series.y << alibiBias(m, distance, 0);
        }
        chart.series << series;
    }
    return chart;
}

void PositionalEncodingSection::bindLessonControls()
{
    intro_->setObjectName(QStringLiteral("positional-intro"));
    lesson_controls_.addInt(QStringLiteral("d_model"), d_spin_);
    lesson_controls_.addInt(QStringLiteral("head_dim"), head_dim_spin_);
    lesson_controls_.addInt(QStringLiteral("heads"), heads_spin_);
    lesson_controls_.addNumber(QStringLiteral("rope_base"), base_spin_);
    lesson_controls_.addInt(QStringLiteral("positions"), positions_spin_);
}

QJsonObject PositionalEncodingSection::lessonSettings() const { return lesson_controls_.settings(); }

bool PositionalEncodingSection::applyLessonSettings(const QJsonObject &settings, QString *error)
{
    return lesson_controls_.apply(settings, error);
}

}  // namespace lse::gui
