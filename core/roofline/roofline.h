// SPDX-License-Identifier: GPL-3.0-or-later
// The operators of one step (training, prefill or one decode token) placed on a roofline
// (Williams, Waterman & Patterson 2009). Every FLOP comes from the one operator definition
// (core/ops/operator_list.h, forwardOperators() and Operator::backward_flops); this file adds the
// bytes each pass moves through main memory and the time min(peak, I·bandwidth) allows.
//
// Scope: one micro-batch of the whole model on ONE accelerator (no tensor/pipeline split), each
// layer operator once with count = the number of layers of that kind.
#pragma once

#include "common/problem.h"
#include "ops/operator.h"
#include "roofline/roofline_machine.h"
#include "scenario/scenario.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lse {

// Which step is modelled. Train: forward + backward (+ recomputation) + optimizer step.
// Prefill: forward over the whole prompt. Decode: one new token per sequence against a KV cache
// (Kwon et al. 2023, vLLM §3), no loss.
enum class StepPhase { Train, Prefill, Decode };
// Which pass of the step an operator belongs to.
enum class OpPass { Forward, Backward, Recompute, Optimizer };
// The roof that limits an operator: intensity >= ridge point is compute-bound.
enum class Bound { Compute, Memory };

std::string_view toString(StepPhase value);  // "train", "prefill", "decode"
std::string_view toString(OpPass value);     // "forward", "backward", "recompute", "optimizer"
std::string_view toString(Bound value);      // "compute", "memory"
std::optional<StepPhase> stepPhaseFromString(std::string_view text);
std::optional<OpPass> opPassFromString(std::string_view text);

struct RooflineOptions {
    StepPhase phase = StepPhase::Train;
    std::int64_t batch = 0;           // sequences; 0 = the scenario's micro_batch
    std::int64_t context_tokens = 0;  // decode: tokens already in the KV cache; 0 = seq_len
    bool flash_attention = true;      // use rooflineOptionsFor() to start from the scenario's setting
    bool fused_elementwise = false;   // element-wise chains read/write HBM once (fusionComparisons)
    bool include_optimizer = true;    // train: add the optimizer-step operator
    // Serving formats (core/inference): bytes per element that replace the scenario's dtypes when
    // set (> 0). Weights may be fractional: int4 with group-wise scales is 0.5 + 2/128 bytes.
    double weight_bytes_per_element = 0;
    int activation_bytes_per_element = 0;
    int kv_cache_bytes_per_element = 0;
    bool decode_crossover = true;  // compute decode_crossover_batch (a bisection over the batch)
    // Decode attention reads each KV head's cache once per query head that uses it (a kernel with one
    // thread block per query head: FasterTransformer's and TensorRT-LLM's masked multi-head attention
    // before its XQA kernel) instead of once per KV head (vLLM's paged attention, FlashDecoding,
    // XQA). The same for multi-head attention; n_heads / n_kv_heads times the KV bytes for GQA/MQA.
    bool kv_cache_read_per_query_head = false;
};
// Default options with flash_attention taken from the scenario.
RooflineOptions rooflineOptionsFor(const Scenario &scenario, StepPhase phase = StepPhase::Train);

struct RooflineOp {
    std::string name;  // the engine's operator name (operator_list.cpp), or "optimizer_step"
    Component component = Component::Norm;
    OpPass pass = OpPass::Forward;
    OpKind kind = OpKind::Elementwise;
    std::string shape;  // readable, e.g. "[4096×4096]·[4096×12288]" or "8·32×[2048×2048]"
    int count = 1;      // instances per step (layers of that kind); the figures below are totals
    bool weight_matmul = false;  // a matmul whose second operand is a parameter
    bool fused = false;          // bytes are those of a fused element-wise chain
    bool attention_core = false; // QKᵀ, softmax, P·V or the fused attention kernel
    // Tensor parallelism divides its work (a matmul's tp_dimension, an element-wise operator's
    // tp_split in the operator list) or every rank repeats it.
    bool tp_sharded = true;
    double flops = 0;
    double matmul_flops = 0;  // part of flops that are matrix products (all of it for a matmul)
    double bytes_read = 0;
    double bytes_written = 0;
    double intensity_flop_per_byte = 0;  // flops / (bytes_read + bytes_written)
    double attainable_flops_per_second = 0;
    Bound bound = Bound::Memory;
    double seconds = 0;        // max(flops / peak, bytes / bandwidth) = flops / attainable
    double share_of_step = 0;  // seconds / step_seconds

