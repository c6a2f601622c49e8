// SPDX-License-Identifier: GPL-3.0-or-later
#include "hardware/user_hardware_catalog.h"

#include "common/file_bytes.h"
#include "common/file_writer.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>

#include <regex>

namespace lse {

namespace {

// The built-in catalog's header (hardware_catalog.cpp reads the same two values).
constexpr const char *kCatalogFormat = "llm-explorer-hardware";
constexpr int kCatalogVersion = 1;

Problems prefixed(const std::string &path, const Problems &problems)
{
    Problems out;
    for (const Problem &problem : problems)
        out.push_back(Problem{problem.field, problem.rule, path + ": " + problem.message, problem.related});
    return out;
}

bool idTaken(const std::string &id, const HardwareCatalog &user_catalog)
{
    return user_catalog.find(id) != nullptr || builtinHardwareCatalog().find(id) != nullptr || id == "custom";
}

}  // namespace

std::string userHardwareCatalogPath()
{
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return QDir(folder).filePath(QStringLiteral("hardware.json")).toStdString();
}

QByteArray hardwareCatalogToJson(const HardwareCatalog &catalog)
{
    QJsonArray accelerators;
    for (const Accelerator &accelerator : catalog.accelerators)
        accelerators.append(acceleratorToJson(accelerator));
    QJsonObject root;
    root.insert(QStringLiteral("format"), QString::fromLatin1(kCatalogFormat));
    root.insert(QStringLiteral("version"), kCatalogVersion);
    root.insert(QStringLiteral("accelerators"), accelerators);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

Result<HardwareCatalog> loadUserHardwareCatalog(const std::string &path)
{
    if (!QFileInfo::exists(QString::fromStdString(path)))
        return HardwareCatalog{};
    const Result<QByteArray> bytes = readFileBytes(path, FileKind::Config);
    if (!bytes)
        return bytes.problems();
    Result<HardwareCatalog> catalog = parseHardwareCatalog(*bytes);
    if (!catalog)
        return prefixed(path, catalog.problems());
    return catalog;
}

Result<bool> saveUserHardwareCatalog(const std::string &path, const HardwareCatalog &catalog)
{
    const QString folder = QFileInfo(QString::fromStdString(path)).absolutePath();
    if (!QDir().mkpath(folder))
        return Result<bool>::failure(path, "unwritable", path + ": cannot create the folder " + folder.toStdString());
    const QByteArray json = hardwareCatalogToJson(catalog);
    // The catalog is this program's own file, read before an entry is added to it.
    return writeFileReplacing(path, std::string_view(json.constData(), std::size_t(json.size())),
                              InputReplacement::AllowedForOwnFile);
}

Result<HardwareCatalog> appendToUserHardwareCatalog(const std::string &path, const Accelerator &accelerator)
{
    Result<HardwareCatalog> loaded = loadUserHardwareCatalog(path);
    if (!loaded)
        return loaded.problems();  // a broken file is not overwritten: the user may want to repair it
    HardwareCatalog catalog = std::move(loaded.value());
    if (accelerator.id.empty())
        return Result<HardwareCatalog>::failure("id", "required", path + ": the new accelerator needs an id");
    if (idTaken(accelerator.id, catalog))
        return Result<HardwareCatalog>::failure("id", "duplicate",
                                                path + ": an accelerator with id '" + accelerator.id + "' exists already");
    if (accelerator.source.empty())
        return Result<HardwareCatalog>::failure("source", "required",
                                                path + ": the new accelerator needs a source (what its figures come from)");
    catalog.accelerators.push_back(accelerator);
    const Result<bool> saved = saveUserHardwareCatalog(path, catalog);
    if (!saved)
        return saved.problems();
    return catalog;
}

std::string nextCalibratedAcceleratorId(const std::string &base_id, const HardwareCatalog &user_catalog)
{
    // Calibrating a calibrated entry again numbers from its original id, not "…-calibrated-1-calibrated-1".
    static const std::regex calibrated_suffix("-calibrated-[0-9]+$");
    const std::string base = std::regex_replace(base_id, calibrated_suffix, "");
    for (int n = 1;; ++n) {
        std::string id = base + "-calibrated-" + std::to_string(n);
        if (!idTaken(id, user_catalog))
            return id;
    }
}

}  // namespace lse
