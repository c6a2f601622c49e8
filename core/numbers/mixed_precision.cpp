// SPDX-License-Identifier: GPL-3.0-or-later
#include "numbers/mixed_precision.h"

#include <string>

namespace lse {

namespace {

std::string formatName(DType dtype) { return std::string(toString(dtype)); }

// The memory engine's model state of one unsharded parameter.
ModelStateBytes engineBytes(const PrecisionConfig &precision, Optimizer optimizer, double optimizer_states)
{
    TrainingConfig training;
    training.precision = precision;
    training.optimizer = optimizer;
    training.parallel.zero_stage = 0;
    return modelStateBytes(1.0, training, 1, optimizer_states);
}

PrecisionTensorRow row(PrecisionTensor tensor, std::string format, double bytes_per_element, double bytes_per_parameter,
                       bool per_parameter = true)
{
    return {tensor, std::move(format), bytes_per_element, bytes_per_parameter, per_parameter};
}

// The optimizer's states (already the engine's per-parameter total) split into its moments.
void addMoments(std::vector<PrecisionTensorRow> &rows, Optimizer optimizer, double states)
{
    switch (optimizer) {
    case Optimizer::SGD:
        return;
    case Optimizer::Momentum:
        rows.push_back(row(PrecisionTensor::FirstMoment, "fp32", 4, states));
        return;
    case Optimizer::Adam:
    case Optimizer::AdamW:
        // Kingma & Ba 2015: m and v, same size each; fp32 in every recipe (ZeRO §3.1).
        rows.push_back(row(PrecisionTensor::FirstMoment, "fp32", 4, states / 2));
        rows.push_back(row(PrecisionTensor::SecondMoment, "fp32", 4, states / 2));
        return;
    case Optimizer::Adam8bit:
        // Dettmers et al. 2022: 8-bit m and v, each with one fp32 absmax per 2048-element block.
        rows.push_back(row(PrecisionTensor::FirstMoment, "int8 + fp32 block absmax", states / 2, states / 2));
        rows.push_back(row(PrecisionTensor::SecondMoment, "int8 + fp32 block absmax", states / 2, states / 2));
        return;
    case Optimizer::Adafactor:
        // Shazeer & Stern 2018: row and column statistics, not one value per parameter.
        rows.push_back(row(PrecisionTensor::SecondMoment, "fp32 (factored)", 4, states, false));
        return;
    }
}

}  // namespace

std::string_view toString(PrecisionTensor tensor)
{
    switch (tensor) {
    case PrecisionTensor::Weights: return "weights";
    case PrecisionTensor::MatmulOperands: return "matmul_operands";
    case PrecisionTensor::MasterWeights: return "master_weights";
    case PrecisionTensor::Gradients: return "gradients";
    case PrecisionTensor::GradientAccumulator: return "gradient_accumulator";
    case PrecisionTensor::FirstMoment: return "first_moment";
    case PrecisionTensor::SecondMoment: return "second_moment";
    case PrecisionTensor::Activations: return "activations";
    case PrecisionTensor::LossScale: return "loss_scale";
    case PrecisionTensor::TensorScales: return "tensor_scales";
    }
    return "weights";
}

double MixedPrecisionBreakdown::rowsBytesPerParameter() const
{
    double total = 0;
    for (const PrecisionTensorRow &r : tensors)
        if (r.per_parameter)
            total += r.bytes_per_parameter;
    return total;
}

bool MixedPrecisionBreakdown::needsLossScaling() const
{
    // Micikevicius et al. 2018 §3.2: FP16's 5 exponent bits flush small gradients to zero unless
    // the loss is scaled; BF16 keeps FP32's exponent range and needs no scaling.
    for (DType dtype : {precision.weight_dtype, precision.gradient_dtype, precision.activation_dtype,
                        precision.matmul_dtype})
        if (dtype == DType::FP16)
            return true;
    return false;
}

std::vector<PrecisionRecipe> precisionRecipes()
{
    return {PrecisionRecipe::FP32, PrecisionRecipe::BF16Mixed, PrecisionRecipe::FP16Mixed, PrecisionRecipe::FP8Mixed};
}

MixedPrecisionBreakdown mixedPrecisionBreakdown(const PrecisionConfig &precision, Optimizer optimizer)
{
    MixedPrecisionBreakdown breakdown;
    breakdown.precision = precision;
    breakdown.optimizer = optimizer;
    const double states = optimizerStateBytesPerParameter(optimizer);
    breakdown.per_parameter = engineBytes(precision, optimizer, states);

    // Each row is the difference between two calls of the engine, so a change in
    // core/cost/memory.cpp shows up here.
    PrecisionConfig without_accumulation = precision;
    without_accumulation.fp32_gradient_accumulation = false;
    const double gradients = engineBytes(without_accumulation, optimizer, states).grads;
    const double accumulator = breakdown.per_parameter.grads - gradients;
    const double master = engineBytes(precision, optimizer, 0).optimizer;
    const double moments = breakdown.per_parameter.optimizer - master;

    std::vector<PrecisionTensorRow> &rows = breakdown.tensors;
    rows.push_back(row(PrecisionTensor::Weights, formatName(precision.weight_dtype),
                       bytesPerElement(precision.weight_dtype), breakdown.per_parameter.params));
    rows.push_back(row(PrecisionTensor::MatmulOperands, formatName(precision.matmul_dtype),
                       bytesPerElement(precision.matmul_dtype), 0, false));
    if (master > 0)
        rows.push_back(row(PrecisionTensor::MasterWeights, "fp32", 4, master));
    rows.push_back(row(PrecisionTensor::Gradients, formatName(precision.gradient_dtype),
                       bytesPerElement(precision.gradient_dtype), gradients));
    if (accumulator > 0)
        rows.push_back(row(PrecisionTensor::GradientAccumulator, "fp32", 4, accumulator));
    addMoments(rows, optimizer, moments);
    rows.push_back(row(PrecisionTensor::Activations, formatName(precision.activation_dtype),
                       bytesPerElement(precision.activation_dtype), 0, false));
    if (breakdown.needsLossScaling())
        rows.push_back(row(PrecisionTensor::LossScale, "fp32", 4, 0, false));
    if (precision.matmul_dtype == DType::FP8)
        rows.push_back(row(PrecisionTensor::TensorScales, "fp32", 4, 0, false));
    return breakdown;
}

}  // namespace lse
