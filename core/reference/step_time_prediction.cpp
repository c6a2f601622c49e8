// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/step_time_prediction.h"

#include "reference/engine_scenario.h"

#include <algorithm>

namespace lse::reference {

Result<StepTimePrediction> predictStepTime(const TrainConfig &config, const MachineRoofline &cpu, int threads)
{
    const bool all_cores = threads != 1;
    const RooflineMachine machine = rooflineMachine(cpu, all_cores);
    if (!machine.valid())
        return Result<StepTimePrediction>::failure(
            "machine", "unmeasured",
            std::string("this machine's roofline has no ") + (all_cores ? "all-cores" : "one-core") +
                " SGEMM peak or STREAM bandwidth; run `llm-explorer-cli machine --remeasure`");
    // The same step the trainer runs: forward and backward of the non-fused attention path (the
    // reference keeps the softmax probabilities), unfused element-wise ops, then the AdamW update.
    const Scenario scenario = engineScenarioFor(config, machine.peak_flops_per_second);
    RooflineOptions options = rooflineOptionsFor(scenario, StepPhase::Train);
    options.flash_attention = false;
    options.fused_elementwise = false;
    options.include_optimizer = true;
    Result<RooflineReport> report = rooflineReport(scenario, options, machine);
    if (!report)
        return report.problems();
    StepTimePrediction prediction;
    prediction.machine = machine;
    prediction.all_cores = all_cores;
    prediction.seconds = report->step_seconds;
    prediction.compute_bound_seconds = report->compute_bound_seconds;
    prediction.memory_bound_seconds = report->memory_bound_seconds;
    prediction.optimizer_seconds = report->optimizer_seconds;
    prediction.flops = report->total_flops;
    prediction.bytes = report->total_bytes;
    prediction.report = std::move(report.value());
    return prediction;
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
