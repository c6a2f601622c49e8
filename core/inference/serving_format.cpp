// SPDX-License-Identifier: GPL-3.0-or-later
#include "inference/serving_format.h"

namespace lse::inference {

std::string_view toString(ServingFormat format)
{
    switch (format) {
    case ServingFormat::FP16: return "fp16";
    case ServingFormat::BF16: return "bf16";
    case ServingFormat::FP8: return "fp8";
    case ServingFormat::INT8: return "int8";
    case ServingFormat::INT4: return "int4";
    }
    return "fp16";
}

std::optional<ServingFormat> servingFormatFromString(std::string_view text)
{
    for (ServingFormat format :
         {ServingFormat::FP16, ServingFormat::BF16, ServingFormat::FP8, ServingFormat::INT8, ServingFormat::INT4})
        if (text == toString(format))
            return format;
    return std::nullopt;
}

std::string servingFormatChoices(bool with_int4) { return with_int4 ? "fp16|bf16|fp8|int8|int4" : "fp16|bf16|fp8|int8"; }

double weightBytesPerElement(ServingFormat format)
{
    if (format == ServingFormat::INT4)
        return 0.5 + kScaleBytes / kInt4GroupSize;
    return elementBytes(format);
}

int elementBytes(ServingFormat format)
{
    switch (format) {
    case ServingFormat::FP16:
    case ServingFormat::BF16: return 2;
    case ServingFormat::FP8:
    case ServingFormat::INT8: return 1;
    case ServingFormat::INT4: return 0;
    }
    return 2;
}

bool isEightBit(ServingFormat format) { return format == ServingFormat::FP8 || format == ServingFormat::INT8; }

ComputeFormat computeFormat(ServingFormat weights, ServingFormat activations)
{
    if (activations == ServingFormat::FP8 && (weights == ServingFormat::FP8 || weights == ServingFormat::INT4))
        return ComputeFormat::FP8;
    if (activations == ServingFormat::INT8 && (weights == ServingFormat::INT8 || weights == ServingFormat::INT4))
        return ComputeFormat::INT8;
    return activations == ServingFormat::BF16 ? ComputeFormat::BF16 : ComputeFormat::FP16;
}

std::string_view toString(ComputeFormat format)
{
    switch (format) {
    case ComputeFormat::FP16: return "fp16";
    case ComputeFormat::BF16: return "bf16";
    case ComputeFormat::FP8: return "fp8";
    case ComputeFormat::INT8: return "int8";
    }
    return "fp16";
}

double peakFlopsPerSecond(const Accelerator &accelerator, ComputeFormat format)
{
    switch (format) {
    case ComputeFormat::FP16: {
        // A part without an FP16 rate (TPU v5p) runs the 16-bit products in BF16.
        const double fp16 = accelerator.dense_peak.forDType(DType::FP16);
        return fp16 > 0 ? fp16 : accelerator.dense_peak.forDType(DType::BF16);
    }
    case ComputeFormat::BF16: return accelerator.dense_peak.forDType(DType::BF16);
    case ComputeFormat::FP8: return accelerator.dense_peak.forDType(DType::FP8);
    case ComputeFormat::INT8: return 2.0 * accelerator.dense_peak.forDType(DType::FP16);
    }
    return 0;
}

}  // namespace lse::inference
