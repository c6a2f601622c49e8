// SPDX-License-Identifier: GPL-3.0-or-later
// Internal to core/roofline: the forward operators of one step with the bytes each pass moves
// through main memory. FLOPs come unchanged from forwardOperators(); only the bytes and, for
// FlashAttention, the grouping into one kernel are the roofline's own.
#pragma once

#include "ops/operator.h"
#include "roofline/roofline.h"
#include "scenario/scenario.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lse::roofline_detail {

// Where an operator sits in the model, for fusion chains that cross layer boundaries.
enum class OpGroup { Embedding, DenseLayer, MoeLayer, Head };

struct StepOp {
    Operator op;  // flops and backward_flops from the operator list; bytes_* are the forward bytes here
    std::string name;
    std::string shape;
    double matmul_flops = 0;           // forward matrix-product FLOPs of op.flops
    double backward_matmul_flops = 0;  // matrix-product FLOPs of op.backward_flops
    double backward_bytes_read = 0;
    double backward_bytes_written = 0;
    bool weight_matmul = false;
    bool attention_core = false;  // selective recomputation runs it again (Korthikanti et al. 2022 §5)
    bool keeps_output = false;    // its output must reach memory even inside a fused chain
    bool saves_input = false;     // training keeps its input for the backward pass
    bool fusable = false;         // element-wise: may join a fused chain
};

// The resolved sizes of one step.
struct StepShapes {
    StepPhase phase = StepPhase::Train;
    std::int64_t batch = 1;         // sequences
    std::int64_t seq_len = 1;       // query tokens per sequence (1 for decode)
    std::int64_t context = 0;       // decode: keys each new token attends to
    int activation_bytes = 2;
    double weight_bytes = 2;  // fractional for int4 with its scales (RooflineOptions)
    int gradient_bytes = 2;
    int kv_cache_bytes = 2;
    bool flash_attention = true;
    bool kv_cache_read_per_query_head = false;  // RooflineOptions
    bool causal_attention_flops = false;
    std::int64_t flash_tile_rows = 0;     // B_r
    std::int64_t flash_tile_columns = 0;  // B_c
    std::int64_t l2_bytes = 0;            // the machine's last-level cache (RooflineMachine::l2_bytes)
};

struct StepOperators {
    StepShapes shapes;
    std::vector<StepOp> embedding;
    std::vector<StepOp> dense_layer;
    std::vector<StepOp> moe_layer;
    std::vector<StepOp> head;
    int dense_layer_count = 0;
    int moe_layer_count = 0;
    std::int64_t tokens = 0;  // tokens the step processes

    const std::vector<StepOp> &group(OpGroup which) const;
    int groupCount(OpGroup which) const;
};

// Expects a validated scenario and options with batch and context resolved (> 0).
StepShapes stepShapes(const Scenario &scenario, const RooflineOptions &options, std::int64_t sram_bytes_per_sm,
                      std::int64_t l2_bytes = 0);
StepOperators stepOperators(const Scenario &scenario, const StepShapes &shapes);

// One instance of an operator in execution order: which group, which index in it.
struct OpInstance {
    OpGroup group;
    std::size_t index;
};
// The whole forward pass in execution order (layers interleaved as the MoE config places them).
std::vector<OpInstance> executionOrder(const Scenario &scenario, const StepOperators &step);

// A maximal run of consecutive fusable operators (length >= 2) and how often it occurs per step.
struct FusedChain {
    std::vector<OpInstance> members;
    int count = 0;
    double flops = 0;          // one instance
    double unfused_bytes = 0;  // one instance
    double fused_bytes = 0;    // one instance
    // Each member's share of fused_bytes: its own bytes less the traffic it no longer has with the
    // member before it (in `members` order; they sum to fused_bytes).
    std::vector<double> member_fused_bytes;
};
// Also returns, per group and index, how many instances are not part of any chain.
std::vector<FusedChain> fusedChains(const Scenario &scenario, const StepOperators &step,
                                    std::vector<std::vector<int>> *unfused_instances);

}  // namespace lse::roofline_detail
