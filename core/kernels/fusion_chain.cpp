// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernels/fusion_chain.h"

#include "ops/byte_rules.h"
#include "ops/flop_rules.h"

#include <algorithm>
#include <string>

namespace lse::kernels {

std::string_view toString(ElementwiseOp op)
{
    switch (op) {
    case ElementwiseOp::Bias: return "bias";
    case ElementwiseOp::GeLU: return "gelu";
    case ElementwiseOp::Dropout: return "dropout";
    case ElementwiseOp::Residual: return "residual";
    }
    return "bias";
}

namespace {

// FLOPs per element and tensor-sized inputs, as operator_list.cpp declares these operators: a bias
// add and dropout read one tensor (the bias vector is not counted there either), a residual add two.
struct OpRule {
    double flops_per_element;
    double inputs;
    bool backward_keeps_input;  // its input is saved for the backward pass (Korthikanti §4.1)
};

OpRule ruleOf(ElementwiseOp op)
{
    switch (op) {
    case ElementwiseOp::Bias: return {flop_rules::kBias, 1, false};
    case ElementwiseOp::GeLU: return {flop_rules::kGeLU, 1, true};
    case ElementwiseOp::Dropout: return {1, 1, false};  // operator_list.cpp dropout(): 1 FLOP per element
    case ElementwiseOp::Residual: return {flop_rules::kResidual, 2, false};
    }
    return {1, 1, false};
}

}  // namespace

Result<FusionChain> fusionChain(const FusionChainConfig &config, const Accelerator &accelerator)
{
    Problems problems;
    if (config.tokens < 1)
        problems.push_back(Problem{"tokens", "range", "tokens must be at least 1, not " + std::to_string(config.tokens)});
    if (config.width < 1)
        problems.push_back(Problem{"width", "range", "width must be at least 1, not " + std::to_string(config.width)});
    if (problems.empty() && config.tokens > kMaxFusionElements / config.width)
        problems.push_back(Problem{"tokens", "range", "tokens × width is more than 2^40 elements", {"width"}});
    if (config.ops.empty())
        problems.push_back(Problem{"ops", "required", "the chain needs at least one operator"});
    const double peak = accelerator.dense_peak.forDType(config.dtype);
    if (peak <= 0)
        problems.push_back(Problem{"dtype", "supported",
                                   accelerator.id + " has no dense " + std::string(toString(config.dtype)) + " peak"});
    if (!problems.empty())
        return problems;

    const performance::KernelMachine machine = performance::kernelMachine(accelerator, peak, config.dtype);
    const double elements = double(config.tokens) * double(config.width);
    const double element_bytes = bytesPerElement(config.dtype);
    FusionChain chain;
    for (std::size_t index = 0; index < config.ops.size(); ++index) {
        const OpRule rule = ruleOf(config.ops[index]);
        const byte_rules::Bytes bytes = byte_rules::elementwiseForward(elements, rule.inputs, element_bytes);
        FusionChainOp op;
        op.op = config.ops[index];
        op.flops = rule.flops_per_element * elements;
        op.bytes_read = bytes.read;
        op.bytes_written = bytes.written;
        op.unfused_time = performance::streamingTime(op.flops, bytes.total(), machine, 1);
        chain.flops += op.flops;
        chain.unfused_bytes += bytes.total();
        chain.unfused_seconds += op.unfused_time.seconds;
        // The link from the previous operator: its output stays on chip (roofline/fusion.cpp).
        double saved = 0;
        if (index > 0) {
            const FusionChainOp &from = chain.ops.back();
            const double shared = std::min(from.bytes_written, op.bytes_read);
            const bool written_anyway = config.training && rule.backward_keeps_input;
            saved = written_anyway ? shared : 2 * shared;
        }
        chain.fused_bytes += bytes.total() - saved;
        chain.ops.push_back(op);
    }
    chain.fused_time = performance::streamingTime(chain.flops, chain.fused_bytes, machine, 1);
    return chain;
}

}  // namespace lse::kernels
