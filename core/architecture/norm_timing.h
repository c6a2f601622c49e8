// SPDX-License-Identifier: GPL-3.0-or-later
// LayerNorm vs RMSNorm on this CPU: the reference transformer's own kernels
// (core/reference/ops/norms.h) timed forward and backward on an (N, D) fp32 input, next to the
// FLOPs and bytes the operator list declares for the same norm (core/ops/operator_list.h, with the
// roofline's backward bytes, core/roofline/step_operators.h). Both kernels are memory-bound: the
// achieved GB/s shows that, and RMSNorm's saving is in work per byte, not in bytes.
#pragma once

#include "common/problem.h"
#include "scenario/scenario.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace lse {

struct NormTimingRequest {
    std::int64_t rows = 0;   // N: tokens (micro_batch · seq_len of the scenario, or fewer)
    std::int64_t width = 0;  // D: d_model
    int repetitions = 7;     // timed calls per kernel after one untimed warm-up call
    bool capped = false;     // rows were reduced to fit kMaxNormTimingElements
};

// 2^22 fp32 elements = 16 MiB per (N, D) tensor: larger than a CPU's last-level cache, so the
// kernels stream from DRAM, and the five tensors of a backward call stay below 100 MiB.
inline constexpr std::int64_t kMaxNormTimingElements = std::int64_t(1) << 22;

// The scenario's layer: N = micro_batch · seq_len tokens, D = d_model; N reduced (never below 1)
// until N·D ≤ kMaxNormTimingElements.
NormTimingRequest normTimingRequestFor(const Scenario &scenario);

struct NormKernelTiming {
    NormType norm = NormType::LayerNorm;
    bool backward = false;
    std::vector<double> seconds;  // each timed call
    double median_seconds = 0;
    double flops = 0;  // the operator list's forward FLOPs (Operator::flops) or backward_flops
    double bytes = 0;  // bytes read + written by that pass (operator list / roofline)
    double bytesPerSecond() const { return median_seconds > 0 ? bytes / median_seconds : 0; }
    double flopsPerSecond() const { return median_seconds > 0 ? flops / median_seconds : 0; }
};

struct NormTiming {
    NormTimingRequest request;
    // LayerNorm forward, LayerNorm backward, RMSNorm forward, RMSNorm backward.
    std::vector<NormKernelTiming> kernels;
    bool cancelled = false;
};

// The declared FLOPs and bytes of one norm pass on (rows, width) fp32, without timing anything.
NormKernelTiming normCost(NormType norm, bool backward, std::int64_t rows, std::int64_t width);

// The data-movement argument (Ivanov et al. 2021, "Data Movement Is All You Need", Table 1: norms
// are a fraction of a percent of a BERT layer's FLOPs and about a quarter of its runtime): the
// norms' share of one layer's forward FLOPs, of its bytes moved, and of its time on the scenario's
// accelerator when every operator runs at its roofline bound max(FLOPs / peak, bytes / bandwidth).
struct NormShare {
    double flop_share = 0;
    double byte_share = 0;
    double roofline_time_share = 0;
    std::string accelerator;  // the roofline machine's name
};
Result<NormShare> normShareOfLayer(const Scenario &scenario);

// Runs in the calling thread; `progress(done, total)` after each timed call. Stops early (with
// cancelled set and the kernels finished so far) once `cancel` is true. Fails on rows, width or
// repetitions < 1, or more than kMaxNormTimingElements.
Result<NormTiming> timeNorms(const NormTimingRequest &request, const std::atomic<bool> &cancel,
                             const std::function<void(int done, int total)> &progress = {});

}  // namespace lse
