// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/problem.h"
#include "cost/parameters.h"
#include "ops/operator.h"
#include "scenario/scenario.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lse {

// FLOPs count matmuls only (2*m*n*k), the convention of every published MFU figure (PaLM App. B,
// Korthikanti et al. 2022 App. A). Norms, softmax and activations are reported separately.
struct FlopsEstimate {
    std::array<double, kComponentCount> forward_per_token_by_component{};
    double forward_per_token = 0;
    double backward_per_token = 0;      // 2x forward (Kaplan et al. 2020)
    double recompute_per_token = 0;     // extra forward work recomputation adds
    double train_per_token = 0;         // model FLOPs: forward + backward
    double hardware_train_per_token = 0;  // + recomputation
    double elementwise_forward_per_token = 0;  // not in the totals above
    double elementwise_backward_per_token = 0;  // Operator::backward_flops of the non-matmuls
    // Every operator, matmul or not, forward + backward (+ recomputation for the hardware count):
    // what the roofline's operator list and the reference transformer's op counter add up to.
    double all_ops_train_per_token = 0;
    double all_ops_hardware_train_per_token = 0;
    double total_train = 0;           // train_per_token * tokens
    double total_hardware = 0;        // hardware_train_per_token * tokens
    double six_nd = 0;                // 6 * active parameters * tokens (Kaplan et al. 2020)
    double time_basis = 0;            // the total that drives the time estimate (exact or 6ND)
};

// Bytes on the most loaded GPU (the pipeline stage with the most memory).
// One pipeline stage's GPU: what it holds, in bytes (every stage, not only the largest).
struct StageMemory {
    double params = 0;
    double grads = 0;
    double optimizer = 0;  // fp32 master weights + optimizer states
    double activations = 0;
    double parameters_on_gpu = 0;  // parameter count before ZeRO
};

struct MemoryEstimate {
    std::int64_t params = 0;
    std::int64_t grads = 0;
    std::int64_t optimizer = 0;  // fp32 master weights + optimizer states
    std::int64_t activations = 0;
    std::int64_t framework_reserve = 0;
    std::int64_t total = 0;
    std::int64_t capacity = 0;
    bool fits = false;
    std::int64_t parameters_on_gpu = 0;  // parameter count of that GPU's shard before ZeRO
    double activation_bytes_per_layer = 0;  // one micro-batch, after tp/sp/recomputation
    double in_flight_micro_batches = 1;     // of that stage (p - s in 1F1B, Korthikanti §4.2.3)
    int pipeline_stage = 0;                 // which stage the figures above describe: the largest in total
    int stage_layers = 0;                   // transformer layers on that stage
    std::vector<int> layers_per_stage;      // every stage's layers (scenario/stage_layers.h)
    int most_loaded_stage = 0;              // the stage with the most layers (the first on a tie)
    std::vector<StageMemory> per_stage;     // stage 0 first; the figures above are the largest's
};

// Bytes each of a GPU's weights, gradients and optimizer states take (ZeRO §3.1, §5).
struct ModelStateBytes {
    double params = 0;
    double grads = 0;
    double optimizer = 0;
    double total() const { return params + grads + optimizer; }
};

// A named part of the predicted step (performance::stepParts: "compute_gemm", "exposed_tp",
// "bubble", ...); the parts add up to the predicted step time.
struct StepPartSeconds {
    std::string id;
    double seconds = 0;
};

// The operator-level prediction (performance::predictStep) behind a time estimate whose MFU is
// predicted.
struct PredictedStepFigures {
    double step_seconds = 0;
    double mfu = 0;  // model FLOPs (no recomputation) / (gpus · peak · step_seconds)
    double hfu = 0;  // the same with recomputation
    std::vector<StepPartSeconds> step_breakdown;
    // The error band (performance::StepPrediction): 0 and equal bounds when the accelerator has
    // no published runs; `band_basis` says which in words.
    double band_fraction = 0;
    double step_seconds_low = 0, step_seconds_high = 0;
    double mfu_low = 0, mfu_high = 0;          // MFU at the high and the low step time
    double training_seconds_low = 0, training_seconds_high = 0;
    std::string band_basis;
};

struct TimeEstimate {
    double peak_flops_per_gpu = 0;  // dense peak for the matmul dtype, or the override
    MfuSource mfu_source = MfuSource::Given;  // where `mfu` comes from: training.mfu or the prediction
    double mfu = 0;
    double hfu = 0;  // MFU * hardware FLOPs / model FLOPs
    double seconds = 0;
    double days = 0;
    double gpu_hours = 0;
    double cost = 0;
    double tokens_per_second = 0;
    double steps = 0;
    double step_seconds = 0;
    std::optional<PredictedStepFigures> predicted;  // filled whenever the prediction was computed
};

