// SPDX-License-Identifier: GPL-3.0-or-later
// TensorParallelModel (see tensor_parallel_model.h). The layer code follows BasicModel's pre-norm
// path (reference/model.cpp) op for op, with local widths (heads/tp, d_ff/tp) inside the f…g
// regions and the two all-reduces of each direction where Megatron places them.
#include "distributed/tensor_parallel_model.h"

#include "distributed/vocabulary_parallel.h"

#include "reference/ops/activations.h"
#include "reference/ops/attention.h"
#include "reference/ops/cross_entropy.h"
#include "reference/ops/embedding.h"
#include "reference/ops/linear.h"
#include "reference/ops/norms.h"
#include "reference/ops/residual.h"
#include "reference/ops/rope.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>

namespace lse::distributed {

using reference::AlignedVector;
using reference::Index;

namespace {

std::int64_t product(const std::vector<std::int64_t> &shape)
{
    std::int64_t n = 1;
    for (std::int64_t d : shape)
        n *= d;
    return n;
}

// The split of a single-process tensor by its name (referenceParameterShapes' names).
TensorSplit splitOf(const std::string &name)
{
    auto ends = [&](const char *suffix) {
        const std::size_t n = std::strlen(suffix);
        return name.size() >= n && name.compare(name.size() - n, n, suffix) == 0;
    };
    if (name == "token_embeddings.weight" || name == "lm_head.weight")
        return TensorSplit::Rows;  // vocabulary-parallel: rank r holds its vocabulary rows
    if (name.rfind("layers.", 0) != 0)
        return TensorSplit::Replicated;
    if (ends("attn.q_proj.weight") || ends("attn.k_proj.weight") || ends("attn.v_proj.weight")
        || ends("ffn.w1.weight") || ends("ffn.w3.weight"))
        return TensorSplit::Rows;  // column-parallel: output features split
    if (ends("attn.output_proj.weight") || ends("ffn.w2.weight"))
        return TensorSplit::Columns;  // row-parallel: input features split
    return TensorSplit::Replicated;
}

// Copies rank `rank`'s shard of `full` (shape rows × cols) into `local`, or (back) the shard into `full`.
void copyShard(TensorSplit split, const std::vector<std::int64_t> &full_shape, int tp, int rank, const float *from,
               float *to, bool into_full)
{
    if (split == TensorSplit::Replicated) {
        std::memcpy(to, from, std::size_t(product(full_shape)) * sizeof(float));
        return;
    }
    const std::int64_t rows = full_shape[0], cols = full_shape[1];
    if (split == TensorSplit::Rows) {
        // shardRange's rows: rows / tp each when tp divides them (every layer's split; the
        // vocabulary may leave the first ranks one row more).
        const ShardRange range = shardRange(rows, tp, rank);
        const std::int64_t local_rows = range.count, offset = range.offset * cols;
        if (into_full)
            std::memcpy(to + offset, from, std::size_t(local_rows * cols) * sizeof(float));
        else
            std::memcpy(to, from + offset, std::size_t(local_rows * cols) * sizeof(float));
        return;
    }
    const std::int64_t local_cols = cols / tp, first = std::int64_t(rank) * local_cols;
    for (std::int64_t r = 0; r < rows; ++r) {
        if (into_full)
            std::memcpy(to + r * cols + first, from + r * local_cols, std::size_t(local_cols) * sizeof(float));
        else
            std::memcpy(to + r * local_cols, from + r * cols + first, std::size_t(local_cols) * sizeof(float));
    }
}

}  // namespace

std::int64_t TensorParallelTensor::localSize() const { return product(local_shape); }
std::int64_t TensorParallelTensor::fullSize() const { return product(full_shape); }

Problems validateForTensorParallel(const ModelConfig &m, const reference::ReferenceOptions &options, int tp,
                                   bool sequence_parallel)
{
    Problems problems;
    if (tp < 1) {
        problems.push_back({"distributed.tp", "positive", "tensor parallelism needs at least 1 rank, got "
                                                              + std::to_string(tp) + "."});
        return problems;
    }
    auto divides = [&](const char *field, std::int64_t value) {
        if (value % tp != 0)
            problems.push_back({"distributed.tp", "divides",
                                "tensor parallelism over " + std::to_string(tp) + " ranks splits " + field
                                    + " evenly: " + field + " (" + std::to_string(value) + ") must be divisible by tp "
                                    + std::to_string(tp) + "."});
    };
    divides("n_heads", m.n_heads);
    divides("n_kv_heads", m.n_kv_heads);  // each rank's query heads keep their own K/V heads
    divides("d_ff", m.d_ff);
    if (m.vocab_size < tp)
        problems.push_back({"distributed.tp", "at-most-vocabulary",
                            "tensor parallelism splits the vocabulary over the ranks: tp " + std::to_string(tp)
                                + " must not exceed model.vocab_size (" + std::to_string(m.vocab_size) + ")."});
    const char *unsupported = "unsupported";
    if (m.norm != NormType::None && m.norm_placement != NormPlacement::Pre)
        problems.push_back({"model.norm_placement", unsupported,
                            "tensor-parallel training implements pre-norm (or no norm) blocks only."});
    if (m.parallel_block)
        problems.push_back({"model.parallel_block", unsupported,
                            "tensor-parallel training implements sequential attention/MLP blocks only."});
    if (options.attention_kernel != reference::AttentionAlgorithm::Naive)
        problems.push_back({"attention", unsupported,
                            "tensor-parallel training runs the naive attention kernel only (use --attention naive)."});
    if (sequence_parallel) {
        const std::int64_t context = options.context > 0 ? options.context : m.max_seq_len;
        if (context % tp != 0)
            problems.push_back({"distributed.tp", "divides",
                                "sequence parallelism over " + std::to_string(tp) + " ranks splits every sequence's tokens "
                                    "evenly: the context (" + std::to_string(context) + ") must be divisible by tp "
                                    + std::to_string(tp) + "."});
        if (m.norm == NormType::None)
            problems.push_back({"model.norm", unsupported,
                                "sequence parallelism runs the norms on sequence shards; this model has no norms (use "
                                "tensor parallelism without it)."});
    }
    return problems;
}

struct TensorParallelModel::Impl {
    TensorParallelModel &self;
    Communicator &comm;
    reference::ReferenceOptions options;
    Index D = 0, Hl = 0, Gl = 0, Dh = 0, Fl = 0, V = 0, Ql = 0, KVl = 0, Wl = 0, upl = 0;
    VocabularyShard vocabulary;  // this rank's rows of the token table and the LM head, its logits' columns
    Index max_tokens = 0, context = 0;
    bool norm = false, layer_norm = false;
    // Weights of one layer (local shards inside the f…g regions).
    struct Layer {
        float *ln1_g = nullptr, *ln2_g = nullptr;  // (D); LayerNorm's bias follows its gain
        float *ln1_b = nullptr, *ln2_b = nullptr;
        float *wqkv = nullptr;    // (Wl, D): q shard | k shard | v shard
        float *wo = nullptr;      // (D, Ql)
        float *w_up = nullptr;    // (upl, D): w1 shard | w3 shard
        float *w_down = nullptr;  // (D, Fl)
    };
    struct Saved {
        const float *input = nullptr;
        AlignedVector<float> ln1_out, ln1_stats, qkv, probs, att, h, ln2_out, ln2_stats, up, act, y;
    };
    std::vector<Layer> layers;
    std::vector<Saved> saved;
    float *tok_emb = nullptr, *pos_emb = nullptr, *lnf_g = nullptr, *lnf_b = nullptr, *lm_head = nullptr;
    AlignedVector<float> embedded, lnf_out, lnf_stats, logits, row_loss;  // logits (N, Vl)
    AlignedVector<float> row_max, target_logit, sum_exp;                  // (N) each: the loss's reductions
    AlignedVector<float> grad_a, grad_b, grad_c, dqkv, datt, dprobs, dup, dact;
    reference::RopeTable<float> rope;
    std::vector<TensorParallelCollective> purposes;
    std::vector<float> norm_grads;  // sequence parallelism: the norms' gradients packed for one all-reduce

