// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/framework_reserve_text.h"

#include "pages/page_format.h"
#include "scenario/framework_reserve.h"

#include <QCoreApplication>

namespace lse::gui {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("lse::gui", text); }

double partBytes(FrameworkReservePart part)
{
    for (const FrameworkReserveFigure &figure : kDefaultFrameworkReserve)
        if (figure.part == part)
            return double(figure.bytes);
    return 0;
}

}  // namespace

QString frameworkReserveExplanation(std::int64_t reserve_bytes)
{
    if (reserve_bytes != kDefaultFrameworkReserveBytes)
        return tr("Framework reserve (CUDA context, NCCL buffers, allocator fragmentation): an input; the default is %1")
            .arg(format::bytes(double(kDefaultFrameworkReserveBytes)));
    return tr("Framework reserve, the default: CUDA context %1 + NCCL buffers %2 + allocator fragmentation %3 (%4)")
        .arg(format::bytes(partBytes(FrameworkReservePart::CudaContext)),
             format::bytes(partBytes(FrameworkReservePart::NcclBuffers)),
             format::bytes(partBytes(FrameworkReservePart::AllocatorFragmentation)), frameworkReserveSources());
}

QString frameworkReserveSources()
{
    return tr("Hugging Face, “Model training anatomy”; NVIDIA/nccl #964; PyTorch’s out-of-memory report in "
              "vllm-project/compressed-tensors #587");
}

}  // namespace lse::gui
