// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/serving/cpu_measurement_section.h"

#include "charts/chart_view.h"
#include "pages/lesson_controls.h"
#include "pages/page_format.h"
#include "pages/parallel/layout/duration_format.h"
#include "pages/table_key_columns.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace lse::gui {

namespace {

// The bundled reference presets (resources/reference), smallest first.
const QStringList kPresets = {QStringLiteral("tiny"), QStringLiteral("small"), QStringLiteral("cs336-tinystories")};
constexpr double kMilliseconds = 1e3;

// Decode first: the key columns (table_key_columns.h) stay in view on a narrow page.
enum Column { Batch, DecodeMeasured, DecodePredicted, DecodeRatio, PrefillMeasured, PrefillPredicted, PrefillRatio, ColumnCount };

QString ratioText(double measured, double predicted)
{
    return measured > 0 && predicted > 0 ? format::decimal(measured / predicted, 2) + QStringLiteral("×") : QStringLiteral("–");
}

}  // namespace

CpuMeasurementSection::CpuMeasurementSection(QWidget *parent) : QWidget(parent)
{
    runner_ = new CpuDecodeRunner(this);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(8);

    title_ = new QLabel(this);
    title_->setObjectName(QStringLiteral("serving.cpuTitle"));
    title_->setWordWrap(true);
    title_->setTextFormat(Qt::RichText);
    layout->addWidget(title_);
    explanation_ = new QLabel(this);
    explanation_->setObjectName(QStringLiteral("serving.cpuExplanation"));
    explanation_->setWordWrap(true);
    explanation_->setTextFormat(Qt::RichText);
    layout->addWidget(explanation_);

    auto *row = new QHBoxLayout;
    preset_label_ = new QLabel(this);
    preset_box_ = new QComboBox(this);
    preset_box_->setObjectName(QStringLiteral("serving.cpuPreset"));
    for (const QString &preset : kPresets)
        preset_box_->addItem(preset, preset);
    preset_box_->setCurrentIndex(preset_box_->findData(QStringLiteral("cs336-tinystories")));
    preset_label_->setBuddy(preset_box_);
    start_button_ = new QPushButton(this);
    start_button_->setObjectName(QStringLiteral("serving.cpuStart"));
    cancel_button_ = new QPushButton(this);
    cancel_button_->setObjectName(QStringLiteral("serving.cpuCancel"));
    progress_bar_ = new QProgressBar(this);
    progress_bar_->setObjectName(QStringLiteral("serving.cpuProgress"));
    progress_bar_->setVisible(false);
    row->addWidget(preset_label_);
    row->addWidget(preset_box_);
    row->addWidget(start_button_);
    row->addWidget(cancel_button_);
    row->addWidget(progress_bar_, 1);
    row->addStretch();
    layout->addLayout(row);

    status_label_ = new QLabel(this);
    status_label_->setObjectName(QStringLiteral("serving.cpuStatus"));
    status_label_->setWordWrap(true);
    layout->addWidget(status_label_);

    decode_chart_ = new ChartView(QStringLiteral("serving-cpu-decode"), this);
    prefill_chart_ = new ChartView(QStringLiteral("serving-cpu-prefill"), this);
    decode_chart_->setMinimumHeight(kChartMinimumHeight);
    prefill_chart_->setMinimumHeight(kChartMinimumHeight);
    auto *charts = new QHBoxLayout;
    charts->setSpacing(8);
    charts->addWidget(decode_chart_);
    charts->addWidget(prefill_chart_);
    layout->addLayout(charts, 1);

    table_ = new QTableWidget(0, ColumnCount, this);
    table_->setObjectName(QStringLiteral("serving.cpuTable"));
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setMinimumHeight(140);
    setKeyColumns(table_, {Batch, DecodeMeasured, DecodePredicted});
    layout->addWidget(table_);

    connect(start_button_, &QPushButton::clicked, this, &CpuMeasurementSection::start);
    connect(cancel_button_, &QPushButton::clicked, this, &CpuMeasurementSection::cancel);
    connect(runner_, &CpuDecodeRunner::progress, this, &CpuMeasurementSection::showProgress);
    connect(runner_, &CpuDecodeRunner::finished, this, &CpuMeasurementSection::showResult);
    retranslate();
}

