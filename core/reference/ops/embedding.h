// SPDX-License-Identifier: GPL-3.0-or-later
// Token embedding (a row gather) and absolute position encodings added to it: learned (a second
// table, GPT-2 and the CS336 2024 model) and fixed sinusoidal (Vaswani et al. 2017, §3.5).
// Shape legend: B batch, T sequence, D d_model, V vocabulary, N = B·T tokens, P table positions.
#pragma once

#include "reference/ops/eigen_maps.h"

#include <cstdint>

namespace lse::reference {

// out (N, D) = table (V, D) rows picked by ids (N). Ids must be in [0, V) (the model checks).
template <typename S>
void embeddingForward(const std::int32_t *ids, const S *table, S *out, Index n, Index d);
// dtable (V, D) += scatter of dout (N, D) by ids: a row used twice gets both gradients.
template <typename S>
void embeddingBackward(const std::int32_t *ids, const S *dout, S *dtable, Index n, Index d);

// x (B, T, D) += positions (P, D) rows start .. start+T-1, the same for every sequence.
template <typename S>
void addLearnedPositions(S *x, const S *positions, Index b, Index t, Index d, Index start);
// dpositions (P, D) rows start.. += Σ over the batch of dx (B, T, D).
template <typename S>
void addLearnedPositionsBackward(const S *dx, S *dpositions, Index b, Index t, Index d, Index start);

// x (B, T, D) += PE with PE(pos, 2i) = sin(pos / 10000^(2i/D)), PE(pos, 2i+1) = cos(same)
// (Vaswani et al. 2017, §3.5). No parameters, so its backward is the identity.
template <typename S>
void addSinusoidalPositions(S *x, Index b, Index t, Index d, Index start);

}  // namespace lse::reference