    Impl(TensorParallelModel &model, Communicator &communicator) : self(model), comm(communicator) {}

    float *gradOf(const float *param) { return self.grads_.data() + (param - self.params_.data()); }

    // g: the row-parallel layer's partial outputs summed over the ranks.
    void reduceForward(float *data, Index count, const char *where)
    {
        comm.allReduceSum(data, count);
        self.notePurpose("tp_forward", where);
    }
    // f's backward: the column-parallel layer's partial input gradients summed over the ranks.
    void reduceBackward(float *data, Index count, const char *where)
    {
        comm.allReduceSum(data, count);
        self.notePurpose("tp_backward", where);
    }

    // Sequence parallelism: the rows of a (tokens, D) buffer this rank keeps, [first, first + count).
    Index firstRow(Index n) const { return Index(self.rank_) * (n / self.tp_); }
    Index rowCount(Index n) const { return n / self.tp_; }
    void collective(Collective kind, float *data, Index count, const char *purpose, const char *where)
    {
        if (kind == Collective::AllGather)
            comm.allGather(data, count);
        else if (kind == Collective::ReduceScatter)
            comm.reduceScatterSum(data, count);
        else
            comm.allReduceSum(data, count);
        self.notePurpose(purpose, where);
    }

    void normForward(const float *x, const float *g, const float *b, float *y, float *stats, Index n)
    {
        if (layer_norm)
            reference::layerNormForward(x, g, b, y, stats, n, D, options.norm_eps);
        else
            reference::rmsNormForward(x, g, y, stats, n, D, options.norm_eps);
    }
    void normBackward(const float *x, const float *g, const float *stats, const float *dy, float *dx, Index n,
                      bool accumulate)
    {
        if (layer_norm)
            reference::layerNormBackward(x, g, stats, dy, dx, gradOf(g), gradOf(g) + D, n, D, accumulate);
        else
            reference::rmsNormBackward(x, g, stats, dy, dx, gradOf(g), n, D, accumulate);
    }

