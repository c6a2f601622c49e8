// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPalette>

namespace lse::gui {

// Palettes for the Fusion style. High contrast is the projector palette of presentation mode:
// pure black on white, strong selection colours, no mid-grey text.
QPalette lightPalette();
QPalette darkPalette();
QPalette highContrastPalette();

}  // namespace lse::gui
