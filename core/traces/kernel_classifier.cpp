// SPDX-License-Identifier: GPL-3.0-or-later
#include "traces/kernel_classifier.h"

#include "traces/op_shape_flops.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace lse::traces {

namespace {

std::string lowered(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

bool containsAny(const std::string &text, std::initializer_list<std::string_view> needles)
{
    return std::any_of(needles.begin(), needles.end(),
                       [&](std::string_view needle) { return text.find(needle) != std::string::npos; });
}

// The kernel's own function name, lowercased, without "void ", the template arguments and the
// parameter list: "void at::native::reduce_kernel<512, 1, ReduceOp<float, MeanOps<...>>>(...)" →
// "at::native::reduce_kernel". The template arguments name functors ("MeanOps", "AddFunctor") that
// would mislead the rules, so they are left out; "(anonymous namespace)::" is dropped first
// because its parenthesis is not a parameter list.
std::string kernelHead(std::string_view name)
{
    std::string text(name);
    static constexpr std::string_view kAnonymous = "(anonymous namespace)::";
    for (std::size_t at = text.find(kAnonymous); at != std::string::npos; at = text.find(kAnonymous))
        text.erase(at, kAnonymous.size());
    if (text.rfind("void ", 0) == 0)
        text.erase(0, 5);
    const std::size_t end = text.find_first_of("<(");
    if (end != std::string::npos && end > 0)
        text.resize(end);
    return lowered(text);
}

KernelClass classOfKernelName(std::string_view kernel_name)
{
    const std::string head = kernelHead(kernel_name);
    // A mangled name (_ZN19cutlass_cudnn_train6KernelINS_4conv6kernel23ImplicitGemmConvolution...)
    // has no template brackets to cut, so it is read whole.
    const std::string full = lowered(kernel_name);
    const bool is_cudnn_cutlass = containsAny(full, {"cutlass_cudnn"});
    if (containsAny(head, {"nccl"}))
        return KernelClass::Communication;
    if (containsAny(head, {"flash", "fmha", "attention", "attn", "sdpa"}))
        return KernelClass::Attention;
    // Convolutions before GEMMs: cuDNN's implicit-GEMM convolutions (sm80_xmma_fprop_implicit_gemm,
    // the dgrad/wgrad kernels, cutlass_cudnn_* Kernels) have "gemm" in their names.
    if (is_cudnn_cutlass || containsAny(head, {"implicit_gemm", "implicitgemm", "conv", "wgrad", "dgrad", "scudnn",
                                               "winograd", "fft2d", "computeoffsetskernel"}))
        return KernelClass::Convolution;
    // cuBLAS split-K: splitKreduce_kernel sums the partial products of the GEMM kernel launched just
    // before it by the same cuBLAS call, so it is part of that GEMM (its time and FLOPs go with it).
    // The last name component only for the substrings: fbgemm_gpu::permute_2D_data_kernel is a
    // permutation from the FBGEMM library, not a GEMM; cutlass:: and cublas namespaces do mean one.
    const std::size_t last_colon = head.rfind("::");
    const std::string last = last_colon == std::string::npos ? head : head.substr(last_colon + 2);
    if (containsAny(last, {"gemm", "xmma", "splitkreduce", "gemv", "dot_kernel"}) ||
        head.rfind("cutlass::", 0) == 0 || containsAny(head, {"cublas"}))
        return KernelClass::Gemm;
    if (containsAny(head, {"norm", "::bn_", "rowwisemoments", "gammabetabackward"}))
        return KernelClass::Norm;
    if (containsAny(head, {"reduce", "softmax", "scan", "sort", "max_pool", "avg_pool", "average_pool", "topk", "cub::", "histogram"}))
        return KernelClass::Reduction;
    if (containsAny(head, {"elementwise", "vectorized", "copy", "fill", "cast", "index", "gather", "scatter",
                           "embedding", "dropout", "permute", "cat", "transpose", "nchwtonhwc", "nhwctonchw",
                           "multi_tensor_apply", "distribution", "scal_kernel", "quantize", "float_cuda"}))
        return KernelClass::Elementwise;
    return KernelClass::Unknown;
}

}  // namespace

KernelClass classOfOperator(std::string_view op_name)
{
    const std::string name = lowered(op_name);
    if (containsAny(name, {"nccl:", "nccl::", "c10d::", "gloo:", "all_reduce", "allreduce", "all_gather",
                           "allgather", "reduce_scatter", "all_to_all", "alltoall", "broadcast_"}))
        return KernelClass::Communication;
    if (isAttentionOperator(op_name) || containsAny(name, {"scaled_dot_product", "attention"}))
        return KernelClass::Attention;
    if (isMatmulOperator(op_name) || isMatmulParentOperator(op_name) ||
        containsAny(name, {"aten::mv", "aten::addmv", "aten::dot", "aten::einsum", "_scaled_mm", "aten::baddbmm"}))
        return KernelClass::Gemm;
    if (containsAny(name, {"conv"}))
        return KernelClass::Convolution;
    if (containsAny(name, {"norm"}))
        return KernelClass::Norm;
    static constexpr std::array<std::string_view, 15> kReductions = {
        "aten::sum", "aten::mean", "aten::max", "aten::min", "aten::amax", "aten::amin", "aten::argmax",
        "aten::argmin", "aten::cumsum", "aten::topk", "aten::sort", "aten::var", "aten::std", "aten::norm",
        "aten::prod"};
    for (std::string_view reduction : kReductions) {
        if (name == reduction)
            return KernelClass::Reduction;
    }
    if (containsAny(name, {"softmax", "pool", "nll_loss", "cross_entropy"}))
        return KernelClass::Reduction;
    static constexpr std::array<std::string_view, 12> kElementwiseNames = {
        "aten::add", "aten::mul", "aten::sub", "aten::div", "aten::copy_", "aten::fill_", "aten::zero_",
        "aten::cat", "aten::clone", "aten::_to_copy", "aten::where", "aten::pow"};
    for (std::string_view elementwise : kElementwiseNames) {
        if (name == elementwise || name == std::string(elementwise) + "_")
            return KernelClass::Elementwise;
    }
    if (containsAny(name, {"relu", "gelu", "silu", "sigmoid", "tanh", "dropout", "embedding", "index",
                           "masked_fill", "rsqrt", "aten::exp", "aten::neg", "_foreach_", "addcmul", "addcdiv",
                           "lerp", "aten::sqrt"}))
        return KernelClass::Elementwise;
    return KernelClass::Unknown;
}

KernelClass classOfRecordedClass(std::string_view recorded_class)
{
    if (recorded_class == "matmul")
        return KernelClass::Gemm;
    if (recorded_class == "softmax" || recorded_class == "cross_entropy")
        return KernelClass::Reduction;
    if (recorded_class == "embedding" || recorded_class == "copy" || recorded_class == "optimizer")
        return KernelClass::Elementwise;
    // "attention", "norm", "elementwise", "communication" and the importer's other class names.
    KernelClass cls = KernelClass::Unknown;
    return kernelClassFromName(recorded_class, cls) ? cls : KernelClass::Unknown;
}

KernelClass classOfOperatorCall(std::string_view op_name, KernelClass recorded_class)
{
    return recorded_class != KernelClass::Unknown ? recorded_class : classOfOperator(op_name);
}

bool isMatmulCall(std::string_view op_name, KernelClass recorded_class)
{
    return recorded_class == KernelClass::Gemm || isMatmulOperator(op_name);
}

KernelClass classifyKernel(std::string_view category, std::string_view kernel_name, std::string_view linked_op)
{
    if (category == "gpu_memcpy")
        return KernelClass::Memcpy;
    if (category == "gpu_memset")
        return KernelClass::Memset;
    const KernelClass by_name = classOfKernelName(kernel_name);
    if (by_name != KernelClass::Unknown)
        return by_name;
    return linked_op.empty() ? KernelClass::Unknown : classOfOperator(linked_op);
}

}  // namespace lse::traces
