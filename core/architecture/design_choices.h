// SPDX-License-Identifier: GPL-3.0-or-later
// "Choice by choice": the scenario with one design decision changed and everything else kept,
// computed through the cost engine side by side. Every figure comes from estimate() (parameters,
// FLOPs, activation memory) or from the operator list (bytes moved, core/ops/operator_list.h);
// this file only builds the alternative models and takes differences.
#pragma once

#include "common/problem.h"
#include "cost/estimate.h"
#include "scenario/scenario.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace lse {

enum class DesignAxis {
    NormType,            // LayerNorm vs RMSNorm
    NormPlacement,       // pre vs post vs double ("sandwich")
    Activation,          // ReLU vs GeLU vs SwiGLU vs GeGLU at equal parameters
    Block,               // serial vs parallel attention/MLP
    PositionalEncoding,  // learned / sinusoidal / RoPE / ALiBi / none
    Attention,           // MHA vs GQA vs MQA
    FfnRatio,            // d_ff = 2·d, 8/3·d, 4·d
    Embeddings,          // tied vs untied input/output embeddings
};
inline constexpr DesignAxis kDesignAxes[] = {
    DesignAxis::NormType,           DesignAxis::NormPlacement, DesignAxis::Activation, DesignAxis::Block,
    DesignAxis::PositionalEncoding, DesignAxis::Attention,     DesignAxis::FfnRatio,   DesignAxis::Embeddings,
};
std::string_view toString(DesignAxis axis);  // stable id, e.g. "norm_type"

// The figures compared for each variant. Per token = per trained token of one micro-batch.
struct DesignFigures {
    double parameters = 0;
    // Every operator of the operator list (matmuls, norms, activations, softmax ...): forward, and
    // forward + backward (the backward rules of flop_rules.h, ≈ 2× forward, so training ≈ 3×).
    double forward_flops_per_token = 0;
    double train_flops_per_token = 0;
    double matmul_train_flops_per_token = 0;  // the MFU convention (PaLM App. B)
    double activation_bytes_per_layer = 0;    // MemoryEstimate::activation_bytes_per_layer
    // Σ (bytes_read + bytes_written) of the forward operator list over the whole model, per token.
    double forward_bytes_per_token = 0;
    double kv_cache_bytes_per_token = 0;  // 2·L·kv_heads·head_dim·bytes (vLLM §3)
};

// Relative change of each figure against the scenario: (variant − scenario) / scenario.
DesignFigures relativeChange(const DesignFigures &variant, const DesignFigures &scenario);

struct DesignVariant {
    ModelConfig model;       // the scenario's model with this choice applied
    bool is_scenario = false;  // the choice the scenario already makes
    DesignFigures figures;     // valid when problems is empty
    DesignFigures change;      // relativeChange(figures, scenario's figures)
    Problems problems;         // why this variant cannot be estimated on the scenario's layout
};

struct DesignComparison {
    DesignAxis axis = DesignAxis::NormType;
    DesignFigures scenario;
    std::vector<DesignVariant> variants;
};

// The variants of one axis for the scenario's model. Fails only when the scenario itself cannot be
// estimated.
Result<DesignComparison> compareDesignChoice(const Scenario &scenario, DesignAxis axis);

// The figures of one scenario (estimate() plus the operator list's bytes).
Result<DesignFigures> designFigures(const Scenario &scenario);

// The d_ff a gated MLP (three d×d_ff matrices) needs to match an ungated one (two d×f matrices):
// 2f/3, rounded up to a multiple of 256 as Llama does (multiple_of = 256, hidden = 256·⌈(8d/3)/256⌉:
// d = 4096 gives 11008); where that would add 1 % or more to the MLP's weights, to the largest
// power of two that keeps it below 1 %. So 3·gated ≥ 2·f and 3·gated < 1.01 · 2·f.
std::int64_t gatedEqualParameterDff(std::int64_t ungated_d_ff);
// The ungated width with the weights of a gated MLP of `gated_d_ff`: 3·gated/2, rounded to an
// even number.
std::int64_t ungatedEqualParameterDff(std::int64_t gated_d_ff);

// A GQA group count for `heads` query heads: heads/8 KV heads when that divides (Llama 2 70B: 64 →
// 8), else the largest divisor of heads between 2 and heads/2; 0 when heads has none (no distinct
// GQA exists between MHA and MQA).
int gqaKvHeads(int heads);

// ---- Parallel block: what the operator list drops or merges -------------------------------
struct ParallelBlockSavings {
    std::vector<std::string_view> removed_ops;  // serial-only operators (attention_residual, mlp_residual)
    std::vector<std::string_view> added_ops;    // parallel-only operators (parallel_residual)
    int norms_per_layer_serial = 0;
    int norms_per_layer_parallel = 0;
    // Norms on the critical path: in parallel the MLP's norm reads the block input, beside the
    // attention's, so one norm pass (one read of x) remains before the matmuls.
    int sequential_norms_serial = 0;
    int sequential_norms_parallel = 0;
    int sequential_matmuls_serial = 0;    // matmuls on the critical path of one layer
    int sequential_matmuls_parallel = 0;  // QKV and the MLP up-projection fuse into one
    double fused_input_projection_width = 0;  // q + 2·kv + up width: the merged matmul's columns
};
ParallelBlockSavings parallelBlockSavings(const ModelConfig &model);

// ---- MHA / GQA / MQA at decode ------------------------------------------------------------
struct DecodePoint {
    std::int64_t context_tokens = 0;
    double kv_cache_bytes = 0;       // whole batch, all layers (RooflineReport::kv_cache_bytes)
    double seconds_per_token = 0;    // one decode step (one new token per sequence), roofline sum
    double tokens_per_second = 0;    // batch / seconds_per_token
};
struct DecodeCurve {
    ModelConfig model;
    double kv_cache_bytes_per_token = 0;
    std::vector<DecodePoint> points;
    Problems problems;
};
// For MHA, GQA (when it exists) and MQA versions of the scenario's model: the decode step time on
// one of the scenario's accelerators (no tensor/pipeline split, as the roofline models it) from
// rooflineReport (phase decode) at `batch` sequences for each context length.
std::vector<DecodeCurve> attentionDecodeCurves(const Scenario &scenario, std::int64_t batch,
                                               const std::vector<std::int64_t> &contexts);

}  // namespace lse
