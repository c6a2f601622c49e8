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

}  // namespace lse::traces
