// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace lse::gui::format {

// A duration with three significant digits in s, ms or µs: collectives take microseconds, steps
// take seconds (format::si has no prefixes below one).
QString duration(double seconds);

}  // namespace lse::gui::format
