// SPDX-License-Identifier: GPL-3.0-or-later
// How close an accelerator's kernels come to its datasheet figures. The step-time prediction
// (core/performance) reads these per accelerator; they are data in the hardware catalog with the
// place each value comes from, and a user can fit them to a measured run of their own
// (core/performance/calibration.h).
#pragma once

#include "common/problem.h"

#include <QJsonObject>

#include <string>
#include <vector>

namespace lse {

// The defaults are the catalog's A100 values (fitted to the published Megatron-LM runs, see
// resources/hardware/catalog.json): an accelerator written without "efficiency" gets them.
struct EfficiencyFactors {
    // Fraction of the dense peak a large, well-shaped matrix product sustains (cuBLAS/CUTLASS main
    // loop without tile, wave or prologue losses).
    double gemm_peak_fraction = 0.75;
    // Output tile one thread block computes (rows x columns): a product's m and n are rounded up
    // to whole tiles (tile quantisation) and the tiles to whole waves over the SMs (wave
    // quantisation) — NVIDIA Deep Learning Performance Guide, "Matrix Multiplication Background".
    int gemm_tile_rows = 128;
    int gemm_tile_columns = 128;
    // Reduction depth at which a tile's fixed cost (prologue, epilogue, pipeline fill) equals its
    // main loop: efficiency × k / (k + gemm_fixed_cost_depth).
    double gemm_fixed_cost_depth = 32;
    // Fraction of the HBM bandwidth a streaming (element-wise, norm, softmax, optimizer) kernel
    // sustains (STREAM-style copy on the device).
    double memory_bandwidth_fraction = 0.7;
    // Fraction of the dense peak a fused attention kernel (FlashAttention-2) sustains.
    double flash_attention_fraction = 0.5;
    // The same for FlashAttention-3 / cuDNN's fused attention (training.attention_kernel flash3):
    // on Hopper about twice FlashAttention-2's rate (Shah et al. 2024, 75% vs 35% of the H100 BF16
    // peak); elsewhere the same kernel design as FlashAttention-2, so the same fraction by default.
    double flash_attention3_fraction = 0.5;
    // Fixed cost of one kernel launch and its tail, added to every kernel.
    double kernel_overhead_seconds = 5e-6;
    // Fraction of the FP8 dense peak a large FP8 matrix product sustains (Transformer Engine FP8
    // GEMMs, with their scaling and casts), for FP8 recipes; the other kernels keep their BF16 rates.
    double fp8_gemm_peak_fraction = 0.6;
    // Relative spread (standard deviation) of one GPU's speed among GPUs of the same model: a
    // synchronous step waits for the slowest of N. Sinha et al. 2022 ("Not All GPUs Are Created
    // Equal", SC'22) measured 8% average performance variation (max 22%) between GPUs of one SKU
    // within a cluster of thousands; as the spread between the slowest and the fastest of N ≈ 2·z(N)
    // standard deviations with z(4096) ≈ 3.6, that is about 1%.
    double gpu_speed_spread = 0.01;
    // Where the values come from (datasheet, benchmark, or the fit that produced them).
    std::string source;

    bool operator==(const EfficiencyFactors &) const = default;
};

// How well the step-time model predicts published runs on an accelerator (catalog data written by
// `llm-explorer-cli validate --fit --leave-one-paper-out`, checked by test_accelerator_validation):
// the error band a prediction carries is the leave-one-source-out 90th percentile of the relative
// step-time error — every run predicted by factors fitted without any run of its own source.
struct PredictionAccuracy {
    int published_runs = 0;   // of this accelerator, in resources/validation/published_runs.json
    int sources = 0;          // the papers and tables they come from
    double fitted_mean_error = 0;      // with the catalog factors, on the runs they were fitted to
    double held_out_mean_error = 0;    // leave one source out
    double held_out_p90_error = 0;     // the band
    double held_out_worst_error = 0;
    std::string factors_from;  // an accelerator without its own fit: whose factors it uses
    std::string basis;         // one sentence, e.g. "no published runs: A100 factors, error unknown"

    // The band as a fraction of the predicted time, when there is one (runs from at least two
    // sources, so that a held-out error exists).
    bool hasBand() const { return published_runs > 0 && sources >= 2 && held_out_p90_error > 0; }
    // The band p as a fraction (held_out_p90_error), 0 without one.
    double bandFraction() const { return hasBand() ? held_out_p90_error : 0.0; }
    bool operator==(const PredictionAccuracy &) const = default;
};
QJsonObject predictionAccuracyToJson(const PredictionAccuracy &accuracy);
Result<PredictionAccuracy> predictionAccuracyFromJson(const QJsonObject &object, const std::string &field);

// The parameters a calibration may fit (the tile and the overhead are architecture facts).
enum class EfficiencyParameter {
    GemmPeakFraction,
    GemmFixedCostDepth,
    MemoryBandwidthFraction,
    FlashAttentionFraction,
    FlashAttention3Fraction,
    Fp8GemmPeakFraction,
    GpuSpeedSpread,
};
std::string_view toString(EfficiencyParameter parameter);  // the JSON key, e.g. "gemm_peak_fraction"
double &parameterValue(EfficiencyFactors &factors, EfficiencyParameter parameter);
double parameterValue(const EfficiencyFactors &factors, EfficiencyParameter parameter);

// Problems name `field` + the key and the rule ("range": fractions in (0, 1], depths and overhead
// non-negative, tiles >= 1).
Problems validateEfficiencyFactors(const EfficiencyFactors &factors, const std::string &field);
QJsonObject efficiencyFactorsToJson(const EfficiencyFactors &factors);
// Absent keys keep the defaults above.
Result<EfficiencyFactors> efficiencyFactorsFromJson(const QJsonObject &object, const std::string &field);

}  // namespace lse
