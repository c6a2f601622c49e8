// SPDX-License-Identifier: GPL-3.0-or-later
#include "hardware/hardware_catalog.h"

#include "common/json_fields.h"

#include <QFile>
#include <QJsonArray>
#include <QtGlobal>

#include <set>

namespace lse {

namespace {

constexpr const char *kCatalogFormat = "llm-explorer-hardware";
constexpr int kCatalogVersion = 1;
constexpr const char *kBuiltinCatalogPath = ":/hardware/catalog.json";

// The dtype names double as the keys of "dense_peak", so the file reads like the DType enum.
struct PeakField {
    DType dtype;
    double PeakFlops::*member;
};
constexpr PeakField kPeakFields[] = {
    {DType::FP32, &PeakFlops::fp32_flops_per_second}, {DType::TF32, &PeakFlops::tf32_flops_per_second},
    {DType::BF16, &PeakFlops::bf16_flops_per_second}, {DType::FP16, &PeakFlops::fp16_flops_per_second},
    {DType::FP8, &PeakFlops::fp8_flops_per_second},
};

QString qstr(std::string_view text) { return QString::fromUtf8(text.data(), qsizetype(text.size())); }

}  // namespace

const Accelerator *HardwareCatalog::find(std::string_view id) const
{
    for (const Accelerator &accelerator : accelerators)
        if (accelerator.id == id)
            return &accelerator;
    return nullptr;
}

QJsonObject acceleratorToJson(const Accelerator &accelerator)
{
    QJsonObject peak;
    for (const PeakField &field : kPeakFields)
        peak.insert(qstr(toString(field.dtype)), accelerator.dense_peak.*field.member);

    QJsonObject object;
    object.insert("id", qstr(accelerator.id));
    object.insert("name", qstr(accelerator.name));
    object.insert("vendor", qstr(accelerator.vendor));
    object.insert("dense_peak", peak);
    object.insert("memory_bytes", qint64(accelerator.memory_bytes));
    object.insert("memory_bandwidth_bytes_per_second", accelerator.memory_bandwidth_bytes_per_second);
    object.insert("intra_node_bandwidth_bytes_per_second", accelerator.intra_node_bandwidth_bytes_per_second);
    object.insert("inter_node_bandwidth_bytes_per_second", accelerator.inter_node_bandwidth_bytes_per_second);
    object.insert("sm_count", accelerator.sm_count);
    object.insert("sram_bytes", qint64(accelerator.sram_bytes));
    object.insert("l2_bytes", qint64(accelerator.l2_bytes));
    object.insert("efficiency", efficiencyFactorsToJson(accelerator.efficiency));
    object.insert("prediction_accuracy", predictionAccuracyToJson(accelerator.accuracy));
    object.insert("source", qstr(accelerator.source));
    object.insert("note", qstr(accelerator.note));
    return object;
}

Result<Accelerator> acceleratorFromJson(const QJsonObject &object, const std::string &field)
{
    Problems problems;
    Accelerator accelerator;
    JsonFieldReader reader(object, field, problems);
    reader.readString("id", accelerator.id);
    reader.readString("name", accelerator.name);
    reader.readString("vendor", accelerator.vendor);
    if (const auto peakObject = reader.readObject("dense_peak")) {
        JsonFieldReader peak(*peakObject, reader.fieldPath("dense_peak"), problems);
        for (const PeakField &peakField : kPeakFields)
            peak.readAmount(toString(peakField.dtype), accelerator.dense_peak.*peakField.member);
    }
    reader.readCount("memory_bytes", accelerator.memory_bytes);
    reader.readAmount("memory_bandwidth_bytes_per_second", accelerator.memory_bandwidth_bytes_per_second);
    reader.readAmount("intra_node_bandwidth_bytes_per_second", accelerator.intra_node_bandwidth_bytes_per_second);
    reader.readAmount("inter_node_bandwidth_bytes_per_second", accelerator.inter_node_bandwidth_bytes_per_second);
    reader.readCount("sm_count", accelerator.sm_count);
    reader.readCount("sram_bytes", accelerator.sram_bytes);
    reader.readCount("l2_bytes", accelerator.l2_bytes);
    reader.readString("source", accelerator.source);
    reader.readString("note", accelerator.note);
    // Older scenario files and user entries have no "efficiency": they keep the defaults.
    if (const auto efficiencyObject = reader.readObject("efficiency")) {
        Result<EfficiencyFactors> efficiency =
            efficiencyFactorsFromJson(*efficiencyObject, reader.fieldPath("efficiency"));
        if (efficiency)
            accelerator.efficiency = *efficiency;
        else
            problems.insert(problems.end(), efficiency.problems().begin(), efficiency.problems().end());
    }
    // Absent (older scenario files, user entries): nothing is known of the prediction's error.
    if (const auto accuracyObject = reader.readObject("prediction_accuracy")) {
        Result<PredictionAccuracy> accuracy =
            predictionAccuracyFromJson(*accuracyObject, reader.fieldPath("prediction_accuracy"));
        if (accuracy)
            accelerator.accuracy = *accuracy;
        else
            problems.insert(problems.end(), accuracy.problems().begin(), accuracy.problems().end());
    } else {
        accelerator.accuracy.basis = "no published runs of this accelerator: error unknown";
    }
    if (!problems.empty())
        return problems;
    return accelerator;
}

Result<HardwareCatalog> parseHardwareCatalog(const QByteArray &json)
{
    Problems problems;
    const std::optional<QJsonObject> root = parseFormattedJson(json, kCatalogFormat, kCatalogVersion, problems);
    if (!root)
        return problems;
    const QJsonValue list = root->value(QStringLiteral("accelerators"));
    if (!list.isArray())
        return Problems{Problem{"accelerators", "type",
                                "accelerators: expected an array, got " + describeJsonValue(list)}};

    HardwareCatalog catalog;
    std::set<std::string> seen;
    const QJsonArray array = list.toArray();
    for (qsizetype index = 0; index < array.size(); ++index) {
        const std::string path = "accelerators[" + std::to_string(index) + "]";
        if (!array[index].isObject()) {
            problems.push_back(
                Problem{path, "type", path + ": expected an object, got " + describeJsonValue(array[index])});
            continue;
        }
        Result<Accelerator> accelerator = acceleratorFromJson(array[index].toObject(), path);
        if (!accelerator) {
            problems.insert(problems.end(), accelerator.problems().begin(), accelerator.problems().end());
            continue;
        }
        // Catalog entries are looked up by id and must say where their figures come from.
        if (accelerator->id.empty())
            problems.push_back(Problem{path + ".id", "required", path + ".id: every accelerator needs an id"});
        else if (!seen.insert(accelerator->id).second)
            problems.push_back(Problem{path + ".id", "duplicate",
                                       path + ".id: '" + accelerator->id + "' appears more than once"});
        if (accelerator->source.empty())
            problems.push_back(Problem{path + ".source", "required",
                                       path + ".source: every catalog figure needs the datasheet it comes from"});
        catalog.accelerators.push_back(std::move(accelerator.value()));
    }
    if (!problems.empty())
        return problems;
    return catalog;
}

const HardwareCatalog &builtinHardwareCatalog()
{
    static const HardwareCatalog catalog = [] {
        QFile file(kBuiltinCatalogPath);
        if (!file.open(QIODevice::ReadOnly))
            qFatal("built-in hardware catalog %s is missing from the resources", kBuiltinCatalogPath);
        Result<HardwareCatalog> parsed = parseHardwareCatalog(file.readAll());
        if (!parsed)
            qFatal("built-in hardware catalog is broken:\n%s", formatProblems(parsed.problems()).c_str());
        return std::move(parsed.value());
    }();
    return catalog;
}

Accelerator customAccelerator()
{
    // Starting from a real, sourced device keeps every default plausible and gives the figures a
    // single home (the catalog); the user is expected to overwrite them.
    const Accelerator *h100 = builtinHardwareCatalog().find("h100-sxm");
    if (h100 == nullptr)
        qFatal("built-in hardware catalog lacks h100-sxm, the template of the custom accelerator");
    Accelerator custom = *h100;
    custom.id = "custom";
    custom.name = "Custom accelerator";
    custom.vendor.clear();
    custom.source = "user-defined; starting values copied from the h100-sxm catalog entry (" + h100->source + ")";
    custom.note = "Every field is editable. " + h100->note;
    return custom;
}

}  // namespace lse