    reference::AttentionDims dims(Index b, Index t) const { return {b, t, Hl, Gl, Dh, Wl, Wl, Wl, Ql}; }

    void layerForward(int l, const float *x, Index b, Index t)
    {
        Saved &s = saved[std::size_t(l)];
        const Layer &w = layers[std::size_t(l)];
        const Index N = b * t;
        s.input = x;
        const float *a = x;
        if (norm) {
            normForward(x, w.ln1_g, w.ln1_b, s.ln1_out.data(), s.ln1_stats.data(), N);
            a = s.ln1_out.data();
        }
        // f: identity forward. Column-parallel Q|K|V of this rank's heads.
        reference::linearForward(a, D, w.wqkv, s.qkv.data(), Wl, N, D, Wl);
        if (self.config_.positional_encoding == PositionalEncoding::RoPE)
            reference::ropeForward(s.qkv.data(), Wl, b, t, Hl + Gl, Dh, rope, 0);
        const reference::AttentionDims d = dims(b, t);
        reference::attentionScoresForward(s.qkv.data(), s.qkv.data() + Ql, s.probs.data(), d);
        reference::causalSoftmaxForward(s.probs.data(), d);
        reference::attentionValuesForward(s.probs.data(), s.qkv.data() + Ql + KVl, s.att.data(), d);
        // Row-parallel output projection: a partial sum over this rank's heads, then g.
        reference::linearForward(s.att.data(), Ql, w.wo, s.h.data(), D, N, Ql, D);
        reduceForward(s.h.data(), N * D, "attention forward: after out-proj (row-parallel)");
        reference::addInto(s.h.data(), x, N * D);
        const float *m = s.h.data();
        if (norm) {
            normForward(s.h.data(), w.ln2_g, w.ln2_b, s.ln2_out.data(), s.ln2_stats.data(), N);
            m = s.ln2_out.data();
        }
        reference::linearForward(m, D, w.w_up, s.up.data(), upl, N, D, upl);
        reference::activationForward(self.config_.activation, s.up.data(), s.act.data(), N, Fl);
        reference::linearForward(s.act.data(), Fl, w.w_down, s.y.data(), D, N, Fl, D);
        reduceForward(s.y.data(), N * D, "MLP forward: after down-proj (row-parallel)");
        reference::addInto(s.y.data(), s.h.data(), N * D);
    }

    // g = ∂L/∂y on entry, ∂L/∂x on return (the residual's gradient is accumulated in place).
    void layerBackward(int l, Index b, Index t, float *g)
    {
        const Saved &s = saved[std::size_t(l)];
        const Layer &w = layers[std::size_t(l)];
        const Index N = b * t;
        const float *m = norm ? s.ln2_out.data() : s.h.data();
        // g's backward is the identity: every rank's row-parallel layer gets the whole ∂L/∂y.
        reference::linearBackward(s.act.data(), Fl, w.w_down, g, D, dact.data(), gradOf(w.w_down), N, Fl, D);
        reference::activationBackward(self.config_.activation, s.up.data(), dact.data(), dup.data(), N, Fl);
        reference::linearBackward(m, D, w.w_up, dup.data(), upl, grad_c.data(), gradOf(w.w_up), N, D, upl);
        reduceBackward(grad_c.data(), N * D, "MLP backward: input gradient of up-proj (column-parallel)");
        if (norm)
            normBackward(s.h.data(), w.ln2_g, s.ln2_stats.data(), grad_c.data(), g, N, true);  // + residual
        else
            reference::addInto(g, grad_c.data(), N * D);
        // g = ∂L/∂h
        const float *a = norm ? s.ln1_out.data() : s.input;
        reference::linearBackward(s.att.data(), Ql, w.wo, g, D, datt.data(), gradOf(w.wo), N, Ql, D);
        const reference::AttentionDims d = dims(b, t);
        reference::attentionValuesBackward(s.probs.data(), s.qkv.data() + Ql + KVl, datt.data(),
                                           dqkv.data() + Ql + KVl, dprobs.data(), d);
        reference::causalSoftmaxBackward(s.probs.data(), dprobs.data(), d);
        reference::attentionScoresBackward(s.qkv.data(), s.qkv.data() + Ql, dprobs.data(), dqkv.data(),
                                           dqkv.data() + Ql, d);
        if (self.config_.positional_encoding == PositionalEncoding::RoPE)
            reference::ropeBackward(dqkv.data(), Wl, b, t, Hl + Gl, Dh, rope, 0);
        reference::linearBackward(a, D, w.wqkv, dqkv.data(), Wl, grad_c.data(), gradOf(w.wqkv), N, D, Wl);
        reduceBackward(grad_c.data(), N * D, "attention backward: input gradient of QKV (column-parallel)");
        if (norm)
            normBackward(s.input, w.ln1_g, s.ln1_stats.data(), grad_c.data(), g, N, true);
        else
            reference::addInto(g, grad_c.data(), N * D);
    }

