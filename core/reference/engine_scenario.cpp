// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/engine_scenario.h"

#include <algorithm>

namespace lse::reference {

namespace {
constexpr double kNominalPeakFlopsPerSecond = 1e11;
}

Scenario engineScenarioFor(const TrainConfig &config, double peak_flops_per_s, double mfu)
{
    Scenario scenario;
    scenario.model = config.model;
    Accelerator &cpu = scenario.cluster.accelerator;
    cpu.id = "custom";
    cpu.name = "CPU";
    cpu.vendor = "this machine";
    const double peak = peak_flops_per_s > 0 ? peak_flops_per_s : kNominalPeakFlopsPerSecond;
    cpu.dense_peak.fp32_flops_per_second = peak;
    // Memory and links do not limit a one-device run; they only have to be valid.
    cpu.memory_bytes = std::int64_t(1) << 40;
    cpu.memory_bandwidth_bytes_per_second = 1e10;
    cpu.intra_node_bandwidth_bytes_per_second = 1e10;
    cpu.inter_node_bandwidth_bytes_per_second = 1e10;
    scenario.cluster.gpus = 1;
    scenario.cluster.gpus_per_node = 1;
    scenario.cluster.peak_flops_per_second_override = peak;

    TrainingConfig &training = scenario.training;
    training.seq_len = config.model.max_seq_len;
    training.global_batch = config.batch_size;
    training.micro_batch = config.batch_size;
    training.tokens = std::int64_t(config.batch_size) * config.model.max_seq_len;
    training.precision = precisionForRecipe(PrecisionRecipe::FP32);
    training.precision.master_weights = false;  // the reference updates its fp32 weights in place
    training.optimizer = Optimizer::AdamW;
    training.recomputation = Recomputation::None;
    // The tiled kernel is FlashAttention: the engine's flash operators, and no (T, T) activations.
    training.flash_attention = config.options.attention_kernel == AttentionAlgorithm::Tiled;
    training.dropout = false;
    training.attention_flops = AttentionFlops::Full;
    training.flops_model = FlopsModel::Exact;
    training.mfu = std::clamp(mfu, 1e-6, 1.0);
    // A CPU process: no CUDA context, no NCCL buffers, no GPU caching allocator.
    training.framework_reserve_bytes = 0;
    return scenario;
}

}  // namespace lse::reference
