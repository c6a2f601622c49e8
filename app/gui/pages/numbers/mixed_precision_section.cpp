// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/numbers/mixed_precision_section.h"
#include "pages/table_fill_batch.h"

#include "charts/chart_palette.h"
#include "charts/chart_view.h"
#include "enum_labels.h"
#include "pages/page_format.h"
#include "pages/table_key_columns.h"

#include <QGridLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace lse::gui {

namespace {

constexpr int kRecipeCount = 4;  // precisionRecipes(); the scenario's own settings come after them

// The tensors that are model state (one value per parameter), in the chart's stacking order.
const PrecisionTensor kStateTensors[] = {PrecisionTensor::Weights,   PrecisionTensor::MasterWeights,
                                         PrecisionTensor::Gradients, PrecisionTensor::GradientAccumulator,
                                         PrecisionTensor::FirstMoment, PrecisionTensor::SecondMoment};

QString tensorName(PrecisionTensor tensor, Optimizer optimizer)
{
    switch (tensor) {
    case PrecisionTensor::Weights: return MixedPrecisionSection::tr("Weights (working copy)");
    case PrecisionTensor::MatmulOperands: return MixedPrecisionSection::tr("Matmul operands");
    case PrecisionTensor::MasterWeights: return MixedPrecisionSection::tr("Master weights");
    case PrecisionTensor::Gradients: return MixedPrecisionSection::tr("Gradients");
    case PrecisionTensor::GradientAccumulator: return MixedPrecisionSection::tr("Gradient accumulator");
    case PrecisionTensor::FirstMoment:
        return optimizer == Optimizer::Momentum ? MixedPrecisionSection::tr("Momentum")
                                                : MixedPrecisionSection::tr("First moment m");
    case PrecisionTensor::SecondMoment:
        return optimizer == Optimizer::Adafactor ? MixedPrecisionSection::tr("Factored second moment")
                                                 : MixedPrecisionSection::tr("Second moment v");
    case PrecisionTensor::Activations: return MixedPrecisionSection::tr("Saved activations");
    case PrecisionTensor::LossScale: return MixedPrecisionSection::tr("Loss scale");
    case PrecisionTensor::TensorScales: return MixedPrecisionSection::tr("Per-tensor scales (FP8)");
    }
    return {};
}

// Where each row's figure comes from: the memory engine's field and the paper.
QString tensorFormula(PrecisionTensor tensor)
{
    switch (tensor) {
    case PrecisionTensor::Weights:
        return MixedPrecisionSection::tr("bytes per parameter = bytes of weight_dtype (memory engine, modelStateBytes)");
    case PrecisionTensor::MatmulOperands:
        return MixedPrecisionSection::tr("matmul_dtype selects the tensor-core peak; the cast is transient, not model state");
    case PrecisionTensor::MasterWeights:
        return MixedPrecisionSection::tr("4 bytes per parameter when master_weights is on: the optimizer updates an fp32 copy "
                                         "so small updates are not lost to 16-bit rounding");
    case PrecisionTensor::Gradients:
        return MixedPrecisionSection::tr("bytes per parameter = bytes of gradient_dtype");
    case PrecisionTensor::GradientAccumulator:
        return MixedPrecisionSection::tr("4 more bytes per parameter when fp32_gradient_accumulation is on");
    case PrecisionTensor::FirstMoment:
    case PrecisionTensor::SecondMoment:
        return MixedPrecisionSection::tr("optimizer states per parameter (optimizerStateBytesPerParameter): Adam 4 + 4, "
                                         "momentum 4, 8-bit Adam 1 + 1 plus block scales");
    case PrecisionTensor::Activations:
        return MixedPrecisionSection::tr("activation_dtype: bytes per saved element, counted per token on the Memory page");
    case PrecisionTensor::LossScale:
        return MixedPrecisionSection::tr("one fp32 scalar: the loss is multiplied by it before backward and the gradients "
                                         "divided by it before the update");
    case PrecisionTensor::TensorScales:
        return MixedPrecisionSection::tr("one fp32 scale (from the amax history) per FP8 tensor");
    }
    return {};
}

QString tensorSource(PrecisionTensor tensor)
{
    switch (tensor) {
    case PrecisionTensor::MasterWeights:
    case PrecisionTensor::LossScale:
        return MixedPrecisionSection::tr("Micikevicius et al. 2018, Mixed Precision Training, §3.1–3.2");
    case PrecisionTensor::TensorScales:
    case PrecisionTensor::MatmulOperands:
        return MixedPrecisionSection::tr("Micikevicius et al. 2022, FP8 Formats for Deep Learning; NVIDIA Transformer Engine");
    case PrecisionTensor::GradientAccumulator:
        return MixedPrecisionSection::tr("cost-model-notes.md: the 20 bytes per parameter convention");
    case PrecisionTensor::Activations:
        return MixedPrecisionSection::tr("Korthikanti et al. 2022, Table 2");
    default:
        return MixedPrecisionSection::tr("Rajbhandari et al. 2020, ZeRO §3: 2 + 2 + 12 = 16 bytes per parameter for "
                                         "mixed-precision Adam");
    }
}

double stateBytes(const MixedPrecisionBreakdown &breakdown, PrecisionTensor tensor)
{
    double bytes = 0;
    for (const PrecisionTensorRow &row : breakdown.tensors)
        if (row.tensor == tensor && row.per_parameter)
            bytes += row.bytes_per_parameter;
    return bytes;
}

void fitTableHeight(QTableWidget *table)
{
    int height = table->horizontalHeader()->height() + 2 * table->frameWidth();
    for (int row = 0; row < table->rowCount(); ++row)
        height += table->rowHeight(row);
    table->setFixedHeight(height);
}

}  // namespace