    // Sequence-parallel layer: x, h and y hold valid rows [r0, r0 + rows) only; ln1_out and
    // ln2_out are all-gathered whole (the column-parallel layers and their weight gradients need
    // every token), so backward needs no second gather of them.
    void layerForwardSequenceParallel(int l, const float *x, Index b, Index t)
    {
        Saved &s = saved[std::size_t(l)];
        const Layer &w = layers[std::size_t(l)];
        const Index N = b * t, r0 = firstRow(N), rows = rowCount(N);
        s.input = x;
        normForward(x + r0 * D, w.ln1_g, w.ln1_b, s.ln1_out.data() + r0 * D, s.ln1_stats.data() + 2 * r0, rows);
        collective(Collective::AllGather, s.ln1_out.data(), N * D, "tp_forward",
                   "attention forward: before QKV (sequence -> tensor parallel)");
        reference::linearForward(s.ln1_out.data(), D, w.wqkv, s.qkv.data(), Wl, N, D, Wl);
        if (self.config_.positional_encoding == PositionalEncoding::RoPE)
            reference::ropeForward(s.qkv.data(), Wl, b, t, Hl + Gl, Dh, rope, 0);
        const reference::AttentionDims d = dims(b, t);
        reference::attentionScoresForward(s.qkv.data(), s.qkv.data() + Ql, s.probs.data(), d);
        reference::causalSoftmaxForward(s.probs.data(), d);
        reference::attentionValuesForward(s.probs.data(), s.qkv.data() + Ql + KVl, s.att.data(), d);
        reference::linearForward(s.att.data(), Ql, w.wo, s.h.data(), D, N, Ql, D);
        collective(Collective::ReduceScatter, s.h.data(), N * D, "tp_forward",
                   "attention forward: after out-proj (tensor -> sequence parallel)");
        reference::addInto(s.h.data() + r0 * D, x + r0 * D, rows * D);
        normForward(s.h.data() + r0 * D, w.ln2_g, w.ln2_b, s.ln2_out.data() + r0 * D, s.ln2_stats.data() + 2 * r0, rows);
        collective(Collective::AllGather, s.ln2_out.data(), N * D, "tp_forward",
                   "MLP forward: before up-proj (sequence -> tensor parallel)");
        reference::linearForward(s.ln2_out.data(), D, w.w_up, s.up.data(), upl, N, D, upl);
        reference::activationForward(self.config_.activation, s.up.data(), s.act.data(), N, Fl);
        reference::linearForward(s.act.data(), Fl, w.w_down, s.y.data(), D, N, Fl, D);
        collective(Collective::ReduceScatter, s.y.data(), N * D, "tp_forward",
                   "MLP forward: after down-proj (tensor -> sequence parallel)");
        reference::addInto(s.y.data() + r0 * D, s.h.data() + r0 * D, rows * D);
    }

    // g holds ∂L/∂y in this rank's rows on entry and ∂L/∂x there on return (g is a whole (N, D)
    // buffer: the all-gathers fill the other rows in place, which leaves this rank's as they were).
    void layerBackwardSequenceParallel(int l, Index b, Index t, float *g)
    {
        const Saved &s = saved[std::size_t(l)];
        const Layer &w = layers[std::size_t(l)];
        const Index N = b * t, r0 = firstRow(N), rows = rowCount(N);
        collective(Collective::AllGather, g, N * D, "tp_backward", "MLP backward: gradient of down-proj output");
        reference::linearBackward(s.act.data(), Fl, w.w_down, g, D, dact.data(), gradOf(w.w_down), N, Fl, D);
        reference::activationBackward(self.config_.activation, s.up.data(), dact.data(), dup.data(), N, Fl);
        reference::linearBackward(s.ln2_out.data(), D, w.w_up, dup.data(), upl, grad_c.data(), gradOf(w.w_up), N, D, upl);
        collective(Collective::ReduceScatter, grad_c.data(), N * D, "tp_backward", "MLP backward: input gradient of up-proj");
        normBackward(s.h.data() + r0 * D, w.ln2_g, s.ln2_stats.data() + 2 * r0, grad_c.data() + r0 * D, g + r0 * D, rows,
                     true);
        collective(Collective::AllGather, g, N * D, "tp_backward", "attention backward: gradient of out-proj output");
        reference::linearBackward(s.att.data(), Ql, w.wo, g, D, datt.data(), gradOf(w.wo), N, Ql, D);
        const reference::AttentionDims d = dims(b, t);
        reference::attentionValuesBackward(s.probs.data(), s.qkv.data() + Ql + KVl, datt.data(),
                                           dqkv.data() + Ql + KVl, dprobs.data(), d);
        reference::causalSoftmaxBackward(s.probs.data(), dprobs.data(), d);
        reference::attentionScoresBackward(s.qkv.data(), s.qkv.data() + Ql, dprobs.data(), dqkv.data(),
                                           dqkv.data() + Ql, d);
        if (self.config_.positional_encoding == PositionalEncoding::RoPE)
            reference::ropeBackward(dqkv.data(), Wl, b, t, Hl + Gl, Dh, rope, 0);
        reference::linearBackward(s.ln1_out.data(), D, w.wqkv, dqkv.data(), Wl, grad_c.data(), gradOf(w.wqkv), N, D, Wl);
        collective(Collective::ReduceScatter, grad_c.data(), N * D, "tp_backward", "attention backward: input gradient of QKV");
        normBackward(s.input + r0 * D, w.ln1_g, s.ln1_stats.data() + 2 * r0, grad_c.data() + r0 * D, g + r0 * D, rows,
                     true);
    }

