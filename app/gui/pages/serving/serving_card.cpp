// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/serving/serving_card.h"

#include <QEvent>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>

namespace lse::gui {

namespace {
constexpr double kValueScale = 1.6;
constexpr double kCaptionScale = 0.95;

QFont scaled(QFont font, double factor, bool bold)
{
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * factor);
    else if (font.pixelSize() > 0)
        font.setPixelSize(std::max(1, qRound(font.pixelSize() * factor)));
    font.setBold(bold);
    return font;
}
}  // namespace

ServingCard::ServingCard(const QString &object_name, QWidget *parent) : QFrame(parent)
{
    setObjectName(object_name);
    setFrameShape(QFrame::StyledPanel);
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 10, 8);
    layout->setSpacing(2);
    caption_ = new QLabel(this);
    caption_->setWordWrap(true);
    value_ = new QLabel(this);
    value_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    value_->setObjectName(object_name + QStringLiteral(".value"));
    detail_ = new QLabel(this);
    detail_->setWordWrap(true);
    detail_->setTextFormat(Qt::PlainText);
    layout->addWidget(caption_);
    layout->addWidget(value_);
    layout->addWidget(detail_);
    layout->addStretch(1);
    applyFonts();
}

void ServingCard::set(const QString &caption, const QString &value, const QString &detail, const QString &tooltip)
{
    caption_->setText(caption);
    value_->setText(value);
    detail_->setText(detail);
    detail_->setVisible(!detail.isEmpty());
    setToolTip(tooltip);
    value_->setToolTip(tooltip);
}

QString ServingCard::value() const { return value_->text(); }

QString ServingCard::detail() const { return detail_->text(); }

void ServingCard::setWarning(bool warning)
{
    // The theme's own colours: a red that stays readable on light and dark bases.
    value_->setStyleSheet(warning ? QStringLiteral("color: #d62728;") : QString());
}

void ServingCard::changeEvent(QEvent *event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::ApplicationFontChange)
        applyFonts();
}

void ServingCard::applyFonts()
{
    const QFont caption = scaled(font(), kCaptionScale, false);
    caption_->setFont(caption);
    detail_->setFont(caption);
    value_->setFont(scaled(font(), kValueScale, true));
}

}  // namespace lse::gui
