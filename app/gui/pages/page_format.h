// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Number formatting shared by the pages: locale digits and separators (QLocale), SI prefixes for
// bytes, FLOPs and rates, and the HTML of "inputs / formula / source" tooltips. Formatting only:
// every number passed in comes from the core.

#include <QString>
#include <QStringList>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

class QVBoxLayout;
class QWidget;

namespace lse::gui {

// Chart heights below which axes and legends get cramped: the pages scroll instead. At 1280×800
// two charts fit one above the other without scrolling; in presentation mode each chart, with its
// toolbar, legend and formula panel, fits the page area of a 1280×720 or 1024×768 projector
// (about 650 px below the menu bar), so scrolling moves from one whole chart to the next.
// ChartView grows past these when its legend and axes need more room.
inline constexpr int kChartMinimumHeight = 300;
inline constexpr int kPresentationChartMinimumHeight = 560;

// Fills `page` with a vertical scroll area (no frame, no horizontal scrolling) and returns the
// widget inside it, for the page's own layout.
QWidget *addScrollingContent(QWidget *page);

}  // namespace lse::gui

namespace lse::gui::format {

// A display scale for chart axes: values are multiplied by `scale` and the axis label carries
// `prefix` (e.g. 1e-9 and "G").
struct SiScale {
    double scale = 1;
    QString prefix;
};
// The SI prefix that shows `largest` with 1–3 integer digits (k … Y; none below 1000).
SiScale siScale(double largest);

// 1234567 -> "1,234,567" in the current locale.
QString integer(std::int64_t value);
// Fixed decimals with locale separators.
QString decimal(double value, int decimals);
// `significant` significant digits with an SI prefix and `unit`: "989 TFLOP/s", "46.0 GB".
QString si(double value, const QString &unit, int significant = 3);
QString bytes(double value);  // SI (1 GB = 1e9 bytes), as datasheets quote memory
// Bytes with the exact count: "46.0 GB (46,012,345,678 bytes)".
QString bytesExact(double value);
// Parameter and token counts as ML papers write them: "124 M", "70.0 B", "15.0 T".
QString count(double value);
QString percent(double fraction, int decimals = 1);
QString days(double value);
QString money(double value);
// "6.75 × 10^24" with a superscript exponent (rich text).
QString scientific(double value, int significant = 3);

// The first entry of a catalog `source` list (entries are separated by ';'), without its
// parenthesised details: the datasheet a peak comes from, short enough for a formula panel.
QString firstSource(const std::string &source);

// UTF-8 text from the core (names, enum spellings).
QString fromStd(std::string_view text);

// A rich-text tooltip: bold title, then the inputs, formula and source paragraphs (omitted when
// empty). Parts may contain simple HTML.
QString tooltip(const QString &title, const QString &inputs, const QString &formula, const QString &source,
                const QString &value = QString());

// The sequence lengths the pages sweep: powers of two from 512 (or below `current`) to 131,072
// (or above `current`), with `current` itself included so the chart passes through the scenario.
std::vector<std::int64_t> seqLenSweep(std::int64_t current);

}  // namespace lse::gui::format
