// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "hardware/accelerator.h"
#include "scenario/framework_reserve.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace lse {

enum class PrecisionRecipe { FP32, BF16Mixed, FP16Mixed, FP8Mixed };
enum class Optimizer { SGD, Momentum, Adam, AdamW, Adafactor, Adam8bit };
// Korthikanti et al. 2022: selective recomputes only the attention core (QK^T, softmax, dropout,
// AV); full keeps only each layer's input.
enum class Recomputation { None, Selective, Full };
// Full: the whole s x s score matrix is counted (the papers' MFU definition, PaLM App. B).
// Causal: half of it, as current Megatron-LM counts.
enum class AttentionFlops { Full, Causal };
// Which FLOP count drives the time estimate.
enum class FlopsModel { Exact, SixND };
// Where the time estimate's MFU comes from: typed by the user (training.mfu), or predicted from the
// step's operators, exposed communication and pipeline bubble (performance::predictStep).
enum class MfuSource { Given, Predicted };
// The fused attention kernel the framework runs (with flash_attention on). FlashAttention-2
// (Dao 2023) reaches about 35% of an H100's BF16 peak; FlashAttention-3 and cuDNN's fused attention
// use Hopper's asynchronous tensor cores and reach about 75% (Shah et al. 2024, "FlashAttention-3",
// §1 and §4.1). On other GPUs both run at the FlashAttention-2 rate.
enum class AttentionKernel { FlashAttention2, FlashAttention3 };

// Bytes of each training state per parameter. The published conventions differ
// (cost-model-notes.md): 16 (ZeRO, bf16 grads), 18 (fp32 grads), 20 (fp16 + fp32 accumulation),
// 12 (no master copy); every choice is explicit here.
struct PrecisionConfig {
    PrecisionRecipe recipe = PrecisionRecipe::BF16Mixed;
    DType weight_dtype = DType::BF16;      // the working copy used in forward and backward
    DType gradient_dtype = DType::BF16;    // gradients as reduced across data parallel ranks
    DType matmul_dtype = DType::BF16;      // selects the hardware peak
    DType activation_dtype = DType::BF16;  // saved activations
    bool master_weights = true;            // fp32 master copy kept by the optimizer
    bool fp32_gradient_accumulation = false;  // an extra fp32 gradient buffer
};

// The defaults each recipe implies; the fields can be changed afterwards.
PrecisionConfig precisionForRecipe(PrecisionRecipe recipe);

struct ParallelConfig {
    int dp = 1;
    int tp = 1;
    int pp = 1;
    int cp = 1;  // context parallel (sequence split across GPUs in attention)
    int ep = 1;  // expert parallel; carved out of dp x cp ranks as in Megatron-LM
    int virtual_stages = 1;  // interleaved pipeline chunks per GPU (v)
    int zero_stage = 0;      // 0..3, sharding over the dp group
    bool sequence_parallel = false;
    // DP gradient reduction runs in buckets during the backward pass (PyTorch DDP, Megatron's
    // overlap_grad_reduce); off = all of it after backward, as older Megatron runs did.
    bool dp_overlap = true;
    // With a sharded optimizer (ZeRO-1/2), the all-gather of the updated parameters runs bucket by
    // bucket during the next step's first forward pass (Megatron-Core overlap_param_gather, DeepSpeed
    // ZeRO's prefetch); off = it runs after the optimizer step, exposed.
    bool dp_param_gather_overlap = true;
    // Tensor-parallel collectives split into chunks pipelined with the GEMMs that produce or consume
    // them (Megatron-Core --tp-comm-overlap with Transformer Engine userbuffers, PyTorch async TP;
    // Wang et al. 2023, "Overlap Communication with Dependent Computation via Decomposition"); off =
    // every TP collective sits on the critical path, as in Megatron-LM of 2021/22.
    bool tp_comm_overlap = false;
    // Pipeline sends and receives run while the next model chunk computes (Megatron-Core
    // overlap_p2p_comm with the interleaved schedule); off = each waits on the critical path.
    bool pp_comm_overlap = false;
    // Layers of each pipeline stage, stage 0 (embedding) first; empty = as even as possible with
    // the first and last stage lighter (scenario/stage_layers.h). One entry per stage, summing to
    // model.n_layers, each at least virtual_stages (one layer per interleaved chunk).
    std::vector<int> stage_layers = {};
};

struct TrainingConfig {
    std::int64_t tokens = 0;          // total training tokens
    std::int64_t seq_len = 0;
    std::int64_t global_batch = 0;    // sequences per optimizer step
    std::int64_t micro_batch = 1;     // sequences per forward pass per GPU
    PrecisionConfig precision;
    Optimizer optimizer = Optimizer::AdamW;
    Recomputation recomputation = Recomputation::None;
    bool flash_attention = true;
    AttentionKernel attention_kernel = AttentionKernel::FlashAttention2;
    // Element-wise chains run as fused kernels (Megatron-LM's and Transformer Engine's fused
    // bias+GeLU, bias+dropout+add, scale+mask+softmax, LayerNorm; torch.compile, XLA): the
    // intermediate tensors stay on chip (roofline/fusion.cpp). Off: one kernel per operator, as in
    // eager PyTorch.
    bool fused_elementwise = true;
    bool dropout = false;  // dropout masks are saved activations (Korthikanti counts them)
    AttentionFlops attention_flops = AttentionFlops::Full;
    FlopsModel flops_model = FlopsModel::Exact;
    ParallelConfig parallel;
    double mfu = 0.4;  // model FLOPs utilization assumed for the time estimate (mfu_source Given)
    MfuSource mfu_source = MfuSource::Given;
    // CUDA context, NCCL buffers, allocator fragmentation: published figures by default
    // (scenario/framework_reserve.h); 0 where a figure counts only the model's own memory.
    std::int64_t framework_reserve_bytes = kDefaultFrameworkReserveBytes;
    DType kv_cache_dtype = DType::BF16;        // inference KV cache
};

std::string_view toString(PrecisionRecipe value);
std::string_view toString(Optimizer value);
std::string_view toString(Recomputation value);
std::string_view toString(AttentionFlops value);
std::string_view toString(FlopsModel value);
std::string_view toString(MfuSource value);  // "given", "predicted"
std::string_view toString(AttentionKernel value);  // "flash2", "flash3"
std::optional<AttentionKernel> attentionKernelFromString(std::string_view text);
std::optional<PrecisionRecipe> precisionRecipeFromString(std::string_view text);
std::optional<Optimizer> optimizerFromString(std::string_view text);
std::optional<Recomputation> recomputationFromString(std::string_view text);
std::optional<AttentionFlops> attentionFlopsFromString(std::string_view text);
std::optional<FlopsModel> flopsModelFromString(std::string_view text);
std::optional<MfuSource> mfuSourceFromString(std::string_view text);
std::string precisionRecipeChoices();
std::string optimizerChoices();

}  // namespace lse
