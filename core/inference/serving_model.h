// SPDX-License-Identifier: GPL-3.0-or-later
// Serving one model replica: prefill (time to first token), decode against a growing KV cache
// (time per output token), memory per GPU and the largest batch that fits, throughput, MBU and MFU,
// cost, and a breakdown of the latency into named parts.
//
// Every FLOP and byte comes from the roofline's prefill and decode phases (core/roofline, which
// reads the one operator list, core/ops) at the serving formats; this file adds only how the work
// is split over GPUs (tensor parallelism divides the operators the operator list marks as sharded,
// pipeline parallelism runs the stages one after another), the time each operator takes at the
// accelerator's serving efficiency factors (serving_factors.h), and the fixed costs.
#pragma once

#include "common/problem.h"
#include "inference/serving_factors.h"
#include "inference/serving_format.h"
#include "ops/operator.h"
#include "roofline/roofline.h"
#include "scenario/scenario.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lse::inference {

struct SpeculativeInputs {
    ModelConfig draft_model;
    int draft_tokens = 4;     // γ: tokens the draft proposes per target step
    double acceptance = 0.8;  // α: probability the target keeps a proposed token
};

struct ServingInputs {
    // The model, the accelerator (cluster.accelerator), the links (cluster: gpus_per_node, latency,
    // bandwidth, link_efficiency), the GPU price and the framework reserve.
    Scenario scenario;
    int tp = 1;
    int pp = 1;
    int replicas = 1;  // copies of the model serving side by side: GPUs = replicas · tp · pp
    std::int64_t batch = 1;  // concurrent sequences per replica (a static batch)
    std::int64_t prompt_tokens = 512;
    std::int64_t output_tokens = 128;
    ServingFormat weights = ServingFormat::FP16;
    ServingFormat activations = ServingFormat::FP16;
    ServingFormat kv_cache = ServingFormat::FP16;
    bool flash_attention = true;
    // Decode attention loads the KV cache once per query head (FasterTransformer's and TensorRT-LLM's
    // masked multi-head attention kernel before XQA) instead of once per KV head (vLLM, FlashDecoding,
    // XQA): n_heads / n_kv_heads times the KV traffic of a GQA model (roofline.h).
    bool kv_cache_read_per_query_head = false;
    // Unset: the catalog's for the accelerator and precision (builtinServingFactors()).
    std::optional<ServingFactors> factors;
    std::optional<SpeculativeInputs> speculative;

    int gpus() const { return replicas * tp * pp; }
};

// The scenario's model, accelerator, tp, pp and flash setting, gpus / (tp·pp) replicas, formats
// from its precision (weights and activations fp16/bf16/fp8 as its dtypes, the KV-cache dtype).
ServingInputs servingInputsFor(const Scenario &scenario);

// Memory one GPU holds while serving (the most loaded pipeline stage).
struct ServingMemory {
    double weights_bytes = 0;      // weight matrices at the weight format (scales included), the rest 16-bit
    double kv_cache_bytes = 0;     // K and V of the batch at prompt + output tokens (end of generation)
    double activation_bytes = 0;   // workspace of the largest prefill operator (its output and input)
    double reserve_bytes = 0;      // framework reserve (scenario.training.framework_reserve_bytes)
    double total_bytes = 0;
    double capacity_bytes = 0;     // the accelerator's memory
    bool fits = false;
    double kv_cache_bytes_per_token = 0;  // per sequence and token, this GPU's share
};

// One operator of a pass on one GPU (tensor-parallel shard; all pipeline stages summed).
struct ServingOperator {
    std::string name;
    Component component = Component::Norm;
    OpKind kind = OpKind::Elementwise;
    std::string shape;
    int count = 1;
    bool weight_matmul = false;
    bool attention = false;
    double flops = 0;
    double matmul_flops = 0;
    double bytes = 0;
    double intensity_flop_per_byte = 0;
    double peak_flops_per_second = 0;  // the peak its FLOPs run against
    Bound roofline_bound = Bound::Memory;  // on the datasheet roofline (Williams et al. 2009)
    double compute_seconds = 0;  // flops / (peak · compute_fraction)
    double memory_seconds = 0;   // bytes / (bandwidth · bandwidth_fraction)
    double seconds = 0;          // max of the two
    Bound bound = Bound::Memory; // which of the two is longer
    double share = 0;            // of the pass's operator time
};

