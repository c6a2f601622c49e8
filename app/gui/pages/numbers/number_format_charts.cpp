// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/numbers/number_format_charts.h"

#include "numbers/number_line.h"
#include "pages/page_format.h"

#include <QLocale>

#include <cmath>

namespace lse::gui {

using numbers::BitField;
using numbers::FloatFormat;

QString powerOfTwoText(double value)
{
    if (!(value > 0) || !std::isfinite(value))
        return {};
    int exponent = 0;
    const double fraction = std::frexp(value, &exponent);
    if (fraction != 0.5)
        return {};
    return QStringLiteral("2^%1").arg(QString::number(exponent - 1).replace('-', QChar(0x2212)));
}

QString formatValueText(double value, bool notApplicableForNaN)
{
    if (std::isnan(value))
        return notApplicableForNaN ? NumberFormatCharts::tr("n/a") : QStringLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("∞") : QStringLiteral("−∞");
    return QLocale().toString(value, 'g', 9);
}

QColor NumberFormatCharts::fieldColor(BitField field)
{
    switch (field) {
    case BitField::Sign:
        return QColor(214, 39, 40);
    case BitField::Exponent:
        return QColor(44, 160, 44);
    case BitField::Mantissa:
        break;
    }
    return QColor(31, 119, 180);
}

QString NumberFormatCharts::fieldName(BitField field)
{
    switch (field) {
    case BitField::Sign:
        return tr("sign");
    case BitField::Exponent:
        return tr("exponent");
    case BitField::Mantissa:
        break;
    }
    return tr("mantissa");
}

QString NumberFormatCharts::layoutLabel(const FloatFormat &format)
{
    return format.is_integer
        ? tr("%1 (1 + %2)").arg(format::fromStd(format.name)).arg(format.mantissa_bits)
        : tr("%1 (1 + %2 + %3)").arg(format::fromStd(format.name)).arg(format.exponent_bits).arg(format.mantissa_bits);
}

ChartData NumberFormatCharts::bitLayout()
{
    ChartData chart;
    chart.title = tr("Sign, exponent and mantissa bits");
    chart.x_label = tr("Bit (0 = sign)");
    chart.x_unit = QStringLiteral("bit");
    chart.y_reversed = true;
    chart.formula.inputs = tr("bits = 1 + e + m (TF32: 19 bits used of a 32-bit register)");
    chart.formula.formula = tr("normal (−1)^s·1.m·2^(E−bias), subnormal (−1)^s·0.m·2^(1−bias), bias = 2^(e−1) − 1");
    chart.formula.source = tr("IEEE 754-2019 §3.3–3.4; OCP 8-bit Floating Point Specification (OFP8) v1.0");
    const std::vector<FloatFormat> &formats = numbers::allFormats();
    for (std::size_t row = 0; row < formats.size(); ++row) {
        const FloatFormat &f = formats[row];
        chart.y_categories << layoutLabel(f);
        for (int bit = 0; bit < f.bits; ++bit) {
            const BitField field = numbers::bitField(f, bit);
            ChartRect cell;
            cell.x0 = bit;
            cell.x1 = bit + 0.92;
            cell.y0 = double(row) - 0.38;
            cell.y1 = double(row) + 0.38;
            cell.color = fieldColor(field);
            cell.group = fieldName(field);
            cell.tooltip = f.is_integer
                ? tr("<b>%1</b>, bit %2 of %3: %4<br>two's complement: value = −128·b0 + Σ b_i·2^(7−i)")
                      .arg(format::fromStd(f.name)).arg(bit).arg(f.bits).arg(bit == 0 ? cell.group : tr("value bit"))
                : tr("<b>%1</b>, bit %2 of %3: %4<br>%5 exponent + %6 mantissa bits, bias %7")
                      .arg(format::fromStd(f.name)).arg(bit).arg(f.bits).arg(cell.group)
                      .arg(f.exponent_bits).arg(f.mantissa_bits).arg(f.bias);
            chart.rects << cell;
        }
    }
    return chart;
}

ChartData NumberFormatCharts::spacing(std::optional<double> value)
{
    ChartData chart;
    chart.title = tr("Number line: spacing between neighbouring values");
    chart.x_label = tr("Magnitude |x| (log scale)");
    chart.x_unit = QStringLiteral("value");
    chart.y_label = tr("Spacing to the next value, ulp(x) (log scale)");
    chart.y_unit = QStringLiteral("value");
    chart.log_x = chart.log_y = true;
    chart.formula.inputs = tr("each line: smallest subnormal to largest finite value");
    chart.formula.formula = tr("ulp(x) = 2^(max(⌊log2 |x|⌋, emin) − m); INT8 (scale 1): 1");
    chart.formula.source = tr("IEEE 754-2019 §2.1 (ulp) and §3.3; OCP OFP8 v1.0");
    ChartSeries largest;
    largest.name = tr("largest finite value");
    largest.kind = ChartSeries::Kind::Marker;
    ChartSeries smallest;
    smallest.name = tr("smallest subnormal");
    smallest.kind = ChartSeries::Kind::Marker;
    ChartSeries typed;
    typed.name = value ? tr("your value %1").arg(formatValueText(*value)) : tr("your value");
    typed.kind = ChartSeries::Kind::Marker;
    typed.marker_size = 12;
    for (const FloatFormat &f : numbers::allFormats()) {
        ChartSeries line;
        line.name = format::fromStd(f.name);
        for (const numbers::SpacingPoint &point : numbers::spacingCurve(f.id)) {
            line.x << point.magnitude;
            line.y << point.spacing;
            line.point_tooltips << tr("<b>%1</b>: values near %2 are %3 apart")
                                       .arg(line.name, formatValueText(point.magnitude), formatValueText(point.spacing));
        }
        chart.series << line;
        const double spacingAtMax = numbers::spacingAt(f.id, f.max);
        largest.x << f.max;
        largest.y << spacingAtMax;
        largest.point_tooltips << tr("<b>%1</b> largest finite value %2").arg(line.name, formatValueText(f.max));
        if (!f.is_integer) {
            smallest.x << f.min_subnormal;
            smallest.y << f.min_subnormal;
            smallest.point_tooltips << tr("<b>%1</b> smallest subnormal %2 = %3")
                                           .arg(line.name, formatValueText(f.min_subnormal), powerOfTwoText(f.min_subnormal));
        }
        if (value) {
            const double magnitude = std::abs(*value);
            const double gap = numbers::spacingAt(f.id, magnitude);
            if (std::isfinite(gap) && (!f.is_integer || magnitude >= 1)) {  // INT8's line starts at 1
                typed.x << magnitude;
                typed.y << gap;
                typed.point_tooltips << tr("<b>%1</b> at |x| = %2: neighbours %3 apart")
                                            .arg(line.name, formatValueText(magnitude), formatValueText(gap));
            }
        }
    }
    chart.series << largest << smallest;
    if (!typed.x.isEmpty())
        chart.series << typed;
    return chart;
}

ChartData NumberFormatCharts::relativeSpacing(std::optional<double> value)
{
    ChartData chart;
    chart.title = tr("Relative spacing: precision (height) over the range (width)");
    chart.x_label = tr("Magnitude |x| (log scale)");
    chart.x_unit = QStringLiteral("value");
    chart.y_label = tr("ulp(x) / |x| (log scale)");
    chart.y_unit = QStringLiteral("ratio");
    chart.log_x = chart.log_y = true;
    chart.formula.inputs = tr("normal range: between ε/2 and ε = 2^−m; subnormals rise to 1");
    chart.formula.formula = tr("ulp(x) / |x|; INT8 (scale 1): 1 / |x|");
    chart.formula.source = tr("IEEE 754-2019 §2.1 and §3.3; OCP OFP8 v1.0");
    ChartSeries typed;
    typed.name = value ? tr("your value %1").arg(formatValueText(*value)) : tr("your value");
    typed.kind = ChartSeries::Kind::Marker;
    typed.marker_size = 12;
    for (const FloatFormat &f : numbers::allFormats()) {
        ChartSeries line;
        line.name = format::fromStd(f.name);
        for (const numbers::SpacingPoint &point : numbers::relativeSpacingCurve(f.id)) {
            line.x << point.magnitude;
            line.y << point.spacing;
            line.point_tooltips << tr("<b>%1</b> at %2: neighbours %3 of the value apart")
                                       .arg(line.name, formatValueText(point.magnitude), format::percent(point.spacing, 4));
        }
        chart.series << line;
        if (value) {
            const double magnitude = std::abs(*value);
            const double gap = numbers::spacingAt(f.id, magnitude);
            if (std::isfinite(gap) && (!f.is_integer || magnitude >= 1)) {
                typed.x << magnitude;
                typed.y << gap / magnitude;
                typed.point_tooltips << tr("<b>%1</b> at |x| = %2: ulp/|x| = %3")
                                            .arg(line.name, formatValueText(magnitude), formatValueText(gap / magnitude));
            }
        }
    }
    if (!typed.x.isEmpty())
        chart.series << typed;
    return chart;
}

}  // namespace lse::gui
