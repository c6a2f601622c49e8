// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "scenario/scenario_adjust.h"

#include <string>
#include <vector>

namespace lse {

// The single steps behind adaptScenarioToModel() and the problem repairs. Each step changes one
// setting only when the current value breaks a rule, to the nearest value that keeps it, and
// records a sentence for the change. Steps respect the settings fixed by the caller.
class ScenarioFitter {
public:
    ScenarioFitter(Scenario scenario, PinnedFields pinned = {});

    void fitSeqLen();         // seq_len <= model.max_seq_len
    void fitTensorParallel();   // tp divides heads, KV heads, d_ff, expert_d_ff; <= gpus_per_node; divides gpus
    void fitContextParallel();  // cp divides seq_len and gpus / tp
    void fitPipelineParallel(); // pp·virtual_stages ≤ n_layers; pp divides gpus / (tp·cp)
    void fitStageLayers();      // a given stage_layers that no longer fits pp and n_layers → automatic
    void fitDataParallel();     // dp = gpus / (tp·pp·cp)
    void fitExpertParallel();   // ep 1 for dense models, else divides n_experts and dp·cp
    void fitBatch();            // micro_batch·dp divides global_batch
    // All of the above in dependency order.
    void fitAll();

    const Scenario &scenario() const { return scenario_; }
    Scenario &scenario() { return scenario_; }
    const std::vector<std::string> &adjustments() const { return adjustments_; }
    void note(std::string sentence) { adjustments_.push_back(std::move(sentence)); }
    bool pinned(const std::string &field) const { return pinned_.count(field) > 0; }

private:
    bool tensorParallelFits(int tp) const;
    bool pipelineFits(int pp, int virtual_stages) const;
    int nearestPipelineDegree(int virtual_stages) const;  // 0 when none fits

    Scenario scenario_;
    PinnedFields pinned_;
    std::vector<std::string> adjustments_;
};

}  // namespace lse
