// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPointer>
#include <QRect>
#include <QWidget>

#include <functional>

namespace lse::gui {

// A transparent layer over its parent (the main window) that dims an area except the lesson's
// target and outlines the target, and draws a big pointer at the mouse for projectors. It never
// takes mouse input. The rectangles come from a function asked again whenever a watched widget
// is resized, moved, shown or laid out, so the highlight follows the window and the page.
class LessonOverlay : public QWidget {
    Q_OBJECT
public:
    explicit LessonOverlay(QWidget *parent);

    struct Areas {
        QRect dim;     // the area dimmed around the target, in overlay coordinates
        QRect target;  // the target, in overlay coordinates; null: nothing dimmed or outlined
    };
    void setAreaSource(std::function<Areas()> source);
    // Widgets whose geometry changes move the target (the page, its charts); a scroll area's
    // scrolling moves it too.
    void watch(QWidget *widget);
    void unwatchAll();
    // Asks the source again now (and once more after pending layouts have run).
    void refresh();

    QRect targetRect() const { return areas_.target; }
    QRect dimRect() const { return areas_.dim; }
    // The target's outline as drawn: the target with a margin so it does not cover the target.
    QRect outlineRect() const;

    void setPointerVisible(bool visible);
    bool pointerVisible() const { return pointer_visible_; }
    // The mouse position in global coordinates; the pointer is drawn there.
    void setPointerPosition(const QPoint &global_position);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;

private:
    void scheduleRefresh();
    void followParent();

    std::function<Areas()> source_;
    Areas areas_;
    QList<QPointer<QWidget>> watched_;
    QList<QMetaObject::Connection> scroll_connections_;
    bool refresh_scheduled_ = false;
    bool pointer_visible_ = false;
    QPoint pointer_;  // overlay coordinates
};

}  // namespace lse::gui