MixedPrecisionSection::MixedPrecisionSection(QWidget *parent) : PageSection(parent)
{
    QWidget *content = addScrollingContent(this);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(8);
    intro_ = new QLabel(content);
    intro_->setWordWrap(true);
    layout->addWidget(intro_);
    summary_ = new QLabel(content);
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText);
    layout->addWidget(summary_);
    chart_ = new ChartView(QStringLiteral("mixed-precision-bytes"), content);
    layout->addWidget(chart_);
    auto *grid = new QGridLayout;
    for (int index = 0; index <= kRecipeCount; ++index) {
        auto *box = new QGroupBox(content);
        auto *box_layout = new QVBoxLayout(box);
        // A word-wrapped label, not the group box title: a title sets the box's minimum width.
        auto *heading = new QLabel(box);
        heading->setWordWrap(true);
        heading->setTextFormat(Qt::RichText);
        box_layout->addWidget(heading);
        headings_.push_back(heading);
        auto *table = new QTableWidget(box);
        table->setEditTriggers(QAbstractItemView::NoEditTriggers);
        table->setSelectionMode(QAbstractItemView::NoSelection);
        table->verticalHeader()->hide();
        table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
        table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        // A narrow window scrolls the table, not the page.
        table->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
        setKeyColumns(table, {0, 1, 3});  // tensor, format, bytes per parameter
        box_layout->addWidget(table);
        if (index < kRecipeCount) {
            auto *button = new QPushButton(box);
            const PrecisionRecipe recipe = precisionRecipes()[std::size_t(index)];
            connect(button, &QPushButton::clicked, this, [this, recipe] { useRecipe(recipe); });
            box_layout->addWidget(button, 0, Qt::AlignLeft);
            use_buttons_.push_back(button);
        }
        // One column: two side by side would not fit a 1024-pixel window beside the editor.
        grid->addWidget(box, index, 0);
        boxes_.push_back(box);
        tables_.push_back(table);
    }
    layout->addLayout(grid);
    layout->addStretch(1);
    setPresentation(false);
    retranslate();
    nameLessonRegions();
}

QString MixedPrecisionSection::title() const { return tr("Mixed precision"); }

QList<ChartView *> MixedPrecisionSection::charts() const { return {chart_}; }

void MixedPrecisionSection::showEstimate(const Scenario &scenario, const Estimate &estimate)
{
    scenario_ = scenario;
    parameters_ = double(estimate.params.total);
    has_scenario_ = true;
    refresh();
}

void MixedPrecisionSection::setPresentation(bool presentation)
{
    PageSection::setPresentation(presentation);
    // Six stacked tensors and slanted category labels need more than the default height leaves room for.
    chart_->setMinimumHeight(presentation ? kPresentationChartMinimumHeight : kChartMinimumHeight + 180);
    // Fonts change after the tables were filled: refit their heights.
    for (QTableWidget *table : tables_) {
        table->resizeRowsToContents();
        fitTableHeight(table);
    }
}

