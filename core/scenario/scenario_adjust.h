// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "scenario/scenario.h"

#include <set>
#include <string>
#include <vector>

namespace lse {

// A scenario after automatic changes, with one sentence per change saying what changed and why
// ("tp 8 → 4: 28 heads / 4 KV heads are not divisible by 8").
struct Adjusted {
    Scenario scenario;
    std::vector<std::string> adjustments;
};

// Fields the caller set on purpose (e.g. given as command-line flags), named as validation names
// them ("training.tp", "training.seq_len", "training.global_batch"); they are never changed.
using PinnedFields = std::set<std::string>;

// Puts `model` into `current` and changes only what the new model makes invalid, each to its
// nearest valid value, so that importing a model or choosing a preset gives a valid scenario
// whenever one exists on the same cluster:
//   seq_len   at most the model's context (model.max_seq_len, whatever its positional encoding);
//   tp        the largest degree <= the current one that divides the heads, the KV heads, d_ff
//             (and expert_d_ff), fits in one node and divides the GPU count;
//   cp        the largest degree <= the current one that divides seq_len and the GPUs left by tp;
//   pp        the stage count nearest the current one (the smaller on a tie) that leaves every
//             chunk a layer (pp·virtual_stages ≤ n_layers; pp need not divide them) and divides
//             the GPUs left by tp·cp (virtual_stages drops to 1 when only pp 1 would remain);
//   stage_layers  a given list that no longer fits pp and n_layers goes back to automatic;
//   dp        gpus / (tp·pp·cp);
//   ep        1 for a dense model, else the largest degree <= the current one dividing the
//             experts and dp·cp;
//   batch     micro_batch lowered, or else global_batch rounded to the nearest multiple, so that
//             micro_batch·dp divides global_batch.
Adjusted adaptScenarioToModel(const Scenario &current, const ModelConfig &model, const PinnedFields &pinned = {});

// The same rules applied to the scenario's own model (used by adaptScenarioToModel and the repairs).
Adjusted fitScenarioToModel(const Scenario &scenario, const PinnedFields &pinned = {});

// "tp 8 → 4: ...; pp 4 → 2: ..." (empty when nothing changed).
std::string joinAdjustments(const std::vector<std::string> &adjustments);

}  // namespace lse
