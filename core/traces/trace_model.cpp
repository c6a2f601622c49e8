// SPDX-License-Identifier: GPL-3.0-or-later
#include "traces/trace_model.h"

namespace lse::traces {

std::string_view kernelClassName(KernelClass cls)
{
    switch (cls) {
    case KernelClass::Gemm: return "gemm";
    case KernelClass::Attention: return "attention";
    case KernelClass::Convolution: return "convolution";
    case KernelClass::Communication: return "communication";
    case KernelClass::Norm: return "norm";
    case KernelClass::Reduction: return "reduction";
    case KernelClass::Elementwise: return "elementwise";
    case KernelClass::Memcpy: return "memcpy";
    case KernelClass::Memset: return "memset";
    case KernelClass::Unknown: return "unknown";
    }
    return "unknown";
}

std::array<KernelClass, kKernelClassCount> allKernelClasses()
{
    return {KernelClass::Gemm,        KernelClass::Attention, KernelClass::Convolution, KernelClass::Communication,
            KernelClass::Norm,        KernelClass::Reduction, KernelClass::Elementwise, KernelClass::Memcpy,
            KernelClass::Memset,      KernelClass::Unknown};
}

bool kernelClassFromName(std::string_view name, KernelClass &cls)
{
    for (KernelClass candidate : allKernelClasses()) {
        if (kernelClassName(candidate) == name) {
            cls = candidate;
            return true;
        }
    }
    return false;
}

bool isComputeClass(KernelClass cls)
{
    return cls != KernelClass::Communication && cls != KernelClass::Memcpy && cls != KernelClass::Memset;
}

bool isKernelClass(KernelClass cls) { return cls != KernelClass::Memcpy && cls != KernelClass::Memset; }

double TraceKernel::achievedFlopsPerSecond() const
{
    return flops > 0 && duration_us > 0 ? flops / (duration_us * 1e-6) : 0.0;
}

double TraceCpuOp::achievedFlopsPerSecond() const
{
    return flops > 0 && duration_us > 0 ? flops / (duration_us * 1e-6) : 0.0;
}

double TraceKernel::arithmeticIntensity() const { return flops > 0 && bytes > 0 ? flops / bytes : 0.0; }

const std::string &TraceRank::text(TextId id) const
{
    static const std::string empty;
    return id >= 0 && static_cast<std::size_t>(id) < strings.size() ? strings[static_cast<std::size_t>(id)] : empty;
}

}  // namespace lse::traces
