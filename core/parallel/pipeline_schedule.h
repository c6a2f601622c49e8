// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/problem.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lse::parallel {

// GPipe (Huang et al. 2019): all forwards, then all backwards.
// OneFOneB: PipeDream-Flush / Megatron 1F1B (Narayanan et al. 2021 §2.2): stage s runs p-s-1
//   warm-up forwards, then alternates one forward and one backward, then drains the backwards.
// Interleaved: interleaved 1F1B with v model chunks per stage (Narayanan et al. 2021 §2.2.2).
// ZeroBubble: ZB-H1 (Qi et al. 2023, "Zero Bubble Pipeline Parallelism" §3): the backward is split
//   into B (input gradient, on the critical path) and W (weight gradient, deferred to fill bubbles).
//   Stage s runs units (F_x, B_{x-(p-1-s)}, W_{x-(p-1)}): 1F1B's activation memory, s deferred W.
enum class PipelineScheduleKind { GPipe, OneFOneB, Interleaved, ZeroBubble };
enum class WorkKind { Forward, Backward, BackwardInput, BackwardWeight };

std::string_view toString(PipelineScheduleKind value);  // "gpipe", "1f1b", "interleaved", "zb"
std::string_view toString(WorkKind value);              // "F", "B", "BI", "W"
std::string_view displayName(PipelineScheduleKind value);  // "GPipe", "1F1B", "Interleaved 1F1B", "ZB-H1"
std::optional<PipelineScheduleKind> pipelineScheduleFromString(std::string_view text);
std::string pipelineScheduleChoices();  // "gpipe|1f1b|interleaved|zb"

// Time of one micro-batch's work on one stage (one chunk of a stage for interleaved: the caller
// gives per-chunk times, i.e. a stage's full times divided by v).
struct PipelineTimes {
    double forward_seconds = 1;
    double backward_seconds = 2;
    // Zero bubble only: B and W; each is half of backward_seconds when left 0.
    double backward_input_seconds = 0;
    double backward_weight_seconds = 0;
};

struct PipelineTask {
    int stage = 0;
    int micro_batch = 0;
    int chunk = 0;  // model chunk on this stage (0 unless interleaved)
    WorkKind kind = WorkKind::Forward;
    double start_seconds = 0;
    double end_seconds = 0;
};

struct PipelineTimeline {
    PipelineScheduleKind schedule = PipelineScheduleKind::OneFOneB;
    int stages = 1;
    int micro_batches = 1;
    int chunks = 1;
    std::vector<PipelineTask> tasks;  // in start order per stage, stage by stage
    double makespan_seconds = 0;
    double busy_seconds_per_stage = 0;  // m·v·(t_f + t_b) — the same on every stage
    // (makespan - busy) / busy, measured from the timeline: comparable to (p-1)/m (GPipe §2.3,
    // Narayanan et al. 2021 §2.2.1).
    double bubble_fraction = 0;
    double idle_share_of_makespan = 0;  // (makespan - busy) / makespan
    // (p-1)/m (GPipe, 1F1B); (p-1)/(v·m) (interleaved); ZB-H1: (p-1)(t_F + t_B - t_W) / (m (t_F+t_B+t_W))
    // (Qi et al. 2023 §3.1, bubble of 1F1B shrunk by the W that fill it). The simulation equals it
    // for m >= p and t_W <= t_B (tested); outside that range only the measured value holds.
    double analytic_bubble_fraction = 0;
    // Whether the closed form above holds for these inputs (its derivation's assumptions are met).
    // False for ZB-H1 with m < p or t_W > t_B: there the formula is not the schedule's bubble and
    // callers must show only the measured value, or say that the formula does not apply.
    bool analytic_bubble_applies = true;
    // The assumptions of the closed form, e.g. "m >= p and t_W <= t_B" (empty when it has none).
    std::string analytic_bubble_assumption;
    // Per stage: max number of micro-batches (times chunks) whose forward is done and whose backward
    // (B for zero bubble) has not finished — what sets the activation memory.
    std::vector<int> peak_in_flight_micro_batches;
    // Zero bubble only, per stage: max number of micro-batches whose B is done and W is not (their
    // weight-gradient inputs stay in memory), s + 1 on stage s for ZB-H1; 0 for other schedules.
    std::vector<int> peak_deferred_weight_passes;
};

// Validates stages >= 1 ("stages"), micro_batches >= 1 ("micro_batches"), chunks >= 1 ("chunks"),
// interleaved: chunks >= 2 and micro_batches % stages == 0; other schedules: chunks == 1;
// times > 0 ("forward_seconds", "backward_seconds"), B/W >= 0. Sizes up to 1024 stages, 65536 micro
// batches, 64 chunks and 2M tasks (field "micro_batches", rule "too_large").
Result<PipelineTimeline> simulatePipeline(PipelineScheduleKind schedule, int stages, int micro_batches,
                                          int chunks, const PipelineTimes &times);

// Peak saved activation bytes per stage: peak in flight × bytes one micro-batch leaves on one stage
// (for interleaved the argument is per chunk).
std::vector<double> activationMemoryPerStage(const PipelineTimeline &timeline,
                                             double activation_bytes_per_micro_batch_per_stage);
// The same with a different figure per stage (uneven stages hold different layer counts: stage s's
// one-micro-batch, one-chunk bytes); stages beyond the list get 0.
std::vector<double> activationMemoryPerStage(const PipelineTimeline &timeline,
                                             const std::vector<double> &bytes_per_micro_batch_per_stage);

}  // namespace lse::parallel
