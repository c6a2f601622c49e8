// SPDX-License-Identifier: GPL-3.0-or-later
#include "theme.h"

namespace lse::gui {

namespace {

// setColor(role, colour) sets every colour group, Disabled included, so a palette that sets its
// text colours must set the disabled ones afterwards, or disabled controls look enabled.
void setDisabledText(QPalette &palette, const QColor &color)
{
    for (QPalette::ColorRole role : {QPalette::Text, QPalette::WindowText, QPalette::ButtonText})
        palette.setColor(QPalette::Disabled, role, color);
}

}  // namespace

QPalette lightPalette()
{
    QPalette palette(QColor(0xf4, 0xf5, 0xf7));
    palette.setColor(QPalette::Base, Qt::white);
    palette.setColor(QPalette::AlternateBase, QColor(0xee, 0xf0, 0xf3));
    palette.setColor(QPalette::Text, QColor(0x1d, 0x1f, 0x23));
    palette.setColor(QPalette::WindowText, QColor(0x1d, 0x1f, 0x23));
    palette.setColor(QPalette::ButtonText, QColor(0x1d, 0x1f, 0x23));
    palette.setColor(QPalette::Highlight, QColor(0x00, 0x72, 0xb2));
    palette.setColor(QPalette::HighlightedText, Qt::white);
    palette.setColor(QPalette::ToolTipBase, QColor(0xff, 0xff, 0xf0));
    palette.setColor(QPalette::ToolTipText, Qt::black);
    palette.setColor(QPalette::PlaceholderText, QColor(0x70, 0x74, 0x7a));
    setDisabledText(palette, QColor(0x9a, 0x9d, 0xa3));
    return palette;
}

QPalette darkPalette()
{
    QPalette palette(QColor(0x2b, 0x2d, 0x31));
    const QColor text(0xe8, 0xe9, 0xeb);
    palette.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x31));
    palette.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
    palette.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2c));
    palette.setColor(QPalette::Button, QColor(0x35, 0x38, 0x3d));
    palette.setColor(QPalette::Text, text);
    palette.setColor(QPalette::WindowText, text);
    palette.setColor(QPalette::ButtonText, text);
    palette.setColor(QPalette::BrightText, Qt::white);
    palette.setColor(QPalette::Highlight, QColor(0x56, 0xb4, 0xe9));
    palette.setColor(QPalette::HighlightedText, Qt::black);
    palette.setColor(QPalette::ToolTipBase, QColor(0x35, 0x38, 0x3d));
    palette.setColor(QPalette::ToolTipText, text);
    palette.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9d, 0xa3));
    palette.setColor(QPalette::Link, QColor(0x56, 0xb4, 0xe9));
    setDisabledText(palette, QColor(0x80, 0x80, 0x80));
    return palette;
}

QPalette highContrastPalette()
{
    QPalette palette(Qt::white);
    for (QPalette::ColorRole role : {QPalette::Window, QPalette::Base, QPalette::AlternateBase, QPalette::Button,
                                     QPalette::ToolTipBase})
        palette.setColor(role, Qt::white);
    for (QPalette::ColorRole role : {QPalette::Text, QPalette::WindowText, QPalette::ButtonText,
                                     QPalette::ToolTipText, QPalette::PlaceholderText})
        palette.setColor(role, Qt::black);
    palette.setColor(QPalette::Highlight, QColor(0x00, 0x00, 0xb0));
    palette.setColor(QPalette::HighlightedText, Qt::white);
    palette.setColor(QPalette::Link, QColor(0x00, 0x00, 0xb0));
    // Disabled controls still need to look disabled on a projector: dark grey, 5:1 on white.
    setDisabledText(palette, QColor(0x6e, 0x6e, 0x6e));
    return palette;
}

QFont withFallbackFamilies(QFont font, const QString &language)
{
    QStringList families{font.family()};
    if (language.startsWith(QLatin1String("zh")))
        families << QStringLiteral("Noto Sans CJK SC");
    font.setFamilies(families);
    return font;
}

}  // namespace lse::gui
