// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/traces/trace_prediction_section.h"

#include "charts/chart_view.h"
#include "hardware/hardware_catalog.h"
#include "pages/page_format.h"
#include "pages/table_key_columns.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace lse::gui {

namespace {

const QString kFromTrace = QStringLiteral("trace");

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

QTableWidgetItem *textItem(const QString &text)
{
    auto *item = new QTableWidgetItem(text);
    item->setToolTip(text.toHtmlEscaped());
    return item;
}

QTableWidget *table(QWidget *parent, const QString &name, int columns)
{
    auto *widget = new QTableWidget(0, columns, parent);
    widget->setObjectName(name);
    widget->setEditTriggers(QAbstractItemView::NoEditTriggers);
    widget->setSelectionBehavior(QAbstractItemView::SelectRows);
    widget->verticalHeader()->setVisible(false);
    widget->horizontalHeader()->setStretchLastSection(true);
    widget->setSortingEnabled(true);
    widget->setMinimumHeight(180);
    return widget;
}

QLabel *richLabel(QWidget *parent, const QString &name)
{
    auto *label = new QLabel(parent);
    label->setObjectName(name);
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QString ms(double seconds) { return format::decimal(seconds * 1e3, 3); }
QString ratioText(double ratio) { return ratio > 0 ? format::decimal(ratio, 2) : QStringLiteral("–"); }

QString comparedClassLabel(const std::string &name)
{
    if (name == "gemm") return TracePredictionSection::tr("GEMM");
    if (name == "attention") return TracePredictionSection::tr("attention");
    if (name == "memory_bound") return TracePredictionSection::tr("memory-bound");
    if (name == "optimizer") return TracePredictionSection::tr("optimizer");
    if (name == "other") return TracePredictionSection::tr("other kernels");
    if (name == "communication") return TracePredictionSection::tr("communication (exposed)");
    if (name == "memcpy") return TracePredictionSection::tr("memory copies");
    if (name == "idle") return TracePredictionSection::tr("idle");
    if (name == "convolution") return TracePredictionSection::tr("convolution");
    if (name == "unknown") return TracePredictionSection::tr("unknown");
    return QString::fromStdString(name);
}

}  // namespace

QStringList TracePredictionSection::missingTimePartNames()
{
    return {tr("Predicted kernels"),     tr("Slower than predicted"), tr("Kernels the model lacks"),
            tr("Concurrent kernels"),    tr("Exposed communication"), tr("Memory copies"),
            tr("Idle, host-bound"),      tr("Idle, waiting")};
}

TracePredictionSection::TracePredictionSection(QWidget *parent) : QWidget(parent)
{
    QWidget *content = addScrollingContent(this);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 4, 0, 0);

