// SPDX-License-Identifier: GPL-3.0-or-later
#include "editor/field_error_frame.h"

#include <QEvent>
#include <QPainter>

namespace lse::gui {

namespace {

const QColor kErrorRed(0xd6, 0x27, 0x28);  // the charts' red (Tableau 10), readable on light and dark
constexpr int kFrameWidth = 2;

}  // namespace

FieldErrorFrame::FieldErrorFrame(QWidget *field) : QWidget(field)
{
    setObjectName(QStringLiteral("fieldErrorFrame"));
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    setFocusPolicy(Qt::NoFocus);
    setGeometry(field->rect());
    field->installEventFilter(this);
}

void FieldErrorFrame::mark(QWidget *field, bool invalid)
{
    field->setProperty("invalid", invalid);
    auto *frame = field->findChild<FieldErrorFrame *>(QString(), Qt::FindDirectChildrenOnly);
    if (!frame && !invalid)
        return;
    if (!frame)
        frame = new FieldErrorFrame(field);
    frame->setVisible(invalid);
    if (invalid)
        frame->raise();
}

bool FieldErrorFrame::isMarked(const QWidget *field)
{
    const auto *frame = field->findChild<FieldErrorFrame *>(QString(), Qt::FindDirectChildrenOnly);
    return frame && !frame->isHidden();
}

bool FieldErrorFrame::eventFilter(QObject *watched, QEvent *event)
{
    // Follow the field's size (font and presentation changes resize it).
    if (watched == parent() && event->type() == QEvent::Resize)
        setGeometry(parentWidget()->rect());
    return QWidget::eventFilter(watched, event);
}

void FieldErrorFrame::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    QPen pen(kErrorRed, kFrameWidth);
    pen.setJoinStyle(Qt::MiterJoin);
    painter.setPen(pen);
    painter.setBrush(Qt::NoBrush);
    const qreal inset = kFrameWidth / 2.0;
    painter.drawRect(QRectF(rect()).adjusted(inset, inset, -inset, -inset));
}

}  // namespace lse::gui
