// SPDX-License-Identifier: GPL-3.0-or-later
// The number formats a served model stores its weights, activations and KV cache in, and what
// each costs in bytes. Integer formats carry scales: int4 weights store one fp16 scale per group of
// 128 weights (GPTQ, Frantar et al. 2023 §5 "grouping"; AWQ, Lin et al. 2024 §4, group size 128),
// so a weight costs 4/8 + 16/128 bits / 8 = 0.515625 bytes. int8 weights use one scale per output
// channel (LLM.int8(), Dettmers et al. 2022 §3.1; SmoothQuant, Xiao et al. 2023): d_out scales for
// d_in·d_out weights, under 0.05% for d_in ≥ 4096, left out.
#pragma once

#include "hardware/accelerator.h"

#include <optional>
#include <string>
#include <string_view>

namespace lse::inference {

enum class ServingFormat { FP16, BF16, FP8, INT8, INT4 };

std::string_view toString(ServingFormat format);  // "fp16", "bf16", "fp8", "int8", "int4"
std::optional<ServingFormat> servingFormatFromString(std::string_view text);
std::string servingFormatChoices(bool with_int4);  // "fp16|bf16|fp8|int8[|int4]"

inline constexpr int kInt4GroupSize = 128;  // weights per scale (GPTQ/AWQ default)
inline constexpr double kScaleBytes = 2;    // one fp16 scale

// Bytes one weight costs in `format`, its share of the group's scale included.
double weightBytesPerElement(ServingFormat format);
// Bytes of one activation or KV-cache element (int4 is a weight-only format: 0).
int elementBytes(ServingFormat format);
bool isEightBit(ServingFormat format);

// The tensor-core format the weight matrix products run in: FP8 when the activations are FP8 and
// the weights FP8 or int4 (W4A8), INT8 when both are integer (SmoothQuant W8A8, int4 W4A8),
// otherwise the 16-bit format of the activations (weight-only quantisation dequantises the
// weights in the kernel and multiplies in 16 bits: Frantar et al. 2023 §5, Lin et al. 2024 §5).
enum class ComputeFormat { FP16, BF16, FP8, INT8 };
ComputeFormat computeFormat(ServingFormat weights, ServingFormat activations);
std::string_view toString(ComputeFormat format);
// The accelerator's dense peak for a compute format. INT8 is not in the catalog: NVIDIA's and AMD's
// datasheets give dense INT8 tensor TOPS = 2 × the dense FP16 rate on every catalog part that has
// them (A100 624/312, H100 SXM 1,979/989, L40S 733/362, MI300X 2,615/1,307), so 2 × fp16 is used.
double peakFlopsPerSecond(const Accelerator &accelerator, ComputeFormat format);

}  // namespace lse::inference