void CpuMeasurementSection::bindLessonControls(LessonControls &controls)
{
    controls.addChoice(QStringLiteral("cpu_preset"), preset_box_, kPresets);
}

QList<ChartView *> CpuMeasurementSection::chartsWithData() const
{
    if (runner_->result() && !runner_->result()->rows.empty())
        return {decode_chart_, prefill_chart_};
    return {};
}

QList<ChartView *> CpuMeasurementSection::allCharts() const { return {decode_chart_, prefill_chart_}; }

void CpuMeasurementSection::setPresentation(bool presentation)
{
    table_->setMinimumHeight(presentation ? 240 : 140);
}

void CpuMeasurementSection::start()
{
    if (runner_->isRunning())
        return;
    request_.preset = preset_box_->currentData().toString();
    progress_stage_.clear();
    progress_batch_ = 0;
    progress_bar_->setRange(0, 0);  // busy until the first step is known
    progress_bar_->setVisible(true);
    runner_->start(request_);
    updateButtons();
    fillStatus();
}

void CpuMeasurementSection::cancel()
{
    runner_->cancel();
    fillStatus();
}

void CpuMeasurementSection::showProgress(const QString &kernel_stage, int batch, int step, int steps)
{
    if (!runner_->isRunning())
        return;
    progress_stage_ = kernel_stage;
    progress_batch_ = batch;
    progress_bar_->setRange(0, std::max(1, steps));
    progress_bar_->setValue(step);
    fillStatus();
}

void CpuMeasurementSection::showResult()
{
    progress_bar_->setVisible(false);
    updateButtons();
    fillTable();
    fillCharts();
    fillStatus();
}

void CpuMeasurementSection::updateButtons()
{
    const bool running = runner_->isRunning();
    start_button_->setEnabled(!running);
    preset_box_->setEnabled(!running);
    cancel_button_->setEnabled(running);
}

void CpuMeasurementSection::retranslate()
{
    title_->setText(tr("<b>This CPU: decode measured</b> — the reference transformer (untrained, the chosen preset) "
                       "generates %1 tokens after a %2-token prompt for a batch of 1, 8 and 32 sequences on this machine, "
                       "beside the prediction from this CPU's kernel factors.")
                        .arg(request_.output_tokens)
                        .arg(request_.prompt_tokens));
    explanation_->setText(
        tr("At batch 1 every decode step reads all the weights from memory to make one token per sequence: the step "
           "is memory-bound and tokens/s grows almost in proportion to the batch. Each weight read then serves more "
           "tokens, until the matrix products reach what the cores can compute: decode turns compute-bound and "
           "tokens/s levels off. Prefill is compute-bound from the start: its time grows with the batch."));
    explanation_->setToolTip(format::tooltip(
        tr("Decode from memory-bound to compute-bound"), QString(),
        tr("decode step ≈ max(weight bytes / memory bandwidth, 2 · parameters · B / FLOP rate) + attention over the KV "
           "cache; tokens/s = B / step time; the crossover where weight bytes / bandwidth = 2 · parameters · B / FLOP "
           "rate"),
        tr("Williams et al. 2009 (roofline); Pope et al. 2022 (Efficiently scaling transformer inference) §2; "
           "predictor: core/performance/cpu_inference_prediction with this CPU's kernel factors (Machine page)")));
    preset_label_->setText(tr("Reference model:"));
    preset_box_->setToolTip(tr("The bundled reference preset generated with (untrained: the speed depends on the "
                               "shapes, not on the weights)."));
    start_button_->setText(tr("Start"));
    start_button_->setToolTip(tr("Measure this CPU: the kernel factors first when none are cached (a few seconds), "
                                 "then one batched generation per batch."));
    cancel_button_->setText(tr("Cancel"));
    // Two-line headers: the key columns fit beside each other at 1024 px.
    table_->setHorizontalHeaderLabels({tr("Batch"), tr("Decode tokens/s\nmeasured"), tr("Decode tokens/s\npredicted"),
                                       tr("Decode\nmeasured / predicted"), tr("Prefill\nmeasured"), tr("Prefill\npredicted"),
                                       tr("Prefill\nmeasured / predicted")});
    updateButtons();
    fillTable();
    fillCharts();
    fillStatus();
}

