// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/model.h"

#include "reference/ops/activations.h"
#include "reference/ops/attention.h"
#include "reference/ops/cross_entropy.h"
#include "reference/ops/embedding.h"
#include "reference/ops/linear.h"
#include "reference/ops/norms.h"
#include "reference/ops/residual.h"
#include "reference/size_limits.h"
#include "reference/truncated_normal.h"

#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <unordered_map>
#include <utility>

namespace lse::reference {

namespace {

using Scope = OpProfiler::Scope;
// A product with a weight matrix: [m, k]·[k, n], the parameter read once (op_shape.h).
OpShape weightProduct(Index m, Index n, Index k) { return OpShape::matmul(1, m, n, k, true); }
// An output of rows × columns values computed from `inputs` inputs of its size.
OpShape rowsOf(OpClass op_class, Index rows, Index columns, double inputs = 1)
{
    return OpShape::elementwise(op_class, rows, columns, inputs);
}
constexpr OpPhase kFwd = OpPhase::Forward;
constexpr OpPhase kBwd = OpPhase::Backward;
constexpr double kBack = flop_rules::kBackwardElementwiseFactor;

// 2·m·n·k: one multiply and one add per inner-product term.
double matmulFlops(Index m, Index n, Index k) { return flop_rules::matmul(1, double(m), double(n), double(k)); }

double activationFlopsPerElement(Activation a)
{
    switch (a) {
    case Activation::ReLU: return flop_rules::kReLU;
    case Activation::GeLU: return flop_rules::kGeLU;
    case Activation::SiLU: return flop_rules::kSiLU;
    default: return flop_rules::kSwiGLU;
    }
}

// Buffers are carved from one vector in a second pass, each rounded to 64 bytes so every tensor
// starts on a cache line (and an AVX-512 vector).
template <typename S>
class Carver {
public:
    void want(S *&target, Index count) { plan_.push_back({&target, count}); }
    void allocate(AlignedVector<S> &arena)
    {
        constexpr Index align = Index(64 / sizeof(S));
        Index total = 0;
        for (const auto &[target, count] : plan_)
            total += (count + align - 1) / align * align;
        arena.assign(std::size_t(total), S(0));
        Index offset = 0;
        for (const auto &[target, count] : plan_) {
            *target = arena.data() + offset;
            offset += (count + align - 1) / align * align;
        }
    }

private:
    std::vector<std::pair<S **, Index>> plan_;
};

Problems inferenceOnlyProblem(const char *call)
{
    return {{"inference_only", kInferenceOnlyRule,
             std::string(call) + " needs the training buffers, but this model was built inference-only (generation)."}};
}

}  // namespace

const char *toString(AttentionAlgorithm kernel)
{
    return kernel == AttentionAlgorithm::Tiled ? "tiled" : "naive";
}

std::optional<AttentionAlgorithm> attentionAlgorithmFromName(std::string_view name)
{
    for (const AttentionAlgorithm kernel : {AttentionAlgorithm::Naive, AttentionAlgorithm::Tiled})
        if (name == toString(kernel))
            return kernel;
    return std::nullopt;
}

AttentionBlocks attentionBlocksOf(const ReferenceOptions &options, std::int64_t head_dim, int scalar_bytes)
{
    AttentionBlocks blocks = attentionBlocksForThisCpu(Index(head_dim), scalar_bytes);
    if (options.attention_block_rows > 0)
        blocks.rows = options.attention_block_rows;
    if (options.attention_block_cols > 0)
        blocks.cols = options.attention_block_cols;
    return blocks;
}

int attentionScratchThreads()
{
    return std::max({1, omp_get_num_procs(), omp_get_max_threads()});
}

Problems validateForReference(const ModelConfig &m)
{
    Problems problems;
    auto add = [&](std::string field, std::string rule, std::string message) {
        problems.push_back(Problem{std::move(field), std::move(rule), std::move(message)});
    };
    auto positive = [&](const char *field, std::int64_t value) {
        if (value < 1)
            add(field, "positive", std::string(field) + " must be at least 1 for the reference model, got "
                                       + std::to_string(value) + ".");
    };
    positive("n_layers", m.n_layers);
    positive("d_model", m.d_model);
    positive("n_heads", m.n_heads);
    positive("n_kv_heads", m.n_kv_heads);
    positive("head_dim", m.head_dim);
    positive("d_ff", m.d_ff);
    positive("vocab_size", m.vocab_size);
    positive("max_seq_len", m.max_seq_len);
    for (Problem &p : checkReferenceSizeBounds(m))
        problems.push_back(std::move(p));
    if (m.vocab_size > std::numeric_limits<std::int32_t>::max())
        add("vocab_size", "range", "vocab_size must fit 32-bit token ids in the reference model.");
    if (m.n_heads > 0 && m.n_kv_heads > 0 && m.n_heads % m.n_kv_heads != 0)
        add("n_kv_heads", "divides", "n_kv_heads (" + std::to_string(m.n_kv_heads) + ") must divide n_heads ("
                                         + std::to_string(m.n_heads) + ") for grouped-query attention.");
    if (m.positional_encoding == PositionalEncoding::RoPE && m.head_dim % 2 != 0)
        add("head_dim", "even", "head_dim must be even for RoPE, which rotates pairs of dimensions.");
    if (m.positional_encoding == PositionalEncoding::Sinusoidal && m.d_model % 2 != 0)
        add("d_model", "even", "d_model must be even for sinusoidal positions (sin/cos pairs).");
    const char *unsupported = "unsupported";
    if (m.biases.qkv)
        add("biases.qkv", unsupported, "The reference model has no Q/K/V projection biases.");
    if (m.biases.attn_output)
        add("biases.attn_output", unsupported, "The reference model has no attention output bias.");
    if (m.biases.mlp)
        add("biases.mlp", unsupported, "The reference model has no feed-forward biases.");
    if (m.biases.lm_head)
        add("biases.lm_head", unsupported, "The reference model has no LM head bias.");
    if (m.moe.enabled())
        add("moe.n_experts", unsupported, "The reference model is dense; mixture of experts is not implemented.");
    if (m.activation == Activation::GeGLU)
        add("activation", unsupported, "GeGLU is not implemented by the reference model (use SwiGLU or GeLU).");
    if (m.positional_encoding == PositionalEncoding::ALiBi)
        add("positional_encoding", unsupported, "ALiBi is not implemented by the reference model.");
    if (m.norm_placement == NormPlacement::Double)
        add("norm_placement", unsupported, "Double (sandwich) norm placement is not implemented by the reference model.");
    // A parallel block feeds attention and feed-forward the same normalised input; after the sum
    // there is no "post" position left for two norms (the engine's two per-layer norms read x).
    if (m.parallel_block && m.norm != NormType::None && m.norm_placement == NormPlacement::Post)
        add("parallel_block", unsupported,
            "Parallel attention/MLP blocks need pre-norm (or no norm) in the reference model, not post-norm.");
    return problems;
}

template <typename S>
std::int64_t NamedTensor<S>::size() const
{
    std::int64_t n = 1;
    for (std::int64_t d : shape)
        n *= d;
    return n;
}

template <typename S>
Result<std::unique_ptr<BasicModel<S>>> BasicModel<S>::create(const ModelConfig &config, const ReferenceOptions &options)
{
    Problems problems = validateForReference(config);
    if (options.max_batch < 1)
        problems.push_back({"max_batch", "positive", "The reference workspace needs max_batch >= 1."});
    if (options.context < 0 || (config.max_seq_len > 0 && options.context > config.max_seq_len))
        problems.push_back({"context", "range", "context must be between 1 and max_seq_len ("
                                                    + std::to_string(config.max_seq_len) + "), or 0 for max_seq_len."});
    if (!(options.norm_eps > 0))
        problems.push_back({"norm_eps", "positive", "norm_eps must be positive."});
    if (!(options.rope_theta > 0))
        problems.push_back({"rope_theta", "positive", "rope_theta must be positive."});
    if (options.cache_batch < 1 || options.cache_batch > kMaxReferenceBatch)
        problems.push_back({"cache_batch", "range", "The KV cache holds from 1 to " + std::to_string(kMaxReferenceBatch)
                                                        + " sequences, got cache_batch " + std::to_string(options.cache_batch) + "."});
    if (options.cache_context < 0 || (config.max_seq_len > 0 && options.cache_context > config.max_seq_len))
        problems.push_back({"cache_context", "range", "cache_context must be between 1 and max_seq_len ("
                                                          + std::to_string(config.max_seq_len) + "), or 0 for context."});
    if (options.max_batch > kMaxReferenceBatch)
        problems.push_back({"max_batch", "maximum", "The reference workspace holds at most " + std::to_string(kMaxReferenceBatch)
                                                        + " sequences, got max_batch " + std::to_string(options.max_batch) + "."});
    for (const auto &[size, field] : {std::pair{options.attention_block_rows, "attention_block_rows"},
                                      std::pair{options.attention_block_cols, "attention_block_cols"}})
        if (size < 0 || size > kMaxTiledAttentionBlock)
            problems.push_back({field, "range", std::string(field) + " must be between 1 and "
                                                    + std::to_string(kMaxTiledAttentionBlock) + ", or 0 for this CPU's cache rule; got "
                                                    + std::to_string(size) + "."});
    if (!problems.empty())
        return problems;
    // Only now are the sizes small enough for the estimate, and only after it may anything be allocated.
    const ReferenceMemory needed = referenceMemoryEstimate(config, options, int(sizeof(S)));
    problems = checkMemoryFits(totalBytes(needed), memoryAvailableToThisProcess(), "model",
                               "parameters and gradients " + formatBytes(needed.parameters + needed.gradients)
                                   + ", activations and workspace for " + std::to_string(options.max_batch) + " × "
                                   + std::to_string(options.context > 0 ? std::int64_t(options.context) : config.max_seq_len)
                                   + " tokens " + formatBytes(needed.activations + needed.workspace) + ", KV cache of "
                                   + std::to_string(std::max(1, options.cache_batch)) + " × "
                                   + std::to_string(options.cache_context > 0 ? std::int64_t(options.cache_context)
                                                    : options.context > 0       ? std::int64_t(options.context)
                                                                                : config.max_seq_len)
                                   + " positions " + formatBytes(needed.kv_cache));
    if (!problems.empty())
        return problems;
    std::unique_ptr<BasicModel> model(new BasicModel(config, options));
    return model;
}

template <typename S>
BasicModel<S>::BasicModel(const ModelConfig &config, const ReferenceOptions &options)
    : config_(config), options_(options)
{
    D_ = config.d_model;
    H_ = config.n_heads;
    G_ = config.n_kv_heads;
    Dh_ = config.head_dim;
    F_ = config.d_ff;
    V_ = config.vocab_size;
    Q_ = H_ * Dh_;
    KV_ = G_ * Dh_;
    W_ = Q_ + 2 * KV_;
    up_ = upWidth(config.activation, F_);
    context_ = options.context > 0 ? options.context : config.max_seq_len;
    max_tokens_ = Index(options.max_batch) * context_;
    cache_batch_ = std::max(1, options.cache_batch);
    cache_context_ = options.cache_context > 0 ? options.cache_context : context_;
    cached_.assign(std::size_t(cache_batch_), 0);
    if (options.inference_only)
        for (AlignedVector<S> *arena : {&params_, &acts_, &work_, &cache_})
            *arena = AlignedVector<S>(ArenaAllocator<S>(true));
    blocks_ = attentionBlocksOf(options, Dh_, int(sizeof(S)));
    attention_threads_ = attentionScratchThreads();
    layoutParameters();
    layoutActivations();
    if (config.positional_encoding == PositionalEncoding::RoPE)
        rope_.build(std::max(context_, cache_context_), Dh_, double(options.rope_theta));
    if (options.initialize_weights)
        initialize(options.seed);
}

std::vector<ParameterShape> referenceParameterShapes(const ModelConfig &config)
{
    std::vector<ParameterShape> plan;
    const std::int64_t D = config.d_model, F = config.d_ff, V = config.vocab_size;
    const std::int64_t Q = config.qDim(), KV = config.kvDim();
    const bool has_norm = config.norm != NormType::None, layer_norm = config.norm == NormType::LayerNorm;
    auto norm = [&](const std::string &prefix) {
        if (!has_norm)
            return;
        plan.push_back({prefix + ".weight", {D}});
        if (layer_norm)
            plan.push_back({prefix + ".bias", {D}});
    };
    // k_proj and v_proj directly after q_proj, w3 directly after w1: the model reads each group
    // as one fused matrix of the arena.
    plan.push_back({"token_embeddings.weight", {V, D}});
    if (config.positional_encoding == PositionalEncoding::Learned)
        plan.push_back({"position_embeddings.weight", {config.max_seq_len, D}});
    for (int l = 0; l < config.n_layers; ++l) {
        const std::string p = "layers." + std::to_string(l) + ".";
        norm(p + "ln1");
        plan.push_back({p + "attn.q_proj.weight", {Q, D}});
        plan.push_back({p + "attn.k_proj.weight", {KV, D}});
        plan.push_back({p + "attn.v_proj.weight", {KV, D}});
        plan.push_back({p + "attn.output_proj.weight", {D, Q}});
        norm(p + "ln2");
        plan.push_back({p + "ffn.w1.weight", {F, D}});
        if (config.activation == Activation::SwiGLU)
            plan.push_back({p + "ffn.w3.weight", {F, D}});
        plan.push_back({p + "ffn.w2.weight", {D, F}});
    }
    norm("ln_final");
    if (!config.tied_embeddings)
        plan.push_back({"lm_head.weight", {V, D}});
    return plan;
}

template <typename S>
void BasicModel<S>::layoutParameters()
{
    std::vector<ParameterShape> plan = referenceParameterShapes(config_);
    // Tensors are packed back to back (no padding) so fused neighbours form one matrix.
    std::int64_t total = 0;
    for (const ParameterShape &e : plan) {
        std::int64_t n = 1;
        for (std::int64_t d : e.shape)
            n *= d;
        total += n;
    }
    params_.assign(std::size_t(total), S(0));
    if (!options_.inference_only)
        grads_.assign(std::size_t(total), S(0));
    tensors_.clear();
    tensors_.reserve(plan.size());
    std::unordered_map<std::string, S *> byName;
    std::int64_t offset = 0;
    for (ParameterShape &e : plan) {
        NamedTensor<S> t{std::move(e.name), std::move(e.shape), params_.data() + offset,
                         grads_.empty() ? nullptr : grads_.data() + offset};
        byName.emplace(t.name, t.data);
        offset += t.size();
        tensors_.push_back(std::move(t));
    }
    // k_proj, v_proj and w3 are reached as offsets into the fused matrices that start at q_proj
    // and w1; absent tensors (norms of a model without them) stay nullptr.
    auto at = [&byName](const std::string &name) -> S * {
        const auto it = byName.find(name);
        return it == byName.end() ? nullptr : it->second;
    };
    tok_emb_ = at("token_embeddings.weight");
    pos_emb_ = at("position_embeddings.weight");
    layers_.assign(std::size_t(config_.n_layers), LayerWeights{});
    for (int l = 0; l < config_.n_layers; ++l) {
        LayerWeights &w = layers_[std::size_t(l)];
        const std::string p = "layers." + std::to_string(l) + ".";
        w.ln1_g = at(p + "ln1.weight");
        w.ln1_b = at(p + "ln1.bias");
        w.wqkv = at(p + "attn.q_proj.weight");
        w.wo = at(p + "attn.output_proj.weight");
        w.ln2_g = at(p + "ln2.weight");
        w.ln2_b = at(p + "ln2.bias");
        w.w_up = at(p + "ffn.w1.weight");
        w.w_down = at(p + "ffn.w2.weight");
    }
    lnf_g_ = at("ln_final.weight");
    lnf_b_ = at("ln_final.bias");
    lm_head_ = config_.tied_embeddings ? tok_emb_ : at("lm_head.weight");
}

template <typename S>
void BasicModel<S>::layoutActivations()
{
    const Index N = max_tokens_, B = options_.max_batch, T = context_;
    const Index probs = tiled() ? 0 : B * H_ * T * T;
    const Index rows = tiled() ? B * H_ * T : 0;  // one statistic per (sequence, head, position)
    const bool norm = hasNorm();
    saved_.assign(std::size_t(config_.n_layers), LayerActivations{});
    if (options_.inference_only) {
        layoutInferenceActivations();
        return;
    }
    Carver<S> a;
    a.want(embedded_, N * D_);
    for (LayerActivations &s : saved_) {
        if (norm) {
            a.want(s.ln1_out, N * D_);
            a.want(s.ln1_stats, 2 * N);
            a.want(s.ln2_out, N * D_);
            a.want(s.ln2_stats, 2 * N);
        }
        a.want(s.qkv, N * W_);
        if (tiled())
            a.want(s.lse, rows);
        else
            a.want(s.probs, probs);
        a.want(s.att, N * Q_);
        a.want(s.h_sum, N * D_);
        a.want(s.up, N * up_);
        a.want(s.act, N * F_);
        a.want(s.y_sum, N * D_);
    }
    if (norm) {
        a.want(lnf_out_, N * D_);
        a.want(lnf_stats_, 2 * N);
    }
    a.want(logits_, N * V_);
    a.allocate(acts_);

    Carver<S> w;
    w.want(grad_a_, N * D_);
    w.want(grad_b_, N * D_);
    w.want(grad_c_, N * D_);
    w.want(dqkv_, N * W_);
    w.want(datt_, N * Q_);
    if (tiled()) {
        w.want(row_dot_, rows);
        w.want(attention_scratch_, Index(attention_threads_) * tiledAttentionScratchPerThread(blocks_));
    } else {
        w.want(dprobs_, probs);
    }
    w.want(dup_, N * up_);
    w.want(dact_, N * F_);
    w.want(row_loss_, N);
    wantLastRowBuffers(w, B);
    w.allocate(work_);
    layoutCache();
}

template <typename S>
void BasicModel<S>::layoutInferenceActivations()
{
    // Nothing is kept for a backward pass, so every layer writes the same buffers; only the
    // output alternates, because a layer reads its input (the previous output) until its residual
    // adds are done. The attention probabilities are consumed inside the attention operator.
    const Index N = max_tokens_, B = options_.max_batch, T = context_;
    const bool norm = hasNorm();
    LayerActivations shared;
    std::array<S *, 2> y_sum{}, ln2_out{}, ln2_stats{};
    Carver<S> a;
    a.want(embedded_, N * D_);
    if (norm) {
        a.want(shared.ln1_out, N * D_);
        a.want(shared.ln1_stats, 2 * N);
        for (int i = 0; i < 2; ++i) {
            a.want(ln2_out[std::size_t(i)], N * D_);
            a.want(ln2_stats[std::size_t(i)], 2 * N);
        }
    }
    a.want(shared.qkv, N * W_);
    if (tiled())
        a.want(shared.lse, B * H_ * T);
    else
        a.want(shared.probs, B * H_ * T * T);
    a.want(shared.att, N * Q_);
    a.want(shared.h_sum, N * D_);
    a.want(shared.up, N * up_);
    a.want(shared.act, N * F_);
    for (int i = 0; i < 2; ++i)
        a.want(y_sum[std::size_t(i)], N * D_);
    a.allocate(acts_);
    for (std::size_t l = 0; l < saved_.size(); ++l) {
        saved_[l] = shared;
        saved_[l].y_sum = y_sum[l % 2];
        saved_[l].ln2_out = ln2_out[l % 2];
        saved_[l].ln2_stats = ln2_stats[l % 2];
    }

    Carver<S> w;
    if (tiled())
        w.want(attention_scratch_, Index(attention_threads_) * tiledAttentionScratchPerThread(blocks_));
    wantLastRowBuffers(w, B);
    w.allocate(work_);
    layoutCache();
}

template <typename S>
template <typename Carve>
void BasicModel<S>::wantLastRowBuffers(Carve &w, Index B)
{
    w.want(last_rows_, B * D_);
    w.want(last_norm_, B * D_);
    w.want(last_stats_, 2 * B);
    w.want(last_logits_, B * V_);
}

template <typename S>
void BasicModel<S>::layoutCache()
{
    Carver<S> c;
    const Index Bc = cache_batch_, P = cache_context_;
    k_cache_.assign(std::size_t(config_.n_layers), nullptr);
    v_cache_.assign(std::size_t(config_.n_layers), nullptr);
    for (int l = 0; l < config_.n_layers; ++l) {
        c.want(k_cache_[std::size_t(l)], Bc * P * KV_);
        c.want(v_cache_[std::size_t(l)], Bc * P * KV_);
    }
    for (S **p : {&dec_x_, &dec_a_, &dec_h_, &dec_hn_, &dec_b_, &dec_y_})
        c.want(*p, Bc * D_);
    c.want(dec_qkv_, Bc * W_);
    c.want(dec_att_, Bc * Q_);
    c.want(dec_up_, Bc * up_);
    c.want(dec_act_, Bc * F_);
    c.want(dec_stats_, Bc * 2);
    c.want(dec_logits_, Bc * V_);
    c.allocate(cache_);
}

template <typename S>
void BasicModel<S>::initialize(std::uint64_t seed)
{
    // trunc_normal_(a=−3σ, b=3σ): each tensor from its own stream (truncated_normal.h), so the
    // values do not depend on the thread count.
    std::uint64_t index = 0;
    for (NamedTensor<S> &t : tensors_) {
        const std::int64_t n = t.size();
        const std::uint64_t stream = truncatedNormalStream(seed, index++);
        const bool is_bias = t.name.size() > 5 && t.name.compare(t.name.size() - 5, 5, ".bias") == 0;
        const bool is_norm_gain = t.shape.size() == 1 && !is_bias;
        const bool is_embedding = t.name.find("embeddings") != std::string::npos;
        double std = 0;
        if (is_embedding && !(config_.tied_embeddings && t.data == tok_emb_))
            std = 1.0;
        else if (!is_bias && !is_norm_gain)
            std = std::sqrt(2.0 / double(t.shape[0] + t.shape[1]));  // (d_out, d_in)
        if (is_norm_gain || is_bias)
            std::fill(t.data, t.data + n, is_norm_gain ? S(1) : S(0));
        else
            fillTruncatedNormal(t.data, n, std, stream);
    }
    std::fill(cached_.begin(), cached_.end(), 0);
}

template <typename S>
std::vector<std::pair<std::int64_t, std::int64_t>> BasicModel<S>::parameterGroups() const
{
    // Each layer's tensors are one stretch starting at ln1 (with norms) or the fused QKV matrix.
    const auto offsetOf = [&](const S *p) { return std::int64_t(p - params_.data()); };
    const auto layerStart = [&](const LayerWeights &w) { return offsetOf(w.ln1_g ? w.ln1_g : w.wqkv); };
    std::vector<std::pair<std::int64_t, std::int64_t>> groups;
    std::int64_t from = 0;
    for (const LayerWeights &w : layers_) {
        groups.emplace_back(from, layerStart(w) - from);
        from = layerStart(w);
    }
    const std::int64_t head = offsetOf(layers_.back().w_down + D_ * F_);
    groups.emplace_back(from, head - from);
    groups.emplace_back(head, parameterCount() - head);
    return groups;
}

template <typename S>
void BasicModel<S>::zeroGradients()
{
    // With a parameter-use callback each group is zeroed just before its backward (useParameters):
    // filling the whole arena here would bring back every page the caller released.
    if (parameter_use_)
        return;
    std::fill(grads_.begin(), grads_.end(), S(0));
}

template <typename S>
NamedTensor<S> *BasicModel<S>::find(std::string_view name)
{
    for (NamedTensor<S> &t : tensors_)
        if (t.name == name)
            return &t;
    return nullptr;
}

template <typename S>
Problems BasicModel<S>::checkCall(const std::int32_t *tokens, const std::int32_t *targets, int batch, int seq) const
{
    Problems problems;
    if (batch < 1 || batch > options_.max_batch)
        problems.push_back({"batch", "range", "batch must be between 1 and max_batch ("
                                                  + std::to_string(options_.max_batch) + "), got "
                                                  + std::to_string(batch) + "."});
    if (seq < 1 || seq > context_)
        problems.push_back({"seq", "range", "sequence length must be between 1 and the context ("
                                                + std::to_string(context_) + "), got " + std::to_string(seq) + "."});
    if (!problems.empty())
        return problems;
    const Index n = Index(batch) * seq;
    for (const std::int32_t *ids : {tokens, targets}) {
        if (!ids)
            continue;
        for (Index i = 0; i < n; ++i)
            if (ids[i] < 0 || ids[i] >= V_) {
                problems.push_back({ids == tokens ? "tokens" : "targets", "range",
                                    "token id " + std::to_string(ids[i]) + " at index " + std::to_string(i)
                                        + " is outside the vocabulary [0, " + std::to_string(V_) + ")."});
                break;
            }
    }
    return problems;
}

template <typename S>
void BasicModel<S>::normForward(const char *op, const S *x, const S *g, const S *bias, S *y, S *stats, Index n)
{
    const bool ln = config_.norm == NormType::LayerNorm;
    Scope scope(&profiler_, op, kFwd, false,
                (ln ? flop_rules::kLayerNorm : flop_rules::kRmsNorm) * double(n) * double(D_),
                rowsOf(OpClass::Norm, n, D_).readingAlso((ln ? 2.0 : 1.0) * double(D_)));
    if (ln)
        layerNormForward(x, g, bias, y, stats, n, D_, S(options_.norm_eps));
    else
        rmsNormForward(x, g, y, stats, n, D_, S(options_.norm_eps));
}

template <typename S>
void BasicModel<S>::normBackward(const char *op, const S *x, const S *g, const S *stats, const S *dy, S *dx, Index n,
                                 bool accumulate)
{
    const bool ln = config_.norm == NormType::LayerNorm;
    Scope scope(&profiler_, op, kBwd, false,
                kBack * (ln ? flop_rules::kLayerNorm : flop_rules::kRmsNorm) * double(n) * double(D_),
                rowsOf(OpClass::Norm, n, D_).readingAlso((ln ? 2.0 : 1.0) * double(D_)));
    // The bias (LayerNorm) sits right after its gain in the arena.
    if (ln)
        layerNormBackward(x, g, stats, dy, dx, gradOf(g), gradOf(g) + D_, n, D_, accumulate);
    else
        rmsNormBackward(x, g, stats, dy, dx, gradOf(g), n, D_, accumulate);
}

template <typename S>
void BasicModel<S>::embed(const std::int32_t *tokens, Index b, Index t)
{
    const Index N = b * t;
    {
        Scope scope(&profiler_, "token_embedding", kFwd, false, 0, rowsOf(OpClass::Embedding, N, D_));
        embeddingForward(tokens, tok_emb_, embedded_, N, D_);
    }
    if (config_.positional_encoding == PositionalEncoding::Learned) {
        Scope scope(&profiler_, "position_embedding_add", kFwd, false, flop_rules::kPositionAdd * double(N * D_),
                    rowsOf(OpClass::Elementwise, N, D_, 2).passingGradient());
        addLearnedPositions(embedded_, pos_emb_, b, t, D_, 0);
    } else if (config_.positional_encoding == PositionalEncoding::Sinusoidal) {
        Scope scope(&profiler_, "position_embedding_add", kFwd, false, flop_rules::kPositionAdd * double(N * D_),
                    rowsOf(OpClass::Elementwise, N, D_, 2).passingGradient());
        addSinusoidalPositions(embedded_, b, t, D_, 0);
    }
}

// The naive kernel as three profiled stages under the engine's non-flash names; the tiled one as
// one fused operator timed under the engine's FlashAttention name, "flash_attention", with the bytes
// of Q, K, V read and O written once. Its FLOPs are booked under the engine's three flash operators
// (core/ops/operator_list.cpp: flash_attention = the QKᵀ product, flash_softmax, and
// flash_attention_values = P·V; the softmax over the causal triangle), the last two with no time
// of their own, so FLOPs join the engine per name and the matmul total stays the MFU convention's.
// The products are counted whole, as the engine counts them for this run (AttentionFlops::Full,
// engine_scenario.cpp), although the tiled kernel skips the key blocks right of the diagonal and so
// does about half of that work at large T. compareOperators (step_time_comparison.h) folds the
// three into one row.
static void recordFlashParts(OpProfiler &profiler, OpPhase phase, double values_flops, double softmax_flops)
{
    if (!profiler.enabled())
        return;
    profiler.record("flash_softmax", phase, false, softmax_flops, 0);
    profiler.record("flash_attention_values", phase, true, values_flops, 0);
}

template <typename S>
void BasicModel<S>::attentionForward(const S *qkv, S *att, LayerActivations &s, Index b, Index t)
{
    const AttentionDims dims{b, t, H_, G_, Dh_, W_, W_, W_, Q_};
    // QKᵀ and P·V per head: (T x Dh)·(Dh x T) and (T x T)·(T x Dh), run whole (masked half included).
    const double attentionProductFlops = flop_rules::matmul(double(b * H_), double(t), double(t), double(Dh_));
    const double softmaxFlops = flop_rules::kSoftmax * double(b * H_) * flop_rules::causalScoreCount(double(t));
    if (tiled()) {
        {
            Scope scope(&profiler_, "flash_attention", kFwd, true, attentionProductFlops,
                        rowsOf(OpClass::Attention, b * t, Q_).readingAlso(2 * double(b * t * KV_)));
            tiledAttentionForward(qkv, qkv + Q_, qkv + Q_ + KV_, att, s.lse, dims, blocks_, attention_scratch_,
                                  attention_threads_);
        }
        recordFlashParts(profiler_, kFwd, attentionProductFlops, softmaxFlops);
        return;
    }
    {
        Scope scope(&profiler_, "attention_scores", kFwd, true, attentionProductFlops,
                    OpShape::matmul(b * H_, t, t, Dh_, false));
        attentionScoresForward(qkv, qkv + Q_, s.probs, dims);
    }
    {
        // Only the causal lower triangle, T(T+1)/2 per head, is exponentiated and normalised.
        Scope scope(&profiler_, "softmax", kFwd, false, softmaxFlops, rowsOf(OpClass::Softmax, b * H_, t * (t + 1) / 2));
        causalSoftmaxForward(s.probs, dims);
    }
    {
        Scope scope(&profiler_, "attention_values", kFwd, true, attentionProductFlops,
                    OpShape::matmul(b * H_, t, Dh_, t, false));
        attentionValuesForward(s.probs, qkv + Q_ + KV_, att, dims);
    }
}

// From datt_ (N, H·Dh) into dqkv_'s Q, K and V columns.
template <typename S>
void BasicModel<S>::attentionBackward(const LayerActivations &s, Index b, Index t)
{
    const AttentionDims dims{b, t, H_, G_, Dh_, W_, W_, W_, Q_};
    const double attentionProductFlops = flop_rules::matmul(double(b * H_), double(t), double(t), double(Dh_));
    const double softmaxFlops = flop_rules::kSoftmax * double(b * H_) * flop_rules::causalScoreCount(double(t));
    if (tiled()) {
        // The engine's backward convention (2× a product, kBack × the softmax); the recomputation
        // of S and P (Dao et al. 2022 §3.1) is extra work the count leaves out, as the engine's does.
        const double product = flop_rules::kBackwardMatmulFactor * attentionProductFlops;
        {
            Scope scope(&profiler_, "flash_attention", kBwd, true, product,
                        rowsOf(OpClass::Attention, b * t, Q_, 2).readingAlso(2 * double(b * t * KV_)));
            tiledAttentionBackward(s.qkv, s.qkv + Q_, s.qkv + Q_ + KV_, s.att, s.lse, datt_, dqkv_, dqkv_ + Q_,
                                   dqkv_ + Q_ + KV_, row_dot_, dims, blocks_, attention_scratch_, attention_threads_);
        }
        recordFlashParts(profiler_, kBwd, product, kBack * softmaxFlops);
        return;
    }
    {
        Scope scope(&profiler_, "attention_values", kBwd, true, flop_rules::kBackwardMatmulFactor * attentionProductFlops,
                    OpShape::matmul(b * H_, t, Dh_, t, false));
        attentionValuesBackward(s.probs, s.qkv + Q_ + KV_, datt_, dqkv_ + Q_ + KV_, dprobs_, dims);
    }
    {
        Scope scope(&profiler_, "softmax", kBwd, false, kBack * softmaxFlops, rowsOf(OpClass::Softmax, b * H_, t * (t + 1) / 2));
        causalSoftmaxBackward(s.probs, dprobs_, dims);
    }
    {
        Scope scope(&profiler_, "attention_scores", kBwd, true, flop_rules::kBackwardMatmulFactor * attentionProductFlops,
                    OpShape::matmul(b * H_, t, t, Dh_, false));
        attentionScoresBackward(s.qkv, s.qkv + Q_, dprobs_, dqkv_, dqkv_ + Q_, dims);
    }
}

template <typename S>
void BasicModel<S>::layerForward(int l, const S *x, Index b, Index t)
{
    LayerActivations &s = saved_[std::size_t(l)];
    const LayerWeights &w = layers_[std::size_t(l)];
    const Index N = b * t;
    const bool pre = hasNorm() && preNorm(), post = hasNorm() && !preNorm();
    s.input = x;

    const S *a = x;  // (N, D) attention input
    if (pre) {
        normForward("attention_norm", x, w.ln1_g, w.ln1_b, s.ln1_out, s.ln1_stats, N);
        a = s.ln1_out;
    }
    {
        Scope scope(&profiler_, "qkv_projection", kFwd, true, matmulFlops(N, W_, D_), weightProduct(N, W_, D_));
        linearForward(a, D_, w.wqkv, s.qkv, W_, N, D_, W_);
    }
    if (config_.positional_encoding == PositionalEncoding::RoPE) {
        Scope scope(&profiler_, "rope", kFwd, false, flop_rules::kRope * double(N * (Q_ + KV_)),
                    rowsOf(OpClass::Elementwise, N, Q_ + KV_));
        ropeForward(s.qkv, W_, b, t, H_ + G_, Dh_, rope_, 0);  // Q and K heads are adjacent
    }
    attentionForward(s.qkv, s.att, s, b, t);
    {
        Scope scope(&profiler_, "attention_output", kFwd, true, matmulFlops(N, D_, Q_), weightProduct(N, D_, Q_));
        linearForward(s.att, Q_, w.wo, s.h_sum, D_, N, Q_, D_);
    }
    {
        // A parallel block's x + attention + MLP is the operator list's one parallel_residual (two
        // adds per element); computed here as two adds, counted under that one name.
        Scope scope(&profiler_, parallelBlock() ? "parallel_residual" : "attention_residual", kFwd, false,
                    flop_rules::kResidual * double(N * D_), rowsOf(OpClass::Elementwise, N, D_, 2).passingGradient());
        addInto(s.h_sum, x, N * D_);
    }
    const S *h = s.h_sum;  // (N, D) stream after the attention sub-block
    if (post) {
        normForward("attention_norm", s.h_sum, w.ln1_g, w.ln1_b, s.ln1_out, s.ln1_stats, N);
        h = s.ln1_out;
    }
    // Serial: the feed-forward reads h. Parallel (GPT-NeoX): it reads the block input x, so
    // y = x + Attn(norm1(x)) + MLP(norm2(x)).
    const S *mlp_source = parallelBlock() ? x : h;
    const S *m = mlp_source;  // (N, D) feed-forward input
    if (pre) {
        normForward("mlp_norm", mlp_source, w.ln2_g, w.ln2_b, s.ln2_out, s.ln2_stats, N);
        m = s.ln2_out;
    }
    {
        Scope scope(&profiler_, "mlp_up", kFwd, true, matmulFlops(N, up_, D_), weightProduct(N, up_, D_));
        linearForward(m, D_, w.w_up, s.up, up_, N, D_, up_);
    }
    {
        Scope scope(&profiler_, "mlp_activation", kFwd, false,
                    activationFlopsPerElement(config_.activation) * double(N * F_),
                    rowsOf(OpClass::Elementwise, N, F_, double(up_) / double(F_)));
        activationForward(config_.activation, s.up, s.act, N, F_);
    }
    {
        Scope scope(&profiler_, "mlp_down", kFwd, true, matmulFlops(N, D_, F_), weightProduct(N, D_, F_));
        linearForward(s.act, F_, w.w_down, s.y_sum, D_, N, F_, D_);
    }
    {
        Scope scope(&profiler_, parallelBlock() ? "parallel_residual" : "mlp_residual", kFwd, false,
                    flop_rules::kResidual * double(N * D_), rowsOf(OpClass::Elementwise, N, D_, 2).passingGradient());
        addInto(s.y_sum, h, N * D_);
    }
    s.output = s.y_sum;
    if (post) {
        normForward("mlp_norm", s.y_sum, w.ln2_g, w.ln2_b, s.ln2_out, s.ln2_stats, N);
        s.output = s.ln2_out;
    }
}

template <typename S>
const S *BasicModel<S>::headInput(Index n)
{
    const S *y = saved_.back().output;
    if (!hasNorm())
        return y;
    normForward("final_norm", y, lnf_g_, lnf_b_, lnf_out_, lnf_stats_, n);
    return lnf_out_;
}

template <typename S>
Result<const S *> BasicModel<S>::forward(const std::int32_t *tokens, int batch, int seq)
{
    if (options_.inference_only)
        return inferenceOnlyProblem("forward");
    if (Problems p = checkCall(tokens, nullptr, batch, seq); !p.empty())
        return p;
    const Index b = batch, t = seq, N = b * t;
    useParameters(0, ParameterUse::BeforeForward);
    embed(tokens, b, t);
    useParameters(0, ParameterUse::AfterForward);
    const S *x = embedded_;
    for (int l = 0; l < config_.n_layers; ++l) {
        if (interrupted())
            return Result<const S *>::failure("step", kInterruptedRule, "The forward pass was interrupted before its end.");
        useParameters(1 + l, ParameterUse::BeforeForward);
        layerForward(l, x, b, t);
        useParameters(1 + l, ParameterUse::AfterForward);
        x = saved_[std::size_t(l)].output;
    }
    useParameters(config_.n_layers + 1, ParameterUse::BeforeForward);
    const S *f = headInput(N);
    {
        Scope scope(&profiler_, "lm_head", kFwd, true, matmulFlops(N, V_, D_), weightProduct(N, V_, D_));
        linearForward(f, D_, lm_head_, logits_, V_, N, D_, V_);
    }
    useParameters(config_.n_layers + 1, ParameterUse::AfterForward);
    return static_cast<const S *>(logits_);
}

template <typename S>
Result<S> BasicModel<S>::loss(const std::int32_t *tokens, const std::int32_t *targets, int batch, int seq)
{
    if (Problems p = checkCall(tokens, targets, batch, seq); !p.empty())
        return p;
    if (Result<const S *> logits = forward(tokens, batch, seq); !logits)
        return logits.problems();
    const Index N = Index(batch) * seq;
    Scope scope(&profiler_, "cross_entropy", kFwd, false, flop_rules::kCrossEntropy * double(N * V_),
                rowsOf(OpClass::CrossEntropy, N, V_).writing(double(N)));
    return crossEntropyLoss(logits_, targets, row_loss_, N, V_);
}

template <typename S>
Result<S> BasicModel<S>::forwardBackward(const std::int32_t *tokens, const std::int32_t *targets, int batch, int seq)
{
    if (options_.inference_only)
        return inferenceOnlyProblem("forwardBackward");
    if (Problems p = checkCall(tokens, targets, batch, seq); !p.empty())
        return p;
    const Index b = batch, t = seq, N = b * t;
    const auto interruption = [] {
        return Result<S>::failure("step", kInterruptedRule, "The step was interrupted before its end.");
    };
    if (Result<const S *> logits = forward(tokens, batch, seq); !logits)
        return logits.problems();
    if (interrupted())
        return interruption();
    zeroGradients();
    S loss_value;
    {
        // One fused kernel computes the loss and dlogits: counted as its forward plus a backward of
        // twice that, recorded under the backward phase.
        Scope scope(&profiler_, "cross_entropy", kBwd, false,
                    (1.0 + kBack) * flop_rules::kCrossEntropy * double(N * V_),
                    rowsOf(OpClass::CrossEntropy, N, V_).writing(double(N)));
        loss_value = crossEntropyForwardBackward(logits_, targets, logits_, row_loss_, N, V_);
    }
    const S *y = saved_.back().output;
    const S *f = hasNorm() ? lnf_out_ : y;
    useParameters(config_.n_layers + 1, ParameterUse::BeforeBackward);
    {
        Scope scope(&profiler_, "lm_head", kBwd, true, flop_rules::kBackwardMatmulFactor * matmulFlops(N, V_, D_),
                    weightProduct(N, V_, D_));
        linearBackward(f, D_, lm_head_, logits_, V_, grad_a_, gradOf(lm_head_), N, D_, V_);
    }
    S *g = grad_a_, *spare = grad_b_;
    if (hasNorm()) {
        normBackward("final_norm", y, lnf_g_, lnf_stats_, g, spare, N, false);
        std::swap(g, spare);
    }
    useParameters(config_.n_layers + 1, ParameterUse::AfterBackward);
    // The head and final norm sit after the last layer's tensors in the arena; the first tensor of
    // layer l starts its stretch (ln1 when the model has norms, else the fused QKV matrix).
    auto layerStart = [&](int l) { return layers_[std::size_t(l)].ln1_g ? layers_[std::size_t(l)].ln1_g : layers_[std::size_t(l)].wqkv; };
    reportGradientsReadyFrom(layers_.back().w_down + D_ * F_);
    for (int l = config_.n_layers - 1; l >= 0; --l) {
        if (interrupted())
            return interruption();
        useParameters(1 + l, ParameterUse::BeforeBackward);
        layerBackward(l, b, t, g, spare);
        useParameters(1 + l, ParameterUse::AfterBackward);
        reportGradientsReadyFrom(layerStart(l));
    }
    useParameters(0, ParameterUse::BeforeBackward);
    {
        Scope scope(&profiler_, "token_embedding", kBwd, false, double(N * D_),  // one add per element
                    rowsOf(OpClass::Embedding, N, D_));
        embeddingBackward(tokens, g, gradOf(tok_emb_), N, D_);
    }
    if (config_.positional_encoding == PositionalEncoding::Learned) {
        Scope scope(&profiler_, "position_embedding_add", kBwd, false, flop_rules::kPositionAdd * double(N * D_),
                    rowsOf(OpClass::Elementwise, N, D_, 2).passingGradient());
        addLearnedPositionsBackward(g, gradOf(pos_emb_), b, t, D_, 0);
    }
    useParameters(0, ParameterUse::AfterBackward);
    reportGradientsReadyFrom(params_.data());
    return loss_value;
}

template <typename S>
void BasicModel<S>::layerBackward(int l, Index b, Index t, S *&g, S *&spare)
{
    const LayerActivations &s = saved_[std::size_t(l)];
    const LayerWeights &w = layers_[std::size_t(l)];
    const Index N = b * t;
    const bool pre = hasNorm() && preNorm(), post = hasNorm() && !preNorm();

    // Feed-forward sub-block: y = [norm2](h + FFN([norm2](h))).
    if (post) {
        normBackward("mlp_norm", s.y_sum, w.ln2_g, s.ln2_stats, g, spare, N, false);
        std::swap(g, spare);
    }
    // g = ∂L/∂y_sum (N, D)
    const S *h = post ? s.ln1_out : s.h_sum;
    const bool parallel = parallelBlock();
    const S *mlp_source = parallel ? s.input : h;
    const S *m = pre ? s.ln2_out : mlp_source;
    {
        Scope scope(&profiler_, "mlp_down", kBwd, true, flop_rules::kBackwardMatmulFactor * matmulFlops(N, D_, F_),
                    weightProduct(N, D_, F_));
        linearBackward(s.act, F_, w.w_down, g, D_, dact_, gradOf(w.w_down), N, F_, D_);
    }
    {
        Scope scope(&profiler_, "mlp_activation", kBwd, false,
                    kBack * activationFlopsPerElement(config_.activation) * double(N * F_),
                    rowsOf(OpClass::Elementwise, N, F_, double(up_) / double(F_)));
        activationBackward(config_.activation, s.up, dact_, dup_, N, F_);
    }
    {
        // Parallel without a norm: ∂L/∂m is already the feed-forward branch's share of ∂L/∂x and
        // is kept in `spare` until the attention branch has run.
        Scope scope(&profiler_, "mlp_up", kBwd, true, flop_rules::kBackwardMatmulFactor * matmulFlops(N, up_, D_),
                    weightProduct(N, up_, D_));
        linearBackward(m, D_, w.w_up, dup_, up_, parallel && !pre ? spare : grad_c_, gradOf(w.w_up), N, D_, up_);
    }
    if (parallel) {
        // Branch gradient w.r.t. x into `spare`; g stays ∂L/∂h (= ∂L/∂y through the residual).
        if (pre)
            normBackward("mlp_norm", s.input, w.ln2_g, s.ln2_stats, grad_c_, spare, N, false);
    } else if (pre) {
        normBackward("mlp_norm", h, w.ln2_g, s.ln2_stats, grad_c_, g, N, true);  // residual folded in
        // The residual's gradient add happens inside the norm's backward (it accumulates into g);
        // it is recorded under its own name so the count follows the engine's one convention.
        Scope scope(&profiler_, "mlp_residual", kBwd, false, flop_rules::kResidual * double(N * D_),
                    rowsOf(OpClass::Elementwise, N, D_, 2).passingGradient());
    } else {
        Scope scope(&profiler_, "mlp_residual", kBwd, false, flop_rules::kResidual * double(N * D_),
                    rowsOf(OpClass::Elementwise, N, D_, 2).passingGradient());
        addInto(g, grad_c_, N * D_);
    }
    // g = ∂L/∂h. Attention sub-block: h = [norm1](x + Attn([norm1](x))).
    if (post) {
        normBackward("attention_norm", s.h_sum, w.ln1_g, s.ln1_stats, g, spare, N, false);
        std::swap(g, spare);
    }
    const S *a = pre ? s.ln1_out : s.input;
    {
        Scope scope(&profiler_, "attention_output", kBwd, true, flop_rules::kBackwardMatmulFactor * matmulFlops(N, D_, Q_),
                    weightProduct(N, D_, Q_));
        linearBackward(s.att, Q_, w.wo, g, D_, datt_, gradOf(w.wo), N, Q_, D_);
    }
    attentionBackward(s, b, t);
    if (config_.positional_encoding == PositionalEncoding::RoPE) {
        Scope scope(&profiler_, "rope", kBwd, false, kBack * flop_rules::kRope * double(N * (Q_ + KV_)),
                    rowsOf(OpClass::Elementwise, N, Q_ + KV_));
        ropeBackward(dqkv_, W_, b, t, H_ + G_, Dh_, rope_, 0);
    }
    {
        Scope scope(&profiler_, "qkv_projection", kBwd, true, flop_rules::kBackwardMatmulFactor * matmulFlops(N, W_, D_),
                    weightProduct(N, W_, D_));
        linearBackward(a, D_, w.wqkv, dqkv_, W_, grad_c_, gradOf(w.wqkv), N, D_, W_);
    }
    const char *attention_residual = parallel ? "parallel_residual" : "attention_residual";
    if (pre) {
        normBackward("attention_norm", s.input, w.ln1_g, s.ln1_stats, grad_c_, g, N, true);
        Scope scope(&profiler_, attention_residual, kBwd, false, flop_rules::kResidual * double(N * D_),
                    rowsOf(OpClass::Elementwise, N, D_, 2).passingGradient());
    } else {
        Scope scope(&profiler_, attention_residual, kBwd, false, flop_rules::kResidual * double(N * D_),
                    rowsOf(OpClass::Elementwise, N, D_, 2).passingGradient());
        addInto(g, grad_c_, N * D_);
    }
    if (parallel) {
        Scope scope(&profiler_, "parallel_residual", kBwd, false, flop_rules::kResidual * double(N * D_),
                    rowsOf(OpClass::Elementwise, N, D_, 2).passingGradient());
        addInto(g, spare, N * D_);  // the feed-forward branch's share of ∂L/∂x
    }
    // g = ∂L/∂x
}

template <typename S>
Result<const S *> BasicModel<S>::forwardLogitsLast(const std::int32_t *tokens, int batch, int seq)
{
    if (Problems p = checkCall(tokens, nullptr, batch, seq); !p.empty())
        return p;
    const Index b = batch, t = seq;
    embed(tokens, b, t);
    const S *x = embedded_;
    for (int l = 0; l < config_.n_layers; ++l) {
        layerForward(l, x, b, t);
        x = saved_[std::size_t(l)].output;
    }
    for (Index i = 0; i < b; ++i)
        std::memcpy(last_rows_ + i * D_, x + (i * t + t - 1) * D_, std::size_t(D_) * sizeof(S));
    const S *f = last_rows_;
    if (hasNorm()) {
        normForward("final_norm", last_rows_, lnf_g_, lnf_b_, last_norm_, last_stats_, b);
        f = last_norm_;
    }
    Scope scope(&profiler_, "lm_head", kFwd, true, matmulFlops(b, V_, D_), weightProduct(b, V_, D_));
    linearForward(f, D_, lm_head_, last_logits_, V_, b, D_, V_);
    return static_cast<const S *>(last_logits_);
}

template <typename S>
Result<const S *> BasicModel<S>::blockForward(int layer, const S *x, int batch, int seq)
{
    if (layer < 0 || layer >= config_.n_layers)
        return Result<const S *>::failure("layer", "range", "layer " + std::to_string(layer) + " does not exist.");
    if (Problems p = checkCall(nullptr, nullptr, batch, seq); !p.empty())
        return p;
    const Index b = batch, t = seq;
    std::memcpy(embedded_, x, std::size_t(b * t * D_) * sizeof(S));
    layerForward(layer, embedded_, b, t);
    return saved_[std::size_t(layer)].output;
}

template <typename S>
std::int64_t BasicModel<S>::layerParameterOffset(int layer) const
{
    if (layer >= config_.n_layers) {
        const LayerWeights &w = layers_.back();
        return std::int64_t((w.w_down + D_ * F_) - params_.data());
    }
    const LayerWeights &w = layers_[std::size_t(std::max(0, layer))];
    return std::int64_t((w.ln1_g ? w.ln1_g : w.wqkv) - params_.data());
}

template <typename S>
Result<S> BasicModel<S>::stageForward(int first_layer, int end_layer, const std::int32_t *tokens, const S *input,
                                      const std::int32_t *targets, int batch, int seq, const S **output)
{
    if (options_.inference_only)
        return inferenceOnlyProblem("stageForward");
    if (first_layer < 0 || end_layer > config_.n_layers || first_layer >= end_layer)
        return Result<S>::failure("stage", "range", "a stage holds layers [first, end) with 0 <= first < end <= "
                                                       + std::to_string(config_.n_layers) + ".");
    const bool first = first_layer == 0, last = end_layer == config_.n_layers;
    if ((first && !tokens) || (!first && !input) || (last && !targets))
        return Result<S>::failure("stage", "inputs", "the first stage needs tokens, the others an input, the last targets.");
    if (Problems p = checkCall(first ? tokens : nullptr, last ? targets : nullptr, batch, seq); !p.empty())
        return p;
    const Index b = batch, t = seq, N = b * t;
    if (first) {
        embed(tokens, b, t);
    } else if (input != embedded_) {
        std::memcpy(embedded_, input, std::size_t(N * D_) * sizeof(S));
    }
    const S *x = embedded_;
    for (int l = first_layer; l < end_layer; ++l) {
        layerForward(l, x, b, t);
        x = saved_[std::size_t(l)].output;
    }
    if (output)
        *output = x;
    if (!last)
        return S(0);
    const S *f = headInput(N);
    {
        Scope scope(&profiler_, "lm_head", kFwd, true, matmulFlops(N, V_, D_), weightProduct(N, V_, D_));
        linearForward(f, D_, lm_head_, logits_, V_, N, D_, V_);
    }
    Scope scope(&profiler_, "cross_entropy", kFwd, false, flop_rules::kCrossEntropy * double(N * V_),
                rowsOf(OpClass::CrossEntropy, N, V_).writing(double(N)));
    return crossEntropyLoss(logits_, targets, row_loss_, N, V_);
}

template <typename S>
Result<S> BasicModel<S>::stageBackward(int first_layer, int end_layer, const std::int32_t *tokens, const S *input,
                                       const std::int32_t *targets, const S *output_grad, int batch, int seq,
                                       const S **input_grad)
{
    if (options_.inference_only)
        return inferenceOnlyProblem("stageBackward");
    (void)input;  // the activations saved by stageForward hold it
    if (first_layer < 0 || end_layer > config_.n_layers || first_layer >= end_layer)
        return Result<S>::failure("stage", "range", "a stage holds layers [first, end) with 0 <= first < end <= "
                                                       + std::to_string(config_.n_layers) + ".");
    const bool first = first_layer == 0, last = end_layer == config_.n_layers;
    if ((first && !tokens) || (last && !targets) || (!last && !output_grad))
        return Result<S>::failure("stage", "inputs", "the first stage needs tokens, the last targets, the others an output gradient.");
    if (Problems p = checkCall(first ? tokens : nullptr, last ? targets : nullptr, batch, seq); !p.empty())
        return p;
    const Index b = batch, t = seq, N = b * t;
    zeroGradients();
    S loss_value = S(0);
    S *g = grad_a_, *spare = grad_b_;
    if (last) {
        {
            Scope scope(&profiler_, "cross_entropy", kBwd, false,
                        (1.0 + kBack) * flop_rules::kCrossEntropy * double(N * V_),
                        rowsOf(OpClass::CrossEntropy, N, V_).writing(double(N)));
            loss_value = crossEntropyForwardBackward(logits_, targets, logits_, row_loss_, N, V_);
        }
        const S *y = saved_[std::size_t(end_layer - 1)].output;
        const S *f = hasNorm() ? lnf_out_ : y;
        {
            Scope scope(&profiler_, "lm_head", kBwd, true, flop_rules::kBackwardMatmulFactor * matmulFlops(N, V_, D_),
                        weightProduct(N, V_, D_));
            linearBackward(f, D_, lm_head_, logits_, V_, grad_a_, gradOf(lm_head_), N, D_, V_);
        }
        if (hasNorm()) {
            normBackward("final_norm", y, lnf_g_, lnf_stats_, g, spare, N, false);
            std::swap(g, spare);
        }
    } else {
        std::memcpy(g, output_grad, std::size_t(N * D_) * sizeof(S));
    }
    for (int l = end_layer - 1; l >= first_layer; --l)
        layerBackward(l, b, t, g, spare);
    if (first) {
        {
            Scope scope(&profiler_, "token_embedding", kBwd, false, double(N * D_), rowsOf(OpClass::Embedding, N, D_));
            embeddingBackward(tokens, g, gradOf(tok_emb_), N, D_);
        }
        if (config_.positional_encoding == PositionalEncoding::Learned) {
            Scope scope(&profiler_, "position_embedding_add", kBwd, false, flop_rules::kPositionAdd * double(N * D_),
                        rowsOf(OpClass::Elementwise, N, D_, 2).passingGradient());
            addLearnedPositionsBackward(g, gradOf(pos_emb_), b, t, D_, 0);
        }
    } else if (input_grad) {
        *input_grad = g;
    }
    return loss_value;
}

template <typename S>
Result<const S *> BasicModel<S>::decodeStep(std::int32_t token, int position)
{
    return decodeBatch(&token, &position, 1);
}

template <typename S>
void BasicModel<S>::writeCache(int layer, const S *qkv_row, Index sequence, Index position)
{
    // K and V follow Q in the fused row; the cache keeps them per sequence, P positions each.
    const Index at = (sequence * cache_context_ + position) * KV_;
    std::memcpy(k_cache_[std::size_t(layer)] + at, qkv_row + Q_, std::size_t(KV_) * sizeof(S));
    std::memcpy(v_cache_[std::size_t(layer)] + at, qkv_row + Q_ + KV_, std::size_t(KV_) * sizeof(S));
}

template <typename S>
Result<const S *> BasicModel<S>::prefill(const std::int32_t *tokens, const int *lengths, int batch, int seq)
{
    if (Problems p = checkCall(tokens, nullptr, batch, seq); !p.empty())
        return p;
    Problems problems;
    if (batch > cache_batch_)
        problems.push_back({"batch", "range", "batch " + std::to_string(batch) + " exceeds the "
                                                  + std::to_string(cache_batch_) + " sequences the KV cache holds."});
    if (seq > cache_context_)
        problems.push_back({"seq", "range", "the prompt of " + std::to_string(seq) + " tokens exceeds the "
                                                + std::to_string(cache_context_) + " positions the KV cache holds."});
    for (int i = 0; problems.empty() && i < batch; ++i)
        if (!lengths || lengths[i] < 1 || lengths[i] > seq)
            problems.push_back({"lengths", "range", "prompt length of sequence " + std::to_string(i) + " must be in [1, "
                                                        + std::to_string(seq) + "]."});
    if (!problems.empty())
        return problems;
    const Index b = batch, t = seq;
    embed(tokens, b, t);
    const S *x = embedded_;
    for (int l = 0; l < config_.n_layers; ++l) {
        layerForward(l, x, b, t);
        const LayerActivations &s = saved_[std::size_t(l)];
        {
            Index rows = 0;  // the prompt positions cached (K and V of each)
            for (Index i = 0; i < b; ++i)
                rows += lengths[i];
            Scope scope(&profiler_, "kv_cache_write", kFwd, false, 0, rowsOf(OpClass::Copy, rows, 2 * KV_));
            for (Index i = 0; i < b; ++i)
                for (Index p = 0; p < lengths[i]; ++p)
                    writeCache(l, s.qkv + (i * t + p) * W_, i, p);  // s.qkv holds K after RoPE
        }
        x = s.output;
    }
    for (Index i = 0; i < b; ++i) {
        std::memcpy(last_rows_ + i * D_, x + (i * t + lengths[i] - 1) * D_, std::size_t(D_) * sizeof(S));
        cached_[std::size_t(i)] = lengths[i];
    }
    const S *f = last_rows_;
    if (hasNorm()) {
        normForward("final_norm", last_rows_, lnf_g_, lnf_b_, last_norm_, last_stats_, b);
        f = last_norm_;
    }
    Scope scope(&profiler_, "lm_head", kFwd, true, matmulFlops(b, V_, D_), weightProduct(b, V_, D_));
    linearForward(f, D_, lm_head_, last_logits_, V_, b, D_, V_);
    return static_cast<const S *>(last_logits_);
}

template <typename S>
Result<const S *> BasicModel<S>::decodeBatch(const std::int32_t *tokens, const int *positions, int batch)
{
    if (batch < 1 || batch > cache_batch_)
        return Result<const S *>::failure("batch", "range", "batch must be between 1 and the "
                                                                + std::to_string(cache_batch_)
                                                                + " sequences the KV cache holds, got "
                                                                + std::to_string(batch) + ".");
    for (int i = 0; i < batch; ++i) {
        if (tokens[i] < 0 || tokens[i] >= V_)
            return Result<const S *>::failure("token", "range", "token id " + std::to_string(tokens[i])
                                                                    + " is outside the vocabulary.");
        const Index held = cached_[std::size_t(i)];
        if (positions[i] < 0 || positions[i] >= cache_context_ || positions[i] > held)
            return Result<const S *>::failure(
                "position", "range",
                "decode position " + std::to_string(positions[i]) + (batch > 1 ? " of sequence " + std::to_string(i) : "")
                    + " must be in [0, " + std::to_string(std::min<Index>(held, cache_context_ - 1))
                    + "]: the cache holds positions 0.." + std::to_string(held - 1) + " and the context is "
                    + std::to_string(cache_context_) + ".");
    }
    const Index b = batch, P = cache_context_;
    const bool pre = hasNorm() && preNorm(), post = hasNorm() && !preNorm();
    {
        Scope scope(&profiler_, "token_embedding", kFwd, false, 0, rowsOf(OpClass::Embedding, b, D_));
        embeddingForward(tokens, tok_emb_, dec_x_, b, D_);
    }
    if (config_.positional_encoding == PositionalEncoding::Learned
        || config_.positional_encoding == PositionalEncoding::Sinusoidal) {
        Scope scope(&profiler_, "position_embedding_add", kFwd, false, flop_rules::kPositionAdd * double(b * D_),
                    rowsOf(OpClass::Elementwise, b, D_, 2).passingGradient());
        for (Index i = 0; i < b; ++i) {
            if (config_.positional_encoding == PositionalEncoding::Learned)
                addLearnedPositions(dec_x_ + i * D_, pos_emb_, 1, 1, D_, positions[i]);
            else
                addSinusoidalPositions(dec_x_ + i * D_, 1, 1, D_, positions[i]);
        }
    }
    for (int l = 0; l < config_.n_layers; ++l) {
        const LayerWeights &w = layers_[std::size_t(l)];
        const S *a = dec_x_;  // (B, D)
        if (pre) {
            normForward("attention_norm", dec_x_, w.ln1_g, w.ln1_b, dec_a_, dec_stats_, b);
            a = dec_a_;
        }
        {
            Scope scope(&profiler_, "qkv_projection", kFwd, true, matmulFlops(b, W_, D_), weightProduct(b, W_, D_));
            linearForward(a, D_, w.wqkv, dec_qkv_, W_, b, D_, W_);  // (B, W)
        }
        if (config_.positional_encoding == PositionalEncoding::RoPE) {
            Scope scope(&profiler_, "rope", kFwd, false, flop_rules::kRope * double(b * (Q_ + KV_)),
                        rowsOf(OpClass::Elementwise, b, Q_ + KV_));
            for (Index i = 0; i < b; ++i)
                ropeForward(dec_qkv_ + i * W_, W_, 1, 1, H_ + G_, Dh_, rope_, positions[i]);
        }
        {
            Scope scope(&profiler_, "kv_cache_write", kFwd, false, 0, rowsOf(OpClass::Copy, b, 2 * KV_));
            for (Index i = 0; i < b; ++i)
                writeCache(l, dec_qkv_ + i * W_, i, positions[i]);
        }
        {
            // Q·Kᵀ, softmax and P·V of each new token against its sequence's cache in one kernel.
            double keys = 0;
            for (Index i = 0; i < b; ++i)
                keys += double(positions[i] + 1);
            // Reads each query and the cached K and V of every key it attends to; writes the output.
            Scope scope(&profiler_, "decode_attention", kFwd, true,
                        double(H_) * keys * (2 * 2 * double(Dh_) + flop_rules::kSoftmax),
                        rowsOf(OpClass::Attention, b, Q_).readingAlso(2 * double(KV_) * keys));
            decodeAttentionBatch(dec_qkv_, W_, k_cache_[std::size_t(l)], v_cache_[std::size_t(l)], KV_, P * KV_, positions,
                                 b, H_, G_, Dh_, dec_att_, Q_);
        }
        {
            Scope scope(&profiler_, parallelBlock() ? "parallel_residual" : "attention_residual", kFwd, false,
                        flop_rules::kResidual * double(b * D_), rowsOf(OpClass::Elementwise, b, D_, 2).passingGradient());
            std::memcpy(dec_h_, dec_x_, std::size_t(b * D_) * sizeof(S));  // added by the product below
        }
        {
            Scope scope(&profiler_, "attention_output", kFwd, true, matmulFlops(b, D_, Q_), weightProduct(b, D_, Q_));
            linearForward(dec_att_, Q_, w.wo, dec_h_, D_, b, Q_, D_, true);  // x + attention
        }
        const S *h = dec_h_;
        if (post) {
            normForward("attention_norm", dec_h_, w.ln1_g, w.ln1_b, dec_hn_, dec_stats_, b);
            h = dec_hn_;
        }
        const S *m = parallelBlock() ? dec_x_ : h;  // parallel: the feed-forward reads the layer input
        if (pre) {
            normForward("mlp_norm", m, w.ln2_g, w.ln2_b, dec_b_, dec_stats_, b);
            m = dec_b_;
        }
        {
            Scope scope(&profiler_, "mlp_up", kFwd, true, matmulFlops(b, up_, D_), weightProduct(b, up_, D_));
            linearForward(m, D_, w.w_up, dec_up_, up_, b, D_, up_);
        }
        {
            Scope scope(&profiler_, "mlp_activation", kFwd, false,
                        activationFlopsPerElement(config_.activation) * double(b * F_),
                        rowsOf(OpClass::Elementwise, b, F_, double(up_) / double(F_)));
            activationForward(config_.activation, dec_up_, dec_act_, b, F_);
        }
        {
            Scope scope(&profiler_, parallelBlock() ? "parallel_residual" : "mlp_residual", kFwd, false,
                        flop_rules::kResidual * double(b * D_), rowsOf(OpClass::Elementwise, b, D_, 2).passingGradient());
            std::memcpy(dec_y_, h, std::size_t(b * D_) * sizeof(S));
        }
        {
            Scope scope(&profiler_, "mlp_down", kFwd, true, matmulFlops(b, D_, F_), weightProduct(b, D_, F_));
            linearForward(dec_act_, F_, w.w_down, dec_y_, D_, b, F_, D_, true);  // h + feed-forward
        }
        if (post)
            normForward("mlp_norm", dec_y_, w.ln2_g, w.ln2_b, dec_x_, dec_stats_, b);
        else
            std::swap(dec_x_, dec_y_);  // the next layer's input; the old input becomes scratch
    }
    const S *f = dec_x_;
    if (hasNorm()) {
        normForward("final_norm", dec_x_, lnf_g_, lnf_b_, dec_a_, dec_stats_, b);
        f = dec_a_;
    }
    {
        Scope scope(&profiler_, "lm_head", kFwd, true, matmulFlops(b, V_, D_), weightProduct(b, V_, D_));
        linearForward(f, D_, lm_head_, dec_logits_, V_, b, D_, V_);
    }
    for (Index i = 0; i < b; ++i)
        cached_[std::size_t(i)] = positions[i] + 1;
    return static_cast<const S *>(dec_logits_);
}

template <typename S>
ReferenceMemory BasicModel<S>::memory() const
{
    ReferenceMemory m;
    m.parameters = double(params_.size() * sizeof(S));
    m.gradients = double(grads_.size() * sizeof(S));
    m.activations = double(acts_.size() * sizeof(S));
    m.workspace = double(work_.size() * sizeof(S));
    m.kv_cache = double(cache_.size() * sizeof(S));
    return m;
}

template <typename S>
std::size_t BasicModel<S>::bufferCapacityChecksum() const
{
    return params_.capacity() + grads_.capacity() + acts_.capacity() + work_.capacity() + cache_.capacity()
        + tensors_.capacity() + layers_.capacity() + saved_.capacity() + k_cache_.capacity() + v_cache_.capacity()
        + cached_.capacity() + profiler_.records().capacity();
}

template struct NamedTensor<float>;
template struct NamedTensor<double>;
template class BasicModel<float>;
template class BasicModel<double>;

}  // namespace lse::reference
