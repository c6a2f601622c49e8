// SPDX-License-Identifier: GPL-3.0-or-later
// The CPU reference decoder-only transformer of issue 5 (CS336 assignment 1 conventions): token
// embedding (+ learned or sinusoidal positions), n_layers blocks of norm → causal multi-head
// attention (RoPE, GQA) → residual → norm → feed-forward → residual (pre- or post-norm), final norm,
// LM head, cross-entropy. A parallel block (GPT-NeoX's use_parallel_residual, the form the cost
// engine counts: two norms per layer, both reading x) computes y = x + Attn(ln1(x)) + MLP(ln2(x)). Every op has a hand-written backward pass (reference/ops/).
//
// Memory: parameters live in one contiguous arena and their gradients in a second arena of the same
// layout, exposed as named views (the course's state-dict names) so checkpoints and the optimizer
// walk them. All activations and scratch are allocated once at construction for (max_batch,
// context); forward/backward/decode then never call operator new (tested). Eigen's GEMM may still
// take its packing buffers from malloc inside a product, which is outside this code's control.
//
// Shape legend: B batch, T sequence, D d_model, H heads, G kv heads, Dh head dim, F d_ff,
// V vocab, N = B·T tokens, W = (H + 2G)·Dh fused Q|K|V width, P positions (context; the KV cache's
// cache_context), Bc sequences the KV cache holds (cache_batch).
#pragma once

#include "common/problem.h"
#include "reference/arena_allocator.h"
#include "reference/ops/eigen_maps.h"
#include "reference/op_profiler.h"
#include "reference/ops/rope.h"
#include "reference/ops/tiled_attention.h"
#include "scenario/model_config.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lse::reference {

// The rule of the problem forwardBackward returns when setInterrupt's flag stopped it.
inline constexpr const char *kInterruptedRule = "interrupted";

// Which kernel computes causal attention in forward/backward (and a batched prefill): the naive
// one (attention.h: the (B, H, T, T) probabilities are stored, three profiled stages) or the tiled
// FlashAttention one (tiled_attention.h: per-row log-sum-exp only, one fused operator profiled as
// the engine's "flash_attention"). Decoding one token against the KV cache is the same for both.
enum class AttentionAlgorithm { Naive, Tiled };
const char *toString(AttentionAlgorithm kernel);  // "naive", "tiled"
std::optional<AttentionAlgorithm> attentionAlgorithmFromName(std::string_view name);  // the names above

struct ReferenceOptions {
    float norm_eps = 1e-5f;
    float rope_theta = 10000.0f;
    std::uint64_t seed = 0;  // initialisation
    int max_batch = 1;       // sequences per forward/backward call the workspace is sized for
    int context = 0;         // tokens per sequence the workspace holds; 0: the model's max_seq_len
    // Generation (prefill, decodeBatch, decodeStep): sequences the KV cache holds and positions per
    // sequence; 0: `context`. A batched prefill runs in the workspace, so its prompt length is
    // bounded by `context` and its batch by max_batch; decoding then grows each sequence up to
    // cache_context positions (the workspace need not hold them).
    int cache_batch = 1;
    int cache_context = 0;
    AttentionAlgorithm attention_kernel = AttentionAlgorithm::Naive;
    // Tiled kernel's B_r × B_c; 0: from this CPU's L2 (attentionBlocksForThisCpu).
    int attention_block_rows = 0;
    int attention_block_cols = 0;
    // Generation only (prefill, decodeBatch, decodeStep, forwardLogitsLast, blockForward): no
    // gradient arena, and since nothing is kept for a backward pass the layers share one set of
    // activation buffers (their outputs alternate between two), nor is there an (N, V) logits
    // buffer. forward, loss, forwardBackward and the pipeline stages then fail with rule
    // kInferenceOnlyRule. For the cs336 shape at an 800-token prompt this is 153 MB instead of 573.
    bool inference_only = false;
    // false: the parameters start at 0 instead of the CS336 initialisation, for a caller that
    // loads every one of them next (a checkpoint).
    bool initialize_weights = true;
};

// The rule of the problem a training call returns on an inference-only model.
inline constexpr const char *kInferenceOnlyRule = "inference_only";

// The tiled kernel's blocks for `options` (explicit sizes, else this CPU's L2 rule), and the
// threads its per-thread scratch is sized for (every logical core: a team never exceeds it).
AttentionBlocks attentionBlocksOf(const ReferenceOptions &options, std::int64_t head_dim, int scalar_bytes);
int attentionScratchThreads();

