// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_data.h"
#include "numbers/float_format.h"

#include <QCoreApplication>

#include <optional>

namespace lse::gui {

// The Numbers page's two format charts, built from core/numbers only: the sign/exponent/mantissa
// layout of every format as coloured bit cells, and the spacing between neighbouring values against
// magnitude (log-log), where BF16's range and FP16's precision show as the lines' extent and height.
class NumberFormatCharts {
    Q_DECLARE_TR_FUNCTIONS(NumberFormatCharts)
public:
    // Cell colours by field, shared with the coloured bits of the value table.
    static QColor fieldColor(numbers::BitField field);
    static QString fieldName(numbers::BitField field);
    // "fp16 (1 + 5 + 10)": the row label of the layout diagram.
    static QString layoutLabel(const numbers::FloatFormat &format);

    static ChartData bitLayout();
    // `value`: the typed value, marked on every format's line where the format reaches it.
    static ChartData spacing(std::optional<double> value);
    // The same per unit of magnitude, ulp(x)/|x|: each format a band at its epsilon across its range.
    static ChartData relativeSpacing(std::optional<double> value);
};

// "2^−24" when `value` is an exact power of two, else empty.
QString powerOfTwoText(double value);
// Locale digits, 9 significant; "∞", "−∞", "NaN"; "n/a" for a property that does not apply (NaN).
QString formatValueText(double value, bool notApplicableForNaN = false);

}  // namespace lse::gui
