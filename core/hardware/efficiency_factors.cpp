// SPDX-License-Identifier: GPL-3.0-or-later
#include "hardware/efficiency_factors.h"

#include "common/json_fields.h"

#include <cmath>

namespace lse {

std::string_view toString(EfficiencyParameter parameter)
{
    switch (parameter) {
    case EfficiencyParameter::GemmPeakFraction: return "gemm_peak_fraction";
    case EfficiencyParameter::GemmFixedCostDepth: return "gemm_fixed_cost_depth";
    case EfficiencyParameter::MemoryBandwidthFraction: return "memory_bandwidth_fraction";
    case EfficiencyParameter::FlashAttentionFraction: return "flash_attention_fraction";
    case EfficiencyParameter::FlashAttention3Fraction: return "flash_attention3_fraction";
    case EfficiencyParameter::Fp8GemmPeakFraction: return "fp8_gemm_peak_fraction";
    case EfficiencyParameter::GpuSpeedSpread: return "gpu_speed_spread";
    }
    return "gemm_peak_fraction";
}

double &parameterValue(EfficiencyFactors &factors, EfficiencyParameter parameter)
{
    switch (parameter) {
    case EfficiencyParameter::GemmPeakFraction: return factors.gemm_peak_fraction;
    case EfficiencyParameter::GemmFixedCostDepth: return factors.gemm_fixed_cost_depth;
    case EfficiencyParameter::MemoryBandwidthFraction: return factors.memory_bandwidth_fraction;
    case EfficiencyParameter::FlashAttentionFraction: return factors.flash_attention_fraction;
    case EfficiencyParameter::FlashAttention3Fraction: return factors.flash_attention3_fraction;
    case EfficiencyParameter::Fp8GemmPeakFraction: return factors.fp8_gemm_peak_fraction;
    case EfficiencyParameter::GpuSpeedSpread: return factors.gpu_speed_spread;
    }
    return factors.gemm_peak_fraction;
}

double parameterValue(const EfficiencyFactors &factors, EfficiencyParameter parameter)
{
    return parameterValue(const_cast<EfficiencyFactors &>(factors), parameter);
}

Problems validateEfficiencyFactors(const EfficiencyFactors &factors, const std::string &field)
{
    Problems problems;
    const auto fraction = [&](std::string_view key, double value) {
        if (!std::isfinite(value) || value <= 0 || value > 1)
            problems.push_back(Problem{field + "." + std::string(key), "range",
                                       field + "." + std::string(key) + " is " + std::to_string(value)
                                           + "; a fraction of the datasheet figure must be in (0, 1]"});
    };
    fraction("gemm_peak_fraction", factors.gemm_peak_fraction);
    fraction("memory_bandwidth_fraction", factors.memory_bandwidth_fraction);
    fraction("flash_attention_fraction", factors.flash_attention_fraction);
    fraction("flash_attention3_fraction", factors.flash_attention3_fraction);
    fraction("fp8_gemm_peak_fraction", factors.fp8_gemm_peak_fraction);
    const auto nonNegative = [&](std::string_view key, double value) {
        if (!std::isfinite(value) || value < 0)
            problems.push_back(Problem{field + "." + std::string(key), "range",
                                       field + "." + std::string(key) + " is " + std::to_string(value)
                                           + "; it must be a non-negative number"});
    };
    nonNegative("gemm_fixed_cost_depth", factors.gemm_fixed_cost_depth);
    nonNegative("kernel_overhead_seconds", factors.kernel_overhead_seconds);
    nonNegative("gpu_speed_spread", factors.gpu_speed_spread);
    if (std::isfinite(factors.gpu_speed_spread) && factors.gpu_speed_spread > 0.5)
        problems.push_back(Problem{field + ".gpu_speed_spread", "range",
                                   field + ".gpu_speed_spread is " + std::to_string(factors.gpu_speed_spread)
                                       + "; a relative spread of GPU speeds must be at most 0.5"});
    const auto tile = [&](std::string_view key, int value) {
        if (value < 1 || value > 4096)
            problems.push_back(Problem{field + "." + std::string(key), "range",
                                       field + "." + std::string(key) + " is " + std::to_string(value)
                                           + "; a tile dimension must be in [1, 4096]"});
    };
    tile("gemm_tile_rows", factors.gemm_tile_rows);
    tile("gemm_tile_columns", factors.gemm_tile_columns);
    return problems;
}

QJsonObject efficiencyFactorsToJson(const EfficiencyFactors &factors)
{
    QJsonObject object;
    object.insert("gemm_peak_fraction", factors.gemm_peak_fraction);
    object.insert("gemm_tile_rows", factors.gemm_tile_rows);
    object.insert("gemm_tile_columns", factors.gemm_tile_columns);
    object.insert("gemm_fixed_cost_depth", factors.gemm_fixed_cost_depth);
    object.insert("memory_bandwidth_fraction", factors.memory_bandwidth_fraction);
    object.insert("flash_attention_fraction", factors.flash_attention_fraction);
    object.insert("flash_attention3_fraction", factors.flash_attention3_fraction);
    object.insert("kernel_overhead_seconds", factors.kernel_overhead_seconds);
    object.insert("fp8_gemm_peak_fraction", factors.fp8_gemm_peak_fraction);
    object.insert("gpu_speed_spread", factors.gpu_speed_spread);
    object.insert("source", QString::fromStdString(factors.source));
    return object;
}

Result<EfficiencyFactors> efficiencyFactorsFromJson(const QJsonObject &object, const std::string &field)
{
    Problems problems;
    EfficiencyFactors factors;
    JsonFieldReader reader(object, field, problems);
    reader.readAmount("gemm_peak_fraction", factors.gemm_peak_fraction);
    reader.readCount("gemm_tile_rows", factors.gemm_tile_rows);
    reader.readCount("gemm_tile_columns", factors.gemm_tile_columns);
    reader.readAmount("gemm_fixed_cost_depth", factors.gemm_fixed_cost_depth);
    reader.readAmount("memory_bandwidth_fraction", factors.memory_bandwidth_fraction);
    reader.readAmount("flash_attention_fraction", factors.flash_attention_fraction);
    // Absent: the FlashAttention-2 fraction (the same kernel design off Hopper).
    factors.flash_attention3_fraction = factors.flash_attention_fraction;
    reader.readAmount("flash_attention3_fraction", factors.flash_attention3_fraction);
    reader.readAmount("kernel_overhead_seconds", factors.kernel_overhead_seconds);
    reader.readAmount("fp8_gemm_peak_fraction", factors.fp8_gemm_peak_fraction);
    reader.readAmount("gpu_speed_spread", factors.gpu_speed_spread);
    reader.readString("source", factors.source);
    if (!problems.empty())
        return problems;
    Problems invalid = validateEfficiencyFactors(factors, field);
    if (!invalid.empty())
        return invalid;
    return factors;
}

QJsonObject predictionAccuracyToJson(const PredictionAccuracy &accuracy)
{
    QJsonObject object;
    object.insert("published_runs", accuracy.published_runs);
    object.insert("sources", accuracy.sources);
    if (accuracy.hasBand()) {
        object.insert("fitted_mean_error", accuracy.fitted_mean_error);
        object.insert("held_out_mean_error", accuracy.held_out_mean_error);
        object.insert("held_out_p90_error", accuracy.held_out_p90_error);
        object.insert("held_out_worst_error", accuracy.held_out_worst_error);
    }
    if (!accuracy.factors_from.empty())
        object.insert("factors_from", QString::fromStdString(accuracy.factors_from));
    object.insert("basis", QString::fromStdString(accuracy.basis));
    return object;
}

Result<PredictionAccuracy> predictionAccuracyFromJson(const QJsonObject &object, const std::string &field)
{
    Problems problems;
    PredictionAccuracy accuracy;
    JsonFieldReader reader(object, field, problems);
    reader.readCount("published_runs", accuracy.published_runs);
    reader.readCount("sources", accuracy.sources);
    reader.readAmount("fitted_mean_error", accuracy.fitted_mean_error);
    reader.readAmount("held_out_mean_error", accuracy.held_out_mean_error);
    reader.readAmount("held_out_p90_error", accuracy.held_out_p90_error);
    reader.readAmount("held_out_worst_error", accuracy.held_out_worst_error);
    reader.readString("factors_from", accuracy.factors_from);
    reader.readString("basis", accuracy.basis);
    for (const double error : {accuracy.fitted_mean_error, accuracy.held_out_mean_error, accuracy.held_out_p90_error,
                               accuracy.held_out_worst_error})
        if (!std::isfinite(error) || error < 0 || error > 10)
            problems.push_back(Problem{field, "range", field + ": an error fraction must be in [0, 10]"});
    if (!problems.empty())
        return problems;
    return accuracy;
}

}  // namespace lse
