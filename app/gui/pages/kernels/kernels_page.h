// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pages/sectioned_page.h"

namespace lse::gui {

// Inside the GPU (issue 32): how a kernel uses one GPU's memory levels and SMs. FlashAttention's
// tiles between HBM and SRAM, step by step, with their HBM traffic and roofline.
class KernelsPage : public SectionedPage {
    Q_OBJECT
public:
    explicit KernelsPage(QWidget *parent = nullptr);

    // The page's id and title before it exists (the navigator lists pages built on first show).
    static QString pageId();
    static QString pageTitle();
    QString id() const override { return pageId(); }
    QString title() const override { return pageTitle(); }
};

}  // namespace lse::gui
