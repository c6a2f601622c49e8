// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate_report.h"

#include "output.h"
#include "scenario/stage_layers.h"

namespace lse::cli {

namespace {

QString qstr(std::string_view text) { return QString::fromUtf8(text.data(), qsizetype(text.size())); }

class Report {
public:
    void section(const QString &title) { text_ += (text_.isEmpty() ? "" : "\n") + title + "\n"; }
    void row(const QString &label, const QString &value) { text_ += QStringLiteral("  %1 %2\n").arg(label + ':', -28).arg(value); }
    QString text() const { return text_; }

private:
    QString text_;
};

QString percent(double part, double whole)
{
    return whole > 0 ? QStringLiteral("%1%").arg(100.0 * part / whole, 0, 'f', 1) : QStringLiteral("-");
}

}  // namespace

QString estimateReport(const Estimate &e, const Scenario &scenario)
{
    const ModelConfig &model = scenario.model;
    const TrainingConfig &training = scenario.training;
    const ParallelConfig &parallel = training.parallel;
    Report report;

    report.section(QStringLiteral("Scenario"));
    report.row("model", QStringLiteral("%1 (%2 layers, d_model %3, %4 heads / %5 KV, d_ff %6, vocab %7)")
                            .arg(qstr(model.name)).arg(model.n_layers).arg(model.d_model).arg(model.n_heads)
                            .arg(model.n_kv_heads).arg(model.d_ff).arg(model.vocab_size));
    report.row("cluster", QStringLiteral("%1 x %2, %3 per node").arg(scenario.cluster.gpus)
                              .arg(qstr(scenario.cluster.accelerator.name)).arg(scenario.cluster.gpus_per_node));
    report.row("parallelism", QStringLiteral("dp %1, tp %2, pp %3, cp %4, ep %5%6, ZeRO-%7")
                                  .arg(parallel.dp).arg(parallel.tp).arg(parallel.pp).arg(parallel.cp).arg(parallel.ep)
                                  .arg(parallel.sequence_parallel ? ", SP" : "").arg(parallel.zero_stage));
    if (parallel.pp > 1)
        report.row("layers per stage", QStringLiteral("%1 (%2; most loaded: stage %3)")
                                           .arg(qstr(stageLayersText(e.memory.layers_per_stage)))
                                           .arg(parallel.stage_layers.empty() ? "automatic" : "given")
                                           .arg(e.memory.most_loaded_stage));
    report.row("training", QStringLiteral("%1 tokens, seq %2, batch %3 (micro %4), %5, %6, recompute %7")
                               .arg(formatCount(double(training.tokens))).arg(training.seq_len)
                               .arg(training.global_batch).arg(training.micro_batch)
                               .arg(qstr(toString(training.precision.recipe))).arg(qstr(toString(training.optimizer)))
                               .arg(qstr(toString(training.recomputation))));

    report.section(QStringLiteral("Parameters"));
    report.row("total", QStringLiteral("%1 (%2)").arg(formatCount(double(e.params.total))).arg(e.params.total));
    report.row("active per token", QStringLiteral("%1 (%2)").arg(formatCount(double(e.params.active))).arg(e.params.active));
    report.row("embedding", formatCount(double(e.params.embedding)));
    report.row("attention", formatCount(double(e.params.attention)));
    if (e.params.mlp > 0)
        report.row("mlp", formatCount(double(e.params.mlp)));
    if (e.params.experts > 0) {
        report.row("experts (routed)", formatCount(double(e.params.experts)));
        report.row("router", formatCount(double(e.params.router)));
    }
    if (e.params.shared_experts > 0)
        report.row("shared experts", formatCount(double(e.params.shared_experts)));
    report.row("norms", formatCount(double(e.params.norms)));
    if (e.params.biases > 0)
        report.row("biases", formatCount(double(e.params.biases)));
    report.row("lm head", e.params.head > 0 ? formatCount(double(e.params.head)) : QStringLiteral("tied to embedding"));

    report.section(QStringLiteral("FLOPs (matmuls, 2·m·n·k; attention %1)").arg(qstr(toString(training.attention_flops))));
    report.row("forward per token", formatFlops(e.flops.forward_per_token));
    for (int i = 0; i < kComponentCount; ++i) {
        const double value = e.flops.forward_per_token_by_component[std::size_t(i)];
        if (value > 0)
            report.row(QStringLiteral("  %1").arg(qstr(toString(Component(i)))),
                       QStringLiteral("%1  %2").arg(formatFlops(value), percent(value, e.flops.forward_per_token)));
    }
    report.row("train per token", formatFlops(e.flops.train_per_token) + "  (forward + 2x backward)");
    if (e.flops.recompute_per_token > 0)
        report.row("recompute per token", formatFlops(e.flops.recompute_per_token));
    report.row("total training (exact)", formatFlops(e.flops.total_train));
    report.row("6·N·D", formatFlops(e.flops.six_nd) + QStringLiteral("  (exact/6ND = %1)")
                            .arg(e.flops.total_train / e.flops.six_nd, 0, 'f', 3));

    report.section(QStringLiteral("Time (%1 FLOPs, %2 peak, MFU %3 % (%4))")
                       .arg(qstr(toString(training.flops_model)))
                       .arg(scenario.cluster.peak_flops_per_second_override ? "override" : "dense")
                       .arg(100 * e.time.mfu, 0, 'f', 1)
                       .arg(qstr(toString(e.time.mfu_source))));
    report.row("peak per GPU", QStringLiteral("%1 TFLOP/s").arg(e.time.peak_flops_per_gpu / 1e12, 0, 'f', 1));
    if (e.time.predicted) {
        // What the predicted MFU comes from (performance::predictStep); the parts add up to the step.
        const PredictedStepFigures &predicted = *e.time.predicted;
        // How sure: the accelerator's held-out 90th-percentile error, or why there is none.
        const QString band = predicted.band_fraction > 0
            ? QStringLiteral("± %1 %: %2 to %3").arg(100 * predicted.band_fraction, 0, 'f', 0)
                  .arg(formatSeconds(predicted.step_seconds_low), formatSeconds(predicted.step_seconds_high))
            : QString::fromStdString(predicted.band_basis);
        report.row("predicted step", QStringLiteral("%1 (%2; operator-level kernel times + exposed communication + bubble)")
                                         .arg(formatSeconds(predicted.step_seconds), band));
        if (predicted.band_fraction > 0)
            report.row("  band", QStringLiteral("MFU %1 % to %2 %, training time %3 to %4 (%5)")
                                     .arg(100 * predicted.mfu_low, 0, 'f', 1)
                                     .arg(100 * predicted.mfu_high, 0, 'f', 1)
                                     .arg(formatDays(predicted.training_seconds_low / 86400.0),
                                          formatDays(predicted.training_seconds_high / 86400.0),
                                          QString::fromStdString(predicted.band_basis)));
        for (const StepPartSeconds &part : e.time.predicted->step_breakdown)
            report.row(QStringLiteral("  %1").arg(qstr(part.id)),
                       QStringLiteral("%1  %2").arg(formatSeconds(part.seconds),
                                                    percent(part.seconds, e.time.predicted->step_seconds)));
    }
    report.row("training time", formatDays(e.time.days));
    report.row("GPU-hours", formatCount(e.time.gpu_hours));
    report.row("cost", QStringLiteral("%1 at %2 per GPU-hour").arg(formatCount(e.time.cost))
                           .arg(scenario.cluster.price_per_gpu_hour, 0, 'f', 2));
    report.row("throughput", QStringLiteral("%1 tokens/s").arg(formatCount(e.time.tokens_per_second)));
    report.row("steps", QStringLiteral("%1 of %2").arg(formatCount(e.time.steps)).arg(formatSeconds(e.time.step_seconds)));
    report.row("HFU", QStringLiteral("%1 (with recomputation)").arg(e.time.hfu, 0, 'f', 3));

    const MemoryEstimate &m = e.memory;
    report.section(QStringLiteral("Memory per GPU (pipeline stage %1, GB = 1e9 bytes)").arg(m.pipeline_stage));
    report.row("parameters", formatBytes(double(m.params)));
    report.row("gradients", formatBytes(double(m.grads)));
    report.row("optimizer states", formatBytes(double(m.optimizer)));
    report.row("activations", QStringLiteral("%1  (%2 per layer, %3 micro-batches in flight)")
                                  .arg(formatBytes(double(m.activations)))
                                  .arg(formatBytes(m.activation_bytes_per_layer))
                                  .arg(m.in_flight_micro_batches, 0, 'g', 4));
    // Always shown: the default is not zero, and a total without it would not add up.
    report.row("framework reserve",
               m.framework_reserve == kDefaultFrameworkReserveBytes
                   ? QStringLiteral("%1  (default: CUDA context %2 + NCCL buffers %3 + allocator fragmentation %4)")
                         .arg(formatBytes(double(m.framework_reserve)),
                              formatBytes(double(kDefaultFrameworkReserve[0].bytes)),
                              formatBytes(double(kDefaultFrameworkReserve[1].bytes)),
                              formatBytes(double(kDefaultFrameworkReserve[2].bytes)))
                   : QStringLiteral("%1  (--reserve-gb / training.framework_reserve_bytes)")
                         .arg(formatBytes(double(m.framework_reserve))));
    report.row("total", QStringLiteral("%1 of %2 -> %3").arg(formatBytes(double(m.total)))
                            .arg(formatBytes(double(m.capacity)))
                            .arg(m.fits ? "fits" : "DOES NOT FIT"));

    const CommunicationEstimate &c = e.communication;
    report.section(QStringLiteral("Communication per step, per GPU (alpha-beta)"));
    const std::pair<const char *, const CommunicationPart *> parts[] = {
        {"dp", &c.dp}, {"tp", &c.tp}, {"pp", &c.pp}, {"cp", &c.cp}, {"ep", &c.ep}};
    for (const auto &[name, part] : parts) {
        if (part->group_size <= 1)
            continue;
        report.row(QString::fromLatin1(name), QStringLiteral("%1 in %2 (%3 over %4 ranks, %5)")
                                                  .arg(formatBytes(part->bytes)).arg(formatSeconds(part->seconds))
                                                  .arg(qstr(part->collective)).arg(part->group_size)
                                                  .arg(part->crosses_nodes ? "inter-node" : "intra-node"));
    }
    report.row("total if not overlapped", formatSeconds(c.total_seconds));

    report.section(QStringLiteral("Inference"));
    report.row("KV cache per token", formatBytes(double(e.inference.kv_cache_bytes_per_token)));
    report.row("KV cache per sequence", QStringLiteral("%1 at %2 tokens")
                                            .arg(formatBytes(double(e.inference.kv_cache_bytes_per_sequence)))
                                            .arg(training.seq_len));
    return report.text();
}

}  // namespace lse::cli
