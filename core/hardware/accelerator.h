// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "hardware/efficiency_factors.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lse {

// Numeric formats the hardware has a peak for and the training recipe can use.
enum class DType { FP32, TF32, BF16, FP16, FP8 };

std::string_view toString(DType value);
std::optional<DType> dtypeFromString(std::string_view text);
// Storage size of one element; TF32 is stored as 4 bytes.
int bytesPerElement(DType value);

// Dense (not 2:4-sparse) peak throughput per dtype. 0 means "not supported".
struct PeakFlops {
    double fp32_flops_per_second = 0;
    double tf32_flops_per_second = 0;
    double bf16_flops_per_second = 0;
    double fp16_flops_per_second = 0;
    double fp8_flops_per_second = 0;

    double forDType(DType dtype) const;
};

// One accelerator model as the vendor documents it. Bandwidths are unidirectional per GPU (what a
// collective can use in one direction); vendors often quote the bidirectional sum.
struct Accelerator {
    std::string id;    // stable key, e.g. "h100-sxm"
    std::string name;  // display name
    std::string vendor;
    PeakFlops dense_peak;
    std::int64_t memory_bytes = 0;
    double memory_bandwidth_bytes_per_second = 0;
    double intra_node_bandwidth_bytes_per_second = 0;  // NVLink / Infinity Fabric / ICI, one direction
    double inter_node_bandwidth_bytes_per_second = 0;  // network per GPU, one direction
    int sm_count = 0;  // SMs (NVIDIA), CUs (AMD), TensorCores (TPU)
    std::int64_t sram_bytes = 0;  // on-chip shared memory / L1 in total
    std::int64_t l2_bytes = 0;
    // How close kernels come to the figures above (step-time prediction); catalog data with sources.
    EfficiencyFactors efficiency;
    // How far the step-time model has been off on this accelerator's published runs (the error band).
    PredictionAccuracy accuracy;
    std::string source;  // datasheet the numbers come from
    std::string note;    // caveats, e.g. "datasheet headline is 2:4 sparse"
};

}  // namespace lse
