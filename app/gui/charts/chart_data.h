// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QString>
#include <QStringList>
#include <QVector>

#include <functional>
#include <memory>

namespace lse::gui {

class ChartLayer;

// Where a figure comes from: shown in the chart's formula panel and tooltip.
struct FormulaInfo {
    QString inputs;   // e.g. "L = 80, h = 8192, s = 4096, t = 8" (plain text or simple HTML)
    QString formula;  // e.g. "activations = s·b·h·(34 + 5·a·s/h) bytes per layer"
    QString source;   // e.g. "Korthikanti et al. 2022, Table 2"
};

// One plotted series. Bars with the same non-negative stack_group are stacked in series order.
struct ChartSeries {
    enum class Kind { Line, Bar, Marker };
    QString name;
    Kind kind = Kind::Line;
    QVector<double> x;
    QVector<double> y;
    QColor color;               // invalid: the chart picks from its palette
    QStringList point_tooltips;  // optional, one per point (HTML allowed): exact values and formula
    // Optional instead of point_tooltips, for long curves: point i's tooltip, made only when the
    // point is hovered (formatting hundreds of tooltips on every edit was a tenth of the Scaling
    // page's edit time, bench_gui_footprint).
    std::function<QString(qsizetype point)> point_tooltip;
    QStringList point_labels;    // optional, one per point: short text drawn beside the point
    int stack_group = -1;
    bool dashed = false;
    double marker_size = 0;  // Marker series: diameter in pixels before presentation scaling; 0 = default
    bool hollow = false;     // Marker series: rings instead of discs (e.g. predicted beside measured points)
};

// A horizontal reference line, e.g. the GPU's memory capacity.
struct ReferenceLine {
    double y = 0;
    QString label;
    QColor color;
};

// A filled rectangle in plot coordinates: a pipeline task, a GPU of a mesh, a ZeRO shard.
struct ChartRect {
    double x0 = 0;
    double x1 = 0;
    double y0 = 0;
    double y1 = 0;
    QColor color;     // invalid: the palette's first colour
    QString label;    // drawn centred when it fits inside
    QString tooltip;  // HTML allowed
    QString group;    // legend entry and CSV column, e.g. "forward"
};

// An arrow from (x0, y0) to (x1, y1): a chunk moving from one rank to another.
struct ChartArrow {
    double x0 = 0;
    double y0 = 0;
    double x1 = 0;
    double y1 = 0;
    QColor color;
    QString label;    // drawn at the middle
    QString tooltip;  // HTML allowed
    QString group;    // legend entry and CSV column
};

// Text at a plot position, e.g. a rank name beside a diagram or the ridge point's value.
struct ChartText {
    double x = 0;
    double y = 0;
    QString text;
    QColor color;  // invalid: the text colour
    Qt::Alignment alignment = Qt::AlignCenter;
    bool bold = false;
    // A label beside a data point: the chart may move it to another side of the point, or drop
    // it, so that it covers no other label (and, where possible, no data point).
    bool beside_point = false;
};

// Everything a chart shows; ChartView renders it and exports it (CSV writes exactly these numbers).
struct ChartData {
    QString title;
    // The tr() context its series names were translated in when a chart builder outside the
    // widget tree made them (ServingCharts, ValidationCharts): lessons name series in English and
    // find the translation through it (lesson_targets.cpp). Empty: a widget's own class.
    QString translation_context;
    QString x_label;
    QString y_label;
    QString x_unit;  // for CSV headers, e.g. "tokens"
    QString y_unit;  // e.g. "bytes", "FLOP", "days"
    bool log_x = false;
    bool log_y = false;
    // Bar charts: category labels; series x values are then 0..n-1 indices into this list.
    QStringList categories;
    // Scale applied to y values for display only (e.g. 1e-9 to show GB); CSV keeps raw values.
    double y_display_scale = 1.0;
    QVector<ChartSeries> series;
    QVector<ReferenceLine> reference_lines;
    // Diagrams (Gantt charts, device grids, collective steps) are drawn from these.
    QVector<ChartRect> rects;
    QVector<ChartArrow> arrows;
    QVector<ChartText> texts;
    // Row labels of a diagram: y = 0..n-1 are these rows (e.g. "stage 0", "stage 1").
    QStringList y_categories;
    bool y_reversed = false;  // first row at the top
    bool show_axes = true;    // false: a pure diagram without axes and grid
    FormulaInfo formula;
    // Drawn by the page's own plottables (charts/chart_layer.h): a trace timeline's kernels.
    std::shared_ptr<const ChartLayer> layer;
};

}  // namespace lse::gui
