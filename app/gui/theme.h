// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFont>
#include <QPalette>
#include <QString>

namespace lse::gui {

// Palettes for the Fusion style. High contrast is the projector palette of presentation mode:
// pure black on white, strong selection colours, no mid-grey text.
QPalette lightPalette();
QPalette darkPalette();
QPalette highContrastPalette();

// `font` with the fallback families the UI text needs after its own family: the Simplified
// Chinese cut of Noto Sans CJK for zh_CN, so punctuation sits as Chinese readers expect whatever
// the system locale says. Emoji (🙂 in the Tokenization sample) come from fontconfig's fallback
// to Noto Color Emoji (dev.sh installs it); naming that font here would be wrong: it has glyphs
// for the space and the digits, and an explicit family list lets it draw them.
QFont withFallbackFamilies(QFont font, const QString &language);

}  // namespace lse::gui
