// SPDX-License-Identifier: GPL-3.0-or-later
// The rules for the bytes an operator moves through main memory, stated once, as flop_rules.h does
// for FLOPs. The operator list (forward bytes, operator_list.cpp), the roofline (backward bytes,
// roofline/step_operators.cpp) and the reference transformer's trace events all read these.
//
// Forward: a matmul reads both operands and writes its product once (no reuse across kernels); an
// element-wise operator reads its inputs and writes its output once. Backward (the rules of
// reverse-mode differentiation, as in Korthikanti et al. 2022 §4.1's list of what is saved):
//  - weight matmul Y = X·W: dX = dY·Wᵀ and dW = Xᵀ·dY read dY twice, W and X once, write dX
//    (activation dtype) and dW (gradient dtype);
//  - activation matmul C = A·B (attention): dA = dC·Bᵀ, dB = Aᵀ·dC read dC twice, A and B once,
//    write dA and dB;
//  - element-wise: read the output gradient and the saved inputs (not for a gradient that passes
//    through: residual, bias, dropout), write one gradient per input.
#pragma once

namespace lse::byte_rules {

struct Bytes {
    double read = 0;
    double written = 0;
    double total() const { return read + written; }
};

// y[batch, m, n] = x[batch, m, k] · w[k, n]: `weight_operand` w is a parameter read once at
// `weight_bytes` (× `weight_scale`: routed experts touch several weight matrices), otherwise another
// activation read per batch at `act_bytes`.
inline Bytes matmulForward(double batch, double m, double n, double k, double act_bytes, double weight_bytes,
                           bool weight_operand, double weight_scale = 1)
{
    const double right = weight_operand ? weight_bytes * k * n * weight_scale : act_bytes * batch * k * n;
    return {act_bytes * batch * m * k + right, act_bytes * batch * m * n};
}

// The backward pass of the same product; `weight_scale` multiplies the weight and its gradient.
inline Bytes matmulBackward(double batch, double m, double n, double k, double act_bytes, double weight_bytes,
                            double gradient_bytes, bool weight_operand, double weight_scale = 1)
{
    const double x = act_bytes * batch * m * k;  // left operand
    const double y = act_bytes * batch * m * n;  // product (its gradient has the same size)
    if (weight_operand) {
        const double w = weight_bytes * k * n * weight_scale;
        const double dw = gradient_bytes * k * n * weight_scale;
        return {2 * y + w + x, x + dw};
    }
    const double right = act_bytes * batch * k * n;
    return {2 * y + x + right, x + right};
}

// An operator producing `elements` values from `inputs` inputs of the same size.
inline Bytes elementwiseForward(double elements, double inputs, double act_bytes)
{
    return {act_bytes * elements * inputs, act_bytes * elements};
}

// Its backward from its forward bytes: reads the output gradient (the size of what the forward
// wrote) and the saved inputs, writes one gradient per input.
inline Bytes elementwiseBackward(const Bytes &forward, bool gradient_passes_through)
{
    return {forward.written + (gradient_passes_through ? 0 : forward.read), forward.read};
}

}  // namespace lse::byte_rules
