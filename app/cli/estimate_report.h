// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cost/estimate.h"

#include <QString>

namespace lse::cli {

// The estimate as aligned text sections for a terminal.
QString estimateReport(const Estimate &estimate, const Scenario &scenario);

}  // namespace lse::cli
