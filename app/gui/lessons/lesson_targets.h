// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lessons/lesson.h"

#include <QRect>
#include <QStringList>

class QWidget;

namespace lse::gui {

// The highlight targets every page offers without code of its own (Page's defaults), found among
// the descendants of `page`:
// - Region: a widget with an objectName not starting with "qt_" (Qt's internal names);
// - ChartSeries: "chart-id/series name" for each named series of each ChartView;
// - ChartPoint: "chart-id/series name/index" (index into ChartSeries::x, from 0);
// - TableRow: "view-objectName/text of column 0" for each named item view's rows.
// Field targets belong to the scenario editor, not to a page: none here.
// (A chart series or table row may also be named by its index from 0: "chart-id/2", "table/0"; a
// whole chart is a Region named by its id.)
QStringList genericLessonTargets(const QWidget *page, HighlightKind kind);

// Where `target` is, in `page`'s coordinates: the widget's rectangle, the series' pixel bounding
// box inside its plot, a square around the point, the row's visual rectangle. A null rectangle
// when the target does not exist or is not visible now (a hidden tab, a row scrolled away).
QRect genericLessonTargetRect(const QWidget *page, HighlightKind kind, const QString &target);
// The widget that holds `target` (the region itself, the chart of a series or point, the table of a
// row), for scrolling it into view; nullptr when the page has none.
QWidget *lessonTargetWidget(const QWidget *page, HighlightKind kind, const QString &target);

}  // namespace lse::gui
