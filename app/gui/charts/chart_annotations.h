// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Rectangles, arrows, texts and point labels of a ChartData drawn as QCustomPlot items, so that
// diagrams (Gantt charts, device grids, collective steps) export exactly like plots.

#include "charts/chart_data.h"

#include <QFont>
#include <QPalette>
#include <QPointF>
#include <QRectF>
#include <QVector>

class QCustomPlot;
class QCPItemText;
class QCPRange;

namespace lse::gui {

struct AnnotationStyle {
    QPalette palette;
    QFont font;
    double font_scale = 1.0;
    double pen_scale = 1.0;
};

// The labels whose visibility depends on the plot's size (a label is shown only when it fits its
// rectangle).
struct AnnotationItems {
    QVector<QCPItemText *> rect_labels;  // parallel to ChartData::rects (nullptr: no label)
    QVector<QCPItemText *> point_labels;
    QVector<QCPItemText *> text_labels;       // ChartData::texts and arrow labels, where the data puts them
    QVector<QCPItemText *> reference_labels;  // reference-line labels (added by ChartView)
};

// Adds the items; the plot's items must have been cleared before. Legend entries are added for
// every named group of rectangles and arrows.
AnnotationItems addAnnotations(QCustomPlot *plot, const ChartData &data, const AnnotationStyle &style);
// Hides rectangle labels that do not fit at the plot's current size and axis ranges, then keeps
// labels from covering each other: in order texts, rectangle labels, reference-line labels and
// point labels (ChartSeries::point_labels and ChartText::beside_point), each label takes a free
// spot of its candidates, preferring spots that cover few data points, or is hidden when every
// spot is taken.
void fitAnnotationLabels(QCustomPlot *plot, const ChartData &data, const AnnotationItems &items);
// The pixel rectangle a text item covers at the plot's current layout (padding included).
QRectF labelPixelRect(const QCPItemText *label);
// Extends the ranges (x, y in display units) to cover every annotation; `any` becomes true when
// there was one.
void expandRangesForAnnotations(const ChartData &data, QCPRange &x, QCPRange &y, bool &any);
// Tooltip of the rectangle under `pos` (pixels) or the arrow near it; empty when none. `key`
// identifies it so a tooltip is not re-shown while the mouse stays on the same item.
QString annotationToolTipAt(const QCustomPlot *plot, const ChartData &data, const QPointF &pos, QString *key);
// CSV rows for the rectangles and arrows (empty when there are none), appended to the series CSV.
QString annotationsCsv(const ChartData &data);

}  // namespace lse::gui