// Problems (naming the field) for configurations the reference model does not implement: biases,
// MoE, GeGLU, ALiBi, Double norm placement, parallel blocks with post-norm; and for non-positive or inconsistent
// sizes (n_heads % n_kv_heads, odd head_dim with RoPE or odd d_model with sinusoidal positions),
// and for sizes above the bounds of reference/size_limits.h.
Problems validateForReference(const ModelConfig &model);

// Name and shape of one parameter tensor.
struct ParameterShape {
    std::string name;
    std::vector<std::int64_t> shape;
};

// The parameter tensors of `config` in arena order (see BasicModel::parameters()), without
// building the model: the model lays its arena out from this list, and a checkpoint's tensors are
// compared with it before anything is allocated. Call only for a configuration that passed
// validateForReference (n_layers is bounded there).
std::vector<ParameterShape> referenceParameterShapes(const ModelConfig &config);

// One parameter tensor: `data` in the parameter arena, `grad` at the same offset in the gradient
// arena. Shapes are PyTorch's: linear (d_out, d_in), embedding (V, D), norm (D).
template <typename S>
struct NamedTensor {
    std::string name;
    std::vector<std::int64_t> shape;
    S *data = nullptr;
    S *grad = nullptr;
    std::int64_t size() const;
};

// Bytes held, by category, for the memory comparison with the cost engine.
struct ReferenceMemory {
    double parameters = 0;
    double gradients = 0;
    double activations = 0;  // saved for the backward pass (per-layer buffers, final norm, logits)
    double workspace = 0;    // backward scratch and the attention probability gradient
    double kv_cache = 0;     // decode-only
};

// 64-byte aligned storage: Eigen's vectorised reductions start with a scalar stretch whose length
// depends on the address, so two models whose buffers sat at different offsets would add in a
// different order. Aligned arenas make a resumed run bit-identical to an uninterrupted one.
template <typename S>
using AlignedVector = std::vector<S, ArenaAllocator<S>>;

template <typename S>
class BasicModel {
public:
    static Result<std::unique_ptr<BasicModel>> create(const ModelConfig &config, const ReferenceOptions &options);

    const ModelConfig &config() const { return config_; }
    const ReferenceOptions &options() const { return options_; }
    int context() const { return int(context_); }
    // Positions per sequence the KV cache holds (ReferenceOptions::cache_context) and its sequences.
    int cacheContext() const { return int(cache_context_); }
    int cacheBatch() const { return int(cache_batch_); }

    // Arena order: token_embeddings, [position_embeddings], per layer [ln1.weight, ln1.bias],
    // attn.q_proj, k_proj, v_proj (consecutive: one (W, D) matrix), attn.output_proj,
    // [ln2.weight, ln2.bias], ffn.w1, [ffn.w3] (consecutive: one (2F, D) matrix), ffn.w2; then
    // [ln_final.weight, ln_final.bias], lm_head.weight (absent when tied: the head reads
    // token_embeddings and its gradient adds into the embedding's).
    std::vector<NamedTensor<S>> &parameters() { return tensors_; }
    const std::vector<NamedTensor<S>> &parameters() const { return tensors_; }
    NamedTensor<S> *find(std::string_view name);
    S *parameterData() { return params_.data(); }
    S *gradientData() { return grads_.data(); }
    std::int64_t parameterCount() const { return std::int64_t(params_.size()); }

    // CS336 initialisation from `seed`: linear weights ~ N(0, 2/(d_in + d_out)) truncated at ±3σ,
    // embeddings ~ N(0, 1) truncated at ±3, norm gains 1 and biases 0. A tied matrix is initialised
    // as the LM head (a linear layer), since N(0, 1) would give logits of standard deviation √D.
    void initialize(std::uint64_t seed);
    // Every gradient to 0 (nothing while a parameter-use callback is installed: see below).
    void zeroGradients();

    // logits (B, T, V), valid until the next call.
    Result<const S *> forward(const std::int32_t *tokens, int batch, int seq);
    // Mean cross-entropy of next-token targets (B, T), without gradients.
    Result<S> loss(const std::int32_t *tokens, const std::int32_t *targets, int batch, int seq);
    // Mean cross-entropy and every gradient (the gradient arena is overwritten, not accumulated).
    // The logits buffer is reused for their gradient.
    Result<S> forwardBackward(const std::int32_t *tokens, const std::int32_t *targets, int batch, int seq);
    // Called during forwardBackward's backward pass each time a further stretch of the gradient
    // arena is final: gradients from element `readyFrom` to the arena's end will not change again
    // in this call (backward runs from the head towards the embedding, the reverse of arena
    // order). Bucketed data parallelism starts a bucket's all-reduce as soon as it is covered, so
    // the reduction overlaps the rest of backward (PyTorch DDP's autograd hooks). Empty: no calls.
    void setGradientReadyCallback(std::function<void(std::int64_t readyFrom)> callback)
    {
        gradient_ready_ = std::move(callback);
    }

