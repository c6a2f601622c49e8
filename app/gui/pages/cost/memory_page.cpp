// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/cost/memory_page.h"

#include "enum_labels.h"

#include "charts/chart_view.h"
#include "cost/sweeps.h"
#include "pages/framework_reserve_text.h"
#include "pages/page_format.h"
#include "scenario/stage_layers.h"

#include <QVBoxLayout>

#include <array>
#include <cmath>

namespace lse::gui {

namespace {

constexpr double kGigabyte = 1e-9;  // charts show GB (SI, as GPU datasheets quote memory)

QString gpuName(const Accelerator &gpu) { return QString::fromStdString(gpu.name.empty() ? gpu.id : gpu.name); }

QString problemText(const Problems &problems)
{
    return problems.empty() ? QString() : QString::fromStdString(problems.front().message);
}

// Bytes each training state takes per parameter, as the ZeRO formulas name them: the core's
// model-state bytes of one unsharded parameter.
struct StateBytes {
    double weights = 2;
    double gradients = 2;
    double optimizer = 12;  // K: fp32 master copy + optimizer states
};

StateBytes stateBytes(const TrainingConfig &training)
{
    const ModelStateBytes one = modelStateBytes(1.0, training, 1, optimizerStateBytesPerParameter(training.optimizer));
    return {one.params, one.grads, one.optimizer};
}

// Bytes per parameter: whole numbers for the usual dtypes, two decimals for 8-bit Adam's block scales.
QString bytesText(double value) { return format::decimal(value, value == std::round(value) ? 0 : 2); }

}  // namespace

MemoryPage::MemoryPage(QWidget *parent) : Page(parent)
{
    auto *layout = new QVBoxLayout(addScrollingContent(this));
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(8);
    stages_chart_ = new ChartView(QStringLiteral("memory-per-gpu"), this);
    activation_chart_ = new ChartView(QStringLiteral("activation-memory-vs-seq-len"), this);
    layout->addWidget(stages_chart_, 1);
    layout->addWidget(activation_chart_, 1);
    // The chart view itself grows beyond this when its legend, rotated labels and axes need the
    // room (ChartView keeps a minimum data area), so the bars stay readable at projector sizes.
    setChartMinimumHeights(kChartMinimumHeight, kPresentationChartMinimumHeight);
    setPresentation(false);
    refresh();
}

QString MemoryPage::pageId() { return QStringLiteral("memory"); }

QString MemoryPage::pageTitle() { return tr("Memory"); }

QList<ChartView *> MemoryPage::charts() const { return {stages_chart_, activation_chart_}; }

void MemoryPage::estimateChanged(const Scenario * /*previous*/)
{
    refresh();
}

void MemoryPage::retranslate() { refresh(); }

void MemoryPage::refresh()
{
    stages_chart_->setData(zeroStageChart());
    activation_chart_->setData(activationChart());
}

ChartData MemoryPage::zeroStageChart() const
{
    ChartData chart;
    chart.x_label = tr("Configuration");
    chart.y_label = tr("Memory per GPU (GB)");
    chart.y_unit = QStringLiteral("bytes");
    chart.y_display_scale = kGigabyte;
    if (!hasEstimate()) {
        chart.title = tr("Memory per GPU: no valid scenario yet");
        return chart;
    }
    const Scenario &scenario = this->scenario();
    const TrainingConfig &training = scenario.training;
    const ParallelConfig &parallel = training.parallel;
    const MemoryEstimate &current = estimate().memory;
    const InferenceEstimate &inference = estimate().inference;
    const StateBytes per_parameter = stateBytes(training);
    const int zero_group = parallel.dp * parallel.cp;

    chart.title = tr("Memory per GPU: ZeRO stages and inference");
    const std::vector<ZeroStageMemory> stages = memoryByZeroStage(scenario);
    for (const ZeroStageMemory &stage : stages)
        chart.categories << (stage.stage == parallel.zero_stage ? tr("ZeRO %1 (current)").arg(stage.stage)
                                                                : tr("ZeRO %1").arg(stage.stage));
    chart.categories << tr("Inference");
    const int inference_index = int(stages.size());

    enum Part { Weights, Gradients, Optimizer, Activations, KvCache, Reserve, PartCount };
    const std::array<QString, PartCount> names = {tr("Weights"),     tr("Gradients"),
                                                  tr("Optimizer states (incl. fp32 master)"), tr("Activations"),
                                                  tr("KV cache (inference only)"), tr("Framework reserve")};
    std::array<ChartSeries, PartCount> series;
    for (int part = 0; part < PartCount; ++part) {
        series[std::size_t(part)].name = names[std::size_t(part)];
        series[std::size_t(part)].kind = ChartSeries::Kind::Bar;
        series[std::size_t(part)].stack_group = 0;
    }
    const auto add = [&](Part part, int x, double bytes, const QString &formula) {
        ChartSeries &s = series[std::size_t(part)];
        s.x << double(x);
        s.y << bytes;
        s.point_tooltips << tr("%1<br>%2").arg(format::bytesExact(bytes), formula);
    };

    const QString psi = tr("Ψ = %1 parameters on this GPU").arg(format::integer(current.parameters_on_gpu));
    for (const ZeroStageMemory &stage : stages) {
        const int x = stage.stage;
        if (!stage.memory) {
            const QString why = tr("No estimate at ZeRO %1: %2").arg(stage.stage).arg(problemText(stage.problems));
            for (int part = 0; part < PartCount; ++part)
                add(Part(part), x, 0, why);
            continue;
        }
        const MemoryEstimate &m = *stage.memory;
        const bool shard_params = stage.stage >= 3, shard_grads = stage.stage >= 2, shard_optimizer = stage.stage >= 1;
        const auto sharded = [&](bool on, const QString &bytes_per_param) {
            return on ? tr("%1·Ψ / N_d (sharded over N_d = dp·cp = %2)").arg(bytes_per_param).arg(zero_group)
                      : tr("%1·Ψ (replicated on every data-parallel rank)").arg(bytes_per_param);
        };
        add(Weights, x, double(m.params), sharded(shard_params, format::decimal(per_parameter.weights, 0)) + tr("; %1").arg(psi));
        add(Gradients, x, double(m.grads), sharded(shard_grads, format::decimal(per_parameter.gradients, 0)));
        add(Optimizer, x, double(m.optimizer),
            sharded(shard_optimizer, tr("K = %1").arg(bytesText(per_parameter.optimizer))));
        add(Activations, x, double(m.activations),
            tr("%1 per layer × layers of stage %2 × %3 in-flight micro-batches (Korthikanti et al. 2022, Table 2, §4.2.3)")
                .arg(format::bytes(m.activation_bytes_per_layer))
                .arg(m.pipeline_stage)
                .arg(format::decimal(m.in_flight_micro_batches, 2)));
        add(KvCache, x, 0, tr("Training keeps no KV cache"));
        add(Reserve, x, double(m.framework_reserve), frameworkReserveExplanation(m.framework_reserve));
    }
    const QString weights_formula = tr("weights of the most loaded pipeline stage at %1 B per parameter, tensor-parallel "
                                       "matrices split over t = %2 (no gradients or optimizer states)")
                                        .arg(format::decimal(per_parameter.weights, 0))
                                        .arg(parallel.tp);
    add(Weights, inference_index, double(inference.weights_bytes_per_gpu), weights_formula);
    add(Gradients, inference_index, 0, tr("Inference keeps no gradients"));
    add(Optimizer, inference_index, 0, tr("Inference keeps no optimizer states"));
    add(Activations, inference_index, 0, tr("Inference activations are transient and not counted"));
    add(KvCache, inference_index, double(inference.kv_cache_bytes_per_gpu),
        tr("2 (K and V) · %1 layers (the most loaded of p = %2 stages) · ⌈%3 KV heads / t = %4⌉ · %5 head dim · "
           "%6 B · b = %7 · s = %8 (Kwon et al. 2023, vLLM §3)")
            .arg(mostLoadedStageLayers(scenario.model.n_layers, parallel))
            .arg(parallel.pp)
            .arg(scenario.model.n_kv_heads)
            .arg(parallel.tp)
            .arg(scenario.model.head_dim)
            .arg(bytesPerElement(training.kv_cache_dtype))
            .arg(training.micro_batch)
            .arg(training.seq_len));
    add(Reserve, inference_index, double(training.framework_reserve_bytes),
        frameworkReserveExplanation(training.framework_reserve_bytes));
    for (ChartSeries &s : series)
        chart.series << s;

    chart.reference_lines << ReferenceLine{double(current.capacity),
                                          tr("%1 capacity: %2").arg(gpuName(scenario.cluster.accelerator),
                                                                    format::bytes(double(current.capacity))),
                                          QColor()};

    chart.formula.inputs =
        tr("%13 on %14 × %15; Ψ = %1 on the busiest GPU, N_d = dp·cp = %2, bytes per parameter: %3 weights, "
           "%4 gradients, K = %5 (%6); t = %7, p = %8, s = %9, b = %10, %11 recomputation, FlashAttention %12")
            .arg(format::count(double(current.parameters_on_gpu)))
            .arg(zero_group)
            .arg(format::decimal(per_parameter.weights, 0), format::decimal(per_parameter.gradients, 0))
            .arg(bytesText(per_parameter.optimizer), displayName(training.optimizer))
            .arg(parallel.tp)
            .arg(parallel.pp)
            .arg(training.seq_len)
            .arg(training.micro_batch)
            .arg(displayName(training.recomputation), training.flash_attention ? tr("on") : tr("off"),
                 QString::fromStdString(scenario.model.name).toHtmlEscaped(), format::integer(scenario.cluster.gpus),
                 gpuName(scenario.cluster.accelerator).toHtmlEscaped());
    chart.formula.formula =
        tr("ZeRO-0 (2+2+K)Ψ · ZeRO-1 4Ψ + KΨ/N_d · ZeRO-2 2Ψ + (2+K)Ψ/N_d · ZeRO-3 (4+K)Ψ/N_d; activations "
           "per layer as in Korthikanti Table 2; inference: weights/t + KV cache "
           "2·L_s·(n_kv/t)·d_head·bytes·b·s, L_s the layers of the most loaded pipeline stage (L/p when p divides L); "
           "every bar + framework reserve R = %1 (CUDA context, NCCL buffers, allocator fragmentation)")
            .arg(format::bytes(double(training.framework_reserve_bytes)));
    chart.formula.source = tr("Rajbhandari et al. 2019 (ZeRO), §3.1 and §5; Korthikanti et al. 2022, Table 2 and "
                             "§4.2.3; Kwon et al. 2023 (vLLM), §3; R: %1")
                               .arg(frameworkReserveSources());
    return chart;
}

ChartData MemoryPage::activationChart() const
{
    ChartData chart;
    chart.x_label = tr("Sequence length (tokens, log scale)");
    chart.x_unit = QStringLiteral("tokens");
    chart.y_label = tr("Activation memory per GPU (GB, log scale)");
    chart.y_unit = QStringLiteral("bytes");
    chart.y_display_scale = kGigabyte;
    chart.log_x = true;
    chart.log_y = true;  // the s² term spans four orders of magnitude over the sweep
    if (!hasEstimate()) {
        chart.title = tr("Activation memory: no valid scenario yet");
        return chart;
    }
    const Scenario &scenario = this->scenario();
    const TrainingConfig &training = scenario.training;
    const ActivationMemorySweep sweep = activationMemoryVsSeqLen(scenario, format::seqLenSweep(training.seq_len));
    if (sweep.points.empty()) {
        chart.title = tr("Activation memory: no sequence length gives a valid scenario (%1)")
                         .arg(sweep.skipped.empty() ? QString() : problemText(sweep.skipped.front().problems));
        return chart;
    }
    chart.title = tr("Activation memory per GPU vs sequence length");

    struct Line {
        ActivationSetting setting;
        QString name;
        QString formula;
        bool dashed;
    };
    // The recomputation curves use the scenario's FlashAttention setting, so the current scenario's
    // curve passes through its marker; the dashed curve flips FlashAttention.
    const bool flash = sweep.flash_attention;
    const QString without_scores = tr("≈ 34·sbh per layer: FlashAttention never materialises the s×s scores "
                                      "(Dao et al. 2022)");
    const QString with_scores = tr("sbh(34 + 5as/h) per layer: the s×s scores, softmax and dropout mask are stored");
    const Line lines[] = {
        {ActivationSetting::NoRecomputation,
         flash ? tr("No recomputation, FlashAttention on") : tr("No recomputation, FlashAttention off"),
         flash ? without_scores : with_scores, false},
        {ActivationSetting::Selective,
         flash ? tr("Selective recomputation, FlashAttention on") : tr("Selective recomputation, FlashAttention off"),
         tr("34·sbh per layer (÷ t with TP+SP): the attention core is recomputed"), false},
        {ActivationSetting::Full,
         flash ? tr("Full recomputation, FlashAttention on") : tr("Full recomputation, FlashAttention off"),
         tr("2sbh per layer (its input) + one layer's activations while it is recomputed"), false},
        {ActivationSetting::OppositeFlashAttention,
         flash ? tr("No recomputation, FlashAttention off") : tr("No recomputation, FlashAttention on"),
         flash ? with_scores : without_scores, true},
    };
    for (const Line &line : lines) {
        ChartSeries series;
        series.name = line.name;
        series.kind = ChartSeries::Kind::Line;
        series.dashed = line.dashed;
        for (const ActivationMemoryPoint &point : sweep.points) {
            const double bytes = double(point.bytes[std::size_t(line.setting)]);
            series.x << double(point.seq_len);
            series.y << bytes;
            series.point_tooltips << tr("s = %1: %2<br>%3")
                                         .arg(format::integer(point.seq_len), format::bytesExact(bytes), line.formula);
        }
        chart.series << series;
    }
    ChartSeries marker;
    marker.name = tr("Current scenario");
    marker.kind = ChartSeries::Kind::Marker;
    marker.x << double(training.seq_len);
    marker.y << double(estimate().memory.activations);
    marker.point_tooltips << tr("s = %1, %2 recomputation, FlashAttention %3: %4")
                                 .arg(format::integer(training.seq_len), displayName(training.recomputation),
                                      training.flash_attention ? tr("on") : tr("off"),
                                      format::bytesExact(double(estimate().memory.activations)));
    chart.series << marker;

    chart.reference_lines << ReferenceLine{double(estimate().memory.capacity),
                                          tr("%1 capacity: %2").arg(gpuName(scenario.cluster.accelerator),
                                                                    format::bytes(double(estimate().memory.capacity))),
                                          QColor()};
    QString inputs = tr("%10: h = %1, a = %2, L = %3, b = %4, t = %5%11, p = %6, cp = %7, activations %8, dropout %9")
                         .arg(scenario.model.d_model)
                         .arg(scenario.model.n_heads)
                         .arg(scenario.model.n_layers)
                         .arg(training.micro_batch)
                         .arg(training.parallel.tp)
                         .arg(training.parallel.pp)
                         .arg(training.parallel.cp)
                         .arg(format::fromStd(toString(training.precision.activation_dtype)),
                              training.dropout ? tr("on") : tr("off"),
                              QString::fromStdString(scenario.model.name).toHtmlEscaped(),
                              training.parallel.sequence_parallel ? tr(" with sequence parallelism") : QString());
    if (!sweep.skipped.empty())
        inputs += tr("; %n sequence length(s) skipped: %1", nullptr, int(sweep.skipped.size()))
                      .arg(problemText(sweep.skipped.front().problems));
    if (scenario.model.positional_encoding == PositionalEncoding::Learned)
        inputs += tr("; learned positions are assumed to extend beyond %1 tokens").arg(scenario.model.max_seq_len);
    chart.formula.inputs = inputs;
    chart.formula.formula =
        tr("per layer: none sbh(34 + 5as/h) · selective 34·sbh · full 2sbh (÷ t with tensor + sequence "
           "parallelism), × the stage's layers (L/p when p divides L) × in-flight micro-batches; GQA, gated MLPs and "
           "MoE change the 34");
    chart.formula.source = tr("Korthikanti et al. 2022, Table 2 and §4.2.3; Dao et al. 2022 (FlashAttention)");
    return chart;
}

}  // namespace lse::gui
