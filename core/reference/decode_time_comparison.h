// SPDX-License-Identifier: GPL-3.0-or-later
// The reference transformer's batched generation (batch_generation.h) predicted by the CPU
// inference predictor (performance/cpu_inference_prediction.h) with this CPU's kernel factors, and
// compared with the measured run, operator by operator (issue 30, "Measured on this CPU").
//
// As for a training step (step_time_comparison.h), the kernel factors are what the cores do while
// this process has them; the prediction adds the share other processes took while they were
// measured: idle time · (1 / cpu_share − 1).
#pragma once

#include "common/problem.h"
#include "hardware/machine_kernel_factors.h"
#include "performance/cpu_inference_prediction.h"
#include "reference/model.h"
#include "reference/op_profiler.h"
#include "scenario/model_config.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lse::reference {

struct ReferenceDecodePrediction {
    performance::CpuInferencePrediction idle;  // on idle cores, operator by operator
    double cpu_share = 1;
    double prefill_seconds = 0;   // idle.prefill_seconds with other processes' share
    double decode_seconds = 0;    // idle.decode_seconds with other processes' share
    double decode_tokens_per_second = 0;  // batch · decode steps / decode_seconds
};

// `prompt_tokens`: the longest prompt of the batch (the prefill runs the padded batch).
// `prefill_kernel`: the attention kernel the prefill runs (the model's ReferenceOptions).
Result<ReferenceDecodePrediction> predictReferenceDecode(const ModelConfig &model, std::int64_t batch,
                                                         std::int64_t prompt_tokens, std::int64_t output_tokens,
                                                         const CpuKernelFactors &kernels,
                                                         AttentionAlgorithm prefill_kernel = AttentionAlgorithm::Naive);

// What the op profiler does not time (the sampling, the prompt's padding and the loop around the
// kernels): measured as the phase less its timed operators, predicted as the sampling.
inline constexpr const char *kSamplingAndRestName = "sampling_and_rest";

// One operator of the prefill or of all decode steps, predicted and measured (the predicted times
// with other processes' share, so the rows of a phase add up to its predicted time).
struct DecodeOperatorComparison {
    std::string name;   // the operator list's name, "decode_attention", "kv_cache_write" or kSamplingAndRestName
    std::string phase;  // "prefill" or "decode"
    double predicted_seconds = 0;
    double measured_seconds = 0;
};

// Rows of both phases, prefill first, each in the predictor's order. `measured_*_seconds` are the
// phases' measured times (for the sampling_and_rest rows).
std::vector<DecodeOperatorComparison> compareDecodeOperators(const ReferenceDecodePrediction &prediction,
                                                             const std::vector<OpRecord> &prefill,
                                                             const std::vector<OpRecord> &decode,
                                                             double measured_prefill_seconds,
                                                             double measured_decode_seconds);

}  // namespace lse::reference
