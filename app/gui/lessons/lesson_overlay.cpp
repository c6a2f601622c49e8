// SPDX-License-Identifier: GPL-3.0-or-later
#include "lessons/lesson_overlay.h"

#include <QAbstractScrollArea>
#include <QEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QTimer>

namespace lse::gui {

namespace {

constexpr int kOutlineMargin = 4;      // pixels between the target and its outline
constexpr double kOutlineWidth = 4.0;  // thick enough to see on a projector
constexpr int kDimAlpha = 110;         // of 255: the rest stays readable, the target stands out
constexpr int kPointerRadius = 36;     // pixels: the ring of the big pointer

QColor outlineColour() { return QColor(255, 140, 0); }  // orange reads on light, dark and high contrast

}  // namespace

LessonOverlay::LessonOverlay(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("lessonOverlay"));
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    setFocusPolicy(Qt::NoFocus);
    parent->installEventFilter(this);
    followParent();
}

void LessonOverlay::setAreaSource(std::function<Areas()> source)
{
    source_ = std::move(source);
    refresh();
}

void LessonOverlay::watch(QWidget *widget)
{
    if (!widget)
        return;
    widget->installEventFilter(this);
    watched_.append(widget);
    if (auto *area = qobject_cast<QAbstractScrollArea *>(widget))
        for (QScrollBar *bar : {area->horizontalScrollBar(), area->verticalScrollBar()})
            scroll_connections_.append(connect(bar, &QScrollBar::valueChanged, this, &LessonOverlay::scheduleRefresh));
}

void LessonOverlay::unwatchAll()
{
    for (const QPointer<QWidget> &widget : std::as_const(watched_))
        if (widget)
            widget->removeEventFilter(this);
    watched_.clear();
    for (const QMetaObject::Connection &connection : std::as_const(scroll_connections_))
        disconnect(connection);
    scroll_connections_.clear();
}

void LessonOverlay::refresh()
{
    followParent();
    areas_ = source_ ? source_() : Areas{};
    update();
    // A page just selected or resized lays out after this event: ask again once it has.
    scheduleRefresh();
}

void LessonOverlay::scheduleRefresh()
{
    if (refresh_scheduled_)
        return;
    refresh_scheduled_ = true;
    QTimer::singleShot(0, this, [this] {
        refresh_scheduled_ = false;
        followParent();
        const Areas areas = source_ ? source_() : Areas{};
        if (areas.dim != areas_.dim || areas.target != areas_.target) {
            areas_ = areas;
            update();
        }
    });
}

void LessonOverlay::followParent()
{
    if (parentWidget() && geometry() != parentWidget()->rect())
        setGeometry(parentWidget()->rect());
    raise();
}

QRect LessonOverlay::outlineRect() const
{
    if (areas_.target.isNull())
        return {};
    return areas_.target.adjusted(-kOutlineMargin, -kOutlineMargin, kOutlineMargin, kOutlineMargin);
}

void LessonOverlay::setPointerVisible(bool visible)
{
    pointer_visible_ = visible;
    update();
}

void LessonOverlay::setPointerPosition(const QPoint &global_position)
{
    const QPoint position = mapFromGlobal(global_position);
    if (position == pointer_)
        return;
    pointer_ = position;
    if (pointer_visible_)
        update();
}

bool LessonOverlay::eventFilter(QObject *watched, QEvent *event)
{
    switch (event->type()) {
    case QEvent::Resize:
    case QEvent::Move:
    case QEvent::Show:
    case QEvent::Hide:
    case QEvent::LayoutRequest:
        if (watched == parentWidget())
            followParent();
        scheduleRefresh();
        break;
    default: break;
    }
    return QWidget::eventFilter(watched, event);
}

void LessonOverlay::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    if (!areas_.target.isNull()) {
        QPainterPath dim;
        dim.addRect(areas_.dim);
        QPainterPath hole;
        hole.addRect(outlineRect());
        painter.fillPath(dim.subtracted(hole), QColor(0, 0, 0, kDimAlpha));
        painter.setPen(QPen(outlineColour(), kOutlineWidth));
        painter.setBrush(Qt::NoBrush);
        painter.drawRoundedRect(QRectF(outlineRect()), 6, 6);
    }
    if (pointer_visible_) {
        // A ring with a dot: visible on any background, and it does not hide what it points at.
        painter.setPen(QPen(QColor(255, 255, 255, 220), kOutlineWidth + 4));
        painter.setBrush(Qt::NoBrush);
        painter.drawEllipse(QPointF(pointer_), kPointerRadius, kPointerRadius);
        painter.setPen(QPen(QColor(220, 30, 30), kOutlineWidth + 1));
        painter.drawEllipse(QPointF(pointer_), kPointerRadius, kPointerRadius);
        painter.setBrush(QColor(220, 30, 30));
        painter.drawEllipse(QPointF(pointer_), 6, 6);
    }
}

}  // namespace lse::gui
