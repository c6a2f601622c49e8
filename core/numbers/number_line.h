// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "numbers/float_format.h"

#include <vector>

namespace lse::numbers {

// The gap between a positive value of magnitude `magnitude` and the next representable value above
// it (one ulp): 2^(max(floor(log2 x), emin) − m) for a binary format (IEEE 754-2019 §2.1 "ulp"), the
// scale for INT8. NaN outside (0, max] — there is no next finite value above max.
double spacingAt(FormatId id, double magnitude);

struct SpacingPoint {
    double magnitude;
    double spacing;
};

// The spacing as a step function of magnitude for a log-log "number line": two points per binade
// (its start and its end, with the binade's ulp), from the smallest positive value to max. The
// subnormal range is one step of constant spacing min_subnormal (from min_subnormal to min_normal).
// INT8 (scale 1): spacing 1 from 1 to 127.
std::vector<SpacingPoint> spacingCurve(FormatId id);

// The relative spacing ulp(x)/x over the same points: a sawtooth between 2^−m and 2^(−m−1) in the
// normal range (its level is the precision, epsilon), rising to 1 at the smallest subnormal.
std::vector<SpacingPoint> relativeSpacingCurve(FormatId id);

}  // namespace lse::numbers
