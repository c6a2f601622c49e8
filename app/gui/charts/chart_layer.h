// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPointF>
#include <QString>

class QCustomPlot;
class QCPRange;
class QPalette;

namespace lse::gui {

// Content a page draws with its own QCustomPlot plottables when ChartData's series and rectangles
// would be too slow: a profiler trace's timeline holds ~100k kernels, one QCPItemRect each would
// take seconds to build and to draw. ChartView adds the layer on every rebuild (after clearing the
// plot), asks it for the ranges, hover text and CSV, so export, presentation, palette and reset view
// work as for every other chart.
class ChartLayer {
public:
    virtual ~ChartLayer() = default;
    // Adds the layer's plottables to `plot` (its plottables and items were just cleared).
    virtual void addTo(QCustomPlot *plot, const QPalette &palette, double pen_scale) const = 0;
    // The x and y range (plot coordinates) the layer covers; false when it is empty.
    virtual bool ranges(QCPRange &x, QCPRange &y) const = 0;
    // Hover text (HTML) at `pixel` in plot coordinates, empty when nothing is there; `key` (may be
    // null) names what is under the cursor so the same tooltip is not shown again.
    virtual QString toolTipAt(const QCustomPlot *plot, const QPointF &pixel, QString *key) const = 0;
    // The layer's rows for the chart's CSV export (header line first), empty when none.
    virtual QString csv() const = 0;
};

}  // namespace lse::gui
