// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QString>
#include <QStringList>
#include <QVector>

namespace lse::gui {

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
    int stack_group = -1;
    bool dashed = false;
};

// A horizontal reference line, e.g. the GPU's memory capacity.
struct ReferenceLine {
    double y = 0;
    QString label;
    QColor color;
};

// Everything a chart shows; ChartView renders it and exports it (CSV writes exactly these numbers).
struct ChartData {
    QString title;
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
    FormulaInfo formula;
};

}  // namespace lse::gui