    auto *controls = new QHBoxLayout;
    accelerator_label_ = new QLabel(content);
    accelerator_box_ = new QComboBox(content);
    accelerator_box_->setObjectName(QStringLiteral("trace.accelerator"));
    accelerator_label_->setBuddy(accelerator_box_);
    compare_check_ = new QCheckBox(content);
    compare_check_->setObjectName(QStringLiteral("trace.compare"));
    controls->addWidget(accelerator_label_);
    controls->addWidget(accelerator_box_);
    controls->addSpacing(12);
    controls->addWidget(compare_check_);
    controls->addStretch(1);
    layout->addLayout(controls);
    connect(accelerator_box_, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
    connect(compare_check_, &QCheckBox::toggled, this, [this] { recompute(); });

    gemm_summary_ = richLabel(content, QStringLiteral("trace.gemmSummary"));
    layout->addWidget(gemm_summary_);
    auto *gemm_row = new QHBoxLayout;
    gemm_chart_ = new ChartView(QStringLiteral("trace-gemm-measured-vs-predicted"), content);
    gemm_chart_->setMinimumHeight(kChartMinimumHeight);
    gemm_table_ = table(content, QStringLiteral("trace.gemmTable"), 9);
    setKeyColumns(gemm_table_, {0, 6, 1});
    gemm_row->addWidget(gemm_chart_, 2);
    gemm_row->addWidget(gemm_table_, 3);
    layout->addLayout(gemm_row);

    comparison_summary_ = richLabel(content, QStringLiteral("trace.comparisonSummary"));
    layout->addWidget(comparison_summary_);
    // Full width, one above the other: side by side the rotated part names of the first category
    // ran past the chart's left edge.
    class_chart_ = new ChartView(QStringLiteral("trace-class-comparison"), content);
    missing_chart_ = new ChartView(QStringLiteral("trace-missing-time"), content);
    class_chart_->setMinimumHeight(kChartMinimumHeight);
    missing_chart_->setMinimumHeight(kChartMinimumHeight + 40);
    layout->addWidget(class_chart_);
    layout->addWidget(missing_chart_);
    operator_table_ = table(content, QStringLiteral("trace.comparisonTable"), 8);
    setKeyColumns(operator_table_, {0, 6, 4, 7});
    layout->addWidget(operator_table_);
    layout->addStretch(1);

    fillAcceleratorBox();
    retranslate();
}

void TracePredictionSection::fillAcceleratorBox()
{
    const QSignalBlocker blocker(accelerator_box_);
    const QString current = acceleratorChoice();
    accelerator_box_->clear();
    accelerator_box_->addItem(QString(), kFromTrace);
    for (const Accelerator &accelerator : builtinHardwareCatalog().accelerators)
        accelerator_box_->addItem(QString::fromStdString(accelerator.name), QString::fromStdString(accelerator.id));
    const int index = accelerator_box_->findData(current.isEmpty() ? kFromTrace : current);
    accelerator_box_->setCurrentIndex(std::max(index, 0));
}

void TracePredictionSection::retranslate()
{
    accelerator_label_->setText(tr("&Accelerator:"));
    const traces::TraceRank *rank = trace_ ? &trace_->rank : nullptr;
    const Accelerator *from_trace =
        rank ? traces::acceleratorForDeviceName(rank->device_name, builtinHardwareCatalog()) : nullptr;
    accelerator_box_->setItemText(0, from_trace ? tr("The trace's device: %1").arg(QString::fromStdString(from_trace->name))
                                                : tr("The trace's device (not in the catalog: pick one)"));
    accelerator_box_->setToolTip(tr("The GPU whose predicted GEMM kernel times the trace's calls are compared with: "
                                    "the trace's deviceProperties name when the hardware catalog has it"));
    compare_check_->setText(tr("&Compare with the current scenario"));
    compare_check_->setToolTip(tr("Match the trace's kernels to the operators of the scenario's predicted step "
                                  "(model, layout and accelerator from the editor): by class and shape, per step"));
    gemm_table_->setHorizontalHeaderLabels({tr("Operator"), tr("Shape"), tr("Type"), tr("Calls"), tr("Measured (ms)"),
                                            tr("Predicted (ms)"), tr("Measured ÷ predicted"), tr("Achieved FLOP/s"),
                                            tr("Kernel")});
    operator_table_->setHorizontalHeaderLabels({tr("Operator"), tr("Class"), tr("Shape"), tr("Predicted calls"),
                                                tr("Predicted (ms)"), tr("Measured calls"), tr("Measured (ms)"),
                                                tr("Measured ÷ predicted")});
    fillGemms();
    fillComparison();
}

QString TracePredictionSection::acceleratorChoice() const
{
    return accelerator_box_->count() > 0 ? accelerator_box_->currentData().toString() : kFromTrace;
}

bool TracePredictionSection::chooseAccelerator(const QString &choice)
{
    const int index = accelerator_box_->findData(choice);
    if (index < 0)
        return false;
    accelerator_box_->setCurrentIndex(index);
    return true;
}

bool TracePredictionSection::comparing() const { return compare_check_->isChecked(); }

void TracePredictionSection::setComparing(bool on) { compare_check_->setChecked(on); }

void TracePredictionSection::setTrace(const LoadedTrace *trace)
{
    trace_ = trace;
    retranslate();  // the first entry names the trace's device
    recompute();
}

void TracePredictionSection::setScenario(const Scenario &scenario)
{
    scenario_ = scenario;
    has_scenario_ = true;
    if (comparing())
        recompute();
}

void TracePredictionSection::recompute()
{
    gemms_.reset();
    gemm_problem_.clear();
    comparison_.reset();
    comparison_problem_.clear();
    if (trace_ && trace_->rank.hasGpu()) {
        const Accelerator *accelerator =
            acceleratorChoice() == kFromTrace
                ? traces::acceleratorForDeviceName(trace_->rank.device_name, builtinHardwareCatalog())
                : builtinHardwareCatalog().find(acceleratorChoice().toStdString());
        if (!accelerator) {
            gemm_problem_ = tr("The trace's device '%1' is not in the hardware catalog: pick the accelerator to "
                               "predict its GEMM calls on.")
                                .arg(QString::fromStdString(trace_->rank.device_name));
        } else {
            Result<traces::GemmPredictionSummary> result = traces::predictTraceGemms(trace_->rank, *accelerator);
            if (result)
                gemms_ = std::move(result.value());
            else
                gemm_problem_ = QString::fromStdString(formatProblemsOnOneLine(result.problems()));
        }
        if (comparing() && has_scenario_) {
            Result<traces::TraceVsPrediction> result = traces::compareWithPrediction(
                trace_->rank, trace_->analysis, scenario_, traces::detectComparedPass(trace_->rank));
            if (result)
                comparison_ = std::move(result.value());
            else
                comparison_problem_ = QString::fromStdString(formatProblemsOnOneLine(result.problems()));
        }
    } else if (trace_) {
        gemm_problem_ = tr("A CPU-only trace has no GPU kernels to compare with a GPU prediction.");
    }
    fillGemms();
    fillComparison();
    emit gemmsChanged();
}

void TracePredictionSection::fillGemms()
{
    gemm_table_->setSortingEnabled(false);
    gemm_table_->setRowCount(0);
    if (!gemms_) {
        gemm_summary_->setText(gemm_problem_.toHtmlEscaped());
        gemm_chart_->setData(gemmChartData());
        gemm_chart_->setVisible(false);
        gemm_table_->setVisible(false);
        return;
    }
    const traces::GemmPredictionSummary &g = *gemms_;
    if (g.calls == 0)
        gemm_summary_->setText(tr("<b>GEMM calls on %1:</b> none with recorded shapes (record_shapes=True) and a "
                                  "floating-point type.")
                                   .arg(QString::fromStdString(g.accelerator_name).toHtmlEscaped()));
    else
        gemm_summary_->setText(
            tr("<b>%1 GEMM calls on %2</b> beside the engine's GEMM kernel time (tiles, waves, the catalog's "
               "efficiency): measured %3 ms, predicted %4 ms; measured ÷ predicted per call: median %5 (10th–90th "
               "percentile %6–%7, extremes %8–%9)%10.")
                .arg(format::integer(g.calls), QString::fromStdString(g.accelerator_name).toHtmlEscaped(),
                     ms(g.measured_seconds), ms(g.predicted_seconds), ratioText(g.median_ratio), ratioText(g.p10_ratio),
                     ratioText(g.p90_ratio), ratioText(g.min_ratio), ratioText(g.max_ratio))
                .arg(g.skipped_calls > 0 ? tr("; %1 calls without a usable shape or type skipped").arg(g.skipped_calls)
                                         : QString()));
    gemm_table_->setRowCount(int(g.rows.size()));
    for (int row = 0; row < int(g.rows.size()); ++row) {
        const traces::GemmComparisonRow &r = g.rows[std::size_t(row)];
        gemm_table_->setItem(row, 0, textItem(QString::fromStdString(r.op_name)));
        gemm_table_->setItem(row, 1, textItem(QString::fromStdString(r.shape)));
        gemm_table_->setItem(row, 2, textItem(QString::fromStdString(r.dtype)));
        gemm_table_->setItem(row, 3, new NumberItem(format::integer(r.calls), double(r.calls)));
        gemm_table_->setItem(row, 4, new NumberItem(ms(r.measured_seconds), r.measured_seconds));
        gemm_table_->setItem(row, 5, new NumberItem(ms(r.predicted_seconds), r.predicted_seconds));
        gemm_table_->setItem(row, 6, new NumberItem(ratioText(r.ratio()), r.ratio()));
        gemm_table_->setItem(row, 7, new NumberItem(format::si(r.achievedFlopsPerSecond(), tr("FLOP/s")),
                                                    r.achievedFlopsPerSecond()));
        gemm_table_->setItem(row, 8, textItem(QString::fromStdString(r.kernel_name)));
    }
    gemm_table_->setSortingEnabled(true);
    gemm_table_->sortByColumn(4, Qt::DescendingOrder);
    gemm_table_->resizeColumnsToContents();
    gemm_table_->setColumnWidth(1, std::min(gemm_table_->columnWidth(1), 240));
    gemm_chart_->setData(gemmChartData());
    gemm_chart_->setVisible(g.calls > 0);
    gemm_table_->setVisible(g.calls > 0);
}

ChartData TracePredictionSection::gemmChartData() const
{
    ChartData chart;
    chart.title = tr("GEMM calls: measured against predicted");
    chart.x_label = tr("Predicted per call (µs, log scale)");
    chart.y_label = tr("Measured per call (µs, log scale)");
    chart.x_unit = QStringLiteral("us");
    chart.y_unit = QStringLiteral("us");
    chart.log_x = true;
    chart.log_y = true;
    chart.formula.formula = tr("predicted = the engine's GEMM kernel time for (batch, m, n, k) and the kernel's dtype "
                               "peak; measured = summed durations of the GEMM kernels the call launched");
    chart.formula.source = tr("core/traces/trace_vs_prediction (performance::gemmTime; catalog efficiency factors)");
    if (!gemms_ || gemms_->rows.empty())
        return chart;
    ChartSeries points;
    points.name = tr("GEMM shapes");
    points.kind = ChartSeries::Kind::Marker;
    points.color = QColor(0xD5, 0x5E, 0x00);
    double low = 1e300, high = 0;
    for (const traces::GemmComparisonRow &r : gemms_->rows) {
        if (r.calls <= 0 || r.predicted_seconds <= 0 || r.measured_seconds <= 0)
            continue;
        const double predicted = r.predicted_seconds / double(r.calls) * 1e6;
        const double measured = r.measured_seconds / double(r.calls) * 1e6;
        points.x << predicted;
        points.y << measured;
        low = std::min({low, predicted, measured});
        high = std::max({high, predicted, measured});
        points.point_tooltips << tr("<b>%1 %2</b> (%3, ×%4)<br>predicted %5 µs, measured %6 µs per call: ratio %7<br>%8")
                                     .arg(QString::fromStdString(r.op_name).toHtmlEscaped(),
                                          QString::fromStdString(r.shape).toHtmlEscaped(),
                                          QString::fromStdString(r.dtype), format::integer(r.calls),
                                          format::decimal(predicted, 1), format::decimal(measured, 1),
                                          ratioText(r.ratio()),
                                          QString::fromStdString(r.kernel_name).left(120).toHtmlEscaped());
    }
    if (points.x.isEmpty())
        return chart;
    ChartSeries diagonal;
    diagonal.name = tr("measured = predicted");
    diagonal.dashed = true;
    diagonal.x = {low / 1.5, high * 1.5};
    diagonal.y = {low / 1.5, high * 1.5};
    chart.series << diagonal << points;
    return chart;
}

void TracePredictionSection::fillComparison()
{
    operator_table_->setSortingEnabled(false);
    operator_table_->setRowCount(0);
    const bool shown = comparing();
    class_chart_->setVisible(shown && comparison_.has_value());
    missing_chart_->setVisible(shown && comparison_.has_value());
    operator_table_->setVisible(shown && comparison_.has_value());
    if (!shown) {
        comparison_summary_->setText(tr("Check <i>Compare with the current scenario</i> to match the trace's kernels to "
                                        "the predicted step of the scenario in the editor (set its model, layout and "
                                        "accelerator to the traced run's)."));
        return;
    }
    if (!comparison_) {
        comparison_summary_->setText(comparison_problem_.isEmpty()
                                         ? tr("No trace with GPU kernels to compare.")
                                         : tr("The comparison cannot be made: %1").arg(comparison_problem_.toHtmlEscaped()));
        return;
    }
    const traces::TraceVsPrediction &c = *comparison_;
    comparison_summary_->setText(
        tr("<b>Beside the predicted step</b> (%1 on %2, %3; %Ln step(s) averaged): measured step %4 ms, predicted %5 "
           "ms; MFU (matrix-multiply FLOPs at %6): measured %7, predicted %8.",
           nullptr, c.steps)
            .arg(QString::fromStdString(scenario_.model.name).toHtmlEscaped(), QString::fromStdString(c.accelerator_id),
                 c.pass == traces::ComparedPass::ForwardOnly ? tr("forward pass") : tr("training step"),
                 ms(c.measured_step_seconds), ms(c.predicted_step_seconds),
                 format::si(c.peak_flops_per_second, tr("FLOP/s")), format::percent(c.measured_mfu),
                 format::percent(c.predicted_mfu)) +
        (c.queued_before_trace_seconds > 0
             ? QStringLiteral(" ") + tr("Kernels queued before the trace began (%1 ms) belong to no step and are left "
                                        "out of both.")
                                         .arg(ms(c.queued_before_trace_seconds))
             : QString()));
    class_chart_->setData(classChartData());
    missing_chart_->setData(missingChartData());
    std::vector<const traces::OperatorComparison *> rows;
    for (const traces::OperatorComparison &op : c.operators)
        rows.push_back(&op);
    for (const traces::OperatorComparison &op : c.missing_in_trace)
        rows.push_back(&op);
    operator_table_->setRowCount(int(rows.size()));
    for (int row = 0; row < int(rows.size()); ++row) {
        const traces::OperatorComparison &op = *rows[std::size_t(row)];
        operator_table_->setItem(row, 0, textItem(QString::fromStdString(op.name) + (op.split ? tr(" (split)") : QString())));
        operator_table_->setItem(row, 1, textItem(comparedClassLabel(op.kernel_class)));
        operator_table_->setItem(row, 2, textItem(QString::fromStdString(op.shape)));
        operator_table_->setItem(row, 3, new NumberItem(format::decimal(op.predicted_count, 1), op.predicted_count));
        operator_table_->setItem(row, 4, new NumberItem(ms(op.predicted_seconds), op.predicted_seconds));
        operator_table_->setItem(row, 5, new NumberItem(format::decimal(op.measured_count, 1), op.measured_count));
        operator_table_->setItem(row, 6, new NumberItem(ms(op.measured_seconds), op.measured_seconds));
        operator_table_->setItem(row, 7, new NumberItem(ratioText(op.ratio()), op.ratio()));
    }
    operator_table_->setSortingEnabled(true);
    operator_table_->sortByColumn(6, Qt::DescendingOrder);
    operator_table_->resizeColumnsToContents();
    operator_table_->setColumnWidth(2, std::min(operator_table_->columnWidth(2), 240));
}

ChartData TracePredictionSection::classChartData() const
{
    ChartData chart;
    chart.title = tr("Per class, per step: measured and predicted");
    chart.y_label = tr("Time per step (ms)");
    chart.y_unit = QStringLiteral("ms");
    chart.formula.formula = tr("measured = summed kernel durations per step (communication and copies exposed, as in "
                               "the breakdown); predicted = the scenario's predicted operators of that class");
    chart.formula.source = tr("core/traces/trace_vs_prediction (compareWithPrediction, performance::predictStep)");
    if (!comparison_)
        return chart;
    ChartSeries measured, predicted;
    measured.name = tr("Measured");
    predicted.name = tr("Predicted");
    measured.kind = predicted.kind = ChartSeries::Kind::Bar;
    measured.color = QColor(0x00, 0x72, 0xB2);
    predicted.color = QColor(0xE6, 0x9F, 0x00);
    int index = 0;
    for (const traces::ClassComparison &row : comparison_->classes) {
        if (row.measured_seconds <= 0 && row.predicted_seconds <= 0)
            continue;
        chart.categories << comparedClassLabel(row.kernel_class);
        for (ChartSeries *series : {&measured, &predicted}) {
            const double value = series == &measured ? row.measured_seconds : row.predicted_seconds;
            series->x << double(index);
            series->y << value * 1e3;
            series->point_tooltips << tr("<b>%1</b>: %2 %3 ms per step")
                                          .arg(comparedClassLabel(row.kernel_class), series->name, ms(value));
        }
        ++index;
    }
    chart.series << measured << predicted;
    return chart;
}

ChartData TracePredictionSection::missingChartData() const
{
    ChartData chart;
    chart.y_label = tr("Time per step (ms)");
    chart.y_unit = QStringLiteral("ms");
    chart.formula.formula = tr("measured step = predicted kernels + slower than predicted + kernels the model lacks + "
                               "concurrent kernels (≤ 0) + exposed communication + memory "
                               "copies + idle host-bound + idle waiting");
    chart.formula.source = tr("core/traces/trace_vs_prediction (MissingTime); idle split after Holistic Trace Analysis");
    if (!comparison_) {
        chart.title = tr("Where the measured step went");
        return chart;
    }
    const traces::MissingTime &m = comparison_->missing_time;
    chart.title = tr("Where the measured step went: %1 ms measured, %2 ms predicted")
                      .arg(ms(m.measured_step_seconds), ms(m.predicted_step_seconds));
    const QStringList names = missingTimePartNames();
    const double values[] = {m.predicted_kernel_seconds,  m.slower_kernel_seconds,     m.unpredicted_kernel_seconds,
                             m.concurrent_kernel_seconds, m.exposed_communication_seconds, m.memcpy_seconds,
                             m.idle_host_bound_seconds,   m.idle_waiting_seconds};
    ChartSeries parts;
    parts.name = tr("Part of the measured step");
    parts.kind = ChartSeries::Kind::Bar;
    parts.color = QColor(0xCC, 0x79, 0xA7);
    for (int i = 0; i < names.size(); ++i) {
        chart.categories << names[i];
        parts.x << double(i);
        parts.y << values[i] * 1e3;
        parts.point_tooltips << tr("<b>%1</b>: %2 ms per step = %3 of the measured step")
                                    .arg(names[i], ms(values[i]),
                                         format::percent(m.measured_step_seconds > 0 ? values[i] / m.measured_step_seconds
                                                                                     : 0));
    }
    chart.series << parts;
    return chart;
}

QList<ChartView *> TracePredictionSection::charts() const
{
    QList<ChartView *> list;
    if (gemms_ && !gemms_->rows.empty())
        list << gemm_chart_;
    if (comparison_)
        list << class_chart_ << missing_chart_;
    return list;
}

QList<ChartView *> TracePredictionSection::allCharts() const { return {gemm_chart_, class_chart_, missing_chart_}; }

}  // namespace lse::gui
