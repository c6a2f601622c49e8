// SPDX-License-Identifier: GPL-3.0-or-later
// Generation on this CPU predicted from its measured kernel factors (hardware/machine_kernel_factors.h)
// with the kernel classes the training-step predictor uses (cpu_kernel_time.h): the reference
// transformer's batched prefill and its decode steps (issue 30, "Measured on this CPU").
//
// The work is the roofline's prefill and decode phases (roofline/step_operators.h, which read the one
// operator list, core/ops) at float32 and without FlashAttention, as the reference runs them:
//   prefill   the prompts of the batch in one forward pass (attention over the whole T × T square,
//             from the attention kernel tables), the head on each sequence's last token only, the
//             copy of every layer's K and V into the cache, and the first token's sampling
//   decode    output − 1 steps, step j feeding one token per sequence at position prompt + j − 1
//             against prompt + j keys: the weight products at m = batch (the GEMM tables, linear in
//             m below the grid, never under the weights' bytes at the stream bandwidth of the
//             step's working set: every weight and the whole KV cache), the attention over the cache
//             as the reference's decode attention kernel (its measured rate at the keys of the
//             step), element-wise work at the element-wise rates, the cache writes and the
//             sampling (greedy: one pass over the logits) as streaming kernels
// Every kernel call pays the measured call overhead (and a parallel region where it is split over
// threads), as in the step predictor.
#pragma once

#include "common/problem.h"
#include "hardware/machine_kernel_factors.h"
#include "performance/step_prediction.h"
#include "scenario/scenario.h"

#include <cstdint>
#include <vector>

namespace lse::performance {

struct CpuInferenceInputs {
    // The model and its float32 training precision (the reference's: reference/engine_scenario.h);
    // seq_len, micro_batch and the attention settings are set from the fields below.
    Scenario scenario;
    std::int64_t batch = 1;          // sequences generated together
    std::int64_t prompt_tokens = 1;  // per sequence (the longest: the prefill runs the padded batch)
    std::int64_t output_tokens = 1;  // new tokens per sequence: the first from the prefill
    // The prefill's attention runs the tiled (FlashAttention) kernel, one fused operator
    // "flash_attention", rather than the naive three. Decode steps are the same either way.
    bool tiled_prefill_attention = false;
};

struct CpuInferencePrediction {
    int threads = 1;
    std::int64_t batch = 1;
    std::int64_t prompt_tokens = 1;
    std::int64_t output_tokens = 1;
    std::int64_t decode_steps = 0;     // output_tokens − 1
    double prefill_seconds = 0;        // the first token of every sequence
    double decode_seconds = 0;         // every decode step with its sampling
    double first_step_seconds = 0;     // the decode step at the shortest context
    double last_step_seconds = 0;      // and at the longest
    double decode_tokens_per_second = 0;  // batch · decode_steps / decode_seconds (0 without steps)
    // Kernels by operator: one prefill (pass "prefill"), and every decode step summed (pass
    // "decode"); count = kernel calls. Besides the operator list's names: "decode_attention"
    // (attention_scores, softmax and attention_values in the reference's one kernel),
    // "kv_cache_write" and "sampling".
    std::vector<OperatorTime> prefill_operators;
    std::vector<OperatorTime> decode_operators;
};

// Problems: incomplete factors, a batch, prompt or output out of range (field "inference.<name>"),
// and the scenario's validation.
Result<CpuInferencePrediction> predictCpuInference(const CpuInferenceInputs &inputs, const CpuKernelFactors &cpu);

}  // namespace lse::performance
