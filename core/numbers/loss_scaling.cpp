// SPDX-License-Identifier: GPL-3.0-or-later
#include "numbers/loss_scaling.h"

#include "numbers/gradient_histogram.h"
#include "numbers/reference_gradient_source.h"

#include <cmath>
#include <string>

namespace lse::numbers {

namespace {
std::string number(double value) { return std::to_string(value); }
}  // namespace

Problems validateLossScalerConfig(const LossScalerConfig &c)
{
    Problems problems;
    if (!(std::isfinite(c.initial_scale) && c.initial_scale > 0))
        problems.push_back({"initial_scale", "range", "initial_scale (" + number(c.initial_scale) + ") must be a positive finite number."});
    if (!(std::isfinite(c.growth_factor) && c.growth_factor > 1))
        problems.push_back({"growth_factor", "range", "growth_factor (" + number(c.growth_factor) + ") must be greater than 1."});
    if (!(c.backoff_factor > 0 && c.backoff_factor < 1))
        problems.push_back({"backoff_factor", "range", "backoff_factor (" + number(c.backoff_factor) + ") must lie strictly between 0 and 1."});
    if (c.growth_interval < 1)
        problems.push_back({"growth_interval", "range", "growth_interval (" + std::to_string(c.growth_interval) + ") must be at least 1."});
    return problems;
}

DynamicLossScaler::DynamicLossScaler(const LossScalerConfig &config) : config_(config), scale_(config.initial_scale) {}

// torch.amp.GradScaler.update (_amp_update_scale_): on inf/NaN scale ×= backoff and the growth
// tracker restarts; otherwise the tracker counts up and at growth_interval scale ×= growth.
bool DynamicLossScaler::update(bool overflow)
{
    if (overflow) {
        scale_ *= config_.backoff_factor;
        good_steps_ = 0;
        return true;
    }
    if (++good_steps_ == config_.growth_interval) {
        scale_ *= config_.growth_factor;
        good_steps_ = 0;
    }
    return false;
}

Result<LossScalingRun> simulateLossScaling(const LossScalingOptions &options,
                                           const LossScalingProgressCallback &progress,
                                           const std::atomic<bool> *cancel)
{
    Problems problems = validateLossScalerConfig(options.scaler);
    if (options.steps < 1)
        problems.push_back({"steps", "range", "steps (" + std::to_string(options.steps) + ") must be at least 1."});
    if (!problems.empty())
        return problems;

    GradientSourceOptions source_options;
    source_options.steps = options.steps;
    source_options.seed = options.seed;
    source_options.text_bytes = options.text_bytes;
    Result<std::unique_ptr<ReferenceGradientSource>> created = ReferenceGradientSource::create(source_options, cancel);
    LossScalingRun run;
    if (!created) {
        if (cancel && cancel->load()) {
            run.cancelled = true;
            return run;
        }
        return created.problems();
    }
    ReferenceGradientSource &source = *created.value();
    run.parameter_count = source.parameterCount();
    DynamicLossScaler scaler(options.scaler);
    for (int i = 0; i < options.steps; ++i) {
        if (cancel && cancel->load()) {
            run.cancelled = true;
            break;
        }
        Result<reference::StepReport> taken = source.step();
        if (!taken)
            return taken.problems();
        LossScalingStep s;
        s.step = taken.value().step;
        s.loss = taken.value().loss;
        s.scale = scaler.scale();
        const CastStatistics scaled = castStatistics(source.gradients(), options.format, s.scale);
        const CastStatistics unscaled = castStatistics(source.gradients(), options.format, 1.0);
        s.overflow = scaled.anyOverflow();
        s.skipped = scaler.update(s.overflow);
        s.flushed_fraction = scaled.flushedFraction();
        s.overflow_fraction = scaled.overflowFraction();
        s.unscaled_flushed_fraction = unscaled.flushedFraction();
        run.overflow_steps += s.overflow ? 1 : 0;
        run.steps.push_back(s);
        if (progress)
            progress(s, options.steps);
    }
    return run;
}

}  // namespace lse::numbers