    double bytes() const { return bytes_read + bytes_written; }
};

struct RooflineReport {
    RooflineMachine machine;
    RooflineOptions options;
    std::int64_t batch = 0;           // sequences actually used
    std::int64_t context_tokens = 0;  // decode: KV-cache length actually used (0 otherwise)
    std::int64_t tokens = 0;          // tokens processed: batch·seq_len, or batch for decode
    std::vector<RooflineOp> ops;
    double total_flops = 0;
    double total_bytes = 0;
    double step_seconds = 0;            // Σ op seconds (kernels run one after another)
    double compute_bound_seconds = 0;   // part of step_seconds spent in compute-bound ops
    double memory_bound_seconds = 0;    // part of step_seconds spent in memory-bound ops
    // Part of step_seconds spent in the optimizer step. It runs once per optimizer step, i.e. once
    // per global_batch / (micro_batch · dp) micro-batches with gradient accumulation; this report
    // counts it once for its one micro-batch.
    double optimizer_seconds = 0;
    // Matmul-only FLOPs of this work (forward + backward for train, forward otherwise): the MFU
    // convention of the cost engine (PaLM App. B), without recomputation or the optimizer.
    double model_flops = 0;
    double mfu = 0;               // the MFU the engine's time uses: training.mfu, or the predicted one
    double mfu_step_seconds = 0;  // the engine's MFU-based time: model_flops / (peak · mfu)
    double implied_mfu = 0;       // model_flops / (step_seconds · peak)
    std::int64_t flash_tile_rows = 0;     // B_r of FlashAttention (flashTileRows); 0 without flash
    std::int64_t flash_tile_columns = 0;  // B_c of FlashAttention (flashTileColumns); 0 without flash
    double parameters = 0;                // all parameters of the model
    double ridge_point_flop_per_byte = 0;
    double weight_bytes = 0;             // all parameters at the weight dtype (or options' bytes)
    double kv_cache_bytes = 0;           // decode: K and V of batch sequences of context_tokens
    std::int64_t decode_crossover_batch = 0;  // decodeCrossoverBatch(scenario, machine)
};

Result<RooflineReport> rooflineReport(const Scenario &scenario, const RooflineOptions &options,
                                      const RooflineMachine &machine);

// FlashAttention's tiles (Dao et al. 2022, Alg. 1 line 1) with M the SRAM of one SM in elements:
// key/value tile B_c = ceil(M / 4d), query tile B_r = min(B_c, d). Without SRAM information (a CPU)
// both are d.
std::int64_t flashTileColumns(std::int64_t sram_bytes_per_sm, int element_bytes, std::int64_t head_dim);
std::int64_t flashTileRows(std::int64_t sram_bytes_per_sm, int element_bytes, std::int64_t head_dim);

// One matmul (batch × (m×k)·(k×n)) as a roofline operator with no reuse across kernels: reads A
// and B, writes C once, each at `element_bytes`. A square n×n product has intensity
// 2n³ / (3n²·element_bytes).
RooflineOp matmulRooflineOp(std::string name, std::int64_t m, std::int64_t n, std::int64_t k,
                            int element_bytes, const RooflineMachine &machine, std::int64_t batch = 1);

// The smallest batch (sequences, one token each) at which every decode weight matmul of the
// scenario's model is compute-bound on `machine`; 0 if none up to 2^24.
std::int64_t decodeCrossoverBatch(const Scenario &scenario, const RooflineMachine &machine);
// The same with the byte sizes of `formats` (its weight, activation and KV-cache bytes and flash
// setting; phase, batch and context are the search's own).
std::int64_t decodeCrossoverBatch(const Scenario &scenario, const RooflineMachine &machine, const RooflineOptions &formats);

// A chain of element-wise operators of one layer (or of the head) that a fused kernel runs in one
// pass: it reads the chain's inputs and writes its outputs once instead of once per operator.
struct FusionComparison {
    std::string name;                // e.g. "residual + norm"
    std::vector<std::string> chain;  // engine operator names, in order
    int count = 1;                   // instances per step; the figures below are totals
    double flops = 0;
    double unfused_bytes = 0;
    double fused_bytes = 0;
};
// Forward-pass chains of the scenario's model at the options' phase and batch.
std::vector<FusionComparison> fusionComparisons(const Scenario &scenario, const RooflineOptions &options);

}  // namespace lse
