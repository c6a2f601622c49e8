// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/chart_annotations.h"

#include "charts/chart_palette.h"

#include <qcustomplot.h>

#include <QFontMetrics>
#include <QSet>

#include <algorithm>
#include <cmath>

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
        label->setPadding(QMargins(3, 1, 3, 1));
        label->setSelectable(false);
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