    // ZeRO-3 (distributed/zero3_parameters.h): the arena in the groups a pass reads one after
    // another — 0 the embeddings, 1 + l layer l, n_layers + 1 the final norm and LM head — as
    // {offset, count} in arena order, and a callback around each group's use: before forward (or
    // backward) reads it and after that pass is done with it (after backward, its gradients are
    // final). forward() and forwardBackward() call it; a tied head reads group 0 inside group
    // n_layers + 1, which the caller must handle. Empty: no calls. While a callback is installed,
    // each group's gradients are zeroed just before its backward instead of the whole arena at the
    // start (the caller may have handed the pages of other groups back to the kernel).
    enum class ParameterUse { BeforeForward, AfterForward, BeforeBackward, AfterBackward };
    std::vector<std::pair<std::int64_t, std::int64_t>> parameterGroups() const;
    void setParameterUseCallback(std::function<void(int group, ParameterUse use)> callback)
    {
        parameter_use_ = std::move(callback);
        parameter_groups_ = parameter_use_ ? parameterGroups() : std::vector<std::pair<std::int64_t, std::int64_t>>{};
    }

    // While *flag is true, forwardBackward stops at the next layer boundary and fails with
    // kInterruptedRule (a Stop that must not wait for the end of a long step). The gradients are
    // then partial; nothing else changed. Null: never interrupted.
    void setInterrupt(const std::atomic<bool> *flag) { interrupt_ = flag; }

    // logits (B, V) of each sequence's last position only (the head runs on B rows, not B·T).
    Result<const S *> forwardLogitsLast(const std::int32_t *tokens, int batch, int seq);

    // Incremental decoding of one sequence (the KV cache's first) with a KV cache: feed tokens at
    // positions 0, 1, 2, ... in order (position 0 starts a new sequence); returns logits (V) for the
    // next token. The same as decodeBatch with a batch of one.
    Result<const S *> decodeStep(std::int32_t token, int position);

    // Batched prefill: the prompts of `batch` sequences in one forward pass that fills the KV cache.
    // tokens (B, T) row-major, T = seq; row i holds lengths[i] ∈ [1, T] prompt tokens followed by
    // padding (any valid id: causal attention keeps it out of every prompt position, and its cache
    // rows are not kept). Sequence i of the cache then holds positions 0..lengths[i]-1. Returns the
    // logits (B, V) of each sequence's last prompt token (the head runs on B rows, not B·T). Needs
    // batch ≤ max_batch and cache_batch, seq ≤ context and cache_context. The op profiler times it
    // under the forward pass's operator names, and the cache writes as "kv_cache_write".
    Result<const S *> prefill(const std::int32_t *tokens, const int *lengths, int batch, int seq);

    // One decode step of `batch` sequences: token i (B) at position positions[i] of sequence i, which
    // must be at most the positions its cache holds (a position below rewinds the sequence there).
    // Returns logits (B, V) of the next token of each. Profiled under the operator names, the
    // attention over the cache (scores, softmax and values in one kernel) as "decode_attention".
    Result<const S *> decodeBatch(const std::int32_t *tokens, const int *positions, int batch);

    // Layer `layer` alone on hidden states x (B, T, D) → (B, T, D) (the course's transformer_block
    // test), positions 0..T-1.
    Result<const S *> blockForward(int layer, const S *x, int batch, int seq);

