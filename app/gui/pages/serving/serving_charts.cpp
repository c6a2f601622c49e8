// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/serving/serving_charts.h"

#include "charts/chart_palette.h"
#include "inference/speculative.h"
#include "pages/operator_text.h"
#include "pages/page_format.h"
#include "pages/parallel/layout/duration_format.h"
#include "roofline/roofline_machine.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace lse::gui {

using namespace lse::inference;

namespace {

constexpr double kGigabyte = 1e-9;
constexpr int kAlphaSamples = 51;  // α = 0, 0.02, …, 1: the curve is smooth at this spacing
constexpr int kOtherGammas[] = {1, 2, 8};

QString seconds(double value) { return format::duration(value); }

QString tokensPerSecond(double value) { return format::si(value, ServingCharts::tr("tokens/s")); }

QString formatName(ServingFormat format)
{
    return format == ServingFormat::INT4 ? QStringLiteral("INT4 (g128)") : format::fromStd(toString(format)).toUpper();
}

QString computeName(ComputeFormat format) { return format::fromStd(toString(format)).toUpper(); }

}  // namespace

ChartData ServingCharts::empty(const QString &title, const QString &formula, const QString &source)
{
    ChartData chart;
    chart.translation_context = QStringLiteral("ServingCharts");
    chart.title = title;
    chart.formula.formula = formula;
    chart.formula.source = source;
    return chart;
}

QString ServingCharts::memoryFormula()
{
    return tr("total = weights (linear layers at the weight format, embedding and norms 16-bit, ÷ tp, the most loaded "
              "pipeline stage) + KV cache (2 · layers · ⌈KV heads / tp⌉ · head_dim · bytes · (prompt + output) · "
              "batch) + workspace (the largest prefill operator's activations and the residual stream of a "
              "micro-batch) + framework reserve; fits when total ≤ capacity");
}

QString ServingCharts::memorySource()
{
    return tr("KV cache: Kwon et al. 2023 (vLLM) §3; int4 scales: Frantar et al. 2023 (GPTQ) §5, Lin et al. 2024 "
              "(AWQ); capacity: the accelerator's datasheet (hardware catalog); core/inference/serving_model");
}

ChartData ServingCharts::memory(const ServingReport &report, const ServingReport *at_max_batch)
{
    ChartData chart;
    chart.translation_context = QStringLiteral("ServingCharts");
    chart.title = tr("Memory per GPU");
    chart.x_label = tr("Batch");
    chart.y_label = tr("Memory per GPU (GB)");
    chart.y_unit = QStringLiteral("bytes");
    chart.y_display_scale = kGigabyte;
    chart.formula.formula = memoryFormula();
    chart.formula.source = memorySource();

    std::vector<const ServingReport *> reports{&report};
    chart.categories << tr("batch %1 (chosen)").arg(format::integer(report.inputs.batch));
    if (at_max_batch && at_max_batch->inputs.batch != report.inputs.batch) {
        reports.push_back(at_max_batch);
        chart.categories << tr("batch %1 (largest that fits)").arg(format::integer(at_max_batch->inputs.batch));
    }
    enum Part { Weights, KvCache, Workspace, Reserve, PartCount };
    const QString names[PartCount] = {tr("Weights"), tr("KV cache"), tr("Workspace (activations)"),
                                      tr("Framework reserve")};
    ChartSeries series[PartCount];
    for (int part = 0; part < PartCount; ++part) {
        series[part].name = names[part];
        series[part].kind = ChartSeries::Kind::Bar;
        series[part].stack_group = 0;
    }
    for (std::size_t i = 0; i < reports.size(); ++i) {
        const ServingMemory &memory = reports[i]->memory;
        const ServingInputs &inputs = reports[i]->inputs;
        const double values[PartCount] = {memory.weights_bytes, memory.kv_cache_bytes, memory.activation_bytes,
                                          memory.reserve_bytes};
        const QString explanations[PartCount] = {
            tr("weights at %1 (%2 bytes per weight), tp %3, pp %4")
                .arg(formatName(inputs.weights), format::decimal(weightBytesPerElement(inputs.weights), 6))
                .arg(inputs.tp)
                .arg(inputs.pp),
            tr("%1 per token and sequence × (%2 + %3 tokens) × batch %4, at %5")
                .arg(format::bytes(memory.kv_cache_bytes_per_token), format::integer(inputs.prompt_tokens),
                     format::integer(inputs.output_tokens), format::integer(inputs.batch), formatName(inputs.kv_cache)),
            tr("the largest prefill operator's activations and the residual stream of a micro-batch of %1")
                .arg(format::integer(reports[i]->micro_batch)),
            tr("the scenario's framework reserve (CUDA context, allocator)")};
        for (int part = 0; part < PartCount; ++part) {
            series[part].x << double(i);
            series[part].y << values[part];
            series[part].point_tooltips << tr("<b>%1</b>: %2<br>%3<br>total %4 of %5 (%6)")
                                               .arg(names[part], format::bytesExact(values[part]), explanations[part],
                                                    format::bytes(memory.total_bytes), format::bytes(memory.capacity_bytes),
                                                    memory.fits ? tr("fits") : tr("does not fit"));
        }
    }
    for (const ChartSeries &s : series)
        chart.series << s;
    chart.reference_lines << ReferenceLine{report.memory.capacity_bytes,
                                           tr("capacity %1").arg(format::bytes(report.memory.capacity_bytes)), QColor()};
    chart.formula.inputs = tr("%1 on %2 × %3, tp %4, pp %5; weights %6, KV cache %7, activations %8")
                               .arg(format::fromStd(report.inputs.scenario.model.name).toHtmlEscaped())
                               .arg(report.gpus)
                               .arg(format::fromStd(report.inputs.scenario.cluster.accelerator.name).toHtmlEscaped())
                               .arg(report.inputs.tp)
                               .arg(report.inputs.pp)
                               .arg(formatName(report.inputs.weights), formatName(report.inputs.kv_cache),
                                    formatName(report.inputs.activations));
    return chart;
}

