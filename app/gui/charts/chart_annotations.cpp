// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/chart_annotations.h"

#include "charts/chart_palette.h"

#include <qcustomplot.h>

#include <QFontMetrics>
#include <QMarginsF>
#include <QTextLayout>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <vector>

namespace lse::gui {

namespace {

constexpr double kArrowHoverPixels = 6.0;

QFont scaled(QFont font, double factor)
{
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * factor);
    else if (font.pixelSize() > 0)
        font.setPixelSize(std::max(1, qRound(font.pixelSize() * factor)));
    return font;
}

// Black or white, whichever reads better on `fill` (WCAG relative luminance).
QColor textOn(const QColor &fill)
{
    const auto channel = [](double c) { return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
    const double luminance = 0.2126 * channel(fill.redF()) + 0.7152 * channel(fill.greenF())
        + 0.0722 * channel(fill.blueF());
    return luminance > 0.4 ? QColor(Qt::black) : QColor(Qt::white);
}

QString csvText(const QString &text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('"'), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString number(double value)
{
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

QString withoutTags(QString html)
{
    static const QRegularExpression tags(QStringLiteral("<[^>]*>"));
    return html.replace(tags, QStringLiteral(" ")).simplified();
}

// Adds an empty plottable so the legend shows `group` in `color`.
void addLegendEntry(QCustomPlot *plot, const QString &group, const QColor &color, bool line, double pens)
{
    if (line) {
        QCPGraph *graph = plot->addGraph();
        graph->setPen(QPen(color, 2.0 * pens));
        graph->setName(group);
    } else {
        auto *bars = new QCPBars(plot->xAxis, plot->yAxis);
        bars->setBrush(color);
        bars->setPen(QPen(color.darker(140), pens));
        bars->setName(group);
    }
}

// Where a point label may go relative to its point: up-right (the default), down-right, up-left,
// down-left, right, left.
enum class Vertical { Up, Down, Middle };
struct PointLabelSpot {
    Qt::Alignment alignment;
    bool right;
    Vertical vertical;
};
constexpr PointLabelSpot kPointLabelSpots[] = {
    {Qt::AlignLeft | Qt::AlignBottom, true, Vertical::Up},
    {Qt::AlignLeft | Qt::AlignTop, true, Vertical::Down},
    {Qt::AlignRight | Qt::AlignBottom, false, Vertical::Up},
    {Qt::AlignRight | Qt::AlignTop, false, Vertical::Down},
    {Qt::AlignLeft | Qt::AlignVCenter, true, Vertical::Middle},
    {Qt::AlignRight | Qt::AlignVCenter, false, Vertical::Middle},
};

// A reference-line label sits on its line: right end above it (the default), left end above it,
// right end below it, left end below it. x is an axis-rect ratio.
struct ReferenceLabelSpot {
    double x;
    Qt::Alignment alignment;
};
constexpr ReferenceLabelSpot kReferenceLabelSpots[] = {
    {0.99, Qt::AlignRight | Qt::AlignBottom},
    {0.01, Qt::AlignLeft | Qt::AlignBottom},
    {0.99, Qt::AlignRight | Qt::AlignTop},
    {0.01, Qt::AlignLeft | Qt::AlignTop},
    {0.5, Qt::AlignHCenter | Qt::AlignBottom},
    {0.5, Qt::AlignHCenter | Qt::AlignTop},
};

// Pixel squares around every plotted series point and, for lines, along the segments between them
// (a label across a line hides it as much as one on a point). Bars are excluded: see barRects().
QVector<QRectF> dataPointRects(const QCustomPlot *plot, const ChartData &data)
{
    constexpr double kHalf = 6.0;  // about a marker's radius
    constexpr double kSegmentStep = 8.0;  // pixels between samples along a line
    QVector<QRectF> points;
    const QRectF area = plot->axisRect()->rect();
    const auto add = [&](const QPointF &pixel) {
        if (area.contains(pixel))
            points.append(QRectF(pixel.x() - kHalf, pixel.y() - kHalf, 2 * kHalf, 2 * kHalf));
    };
    for (const ChartSeries &series : data.series) {
        if (series.kind == ChartSeries::Kind::Bar)
            continue;
        std::vector<std::pair<double, double>> sorted;
        const qsizetype n = std::min(series.x.size(), series.y.size());
        for (qsizetype i = 0; i < n; ++i) {
            const double x = series.x.at(i), y = series.y.at(i) * data.y_display_scale;
            if (std::isfinite(x) && std::isfinite(y) && (!data.log_x || x > 0) && (!data.log_y || y > 0))
                sorted.emplace_back(x, y);
        }
        std::sort(sorted.begin(), sorted.end());
        QPointF previous;
        for (std::size_t i = 0; i < sorted.size(); ++i) {
            const QPointF pixel(plot->xAxis->coordToPixel(sorted[i].first), plot->yAxis->coordToPixel(sorted[i].second));
            add(pixel);
            if (i > 0 && series.kind == ChartSeries::Kind::Line) {
                const QPointF step = pixel - previous;
                const int samples = std::min(400, int(std::hypot(step.x(), step.y()) / kSegmentStep));
                for (int k = 1; k < samples; ++k)
                    add(previous + step * (double(k) / samples));
            }
            previous = pixel;
        }
    }
    return points;
}

// Pixel rectangles of the bars: each key's column (all of its side-by-side groups) from the axis to
// the top of its tallest stack. A reference-line label should not lie across them.
QVector<QRectF> barRects(QCustomPlot *plot, const ChartData &data)
{
    double half_width = 0;  // pixels, of the whole column at a key
    int columns = 0;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        auto *bars = qobject_cast<QCPBars *>(plot->plottable(i));
        if (!bars || bars->barBelow())
            continue;
        ++columns;
        const double width = bars->width();
        half_width = bars->widthType() == QCPBars::wtAxisRectRatio
                         ? width * plot->axisRect()->width() / 2
                         : std::abs(plot->xAxis->coordToPixel(width / 2) - plot->xAxis->coordToPixel(0));
    }
    if (columns == 0)
        return {};
    half_width *= columns;
    // key -> the top of each stack group at it (unstacked bars are groups of their own).
    std::map<double, std::map<int, double>> tops;
    int unstacked = -1;
    for (const ChartSeries &series : data.series) {
        if (series.kind != ChartSeries::Kind::Bar)
            continue;
        const int group = series.stack_group >= 0 ? series.stack_group : unstacked--;
        const qsizetype n = std::min(series.x.size(), series.y.size());
        for (qsizetype i = 0; i < n; ++i) {
            const double y = series.y.at(i) * data.y_display_scale;
            if (std::isfinite(series.x.at(i)) && std::isfinite(y) && y > 0)
                tops[series.x.at(i)][group] += y;
        }
    }
    QVector<QRectF> rects;
    const double base = plot->yAxis->coordToPixel(data.log_y ? plot->yAxis->range().lower : 0.0);
    for (const auto &[key, groups] : tops) {
        double top = 0;
        for (const auto &[group, value] : groups)
            top = std::max(top, value);
        const double x = plot->xAxis->coordToPixel(key);
        const double y = plot->yAxis->coordToPixel(top);
        rects.append(QRectF(QPointF(x - half_width, std::min(y, base)), QPointF(x + half_width, std::max(y, base))));
    }
    return rects;
}

constexpr char kGapXProperty[] = "lse_point_label_gap_x";
constexpr char kGapYProperty[] = "lse_point_label_gap_y";

// How far a one-line label's layout box reaches beyond its ink on each side: a CJK fallback font
// makes the line taller than the glyphs, and a full-width bracket leaves half an em blank.
QMarginsF inkExcess(const QCPItemText *label)
{
    const QString text = label->text();
    if (text.isEmpty() || text.contains(QLatin1Char('\n')))
        return {};
    QTextLayout layout(text, label->font());
    layout.beginLayout();
    const QTextLine line = layout.createLine();
    layout.endLayout();
    if (!line.isValid())
        return {};
    const QRectF ink = QFontMetricsF(label->font()).tightBoundingRect(text);  // relative to the baseline
    const double width = line.naturalTextWidth();
    return QMarginsF(std::max(0.0, ink.left()), std::max(0.0, line.ascent() + ink.top()),
                     std::max(0.0, width - ink.right()), std::max(0.0, line.descent() - ink.bottom()));
}

bool intersectsAny(const QRectF &rect, const QVector<QRectF> &others)
{
    return std::any_of(others.begin(), others.end(), [&rect](const QRectF &other) { return rect.intersects(other); });
}

qsizetype coveredPoints(const QRectF &rect, const QVector<QRectF> &points)
{
    return std::count_if(points.begin(), points.end(), [&rect](const QRectF &point) { return rect.intersects(point); });
}

void avoidLabelCollisions(QCustomPlot *plot, const ChartData &data, const AnnotationItems &items)
{
    const QRectF area = plot->axisRect()->rect();
    QVector<QRectF> taken;
    // Texts and arrow labels stay where the data puts them; a later one that would cover an
    // earlier one is dropped.
    for (QCPItemText *label : items.text_labels) {
        label->setVisible(true);
        const QRectF rect = labelPixelRect(label);
        if (intersectsAny(rect, taken))
            label->setVisible(false);
        else
            taken.append(rect);
    }
    // Rectangle labels sit inside their own rectangle (fitted above).
    for (QCPItemText *label : items.rect_labels)
        if (label && label->visible())
            taken.append(labelPixelRect(label));

    // Reference-line labels: a spot on the line that covers no other label, preferring spots
    // inside the plot (an edge would clip it), then spots that lie across no bar, then spots that
    // cover few line points (the capacity label lay across the bars and was clipped in
    // presentation mode, issue 28 item 24).
    const QVector<QRectF> points = dataPointRects(plot, data);
    const QVector<QRectF> bars = barRects(plot, data);
    for (QCPItemText *label : items.reference_labels) {
        const auto placeAt = [label](const ReferenceLabelSpot &spot) {
            label->position->setCoords(spot.x, label->position->coords().y());
            label->setPositionAlignment(spot.alignment);
            return labelPixelRect(label);
        };
        const ReferenceLabelSpot *chosen = nullptr;
        std::tuple<bool, qsizetype, qsizetype> best;
        for (const ReferenceLabelSpot &spot : kReferenceLabelSpots) {
            const QRectF rect = placeAt(spot);
            if (intersectsAny(rect, taken))
                continue;
            const std::tuple<bool, qsizetype, qsizetype> cost{!area.contains(rect), coveredPoints(rect, bars),
                                                              coveredPoints(rect, points)};
            if (!chosen || cost < best) {
                chosen = &spot;
                best = cost;
            }
        }
        const QRectF rect = placeAt(chosen ? *chosen : kReferenceLabelSpots[0]);
        label->setVisible(chosen != nullptr);
        if (chosen)
            taken.append(rect);
        // When every spot lies across a bar (one wide bar over the line), the label gets a box in the
        // background colour: in the line's colour on a bar of a similar one it was unreadable.
        if (chosen && std::get<1>(best) > 0) {
            label->setBrush(plot->palette().color(QPalette::Base));
            label->setPen(QPen(label->color(), 1.0));
        } else {
            label->setBrush(Qt::NoBrush);
            label->setPen(Qt::NoPen);
        }
    }

    // Point labels: a spot that stays in the plot and covers no other label, preferring spots
    // that cover few data points.
    for (QCPItemText *label : items.point_labels) {
        // The gaps are kept on the label: the padding below changes with every placement.
        if (!label->property(kGapXProperty).isValid()) {
            const QMargins padding = label->padding();
            label->setProperty(kGapXProperty, std::max(padding.left(), padding.right()));
            label->setProperty(kGapYProperty, std::max(padding.top(), padding.bottom()));
        }
        const int gapX = label->property(kGapXProperty).toInt();
        const int gapY = label->property(kGapYProperty).toInt();
        // The gap is measured from the ink: the box of "mlp_up（反向）" ends half an em after its
        // last glyph and its CJK line is taller, so zh_CN labels sat away from their points.
        const QMarginsF excess = inkExcess(label);
        const auto place = [&](const PointLabelSpot &spot) {
            label->setPositionAlignment(spot.alignment);
            label->setPadding(QMargins(qRound((spot.right ? gapX : 0) - excess.left()),
                                       qRound((spot.vertical == Vertical::Down ? gapY : 0) - excess.top()),
                                       qRound((spot.right ? 0 : gapX) - excess.right()),
                                       qRound((spot.vertical == Vertical::Up ? gapY : 0) - excess.bottom())));
            return labelPixelRect(label);
        };
        // Of the spots inside the plot that cover no other label, the one covering the fewest
        // data points (the first such spot on ties).
        const PointLabelSpot *chosen = nullptr;
        qsizetype fewestCovered = 0;
        for (const PointLabelSpot &spot : kPointLabelSpots) {
            const QRectF rect = place(spot);
            if (!area.contains(rect) || intersectsAny(rect, taken))
                continue;
            const qsizetype covered = coveredPoints(rect, points);
            if (!chosen || covered < fewestCovered) {
                chosen = &spot;
                fewestCovered = covered;
            }
        }
        const QRectF rect = place(chosen ? *chosen : kPointLabelSpots[0]);
        label->setVisible(chosen != nullptr);
        if (chosen)
            taken.append(rect);
    }
}

}  // namespace

AnnotationItems addAnnotations(QCustomPlot *plot, const ChartData &data, const AnnotationStyle &style)
{
    AnnotationItems items;
    const double fonts = style.font_scale;
    const double pens = style.pen_scale;
    const QColor text = style.palette.color(QPalette::Text);
    const QColor background = style.palette.color(QPalette::Base);
    QSet<QString> legendGroups;

    items.rect_labels.reserve(data.rects.size());
    for (const ChartRect &rect : data.rects) {
        const QColor fill = rect.color.isValid() ? rect.color : chartSeriesColor(0, style.palette);
        auto *item = new QCPItemRect(plot);
        item->topLeft->setCoords(std::min(rect.x0, rect.x1), std::max(rect.y0, rect.y1) * data.y_display_scale);
        item->bottomRight->setCoords(std::max(rect.x0, rect.x1), std::min(rect.y0, rect.y1) * data.y_display_scale);
        item->setBrush(fill);
        item->setPen(QPen(blendColors(fill, background, 0.5), pens));
        item->setSelectable(false);
        QCPItemText *label = nullptr;
        if (!rect.label.isEmpty()) {
            label = new QCPItemText(plot);
            label->position->setCoords((rect.x0 + rect.x1) / 2, (rect.y0 + rect.y1) / 2 * data.y_display_scale);
            label->setPositionAlignment(Qt::AlignCenter);
            label->setText(rect.label);
            label->setColor(textOn(fill));
            label->setFont(scaled(style.font, 0.85 * fonts));
            label->setClipToAxisRect(true);
            label->setSelectable(false);
        }
        items.rect_labels.append(label);
        if (!rect.group.isEmpty() && !legendGroups.contains(rect.group)) {
            legendGroups.insert(rect.group);
            addLegendEntry(plot, rect.group, fill, false, pens);
        }
    }

    for (const ChartArrow &arrow : data.arrows) {
        const QColor color = arrow.color.isValid() ? arrow.color : text;
        auto *line = new QCPItemLine(plot);
        line->start->setCoords(arrow.x0, arrow.y0 * data.y_display_scale);
        line->end->setCoords(arrow.x1, arrow.y1 * data.y_display_scale);
        line->setPen(QPen(color, 2.0 * pens));
        line->setHead(QCPLineEnding(QCPLineEnding::esSpikeArrow, 10 * pens, 12 * pens));
        line->setSelectable(false);
        if (!arrow.label.isEmpty()) {
            auto *label = new QCPItemText(plot);
            label->position->setCoords((arrow.x0 + arrow.x1) / 2, (arrow.y0 + arrow.y1) / 2 * data.y_display_scale);
            label->setPositionAlignment(Qt::AlignCenter);
            label->setText(arrow.label);
            label->setColor(color);
            QColor halo = background;
            halo.setAlpha(220);
            label->setBrush(halo);
            label->setFont(scaled(style.font, 0.8 * fonts));
            label->setSelectable(false);
            items.text_labels.append(label);
        }
        if (!arrow.group.isEmpty() && !legendGroups.contains(arrow.group)) {
            legendGroups.insert(arrow.group);
            addLegendEntry(plot, arrow.group, color, true, pens);
        }
    }

    for (const ChartText &note : data.texts) {
        auto *label = new QCPItemText(plot);
        label->position->setCoords(note.x, note.y * data.y_display_scale);
        label->setPositionAlignment(note.alignment);
        label->setText(note.text);
        label->setColor(note.color.isValid() ? note.color : text);
        QFont font = scaled(style.font, 0.9 * fonts);
        font.setBold(note.bold);
        label->setFont(font);
        label->setSelectable(false);
        if (note.beside_point) {
            label->setPadding(QMargins(qRound(6 * fonts), 0, 0, qRound(3 * fonts)));
            label->setClipToAxisRect(true);
            items.point_labels.append(label);
        } else {
            label->setPadding(QMargins(3, 1, 3, 1));
            if (!note.text.isEmpty())
                items.text_labels.append(label);
        }
    }

    for (const ChartSeries &series : data.series) {
        const qsizetype n = std::min({series.x.size(), series.y.size(), series.point_labels.size()});
        for (qsizetype i = 0; i < n; ++i) {
            if (series.point_labels.at(i).isEmpty() || !std::isfinite(series.x.at(i)) || !std::isfinite(series.y.at(i)))
                continue;
            auto *label = new QCPItemText(plot);
            label->position->setCoords(series.x.at(i), series.y.at(i) * data.y_display_scale);
            // Up and to the right of the point, clear of its marker.
            label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
            label->setPadding(QMargins(qRound(6 * fonts), 0, 0, qRound(3 * fonts)));
            label->setText(series.point_labels.at(i));
            label->setColor(text);
            label->setFont(scaled(style.font, 0.8 * fonts));
            label->setClipToAxisRect(true);
            label->setSelectable(false);
            items.point_labels.append(label);
        }
    }
    return items;
}

void fitAnnotationLabels(QCustomPlot *plot, const ChartData &data, const AnnotationItems &items)
{
    const qsizetype n = std::min(items.rect_labels.size(), data.rects.size());
    for (qsizetype i = 0; i < n; ++i) {
        QCPItemText *label = items.rect_labels.at(i);
        if (!label)
            continue;
        const ChartRect &rect = data.rects.at(i);
        const double width = std::abs(plot->xAxis->coordToPixel(rect.x1) - plot->xAxis->coordToPixel(rect.x0));
        const double height = std::abs(plot->yAxis->coordToPixel(rect.y1 * data.y_display_scale)
                                       - plot->yAxis->coordToPixel(rect.y0 * data.y_display_scale));
        const QFontMetricsF metrics(label->font());
        const QSizeF needed = metrics.size(0, rect.label);
        label->setVisible(needed.width() + 4 <= width && needed.height() <= height + 2);
    }
    avoidLabelCollisions(plot, data, items);
}

QRectF labelPixelRect(const QCPItemText *label)
{
    return QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition()).normalized();
}

void expandRangesForAnnotations(const ChartData &data, QCPRange &x, QCPRange &y, bool &any)
{
    const auto include = [&](double px, double py) {
        if (!std::isfinite(px) || !std::isfinite(py))
            return;
        py *= data.y_display_scale;
        if (!any) {
            x = QCPRange(px, px);
            y = QCPRange(py, py);
            any = true;
            return;
        }
        x.expand(px);
        y.expand(py);
    };
    for (const ChartRect &rect : data.rects) {
        include(rect.x0, rect.y0);
        include(rect.x1, rect.y1);
    }
    for (const ChartArrow &arrow : data.arrows) {
        include(arrow.x0, arrow.y0);
        include(arrow.x1, arrow.y1);
    }
    for (const ChartText &note : data.texts)
        include(note.x, note.y);
}

QString annotationToolTipAt(const QCustomPlot *plot, const ChartData &data, const QPointF &pos, QString *key)
{
    const QCPAxis *xAxis = plot->xAxis;
    const QCPAxis *yAxis = plot->yAxis;
    // Topmost first: later rectangles are drawn above earlier ones.
    for (qsizetype i = data.rects.size() - 1; i >= 0; --i) {
        const ChartRect &rect = data.rects.at(i);
        const double left = xAxis->coordToPixel(rect.x0), right = xAxis->coordToPixel(rect.x1);
        const double top = yAxis->coordToPixel(rect.y0 * data.y_display_scale);
        const double bottom = yAxis->coordToPixel(rect.y1 * data.y_display_scale);
        if (pos.x() < std::min(left, right) || pos.x() > std::max(left, right) || pos.y() < std::min(top, bottom)
            || pos.y() > std::max(top, bottom))
            continue;
        if (key)
            *key = QStringLiteral("rect:%1").arg(i);
        QString html = rect.tooltip;
        if (html.isEmpty())
            html = QStringLiteral("<b>%1</b> %2").arg(rect.group.toHtmlEscaped(), rect.label.toHtmlEscaped());
        return QStringLiteral("<qt>%1</qt>").arg(html);
    }
    for (qsizetype i = 0; i < data.arrows.size(); ++i) {
        const ChartArrow &arrow = data.arrows.at(i);
        const QPointF a(xAxis->coordToPixel(arrow.x0), yAxis->coordToPixel(arrow.y0 * data.y_display_scale));
        const QPointF b(xAxis->coordToPixel(arrow.x1), yAxis->coordToPixel(arrow.y1 * data.y_display_scale));
        const QPointF ab = b - a;
        const double length2 = QPointF::dotProduct(ab, ab);
        const double t = length2 > 0 ? std::clamp(QPointF::dotProduct(pos - a, ab) / length2, 0.0, 1.0) : 0.0;
        const QPointF nearest = a + t * ab;
        if (std::hypot(pos.x() - nearest.x(), pos.y() - nearest.y()) > kArrowHoverPixels)
            continue;
        if (key)
            *key = QStringLiteral("arrow:%1").arg(i);
        QString html = arrow.tooltip;
        if (html.isEmpty())
            html = QStringLiteral("<b>%1</b> %2").arg(arrow.group.toHtmlEscaped(), arrow.label.toHtmlEscaped());
        return QStringLiteral("<qt>%1</qt>").arg(html);
    }
    return {};
}

QString annotationsCsv(const ChartData &data)
{
    QString csv;
    const auto rowName = [&data](double y) {
        const double rounded = std::round(y);
        if (std::abs(y - rounded) < 1e-9 && rounded >= 0 && rounded < static_cast<double>(data.y_categories.size()))
            return data.y_categories.at(qsizetype(rounded));
        return QString();
    };
    if (!data.rects.isEmpty()) {
        csv += QStringLiteral("group,label,x0,x1,y0,y1,row,details\n");
        for (const ChartRect &rect : data.rects) {
            const QString row = rowName((rect.y0 + rect.y1) / 2);
            csv += QStringList{csvText(rect.group), csvText(rect.label), number(rect.x0), number(rect.x1),
                               number(rect.y0), number(rect.y1), csvText(row), csvText(withoutTags(rect.tooltip))}
                       .join(QLatin1Char(','))
                + QLatin1Char('\n');
        }
    }
    if (!data.arrows.isEmpty()) {
        if (!csv.isEmpty())
            csv += QLatin1Char('\n');
        csv += QStringLiteral("group,label,x_from,y_from,x_to,y_to,details\n");
        for (const ChartArrow &arrow : data.arrows) {
            csv += QStringList{csvText(arrow.group), csvText(arrow.label), number(arrow.x0), number(arrow.y0),
                               number(arrow.x1), number(arrow.y1), csvText(withoutTags(arrow.tooltip))}
                       .join(QLatin1Char(','))
                + QLatin1Char('\n');
        }
    }
    return csv;
}

}  // namespace lse::gui
