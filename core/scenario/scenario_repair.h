// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "scenario/scenario_adjust.h"

#include <optional>
#include <string>

namespace lse {

// The obvious repair of one validation problem: the scenario with the setting the rule is about
// moved to its nearest valid value (and the settings that follow from it, e.g. dp after tp), and
// a sentence saying what changed. Problems without an obvious repair (a model shape, an MFU of 3)
// have none: those are the user's decision.
struct Repair {
    Scenario scenario;
    std::string description;
};
std::optional<Repair> repairProblem(const Scenario &scenario, const Problem &problem);

// Repairs problems one at a time until none with a repair is left; `adjustments` lists every
// change. The result may still have problems that have no repair.
Adjusted repairAllProblems(const Scenario &scenario);

}  // namespace lse
