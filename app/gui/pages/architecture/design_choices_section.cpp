// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/side_by_side_layout.h"
#include "pages/architecture/design_choices_section.h"
#include "pages/table_fill_batch.h"

#include "charts/chart_view.h"
#include "pages/architecture/design_axis_text.h"
#include "pages/architecture/norm_timing_panel.h"
#include "pages/page_format.h"
#include "pages/table_key_columns.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace lse::gui {

namespace {

// The compared figures, in table and chart order.
struct FigureColumn {
    double DesignFigures::*field;
    bool bytes;  // formatted as bytes, else as a count
};
constexpr FigureColumn kColumns[] = {
    {&DesignFigures::parameters, false},
    {&DesignFigures::forward_flops_per_token, false},
    {&DesignFigures::train_flops_per_token, false},
    {&DesignFigures::activation_bytes_per_layer, true},
    {&DesignFigures::forward_bytes_per_token, true},
    {&DesignFigures::kv_cache_bytes_per_token, true},
};

// Taller than a page's usual minimum: these charts share a scrolling column with a table and text,
// and their legends list every variant.
constexpr int kSectionChartMinimumHeight = 400;

QString changeText(double change)
{
    if (!std::isfinite(change))
        return QStringLiteral("—");
    if (change == 0)
        return QStringLiteral("±0 %");
    // Two significant digits however small: a norm's share of a large model is a few ppm.
    const int decimals = std::clamp(int(std::ceil(-std::log10(std::abs(change) * 100))) + 1, 1, 6);
    return (change > 0 ? QStringLiteral("+") : QString()) + format::percent(change, decimals);
}

QString figureText(const FigureColumn &column, double value)
{
    return column.bytes ? format::bytes(value) : format::count(value);
}

// The whole table without an inner scroll bar: a handful of rows in a scrolling page.
void fitTableHeight(QTableWidget *table)
{
    int height = table->horizontalHeader()->height() + 2 * table->frameWidth();
    for (int row = 0; row < table->rowCount(); ++row)
        height += table->rowHeight(row);
    if (table->horizontalScrollBar()->isVisible() || table->horizontalHeader()->length() > table->viewport()->width())
        height += table->horizontalScrollBar()->sizeHint().height();
    table->setFixedHeight(height);
}

}  // namespace

