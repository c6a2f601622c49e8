// SPDX-License-Identifier: GPL-3.0-or-later
#include "traces/op_shape_flops.h"

#include "ops/flop_rules.h"

#include <array>

namespace lse::traces {

namespace {

using Dims = std::vector<std::int64_t>;

bool usable(const Dims &dims, std::size_t rank)
{
    if (dims.size() != rank)
        return false;
    for (std::int64_t d : dims) {
        if (d < 0)
            return false;
    }
    return true;
}

double elements(const Dims &dims)
{
    double n = 1;
    for (std::int64_t d : dims)
        n *= static_cast<double>(d);
    return n;
}

// Every tensor argument read once (a scalar argument has no dims and contributes nothing).
double inputBytes(const std::vector<Dims> &dims, const std::vector<std::string> &types)
{
    double bytes = 0;
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (dims[i].empty() || i >= types.size())
            continue;
        bool whole = true;
        for (std::int64_t d : dims[i])
            whole = whole && d >= 0;
        if (whole)
            bytes += elements(dims[i]) * dtypeBytes(types[i]);
    }
    return bytes;
}

std::string typeAt(const std::vector<std::string> &types, std::size_t i) { return i < types.size() ? types[i] : ""; }

// Products: (m×k)·(k×n) at operands a and b of the inputs.
OpCost matmulCost(const std::vector<Dims> &dims, const std::vector<std::string> &types, std::size_t a, std::size_t b,
                  bool batched)
{
    OpCost cost;
    const std::size_t rank = batched ? 3 : 2;
    if (dims.size() <= b || !usable(dims[a], rank) || !usable(dims[b], rank))
        return cost;
    const Dims &x = dims[a];
    const Dims &y = dims[b];
    const double batch = batched ? static_cast<double>(x[0]) : 1.0;
    const double m = static_cast<double>(x[rank - 2]);
    const double k = static_cast<double>(x[rank - 1]);
    const double n = static_cast<double>(y[rank - 1]);
    if (static_cast<double>(y[rank - 2]) != k)
        return cost;
    cost.flops = flop_rules::matmul(batch, m, n, k);
    cost.bytes = inputBytes(dims, types) + batch * m * n * dtypeBytes(typeAt(types, a));
    cost.counted = true;
    return cost;
}

bool startsWith(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

// Attention operators whose tensors are (batch, seq, heads, dim) rather than (batch, heads, seq, dim).
bool sequenceBeforeHeads(std::string_view op_name)
{
    return startsWith(op_name, "aten::_flash_attention") || startsWith(op_name, "aten::_efficient_attention");
}

OpCost attentionCost(std::string_view op_name, const std::vector<Dims> &dims, const std::vector<std::string> &types)
{
    OpCost cost;
    const bool backward = isAttentionBackwardOperator(op_name);
    // Forward: (query, key, value, ...); backward: (grad_out, query, key, value, out, ...).
    const std::size_t q_at = backward ? 1 : 0;
    const std::size_t k_at = q_at + 1;
    if (dims.size() <= k_at + 1 || !usable(dims[q_at], 4) || !usable(dims[k_at], 4))
        return cost;
    const Dims &q = dims[q_at];
    const Dims &k = dims[k_at];
    const bool bshd = sequenceBeforeHeads(op_name);
    const double batch = static_cast<double>(q[0]);
    const double heads = static_cast<double>(bshd ? q[2] : q[1]);
    const double s_q = static_cast<double>(bshd ? q[1] : q[2]);
    const double s_k = static_cast<double>(bshd ? k[1] : k[2]);
    const double head_dim = static_cast<double>(q[3]);
    // Q·Kᵀ and P·V (two products per head), and the softmax's work per score: operator_list.cpp's
    // flash_attention + flash_softmax + flash_attention_values at full (non-causal) counting.
    const double products = 2 * flop_rules::matmul(batch * heads, s_q, s_k, head_dim);
    const double softmax = flop_rules::kSoftmax * batch * heads * s_q * s_k;
    cost.flops = backward ? flop_rules::kBackwardMatmulFactor * products + flop_rules::kBackwardElementwiseFactor * softmax
                          : products + softmax;
    const double q_bytes = elements(q) * dtypeBytes(typeAt(types, q_at));
    // Forward writes the output (q's shape); backward writes dq, dk, dv (q, k and v's shapes).
    double written = q_bytes;
    if (backward && usable(dims[k_at + 1], 4))
        written += elements(k) * dtypeBytes(typeAt(types, k_at)) + elements(dims[k_at + 1]) * dtypeBytes(typeAt(types, k_at + 1));
    cost.bytes = inputBytes(dims, types) + written;
    cost.counted = true;
    return cost;
}

}  // namespace

bool isMatmulOperator(std::string_view op_name)
{
    return op_name == "aten::mm" || op_name == "aten::addmm" || op_name == "aten::bmm" || op_name == "aten::baddbmm";
}

bool isMatmulParentOperator(std::string_view op_name) { return op_name == "aten::linear" || op_name == "aten::matmul"; }

bool isAttentionOperator(std::string_view op_name)
{
    static constexpr std::array<std::string_view, 5> kPrefixes = {
        "aten::_scaled_dot_product_flash_attention", "aten::_scaled_dot_product_efficient_attention",
        "aten::_scaled_dot_product_cudnn_attention", "aten::_flash_attention_", "aten::_efficient_attention_"};
    for (std::string_view prefix : kPrefixes) {
        if (startsWith(op_name, prefix))
            return true;
    }
    return false;
}

bool isAttentionBackwardOperator(std::string_view op_name)
{
    return isAttentionOperator(op_name) && op_name.find("backward") != std::string_view::npos;
}

double dtypeBytes(std::string_view t)
{
    if (t == "float" || t == "int" || t == "unsigned int" || t == "c10::complex<c10::Half>")
        return 4;
    if (t == "c10::Half" || t == "c10::BFloat16" || t == "short int" || t == "short")
        return 2;
    if (t == "double" || t == "long int" || t == "long" || t == "int64_t" || t == "c10::complex<float>")
        return 8;
    if (t == "bool" || t == "unsigned char" || t == "signed char" || t == "char" || startsWith(t, "c10::Float8"))
        return 1;
    if (t == "c10::complex<double>")
        return 16;
    return 0;
}

OpCost operatorCost(std::string_view op_name, const std::vector<std::vector<std::int64_t>> &dims,
                    const std::vector<std::string> &types)
{
    if (op_name == "aten::mm")
        return matmulCost(dims, types, 0, 1, false);
    if (op_name == "aten::addmm")  // (bias, mat1, mat2, beta, alpha)
        return matmulCost(dims, types, 1, 2, false);
    if (op_name == "aten::bmm")
        return matmulCost(dims, types, 0, 1, true);
    if (op_name == "aten::baddbmm")  // (bias, batch1, batch2, beta, alpha)
        return matmulCost(dims, types, 1, 2, true);
    if (isAttentionOperator(op_name))
        return attentionCost(op_name, dims, types);
    return {};
}

std::string shapeText(const std::vector<std::vector<std::int64_t>> &dims)
{
    std::string text = "[";
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (i > 0)
            text += ',';
        text += '[';
        for (std::size_t j = 0; j < dims[i].size(); ++j) {
            if (j > 0)
                text += ',';
            text += std::to_string(dims[i][j]);
        }
        text += ']';
    }
    text += ']';
    return text;
}

}  // namespace lse::traces
