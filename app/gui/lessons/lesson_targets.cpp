// SPDX-License-Identifier: GPL-3.0-or-later
#include "lessons/lesson_targets.h"

#include "charts/chart_view.h"

#include <qcustomplot.h>

#include <QAbstractItemModel>
#include <QAbstractItemView>
#include <QCoreApplication>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <optional>

namespace lse::gui {

namespace {

// Half the side of the square drawn around a chart point, in pixels: large enough to see from
// the back of a room around a marker of default size.
constexpr int kPointHalfSide = 14;

// The tr() contexts of `widget` and its ancestors up to `page` (the page class, a section's class):
// where the texts a chart or table shows were translated.
QStringList translationContexts(const QWidget *page, const QWidget *widget)
{
    QStringList contexts;
    for (const QWidget *w = widget; w; w = w->parentWidget()) {
        contexts << QString::fromLatin1(w->metaObject()->className());
        if (w == page)
            break;
    }
    return contexts;
}

// Lessons name series and rows in English (the source language); in another language the widget
// shows the translation, which tr() in the widget's or page's class made.
bool sameText(const QString &shown, const QString &wanted, const QStringList &contexts)
{
    if (shown == wanted)
        return true;
    const QByteArray source = wanted.toUtf8();
    for (const QString &context : contexts)
        if (QCoreApplication::translate(context.toLatin1().constData(), source.constData()) == shown)
            return true;
    return false;
}

bool isRegionName(const QString &name)
{
    return !name.isEmpty() && !name.startsWith(QLatin1String("qt_"));
}

// The widget's rectangle in `page`'s coordinates, or null when it is not shown with the page.
QRect rectInPage(const QWidget *page, const QWidget *widget, const QRect &local)
{
    if (!widget->isVisibleTo(page) || local.isEmpty())
        return {};
    return QRect(widget->mapTo(page, local.topLeft()), local.size());
}

QList<ChartView *> chartsOf(const QWidget *page)
{
    return page->findChildren<ChartView *>();
}

const QCPAbstractPlottable *plottableNamed(const ChartView *chart, const QString &name)
{
    QCustomPlot *plot = chart->plot();
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (plot->plottable(i)->name() == name)
            return plot->plottable(i);
    return nullptr;
}

// A plain number that names no series or row is its index from 0 ("memory-breakdown/2"): lesson
// authors may point at a series whose name depends on the scenario.
std::optional<int> indexTarget(const QString &text)
{
    bool ok = false;
    const int index = text.toInt(&ok);
    return ok && index >= 0 ? std::optional<int>(index) : std::nullopt;
}

const ChartSeries *seriesNamed(const ChartView *chart, const QString &name, const QStringList &contexts)
{
    const QVector<ChartSeries> &all = chart->data().series;
    QStringList withBuilder = contexts;
    if (!chart->data().translation_context.isEmpty())
        withBuilder << chart->data().translation_context;
    for (const ChartSeries &series : all)
        if (sameText(series.name, name, withBuilder))
            return &series;
    if (const std::optional<int> index = indexTarget(name); index && *index < all.size())
        return &all[*index];
    return nullptr;
}

// The plottable's data range in pixels of its plot, clipped to the axis rectangle.
QRect seriesPixelRect(const QCPAbstractPlottable *plottable)
{
    bool found_keys = false, found_values = false;
    const QCPRange keys = plottable->getKeyRange(found_keys);
    const QCPRange values = plottable->getValueRange(found_values);
    if (!found_keys || !found_values)
        return {};
    const QPointF a(plottable->keyAxis()->coordToPixel(keys.lower), plottable->valueAxis()->coordToPixel(values.lower));
    const QPointF b(plottable->keyAxis()->coordToPixel(keys.upper), plottable->valueAxis()->coordToPixel(values.upper));
    const QRect axis_rect = plottable->keyAxis()->axisRect()->rect();
    // A single point or a flat line has no area: give it the point's square.
    return QRectF(a, b).normalized().toAlignedRect().adjusted(-kPointHalfSide / 2, -kPointHalfSide / 2,
                                                               kPointHalfSide / 2, kPointHalfSide / 2)
        .intersected(axis_rect);
}

QRect pointPixelRect(const QCPAbstractPlottable *plottable, const ChartSeries &series, double y_scale, int index)
{
    if (index < 0 || index >= series.x.size() || index >= series.y.size())
        return {};
    const double x = series.x.at(index), y = series.y.at(index) * y_scale;
    if (!std::isfinite(x) || !std::isfinite(y))
        return {};
    const QPoint centre(int(plottable->keyAxis()->coordToPixel(x)), int(plottable->valueAxis()->coordToPixel(y)));
    const QRect square(centre - QPoint(kPointHalfSide, kPointHalfSide), QSize(2 * kPointHalfSide, 2 * kPointHalfSide));
    return plottable->keyAxis()->axisRect()->rect().intersects(square) ? square : QRect();
}

QRect chartTargetRect(const QWidget *page, HighlightKind kind, const QString &target)
{
    const QString chart_id = target.section(QLatin1Char('/'), 0, 0);
    // Series names may contain '/' themselves for ChartSeries; for ChartPoint the index is last.
    QString series_name = target.section(QLatin1Char('/'), 1);
    int index = -1;
    if (kind == HighlightKind::ChartPoint) {
        bool ok = false;
        index = target.section(QLatin1Char('/'), -1).toInt(&ok);
        if (!ok)
            return {};
        series_name = target.section(QLatin1Char('/'), 1, -2);
    }
    for (const ChartView *chart : chartsOf(page)) {
        if (chart->id() != chart_id)
            continue;
        const ChartSeries *series = seriesNamed(chart, series_name, translationContexts(page, chart));
        const QCPAbstractPlottable *plottable = series ? plottableNamed(chart, series->name) : nullptr;
        if (!series || !plottable)
            return {};
        const QRect pixels = kind == HighlightKind::ChartSeries
            ? seriesPixelRect(plottable)
            : pointPixelRect(plottable, *series, chart->data().y_display_scale, index);
        return rectInPage(page, chart->plot(), pixels);
    }
    return {};
}

QRect tableRowRect(const QWidget *page, const QString &target)
{
    const QString view_name = target.section(QLatin1Char('/'), 0, 0);
    const QString row_text = target.section(QLatin1Char('/'), 1);
    for (const QAbstractItemView *view : page->findChildren<QAbstractItemView *>()) {
        if (view->objectName() != view_name || !view->model())
            continue;
        const QAbstractItemModel *model = view->model();
        int wanted_row = -1;
        for (int row = 0; row < model->rowCount() && wanted_row < 0; ++row)
            if (sameText(model->index(row, 0).data(Qt::DisplayRole).toString(), row_text, translationContexts(page, view)))
                wanted_row = row;
        if (const std::optional<int> index = indexTarget(row_text); wanted_row < 0 && index && *index < model->rowCount())
            wanted_row = *index;
        if (wanted_row < 0)
            continue;
        const QModelIndex first = model->index(wanted_row, 0);
        const QModelIndex last = model->index(wanted_row, std::max(0, model->columnCount() - 1));
        const QRect visual = view->visualRect(first).united(view->visualRect(last));
        return rectInPage(page, view->viewport(), visual.intersected(view->viewport()->rect()));
    }
    return {};
}

}  // namespace

QStringList genericLessonTargets(const QWidget *page, HighlightKind kind)
{
    QStringList targets;
    switch (kind) {
    case HighlightKind::Region:
        for (const QWidget *widget : page->findChildren<QWidget *>())
            if (isRegionName(widget->objectName()))
                targets << widget->objectName();
        // A whole chart is a region too, named by its id (the export file stem).
        for (const ChartView *chart : chartsOf(page))
            targets << chart->id();
        break;
    case HighlightKind::ChartSeries:
    case HighlightKind::ChartPoint:
        for (const ChartView *chart : chartsOf(page))
            for (const ChartSeries &series : chart->data().series) {
                if (series.name.isEmpty())
                    continue;
                const QString name = chart->id() + QLatin1Char('/') + series.name;
                if (kind == HighlightKind::ChartSeries)
                    targets << name;
                else
                    for (qsizetype i = 0; i < series.x.size(); ++i)
                        targets << name + QLatin1Char('/') + QString::number(i);
            }
        break;
    case HighlightKind::TableRow:
        for (const QAbstractItemView *view : page->findChildren<QAbstractItemView *>()) {
            if (!isRegionName(view->objectName()) || !view->model())
                continue;
            for (int row = 0; row < view->model()->rowCount(); ++row)
                targets << view->objectName() + QLatin1Char('/')
                        + view->model()->index(row, 0).data(Qt::DisplayRole).toString();
        }
        break;
    case HighlightKind::Field: break;
    }
    targets.removeDuplicates();
    return targets;
}

QRect genericLessonTargetRect(const QWidget *page, HighlightKind kind, const QString &target)
{
    switch (kind) {
    case HighlightKind::Region:
        for (const QWidget *widget : page->findChildren<QWidget *>())
            if (isRegionName(widget->objectName()) && widget->objectName() == target) {
                const QRect rect = rectInPage(page, widget, widget->rect());
                if (!rect.isNull())
                    return rect;
            }
        for (const ChartView *chart : chartsOf(page))
            if (chart->id() == target)
                return rectInPage(page, chart, chart->rect());
        return {};
    case HighlightKind::ChartSeries:
    case HighlightKind::ChartPoint: return chartTargetRect(page, kind, target);
    case HighlightKind::TableRow: return tableRowRect(page, target);
    case HighlightKind::Field: return {};
    }
    return {};
}

QWidget *lessonTargetWidget(const QWidget *page, HighlightKind kind, const QString &target)
{
    const QString first = target.section(QLatin1Char('/'), 0, 0);
    switch (kind) {
    case HighlightKind::Region:
        for (QWidget *widget : page->findChildren<QWidget *>())
            if (isRegionName(widget->objectName()) && widget->objectName() == target)
                return widget;
        for (ChartView *chart : chartsOf(page))
            if (chart->id() == target)
                return chart;
        return nullptr;
    case HighlightKind::ChartSeries:
    case HighlightKind::ChartPoint:
        for (ChartView *chart : chartsOf(page))
            if (chart->id() == first)
                return chart;
        return nullptr;
    case HighlightKind::TableRow:
        for (QAbstractItemView *view : page->findChildren<QAbstractItemView *>())
            if (view->objectName() == first)
                return view;
        return nullptr;
    case HighlightKind::Field: return nullptr;
    }
    return nullptr;
}

}  // namespace lse::gui
