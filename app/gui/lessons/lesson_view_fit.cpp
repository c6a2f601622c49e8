// SPDX-License-Identifier: GPL-3.0-or-later
#include "lessons/lesson_view_fit.h"

#include "charts/chart_view.h"

#include <QAbstractScrollArea>
#include <QCoreApplication>
#include <QHeaderView>
#include <QLayout>
#include <QTableView>
#include <QTimer>
#include <QScrollArea>
#include <QScrollBar>
#include <QTabWidget>

#include <algorithm>
#include <climits>
#include <map>

namespace lse::gui {

namespace {

// Pixels kept free above and below what is shown, so an outline drawn around it is not cut.
constexpr int kMarginPx = 8;

void layOut()
{
    // Laid out first, or the scroll area does not yet know where the widgets are.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
}

// The tab of every tab widget around `widget` (the editor's Model / Cluster / Training tabs).
void showTabsOf(QWidget *widget)
{
    for (QWidget *parent = widget->parentWidget(); parent; parent = parent->parentWidget())
        if (auto *tabs = qobject_cast<QTabWidget *>(parent))
            for (int i = 0; i < tabs->count(); ++i)
                if (tabs->widget(i) == widget || tabs->widget(i)->isAncestorOf(widget))
                    tabs->setCurrentIndex(i);
}

QScrollArea *scrollAreaOf(const QWidget *widget)
{
    for (QWidget *parent = widget->parentWidget(); parent; parent = parent->parentWidget())
        if (auto *scroll = qobject_cast<QScrollArea *>(parent); scroll && scroll->widget())
            return scroll;
    return nullptr;
}

QRect rectIn(const QWidget *content, const QWidget *widget)
{
    return QRect(widget->mapTo(content, QPoint(0, 0)), widget->size());
}

template <typename Regions>
QRect unionIn(const QWidget *content, const Regions &regions)
{
    QRect united;
    for (const QWidget *region : regions)
        if (region && region->isVisible() && content->isAncestorOf(region))
            united = united.united(rectIn(content, region));
    return united;
}

bool insideChart(const QWidget *widget)
{
    for (const QWidget *parent = widget->parentWidget(); parent; parent = parent->parentWidget())
        if (qobject_cast<const ChartView *>(parent))
            return true;
    return false;
}

// A chart keeps the minimum height it is given (it raises its own for a tall legend): set through
// ChartView's setMinimumHeight, not QWidget's.
void setHeights(QWidget *widget, int minimum, int maximum)
{
    if (auto *chart = qobject_cast<ChartView *>(widget))
        chart->setMinimumHeight(minimum);
    else
        widget->setMinimumHeight(minimum);
    widget->setMaximumHeight(maximum);
}

// The layout item that holds `widget`, searched through nested layouts.
QLayoutItem *layoutItemOf(QLayout *layout, const QWidget *widget)
{
    if (!layout)
        return nullptr;
    for (int i = 0; i < layout->count(); ++i) {
        QLayoutItem *item = layout->itemAt(i);
        if (item->widget() == widget)
            return item;
        if (QLayoutItem *inner = layoutItemOf(item->layout(), widget))
            return inner;
    }
    return nullptr;
}

QLayoutItem *layoutItemOf(const QWidget *widget)
{
    return widget->parentWidget() ? layoutItemOf(widget->parentWidget()->layout(), widget) : nullptr;
}

// The lowest `widget` may become (never below what its own layout needs), or its height when it
// may not shrink.
int floorOf(const QWidget *widget)
{
    const int floor = qobject_cast<const ChartView *>(widget) ? LessonViewFit::kChartFloorPx : LessonViewFit::kListFloorPx;
    return std::min(widget->height(), std::max(floor, widget->minimumSizeHint().height()));
}

}  // namespace

void LessonViewFit::fit(const QList<QWidget *> &regions)
{
    if (regions.isEmpty() || !regions.first())
        return;
    for (QWidget *region : regions)
        if (region) {
            showTabsOf(region);
            // A page may leave a paragraph out in presentation mode; a step that points at it
            // shows it.
            if (region->isHidden() && region->parentWidget() && region->parentWidget()->isVisible()) {
                region->show();
                shown_.append(region);
            }
        }
    layOut();
    // A table whose columns run past its width (a projector's few pixels) is set smaller.
    for (QWidget *region : regions)
        if (auto *view = qobject_cast<QTableView *>(region)) {
            zoomToWidth(view);
            // Refilled later (a page's results arrive): set smaller again if its columns grew.
            connections_ << connect(view->horizontalScrollBar(), &QScrollBar::rangeChanged, this, [this, view](int, int maximum) {
                if (maximum > 0 && !zooming_)
                    QTimer::singleShot(0, this, [this, view = QPointer<QTableView>(view)] {
                        if (view)
                            zoomToWidth(view);
                    });
            });
        }
    QScrollArea *scroll = scrollAreaOf(regions.first());
    if (!scroll)
        return;
    QWidget *content = scroll->widget();
    const int view_height = scroll->viewport()->height();
    QRect shown = unionIn(content, regions);
    if (shown.isEmpty())
        return;

    // Taller than the view: the charts and lists lying within it become lower. Side by side ones
    // share their rows, so each row gives up the same height.
    // The charts' formula panels fold first (the "ƒ Formula" button opens them again).
    if (shown.height() + 2 * kMarginPx > view_height) {
        for (ChartView *chart : content->findChildren<ChartView *>()) {
            const QRect rect = rectIn(content, chart);
            if (chart->isVisible() && chart->formulaVisible() && rect.top() >= shown.top() && rect.bottom() <= shown.bottom()) {
                chart->setFormulaVisible(false);
                folded_formulas_ << chart;
            }
        }
        layOut();
        shown = unionIn(content, regions);
    }
    // Still too tall: those charts drop presentation mode's extra text size (the rest of the
    // window keeps it), so their titles, legends and axes take less of the height.
    if (shown.height() + 2 * kMarginPx > view_height) {
        for (ChartView *chart : content->findChildren<ChartView *>()) {
            const QRect rect = rectIn(content, chart);
            if (chart->isVisible() && chart->presentation() && rect.top() >= shown.top() && rect.bottom() <= shown.bottom()) {
                chart->setPresentation(false);
                normal_size_charts_ << chart;
            }
        }
        layOut();
        shown = unionIn(content, regions);
    }
    const int overflow = shown.height() + 2 * kMarginPx - view_height;
    if (overflow > 0) {
        std::map<int, QList<QWidget *>> rows;  // by top edge in the content
        QList<QWidget *> candidates;
        for (ChartView *chart : content->findChildren<ChartView *>())
            candidates << chart;
        for (QAbstractScrollArea *area : content->findChildren<QAbstractScrollArea *>())
            if (!qobject_cast<QScrollArea *>(area) && !insideChart(area))
                candidates << area;
        for (QWidget *widget : candidates) {
            if (!widget->isVisible())
                continue;
            const QRect rect = rectIn(content, widget);
            if (rect.top() >= shown.top() && rect.bottom() <= shown.bottom() && floorOf(widget) < widget->height())
                rows[rect.top()] << widget;
        }
        int shrinkable = 0;
        std::map<int, int> row_shrinkable;
        for (const auto &[top, widgets] : rows) {
            int least = INT_MAX;
            for (const QWidget *widget : widgets)
                least = std::min(least, widget->height() - floorOf(widget));
            row_shrinkable[top] = least;
            shrinkable += least;
        }
        if (shrinkable > 0) {
            for (const auto &[top, widgets] : rows) {
                const int cut = std::min(row_shrinkable[top],
                                         int((long long)(overflow) * row_shrinkable[top] / shrinkable) + 1);
                for (QWidget *widget : widgets) {
                    // At the top of the room its layout gives it, not centred in it.
                    QLayoutItem *item = layoutItemOf(widget);
                    saved_.append({widget, widget->minimumHeight(), widget->maximumHeight(),
                                   item ? item->alignment() : Qt::Alignment()});
                    const int height = widget->height() - cut;
                    setHeights(widget, height, height);
                    if (item) {
                        item->setAlignment((item->alignment() & ~Qt::AlignVertical_Mask) | Qt::AlignTop);
                        if (widget->parentWidget()->layout())
                            widget->parentWidget()->layout()->invalidate();
                    }
                }
            }
            layOut();
            shown = unionIn(content, regions);
        }
    }

    regions_.clear();
    for (QWidget *region : regions)
        if (region) {
            regions_ << region;
            region->installEventFilter(this);
        }
    scroll_ = scroll;
    fitted_view_height_ = view_height;
    scroll->installEventFilter(this);
    content->installEventFilter(this);
    scroll->viewport()->installEventFilter(this);  // the lesson bar grows with a revealed answer
    scrollIntoView();
}

void LessonViewFit::scrollIntoView()
{
    scroll_scheduled_ = false;
    if (!scroll_ || !scroll_->widget())
        return;
    const QRect shown = unionIn(scroll_->widget(), regions_);
    if (shown.isEmpty())
        return;
    // Scrolled the least that shows all of it; a part taller than the view starts at its top.
    const int view_height = scroll_->viewport()->height();
    QScrollBar *bar = scroll_->verticalScrollBar();
    if (shown.height() + 2 * kMarginPx > view_height || shown.top() - kMarginPx < bar->value())
        bar->setValue(shown.top() - kMarginPx);
    else if (shown.bottom() + kMarginPx > bar->value() + view_height)
        bar->setValue(shown.bottom() + kMarginPx - view_height);
}

bool LessonViewFit::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::Resize)
        return QObject::eventFilter(watched, event);
    // A lower view (the lesson bar grew with a revealed answer) may need lower charts: fitted
    // anew; anything else laid out anew is only scrolled to again.
    const bool view_resized = scroll_ && scroll_->viewport()->height() != fitted_view_height_;
    if (view_resized && !refit_scheduled_) {
        refit_scheduled_ = true;
        QTimer::singleShot(0, this, [this] {
            refit_scheduled_ = false;
            QList<QWidget *> regions;
            for (const QPointer<QWidget> &region : std::as_const(regions_))
                if (region)
                    regions << region;
            restore();
            fit(regions);
        });
    } else if (!scroll_scheduled_) {
        scroll_scheduled_ = true;
        QTimer::singleShot(0, this, &LessonViewFit::scrollIntoView);
    }
    return QObject::eventFilter(watched, event);
}

