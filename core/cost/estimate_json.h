// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cost/estimate.h"

#include <QJsonObject>

namespace lse {

// The stable, documented JSON form of an estimate (docs/file-formats.md, "JSON output"). Bytes and FLOPs are
// plain numbers in base units (bytes, FLOPs, seconds); field names never change meaning.
QJsonObject estimateToJson(const Estimate &estimate, const Scenario &scenario);

}  // namespace lse
