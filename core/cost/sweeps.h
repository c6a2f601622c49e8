// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Series for the charts: the estimate of a scenario re-run with one input varied. Every point is
// an estimate() of a modified copy, so a chart never shows a figure the engine did not compute.
// Points whose modified scenario is invalid are not plotted; they are listed with the reason.

#include "cost/estimate.h"
#include "scenario/presets.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lse {

// A sweep value that gave no estimate, and why.
struct SkippedPoint {
    double x = 0;
    Problems problems;
};

// ---- Memory -------------------------------------------------------------------------------------

struct ZeroStageMemory {
    int stage = 0;
    std::optional<MemoryEstimate> memory;  // empty when the scenario has no estimate at this stage
    Problems problems;
};
// The scenario's memory per GPU with ZeRO stage 0, 1, 2 and 3 (always four entries, in order).
std::vector<ZeroStageMemory> memoryByZeroStage(const Scenario &scenario);

// The activation settings the activation-memory chart compares. The three recomputation settings
// keep the scenario's FlashAttention setting, so the curve of the scenario's recomputation passes
// through the scenario's own figure; the fourth flips FlashAttention to show what it changes.
enum class ActivationSetting {
    NoRecomputation,   // Korthikanti et al. 2022 Table 2 "no recomputation" (s x s scores stored
                       // unless FlashAttention is on)
    Selective,         // the attention core recomputed (Table 2 "selective")
    Full,              // only each layer's input kept (Table 2 "full")
    OppositeFlashAttention,  // no recomputation, FlashAttention the opposite of the scenario's
};
inline constexpr int kActivationSettingCount = 4;

struct ActivationMemoryPoint {
    std::int64_t seq_len = 0;
    // MemoryEstimate::activations (bytes on the most loaded GPU, in-flight micro-batches included)
    // per ActivationSetting.
    std::array<std::int64_t, kActivationSettingCount> bytes{};
};
struct ActivationMemorySweep {
    // The scenario's FlashAttention setting, which NoRecomputation, Selective and Full use;
    // OppositeFlashAttention uses !flash_attention.
    bool flash_attention = false;
    std::vector<ActivationMemoryPoint> points;
    std::vector<SkippedPoint> skipped;  // x = seq_len
};
// Per-GPU activation memory at each sequence length under the four settings; the rest of the
// scenario (batch, parallelism, dtypes, dropout, FlashAttention except for the fourth setting) is kept.
ActivationMemorySweep activationMemoryVsSeqLen(const Scenario &scenario, const std::vector<std::int64_t> &seq_lens);

// ---- Compute ------------------------------------------------------------------------------------

// Where a model's forward matmul FLOPs per token go. The four shares sum to 1 (embedding lookups
// are not matmuls).
struct ComputeShare {
    std::int64_t seq_len = 0;
    std::int64_t parameters = 0;         // total
    std::int64_t active_parameters = 0;  // per token (MoE: top-k experts)
    std::array<double, kComponentCount> forward_per_token_by_component{};
    double forward_per_token = 0;
    std::array<double, kComponentCount> share_by_component{};  // of forward_per_token
    double attention_scores_share = 0;  // QK^T and attention x V: grows with s
    double mlp_share = 0;               // dense MLP, router, routed and shared experts
    double projections_share = 0;       // Q, K, V and output projections
    double head_share = 0;              // vocabulary projection
};
// Forward FLOPs per token of `model` at `seq_len` (estimate() on a one-GPU scenario around it).
Result<ComputeShare> computeShare(const ModelConfig &model, std::int64_t seq_len, AttentionFlops attention_flops);

struct ModelComputeShare {
    std::string id;    // preset id
    std::string name;  // display name
    ComputeShare share;
};
struct ModelComputeShareSweep {
    std::vector<ModelComputeShare> points;  // sorted by total parameters, ascending
    std::vector<std::string> skipped;       // preset ids without an estimate
};
ModelComputeShareSweep computeShareAcrossModels(const std::vector<ModelPreset> &presets, std::int64_t seq_len,
                                                AttentionFlops attention_flops = AttentionFlops::Full);

struct ComputeShareSweep {
    std::vector<ComputeShare> points;
    std::vector<SkippedPoint> skipped;  // x = seq_len
};
ComputeShareSweep computeShareVsSeqLen(const ModelConfig &model, const std::vector<std::int64_t> &seq_lens,
                                       AttentionFlops attention_flops = AttentionFlops::Full);

// ---- Time ---------------------------------------------------------------------------------------

struct TimePoint {
    double x = 0;  // the swept value: GPU count or MFU
    int gpus = 0;
    int dp = 0;
    double mfu = 0;  // the MFU the time used (time.mfu)
    TimeEstimate time;
};
struct TimeSweep {
    std::vector<TimePoint> points;
    std::vector<SkippedPoint> skipped;
};
// Training time at each GPU count: dp = count / (tp * pp * cp), tp, pp, cp and the global batch
// kept. Counts that leave no valid layout (not a multiple of tp*pp*cp, global batch not divisible
// by micro_batch * dp, ...) are skipped.
TimeSweep daysVsGpuCount(const Scenario &scenario, const std::vector<int> &gpu_counts);
// With training.mfu_source Predicted each count's MFU is predicted for its layout (TimePoint::mfu).
// Training time at each MFU, given (values outside (0, 1] are skipped).
TimeSweep daysVsMfu(const Scenario &scenario, const std::vector<double> &mfus);

// The scenario's time with the peak FLOP/s per GPU replaced by `peak_flops_per_gpu`.
Result<TimeEstimate> timeAtPeak(const Scenario &scenario, double peak_flops_per_gpu);

// Vendors quote tensor-core throughput with 2:4 structured sparsity, twice the dense rate (NVIDIA
// A100 Tensor Core GPU Architecture whitepaper, "Fine-Grained Structured Sparsity"; AMD lists the
// sparse figures of MI300X separately at 2x). The catalog stores dense peaks (cost-model-notes.md).
struct PeakComparison {
    double current_peak = 0;  // what the estimate uses: the override or the catalog's dense peak
    double current_days = 0;
    bool current_is_override = false;
    double dense_peak = 0;  // the catalog's dense peak for the matmul dtype; 0 if it has none
    double dense_days = 0;
    // Days at the dense peak with C = 6ND (Kaplan et al. 2020): the lecture's formula with the
    // datasheet's dense figure.
    double dense_days_six_nd = 0;
    double sparse_peak = 0;  // the vendor's 2:4-sparse headline (2 x dense); 0 if there is none
    double sparse_days = 0;
    // Days at the sparse headline with C = 6ND (Kaplan et al. 2020), the way the course's worked
    // example counts.
    double sparse_days_six_nd = 0;
    // True when the catalog note documents the sparse headline; false when 2x is assumed from the
    // vendor's practice.
    bool sparse_documented = false;
};
Result<PeakComparison> comparePeaks(const Scenario &scenario);

// Doubling from 2:4 structured sparsity (see PeakComparison).
inline constexpr double kStructuredSparsityFactor = 2.0;

}  // namespace lse
