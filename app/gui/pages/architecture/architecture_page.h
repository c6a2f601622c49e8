// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pages/sectioned_page.h"

namespace lse::gui {

// Why modern LLMs look the way they do (issue 15): the model atlas, the design choices one by one
// against the scenario, and ablations trained on this CPU.
class ArchitecturePage : public SectionedPage {
    Q_OBJECT
public:
    explicit ArchitecturePage(QWidget *parent = nullptr);

    // The page's id and title before it exists (the navigator lists pages built on first show).
    static QString pageId();
    static QString pageTitle();
    QString id() const override { return pageId(); }
    QString title() const override { return pageTitle(); }
};

}  // namespace lse::gui
