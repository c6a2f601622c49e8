// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string_view>

namespace lse {

// Memory a GPU training process holds besides its weights, gradients, optimizer states and
// activations. The default of training.framework_reserve_bytes is the sum of three published
// measurements, one per part (docs/cost-model.md, "Framework reserve"); a scenario may set any
// other figure, 0 included (a paper's memory figure that counts only the model states).
enum class FrameworkReservePart { CudaContext, NcclBuffers, AllocatorFragmentation };

struct FrameworkReserveFigure {
    FrameworkReservePart part;
    std::int64_t bytes;       // GB = 1e9 bytes, as the rest of the memory estimate
    std::string_view source;  // where the figure was measured
};

inline constexpr FrameworkReserveFigure kDefaultFrameworkReserve[] = {
    // The CUDA context with the framework's kernels: 1,343 MiB occupied after one tiny tensor is
    // moved to a V100 ("1-2GB" in the text), 1,343 x 2^20 B = 1.41 GB.
    {FrameworkReservePart::CudaContext, 1'400'000'000,
     "Hugging Face Transformers docs, 'Model training anatomy' (torch.ones((1, 1)).to(\"cuda\"): 1,343 MiB)"},
    // One NCCL communicator: 688 MB per process group of 3-4 A100s over NVLink (544 MB for 2 GPUs),
    // its per-channel buffers (NCCL_BUFFSIZE, 4 MiB by default, per channel, peer and protocol);
    // every further communicator adds its own unless created with shared resources (NCCL maintainers).
    {FrameworkReservePart::NcclBuffers, 700'000'000,
     "NVIDIA/nccl issue #964 (688 MB per communicator, 4x A100 NVLink); NCCL docs, NCCL_BUFFSIZE; nccl #864"},
    // The caching allocator's reserved-but-unallocated memory of a Llama 3.3 70B filling an 80 GB
    // GPU: 1.83 GiB = 1.97 GB in PyTorch's out-of-memory report. Runs with recomputation or
    // offloading fragment more (GMLake, Guo et al. ASPLOS 2024: 9.2 GB on average on A100-80GB).
    {FrameworkReservePart::AllocatorFragmentation, 2'000'000'000,
     "PyTorch out-of-memory report quoted in vllm-project/compressed-tensors PR #587 (1.83 GiB reserved but unallocated)"},
};

constexpr std::int64_t defaultFrameworkReserveSum()
{
    std::int64_t sum = 0;
    for (const FrameworkReserveFigure &figure : kDefaultFrameworkReserve)
        sum += figure.bytes;
    return sum;
}

// 4.1 GB per GPU. vLLM's default gpu_memory_utilization of 0.9 leaves 8 GB of an 80 GB GPU outside
// its budget, which already holds the CUDA context and NCCL: the default is no larger than practice.
inline constexpr std::int64_t kDefaultFrameworkReserveBytes = defaultFrameworkReserveSum();

std::string_view toString(FrameworkReservePart part);  // "cuda_context", "nccl_buffers", "allocator_fragmentation"

}  // namespace lse