void LessonViewFit::zoomToWidth(QTableView *view)
{
    const auto fits = [view] {
        view->horizontalHeader()->resizeSections(QHeaderView::ResizeToContents);
        // With room for a vertical scroll bar, which more rows than fit would bring.
        return view->horizontalHeader()->length() <= view->viewport()->width() - view->verticalScrollBar()->sizeHint().width();
    };
    if (zooming_ || !view->isVisible() || fits())
        return;
    // Scaled from the font it had before the first zoom of this step.
    QFont original = view->font();
    const auto already = std::find_if(zoomed_.cbegin(), zoomed_.cend(), [view](const Zoomed &z) { return z.view == view; });
    if (already == zoomed_.cend())
        zoomed_.append({view, view->testAttribute(Qt::WA_SetFont), view->font()});
    else if (view->font().pointSizeF() <= already->font.pointSizeF() * (kSmallestTableScale + 0.01))
        return;  // as small as it gets
    else
        original = already->font;
    zooming_ = true;
    for (double scale = 0.95; scale >= kSmallestTableScale - 1e-9; scale -= 0.05) {
        QFont smaller = original;
        if (original.pointSizeF() > 0)
            smaller.setPointSizeF(original.pointSizeF() * scale);
        else
            smaller.setPixelSize(std::max(6, int(original.pixelSize() * scale)));
        view->setFont(smaller);
        layOut();
        if (fits())
            break;
    }
    zooming_ = false;
}

