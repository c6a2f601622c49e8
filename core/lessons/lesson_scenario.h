// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/problem.h"
#include "lessons/lesson.h"
#include "scenario/scenario.h"

#include <string>
#include <vector>

namespace lse {

// `scenario` with `changes` applied in order. A change names a dotted path of the scenario file
// ("training.parallel.tp", "cluster.gpus", "model.n_layers"; the editor's names of the parallel
// settings, "training.tp", are accepted too) that must already exist there (rule
// "unknown_field"); its value is read exactly as a scenario file's would be (rules "type", "enum",
// "range", ...). Problems are named `prefix` + "[j].field" / "[j].value". Nothing is adapted: a
// lesson states every field it means to change.
Result<Scenario> applyScenarioChanges(const Scenario &scenario, const std::vector<ScenarioChange> &changes,
                                      const std::string &prefix = "scenario_changes");

// The scenario each step shows, cumulatively from `start`: a step's preset first replaces the model
// and adapts the rest to it (adaptScenarioToModel, as the preset picker does), then its changes
// apply, and whatever they leave inconsistent moves to its nearest valid value with the fields the step
// sets pinned (fitScenarioToModel: 512 GPUs instead of 1024 halve dp). Every step's scenario must be valid (rule "invalid_scenario", naming the step and listing
// the validation messages). Problems name "steps[k].preset", "steps[k].scenario_changes[j].field", ...
Result<std::vector<Scenario>> lessonScenarios(const Lesson &lesson, const Scenario &start);
// From the course's worked example (defaultScenario()), the start every lesson assumes.
Result<std::vector<Scenario>> lessonScenarios(const Lesson &lesson);

// The changes that turn `from` into `to`: one per leaf of the scenario file whose value differs,
// in file order (used by "Record step"). applyScenarioChanges(from, scenarioDifference(from, to))
// equals `to`.
std::vector<ScenarioChange> scenarioDifference(const Scenario &from, const Scenario &to);

}  // namespace lse