DesignChoicesSection::DesignChoicesSection(QWidget *parent) : PageSection(parent)
{
    QWidget *content = addScrollingContent(this);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(8);

    intro_ = new QLabel(content);
    intro_->setWordWrap(true);
    layout->addWidget(intro_);
    auto *axis_row = new QHBoxLayout;
    axis_label_ = new QLabel(content);
    axis_box_ = new QComboBox(content);
    for (DesignAxis axis : kDesignAxes)
        axis_box_->addItem(QString(), int(axis));
    axis_row->addWidget(axis_label_);
    axis_row->addWidget(axis_box_);
    axis_row->addStretch(1);
    layout->addLayout(axis_row);
    explanation_ = new QLabel(content);
    explanation_->setWordWrap(true);
    explanation_->setTextFormat(Qt::RichText);
    layout->addWidget(explanation_);
    problems_ = new QLabel(content);
    problems_->setWordWrap(true);
    layout->addWidget(problems_);
    table_ = new QTableWidget(content);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->hide();
    setKeyColumns(table_, {0, 1, 3});  // choice, parameters, training FLOPs per token
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    layout->addWidget(table_);
    parallel_text_ = new QLabel(content);
    parallel_text_->setWordWrap(true);
    layout->addWidget(parallel_text_);
    auto *apply_row = new QHBoxLayout;
    apply_label_ = new QLabel(content);
    apply_box_ = new QComboBox(content);
    apply_button_ = new QPushButton(content);
    apply_row->addWidget(apply_label_);
    apply_row->addWidget(apply_box_);
    apply_row->addWidget(apply_button_);
    apply_row->addStretch(1);
    layout->addLayout(apply_row);
    figures_chart_ = new ChartView(QStringLiteral("design-choice-figures"), content);
    layout->addWidget(figures_chart_, 1);

    decode_box_ = new QWidget(content);
    auto *decode_layout = new QVBoxLayout(decode_box_);
    decode_layout->setContentsMargins(0, 0, 0, 0);
    auto *batch_row = new QHBoxLayout;
    batch_label_ = new QLabel(decode_box_);
    batch_spin_ = new QSpinBox(decode_box_);
    batch_spin_->setRange(1, 4096);
    batch_spin_->setValue(8);
    batch_row->addWidget(batch_label_);
    batch_row->addWidget(batch_spin_);
    batch_row->addStretch(1);
    decode_layout->addLayout(batch_row);
    kv_chart_ = new ChartView(QStringLiteral("kv-cache-vs-context"), decode_box_);
    decode_chart_ = new ChartView(QStringLiteral("decode-time-vs-context"), decode_box_);
    // The cache and the time it costs, both against the context: side by side wherever each gets
    // room for its axes (a lesson step shows them together on a projector).
    auto *decode_pair = new SideBySideLayout;
    decode_pair->setSpacing(8);
    decode_pair->addWidget(kv_chart_);
    decode_pair->addWidget(decode_chart_);
    decode_layout->addLayout(decode_pair);
    layout->addWidget(decode_box_, 2);

    norm_timing_ = new NormTimingPanel(content);
    layout->addWidget(norm_timing_, 1);

    connect(axis_box_, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
    connect(batch_spin_, &QSpinBox::valueChanged, this, [this] { recompute(); });
    connect(apply_button_, &QPushButton::clicked, this, [this] {
        if (apply_box_->currentIndex() >= 0)
            applyVariant(apply_box_->currentData().toInt());
    });
    setPresentation(false);
    retranslateControls();
    recompute();
    bindLessonControls();
}

QString DesignChoicesSection::title() const { return tr("Choice by choice"); }

QList<ChartView *> DesignChoicesSection::charts() const
{
    return {figures_chart_, kv_chart_, decode_chart_, norm_timing_->chart()};
}

void DesignChoicesSection::showEstimate(const Scenario &scenario, const Estimate &)
{
    scenario_ = scenario;
    has_estimate_ = true;
    norm_timing_->setRequest(normTimingRequestFor(scenario));
    const Result<NormShare> share = normShareOfLayer(scenario);
    norm_timing_->setShare(share ? std::optional<NormShare>(share.value()) : std::nullopt);
    recompute();
}

void DesignChoicesSection::setPresentation(bool presentation)
{
    PageSection::setPresentation(presentation);
    for (ChartView *chart : charts())
        chart->setMinimumHeight(presentation ? kPresentationChartMinimumHeight : kSectionChartMinimumHeight);
}

void DesignChoicesSection::retranslate()
{
    retranslateControls();
    norm_timing_->retranslate();
    refresh();
}

void DesignChoicesSection::changeEvent(QEvent *event)
{
    PageSection::changeEvent(event);
    // Presentation mode and themes change the font after the table was filled: refit its height.
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) {
        table_->resizeRowsToContents();
        fitTableHeight(table_);
    }
}

void DesignChoicesSection::showEvent(QShowEvent *event)
{
    PageSection::showEvent(event);
    table_->resizeRowsToContents();
    fitTableHeight(table_);
}

void DesignChoicesSection::setAxis(DesignAxis axis)
{
    axis_box_->setCurrentIndex(axis_box_->findData(int(axis)));
}

DesignAxis DesignChoicesSection::axis() const
{
    return DesignAxis(axis_box_->currentData().toInt());
}

void DesignChoicesSection::setDecodeBatch(int batch) { batch_spin_->setValue(batch); }

bool DesignChoicesSection::applyVariant(int index)
{
    if (!comparison_ || index < 0 || index >= int(comparison_->variants.size()))
        return false;
    const DesignVariant &variant = comparison_->variants[std::size_t(index)];
    if (variant.is_scenario || !variant.problems.empty())
        return false;
    Scenario changed = scenario_;
    changed.model = variant.model;
    emit scenarioEditRequested(changed, tr("Apply %1").arg(DesignAxisText::variantLabel(axis(), variant.model)));
    return true;
}

