// SPDX-License-Identifier: GPL-3.0-or-later
#include "hardware/accelerator.h"

#include "common/enum_names.h"

namespace lse {

namespace {
constexpr EnumName<DType> kDTypes[] = {
    {DType::FP32, "fp32"}, {DType::TF32, "tf32"}, {DType::BF16, "bf16"},
    {DType::FP16, "fp16"}, {DType::FP8, "fp8"},
};
}  // namespace

std::string_view toString(DType value) { return enumToString(kDTypes, value); }
std::optional<DType> dtypeFromString(std::string_view text) { return enumFromString(kDTypes, text); }

int bytesPerElement(DType value)
{
    switch (value) {
    case DType::FP32:
    case DType::TF32:
        return 4;
    case DType::BF16:
    case DType::FP16:
        return 2;
    case DType::FP8:
        return 1;
    }
    return 4;
}

double PeakFlops::forDType(DType dtype) const
{
    switch (dtype) {
    case DType::FP32:
        return fp32_flops_per_second;
    case DType::TF32:
        return tf32_flops_per_second;
    case DType::BF16:
        return bf16_flops_per_second;
    case DType::FP16:
        return fp16_flops_per_second;
    case DType::FP8:
        return fp8_flops_per_second;
    }
    return 0;
}

}  // namespace lse