    // Pipeline parallelism (distributed/pipeline_parallel_trainer.h): one stage's part of a
    // micro-batch, layers [first_layer, end_layer). The first stage (first_layer 0) embeds `tokens`;
    // the others start from `input` (N, D), the previous stage's output. The last stage (end_layer
    // n_layers) also runs the final norm, the LM head and the mean cross-entropy of `targets` and
    // returns it; the others return 0 and leave their output (N, D) in *output (valid until the
    // next call).
    Result<S> stageForward(int first_layer, int end_layer, const std::int32_t *tokens, const S *input,
                           const std::int32_t *targets, int batch, int seq, const S **output);
    // The backward of the stageForward call just made with the same arguments (it reads that
    // call's saved activations): from `output_grad` (N, D), ∂L/∂output, or on the last stage from the
    // loss. Zeroes the gradient arena first, then writes the gradients of the stage's parameters;
    // a stage after the first leaves ∂L/∂input (N, D) in *input_grad. Returns the loss on the last
    // stage, 0 elsewhere.
    Result<S> stageBackward(int first_layer, int end_layer, const std::int32_t *tokens, const S *input,
                            const std::int32_t *targets, const S *output_grad, int batch, int seq,
                            const S **input_grad);
    // Arena offset of layer `layer`'s first tensor; for layer n_layers, of the first tensor after the
    // last layer (final norm or head): a pipeline stage's parameters are one range of the arena.
    std::int64_t layerParameterOffset(int layer) const;

    OpProfiler &profiler() { return profiler_; }
    ReferenceMemory memory() const;
    // Capacity of every internal buffer, for tests that check nothing grows after construction.
    std::size_t bufferCapacityChecksum() const;

    BasicModel(const BasicModel &) = delete;
    BasicModel &operator=(const BasicModel &) = delete;

private:
    struct LayerWeights {
        S *ln1_g = nullptr, *ln1_b = nullptr;  // (D)
        S *wqkv = nullptr;                     // (W, D): q_proj | k_proj | v_proj
        S *wo = nullptr;                       // (D, H·Dh)
        S *ln2_g = nullptr, *ln2_b = nullptr;  // (D)
        S *w_up = nullptr;                     // (F, D) or (2F, D): w1 | w3
        S *w_down = nullptr;                   // (D, F)
    };
    // Saved activations of one layer. For a model without norms the norm outputs alias their inputs.
    struct LayerActivations {
        const S *input = nullptr;       // (N, D) the block input (previous output or embeddings)
        S *ln1_out = nullptr;           // (N, D)
        S *ln1_stats = nullptr;         // (N, 2)
        S *qkv = nullptr;               // (N, W) after RoPE
        S *probs = nullptr;             // (B, H, T, T), naive kernel
        S *lse = nullptr;               // (B, H, T) row log-sum-exp, tiled kernel
        S *att = nullptr;               // (N, H·Dh)
        S *h_sum = nullptr;             // (N, D) x + attention
        S *ln2_out = nullptr;           // (N, D)
        S *ln2_stats = nullptr;         // (N, 2)
        S *up = nullptr;                // (N, F) or (N, 2F)
        S *act = nullptr;               // (N, F)
        S *y_sum = nullptr;             // (N, D) h + feed-forward
        const S *output = nullptr;      // (N, D) y_sum or, post-norm, ln2_out
    };

    BasicModel(const ModelConfig &config, const ReferenceOptions &options);
    void layoutParameters();
    void layoutActivations();
    void layoutInferenceActivations();
    void layoutCache();  // the KV cache and decodeBatch's buffers
    // The last positions' buffers of forwardLogitsLast and prefill, carved by `w` (model.cpp's Carver).
    template <typename Carve>
    void wantLastRowBuffers(Carve &w, Index B);
    Problems checkCall(const std::int32_t *tokens, const std::int32_t *targets, int batch, int seq) const;
    S *gradOf(const S *param) { return grads_.data() + (param - params_.data()); }
    bool hasNorm() const { return config_.norm != NormType::None; }
    bool preNorm() const { return config_.norm_placement == NormPlacement::Pre; }
    bool parallelBlock() const { return config_.parallel_block; }

    void embed(const std::int32_t *tokens, Index b, Index t);
    void layerForward(int l, const S *x, Index b, Index t);
    const S *headInput(Index n);  // final norm of the last layer's output, (N, D)
    void normForward(const char *op, const S *x, const S *g, const S *bias, S *y, S *stats, Index n);
    void normBackward(const char *op, const S *x, const S *g, const S *stats, const S *dy, S *dx, Index n,
                      bool accumulate);
    // dy (N, D) in *grad; on return *grad holds dx. *spare is a second (N, D) buffer.
    void layerBackward(int l, Index b, Index t, S *&grad, S *&spare);

    ModelConfig config_;
    ReferenceOptions options_;
    Index D_ = 0, H_ = 0, G_ = 0, Dh_ = 0, F_ = 0, V_ = 0, W_ = 0, Q_ = 0, KV_ = 0, up_ = 0;
    Index context_ = 0, max_tokens_ = 0;