QString ServingCharts::latencyFormula()
{
    return tr("each point one batch b (1, 2, 4, … the largest that fits): TPOT = decode time / (output − 1) steps; "
              "output tokens/s per GPU = replicas · b · output / (TTFT + decode) / GPUs; decode's weight matmuls are "
              "compute-bound from the roofline's crossover batch (ridge point / intensity per sequence)");
}

QString ServingCharts::latencySource()
{
    return tr("core/inference sweepBatch over serve(); crossover: core/roofline decodeCrossoverBatch (Williams et al. "
              "2009); latency–throughput trade-off as in Yu et al. 2022 (Orca) and Kwon et al. 2023 (vLLM)");
}

ChartData ServingCharts::latencyThroughput(const BatchSweep &sweep, const ServingReport &current,
                                           const ServingReport *at_crossover)
{
    ChartData chart;
    chart.translation_context = QStringLiteral("ServingCharts");
    chart.x_label = tr("Output tokens/s per GPU");
    chart.x_unit = QStringLiteral("tokens/s");
    chart.y_label = tr("Time per output token (ms)");
    chart.y_unit = QStringLiteral("s");
    chart.y_display_scale = 1e3;
    chart.formula.formula = latencyFormula();
    chart.formula.source = latencySource();
    if (sweep.rows.empty()) {
        chart.title = tr("Latency vs throughput: no batch fits in memory");
        return chart;
    }
    chart.title = tr("Latency vs throughput over the batch (1 → %1)").arg(format::integer(sweep.max_batch));
    ChartSeries line;
    line.name = tr("batch 1 → %1").arg(format::integer(sweep.max_batch));
    line.color = QColor(0x99, 0x99, 0x99);
    ChartSeries memory_bound;
    memory_bound.name = tr("decode memory-bound");
    memory_bound.kind = ChartSeries::Kind::Marker;
    memory_bound.color = QColor(0x00, 0x72, 0xB2);  // Okabe–Ito blue, as the Roofline page's
    ChartSeries compute_bound;
    compute_bound.name = tr("decode compute-bound");
    compute_bound.kind = ChartSeries::Kind::Marker;
    compute_bound.color = QColor(0xD5, 0x5E, 0x00);  // Okabe–Ito vermillion
    for (const SweepRow &row : sweep.rows) {
        const QString tooltip = tr("<b>batch %1</b><br>TPOT %2, TTFT %3, end to end %4<br>%5 per GPU (%6 in all)<br>"
                                   "memory %7, MBU %8, MFU %9<br>decode %10")
                                    .arg(format::integer(row.batch), seconds(row.tpot_seconds), seconds(row.ttft_seconds),
                                         seconds(row.end_to_end_seconds), tokensPerSecond(row.output_tokens_per_second_per_gpu),
                                         tokensPerSecond(row.output_tokens_per_second), format::bytes(row.memory_total_bytes),
                                         format::percent(row.mbu), format::percent(row.mfu))
                                    .arg(row.decode_compute_bound ? tr("compute-bound") : tr("memory-bound"));
        line.x << row.output_tokens_per_second_per_gpu;
        line.y << row.tpot_seconds;
        line.point_tooltips << tooltip;
        ChartSeries &marker = row.decode_compute_bound ? compute_bound : memory_bound;
        marker.x << row.output_tokens_per_second_per_gpu;
        marker.y << row.tpot_seconds;
        marker.point_tooltips << tooltip;
        marker.point_labels << tr("b=%1").arg(format::integer(row.batch));
    }
    chart.series << line << memory_bound << compute_bound;
    ChartSeries chosen;
    chosen.name = tr("chosen batch %1").arg(format::integer(current.inputs.batch));
    chosen.kind = ChartSeries::Kind::Marker;
    chosen.hollow = true;
    chosen.marker_size = 16;
    chosen.color = QColor(0x00, 0x9E, 0x73);  // Okabe–Ito bluish green
    if (current.memory.fits) {
        chosen.x << current.output_tokens_per_second_per_gpu;
        chosen.y << current.tpot_seconds;
        chosen.point_tooltips << tr("<b>chosen batch %1</b><br>TPOT %2, %3 per GPU")
                                     .arg(format::integer(current.inputs.batch), seconds(current.tpot_seconds),
                                          tokensPerSecond(current.output_tokens_per_second_per_gpu));
        chart.series << chosen;
    }
    if (at_crossover) {
        ChartSeries crossover;
        crossover.name = tr("decode crossover, batch %1").arg(format::integer(sweep.decode_crossover_batch));
        crossover.kind = ChartSeries::Kind::Marker;
        crossover.marker_size = 12;
        crossover.color = QColor(0xCC, 0x79, 0xA7);  // Okabe–Ito reddish purple
        crossover.x << at_crossover->output_tokens_per_second_per_gpu;
        crossover.y << at_crossover->tpot_seconds;
        crossover.point_tooltips << tr("<b>decode crossover: batch %1</b><br>from here every decode weight matmul is "
                                       "compute-bound on the roofline; TPOT %2, %3 per GPU")
                                        .arg(format::integer(sweep.decode_crossover_batch),
                                             seconds(at_crossover->tpot_seconds),
                                             tokensPerSecond(at_crossover->output_tokens_per_second_per_gpu));
        chart.series << crossover;
    }
    chart.formula.inputs =
        tr("largest batch %1, decode crossover %2; %3 prompt + %4 output tokens")
            .arg(format::integer(sweep.max_batch),
                 sweep.decode_crossover_batch > 0 ? format::integer(sweep.decode_crossover_batch) : tr("none up to 2²⁴"),
                 format::integer(current.inputs.prompt_tokens), format::integer(current.inputs.output_tokens));
    return chart;
}

