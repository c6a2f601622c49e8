// SPDX-License-Identifier: GPL-3.0-or-later
#include "numbers/number_line.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lse::numbers {

double spacingAt(FormatId id, double magnitude)
{
    const FloatFormat &f = floatFormat(id);
    if (!(magnitude > 0.0) || !(magnitude <= f.max))
        return std::numeric_limits<double>::quiet_NaN();
    if (f.is_integer)
        return 1.0;
    int exponent = 0;
    std::frexp(magnitude, &exponent);  // magnitude ∈ [2^(exponent−1), 2^exponent)
    const int binade = std::max(exponent - 1, f.min_exponent);
    return std::ldexp(1.0, binade - f.mantissa_bits);
}

std::vector<SpacingPoint> spacingCurve(FormatId id)
{
    const FloatFormat &f = floatFormat(id);
    std::vector<SpacingPoint> points;
    if (f.is_integer) {
        points.push_back({1.0, 1.0});
        points.push_back({f.max, 1.0});
        return points;
    }
    points.push_back({f.min_subnormal, f.min_subnormal});
    for (int binade = f.min_exponent; binade <= f.max_exponent; ++binade) {
        const double start = std::ldexp(1.0, binade);
        const double spacing = std::ldexp(1.0, binade - f.mantissa_bits);
        points.push_back({start, spacing});
        const double end = std::min(std::ldexp(1.0, binade + 1), f.max);
        points.push_back({end, spacing});
    }
    // Close the subnormal step where the first normal binade starts (same spacing on both sides).
    points.insert(points.begin() + 1, SpacingPoint{f.min_normal, f.min_subnormal});
    return points;
}

std::vector<SpacingPoint> relativeSpacingCurve(FormatId id)
{
    std::vector<SpacingPoint> points = spacingCurve(id);
    for (SpacingPoint &point : points)
        point.spacing /= point.magnitude;
    return points;
}

}  // namespace lse::numbers
