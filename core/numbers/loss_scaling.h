// SPDX-License-Identifier: GPL-3.0-or-later
// Dynamic loss scaling (Micikevicius et al. 2018, "Mixed Precision Training", §3.2) with PyTorch
// GradScaler's update rule: multiply the scale by growth_factor after growth_interval consecutive
// steps without overflow, multiply it by backoff_factor and skip the optimizer step when any scaled
// gradient is inf or NaN in the half-precision format.
//
// The simulation runs on a real FP32 training run of the reference transformer: each step's real
// gradients are multiplied by the current scale and cast to FP16 (roundToFormat), which decides
// overflow and the fraction flushed to zero. The training itself stays FP32 and is not changed by
// the simulated scaler: a "skipped" step is one FP16 training would have skipped, while the FP32
// reference still takes it. Only the final gradient cast is simulated, not FP16 arithmetic inside
// the backward pass (gradients are linear in the loss, so scaling the loss scales every gradient).
#pragma once

#include "common/problem.h"
#include "numbers/float_format.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

namespace lse::numbers {

// Defaults are GradScaler's (init_scale 2^16, growth 2, backoff 0.5, growth_interval 2000).
struct LossScalerConfig {
    double initial_scale = 65536.0;
    double growth_factor = 2.0;
    double backoff_factor = 0.5;
    int growth_interval = 2000;
};

// Problems name the field ("initial_scale", "growth_interval", ...).
Problems validateLossScalerConfig(const LossScalerConfig &config);

class DynamicLossScaler {
public:
    explicit DynamicLossScaler(const LossScalerConfig &config);

    double scale() const { return scale_; }            // the scale the next step uses
    int goodStepsInARow() const { return good_steps_; }
    // Records a step taken at scale(); returns true when the optimizer step is skipped (overflow).
    bool update(bool overflow);

private:
    LossScalerConfig config_;
    double scale_;
    int good_steps_ = 0;
};

struct LossScalingStep {
    int step = 0;                 // 1-based
    double loss = 0;              // FP32 training loss of the step (nats/token)
    double scale = 0;             // the scale this step's gradients were multiplied by
    bool overflow = false;        // some scaled gradient is inf/NaN in the format
    bool skipped = false;         // the scaler skips the optimizer step (== overflow)
    double flushed_fraction = 0;  // of the non-zero gradients, rounding to zero at this scale
    double overflow_fraction = 0;
    double unscaled_flushed_fraction = 0;  // the same cast without scaling, for comparison
};

struct LossScalingOptions {
    LossScalerConfig scaler;
    FormatId format = FormatId::FP16;
    int steps = 100;
    std::uint64_t seed = 0;
    std::int64_t text_bytes = 96 * 1024;
};

struct LossScalingRun {
    std::vector<LossScalingStep> steps;
    std::int64_t parameter_count = 0;
    int overflow_steps = 0;
    bool cancelled = false;
};

using LossScalingProgressCallback = std::function<void(const LossScalingStep &step, int steps)>;
// Trains the reference transformer in the calling thread for options.steps steps and runs the
// scaler on each step's gradients. Cancel is honoured between steps (the steps so far are kept).
Result<LossScalingRun> simulateLossScaling(const LossScalingOptions &options,
                                           const LossScalingProgressCallback &progress = {},
                                           const std::atomic<bool> *cancel = nullptr);

}  // namespace lse::numbers