QString ServingCharts::rooflineFormula()
{
    return tr("attainable = min(peak, I · bandwidth), I = FLOPs / bytes of one GPU's share of the operator; time = "
              "max(FLOPs / (peak · compute_fraction), bytes / (bandwidth · bandwidth_fraction))");
}

QString ServingCharts::rooflineSource()
{
    return tr("Williams, Waterman & Patterson 2009 (Roofline), eq. 1; operators: core/roofline's prefill and decode "
              "phases from the one operator list (core/ops) at the serving formats; factors: "
              "resources/hardware/serving_efficiency.json");
}

ChartData ServingCharts::roofline(const ServingReport &report, bool prefill, const QPalette &palette)
{
    const std::vector<ServingOperator> &ops = prefill ? report.prefill_operators : report.decode_operators;
    ChartData chart;
    chart.translation_context = QStringLiteral("ServingCharts");
    chart.x_label = tr("Arithmetic intensity (FLOP/byte, log scale)");
    chart.x_unit = QStringLiteral("FLOP/B");
    chart.y_label = tr("Attainable FLOP/s (log scale)");
    chart.y_unit = QStringLiteral("FLOP/s");
    chart.log_x = true;
    chart.log_y = true;
    chart.formula.formula = rooflineFormula();
    chart.formula.source = rooflineSource();
    const QString gpu = format::fromStd(report.inputs.scenario.cluster.accelerator.name);
    chart.title = prefill ? tr("Prefill: batch %1 × %2 prompt tokens")
                                .arg(format::integer(report.micro_batch), format::integer(report.inputs.prompt_tokens))
                          : tr("Decode: one step of batch %1 at the mean context").arg(format::integer(report.micro_batch));

    // The roofs: the weight matmuls' peak at the compute format, and the 16-bit peak of the rest.
    std::set<double> peaks{report.peak_flops_per_second};
    double low = 1e-1, high = 1e4;
    for (const ServingOperator &op : ops) {
        if (op.peak_flops_per_second > 0)
            peaks.insert(op.peak_flops_per_second);
        if (op.intensity_flop_per_byte > 0) {
            low = std::min(low, op.intensity_flop_per_byte / 2);
            high = std::max(high, op.intensity_flop_per_byte * 2);
        }
    }
    for (const double peak : peaks) {
        RooflineMachine machine;
        machine.peak_flops_per_second = peak;
        machine.memory_bandwidth_bytes_per_second = report.memory_bandwidth_bytes_per_second;
        const double ridge = machine.ridgePointFlopPerByte();
        ChartSeries roof;
        const bool matmul = peak == report.peak_flops_per_second;
        roof.name = matmul ? tr("roof at %1 (weight matmuls), ridge %2")
                                 .arg(computeName(report.compute_format), format::decimal(ridge, 0))
                           : tr("16-bit roof (attention, element-wise), ridge %1").arg(format::decimal(ridge, 0));
        roof.color = chartReferenceColor(palette);
        roof.dashed = !matmul;
        std::vector<double> xs;
        for (int i = 0; i <= 48; ++i)
            xs.push_back(low * std::pow(high / low, double(i) / 48));
        if (ridge > low && ridge < high)
            xs.push_back(ridge);
        std::sort(xs.begin(), xs.end());
        for (const double x : xs) {
            roof.x << x;
            roof.y << attainableFlopsPerSecond(machine, x);
            roof.point_tooltips << tr("%1<br>I = %2 FLOP/B: min(%3, I · %4) = %5")
                                       .arg(gpu.toHtmlEscaped(), format::decimal(x, 2), format::si(peak, tr("FLOP/s")),
                                            format::si(machine.memory_bandwidth_bytes_per_second, QStringLiteral("B/s")),
                                            format::si(roof.y.back(), tr("FLOP/s")));
        }
        chart.series << roof;
    }

    ChartSeries memory;
    memory.name = tr("memory-bound operators");
    memory.kind = ChartSeries::Kind::Marker;
    memory.color = QColor(0x00, 0x72, 0xB2);
    ChartSeries compute;
    compute.name = tr("compute-bound operators");
    compute.kind = ChartSeries::Kind::Marker;
    compute.color = QColor(0xD5, 0x5E, 0x00);
    int unplotted = 0;
    for (const ServingOperator &op : ops) {
        if (!(op.intensity_flop_per_byte > 0) || !(op.flops > 0)) {
            ++unplotted;
            continue;
        }
        RooflineMachine machine;
        machine.peak_flops_per_second = op.peak_flops_per_second;
        machine.memory_bandwidth_bytes_per_second = report.memory_bandwidth_bytes_per_second;
        ChartSeries &series = op.roofline_bound == Bound::Compute ? compute : memory;
        series.x << op.intensity_flop_per_byte;
        series.y << attainableFlopsPerSecond(machine, op.intensity_flop_per_byte);
        series.point_tooltips
            << tr("<b>%1</b> (×%2)<br>shape %3<br>FLOPs %4, bytes %5, intensity %6 FLOP/B<br>time %7 (%8 of the pass), "
                  "%9-bound at the serving factors")
                   .arg(format::fromStd(op.name).toHtmlEscaped(), format::integer(op.count),
                        operatorShapeText(op.shape).toHtmlEscaped(), format::si(op.flops, tr("FLOP")), format::bytes(op.bytes),
                        format::decimal(op.intensity_flop_per_byte, 2), seconds(op.seconds), format::percent(op.share),
                        op.bound == Bound::Compute ? tr("compute") : tr("memory"));
    }
    chart.series << memory << compute;
    chart.formula.inputs = tr("%1: %2 at %3, HBM %4; %n operator(s) without FLOPs (lookups) left out", nullptr, unplotted)
                               .arg(gpu.toHtmlEscaped(), format::si(report.peak_flops_per_second, tr("FLOP/s")),
                                    computeName(report.compute_format),
                                    format::si(report.memory_bandwidth_bytes_per_second, QStringLiteral("B/s")));
    return chart;
}

