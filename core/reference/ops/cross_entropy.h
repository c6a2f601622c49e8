// SPDX-License-Identifier: GPL-3.0-or-later
// Softmax and cross-entropy over the vocabulary, stabilised by the log-sum-exp trick:
// log Σ exp(z) = m + log Σ exp(z − m) with m the row maximum, so no exponent is positive.
// Shape legend: N rows (B·T tokens), V vocabulary.
#pragma once

#include "reference/ops/eigen_maps.h"

#include <cstdint>

namespace lse::reference {

// y (N, V) = softmax of each row of x (N, V); y may alias x.
template <typename S>
void softmaxRows(const S *x, S *y, Index n, Index v);

// Mean over rows of −log softmax(logits)[target]: ℓ_i = logsumexp(z_i) − z_i[t_i].
// row_loss (N) is scratch that receives ℓ_i (summed in order, so the result does not depend on
// the thread count). Targets must be in [0, V).
template <typename S>
S crossEntropyLoss(const S *logits, const std::int32_t *targets, S *row_loss, Index n, Index v);

// The same loss, and dlogits (N, V) = (softmax(z) − onehot(t)) / N; dlogits may alias logits
// (the training step overwrites the logits with their gradient to save N·V floats).
template <typename S>
S crossEntropyForwardBackward(const S *logits, const std::int32_t *targets, S *dlogits, S *row_loss, Index n,
                              Index v);

}  // namespace lse::reference
