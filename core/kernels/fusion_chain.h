// SPDX-License-Identifier: GPL-3.0-or-later
// Kernel fusion of a chain of element-wise operators on one tokens×width tensor — by default the
// bias + GeLU + dropout + residual that follows a transformer's MLP matmul. Unfused, every operator
// is its own kernel: it reads its inputs from HBM and writes its output back. Fused, the chain is
// one kernel: the intermediates stay in registers, so only the chain's external inputs are read
// and its last output written (the accounting of roofline/fusion.cpp: each link a → b saves b's read
// of a's output and a's write of it, unless the backward pass keeps that tensor anyway). The
// per-operator FLOPs and bytes are the operator list's (ops/flop_rules.h, ops/byte_rules.h
// elementwiseForward, as operator_list.cpp builds bias, activation, dropout and residual), and the
// times are performance/kernel_time's streamingTime on the chosen accelerator's roofline.
#pragma once

#include "common/problem.h"
#include "hardware/accelerator.h"
#include "performance/kernel_time.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace lse::kernels {

enum class ElementwiseOp { Bias, GeLU, Dropout, Residual };
std::string_view toString(ElementwiseOp op);

struct FusionChainConfig {
    std::int64_t tokens = 0;  // rows of the tensor (micro-batch × sequence)
    std::int64_t width = 0;   // its columns (d_model, or d_ff after the up projection)
    DType dtype = DType::BF16;  // activations' storage type: E bytes per element
    std::vector<ElementwiseOp> ops = {ElementwiseOp::Bias, ElementwiseOp::GeLU, ElementwiseOp::Dropout,
                                      ElementwiseOp::Residual};
    // Training: a tensor the backward pass keeps (GeLU's input; Korthikanti et al. 2022 §4.1) is
    // written even when fused, so only the re-read is saved.
    bool training = false;
};

struct FusionChainOp {
    ElementwiseOp op = ElementwiseOp::Bias;
    double flops = 0;
    double bytes_read = 0;
    double bytes_written = 0;
    performance::KernelTime unfused_time;  // its own kernel
};

struct FusionChain {
    std::vector<FusionChainOp> ops;
    double flops = 0;  // the same fused or not
    double unfused_bytes = 0;
    double fused_bytes = 0;
    double unfused_seconds = 0;  // Σ the operators' kernels
    performance::KernelTime fused_time;  // one kernel
    double speedup() const { return fused_time.seconds > 0 ? unfused_seconds / fused_time.seconds : 0; }
    double unfusedIntensity() const { return unfused_bytes > 0 ? flops / unfused_bytes : 0; }
    double fusedIntensity() const { return fused_bytes > 0 ? flops / fused_bytes : 0; }
};

inline constexpr std::int64_t kMaxFusionElements = std::int64_t(1) << 40;

// Problems: "tokens", "width" below 1 or a tensor beyond kMaxFusionElements; "ops" empty; "dtype"
// without a peak on the accelerator.
Result<FusionChain> fusionChain(const FusionChainConfig &config, const Accelerator &accelerator);

}  // namespace lse::kernels
