// SPDX-License-Identifier: GPL-3.0-or-later
// Megatron-LM's vocabulary-parallel embedding and cross-entropy (Shoeybi et al. 2019 §3): each of
// the tp ranks holds the rows [first, first + count) of the token table (the shard of the tied or
// separate LM head is the same rows), and the logits it computes are those columns only. This file
// is one rank's local arithmetic; the caller runs the collectives between the steps:
//   embedding:      shardEmbeddingForward, then the ranks' outputs summed (each token's row came
//                   from exactly one rank, the others contributed zeros);
//   cross-entropy:  shardRowMaxima → all-reduce max; shardTargetLogits → all-reduce sum (the rank
//                   holding the target contributes its logit, the others 0); shardSumExp → all-reduce
//                   sum; then shardCrossEntropy gives the loss of every row and the local logits'
//                   gradient: ℓ_i = M_i + log S_i − z_i[t_i], ∂ℓ/∂z_ij = exp(z_ij − M_i − log S_i) − [j = t_i],
//                   the single-process formula (reference/ops/cross_entropy.h) term for term.
// Shape legend: N tokens, D d_model, Vl = count (this rank's vocabulary rows).
#pragma once

#include "reference/ops/eigen_maps.h"

#include <cstdint>

namespace lse::distributed {

using reference::Index;

struct VocabularyShard {
    Index first = 0;
    Index count = 0;
    bool holds(std::int32_t id) const { return id >= first && id < first + count; }
};

// out (N, D) = the table shard's row of each id this rank holds, zeros for the others.
void shardEmbeddingForward(const std::int32_t *ids, const float *table_shard, VocabularyShard shard, float *out,
                           Index n, Index d);
// dtable_shard (Vl, D) += dout's rows of the ids this rank holds.
void shardEmbeddingBackward(const std::int32_t *ids, const float *dout, float *dtable_shard, VocabularyShard shard,
                            Index n, Index d);

// row_max (N) = each row's largest local logit (−∞ for an empty shard).
void shardRowMaxima(const float *logits, Index n, Index vl, float *row_max);
// target_logit (N) = z_i[t_i − first] where this rank holds t_i, else 0.
void shardTargetLogits(const float *logits, const std::int32_t *targets, VocabularyShard shard, Index n,
                       float *target_logit);
// sum_exp (N) = Σ_j exp(z_ij − row_max_i) over the local columns.
void shardSumExp(const float *logits, const float *row_max, Index n, Index vl, float *sum_exp);
// With the three reduced over the ranks: row_loss (N) and the mean loss, summed in row order as
// the single process does; when dlogits is not null, (softmax − onehot) / N of the local columns
// (dlogits may alias logits).
float shardCrossEntropy(const float *logits, const std::int32_t *targets, VocabularyShard shard,
                        const float *row_max, const float *sum_exp, const float *target_logit, float *row_loss,
                        float *dlogits, Index n, Index vl);

}  // namespace lse::distributed
