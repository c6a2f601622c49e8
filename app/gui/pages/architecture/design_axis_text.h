// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "architecture/design_choices.h"

#include <QCoreApplication>
#include <QString>

namespace lse::gui {

// The translated words of the "Choice by choice" tab: the name of each design axis, what it trades
// and where it comes from, and a short label for each variant of an axis.
class DesignAxisText {
    Q_DECLARE_TR_FUNCTIONS(lse::gui::DesignAxisText)
public:
    static QString name(DesignAxis axis);
    // A paragraph (HTML) on what the choice changes and why models made it, ending with the source.
    static QString explanation(DesignAxis axis);
    // The value of `axis` in `model`, e.g. "RMSNorm", "SwiGLU, d_ff 11,008", "GQA, 8 KV heads".
    static QString variantLabel(DesignAxis axis, const ModelConfig &model);
};

}  // namespace lse::gui