    const float *forward(const std::int32_t *tokens, Index b, Index t)
    {
        const Index N = b * t;
        // Vocabulary-parallel lookup: each token's row comes from the one rank holding it, summed
        // over the ranks (all of it; with SP, each rank's rows of the sum).
        shardEmbeddingForward(tokens, tok_emb, vocabulary, embedded.data(), N, D);
        if (self.sequence_parallel_)
            collective(Collective::ReduceScatter, embedded.data(), N * D, "tp_embedding",
                       "embedding forward: partial rows to the sequence shards");
        else
            collective(Collective::AllReduce, embedded.data(), N * D, "tp_embedding",
                       "embedding forward: partial rows of the vocabulary-parallel lookup");
        // Positions after the sum (with SP only this rank's rows are used from here on).
        if (self.config_.positional_encoding == PositionalEncoding::Learned)
            reference::addLearnedPositions(embedded.data(), pos_emb, b, t, D, 0);
        else if (self.config_.positional_encoding == PositionalEncoding::Sinusoidal)
            reference::addSinusoidalPositions(embedded.data(), b, t, D, 0);
        const float *x = embedded.data();
        for (int l = 0; l < self.config_.n_layers; ++l) {
            if (self.sequence_parallel_)
                layerForwardSequenceParallel(l, x, b, t);
            else
                layerForward(l, x, b, t);
            x = saved[std::size_t(l)].y.data();
        }
        const float *f = x;
        if (self.sequence_parallel_) {
            // The final norm on this rank's rows, then every row for the replicated LM head.
            const Index r0 = firstRow(N), rows = rowCount(N);
            normForward(x + r0 * D, lnf_g, lnf_b, lnf_out.data() + r0 * D, lnf_stats.data() + 2 * r0, rows);
            collective(Collective::AllGather, lnf_out.data(), N * D, "tp_lm_head",
                       "LM head forward: input rows from the sequence shards");
            f = lnf_out.data();
        } else if (norm) {
            normForward(x, lnf_g, lnf_b, lnf_out.data(), lnf_stats.data(), N);
            f = lnf_out.data();
        }
        // Column-parallel over the vocabulary: this rank's logits only.
        reference::linearForward(f, D, lm_head, logits.data(), vocabulary.count, N, D, vocabulary.count);
        return f;
    }

    // The vocabulary-parallel cross-entropy: the three reductions, then every row's loss (and,
    // with dlogits, the local logits' gradient written over them).
    float crossEntropy(const std::int32_t *targets, Index N, bool with_gradient)
    {
        const Index vl = vocabulary.count;
        shardRowMaxima(logits.data(), N, vl, row_max.data());
        comm.allReduceMax(row_max.data(), N);
        self.notePurpose("tp_cross_entropy", "loss forward: row maximum of the logits (vocabulary-parallel cross-entropy)");
        shardTargetLogits(logits.data(), targets, vocabulary, N, target_logit.data());
        collective(Collective::AllReduce, target_logit.data(), N, "tp_cross_entropy",
                   "loss forward: logit of the target (vocabulary-parallel cross-entropy)");
        shardSumExp(logits.data(), row_max.data(), N, vl, sum_exp.data());
        collective(Collective::AllReduce, sum_exp.data(), N, "tp_cross_entropy",
                   "loss forward: sum of exponentials (vocabulary-parallel cross-entropy)");
        return shardCrossEntropy(logits.data(), targets, vocabulary, row_max.data(), sum_exp.data(),
                                 target_logit.data(), row_loss.data(), with_gradient ? logits.data() : nullptr, N, vl);
    }

