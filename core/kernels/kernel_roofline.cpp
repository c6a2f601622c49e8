// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernels/kernel_roofline.h"

#include <algorithm>

namespace lse::kernels {

KernelRooflinePoint rooflinePoint(const IoCounts &counts, const RooflineMachine &machine)
{
    KernelRooflinePoint point;
    if (!machine.valid())
        return point;
    point.intensity_flop_per_byte = counts.arithmeticIntensity();
    point.attainable_flops_per_second = attainableFlopsPerSecond(machine, point.intensity_flop_per_byte);
    point.seconds = std::max(double(counts.flops) / machine.peak_flops_per_second,
                             double(counts.hbmBytes()) / machine.memory_bandwidth_bytes_per_second);
    point.memory_bound = point.intensity_flop_per_byte < machine.ridgePointFlopPerByte();
    return point;
}

std::optional<DType> tensorDTypeForElementBytes(std::int64_t element_bytes)
{
    switch (element_bytes) {
    case 1: return DType::FP8;
    case 2: return DType::BF16;
    case 4: return DType::TF32;
    default: return std::nullopt;
    }
}

}  // namespace lse::kernels
