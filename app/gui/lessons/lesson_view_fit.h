// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFont>
#include <QList>
#include <QPointer>
#include <QWidget>

class QScrollArea;
class QTableView;

namespace lse::gui {

class ChartView;

// Brings what a lesson step shows (its highlight target and the region its animation plays in)
// into view together on a page that scrolls: on the tab it sits on, scrolled so all of it shows,
// and, when it is taller than the page's view (a projector's 1024x768 in presentation mode), with
// the charts and scrolling lists among it made lower until it fits. restore() gives them back
// their heights (the next step, the end of the lesson, another presentation mode).
class LessonViewFit : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    // `regions` are widgets of one page (or of the scenario editor); the first decides the tabs and
    // the scroll area. Nothing happens for an empty list.
    void fit(const QList<QWidget *> &regions);
    void restore();

    // The lowest a chart (its toolbar, title, axes and legend around a plot still readable from the
    // back of a room) or a scrolling list is made.
    static constexpr int kChartFloorPx = 280;
    static constexpr int kListFloorPx = 150;
    // The smallest a table's text is set to fit its columns in, of its own size: still larger than
    // the interface's text outside presentation mode (presentation mode sets it 1.5 times larger).
    static constexpr double kSmallestTableScale = 0.7;

protected:
    // A region or the page's content laid out anew (a label wrapped at another width, a table
    // refilled) is scrolled into view again.
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void zoomToWidth(QTableView *view);
    void scrollIntoView();

    QList<QPointer<QWidget>> regions_;
    QPointer<class QScrollArea> scroll_;
    bool scroll_scheduled_ = false;
    bool refit_scheduled_ = false;
    int fitted_view_height_ = 0;  // the view's height the last fit made room for
    bool zooming_ = false;  // the font changes of zoomToWidth move the scroll range themselves
    QList<QMetaObject::Connection> connections_;
    QList<QPointer<QWidget>> shown_;  // regions the page had hidden, shown for the step

    struct Saved {
        QPointer<QWidget> widget;
        int minimum_height = 0;
        int maximum_height = 0;
        Qt::Alignment alignment;  // of its layout item
    };
    QList<Saved> saved_;
    QList<QPointer<ChartView>> folded_formulas_;  // charts whose formula panel was folded to fit
    QList<QPointer<ChartView>> normal_size_charts_;  // charts set out of presentation mode's text size
    struct Zoomed {
        QPointer<QWidget> view;
        bool had_font = false;  // a font of its own, not the inherited one
        QFont font;
    };
    QList<Zoomed> zoomed_;  // tables set in a smaller font so their columns fit their width
};

}  // namespace lse::gui
