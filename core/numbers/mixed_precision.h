// SPDX-License-Identifier: GPL-3.0-or-later
// Which tensor of a training run lives in which number format, and what it costs per parameter,
// for a precision recipe (core/scenario/training_config.h). Every per-parameter figure is read
// from the memory engine itself (modelStateBytes, optimizerStateBytesPerParameter in
// core/cost/memory.cpp) over the same PrecisionConfig fields, so this breakdown and the Memory
// page cannot disagree. Sources: Micikevicius et al. 2018 (mixed precision training: fp32 master
// weights, loss scaling), Rajbhandari et al. 2020 (ZeRO §3: 2 + 2 + 12 = 16 bytes per parameter
// for mixed-precision Adam), Micikevicius et al. 2022 (FP8 formats) and NVIDIA Transformer Engine
// (per-tensor scaling factors).
#pragma once

#include "cost/estimate.h"
#include "scenario/training_config.h"

#include <string>
#include <vector>

namespace lse {

// The tensors a recipe places in a format.
enum class PrecisionTensor {
    Weights,              // the working copy read by forward and backward (weight_dtype)
    MatmulOperands,       // what the tensor cores multiply (matmul_dtype): a transient cast
    MasterWeights,        // fp32 copy the optimizer updates (master_weights)
    Gradients,            // gradient_dtype, as reduced across data-parallel ranks
    GradientAccumulator,  // extra fp32 buffer (fp32_gradient_accumulation)
    FirstMoment,          // Adam's m, or SGD's momentum
    SecondMoment,         // Adam's v, or Adafactor's factored statistics
    Activations,          // saved for the backward pass (activation_dtype), per token, not per parameter
    LossScale,            // one fp32 scalar when a 16-bit format with FP16's narrow range is used
    TensorScales,         // FP8: one fp32 scale (and amax history) per tensor
};

std::string_view toString(PrecisionTensor tensor);

struct PrecisionTensorRow {
    PrecisionTensor tensor = PrecisionTensor::Weights;
    std::string format;            // "fp32", "bf16", "fp16", "fp8", "int8 + fp32 block absmax", ...
    double bytes_per_element = 0;  // storage of one element in that format
    // Model-state bytes this tensor adds per parameter (0 where it is not per parameter).
    double bytes_per_parameter = 0;
    // false: activations (per token), the loss scale and FP8 scales (per tensor), matmul operands
    // (a transient cast): not part of model-state memory.
    bool per_parameter = true;
};

struct MixedPrecisionBreakdown {
    PrecisionConfig precision;
    Optimizer optimizer = Optimizer::AdamW;
    std::vector<PrecisionTensorRow> tensors;
    // The memory engine's model state for one parameter without ZeRO sharding:
    // modelStateBytes(1, training, 1, optimizerStateBytesPerParameter(optimizer)).
    ModelStateBytes per_parameter;
    double modelStateBytesPerParameter() const { return per_parameter.total(); }
    // Sum of the rows' bytes_per_parameter; equal to modelStateBytesPerParameter() by construction.
    double rowsBytesPerParameter() const;
    bool needsLossScaling() const;
};

// The recipes in the order the page draws them.
std::vector<PrecisionRecipe> precisionRecipes();

// The breakdown of `precision` (a recipe's defaults or a user-edited PrecisionConfig) with
// `optimizer`. Adafactor's factored state depends on the tensor shapes, not the parameter count:
// its row shows the engine's per-parameter figure (0) and the shapes-dependent bytes are left out.
MixedPrecisionBreakdown mixedPrecisionBreakdown(const PrecisionConfig &precision, Optimizer optimizer);

}  // namespace lse
