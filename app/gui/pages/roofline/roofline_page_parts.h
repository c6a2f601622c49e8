// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the Roofline page's files (roofline_page.cpp, roofline_charts.cpp,
// roofline_operator_table.cpp, roofline_machine_runs.cpp) share: the overlay's accelerators, the
// slider and axis limits, the operator table's columns and the labels both the chart and the
// table print.

#include "roofline/roofline.h"

#include <QString>

#include <string>

namespace lse::gui::roofline_parts {

// The accelerators the overlay offers, as the issue names them; "this-cpu" is the measured CPU.
struct OverlayEntry {
    const char *id;
    const char *short_name;  // product names stay untranslated
    bool checked;
};
inline constexpr OverlayEntry kOverlay[] = {{"a100-sxm-80gb", "A100", true},
                                            {"h100-sxm", "H100", true},
                                            {"h200-sxm", "H200", false},
                                            {"b200", "B200", true},
                                            {"mi300x", "MI300X", false}};
inline constexpr const char *kThisCpu = "this-cpu";
inline constexpr int kMaxBatchExponent = 10;  // slider 2^0 … 2^10 sequences
inline constexpr int kLabelledOps = 4;        // only the slowest operators get a label beside their point
inline constexpr double kMinIntensity = 1e-3;  // a decade left of 0.01: room for the memory roof's slope
inline constexpr double kMaxIntensity = 1e4;

enum Column { ColName, ColPass, ColCount, ColShape, ColFlops, ColBytes, ColIntensity, ColAttainable, ColBound,
              ColTime, ColShare, ColumnCount };

QString passName(OpPass pass);
QString boundName(Bound bound);
QString intensityText(double intensity);
// Legend names without the vendor prefix: "H100 SXM5 80GB (bf16)".
QString shortName(const std::string &name);

}  // namespace lse::gui::roofline_parts
