// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/decode_time_comparison.h"

#include "reference/engine_scenario.h"
#include "reference/trainer.h"

#include <algorithm>
#include <cstring>

namespace lse::reference {

Result<ReferenceDecodePrediction> predictReferenceDecode(const ModelConfig &model, std::int64_t batch,
                                                         std::int64_t prompt_tokens, std::int64_t output_tokens,
                                                         const CpuKernelFactors &kernels, AttentionAlgorithm prefill_kernel)
{
    TrainConfig config;
    config.model = model;
    config.batch_size = int(std::clamp<std::int64_t>(batch, 1, 1 << 20));
    const double best = kernels.gemm_flops_per_second.empty()
        ? 0
        : *std::max_element(kernels.gemm_flops_per_second.begin(), kernels.gemm_flops_per_second.end());
    performance::CpuInferenceInputs inputs;
    inputs.scenario = engineScenarioFor(config, best);
    inputs.scenario.training.fused_elementwise = false;  // every element-wise op is its own loop
    inputs.batch = batch;
    inputs.prompt_tokens = prompt_tokens;
    inputs.output_tokens = output_tokens;
    inputs.tiled_prefill_attention = prefill_kernel == AttentionAlgorithm::Tiled;
    Result<performance::CpuInferencePrediction> idle = performance::predictCpuInference(inputs, kernels);
    if (!idle)
        return idle.problems();
    ReferenceDecodePrediction out;
    out.idle = std::move(idle.value());
    out.cpu_share = std::clamp(kernels.cpu_share, 0.01, 1.0);
    out.prefill_seconds = out.idle.prefill_seconds / out.cpu_share;
    out.decode_seconds = out.idle.decode_seconds / out.cpu_share;
    if (out.decode_seconds > 0)
        out.decode_tokens_per_second = double(out.idle.batch * out.idle.decode_steps) / out.decode_seconds;
    return out;
}

namespace {

double measuredSeconds(const std::vector<OpRecord> &records, const std::string &name)
{
    double seconds = 0;
    for (const OpRecord &r : records)
        if (name == r.name)
            seconds += r.seconds;
    return seconds;
}

void comparePhase(std::vector<DecodeOperatorComparison> &rows, const char *phase,
                  const std::vector<performance::OperatorTime> &predicted, const std::vector<OpRecord> &measured,
                  double measured_phase_seconds, double scale)
{
    const std::size_t first = rows.size();
    DecodeOperatorComparison rest{kSamplingAndRestName, phase, 0, 0};
    for (const performance::OperatorTime &op : predicted) {
        if (op.name == "sampling") {
            rest.predicted_seconds += op.seconds * scale;
            continue;
        }
        rows.push_back({op.name, phase, op.seconds * scale, measuredSeconds(measured, op.name)});
    }
    // Timed operators the prediction has no row for (none expected) still count as measured.
    double timed = 0;
    for (const OpRecord &r : measured) {
        timed += r.seconds;
        const bool listed = std::any_of(rows.begin() + std::ptrdiff_t(first), rows.end(),
                                        [&](const DecodeOperatorComparison &row) { return row.name == r.name; });
        // The tiled kernel's flash_softmax and flash_attention_values carry FLOPs but no time of
        // their own (its one "flash_attention" operator has it): no row of zeros for them.
        if (!listed && r.seconds > 0)
            rows.push_back({r.name, phase, 0, r.seconds});
    }
    rest.measured_seconds = std::max(0.0, measured_phase_seconds - timed);
    rows.push_back(rest);
}

}  // namespace

std::vector<DecodeOperatorComparison> compareDecodeOperators(const ReferenceDecodePrediction &prediction,
                                                             const std::vector<OpRecord> &prefill,
                                                             const std::vector<OpRecord> &decode,
                                                             double measured_prefill_seconds,
                                                             double measured_decode_seconds)
{
    std::vector<DecodeOperatorComparison> rows;
    const double scale = 1.0 / prediction.cpu_share;
    comparePhase(rows, "prefill", prediction.idle.prefill_operators, prefill, measured_prefill_seconds, scale);
    comparePhase(rows, "decode", prediction.idle.decode_operators, decode, measured_decode_seconds, scale);
    return rows;
}

}  // namespace lse::reference
