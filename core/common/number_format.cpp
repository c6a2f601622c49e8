// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/number_format.h"

#include <QString>

#include <algorithm>
#include <array>
#include <cmath>

namespace lse {

namespace {

const char *const kDash = "–";  // a figure that is not finite

bool chinese(const QLocale &locale) { return locale.language() == QLocale::Chinese; }

struct Prefix {
    double factor;
    const char *symbol;
};
// SI prefixes (BIPM SI Brochure, 9th ed., Table 7) from kilo to yotta.
constexpr std::array<Prefix, 8> kPrefixes{{
    {1e3, "k"}, {1e6, "M"}, {1e9, "G"}, {1e12, "T"}, {1e15, "P"}, {1e18, "E"}, {1e21, "Z"}, {1e24, "Y"},
}};

std::string superscript(int exponent)
{
    static const char *const kDigits[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
    std::string text = exponent < 0 ? "⁻" : "";
    for (const QChar digit : QString::number(std::abs(exponent)))
        text += kDigits[digit.digitValue()];
    return text;
}

}  // namespace

int significantDecimals(double magnitude, int significant)
{
    int integer_digits = 1;
    if (magnitude >= 100)
        integer_digits = 3;
    else if (magnitude >= 10)
        integer_digits = 2;
    return std::max(0, significant - integer_digits);
}

std::string formatDecimal(double value, int decimals, const QLocale &locale)
{
    return locale.toString(value, 'f', decimals).toStdString();
}

std::string formatSi(double value, std::string_view unit, int significant, const QLocale &locale)
{
    if (!std::isfinite(value))
        return kDash;
    if (value == 0)
        return "0 " + std::string(unit);
    double scale = 1;
    const char *prefix = "";
    for (const Prefix &p : kPrefixes)
        if (std::fabs(value) >= p.factor) {
            scale = 1.0 / p.factor;
            prefix = p.symbol;
        }
    const double scaled = value * scale;
    return formatDecimal(scaled, significantDecimals(std::fabs(scaled), significant), locale) + " " + prefix + std::string(unit);
}

std::string formatCount(double value, const QLocale &locale)
{
    if (!std::isfinite(value))
        return kDash;
    // The convention of model cards and papers (7B, 15T tokens).
    static constexpr Prefix kSteps[] = {{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "k"}};
    const double magnitude = std::fabs(value);
    for (const Prefix &step : kSteps)
        if (magnitude >= step.factor) {
            const double scaled = value / step.factor;
            return formatDecimal(scaled, significantDecimals(std::fabs(scaled), 3), locale) + " " + step.symbol;
        }
    if (value == std::round(value))
        return formatDecimal(value, 0, locale);
    return locale.toString(value, 'g', 3).toStdString();
}

std::string formatPercent(double fraction, int decimals, const QLocale &locale)
{
    if (!std::isfinite(fraction))
        return kDash;
    return formatDecimal(fraction * 100.0, decimals, locale) + (chinese(locale) ? "%" : " %");
}

std::string formatDays(double days, const QLocale &locale)
{
    if (!std::isfinite(days))
        return kDash;
    // Whole days once the answer is weeks long; a decimal or two for short runs.
    if (days < 1)
        return locale.toString(days, 'g', 3).toStdString();
    return formatDecimal(days, days >= 100 ? 0 : 1, locale);
}

std::string formatMoney(double amount, const QLocale &locale)
{
    if (!std::isfinite(amount))
        return kDash;
    return amount >= 1e6 ? formatCount(amount, locale) : formatDecimal(amount, amount >= 100 ? 0 : 2, locale);
}

ScientificNumber scientificNumber(double value, int significant, const QLocale &locale)
{
    if (!std::isfinite(value) || value == 0)
        return {formatDecimal(value, 0, locale), 0};
    int exponent = int(std::floor(std::log10(std::fabs(value))));
    double mantissa = value / std::pow(10.0, exponent);
    // 9.996e24 at three digits is 1.00 × 10^25, not 10.0 × 10^24.
    const double unit = std::pow(10.0, -(significant - 1));
    if (std::fabs(std::round(mantissa / unit) * unit) >= 10.0) {
        ++exponent;
        mantissa /= 10.0;
    }
    if (exponent == 0)
        return {formatDecimal(value, significant - 1, locale), 0};
    return {formatDecimal(mantissa, significant - 1, locale), exponent};
}

std::string formatScientific(double value, int significant, const QLocale &locale)
{
    if (!std::isfinite(value))
        return kDash;
    const ScientificNumber number = scientificNumber(value, significant, locale);
    return number.exponent == 0 ? number.mantissa : number.mantissa + " × 10" + superscript(number.exponent);
}

}  // namespace lse