    Problems check(const std::int32_t *tokens, const std::int32_t *targets, int batch, int seq) const
    {
        Problems problems;
        if (self.sequence_parallel_ && seq % self.tp_ != 0)
            problems.push_back({"seq", "divisible", "sequence parallelism needs the sequence length (" + std::to_string(seq)
                                                        + ") divisible by tp " + std::to_string(self.tp_) + "."});
        if (batch < 1 || batch > options.max_batch || seq < 1 || seq > context)
            problems.push_back({"batch", "range", "batch × sequence " + std::to_string(batch) + " × " + std::to_string(seq)
                                                      + " exceeds the workspace of " + std::to_string(options.max_batch) + " × "
                                                      + std::to_string(context) + "."});
        for (const std::int32_t *ids : {tokens, targets})
            for (Index i = 0; problems.empty() && i < Index(batch) * seq; ++i)
                if (ids[i] < 0 || ids[i] >= V)
                    problems.push_back({ids == tokens ? "tokens" : "targets", "range",
                                        "token id " + std::to_string(ids[i]) + " is outside the vocabulary."});
        return problems;
    }
};

TensorParallelModel::~TensorParallelModel() = default;

Result<std::unique_ptr<TensorParallelModel>> TensorParallelModel::create(const ModelConfig &config,
                                                                         const reference::ReferenceOptions &options,
                                                                         Communicator &communicator,
                                                                         bool sequence_parallel)
{
    const int tp = communicator.size();
    if (Problems p = validateForTensorParallel(config, options, tp, sequence_parallel); !p.empty())
        return p;
    // The single-process model of the same seed, with the smallest workspace: only its initial weights are used.
    reference::ReferenceOptions init_options = options;
    init_options.max_batch = 1;
    init_options.context = 1;
    init_options.cache_context = 1;
    Result<std::unique_ptr<reference::Model>> whole = reference::Model::create(config, init_options);
    if (!whole)
        return whole.problems();

    std::unique_ptr<TensorParallelModel> model(new TensorParallelModel());
    model->config_ = config;
    model->tp_ = tp;
    model->rank_ = communicator.rank();
    model->sequence_parallel_ = sequence_parallel;
    model->impl_ = std::make_unique<Impl>(*model, communicator);
    Impl &s = *model->impl_;
    s.options = options;
    s.D = config.d_model;
    s.Hl = config.n_heads / tp;
    s.Gl = config.n_kv_heads / tp;
    s.Dh = config.head_dim;
    s.Fl = config.d_ff / tp;
    s.V = config.vocab_size;
    const ShardRange vocabulary = shardRange(s.V, tp, model->rank_);
    s.vocabulary = {vocabulary.offset, vocabulary.count};
    s.Ql = s.Hl * s.Dh;
    s.KVl = s.Gl * s.Dh;
    s.Wl = s.Ql + 2 * s.KVl;
    s.upl = reference::upWidth(config.activation, s.Fl);
    s.context = options.context > 0 ? options.context : config.max_seq_len;
    s.max_tokens = Index(options.max_batch) * s.context;
    s.norm = config.norm != NormType::None;
    s.layer_norm = config.norm == NormType::LayerNorm;

    // The arena in the single-process order with local shapes: fused neighbours (q|k|v, w1|w3)
    // stay adjacent, so each rank's shards of them form one local matrix.
    std::int64_t total = 0;
    for (const reference::NamedTensor<float> &t : whole.value()->parameters()) {
        TensorParallelTensor local;
        local.name = t.name;
        local.full_shape = t.shape;
        local.local_shape = t.shape;
        local.split = splitOf(t.name);
        if (local.split == TensorSplit::Rows)
            local.local_shape[0] = shardRange(t.shape[0], tp, model->rank_).count;
        else if (local.split == TensorSplit::Columns)
            local.local_shape[1] /= tp;
        total += local.localSize();
        model->tensors_.push_back(std::move(local));
    }
    model->params_.assign(std::size_t(total), 0.0f);
    model->grads_.assign(std::size_t(total), 0.0f);
    std::unordered_map<std::string, float *> by_name;
    std::int64_t offset = 0;
    for (std::size_t i = 0; i < model->tensors_.size(); ++i) {
        TensorParallelTensor &t = model->tensors_[i];
        t.data = model->params_.data() + offset;
        t.grad = model->grads_.data() + offset;
        offset += t.localSize();
        copyShard(t.split, t.full_shape, tp, model->rank_, whole.value()->parameters()[i].data, t.data, false);
        by_name.emplace(t.name, t.data);
    }
    whole.value().reset();
    auto at = [&](const std::string &name) -> float * {
        const auto it = by_name.find(name);
        return it == by_name.end() ? nullptr : it->second;
    };
    s.tok_emb = at("token_embeddings.weight");
    s.pos_emb = at("position_embeddings.weight");
    s.lnf_g = at("ln_final.weight");
    s.lnf_b = at("ln_final.bias");
    s.lm_head = config.tied_embeddings ? s.tok_emb : at("lm_head.weight");
    s.layers.resize(std::size_t(config.n_layers));
    for (int l = 0; l < config.n_layers; ++l) {
        Impl::Layer &w = s.layers[std::size_t(l)];
        const std::string p = "layers." + std::to_string(l) + ".";
        w.ln1_g = at(p + "ln1.weight");
        w.ln1_b = at(p + "ln1.bias");
        w.ln2_g = at(p + "ln2.weight");
        w.ln2_b = at(p + "ln2.bias");
        w.wqkv = at(p + "attn.q_proj.weight");
        w.wo = at(p + "attn.output_proj.weight");
        w.w_up = at(p + "ffn.w1.weight");
        w.w_down = at(p + "ffn.w2.weight");
    }

    const Index N = s.max_tokens, D = s.D, B = options.max_batch, T = s.context;
    auto sized = [](AlignedVector<float> &v, Index n) { v.assign(std::size_t(n), 0.0f); };
    s.saved.resize(std::size_t(config.n_layers));
    for (Impl::Saved &a : s.saved) {
        if (s.norm) {
            sized(a.ln1_out, N * D);
            sized(a.ln1_stats, 2 * N);
            sized(a.ln2_out, N * D);
            sized(a.ln2_stats, 2 * N);
        }
        sized(a.qkv, N * s.Wl);
        sized(a.probs, B * s.Hl * T * T);
        sized(a.att, N * s.Ql);
        sized(a.h, N * D);
        sized(a.up, N * s.upl);
        sized(a.act, N * s.Fl);
        sized(a.y, N * D);
    }
    sized(s.embedded, N * D);
    if (s.norm) {
        sized(s.lnf_out, N * D);
        sized(s.lnf_stats, 2 * N);
    }
    sized(s.logits, N * s.vocabulary.count);
    sized(s.row_loss, N);
    sized(s.row_max, N);
    sized(s.target_logit, N);
    sized(s.sum_exp, N);
    for (AlignedVector<float> *v : {&s.grad_a, &s.grad_b, &s.grad_c})
        sized(*v, N * D);
    sized(s.dqkv, N * s.Wl);
    sized(s.datt, N * s.Ql);
    sized(s.dprobs, B * s.Hl * T * T);
    sized(s.dup, N * s.upl);
    sized(s.dact, N * s.Fl);
    if (config.positional_encoding == PositionalEncoding::RoPE)
        s.rope.build(s.context, s.Dh, double(options.rope_theta));
    return model;
}

Result<float> TensorParallelModel::loss(const std::int32_t *tokens, const std::int32_t *targets, int batch, int seq)
{
    Impl &s = *impl_;
    if (Problems p = s.check(tokens, targets, batch, seq); !p.empty())
        return p;
    s.forward(tokens, batch, seq);
    return s.crossEntropy(targets, Index(batch) * seq, false);
}

Result<float> TensorParallelModel::forwardBackward(const std::int32_t *tokens, const std::int32_t *targets, int batch,
                                                   int seq)
{
    Impl &s = *impl_;
    if (Problems p = s.check(tokens, targets, batch, seq); !p.empty())
        return p;
    const Index b = batch, t = seq, N = b * t, D = s.D;
    const float *f = s.forward(tokens, b, t);
    std::fill(grads_.begin(), grads_.end(), 0.0f);
    const float loss = s.crossEntropy(targets, N, true);
    float *g = s.grad_a.data(), *spare = s.grad_b.data();
    // The head's input gradient from this rank's vocabulary columns: a partial sum over the ranks.
    const Index vl = s.vocabulary.count;
    reference::linearBackward(f, D, s.lm_head, s.logits.data(), vl, g, s.gradOf(s.lm_head), N, D, vl);
    if (sequence_parallel_) {
        // The all-gather's backward: each rank's rows of the summed gradient.
        s.collective(Collective::ReduceScatter, g, N * D, "tp_lm_head", "LM head backward: input gradient to the sequence shards");
        const Index r0 = s.firstRow(N), rows = s.rowCount(N);
        s.normBackward(s.saved.back().y.data() + r0 * D, s.lnf_g, s.lnf_stats.data() + 2 * r0, g + r0 * D,
                       spare + r0 * D, rows, false);
        std::swap(g, spare);
        for (int l = config_.n_layers - 1; l >= 0; --l)
            s.layerBackwardSequenceParallel(l, b, t, g);
        // The reduce-scatter's backward: every rank's rows of ∂L/∂embedded, for its vocabulary rows
        // (and the whole gradient of the replicated positions, equal on every rank).
        s.collective(Collective::AllGather, g, N * D, "tp_embedding", "embedding backward: output gradient from the sequence shards");
        shardEmbeddingBackward(tokens, g, s.gradOf(s.tok_emb), s.vocabulary, N, D);
        if (config_.positional_encoding == PositionalEncoding::Learned)
            reference::addLearnedPositionsBackward(g, s.gradOf(s.pos_emb), b, t, D, 0);
        // Each norm saw only this rank's rows: sum the gains' (and biases') gradients over the ranks.
        std::int64_t count = 0;
        for (const TensorParallelTensor &tensor : tensors_)
            if (tensor.local_shape.size() == 1)
                count += tensor.localSize();
        s.norm_grads.resize(std::size_t(count));
        std::int64_t at = 0;
        for (const TensorParallelTensor &tensor : tensors_)
            if (tensor.local_shape.size() == 1) {
                std::copy(tensor.grad, tensor.grad + tensor.localSize(), s.norm_grads.begin() + at);
                at += tensor.localSize();
            }
        s.collective(Collective::AllReduce, s.norm_grads.data(), count, "sp_norm_gradients",
                     "after backward: gradients of the weights every tp rank holds whole (norms)");
        at = 0;
        for (const TensorParallelTensor &tensor : tensors_)
            if (tensor.local_shape.size() == 1) {
                std::copy(s.norm_grads.begin() + at, s.norm_grads.begin() + at + tensor.localSize(), tensor.grad);
                at += tensor.localSize();
            }
        return loss;
    }
    // f before the column-parallel head: its input gradient summed over the ranks.
    s.collective(Collective::AllReduce, g, N * D, "tp_lm_head",
                 "LM head backward: input gradient (column-parallel over the vocabulary)");
    if (s.norm) {
        s.normBackward(s.saved.back().y.data(), s.lnf_g, s.lnf_stats.data(), g, spare, N, false);
        std::swap(g, spare);
    }
    for (int l = config_.n_layers - 1; l >= 0; --l)
        s.layerBackward(l, b, t, g);
    // The all-reduce's backward is the identity: every rank has the whole ∂L/∂embedded and
    // updates its vocabulary rows.
    shardEmbeddingBackward(tokens, g, s.gradOf(s.tok_emb), s.vocabulary, N, D);
    if (config_.positional_encoding == PositionalEncoding::Learned)
        reference::addLearnedPositionsBackward(g, s.gradOf(s.pos_emb), b, t, D, 0);
    return loss;
}

std::vector<float> TensorParallelModel::gatherParameters()
{
    Impl &s = *impl_;
    std::int64_t total = 0;
    for (const TensorParallelTensor &t : tensors_)
        total += t.fullSize();
    std::vector<float> whole(std::size_t(total), 0.0f);
    std::vector<float> ranks_shards, shard;
    std::int64_t offset = 0;
    for (const TensorParallelTensor &t : tensors_) {
        float *out = whole.data() + offset;
        offset += t.fullSize();
        if (t.split == TensorSplit::Replicated) {
            std::memcpy(out, t.data, std::size_t(t.localSize()) * sizeof(float));
            continue;
        }
        // Rank r's shard at r·local (shardRange's equal shards of the padded buffer: `local` is the
        // longest shard, rank 0's, when the vocabulary does not divide by tp), then each put in its place.
        const std::int64_t local = t.split == TensorSplit::Rows
            ? shardRange(t.full_shape[0], tp_, 0).count * t.full_shape[1]
            : t.localSize();
        ranks_shards.assign(std::size_t(local * tp_), 0.0f);
        std::memcpy(ranks_shards.data() + std::int64_t(rank_) * local, t.data, std::size_t(t.localSize()) * sizeof(float));
        s.comm.allGather(ranks_shards.data(), local * tp_);
        for (int r = 0; r < tp_; ++r)
            copyShard(t.split, t.full_shape, tp_, r, ranks_shards.data() + std::int64_t(r) * local, out, true);
    }
    s.comm.takeRecords();  // not a training step's traffic
    return whole;
}

std::vector<TensorParallelCollective> TensorParallelModel::takePurposes()
{
    std::vector<TensorParallelCollective> out;
    out.swap(impl_->purposes);
    return out;
}

void TensorParallelModel::notePurpose(std::string purpose, std::string where)
{
    impl_->purposes.push_back({std::move(purpose), std::move(where)});
}

double TensorParallelModel::activationBytes() const
{
    const Impl &s = *impl_;
    std::size_t n = s.embedded.size() + s.lnf_out.size() + s.lnf_stats.size() + s.logits.size();
    for (const Impl::Saved &a : s.saved)
        n += a.ln1_out.size() + a.ln1_stats.size() + a.qkv.size() + a.probs.size() + a.att.size() + a.h.size()
            + a.ln2_out.size() + a.ln2_stats.size() + a.up.size() + a.act.size() + a.y.size();
    return double(n * sizeof(float));
}

}  // namespace lse::distributed