    AlignedVector<S> params_;
    AlignedVector<S> grads_;
    std::vector<NamedTensor<S>> tensors_;
    S *tok_emb_ = nullptr, *pos_emb_ = nullptr, *lnf_g_ = nullptr, *lnf_b_ = nullptr, *lm_head_ = nullptr;
    std::vector<LayerWeights> layers_;

    AlignedVector<S> acts_;  // every saved activation
    std::vector<LayerActivations> saved_;
    S *embedded_ = nullptr;   // (N, D)
    S *lnf_out_ = nullptr;    // (N, D)
    S *lnf_stats_ = nullptr;  // (N, 2)
    S *logits_ = nullptr;     // (N, V), then dlogits

    AlignedVector<S> work_;     // backward scratch and generation buffers
    S *grad_a_ = nullptr, *grad_b_ = nullptr, *grad_c_ = nullptr;  // (N, D) each
    S *dqkv_ = nullptr;       // (N, W)
    S *datt_ = nullptr;       // (N, H·Dh)
    S *dprobs_ = nullptr;     // (B, H, T, T), naive kernel
    S *row_dot_ = nullptr;    // (B, H, T) rowsum(dO ∘ O), tiled kernel
    S *attention_scratch_ = nullptr;  // threads × tiledAttentionScratchPerThread, tiled kernel
    AttentionBlocks blocks_;
    int attention_threads_ = 1;
    bool tiled() const { return options_.attention_kernel == AttentionAlgorithm::Tiled; }
    void attentionForward(const S *qkv, S *att, LayerActivations &s, Index b, Index t);
    void attentionBackward(const LayerActivations &s, Index b, Index t);
    S *dup_ = nullptr;        // (N, up)
    S *dact_ = nullptr;       // (N, F)
    S *row_loss_ = nullptr;   // (N)
    S *last_rows_ = nullptr;  // (B, D) last position of each sequence
    S *last_norm_ = nullptr;  // (B, D)
    S *last_stats_ = nullptr; // (B, 2)
    S *last_logits_ = nullptr;  // (B, V)

    // KV cache and the one-token-per-sequence buffers of decodeBatch; Bc = cache_batch,
    // P = cache_context.
    AlignedVector<S> cache_;
    std::vector<S *> k_cache_, v_cache_;  // per layer (Bc, P, G·Dh)
    S *dec_x_ = nullptr, *dec_a_ = nullptr, *dec_h_ = nullptr;             // (Bc, D)
    S *dec_hn_ = nullptr, *dec_b_ = nullptr, *dec_y_ = nullptr;            // (Bc, D)
    S *dec_qkv_ = nullptr;     // (Bc, W)
    S *dec_att_ = nullptr;     // (Bc, H·Dh)
    S *dec_up_ = nullptr;      // (Bc, up)
    S *dec_act_ = nullptr;     // (Bc, F)
    S *dec_stats_ = nullptr;   // (Bc, 2)
    S *dec_logits_ = nullptr;  // (Bc, V)
    std::vector<int> cached_;  // (Bc) positions each sequence holds in the cache
    Index cache_batch_ = 1, cache_context_ = 0;
    void writeCache(int layer, const S *qkv_row, Index sequence, Index position);

    RopeTable<S> rope_;
    OpProfiler profiler_;
    std::function<void(std::int64_t)> gradient_ready_;
    std::function<void(int, ParameterUse)> parameter_use_;
    std::vector<std::pair<std::int64_t, std::int64_t>> parameter_groups_;  // while parameter_use_ is set
    void useParameters(int group, ParameterUse use)
    {
        if (!parameter_use_)
            return;
        if (use == ParameterUse::BeforeBackward) {
            const auto &[offset, count] = parameter_groups_[std::size_t(group)];
            std::fill(grads_.begin() + offset, grads_.begin() + offset + count, S(0));
        }
        parameter_use_(group, use);
    }
    const std::atomic<bool> *interrupt_ = nullptr;
    bool interrupted() const { return interrupt_ && interrupt_->load(std::memory_order_relaxed); }
    void reportGradientsReadyFrom(const S *param)
    {
        if (gradient_ready_)
            gradient_ready_(std::int64_t(param - params_.data()));
    }
};

using Model = BasicModel<float>;
using ModelF64 = BasicModel<double>;

extern template class BasicModel<float>;
extern template class BasicModel<double>;

}  // namespace lse::reference
