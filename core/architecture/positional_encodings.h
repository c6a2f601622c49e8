// SPDX-License-Identifier: GPL-3.0-or-later
// The three families of position information as numbers a chart can draw: the fixed sinusoids
// added to the embeddings, the rotation RoPE applies to each (q, k) dimension pair, and the linear
// distance penalty ALiBi adds to the attention scores.
#pragma once

#include <vector>

namespace lse {

// PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(pos / 10000^(2i/d))
// (Vaswani et al. 2017, §3.5). `dimension` in [0, d).
double sinusoidalEncoding(int position, int dimension, int d_model);
// Rows = positions 0..positions-1, columns = dimensions 0..d_model-1.
std::vector<std::vector<double>> sinusoidalTable(int positions, int d_model);

// θ_i = base^(−2i/d) for the dimension pairs i = 0..d/2−1 (Su et al. 2021, RoFormer eq. 15;
// base 10000 there, 500000 in Llama 3).
std::vector<double> ropeFrequencies(int head_dim, double base);
// The angle pair i is rotated by at `position`: position·θ_i (radians).
double ropeAngle(int position, int pair, int head_dim, double base);

// ALiBi head slopes m_h = 2^(−8h/H) for h = 1..H (Press et al. 2022 §3; for H = 8: 1/2 … 1/256).
// For H not a power of two, the paper's rule: the slopes of the next lower power of two n, then
// every other slope of 2n.
std::vector<double> alibiSlopes(int heads);
// The bias added to score (query i, key j ≤ i): −m·(i − j).
double alibiBias(double slope, int query, int key);

}  // namespace lse