void CpuMeasurementSection::fillStatus()
{
    const std::optional<CpuDecodeResult> &result = runner_->result();
    QString text;
    if (runner_->isRunning()) {
        if (progress_batch_ > 0)
            text = tr("Generating at batch %1…").arg(progress_batch_);
        else if (!progress_stage_.isEmpty())
            text = tr("Measuring this CPU's kernel factors (once; then cached): %1…").arg(progress_stage_);
        else
            text = tr("Preparing: this CPU's kernel factors…");
    } else if (!result) {
        text = tr("Press Start to measure decode and prefill on this CPU (a few seconds to a minute; the kernel factors "
                  "are measured first when none are cached).");
    } else if (result->error == QStringLiteral("cancelled")) {
        text = tr("Cancelled after %n batch(es).", nullptr, int(result->rows.size()));
    } else if (!result->error.isEmpty()) {
        text = tr("The run failed: %1").arg(result->error);
    } else {
        text = tr("Measured at %1; kernel factors of %2.")
                   .arg(result->threads_reason,
                        result->kernels_measured_at.isEmpty() ? tr("none (no prediction)") : result->kernels_measured_at);
        if (!result->kernels_implausible_because.isEmpty())
            text += QLatin1Char(' ') + tr("Warning: %1. The prediction is too slow; the next run measures them again.")
                                          .arg(result->kernels_implausible_because);
        // What the curve says in one line: the growth of decode tokens/s against the growth of the batch.
        const reference::DecodeBenchmark &first = result->rows.front();
        const reference::DecodeBenchmark &last = result->rows.back();
        if (result->rows.size() >= 2 && first.measured_decode_tokens_per_second > 0) {
            text += QLatin1Char(' ')
                + tr("From batch %1 to %2 (%3× the sequences) decode tokens/s grew %4× measured")
                      .arg(first.batch)
                      .arg(last.batch)
                      .arg(format::decimal(double(last.batch) / first.batch, 0))
                      .arg(format::decimal(last.measured_decode_tokens_per_second / first.measured_decode_tokens_per_second, 1));
            if (first.prediction && last.prediction && first.prediction->decode_tokens_per_second > 0)
                text += tr(", %1× predicted").arg(format::decimal(
                    last.prediction->decode_tokens_per_second / first.prediction->decode_tokens_per_second, 1));
            text += tr(": far less than the batch once decode is compute-bound.");
        }
    }
    status_label_->setText(text);
}

void CpuMeasurementSection::fillTable()
{
    const std::optional<CpuDecodeResult> &result = runner_->result();
    const std::size_t rows = result ? result->rows.size() : 0;
    table_->setRowCount(int(rows));
    const auto cell = [this](int row, int column, const QString &text, const QString &tip = QString()) {
        auto *item = new QTableWidgetItem(text);
        item->setTextAlignment(Qt::AlignVCenter | (column == Batch ? Qt::AlignLeft : Qt::AlignRight));
        item->setToolTip(tip);
        table_->setItem(row, column, item);
    };
    const QString prefillTip = tr("prefill: the batched forward pass of every prompt and the first token's sampling, "
                                  "after one untimed warm-up (core/reference/batch_generation)");
    const QString decodeTip = tr("decode tokens/s = batch · decode steps / decode time (every sequence's tokens)");
    for (std::size_t i = 0; i < rows; ++i) {
        const reference::DecodeBenchmark &b = result->rows[i];
        const int r = int(i);
        const double predictedPrefill = b.prediction ? b.prediction->prefill_seconds : 0;
        const double predictedDecode = b.prediction ? b.prediction->decode_tokens_per_second : 0;
        cell(r, Batch, format::integer(b.batch));
        cell(r, PrefillMeasured, format::duration(b.measured_prefill_seconds), prefillTip);
        cell(r, PrefillPredicted, predictedPrefill > 0 ? format::duration(predictedPrefill) : QStringLiteral("–"),
             b.prediction ? prefillTip : format::fromStd(b.no_prediction));
        cell(r, PrefillRatio, ratioText(b.measured_prefill_seconds, predictedPrefill));
        cell(r, DecodeMeasured, format::decimal(b.measured_decode_tokens_per_second, 1), decodeTip);
        cell(r, DecodePredicted, predictedDecode > 0 ? format::decimal(predictedDecode, 1) : QStringLiteral("–"),
             b.prediction ? decodeTip : format::fromStd(b.no_prediction));
        cell(r, DecodeRatio, ratioText(b.measured_decode_tokens_per_second, predictedDecode));
    }
    table_->resizeColumnsToContents();
}

