// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QPalette>

namespace lse::gui {

// Colours shared by every chart. Series colours come from the Okabe–Ito set, which stays
// distinguishable under the common colour-vision deficiencies; the order differs on dark
// backgrounds so the first series always has good contrast against the plot background.
bool isDarkPalette(const QPalette &palette);
QColor chartSeriesColor(int index, const QPalette &palette);
QColor chartReferenceColor(const QPalette &palette);
// Linear mix in RGB: t = 0 gives `from`, t = 1 gives `to`.
QColor blendColors(const QColor &from, const QColor &to, double t);

}  // namespace lse::gui
