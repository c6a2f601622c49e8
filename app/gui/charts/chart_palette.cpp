// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/chart_palette.h"

#include <array>

namespace lse::gui {

namespace {

// Okabe & Ito (2008), "Color Universal Design". Black is replaced by the palette's text colour
// (appended by chartSeriesColor) so the last entry works on dark themes too.
constexpr std::array<QRgb, 7> kLightOrder = {
    0x0072B2,  // blue
    0xE69F00,  // orange
    0x009E73,  // bluish green
    0xD55E00,  // vermillion
    0xCC79A7,  // reddish purple
    0x56B4E9,  // sky blue
    0xF0E442,  // yellow: last, it is weak on white
};
constexpr std::array<QRgb, 7> kDarkOrder = {
    0x56B4E9,  // sky blue
    0xE69F00,  // orange
    0x009E73,  // bluish green
    0xF0E442,  // yellow
    0xCC79A7,  // reddish purple
    0xD55E00,  // vermillion
    0x3A9AD9,  // blue, lightened: the original is weak on dark grey
};

}  // namespace

bool isDarkPalette(const QPalette &palette) {
    return palette.color(QPalette::Base).lightnessF() < 0.5;
}

QColor chartSeriesColor(int index, const QPalette &palette) {
    const auto &order = isDarkPalette(palette) ? kDarkOrder : kLightOrder;
    const int n = static_cast<int>(order.size()) + 1;
    const int i = ((index % n) + n) % n;
    if (i == n - 1)
        return palette.color(QPalette::Text);
    return QColor::fromRgb(order[static_cast<std::size_t>(i)]);
}

QColor chartReferenceColor(const QPalette &palette) {
    return isDarkPalette(palette) ? QColor::fromRgb(0xFF7F50) : QColor::fromRgb(0xD55E00);
}

QColor blendColors(const QColor &from, const QColor &to, double t) {
    const QColor a = from.toRgb();
    const QColor b = to.toRgb();
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * t),
                            static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * t),
                            static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * t),
                            static_cast<float>(a.alphaF() + (b.alphaF() - a.alphaF()) * t));
}

}  // namespace lse::gui