void MixedPrecisionSection::retranslate()
{
    intro_->setText(
        tr("Which tensor of a training run lives in which number format, and what each costs per parameter. Matmuls "
           "run in a narrow format for tensor-core speed, while the optimizer keeps an FP32 master copy and FP32 "
           "moments so that small updates are not rounded away (Micikevicius et al. 2018). FP16 needs a loss scale "
           "to keep small gradients from flushing to zero; BF16 has FP32's exponent range and does not; FP8 needs a "
           "scale per tensor (Micikevicius et al. 2022). The bytes are the memory engine's own, for the scenario's "
           "optimizer, so this tab and the Memory page cannot disagree."));
    for (QPushButton *button : use_buttons_)
        button->setText(tr("Use this recipe"));
    for (std::size_t i = 0; i < use_buttons_.size(); ++i)
        use_buttons_[i]->setToolTip(
            tr("Set the scenario's precision to this recipe's defaults, as the editor's recipe field does "
               "(one undo step)"));
    refresh();
}

double MixedPrecisionSection::scenarioModelStateBytes() const
{
    return breakdowns_.empty() ? 0 : breakdowns_.back().modelStateBytesPerParameter() * parameters_;
}

void MixedPrecisionSection::useRecipe(PrecisionRecipe recipe)
{
    Scenario scenario = scenario_;
    // The scenario editor's recipe field: the recipe's implied dtypes and flags replace the old ones.
    scenario.training.precision = precisionForRecipe(recipe);
    emit scenarioEditRequested(scenario, tr("Precision recipe: %1").arg(displayName(recipe)));
}

QString MixedPrecisionSection::breakdownTitle(int index) const
{
    const MixedPrecisionBreakdown &b = breakdowns_[std::size_t(index)];
    const QString name = index < kRecipeCount ? displayName(b.precision.recipe) : tr("This scenario's settings");
    QString text = tr("%1: %2 bytes per parameter").arg(name, format::decimal(b.modelStateBytesPerParameter(), 2));
    if (has_scenario_)
        text += tr(" → %1 for %2 parameters").arg(format::bytes(b.modelStateBytesPerParameter() * parameters_),
                                                  format::count(parameters_));
    return text;
}

void MixedPrecisionSection::refresh()
{
    breakdowns_.clear();
    const Optimizer optimizer = scenario_.training.optimizer;
    for (PrecisionRecipe recipe : precisionRecipes())
        breakdowns_.push_back(mixedPrecisionBreakdown(precisionForRecipe(recipe), optimizer));
    breakdowns_.push_back(mixedPrecisionBreakdown(scenario_.training.precision, optimizer));

    const MixedPrecisionBreakdown &own = breakdowns_.back();
    QString summary =
        tr("<b>This scenario</b>: %1 parameters, optimizer %2, recipe field %3. Model state <b>%4 bytes per "
           "parameter</b> = <b>%5</b> for all parameters on one GPU, before the Memory page divides it over the "
           "parallel layout and ZeRO.")
            .arg(format::count(parameters_), displayName(optimizer), displayName(own.precision.recipe),
                 format::decimal(own.modelStateBytesPerParameter(), 2), format::bytes(scenarioModelStateBytes()));
    if (optimizer == Optimizer::Adafactor)
        summary += tr(" Adafactor's factored statistics depend on the tensor shapes, not on the parameter count: "
                      "the Memory page adds them; they are not in the per-parameter figures here.");
    summary_->setText(summary);
    for (int index = 0; index <= kRecipeCount; ++index) {
        const QString heading = breakdownTitle(index).toHtmlEscaped();
        // The scenario's own settings stand out.
        headings_[std::size_t(index)]->setText(index == kRecipeCount ? QStringLiteral("<b>%1</b>").arg(heading) : heading);
        fillTable(tables_[std::size_t(index)], breakdowns_[std::size_t(index)]);
    }
    for (QTableWidget *table : tables_)
        fitTableHeight(table);
    chart_->setData(chartData());
}

