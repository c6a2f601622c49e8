// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/framework_reserve.h"

namespace lse {

std::string_view toString(FrameworkReservePart part)
{
    switch (part) {
    case FrameworkReservePart::CudaContext:
        return "cuda_context";
    case FrameworkReservePart::NcclBuffers:
        return "nccl_buffers";
    case FrameworkReservePart::AllocatorFragmentation:
        return "allocator_fragmentation";
    }
    return "unknown";
}

}  // namespace lse
