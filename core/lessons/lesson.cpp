// SPDX-License-Identifier: GPL-3.0-or-later
#include "lessons/lesson.h"

#include "common/json_fields.h"
#include "scenario/presets.h"

#include <QJsonArray>

#include <array>
#include <utility>

namespace lse {

namespace {

constexpr std::array<std::pair<HighlightKind, std::string_view>, 5> kHighlightKindNames{{
    {HighlightKind::ChartSeries, "chart_series"},
    {HighlightKind::ChartPoint, "chart_point"},
    {HighlightKind::TableRow, "table_row"},
    {HighlightKind::Field, "field"},
    {HighlightKind::Region, "region"},
}};

std::string stepPath(int index)
{
    return "steps[" + std::to_string(index) + "]";
}

// Missing, of the wrong type (rule "type", from the reader) or empty: each a problem.
void readRequiredString(JsonFieldReader &reader, const QJsonObject &object, std::string_view key,
                        std::string &target)
{
    if (!reader.has(key)) {
        reader.addProblem(key, "required", "is missing");
        return;
    }
    reader.readString(key, target);
    const QJsonValue value = object.value(QString::fromUtf8(key.data(), qsizetype(key.size())));
    if (value.isString() && value.toString().isEmpty())
        reader.addProblem(key, "required", "is empty");
}

// {"en": "...", "zh_CN": "..."}: English is required, Chinese optional until translated.
std::optional<LocalizedText> readLocalizedText(const QJsonObject &object, const std::string &path,
                                               Problems &problems)
{
    const std::size_t first = problems.size();
    LocalizedText text;
    JsonFieldReader reader(object, path, problems);
    readRequiredString(reader, object, "en", text.en);
    reader.readString("zh_CN", text.zh_CN);
    if (problems.size() != first)
        return std::nullopt;
    return text;
}

std::optional<LocalizedText> readLocalizedField(JsonFieldReader &reader, std::string_view key, bool required,
                                                Problems &problems)
{
    if (!reader.has(key)) {
        if (required)
            reader.addProblem(key, "required", "is missing");
        return std::nullopt;
    }
    const std::optional<QJsonObject> object = reader.readObject(key);
    if (!object)
        return std::nullopt;
    return readLocalizedText(*object, reader.fieldPath(key), problems);
}

std::optional<Highlight> readHighlight(const QJsonObject &object, const std::string &path, Problems &problems)
{
    JsonFieldReader reader(object, path, problems);
    Highlight highlight;
    if (!reader.has("kind"))
        reader.addProblem("kind", "required", "is missing; expected " + highlightKindChoices());
    reader.readEnum("kind", highlight.kind, &highlightKindFromString, highlightKindChoices());
    readRequiredString(reader, object, "target", highlight.target);
    return highlight;
}

// "scenario_changes": [{"field": "training.tp", "value": 8}, ...], kept in file order.
void readScenarioChanges(const QJsonArray &array, const std::string &path, LessonStep &step, Problems &problems)
{
    for (int i = 0; i < array.size(); ++i) {
        const std::string item = path + "[" + std::to_string(i) + "]";
        if (!array.at(i).isObject()) {
            problems.push_back({item, "type", item + " must be an object {\"field\": ..., \"value\": ...}, not "
                                                  + describeJsonValue(array.at(i))});
            continue;
        }
        const QJsonObject object = array.at(i).toObject();
        JsonFieldReader reader(object, item, problems);
        ScenarioChange change;
        readRequiredString(reader, object, "field", change.field);
        if (!reader.has("value"))
            reader.addProblem("value", "required", "is missing");
        change.value = object.value(QStringLiteral("value"));
        step.scenario_changes.push_back(std::move(change));
    }
}

LessonStep readStep(const QJsonObject &object, int index, Problems &problems)
{
    const std::string path = stepPath(index);
    LessonStep step;
    JsonFieldReader reader(object, path, problems);
    readRequiredString(reader, object, "page", step.page);
    if (reader.has("preset")) {
        std::string preset;
        readRequiredString(reader, object, "preset", preset);
        // Caught here rather than when the step is shown, so a lesson never fails mid-lecture.
        if (!preset.empty() && !findModelPreset(preset))
            reader.addProblem("preset", "unknown", "'" + preset + "' is not a built-in model preset");
        else if (!preset.empty())
            step.preset = preset;
    }
    if (reader.has("scenario_changes")) {
        const QJsonValue changes = object.value(QStringLiteral("scenario_changes"));
        if (changes.isArray())
            readScenarioChanges(changes.toArray(), reader.fieldPath("scenario_changes"), step, problems);
        else
            reader.addProblem("scenario_changes", "type",
                              "expected an array, got " + describeJsonValue(changes));
    }
    if (const std::optional<QJsonObject> settings = reader.readObject("page_settings"))
        step.page_settings = *settings;
    if (const std::optional<QJsonObject> highlight = reader.readObject("highlight"))
        step.highlight = readHighlight(*highlight, reader.fieldPath("highlight"), problems);
    if (std::optional<LocalizedText> text = readLocalizedField(reader, "text", true, problems))
        step.text = std::move(*text);
    step.question = readLocalizedField(reader, "question", false, problems);
    step.answer = readLocalizedField(reader, "answer", false, problems);
    // The answer is what the next key reveals after the question, so neither comes alone.
    if (reader.has("question") && !reader.has("answer"))
        reader.addProblem("answer", "required", "is missing; a question needs an answer");
    if (reader.has("answer") && !reader.has("question"))
        reader.addProblem("question", "required",
                          "is missing; an answer needs a question");
    return step;
}

}  // namespace

std::optional<HighlightKind> highlightKindFromString(std::string_view text)
{
    for (const auto &[kind, name] : kHighlightKindNames)
        if (name == text)
            return kind;
    return std::nullopt;
}

std::string_view toString(HighlightKind kind)
{
    for (const auto &[candidate, name] : kHighlightKindNames)
        if (candidate == kind)
            return name;
    return {};
}

std::string highlightKindChoices()
{
    std::string choices;
    for (const auto &entry : kHighlightKindNames) {
        if (!choices.empty())
            choices += '|';
        choices += entry.second;
    }
    return choices;
}

Result<Lesson> parseLesson(const QByteArray &json)
{
    Problems problems;
    const std::optional<QJsonObject> root = parseFormattedJson(json, kLessonFormat, kLessonVersion, problems);
    if (!root)
        return problems;

    Lesson lesson;
    JsonFieldReader reader(*root, "", problems);
    readRequiredString(reader, *root, "id", lesson.id);
    if (std::optional<LocalizedText> title = readLocalizedField(reader, "title", true, problems))
        lesson.title = std::move(*title);
    reader.readString("lecture", lesson.lecture);

    const QJsonValue steps = root->value(QStringLiteral("steps"));
    if (!steps.isArray()) {
        const std::string found = steps.isUndefined() ? "missing" : "not an array but " + describeJsonValue(steps);
        problems.push_back({"steps", steps.isUndefined() ? "required" : "type", "steps is " + found});
    } else {
        const QJsonArray array = steps.toArray();
        if (array.size() < kMinLessonSteps || array.size() > kMaxLessonSteps)
            problems.push_back({"steps", "count",
                                "steps has " + std::to_string(array.size()) + " entries; a lesson has "
                                    + std::to_string(kMinLessonSteps) + " to " + std::to_string(kMaxLessonSteps)});
        for (int i = 0; i < array.size(); ++i) {
            if (!array.at(i).isObject()) {
                problems.push_back({stepPath(i), "type",
                                    stepPath(i) + " must be an object, not " + describeJsonValue(array.at(i))});
                continue;
            }
            lesson.steps.push_back(readStep(array.at(i).toObject(), i, problems));
        }
    }
    if (!problems.empty())
        return problems;
    return lesson;
}

}  // namespace lse