QString ServingCharts::speculativeFormula()
{
    return tr("speedup = (1 − α^(γ+1)) / ((1 − α)(γc + 1)); expected tokens per target step (1 − α^(γ+1)) / (1 − α); "
              "c = draft TPOT / target TPOT on the same GPUs");
}

QString ServingCharts::speculativeSource()
{
    return tr("Leviathan, Kalman & Matias 2023, 'Fast Inference from Transformers via Speculative Decoding', eq. 1 and "
              "Theorem 3.8 (α i.i.d.; the target checks γ + 1 tokens in one memory-bound step)");
}

ChartData ServingCharts::speculativeSpeedup(const ServingReport &report)
{
    ChartData chart;
    chart.translation_context = QStringLiteral("ServingCharts");
    chart.x_label = tr("Acceptance rate α");
    chart.x_unit = QStringLiteral("probability");
    chart.y_label = tr("Expected speedup of decode (×)");
    chart.y_unit = QStringLiteral("x");
    chart.formula.formula = speculativeFormula();
    chart.formula.source = speculativeSource();
    if (!report.speculative) {
        chart.title = tr("Speculative decoding: choose a draft model");
        return chart;
    }
    const SpeculativeReport &s = *report.speculative;
    chart.title = tr("Speculative decoding with %1: speedup over α").arg(format::fromStd(s.draft_model));
    std::vector<int> gammas{s.draft_tokens};
    for (const int gamma : kOtherGammas)
        if (gamma != s.draft_tokens)
            gammas.push_back(gamma);
    for (std::size_t g = 0; g < gammas.size(); ++g) {
        const int gamma = gammas[g];
        ChartSeries curve;
        curve.name = g == 0 ? tr("γ = %1 (chosen)").arg(gamma) : tr("γ = %1").arg(gamma);
        curve.dashed = g != 0;
        for (int i = 0; i < kAlphaSamples; ++i) {
            const double alpha = double(i) / (kAlphaSamples - 1);
            const double speedup = inference::speculativeSpeedup(alpha, gamma, s.cost_coefficient);
            curve.x << alpha;
            curve.y << speedup;
            curve.point_tooltips << tr("α = %1, γ = %2, c = %3: %4 tokens per target step, speedup %5×")
                                        .arg(format::decimal(alpha, 2))
                                        .arg(gamma)
                                        .arg(format::decimal(s.cost_coefficient, 3),
                                             format::decimal(expectedTokensPerTargetStep(alpha, gamma), 2),
                                             format::decimal(speedup, 2));
        }
        chart.series << curve;
    }
    ChartSeries chosen;
    chosen.name = tr("chosen α = %1").arg(format::decimal(s.acceptance, 2));
    chosen.kind = ChartSeries::Kind::Marker;
    chosen.marker_size = 12;
    chosen.x << s.acceptance;
    chosen.y << s.speedup;
    chosen.point_tooltips << tr("<b>α = %1, γ = %2</b><br>%3 tokens per target step; c = %4 / %5 = %6<br>speedup %7×: "
                                "TPOT %8 instead of %9")
                                 .arg(format::decimal(s.acceptance, 2))
                                 .arg(s.draft_tokens)
                                 .arg(format::decimal(s.expected_tokens_per_step, 2), seconds(s.draft_tpot_seconds),
                                      seconds(s.target_tpot_seconds), format::decimal(s.cost_coefficient, 3),
                                      format::decimal(s.speedup, 2), seconds(s.tpot_seconds), seconds(s.target_tpot_seconds));
    chart.series << chosen;
    chart.reference_lines << ReferenceLine{1.0, tr("no speedup"), QColor()};
    chart.formula.inputs = tr("draft %1 (TPOT %2), target TPOT %3, c = %4, γ = %5, α = %6")
                               .arg(format::fromStd(s.draft_model).toHtmlEscaped(), seconds(s.draft_tpot_seconds),
                                    seconds(s.target_tpot_seconds), format::decimal(s.cost_coefficient, 3))
                               .arg(s.draft_tokens)
                               .arg(format::decimal(s.acceptance, 2));
    return chart;
}

}  // namespace lse::gui
