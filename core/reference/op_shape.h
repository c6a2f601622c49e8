// SPDX-License-Identifier: GPL-3.0-or-later
// The shape of one operator call of the reference transformer, as its trace event shows it
// (op_trace.h): what kind of work it is and the dimensions its bytes follow from.
#pragma once

#include <cstdint>
#include <string>

namespace lse::reference {

// The kind of work a call does: "matmul" for matrix products, as the trace's `class` argument.
enum class OpClass : std::uint8_t {
    Matmul,
    Attention,  // decode attention: Q·Kᵀ, softmax and P·V against the KV cache in one kernel
    Softmax,
    Norm,
    Elementwise,
    Embedding,
    CrossEntropy,
    Copy,  // KV-cache writes
    Optimizer,
    Communication,
};
const char *toString(OpClass op_class);  // "matmul", "attention", "softmax", ...

// What one call computes. Matrix products: batch independent [m, k]·[k, n]; other calls: an
// output of m rows × n columns.
struct OpShape {
    OpClass op_class = OpClass::Elementwise;
    bool weight_operand = false;  // matmul: [k, n] is a parameter, read once
    std::int64_t batch = 1;
    std::int64_t m = 0;
    std::int64_t n = 0;
    std::int64_t k = 0;
    double inputs = 1;                 // element-wise: inputs of the output's size it reads
    double extra_read_elements = 0;    // also read once: a norm's gain and bias, the KV cache
    double written_elements = -1;      // when not m·n (cross-entropy writes one loss per row)
    bool gradient_passes_through = false;  // residual and position adds: no saved input read backward

    static OpShape matmul(std::int64_t batch, std::int64_t m, std::int64_t n, std::int64_t k, bool weight_operand)
    {
        OpShape s;
        s.op_class = OpClass::Matmul;
        s.weight_operand = weight_operand;
        s.batch = batch;
        s.m = m;
        s.n = n;
        s.k = k;
        return s;
    }
    static OpShape elementwise(OpClass op_class, std::int64_t rows, std::int64_t columns, double inputs = 1)
    {
        OpShape s;
        s.op_class = op_class;
        s.m = rows;
        s.n = columns;
        s.inputs = inputs;
        return s;
    }
    OpShape passingGradient() const
    {
        OpShape s = *this;
        s.gradient_passes_through = true;
        return s;
    }
    OpShape readingAlso(double elements) const
    {
        OpShape s = *this;
        s.extra_read_elements = elements;
        return s;
    }
    OpShape writing(double elements) const
    {
        OpShape s = *this;
        s.written_elements = elements;
        return s;
    }
};

// "[4096, 256] x [256, 1024]" (a weight product), "[32, 128, 16] x [32, 16, 128]" (batched), or
// "[4096, 256]" (the output of another call).
std::string shapeText(const OpShape &shape);

}  // namespace lse::reference