void CpuMeasurementSection::fillCharts()
{
    const std::optional<CpuDecodeResult> &result = runner_->result();
    const bool measured = result && !result->rows.empty();
    const QString predictor = tr("predicted: core/performance/cpu_inference_prediction with this CPU's kernel factors; "
                                 "measured: core/reference/batch_generation");

    ChartData decode;
    decode.title = measured ? tr("Decode tokens/s on this CPU") : tr("Decode tokens/s on this CPU: press Start to measure");
    decode.x_label = tr("Batch (sequences)");
    decode.y_label = tr("Decode tokens/s (all sequences)");
    decode.x_unit = QStringLiteral("sequences");
    decode.y_unit = QStringLiteral("tokens/s");
    decode.log_x = true;
    decode.formula.formula = tr("tokens/s = batch · decode steps / decode time");
    decode.formula.source = predictor;

    ChartData prefill;
    prefill.title = measured ? tr("Prefill time on this CPU") : tr("Prefill time on this CPU: press Start to measure");
    prefill.x_label = decode.x_label;
    prefill.y_label = tr("Prefill time (ms)");
    prefill.x_unit = decode.x_unit;
    prefill.y_unit = QStringLiteral("seconds");
    prefill.y_display_scale = kMilliseconds;
    prefill.log_x = true;
    prefill.formula.formula = tr("prefill = one forward pass of batch × prompt tokens + the first token's sampling");
    prefill.formula.source = predictor;

    if (measured) {
        ChartSeries decodeMeasured;
        decodeMeasured.name = tr("Measured");
        ChartSeries decodePredicted;
        decodePredicted.name = tr("Predicted");
        decodePredicted.dashed = true;
        ChartSeries prefillMeasured;
        prefillMeasured.name = tr("Measured");
        ChartSeries prefillPredicted;
        prefillPredicted.name = tr("Predicted");
        prefillPredicted.dashed = true;
        for (const reference::DecodeBenchmark &b : result->rows) {
            decodeMeasured.x << b.batch;
            decodeMeasured.y << b.measured_decode_tokens_per_second;
            decodeMeasured.point_tooltips << tr("batch %1: %2 tokens/s measured").arg(b.batch).arg(format::decimal(b.measured_decode_tokens_per_second, 1));
            prefillMeasured.x << b.batch;
            prefillMeasured.y << b.measured_prefill_seconds;
            prefillMeasured.point_tooltips << tr("batch %1: %2 measured").arg(b.batch).arg(format::duration(b.measured_prefill_seconds));
            if (b.prediction) {
                decodePredicted.x << b.batch;
                decodePredicted.y << b.prediction->decode_tokens_per_second;
                decodePredicted.point_tooltips
                    << tr("batch %1: %2 tokens/s predicted").arg(b.batch).arg(format::decimal(b.prediction->decode_tokens_per_second, 1));
                prefillPredicted.x << b.batch;
                prefillPredicted.y << b.prediction->prefill_seconds;
                prefillPredicted.point_tooltips
                    << tr("batch %1: %2 predicted").arg(b.batch).arg(format::duration(b.prediction->prefill_seconds));
            }
        }
        decode.series << decodeMeasured;
        prefill.series << prefillMeasured;
        if (!decodePredicted.x.isEmpty()) {
            decode.series << decodePredicted;
            prefill.series << prefillPredicted;
        }
    }
    decode_chart_->setData(decode);
    prefill_chart_->setData(prefill);
}

}  // namespace lse::gui