void MixedPrecisionSection::fillTable(QTableWidget *table, const MixedPrecisionBreakdown &breakdown) const
{
    const QStringList headers{tr("Tensor"), tr("Format"), tr("Bytes per element"), tr("Bytes per parameter")};
    table->setColumnCount(int(headers.size()));
    table->setHorizontalHeaderLabels(headers);
    table->setRowCount(int(breakdown.tensors.size()));
    TableFillBatch batch(table);
    for (int r = 0; r < int(breakdown.tensors.size()); ++r) {
        const PrecisionTensorRow &row = breakdown.tensors[std::size_t(r)];
        const QString name = tensorName(row.tensor, breakdown.optimizer);
        const QStringList cells{name, format::fromStd(row.format), format::decimal(row.bytes_per_element, 3),
                                row.per_parameter ? format::decimal(row.bytes_per_parameter, 3)
                                                  : tr("—")};
        const QString tip = format::tooltip(name, QString(), tensorFormula(row.tensor), tensorSource(row.tensor));
        for (int column = 0; column < int(cells.size()); ++column) {
            auto *item = new QTableWidgetItem(cells[column]);
            item->setToolTip(tip);
            if (column >= 2)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table->setItem(r, column, item);
        }
    }
    batch.finish();
    table->resizeRowsToContents();
}

ChartData MixedPrecisionSection::chartData() const
{
    ChartData chart;
    chart.title = tr("Model state per parameter by tensor");
    chart.y_label = tr("Bytes per parameter");
    chart.y_unit = QStringLiteral("bytes/parameter");
    for (PrecisionRecipe recipe : precisionRecipes())
        chart.categories << displayName(recipe);
    chart.categories << tr("This scenario");
    chart.formula.inputs = tr("optimizer %1; the scenario's precision fields for the last bar")
                               .arg(displayName(scenario_.training.optimizer));
    chart.formula.formula = tr("bytes per parameter = weight_dtype + gradient_dtype (+4 fp32 accumulation) + 4 "
                               "master (if kept) + optimizer states (memory engine, modelStateBytes)");
    chart.formula.source = tr("Rajbhandari et al. 2020 (ZeRO §3); Micikevicius et al. 2018; Micikevicius et al. 2022");
    int colour = 0;
    for (PrecisionTensor tensor : kStateTensors) {
        ChartSeries series;
        series.kind = ChartSeries::Kind::Bar;
        series.stack_group = 0;
        series.name = tensorName(tensor, scenario_.training.optimizer);
        series.color = chartSeriesColor(colour++, palette());
        bool any = false;
        for (int index = 0; index <= kRecipeCount; ++index) {
            const double bytes = stateBytes(breakdowns_[std::size_t(index)], tensor);
            any = any || bytes > 0;
            series.x << index;
            series.y << bytes;
            series.point_tooltips << format::tooltip(QStringLiteral("%1 — %2").arg(chart.categories[index], series.name),
                                                     QString(), tensorFormula(tensor), tensorSource(tensor),
                                                     tr("%1 bytes per parameter").arg(format::decimal(bytes, 3)));
        }
        if (any)
            chart.series << series;
    }
    for (int index = 0; index <= kRecipeCount; ++index) {
        const double total = breakdowns_[std::size_t(index)].modelStateBytesPerParameter();
        ChartText label;
        label.x = index;
        // Hung below a point 20 % above the bar: the axis range includes the anchor, so the text
        // stays inside the plot at any font size.
        label.y = total * 1.2;
        label.alignment = Qt::AlignHCenter | Qt::AlignTop;
        label.bold = index == kRecipeCount;
        label.text = tr("%1 B").arg(format::decimal(total, 2));
        chart.texts << label;
    }
    return chart;
}

void MixedPrecisionSection::nameLessonRegions()
{
    intro_->setObjectName(QStringLiteral("mixed-precision-intro"));
    summary_->setObjectName(QStringLiteral("mixed-precision-summary"));
    // One box and table per recipe, named by the recipe's scenario-file name ("bf16-mixed"), then
    // the scenario's own settings.
    for (std::size_t index = 0; index < tables_.size(); ++index) {
        const std::string_view name = index < std::size_t(kRecipeCount) ? toString(precisionRecipes()[index])
                                                                          : std::string_view("scenario");
        const QString recipe = QString::fromLatin1(name.data(), qsizetype(name.size()));
        boxes_[index]->setObjectName(QStringLiteral("mixed-precision-box-%1").arg(recipe));
        tables_[index]->setObjectName(QStringLiteral("mixed-precision-table-%1").arg(recipe));
    }
}

}  // namespace lse::gui