// One parallel dimension's traffic per optimizer step, per GPU, and its alpha-beta time.
struct CommunicationPart {
    std::string_view collective;  // "all-reduce", "reduce-scatter+all-gather", ...
    int group_size = 1;
    bool crosses_nodes = false;
    double bytes = 0;    // bytes each GPU sends (nccl-tests bus-bandwidth factors)
    double seconds = 0;  // latency * steps + bytes / (bandwidth * efficiency)
    // Data parallel with a sharded optimizer (ZeRO-1/2): the part of `seconds` that gathers the
    // updated parameters (the rest reduces gradients); 0 for the other dimensions.
    double gather_seconds = 0;
    // Collective calls the traffic is issued in: gradient buckets for data parallelism (each pays
    // the ring's latency steps), 1 otherwise.
    double calls = 1;
};

// Tensor-parallel traffic outside the transformer layers, bytes one GPU sends per occurrence:
// Megatron-LM's vocabulary-parallel embedding, LM head and cross-entropy (Shoeybi et al. 2019 §3),
// and with sequence parallelism the gradients of the weights every tp rank holds whole (Korthikanti
// et al. 2022 §4.2.2). Not in CommunicationEstimate::tp, the calibrated step time's figure
// (cost/communication.cpp says why): a GPU's whole TP traffic is tp.bytes + total().
struct TensorParallelOutsideLayers {
    // The embedding's partial rows (each rank looks up its own vocabulary rows) summed over the tp
    // ranks, per micro-batch on the first stage: an all-reduce forward; with SP a reduce-scatter
    // forward and an all-gather of the gradient backward, half of this each.
    double embedding_bytes_per_micro_batch = 0;
    // The LM head (column-parallel over the vocabulary), per micro-batch on the last stage: the
    // all-reduce of its input gradient backward; with SP an all-gather of its input forward and a
    // reduce-scatter of the input gradient backward, half of this each.
    double lm_head_bytes_per_micro_batch = 0;
    // The vocabulary-parallel cross-entropy, per micro-batch on the last stage: three all-reduces
    // of one fp32 per token (the row maximum, the target's logit, the sum of exponentials), each.
    double cross_entropy_bytes = 0;
    // SP: one all-reduce per step of the gradients of the tensors not split over tp (norm gains and
    // biases, each rank having seen its own sequence rows only), on the most loaded stage.
    double replicated_gradient_bytes = 0;
    int micro_batches = 0;  // occurrences per step of the per-micro-batch collectives
    double seconds = 0;     // alpha-beta time of total() over the tp group's link, every call's latency

    double total() const
    {
        return micro_batches * (embedding_bytes_per_micro_batch + lm_head_bytes_per_micro_batch + 3.0 * cross_entropy_bytes)
            + replicated_gradient_bytes;
    }
};

struct CommunicationEstimate {
    CommunicationPart dp, tp, pp, cp, ep;
    TensorParallelOutsideLayers tp_outside_layers;  // beside tp, not in the step time
    // The data-parallel bytes of one GPU in each pipeline stage, stage 0 first, from what that
    // stage holds (cost/stage_parameters.h: the embedding on the first, the head on the last,
    // uneven layers, norm gains whole on every tp rank). dp.bytes is the step-time model's figure,
    // which spreads the embedding and head evenly over the stages (cost/communication.cpp says why).
    std::vector<double> dp_bytes_per_stage;
    double total_seconds = 0;  // if nothing overlapped with compute
};

struct InferenceEstimate {
    std::int64_t kv_cache_bytes_per_token = 0;  // 2 * L * n_kv_heads * head_dim * bytes (vLLM §3)
    std::int64_t kv_cache_bytes_per_sequence = 0;  // at the training sequence length
    // Serving with the training layout's tp and pp (no gradients, optimizer states or saved
    // activations): the most loaded pipeline stage's weights at the weight dtype, tensor-parallel
    // tensors split over tp and routed experts over ep, as in training.
    std::int64_t weights_bytes_per_gpu = 0;
    // KV cache for micro_batch sequences of seq_len on one GPU: KV heads split over tp (at least
    // one head per rank), layers over pp (vLLM §3; Megatron shards K/V by head).
    std::int64_t kv_cache_bytes_per_gpu = 0;
};

struct Estimate {
    ParameterCounts params;
    FlopsEstimate flops;
    MemoryEstimate memory;
    TimeEstimate time;
    CommunicationEstimate communication;
    InferenceEstimate inference;
};

// The whole estimate, or every validation problem. Non-finite or overflowing results are problems
// with field "result", never numbers. With training.mfu_source Predicted the time figures use the
// MFU performance::predictStep predicts (about a millisecond more than a given MFU).
Result<Estimate> estimate(const Scenario &scenario);

// Building blocks, public so tests can check each against its paper.
ModelStateBytes modelStateBytes(double parameters, const TrainingConfig &training, int zero_group_size,
                                double optimizer_state_bytes_per_parameter);
double optimizerStateBytesPerParameter(Optimizer optimizer);

struct ActivationOptions {
    int tp = 1;
    bool sequence_parallel = false;
    Recomputation recomputation = Recomputation::None;
};
// Saved activation bytes of one layer for one micro-batch (Korthikanti et al. 2022, Table 2).
double layerActivationBytes(const std::vector<Operator> &layer_ops, const ActivationOptions &options);

// Training time from a FLOP total: flops / (gpus * peak * mfu).
double trainingSeconds(double flops, int gpus, double peak_flops_per_gpu, double mfu);

}  // namespace lse
