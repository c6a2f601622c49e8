// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/presets.h"

#include "common/json_fields.h"
#include "scenario/scenario_json.h"

#include <QDir>
#include <QFile>
#include <QtGlobal>

#include <algorithm>

namespace lse {

namespace {

constexpr const char *kPresetFormat = "llm-explorer-model-preset";
constexpr int kPresetVersion = 1;
constexpr const char *kBuiltinPresetDir = ":/presets/models";

std::vector<ModelPreset> loadBuiltinPresets()
{
    std::vector<ModelPreset> presets;
    const QStringList files = QDir(kBuiltinPresetDir).entryList({QStringLiteral("*.json")}, QDir::Files);
    if (files.isEmpty())
        qFatal("no built-in model presets under %s", kBuiltinPresetDir);
    for (const QString &fileName : files) {
        QFile file(QStringLiteral("%1/%2").arg(QLatin1String(kBuiltinPresetDir), fileName));
        if (!file.open(QIODevice::ReadOnly))
            qFatal("cannot read built-in preset %s", qPrintable(fileName));
        Result<ModelPreset> preset = parseModelPreset(file.readAll());
        if (!preset)
            qFatal("built-in preset %s is broken:\n%s", qPrintable(fileName),
                   formatProblems(preset.problems()).c_str());
        // The file name is what people find in the source tree; the id is what --model accepts.
        if (QString::fromStdString(preset->id) + QStringLiteral(".json") != fileName)
            qFatal("built-in preset %s declares id '%s'; the file must be named after its id",
                   qPrintable(fileName), preset->id.c_str());
        presets.push_back(std::move(preset.value()));
    }
    std::sort(presets.begin(), presets.end(),
              [](const ModelPreset &a, const ModelPreset &b) { return a.id < b.id; });
    return presets;
}

}  // namespace

Result<ModelPreset> parseModelPreset(const QByteArray &json)
{
    Problems problems;
    const std::optional<QJsonObject> root = parseFormattedJson(json, kPresetFormat, kPresetVersion, problems);
    if (!root)
        return problems;

    ModelPreset preset;
    JsonFieldReader reader(*root, "", problems);
    reader.readString("id", preset.id);
    reader.readCount("official_parameters", preset.official_parameters);
    reader.readString("source", preset.source);
    // A preset exists to be looked up and checked against its published count, so these cannot
    // fall back to defaults the way scenario fields do.
    const auto noProblemYet = [&problems, &reader](std::string_view key) {
        const std::string field = reader.fieldPath(key);
        return std::none_of(problems.begin(), problems.end(), [&field](const Problem &p) { return p.field == field; });
    };
    if (preset.id.empty() && noProblemYet("id"))
        reader.addProblem("id", "required", "every preset needs an id");
    if (preset.official_parameters <= 0 && noProblemYet("official_parameters"))
        reader.addProblem("official_parameters", "required", "every preset needs its published parameter count (> 0)");
    if (preset.source.empty() && noProblemYet("source"))
        reader.addProblem("source", "required", "every preset needs the source of its shapes and count");
    if (const auto modelObject = reader.readObject("model")) {
        Result<ModelConfig> model = modelFromJson(*modelObject, "model");
        if (model)
            preset.model = std::move(model.value());
        else
            problems.insert(problems.end(), model.problems().begin(), model.problems().end());
    } else if (!reader.has("model")) {
        reader.addProblem("model", "required", "every preset needs a model object");
    }
    if (!problems.empty())
        return problems;
    return preset;
}

const std::vector<ModelPreset> &builtinModelPresets()
{
    static const std::vector<ModelPreset> presets = loadBuiltinPresets();
    return presets;
}

const ModelPreset *findModelPreset(std::string_view id)
{
    for (const ModelPreset &preset : builtinModelPresets())
        if (preset.id == id)
            return &preset;
    return nullptr;
}

}  // namespace lse
