// SPDX-License-Identifier: GPL-3.0-or-later
// FLOPs and bytes of an aten operator from the shapes and dtypes the profiler recorded
// (args "Input Dims" and "Input type", record_shapes=True), by the same rules as the engine's
// operator list (core/ops/flop_rules.h):
//   aten::mm (m×k)·(k×n): 2·m·n·k; aten::addmm: the same (the bias add, m·n, is not counted, as
//   the operator list folds a bias into its own element-wise operator and calls a GEMM 2mnk);
//   aten::bmm / baddbmm (b×m×k)·(b×k×n): 2·b·m·n·k;
//   scaled-dot-product / flash attention forward with q (b,h,s_q,d), k (b,h,s_k,d): two products
//   2·b·h·s_q·s_k·d each plus 5 FLOPs per score (flop_rules::kSoftmax), the full s_q·s_k rectangle
//   (the engine's default, no causal halving); backward: kBackwardMatmulFactor (2) times the
//   products and kBackwardElementwiseFactor times the softmax, as operator_list.cpp counts it.
// Bytes: every tensor operand read once and the result written once, at the dtype's size.
// aten::linear and aten::matmul get no FLOPs of their own: the mm/addmm/bmm they call carries them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lse::traces {

struct OpCost {
    double flops = 0;  // 0 when the operator is not counted or its shapes are unusable
    double bytes = 0;
    bool counted = false;  // a matrix multiply or attention operator with usable shapes
};

// aten::mm, aten::addmm, aten::bmm, aten::baddbmm: the operators matmul_flops sums.
bool isMatmulOperator(std::string_view op_name);
// aten::linear, aten::matmul: parents of the above whose FLOPs are never counted again.
bool isMatmulParentOperator(std::string_view op_name);
// aten::_scaled_dot_product_flash_attention, _efficient_attention, _flash_attention_forward,
// _cudnn_attention and their _backward variants.
bool isAttentionOperator(std::string_view op_name);
bool isAttentionBackwardOperator(std::string_view op_name);

// Bytes of one element of a profiler "Input type" ("float" 4, "c10::Half" 2, "c10::BFloat16" 2,
// "double" 8, "long int" 8, "int" 4, "bool"/"unsigned char" 1, float8 types 1); 0 when unknown.
double dtypeBytes(std::string_view torch_type);

// The cost of one call. `dims` and `types` are the recorded inputs in order (a non-tensor argument
// has empty dims and an empty or "Scalar" type).
OpCost operatorCost(std::string_view op_name, const std::vector<std::vector<std::int64_t>> &dims,
                    const std::vector<std::string> &types);

// "[[8,512],[512,1024]]": the recorded dims as the profiler's own JSON text, for tables and matching.
std::string shapeText(const std::vector<std::vector<std::int64_t>> &dims);

}  // namespace lse::traces
