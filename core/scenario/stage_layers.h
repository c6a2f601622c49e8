// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How the transformer layers are placed on the pipeline stages: the one place every module
// (validation, memory, communication, step time, layout search, the CLI and the editor) asks.
// It lives in scenario/ rather than parallel/ because validation and the scenario file need it,
// and scenario/ is below cost/ and parallel/ in the dependency order.

#include "common/problem.h"
#include "scenario/training_config.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lse {

// `layers` split over `parts` as evenly as possible: every part gets ⌊layers/parts⌋ and the
// remainder goes one each to the middle parts, the last middle part first, so the first part (which
// holds the embedding) and the last (head and loss) are the lighter ones, as Llama 3 405B places
// 126 layers on 16 stages (7, 8 × 14, 7; Llama 3 paper §3.3.2). The last middle parts first because
// in 1F1B stage s keeps p − s micro-batches of activations, so later stages have room to spare.
// A remainder of parts − 1 (more than the middle parts) puts its last layer on the last part.
// Empty when parts < 1; parts > layers gives zeros.
std::vector<int> evenLayerSplit(int layers, int parts);

struct PipelineLayers {
    std::vector<int> stage_layers;  // per stage, stage 0 first; they sum to n_layers
    int most_loaded_stage = 0;      // the stage with the most layers (the first on a tie)
    int virtual_stages = 1;         // chunks per stage
    bool given = false;             // from training.parallel.stage_layers, not automatic

    int mostLoadedStageLayers() const;
    // The interleaved chunks of one stage: evenLayerSplit(its layers, virtual_stages).
    std::vector<int> chunkLayers(int stage) const;
    // max stage / mean stage (1 for an even split): how much longer the slowest stage computes
    // than the FLOPs spread evenly would say.
    double imbalance() const;
};

// The scenario's placement: parallel.stage_layers when it has one entry per stage, otherwise
// evenLayerSplit(n_layers, pp). Call it on a validated scenario; it never fails (pp < 1 is
// treated as 1).
PipelineLayers pipelineLayers(int n_layers, const ParallelConfig &parallel);
// pipelineLayers(...).mostLoadedStageLayers() without building the list (the layout search asks
// this for every candidate).
int mostLoadedStageLayers(int n_layers, const ParallelConfig &parallel);

// The rules on the placement, as validation reports them:
// - without a list: every chunk needs a layer, n_layers ≥ pp·virtual_stages (field model.n_layers,
//   rule "layers_per_chunk"); pp need not divide n_layers.
// - with a list (field training.stage_layers): one entry per stage ("length"), summing to
//   model.n_layers ("sum"), each at least virtual_stages, i.e. at least 1 ("minimum"). A stage
//   with no layers at all would be an embedding- or head-only GPU that the step model (one
//   compute stage per pipeline rank) does not represent, so the first and last stage need one too.
Problems stageLayerProblems(int n_layers, const ParallelConfig &parallel);

// "4,6,6,4" from a list, and back; parse gives nothing for anything but comma-separated
// non-negative integers (spaces allowed). Empty text is the empty list (automatic split).
std::string stageLayersText(const std::vector<int> &layers);
std::optional<std::vector<int>> parseStageLayers(std::string_view text);

}  // namespace lse