void DesignChoicesSection::retranslateControls()
{
    intro_->setText(tr("The scenario against the same scenario with one design choice changed, everything else "
                       "equal, through the cost engine: parameters, FLOPs per token (all operators of the operator "
                       "list; training = forward + backward ≈ 3× forward), saved activation bytes per layer (the "
                       "memory estimate's figure) and bytes moved per token (Σ bytes read + written of the forward "
                       "operator list)."));
    axis_label_->setText(tr("Design axis:"));
    for (int i = 0; i < axis_box_->count(); ++i)
        axis_box_->setItemText(i, DesignAxisText::name(DesignAxis(axis_box_->itemData(i).toInt())));
    apply_label_->setText(tr("Alternative:"));
    apply_button_->setText(tr("Apply this choice to the scenario"));
    batch_label_->setText(tr("Decode batch (sequences):"));
}

void DesignChoicesSection::recompute()
{
    comparison_.reset();
    comparison_problems_.clear();
    decode_curves_.clear();
    if (has_estimate_) {
        Result<DesignComparison> result = compareDesignChoice(scenario_, axis());
        if (result)
            comparison_ = result.value();
        else
            comparison_problems_ = result.problems();
        // Computed for every axis: the charts export whichever tab or axis is showing.
        decode_curves_ = attentionDecodeCurves(scenario_, batch_spin_->value(), decodeContexts());
    }
    refresh();
}

std::vector<std::int64_t> DesignChoicesSection::decodeContexts() const
{
    // Powers of two from 128 to the model's context (at least 2 points).
    const std::int64_t top = std::max<std::int64_t>(256, scenario_.model.max_seq_len);
    std::vector<std::int64_t> contexts;
    for (std::int64_t c = 128; c < top; c *= 2)
        contexts.push_back(c);
    contexts.push_back(top);
    return contexts;
}

void DesignChoicesSection::refresh()
{
    const DesignAxis current = axis();
    explanation_->setText(DesignAxisText::explanation(current));
    problems_->setText(comparison_problems_.empty()
                           ? QString()
                           : tr("The scenario cannot be estimated: %1")
                                 .arg(format::fromStd(formatProblems(comparison_problems_)).trimmed()));
    problems_->setVisible(!comparison_problems_.empty() || !has_estimate_);
    if (!has_estimate_)
        problems_->setText(tr("No valid scenario yet."));
    fillTable();
    fillApplyChoices();
    parallel_text_->setText(parallelBlockText());
    parallel_text_->setVisible(current == DesignAxis::Block);
    decode_box_->setVisible(current == DesignAxis::Attention);
    norm_timing_->setVisible(current == DesignAxis::NormType);
    figures_chart_->setData(figuresData());
    kv_chart_->setData(kvData());
    decode_chart_->setData(decodeData());
}

void DesignChoicesSection::fillTable()
{
    QStringList headers{tr("Choice"), tr("Parameters"), tr("Forward FLOPs / token"), tr("Training FLOPs / token"),
                        tr("Activations / layer"), tr("Bytes moved / token"), tr("KV cache / token")};
    table_->setColumnCount(int(headers.size()));
    table_->setHorizontalHeaderLabels(headers);
    if (!comparison_) {
        table_->setRowCount(0);
        return;
    }
    const DesignAxis current = axis();
    table_->clearSpans();
    table_->setRowCount(int(comparison_->variants.size()));
    TableFillBatch batch(table_);
    for (int row = 0; row < int(comparison_->variants.size()); ++row) {
        const DesignVariant &v = comparison_->variants[std::size_t(row)];
        QString label = DesignAxisText::variantLabel(current, v.model);
        if (v.is_scenario)
            label = tr("%1 (scenario)").arg(label);
        auto *name = new QTableWidgetItem(label);
        if (v.is_scenario) {
            QFont bold = name->font();
            bold.setBold(true);
            name->setFont(bold);
        }
        table_->setItem(row, 0, name);
        if (!v.problems.empty()) {
            const QString why = format::fromStd(v.problems.front().message);
            auto *item = new QTableWidgetItem(tr("not valid on this layout: %1").arg(why));
            item->setToolTip(format::fromStd(formatProblems(v.problems)));
            table_->setItem(row, 1, item);
            table_->setSpan(row, 1, 1, int(std::size(kColumns)));
            continue;
        }
        for (int c = 0; c < int(std::size(kColumns)); ++c) {
            const FigureColumn &column = kColumns[c];
            const double value = v.figures.*(column.field);
            QString text = figureText(column, value);
            if (!v.is_scenario)
                text += QStringLiteral(" (%1)").arg(changeText(v.change.*(column.field)));
            table_->setItem(row, c + 1, new QTableWidgetItem(text));
        }
    }
    batch.finish();
    table_->resizeRowsToContents();
    fitTableHeight(table_);
}

