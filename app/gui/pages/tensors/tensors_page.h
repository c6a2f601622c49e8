// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pages/sectioned_page.h"

namespace lse::gui {

// Shape, strides and storage: which tensor operations are views and which copy, and why it matters (issue 16).
class TensorsPage : public SectionedPage {
    Q_OBJECT
public:
    explicit TensorsPage(QWidget *parent = nullptr);

    // The page's id and title before it exists (the navigator lists pages built on first show).
    static QString pageId();
    static QString pageTitle();
    QString id() const override { return pageId(); }
    QString title() const override { return pageTitle(); }
};

}  // namespace lse::gui
