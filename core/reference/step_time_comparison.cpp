// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/step_time_comparison.h"

#include "cost/estimate.h"
#include "ops/parameter_tensors.h"
#include "performance/cpu_kernel_time.h"
#include "reference/engine_scenario.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <tuple>

namespace lse::reference {

Result<ReferenceStepPrediction> predictReferenceStep(const TrainConfig &config, const CpuKernelFactors &kernels)
{
    const double best = kernels.gemm_flops_per_second.empty()
        ? 0
        : *std::max_element(kernels.gemm_flops_per_second.begin(), kernels.gemm_flops_per_second.end());
    Scenario scenario = engineScenarioFor(config, best);
    scenario.training.fused_elementwise = false;  // every element-wise op is its own loop
    Result<performance::StepPrediction> step = performance::predictStep(scenario, kernels);
    if (!step)
        return step.problems();
    const Result<Estimate> estimated = estimate(scenario);
    if (!estimated)
        return estimated.problems();
    ReferenceStepPrediction out;
    out.threads = kernels.threads;
    out.step = std::move(step.value());
    // fp32 gradients and weights, 4 bytes per parameter; one call per parameter tensor.
    const double gradient_bytes = double(estimated->memory.grads);
    const double elements = gradient_bytes / 4;
    const double tensors = std::max(1.0, parameterTensorCount(modelParameters(config.model)));
    // g = 0 before backward; Σ g² (2 FLOPs per element) after it; when clipping, g ·= scale.
    double passes = performance::cpuStreamingTime(0, gradient_bytes, kernels, tensors).seconds;
    passes += performance::cpuStreamingTime(2 * elements, gradient_bytes, kernels, tensors).seconds;
    if (config.grad_clip > 0)
        passes += performance::cpuStreamingTime(elements, 2 * gradient_bytes, kernels, tensors).seconds;
    out.gradient_passes_seconds = passes;
    out.finite_check_seconds = performance::cpuStreamingTime(elements, double(estimated->memory.params), kernels).seconds;
    out.idle_seconds = out.step.total_seconds + out.gradient_passes_seconds + out.finite_check_seconds;
    out.cpu_share = std::clamp(kernels.cpu_share, 0.01, 1.0);
    out.other_processes_seconds = out.idle_seconds * (1 / out.cpu_share - 1);
    out.seconds = out.idle_seconds + out.other_processes_seconds;
    return out;
}

namespace {

struct Key {
    std::string name;
    std::string pass;
    bool operator<(const Key &other) const { return std::tie(name, pass) < std::tie(other.name, other.pass); }
};

const char *passOf(OpPhase phase) { return phase == OpPhase::Forward ? "forward" : "backward"; }

// The engine lists FlashAttention as three operators (the QKᵀ product, the on-chip softmax, P·V);
// the tiled kernel runs them as one, timed under the first name: one row for the three.
std::string joinedName(const std::string &name)
{
    return name == "flash_softmax" || name == "flash_attention_values" ? std::string("flash_attention") : name;
}

}  // namespace

std::vector<OperatorComparison> compareOperators(const ReferenceStepPrediction &prediction,
                                                 const std::vector<OpRecord> &after_first, const std::vector<OpRecord> &end,
                                                 double steps, double measured_step_seconds)
{
    std::map<Key, OperatorComparison> rows;
    const auto row = [&rows](const std::string &operator_name, const std::string &pass) -> OperatorComparison & {
        const std::string name = joinedName(operator_name);
        OperatorComparison &r = rows[Key{name, pass}];
        r.name = name;
        r.pass = pass;
        return r;
    };
    const auto timedAlone = [&end](const std::string &name, OpPhase phase) {
        for (const OpRecord &r : end)
            if (r.phase == phase && joinedName(name) == joinedName(r.name))
                return true;
        return false;
    };
    // Idle-core times → the step's times with other processes' share (see the header).
    const double scale = prediction.idle_seconds > 0 ? prediction.seconds / prediction.idle_seconds : 1.0;
    double rest_predicted = (prediction.gradient_passes_seconds + prediction.finite_check_seconds) * scale;
    for (const performance::OperatorTime &op : prediction.step.operators) {
        if (op.pass == "optimizer")
            rest_predicted += op.seconds * scale;
        else if (op.pass == "forward" && !timedAlone(op.name, OpPhase::Forward) && timedAlone(op.name, OpPhase::Backward))
            row(op.name, "forward+backward").predicted_seconds += op.seconds * scale;
        else if (op.pass == "backward" && !timedAlone(op.name, OpPhase::Forward) && timedAlone(op.name, OpPhase::Backward))
            row(op.name, "forward+backward").predicted_seconds += op.seconds * scale;
        else
            row(op.name, op.pass).predicted_seconds += op.seconds * scale;
    }
    const double per_step = 1.0 / std::max(1.0, steps);
    double timed = 0;
    for (const OpRecord &r : end) {
        double seconds = r.seconds;
        for (const OpRecord &before : after_first)
            if (before.phase == r.phase && std::strcmp(before.name, r.name) == 0)
                seconds -= before.seconds;
        seconds = std::max(0.0, seconds) * per_step;
        const bool fused = r.phase == OpPhase::Backward && !timedAlone(r.name, OpPhase::Forward);
        row(r.name, fused ? "forward+backward" : passOf(r.phase)).measured_seconds += seconds;
        timed += seconds;
    }
    OperatorComparison &rest = row(kOptimizerAndRestName, "optimizer");
    rest.predicted_seconds = rest_predicted;
    rest.measured_seconds = std::max(0.0, measured_step_seconds - timed);
    std::vector<OperatorComparison> out;
    for (auto &[key, r] : rows) {
        r.difference_fraction = r.predicted_seconds > 0 ? (r.measured_seconds - r.predicted_seconds) / r.predicted_seconds : 0.0;
        out.push_back(r);
    }
    std::stable_sort(out.begin(), out.end(), [](const OperatorComparison &a, const OperatorComparison &b) {
        return std::abs(a.measured_seconds - a.predicted_seconds) > std::abs(b.measured_seconds - b.predicted_seconds);
    });
    return out;
}

double typicalStepSeconds(const std::vector<double> &step_seconds)
{
    if (step_seconds.size() <= 1)
        return step_seconds.empty() ? 0 : step_seconds.front();
    std::vector<double> rest(step_seconds.begin() + 1, step_seconds.end());
    std::sort(rest.begin(), rest.end());
    const std::size_t n = rest.size();
    return n % 2 ? rest[n / 2] : (rest[n / 2 - 1] + rest[n / 2]) / 2;
}

std::optional<double> signedDifference(double measured, double predicted)
{
    if (!(predicted > 0))
        return std::nullopt;
    return (measured - predicted) / predicted;
}

}  // namespace lse::reference
