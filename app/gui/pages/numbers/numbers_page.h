// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pages/sectioned_page.h"

namespace lse::gui {

// Floating-point and integer formats, mixed-precision recipes, underflow and loss scaling (issue 16).
class NumbersPage : public SectionedPage {
    Q_OBJECT
public:
    explicit NumbersPage(QWidget *parent = nullptr);

    // The page's id and title before it exists (the navigator lists pages built on first show).
    static QString pageId();
    static QString pageTitle();
    QString id() const override { return pageId(); }
    QString title() const override { return pageTitle(); }
};

}  // namespace lse::gui
