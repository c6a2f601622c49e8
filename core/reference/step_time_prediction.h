// SPDX-License-Identifier: GPL-3.0-or-later
// The step time of the reference transformer predicted from this machine's measured roofline,
// without looking at any run: each operator of one training step (the one operator list,
// core/ops, with the roofline's bytes, core/roofline) takes max(FLOPs / peak, bytes / bandwidth)
// (Williams et al. 2009) and the operators run one after another. This is what the Roofline page
// shows for `--machine cpu`; a measured step time can then be compared with it honestly.
//
// Not modelled: the global-norm gradient clipping and batch sampling of the trainer (a few
// element-wise passes over the parameters), and the time threads spend waiting at barriers.
#pragma once

#include "common/problem.h"
#include "hardware/machine_roofline.h"
#include "reference/trainer.h"
#include "roofline/roofline.h"

#include <optional>
#include <vector>

namespace lse::reference {

struct StepTimePrediction {
    RooflineMachine machine;  // the roofline used: this CPU on one core or on all cores
    bool all_cores = true;
    double seconds = 0;                // Σ over operators of max(FLOPs / peak, bytes / bandwidth)
    double compute_bound_seconds = 0;  // part of `seconds` in compute-bound operators
    double memory_bound_seconds = 0;   // part of `seconds` in memory-bound operators
    double optimizer_seconds = 0;      // part of `seconds` in the AdamW update
    double flops = 0;                  // all operators' FLOPs of one step
    double bytes = 0;                  // all operators' main-memory bytes of one step
    RooflineReport report;             // the operators behind the sum
};

// `threads` is the thread count the run uses: 1 takes the one-core roofline, more the all-cores one
// (measured with all of this machine's logical cores). Fails when the roofline lacks a peak or a
// bandwidth, or the configuration is invalid.
Result<StepTimePrediction> predictStepTime(const TrainConfig &config, const MachineRoofline &cpu, int threads);

// The measured step time to compare with: the median of the steps after the first (which pays
// page faults and cold caches), the first step's when there is only one, 0 for none. The median
// because on a shared machine one step can stall for seconds (measured: one of 12 steps took 16 s
// instead of 0.17 s at load 7 on 2 cores) and would dominate a mean.
double typicalStepSeconds(const std::vector<double> &step_seconds);

// (measured − predicted) / predicted: positive when the run was slower than predicted; nothing
// when there is no positive prediction.
std::optional<double> signedDifference(double measured, double predicted);

}  // namespace lse::reference
