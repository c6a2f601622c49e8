// SPDX-License-Identifier: GPL-3.0-or-later
#include "lessons/lesson_scenario.h"

#include "hardware/hardware_catalog.h"
#include "scenario/presets.h"
#include "scenario/scenario_adjust.h"
#include "scenario/scenario_json.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

namespace lse {

namespace {

QJsonObject scenarioObject(const Scenario &scenario)
{
    return QJsonDocument::fromJson(scenarioToJson(scenario)).object();
}

// Sets `path` (already split) inside `object`; false when a part of it is not in the file.
bool setPath(QJsonObject &object, const QStringList &parts, int index, const QJsonValue &value)
{
    const QString &key = parts[index];
    if (!object.contains(key))
        return false;
    if (index + 1 == parts.size()) {
        object.insert(key, value);
        return true;
    }
    QJsonValue child = object.value(key);
    if (!child.isObject())
        return false;
    QJsonObject child_object = child.toObject();
    if (!setPath(child_object, parts, index + 1, value))
        return false;
    object.insert(key, child_object);
    return true;
}

// The scenario file's own bookkeeping keys are not settings a lesson changes.
bool isBookkeeping(const QString &path) { return path == "format" || path == "version"; }

void collectDifferences(const QJsonObject &from, const QJsonObject &to, const QString &prefix,
                        std::vector<ScenarioChange> &changes)
{
    for (auto it = to.begin(); it != to.end(); ++it) {
        const QString path = prefix.isEmpty() ? it.key() : prefix + "." + it.key();
        if (isBookkeeping(path))
            continue;
        const QJsonValue before = from.value(it.key());
        // The accelerator is one choice of the catalog: its id says it, when it names a built-in one
        // unchanged (a calibrated or edited accelerator is written whole).
        if (path == "cluster.accelerator" && before != it.value()) {
            const QJsonObject accelerator = it.value().toObject();
            const Accelerator *builtin = builtinHardwareCatalog().find(accelerator.value("id").toString().toStdString());
            if (builtin != nullptr && acceleratorToJson(*builtin) == accelerator)
                changes.push_back({path.toStdString(), accelerator.value("id")});
            else
                changes.push_back({path.toStdString(), it.value()});
            continue;
        }
        if (it.value().isObject() && before.isObject()) {
            collectDifferences(before.toObject(), it.value().toObject(), path, changes);
            continue;
        }
        if (before != it.value())
            changes.push_back({path.toStdString(), it.value()});
    }
}

// The fitter names the parallel degrees "training.tp", the file "training.parallel.tp".
std::string pinnedName(const std::string &field)  // e.g. training.parallel.tp → training.tp
{
    const std::string parallel = "training.parallel.";
    if (field.rfind(parallel, 0) == 0)
        return "training." + field.substr(parallel.size());
    return field;
}

}  // namespace

Result<Scenario> applyScenarioChanges(const Scenario &scenario, const std::vector<ScenarioChange> &changes,
                                      const std::string &prefix)
{
    if (changes.empty())
        return scenario;
    QJsonObject object = scenarioObject(scenario);
    Problems problems;
    for (std::size_t j = 0; j < changes.size(); ++j) {
        const ScenarioChange &change = changes[j];
        const std::string path = prefix + "[" + std::to_string(j) + "]";
        const QString field = QString::fromStdString(change.field);
        QJsonValue value = change.value;
        // "cluster.accelerator": "a100-sxm-80gb" picks a catalog entry, as the editor's GPU list does.
        if (field == "cluster.accelerator" && value.isString()) {
            const Accelerator *accelerator = builtinHardwareCatalog().find(value.toString().toStdString());
            if (accelerator == nullptr) {
                problems.push_back({path + ".value", "unknown_accelerator",
                                    path + ".value: no accelerator '" + value.toString().toStdString() +
                                        "' in the built-in catalog (see llm-explorer-cli hardware)"});
                continue;
            }
            value = acceleratorToJson(*accelerator);
        }
        // The editor and validation name the parallel degrees "training.tp"; the file nests them
        // under "training.parallel". Both are accepted.
        const QString nested = field.startsWith("training.") ? "training.parallel." + field.mid(9) : QString();
        if (field.isEmpty() || isBookkeeping(field) ||
            (!setPath(object, field.split('.'), 0, value) &&
             (nested.isEmpty() || !setPath(object, nested.split('.'), 0, value))))
            problems.push_back({path + ".field", "unknown_field",
                                path + ".field: '" + change.field +
                                    "' is not a field of the scenario file (a dotted path such as "
                                    "'training.parallel.tp' or 'model.n_layers')"});
    }
    if (!problems.empty())
        return problems;
    Result<Scenario> changed = scenarioFromJson(QJsonDocument(object).toJson(QJsonDocument::Compact));
    if (changed)
        return changed;
    // Point each problem at the change that caused it.
    for (Problem problem : changed.problems()) {
        std::string where = prefix;
        for (std::size_t j = 0; j < changes.size(); ++j)
            if (problem.field.rfind(changes[j].field, 0) == 0 || changes[j].field.rfind(problem.field, 0) == 0) {
                where = prefix + "[" + std::to_string(j) + "].value";
                break;
            }
        problem.message = where + ": " + problem.message;
        problem.field = where;
        problems.push_back(std::move(problem));
    }
    return problems;
}

Result<std::vector<Scenario>> lessonScenarios(const Lesson &lesson, const Scenario &start)
{
    std::vector<Scenario> scenarios;
    Problems problems;
    Scenario current = start;
    for (std::size_t k = 0; k < lesson.steps.size(); ++k) {
        const LessonStep &step = lesson.steps[k];
        const std::string path = "steps[" + std::to_string(k) + "]";
        if (step.preset) {
            const ModelPreset *preset = findModelPreset(*step.preset);
            if (preset == nullptr) {
                problems.push_back({path + ".preset", "unknown_preset",
                                    path + ".preset: no model preset '" + *step.preset + "'"});
                scenarios.push_back(current);
                continue;
            }
            current = adaptScenarioToModel(current, preset->model).scenario;
        }
        Result<Scenario> changed = applyScenarioChanges(current, step.scenario_changes, path + ".scenario_changes");
        if (!changed) {
            for (const Problem &problem : changed.problems())
                problems.push_back(problem);
            scenarios.push_back(current);
            continue;
        }
        // What the changes make inconsistent moves to its nearest valid value, as in the editor (1024 → 512
        // GPUs halves dp); the fields the step sets are pinned.
        PinnedFields pinned;
        for (const ScenarioChange &change : step.scenario_changes)
            pinned.insert(pinnedName(change.field));
        current = fitScenarioToModel(*changed, pinned).scenario;
        const Problems invalid = validate(current);
        if (!invalid.empty()) {
            std::string message = path + ".scenario_changes: the step's scenario is not valid:";
            for (const Problem &problem : invalid)
                message += " " + problem.message + ";";
            message.pop_back();
            problems.push_back({path + ".scenario_changes", "invalid_scenario", message});
        }
        scenarios.push_back(current);
    }
    if (!problems.empty())
        return problems;
    return scenarios;
}

Result<std::vector<Scenario>> lessonScenarios(const Lesson &lesson)
{
    return lessonScenarios(lesson, defaultScenario());
}

std::vector<ScenarioChange> scenarioDifference(const Scenario &from, const Scenario &to)
{
    std::vector<ScenarioChange> changes;
    collectDifferences(scenarioObject(from), scenarioObject(to), QString(), changes);
    return changes;
}

}  // namespace lse