void DesignChoicesSection::fillApplyChoices()
{
    apply_box_->clear();
    if (comparison_) {
        for (int i = 0; i < int(comparison_->variants.size()); ++i) {
            const DesignVariant &v = comparison_->variants[std::size_t(i)];
            if (!v.is_scenario && v.problems.empty())
                apply_box_->addItem(DesignAxisText::variantLabel(axis(), v.model), i);
        }
    }
    apply_button_->setEnabled(apply_box_->count() > 0);
}

QString DesignChoicesSection::parallelBlockText() const
{
    if (!has_estimate_)
        return QString();
    const ParallelBlockSavings s = parallelBlockSavings(scenario_.model);
    QStringList removed, added;
    for (std::string_view name : s.removed_ops)
        removed << format::fromStd(name);
    for (std::string_view name : s.added_ops)
        added << format::fromStd(name);
    return tr("Parallel block, per layer: norms on the critical path %1 → %2 (both norms read the block input, "
              "which is kept once); operators that go away: %3; new: %4 (x + attention + MLP in one pass). "
              "Matmuls on the critical path %5 → %6: the MLP up-projection joins QKV in one fused matmul of %7 "
              "columns and the MLP runs beside attention. The cost: the MLP no longer sees the attention output "
              "of its own layer.")
        .arg(s.sequential_norms_serial)
        .arg(s.sequential_norms_parallel)
        .arg(removed.isEmpty() ? tr("none") : removed.join(QStringLiteral(", ")),
             added.isEmpty() ? tr("none") : added.join(QStringLiteral(", ")))
        .arg(s.sequential_matmuls_serial)
        .arg(s.sequential_matmuls_parallel)
        .arg(format::integer(std::int64_t(s.fused_input_projection_width)));
}

ChartData DesignChoicesSection::figuresData() const
{
    ChartData chart;
    chart.title = tr("%1: relative to the scenario").arg(DesignAxisText::name(axis()));
    chart.y_label = tr("% of the scenario's figure");
    chart.y_unit = QStringLiteral("%");
    chart.categories = {tr("params"), tr("fwd FLOPs"), tr("train FLOPs"), tr("act./layer"), tr("bytes moved"),
                        tr("KV cache")};
    chart.x_label = tr("per token, except parameters and activations per layer");
    chart.formula.formula = tr("100 % · variant / scenario, everything but the chosen axis equal");
    chart.formula.source = tr("cost engine estimate() (Korthikanti et al. 2022 Table 2 for activations; vLLM §3 "
                              "for the KV cache) and the operator list (core/ops/operator_list.cpp)");
    if (!comparison_)
        return chart;
    chart.formula.inputs = tr("scenario: %1 parameters, %2 training FLOPs/token")
                               .arg(format::count(comparison_->scenario.parameters),
                                    format::count(comparison_->scenario.train_flops_per_token));

    chart.reference_lines << ReferenceLine{100, tr("scenario"), QColor()};
    for (const DesignVariant &v : comparison_->variants) {
        if (!v.problems.empty())
            continue;
        ChartSeries series;
        series.kind = ChartSeries::Kind::Bar;
        series.name = DesignAxisText::variantLabel(axis(), v.model);
        for (int c = 0; c < int(std::size(kColumns)); ++c) {
            const FigureColumn &column = kColumns[c];
            const double base = comparison_->scenario.*(column.field);
            const double value = v.figures.*(column.field);
            series.x << c;
            series.y << (base > 0 ? 100.0 * value / base : 0.0);
            series.point_tooltips << tr("%1 — %2: %3 (%4)")
                                         .arg(series.name, chart.categories[c], figureText(column, value),
                                              v.is_scenario ? tr("scenario") : changeText(v.change.*(column.field)));
        }
        chart.series << series;
    }
    return chart;
}

