// SPDX-License-Identifier: GPL-3.0-or-later
// What the serving formats save and cost against 16-bit storage of the same model on the same GPUs:
// bytes per element (scales included) and per GPU of the weights, the KV cache and the activation
// workspace, and what that does to the largest batch, TTFT and TPOT. Both sides are serve() on the
// same inputs, so every figure is the serving model's (serving_model.h); nothing is estimated here
// about accuracy, which the bytes do not tell.
#pragma once

#include "common/problem.h"
#include "inference/serving_model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lse::inference {

struct TensorSaving {
    std::string tensor;  // "weights", "kv_cache" or "activations"
    ServingFormat format = ServingFormat::FP16;
    ServingFormat sixteen_bit_format = ServingFormat::FP16;
    double bytes_per_element = 0;              // weightBytesPerElement / elementBytes at the format
    double sixteen_bit_bytes_per_element = 0;  // 2
    double bytes_per_gpu = 0;                  // the report's memory of this tensor class
    double sixteen_bit_bytes_per_gpu = 0;
    double saved_bytes_per_gpu = 0;            // sixteen-bit − chosen (negative: costs more)
};

struct QuantisationSavings {
    std::vector<TensorSaving> tensors;  // weights, kv_cache, activations, in this order
    ComputeFormat compute_format = ComputeFormat::FP16;
    ComputeFormat sixteen_bit_compute_format = ComputeFormat::FP16;
    std::int64_t max_batch = 0;
    std::int64_t sixteen_bit_max_batch = 0;
    double ttft_seconds = 0;
    double sixteen_bit_ttft_seconds = 0;
    double tpot_seconds = 0;
    double sixteen_bit_tpot_seconds = 0;
    bool fits = false;
    bool sixteen_bit_fits = false;
};

// The 16-bit side keeps every other input and stores weights, activations and KV cache in bf16 when
// the chosen activations are bf16, else in fp16 (the format the 8- and 4-bit schemes quantise from).
Result<QuantisationSavings> quantisationSavings(const ServingInputs &inputs);

}  // namespace lse::inference