void LessonViewFit::restore()
{
    for (const QMetaObject::Connection &connection : std::as_const(connections_))
        disconnect(connection);
    connections_.clear();
    for (const QPointer<QWidget> &widget : std::as_const(shown_))
        if (widget)
            widget->hide();
    shown_.clear();
    for (const QPointer<QWidget> &region : std::as_const(regions_))
        if (region)
            region->removeEventFilter(this);
    if (scroll_ && scroll_->widget()) {
        scroll_->removeEventFilter(this);
        scroll_->widget()->removeEventFilter(this);
        scroll_->viewport()->removeEventFilter(this);
    }
    regions_.clear();
    scroll_.clear();
    // In reverse: a widget shrunk twice gets its first heights back.
    for (auto it = saved_.crbegin(); it != saved_.crend(); ++it)
        if (it->widget) {
            setHeights(it->widget, it->minimum_height, it->maximum_height);
            if (QLayoutItem *item = layoutItemOf(it->widget)) {
                item->setAlignment(it->alignment);
                it->widget->parentWidget()->layout()->invalidate();
            }
        }
    saved_.clear();
    for (auto it = zoomed_.crbegin(); it != zoomed_.crend(); ++it)
        if (it->view)
            it->view->setFont(it->had_font ? it->font : QFont());
    zoomed_.clear();
    for (const QPointer<ChartView> &chart : std::as_const(normal_size_charts_))
        if (chart)
            chart->setPresentation(true);
    normal_size_charts_.clear();
    for (const QPointer<ChartView> &chart : std::as_const(folded_formulas_))
        if (chart)
            chart->setFormulaVisible(true);
    folded_formulas_.clear();
}

}  // namespace lse::gui
