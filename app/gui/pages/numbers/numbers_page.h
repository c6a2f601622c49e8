// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pages/sectioned_page.h"

namespace lse::gui {

// Floating-point and integer formats, mixed-precision recipes, underflow and loss scaling (issue 16).
class NumbersPage : public SectionedPage {
    Q_OBJECT
public:
    explicit NumbersPage(QWidget *parent = nullptr);

    QString id() const override;
    QString title() const override;
};

}  // namespace lse::gui
