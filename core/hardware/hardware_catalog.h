// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/problem.h"
#include "hardware/accelerator.h"

#include <QByteArray>
#include <QJsonObject>

#include <string_view>
#include <vector>

namespace lse {

// The accelerators the app knows, read from resources/hardware/catalog.json (compiled in as
// ":/hardware/catalog.json"). Every number carries its datasheet in `source`.
struct HardwareCatalog {
    std::vector<Accelerator> accelerators;
    const Accelerator *find(std::string_view id) const;
};

Result<HardwareCatalog> parseHardwareCatalog(const QByteArray &json);
// The compiled-in catalog, parsed once. A broken built-in catalog is a programming error and
// aborts with a message (tests catch it first).
const HardwareCatalog &builtinHardwareCatalog();

// The starting point of a user-defined accelerator (id "custom").
Accelerator customAccelerator();

// One accelerator as JSON and back (used by the catalog and by scenario files). `field` prefixes
// the field names in problems, e.g. "cluster.accelerator".
QJsonObject acceleratorToJson(const Accelerator &accelerator);
Result<Accelerator> acceleratorFromJson(const QJsonObject &object, const std::string &field);

}  // namespace lse