ChartData DesignChoicesSection::kvData() const
{
    ChartData chart;
    chart.title = tr("KV cache of the decode batch vs context");
    chart.x_label = tr("Context (tokens in the KV cache, log scale)");
    chart.x_unit = QStringLiteral("tokens");
    chart.y_label = tr("KV cache (bytes, log scale)");
    chart.y_unit = QStringLiteral("bytes");
    chart.log_x = chart.log_y = true;
    chart.formula.formula = tr("KV cache = batch · context · 2·L·n_kv_heads·head_dim·bytes");
    chart.formula.source = tr("Kwon et al. 2023 (vLLM) §3; Shazeer 2019; Ainslie et al. 2023");
    chart.formula.inputs = tr("batch %1").arg(batch_spin_->value());
    for (const DecodeCurve &curve : decode_curves_) {
        ChartSeries series;
        series.name = tr("%1: %2 per token")
                          .arg(DesignAxisText::variantLabel(DesignAxis::Attention, curve.model),
                               format::bytes(curve.kv_cache_bytes_per_token));
        for (const DecodePoint &p : curve.points) {
            series.x << double(p.context_tokens);
            series.y << p.kv_cache_bytes;
            series.point_tooltips << tr("context %1: %2").arg(format::integer(p.context_tokens), format::bytes(p.kv_cache_bytes));
        }
        chart.series << series;
    }
    return chart;
}

ChartData DesignChoicesSection::decodeData() const
{
    ChartData chart;
    chart.title = tr("Decode time per token vs context on %1").arg(format::fromStd(scenario_.cluster.accelerator.name));
    chart.x_label = tr("Context (tokens in the KV cache, log scale)");
    chart.x_unit = QStringLiteral("tokens");
    chart.y_label = tr("Time per decode step (ms; one token per sequence)");
    chart.y_unit = QStringLiteral("ms");
    chart.log_x = true;
    chart.formula.formula = tr("step time = Σ over the decode operators of max(FLOPs / peak, bytes / bandwidth)");
    chart.formula.source = tr("roofline (Williams et al. 2009) over the operator list, decode phase (vLLM §3)");
    chart.formula.inputs = tr("batch %1, one accelerator, no tensor/pipeline split").arg(batch_spin_->value());
    for (const DecodeCurve &curve : decode_curves_) {
        ChartSeries series;
        series.name = DesignAxisText::variantLabel(DesignAxis::Attention, curve.model);
        if (!curve.problems.empty())
            series.name += tr(" (%1)").arg(format::fromStd(curve.problems.front().message));
        for (const DecodePoint &p : curve.points) {
            series.x << double(p.context_tokens);
            series.y << p.seconds_per_token * 1e3;
            series.point_tooltips << tr("context %1: %2 ms per step, %3 tokens/s")
                                         .arg(format::integer(p.context_tokens),
                                              format::decimal(p.seconds_per_token * 1e3, 3),
                                              format::count(p.tokens_per_second));
        }
        chart.series << series;
    }
    return chart;
}

void DesignChoicesSection::bindLessonControls()
{
    intro_->setObjectName(QStringLiteral("choices-intro"));
    explanation_->setObjectName(QStringLiteral("axis-explanation"));
    problems_->setObjectName(QStringLiteral("axis-problems"));
    table_->setObjectName(QStringLiteral("axis-table"));
    parallel_text_->setObjectName(QStringLiteral("parallel-text"));
    decode_box_->setObjectName(QStringLiteral("decode-box"));
    // Item order of axis_box_ is kDesignAxes.
    lesson_controls_.addChoice(QStringLiteral("axis"), axis_box_,
                               {QStringLiteral("norm_type"), QStringLiteral("norm_placement"),
                                QStringLiteral("activation"), QStringLiteral("block"),
                                QStringLiteral("positional_encoding"), QStringLiteral("attention"),
                                QStringLiteral("ffn_ratio"), QStringLiteral("embeddings")});
    lesson_controls_.addInt(QStringLiteral("decode_batch"), batch_spin_);
}

QJsonObject DesignChoicesSection::lessonSettings() const { return lesson_controls_.settings(); }

bool DesignChoicesSection::applyLessonSettings(const QJsonObject &settings, QString *error)
{
    return lesson_controls_.apply(settings, error);
}

}  // namespace lse::gui
