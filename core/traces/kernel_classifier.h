// SPDX-License-Identifier: GPL-3.0-or-later
// The class of a GPU activity from its trace category, its kernel name and the CPU operator that
// launched it. Rules in order (the first that matches wins), documented in docs/user-guide/traces.md:
//   1. category gpu_memcpy → Memcpy, gpu_memset → Memset;
//   2. the name: nccl → Communication; flash/fmha/attention/sdpa → Attention; gemm, cutlass, xmma,
//      cublas, sgemm/hgemm, "splitKreduce" (the second kernel of a cuBLAS split-K GEMM) → Gemm;
//      conv / implicit_gemm with a convolution operator → Convolution; norm → Norm;
//      reduce/softmax/sum/mean/max/scan → Reduction; elementwise/vectorized/copy/fill/cast/index → Elementwise;
//   3. the linked operator: aten::mm/addmm/bmm/baddbmm/linear/matmul → Gemm, scaled_dot_product /
//      flash attention → Attention, convolution → Convolution, *norm* → Norm, nccl:/c10d:: → Communication;
//   4. otherwise Unknown.
// The linker (trace_linker.h) adds one rule with the operator chain: a GEMM-named kernel whose
// nearest classed operator is a convolution is Convolution (cuDNN runs convolutions as GEMMs).
#pragma once

#include "traces/trace_model.h"

#include <string_view>

namespace lse::traces {

// `category` is the event's cat ("kernel", "gpu_memcpy", "gpu_memset"); `linked_op` the name of
// the CPU operator the activity is attributed to ("" when none).
KernelClass classifyKernel(std::string_view category, std::string_view kernel_name, std::string_view linked_op);

// The class an operator's name alone implies (rule 3 above), Unknown when it implies none.
KernelClass classOfOperator(std::string_view op_name);

// The importer's class of a producer's own args."class": our exporter's (chrome_trace_writer.h)
// "matmul" → Gemm, "attention" → Attention, "softmax" and "cross_entropy" → Reduction (as the
// aten names classOfOperator reads), "norm" → Norm, "elementwise", "embedding", "copy" and
// "optimizer" → Elementwise (copies and the fused optimizer update are element-wise work, as
// aten::copy_ and _foreach_* are), "communication" → Communication; and the importer's own class
// names (kernelClassName). Unknown for anything else.
KernelClass classOfRecordedClass(std::string_view recorded_class);

// The class of one CPU operator call: the class its producer recorded when it recorded one the
// importer knows, else the one its name implies (classOfOperator).
KernelClass classOfOperatorCall(std::string_view op_name, KernelClass recorded_class);

// A matrix-multiply call, the calls matmul_flops sums: aten::mm/addmm/bmm/baddbmm
// (isMatmulOperator), or any operator its producer recorded as one (args.class "matmul").
bool isMatmulCall(std::string_view op_name, KernelClass recorded_class);

}  // namespace lse::traces
