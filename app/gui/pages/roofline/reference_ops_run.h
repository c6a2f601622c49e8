// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "hardware/machine_roofline.h"
#include "reference/op_profiler.h"
#include "reference/trainer.h"
#include "scenario/scenario.h"

#include <QString>

#include <atomic>
#include <functional>
#include <optional>
#include <vector>

namespace lse::gui {

// A short profiled training run of the `tiny` reference preset (resources/reference/tiny.json) on
// random token ids, for the measured points of the Roofline page. Runs in the calling thread (the
// page calls it from a worker); `progress(step, steps)` is called after each step.
struct ReferenceOpsRun {
    reference::TrainConfig config;
    int measured_steps = 0;                   // steps after the warm-up step
    std::vector<reference::OpRecord> records;  // those steps only (the warm-up is subtracted)
    QString error;                             // non-empty: the run failed
};

// `threads` 0 = the preset's (all cores, as the CPU roofline's all-cores line).
ReferenceOpsRun runReferenceOps(int measured_steps, int threads, const std::atomic<bool> &cancel,
                                const std::function<void(int step, int steps)> &progress);

// The same model as a cost-engine scenario: one device, the run's batch and context, fp32, AdamW,
// the non-flash attention path (the reference materialises the probabilities), so the roofline's
// predicted operators have the measured ones' names and shapes. `cpu` sets the device's peak and
// bandwidth when known.
Scenario referenceScenario(const reference::TrainConfig &config, const std::optional<MachineRoofline> &cpu);

}  // namespace lse::gui
