// SPDX-License-Identifier: GPL-3.0-or-later
// The user's own accelerators (e.g. ones calibrated to a measured run), kept in a file of the same
// format as the built-in catalog (resources/hardware/catalog.json) beside the app's data. The
// built-in catalog is never changed; user entries come after it wherever accelerators are listed.
#pragma once

#include "common/problem.h"
#include "hardware/hardware_catalog.h"

#include <QByteArray>

#include <string>

namespace lse {

// QStandardPaths::AppDataLocation + "/hardware.json".
std::string userHardwareCatalogPath();

// The catalog as JSON in the built-in catalog's format ("format", "version", "accelerators").
QByteArray hardwareCatalogToJson(const HardwareCatalog &catalog);

// The user catalog at `path`; a missing file is an empty catalog. Problems: the file cannot be
// read, or it is not a valid catalog (parseHardwareCatalog's problems, prefixed with the path).
Result<HardwareCatalog> loadUserHardwareCatalog(const std::string &path);

// Writes the whole catalog to `path` (folder created), every write checked, replacing the old file
// only when the new one is complete (FileWriter). Problem {path, "unwritable"} on failure.
Result<bool> saveUserHardwareCatalog(const std::string &path, const HardwareCatalog &catalog);

// Reads the catalog at `path`, appends `accelerator` and writes it back; returns the new catalog.
// A broken existing file is refused and left untouched (its problems); an id that the file or the
// built-in catalog already has is refused ("id" "duplicate"), as is an entry without an id or a
// source ("id"/"source" "required"); the file is then not written.
Result<HardwareCatalog> appendToUserHardwareCatalog(const std::string &path, const Accelerator &accelerator);

// The first "<base_id>-calibrated-<n>" (n = 1, 2, ...) that neither catalog uses.
std::string nextCalibratedAcceleratorId(const std::string &base_id, const HardwareCatalog &user_catalog);

}  // namespace lse
