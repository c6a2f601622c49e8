// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How a figure is written wherever it is shown: the pages, the lessons' texts and handouts. One
// rounding rule (QLocale's fixed-point rounding of the decimals that leave the wanted significant
// digits) so a lesson and the page beside it never disagree ("444B" in a lesson, "445 B" on the
// Architecture page for the same 444.5 GFLOP, issue 28 item 18). UTF-8, locale digits and
// separators; the GUI wraps these in its own markup (format:: in app/gui/pages/page_format.h).

#include <QLocale>

#include <string>
#include <string_view>

namespace lse {

// Decimals that leave `significant` significant digits for a magnitude in [1, 1000).
int significantDecimals(double magnitude, int significant);

// Fixed decimals: 1234.5 -> "1,234.5" (English).
std::string formatDecimal(double value, int decimals, const QLocale &locale);
// `significant` significant digits with an SI prefix and `unit`: "989 TFLOP/s", "46.0 GB".
std::string formatSi(double value, std::string_view unit, int significant, const QLocale &locale);
// Counts as model cards and papers write them: "124 M", "70.0 B", "445 B", "15.0 T"; below a
// thousand the number itself.
std::string formatCount(double value, const QLocale &locale);
// A fraction as a percentage: "30.0 %" (Chinese: "30.0%").
std::string formatPercent(double fraction, int decimals, const QLocale &locale);
// Days: whole days from 100 on, one decimal from 1, three significant digits below.
std::string formatDays(double days, const QLocale &locale);
// An amount in the scenario's currency: a count from a million on ("12.5 M"), else whole or cents.
std::string formatMoney(double amount, const QLocale &locale);

// A number as mantissa × 10^exponent with `significant` digits: 6.21e24 -> {"6.21", 24}; a mantissa
// that rounds to 10 moves to the next power. exponent 0: `mantissa` is the whole number.
struct ScientificNumber {
    std::string mantissa;
    int exponent = 0;
};
ScientificNumber scientificNumber(double value, int significant, const QLocale &locale);
// As plain text with superscript digits, as a page shows it with rich text: "6.21 × 10²⁴".
std::string formatScientific(double value, int significant, const QLocale &locale);

}  // namespace lse
