// SPDX-License-Identifier: GPL-3.0-or-later
#include "distributed/vocabulary_parallel.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace lse::distributed {

void shardEmbeddingForward(const std::int32_t *ids, const float *table_shard, VocabularyShard shard, float *out,
                           Index n, Index d)
{
    for (Index i = 0; i < n; ++i) {
        float *row = out + i * d;
        if (shard.holds(ids[i]))
            std::memcpy(row, table_shard + (Index(ids[i]) - shard.first) * d, std::size_t(d) * sizeof(float));
        else
            std::memset(row, 0, std::size_t(d) * sizeof(float));
    }
}

void shardEmbeddingBackward(const std::int32_t *ids, const float *dout, float *dtable_shard, VocabularyShard shard,
                            Index n, Index d)
{
    // In token order, as reference::embeddingBackward adds a row used twice.
    for (Index i = 0; i < n; ++i)
        if (shard.holds(ids[i])) {
            float *row = dtable_shard + (Index(ids[i]) - shard.first) * d;
            const float *g = dout + i * d;
            for (Index k = 0; k < d; ++k)
                row[k] += g[k];
        }
}

void shardRowMaxima(const float *logits, Index n, Index vl, float *row_max)
{
    for (Index i = 0; i < n; ++i)
        row_max[i] = vl > 0 ? reference::ConstArrayView<float>(logits + i * vl, vl).maxCoeff()
                            : -std::numeric_limits<float>::infinity();
}

void shardTargetLogits(const float *logits, const std::int32_t *targets, VocabularyShard shard, Index n,
                       float *target_logit)
{
    for (Index i = 0; i < n; ++i)
        target_logit[i] = shard.holds(targets[i]) ? logits[i * shard.count + (Index(targets[i]) - shard.first)] : 0.0f;
}

void shardSumExp(const float *logits, const float *row_max, Index n, Index vl, float *sum_exp)
{
    for (Index i = 0; i < n; ++i)
        sum_exp[i] = vl > 0 ? (reference::ConstArrayView<float>(logits + i * vl, vl) - row_max[i]).exp().sum() : 0.0f;
}

float shardCrossEntropy(const float *logits, const std::int32_t *targets, VocabularyShard shard,
                        const float *row_max, const float *sum_exp, const float *target_logit, float *row_loss,
                        float *dlogits, Index n, Index vl)
{
    const float inv_n = 1.0f / float(n);
    double total = 0;
    for (Index i = 0; i < n; ++i) {
        const float log_sum = std::log(sum_exp[i]);
        row_loss[i] = row_max[i] + log_sum - target_logit[i];
        total += double(row_loss[i]);
        if (!dlogits || vl == 0)
            continue;
        // Subtraction order as reference::crossEntropyForwardBackward's.
        reference::ArrayView<float>(dlogits + i * vl, vl) =
            ((reference::ConstArrayView<float>(logits + i * vl, vl) - row_max[i]) - log_sum).exp() * inv_n;
        if (shard.holds(targets[i]))
            dlogits[i * vl + (Index(targets[i]) - shard.first)] -= inv_n;
    }
    return float(total / double(n));
}

}  // namespace lse::distributed