// A named part of the end-to-end latency: the parts sum to it.
struct ServingPart {
    std::string key;      // stable id, e.g. "decode_matmul_memory", "tp_all_reduce"
    std::string label;    // short English name
    double seconds = 0;
    std::string formula;  // how it is computed
    std::string source;   // where the formula or its constants come from
};

struct ContextTime {
    std::int64_t context_tokens = 0;  // keys the new token attends to
    double seconds = 0;               // one decode step of the batch
};

struct SpeculativeReport {
    std::string draft_model;
    int draft_tokens = 0;
    double acceptance = 0;
    double expected_tokens_per_step = 0;
    double draft_tpot_seconds = 0;
    double target_tpot_seconds = 0;
    double cost_coefficient = 0;  // c = draft / target step time
    double speedup = 0;           // Theorem 3.8
    double tpot_seconds = 0;      // target TPOT / speedup
    double end_to_end_seconds = 0;
};

struct ServingReport {
    ServingInputs inputs;
    ServingFactors factors;
    ComputeFormat compute_format = ComputeFormat::FP16;
    double peak_flops_per_second = 0;          // weight matmuls' peak at the compute format
    double memory_bandwidth_bytes_per_second = 0;
    int gpus = 1;
    int micro_batches = 1;               // pipeline micro-batches the batch is cut into
    std::int64_t micro_batch = 1;        // sequences in one
    ServingMemory memory;
    std::int64_t max_batch = 0;          // largest batch per replica whose memory fits
    std::int64_t decode_crossover_batch = 0;  // decode weight matmuls compute-bound from here (roofline)

    double ttft_seconds = 0;        // prefill of the batch and the first token
    double decode_seconds = 0;      // the output_tokens − 1 decode steps
    double tpot_seconds = 0;        // decode_seconds / (output_tokens − 1); one step when output is 1
    double end_to_end_seconds = 0;  // ttft + decode
    std::vector<ContextTime> decode_steps;  // sampled over the context lengths of the decode steps

    double output_tokens_per_second = 0;          // all replicas
    double output_tokens_per_second_per_gpu = 0;
    double total_tokens_per_second = 0;           // prompt + output tokens, all replicas
    double total_tokens_per_second_per_gpu = 0;
    double mbu = 0;  // decode: bytes moved / (time · bandwidth · GPUs)
    double mfu = 0;  // matmul FLOPs of the request / (time · peak · GPUs)
    double cost_per_million_output_tokens = 0;

    std::vector<ServingOperator> prefill_operators;  // one prefill pass of a micro-batch
    std::vector<ServingOperator> decode_operators;   // one decode step at the mean context
    std::vector<ServingPart> breakdown;              // sums to end_to_end_seconds

    std::optional<SpeculativeReport> speculative;
};

Result<ServingReport> serve(const ServingInputs &inputs);

// The same in two halves, for a fit that tries many factor sets on one set of inputs: the work
// (operators, memory, crossover; everything the factors do not change) once, then its times.
struct ServingWork;
Result<std::shared_ptr<const ServingWork>> prepareServing(const ServingInputs &inputs);
Result<ServingReport> evaluateServing(const ServingWork &work, const ServingFactors &factors);
// The catalog's factors for the inputs' accelerator and compute precision.
ServingFactors catalogFactors(const ServingInputs &inputs);

// The latency–throughput curve: one report per batch, 1, 2, 4, … up to max_batch (and max_batch
// itself), at most `limit` rows. Rows past the memory are not included.
struct SweepRow {
    std::int64_t batch = 0;
    double ttft_seconds = 0;
    double tpot_seconds = 0;
    double end_to_end_seconds = 0;
    double output_tokens_per_second = 0;
    double output_tokens_per_second_per_gpu = 0;
    double memory_total_bytes = 0;
    double mbu = 0;
    double mfu = 0;
    bool decode_compute_bound = false;  // batch ≥ the roofline's decode crossover
};
struct BatchSweep {
    std::int64_t max_batch = 0;
    std::int64_t decode_crossover_batch = 0;
    std::vector<SweepRow> rows;
};
Result<BatchSweep> sweepBatch(const ServingInputs &inputs, int limit = 64);

}  // namespace lse::inference
