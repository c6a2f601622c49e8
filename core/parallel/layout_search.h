// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/problem.h"
#include "parallel/step_time.h"
#include "scenario/scenario.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace lse::parallel {

// One point of the layout space and how it performs.
struct LayoutCandidate {
    ParallelConfig parallel;  // dp, tp, pp, cp, ep, virtual_stages, zero_stage, sequence_parallel
    std::int64_t micro_batch = 1;
    Recomputation recomputation = Recomputation::None;
    // The predicted step (performance::predictStep) and the engine's memory per GPU.
    StepTimeBreakdown breakdown;
    // In the top list: the predicted step is within the accelerator's error band of the best one
    // (markWithinBandOfBest); the prediction cannot tell such a layout from the best.
    bool within_band_of_best = false;
};

struct SearchOptions {
    int top = 20;
    std::vector<int> zero_stages{0, 1, 2, 3};
    std::vector<Recomputation> recomputations{Recomputation::None, Recomputation::Selective, Recomputation::Full};
    std::int64_t max_micro_batch = 16;
    bool allow_sequence_parallel = true;  // sp is only tried with tp > 1 (with tp = 1 it changes nothing)
    int max_virtual_stages = 8;           // interleaving is only tried with pp > 1
    bool keep_cloud = true;
    // Every cloud point is predicted (about a millisecond each), so the sample stays small.
    std::size_t max_cloud_points = 300;
};

struct SearchResult {
    std::vector<LayoutCandidate> top;    // fitting layouts, fastest predicted step first (ties: less memory first)
    std::vector<LayoutCandidate> cloud;  // an evenly spaced sample of every valid layout, fitting or not, predicted
    std::int64_t evaluated = 0;  // valid layouts whose memory and step-time bound were computed
    std::int64_t valid = 0;      // layouts the engine's validate() accepts
    std::int64_t fitting = 0;    // of those, the ones that fit the GPU memory
    std::int64_t predicted = 0;  // layouts performance::predictStep ran on (top candidates and cloud)
    bool cancelled = false;
    double seconds = 0;
    // The base accelerator's error band p (PredictionAccuracy::bandFraction; 0 without published
    // runs) that marks the top layouts within_band_of_best.
    double band_fraction = 0;
};

// Marks each of `top` (fastest first) whose predicted step t satisfies t ≤ t_best · (1 + p): it
// differs from the best by less than the band p, the accelerator's leave-one-source-out 90th
// percentile error (issue 29 §2). With p = 0 only the best (and exact ties) are marked.
void markWithinBandOfBest(std::vector<LayoutCandidate> &top, double band_fraction);

// Called now and then with (evaluated so far, total valid layouts); return false to cancel (the
// result then holds what was found so far, cancelled = true).
using SearchProgress = std::function<bool(std::int64_t evaluated, std::int64_t total)>;

// Every valid (dp, tp, pp, cp, ep, zero stage, micro-batch, recomputation, v, sp) layout of the
// base scenario's GPUs and model, ranked by the predicted step time,
// performance::predictStep(applyLayout(base, layout)).total_seconds (the operator-level model the
// Validation page checks against published runs). The fast path computes every layout's memory
// and a lower bound on its predicted step (predicted_step_bound.h); the fitting layouts are then
// predicted in the order of their bounds until the next bound exceeds the K-th best predicted step,
// so the top list is exactly the K fastest predicted layouts while only a few are predicted. Valid means exactly
// validate(applyLayout(base, layout)).empty(); the model, cluster and the rest of training come from
// `base` (its own layout is ignored: candidates place layers with the automatic split of
// scenario/stage_layers.h, pp need not divide n_layers, and a given stage_layers list, made for one
// pp, is not carried over). Problems: the base scenario's non-layout fields, or options
// out of range (field "options.<name>").
Result<SearchResult> searchLayouts(const Scenario &base, const SearchOptions &options,
                                   const SearchProgress &progress = {});

// The predicted step and the engine's memory of a scenario's own layout, the figures the search
// lists for each candidate (the Search page's "current layout"). Problems: the engine's validation.
Result<StepTimeBreakdown> predictedBreakdown(const Scenario &scenario);

// `base` with the candidate's parallel config, micro-batch and recomputation.
Scenario applyLayout(const Scenario &base, const LayoutCandidate &layout);

// The fast validity rule the search uses (exposed so a test can compare it with validate()).
// Assumes the base scenario's non-layout fields are valid.
bool layoutIsValid(const Scenario &base, const ParallelConfig &parallel, std::int64_t micro_batch);

}  // namespace lse::parallel
