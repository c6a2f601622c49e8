// SPDX-License-Identifier: GPL-3.0-or-later
#include "architecture/model_atlas.h"

#include "common/json_fields.h"
#include "cost/parameters.h"
#include "scenario/scenario.h"
#include "scenario/scenario_json.h"

#include <QFile>
#include <QJsonArray>
#include <QtGlobal>

#include <algorithm>
#include <set>

namespace lse {

namespace {

constexpr const char *kAtlasFormat = "llm-explorer-model-atlas";
constexpr int kAtlasVersion = 1;
constexpr const char *kBuiltinAtlasPath = ":/atlas/models.json";
// The atlas covers the transformer era; a year outside this is a typo, not a model.
constexpr int kFirstAtlasYear = 2017;
constexpr int kLastAtlasYear = 2100;

std::string rowPath(int index)
{
    return "models[" + std::to_string(index) + "]";
}

// Adds the row's id to every message so a problem in a 40-row file is found without counting.
void nameRow(Problems &problems, std::size_t first, const std::string &id)
{
    if (id.empty())
        return;
    for (std::size_t i = first; i < problems.size(); ++i)
        problems[i].message += " (row '" + id + "')";
}

// Validation names model fields "model.x"; inside the atlas they are "models[i].model.x".
Problem inRow(Problem problem, const std::string &row)
{
    const auto prefixed = [&row](const std::string &field) { return row + "." + field; };
    problem.message = prefixed(problem.message);
    problem.field = prefixed(problem.field);
    for (std::string &related : problem.related)
        related = prefixed(related);
    return problem;
}

void readPublishedParameters(JsonFieldReader &reader, const QJsonObject &object, AtlasEntry &entry)
{
    if (!reader.has("published_parameters")) {
        reader.addProblem("published_parameters", "required",
                          "every row needs its published parameter count, or null when the authors give none");
        return;
    }
    if (object.value(QStringLiteral("published_parameters")).isNull())
        return;
    std::int64_t count = 0;
    reader.readCount("published_parameters", count);
    if (count > 0)
        entry.published_parameters = count;
    else if (object.value(QStringLiteral("published_parameters")).isDouble())
        reader.addProblem("published_parameters", "range", "must be a positive count or null, got 0");
}

std::optional<AtlasEntry> readRow(const QJsonValue &value, int index, Problems &problems)
{
    const std::string row = rowPath(index);
    if (!value.isObject()) {
        problems.push_back(Problem{row, "type", row + ": expected an object, got " + describeJsonValue(value)});
        return std::nullopt;
    }
    const QJsonObject object = value.toObject();
    const std::size_t first = problems.size();
    AtlasEntry entry;
    JsonFieldReader reader(object, row, problems);
    reader.readString("id", entry.id);
    reader.readString("organisation", entry.organisation);
    reader.readString("family", entry.family);
    reader.readCount("year", entry.year);
    reader.readCount("month", entry.month);
    reader.readString("source", entry.source);
    reader.readString("note", entry.note);
    readPublishedParameters(reader, object, entry);

    const auto missing = [&](std::string_view key, const std::string &text) {
        if (!reader.has(key))
            reader.addProblem(key, "required", text);
    };
    missing("id", "every row needs an id");
    missing("organisation", "every row needs the organisation that published the model");
    missing("family", "every row needs a family (e.g. Llama) for the family filter");
    missing("source", "every row needs the source of its shapes and count");
    missing("year", "every row needs its publication year");
    if (reader.has("id") && entry.id.empty())
        reader.addProblem("id", "required", "must not be empty");
    if (reader.has("source") && entry.source.empty())
        reader.addProblem("source", "required", "must not be empty");
    if (reader.has("year") && (entry.year < kFirstAtlasYear || entry.year > kLastAtlasYear))
        reader.addProblem("year", "range",
                          "must be between " + std::to_string(kFirstAtlasYear) + " and " + std::to_string(kLastAtlasYear)
                              + ", got " + std::to_string(entry.year));
    if (entry.month < 0 || entry.month > 12)
        reader.addProblem("month", "range", "must be 1..12, or 0 when unknown, got " + std::to_string(entry.month));

    if (const auto modelObject = reader.readObject("model")) {
        const Result<ModelConfig> model = modelFromJson(*modelObject, row + ".model");
        if (model) {
            entry.model = model.value();
            for (const Problem &problem : validateModel(entry.model))
                problems.push_back(inRow(problem, row));
        } else {
            problems.insert(problems.end(), model.problems().begin(), model.problems().end());
        }
        if (model && entry.model.name.empty())
            reader.addProblem("model.name", "required", "every row's model needs a display name");
    } else if (!reader.has("model")) {
        reader.addProblem("model", "required", "every row needs a model object");
    }
    nameRow(problems, first, entry.id);
    if (problems.size() != first)
        return std::nullopt;
    const ParameterCounts counts = countParameters(entry.model);
    entry.engine_parameters = counts.total;
    entry.engine_active_parameters = counts.active;
    return entry;
}

std::vector<AtlasEntry> loadBuiltinAtlas()
{
    QFile file(QString::fromLatin1(kBuiltinAtlasPath));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read the built-in model atlas %s", kBuiltinAtlasPath);
    Result<std::vector<AtlasEntry>> atlas = parseModelAtlas(file.readAll());
    if (!atlas)
        qFatal("the built-in model atlas is broken:\n%s", formatProblems(atlas.problems()).c_str());
    return std::move(atlas.value());
}

}  // namespace

std::optional<double> AtlasEntry::parameterDifferenceFraction() const
{
    if (!published_parameters || *published_parameters <= 0)
        return std::nullopt;
    return double(engine_parameters - *published_parameters) / double(*published_parameters);
}

double AtlasEntry::fractionalYear() const
{
    return year + (month > 0 ? (month - 1) / 12.0 : 0.5);
}

Result<std::vector<AtlasEntry>> parseModelAtlas(const QByteArray &json)
{
    Problems problems;
    const std::optional<QJsonObject> root = parseFormattedJson(json, kAtlasFormat, kAtlasVersion, problems);
    if (!root)
        return problems;
    const QJsonValue models = root->value(QStringLiteral("models"));
    if (!models.isArray()) {
        const std::string text = models.isUndefined() ? std::string("required: the atlas needs a models array")
                                                      : "expected an array, got " + describeJsonValue(models);
        return Result<std::vector<AtlasEntry>>::failure("models", models.isUndefined() ? "required" : "type",
                                                        "models: " + text);
    }
    std::vector<AtlasEntry> entries;
    std::set<std::string> ids;
    const QJsonArray rows = models.toArray();
    for (int i = 0; i < rows.size(); ++i) {
        std::optional<AtlasEntry> entry = readRow(rows.at(i), i, problems);
        if (!entry)
            continue;
        // The id is how a row is found (and named in problems): two rows may not share one.
        if (!ids.insert(entry->id).second) {
            const std::string field = rowPath(i) + ".id";
            problems.push_back(Problem{field, "unique", field + ": '" + entry->id + "' is already the id of an earlier row"});
            continue;
        }
        entries.push_back(std::move(*entry));
    }
    if (rows.isEmpty())
        problems.push_back(Problem{"models", "empty", "models: the atlas has no rows"});
    if (!problems.empty())
        return problems;
    return entries;
}

const std::vector<AtlasEntry> &builtinModelAtlas()
{
    static const std::vector<AtlasEntry> atlas = loadBuiltinAtlas();
    return atlas;
}

const AtlasEntry *findAtlasEntry(std::string_view id)
{
    const std::vector<AtlasEntry> &atlas = builtinModelAtlas();
    const auto found = std::find_if(atlas.begin(), atlas.end(), [id](const AtlasEntry &entry) { return entry.id == id; });
    return found == atlas.end() ? nullptr : &*found;
}

}  // namespace lse
