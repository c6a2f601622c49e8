// SPDX-License-Identifier: GPL-3.0-or-later
// A matrix product C (M×N) = A (M×K) · B (K×N) on a GPU as the step-time model sees it: C cut into
// thread-block tiles, the tiles handed to the SMs in waves of one tile per SM, the last wave partly
// idle (NVIDIA Deep Learning Performance Guide, "Matrix Multiplication Background": tile
// quantisation and wave quantisation). Every figure is performance/kernel_time's — gemmTiling,
// gemmEfficiency and gemmTime — never a second formula, so the picture and the prediction agree.
#pragma once

#include "common/problem.h"
#include "hardware/accelerator.h"
#include "performance/kernel_time.h"

#include <cstdint>
#include <vector>

namespace lse::kernels {

struct GemmProblem {
    std::int64_t m = 0;
    std::int64_t n = 0;
    std::int64_t k = 0;
    DType dtype = DType::BF16;
};

inline constexpr std::int64_t kMaxGemmDimension = 1 << 20;

struct GemmWaves {
    GemmProblem problem;
    std::int64_t tile_rows = 0;     // thread-block tile of C (kernel_time: 128×128, smaller when skinny)
    std::int64_t tile_columns = 0;
    std::int64_t row_tiles = 0;     // ⌈M / tile_rows⌉
    std::int64_t column_tiles = 0;  // ⌈N / tile_columns⌉
    std::int64_t tiles = 0;
    std::int64_t sm_count = 0;
    std::int64_t waves = 0;            // ⌈tiles / SMs⌉
    std::int64_t full_waves = 0;       // waves in which every SM has a tile
    std::int64_t last_wave_tiles = 0;  // tiles of the last wave (= SMs when it is full)
    performance::GemmEfficiency efficiency;  // tile, wave, depth, total as kernel_time computes them
    performance::KernelTime time;            // gemmTime: seconds, memory bound
    double flops = 0;                        // 2·M·N·K
    double bytes = 0;                        // ops/byte_rules.h matmulForward, both operands at E
    double peak_flops_per_second = 0;
    double achieved_flops_per_second = 0;  // flops / time.seconds

    // Tile t (row-major over C's tiles) runs on SM t mod SMs in wave ⌊t / SMs⌋.
    std::int64_t waveOfTile(std::int64_t tile) const { return sm_count > 0 ? tile / sm_count : 0; }
    std::int64_t smOfTile(std::int64_t tile) const { return sm_count > 0 ? tile % sm_count : tile; }
};

// Problems: "m", "n", "k" outside 1..kMaxGemmDimension; "dtype" when the accelerator has no peak for
// it; "accelerator" without SMs (no waves to draw).
Result<GemmWaves> gemmWaves(const GemmProblem &problem, const Accelerator &accelerator);

// The saw-tooth: achieved FLOP/s as N sweeps from n_first to n_last in steps of n_step (M, K fixed).
// Problems as gemmWaves, and "n_step" when the sweep would have more than kMaxGemmSweepPoints points.
inline constexpr std::int64_t kMaxGemmSweepPoints = 10'000;
struct GemmSweepPoint {
    std::int64_t n = 0;
    double achieved_flops_per_second = 0;
    double tile_quantisation = 1;
    double wave_quantisation = 1;
    std::int64_t waves = 0;
};
Result<std::vector<GemmSweepPoint>> gemmWaveSweep(const GemmProblem &problem, std::int64_t n_first, std::int64_t n_last,
                                                  std::int64_t n_step, const Accelerator &accelerator);

}  // namespace lse::kernels
