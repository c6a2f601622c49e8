// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/kernels/kernels_page.h"

#include "pages/kernels/flash_attention_section.h"
#include "pages/kernels/fusion_section.h"
#include "pages/kernels/gemm_waves_section.h"

namespace lse::gui {

KernelsPage::KernelsPage(QWidget *parent)
    : SectionedPage(parent)
{
    // Sections, in tab order (each adds one line here):
    addSection(new FlashAttentionSection(this));
    addSection(new GemmWavesSection(this));
    addSection(new FusionSection(this));
}

QString KernelsPage::pageId()
{
    return QStringLiteral("kernels");
}

QString KernelsPage::pageTitle()
{
    return tr("Inside the GPU");
}

}  // namespace lse::gui
