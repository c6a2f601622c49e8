// SPDX-License-Identifier: GPL-3.0-or-later
// Samples of the standard normal truncated at ±3 (PyTorch's trunc_normal_(a=-3σ, b=3σ), the CS336
// initialisation), fast enough that initialising a model costs little beside one forward pass
// (issue 35: std::normal_distribution over std::mt19937_64 took 44% of `generate --max-tokens 0`).
//
// The ziggurat method (Marsaglia & Tsang 2000, "The Ziggurat Method for Generating Random
// Variables", J. Statistical Software 5(8), with their 256-layer constants r and v): ~99% of draws
// cost one 64-bit random number, one multiply and one compare; the rest test the wedge with one exp.
// The base layer's tail lies beyond r ≈ 3.65 > 3, so truncation simply rejects it and never samples
// the tail. Random bits come from SplitMix64 (Steele, Lea & Flood 2014, "Fast splittable
// pseudorandom number generators", OOPSLA), one stream per block of 65,536 elements, so the blocks
// are filled in parallel and the values do not depend on the thread count.
#pragma once

#include <cstdint>

namespace lse::reference {

// Elements per independent random stream (and per unit of parallel work).
inline constexpr std::int64_t kTruncatedNormalBlock = 65536;

// data[i] = scale · z_i, z_i ~ N(0, 1) truncated to [-3, 3], for i in [0, n). The values are a
// function of (stream, i) only: equal streams give equal values whatever the thread count.
template <typename S>
void fillTruncatedNormal(S *data, std::int64_t n, double scale, std::uint64_t stream);

// A stream number for tensor `index` of a model initialised from `seed`.
std::uint64_t truncatedNormalStream(std::uint64_t seed, std::uint64_t index);

}  // namespace lse::reference
