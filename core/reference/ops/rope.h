// SPDX-License-Identifier: GPL-3.0-or-later
// Rotary position embedding (Su et al. 2021, "RoFormer", Eq. 34): within each head the interleaved
// pairs (x[2k], x[2k+1]) are rotated by θ_k = pos · theta^(−2k/Dh). Applied in place to Q and K;
// the rotation is orthogonal, so the backward pass is the rotation by −θ.
// Shape legend: B batch, T sequence, Dh head dim, nh heads the call rotates (H for Q, G for K).
#pragma once

#include "reference/ops/eigen_maps.h"

#include <vector>

namespace lse::reference {

// cos/sin of θ_k for positions 0..max_positions-1 and k < Dh/2, built once (no allocation later).
template <typename S>
struct RopeTable {
    Index max_positions = 0;
    Index half = 0;            // Dh / 2
    std::vector<S> cos_table;  // (P, Dh/2)
    std::vector<S> sin_table;  // (P, Dh/2)

    void build(Index positions, Index head_dim, double theta);
};

// x: B·T rows `ld` apart, each holding nh heads of Dh values from its start (e.g. Q|K of a fused
// QKV row, nh = H + G). Token (b, t) is at position start + t.
template <typename S>
void ropeForward(S *x, Index ld, Index b, Index t, Index n_heads, Index head_dim, const RopeTable<S> &table,
                 Index start);
// dx (same layout) is rotated back in place: the gradient of a rotation is its transpose.
template <typename S>
void ropeBackward(S *dx, Index ld, Index b, Index t, Index n_heads, Index head_dim, const RopeTable<S> &table,
                  Index start);

}  // namespace lse::reference
