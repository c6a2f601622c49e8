// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/scenario_repair.h"

#include "scenario/scenario_fitter.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace lse {

namespace {

bool involves(const Problem &problem, const std::string &field)
{
    return problem.field == field
        || std::find(problem.related.begin(), problem.related.end(), field) != problem.related.end();
}

std::string str(std::int64_t value) { return std::to_string(value); }

// The parallel degrees and the batch, refitted after one of them changed.
void fitParallelism(ScenarioFitter &fitter)
{
    fitter.fitTensorParallel();
    fitter.fitContextParallel();
    fitter.fitPipelineParallel();
    fitter.fitStageLayers();
    fitter.fitDataParallel();
    fitter.fitExpertParallel();
    fitter.fitBatch();
}

// A degree below 1 has one obvious value: 1 (no parallelism of that kind).
bool resetDegree(ScenarioFitter &fitter, const Problem &problem)
{
    ParallelConfig &parallel = fitter.scenario().training.parallel;
    const std::pair<const char *, int *> degrees[] = {
        {"training.tp", &parallel.tp}, {"training.pp", &parallel.pp}, {"training.cp", &parallel.cp},
        {"training.ep", &parallel.ep}, {"training.virtual_stages", &parallel.virtual_stages}};
    for (const auto &[field, value] : degrees)
        if (problem.field == field && *value < 1) {
            fitter.note(std::string(field).substr(9) + " " + str(*value) + " → 1: a degree is at least 1");
            *value = 1;
            return true;
        }
    return false;
}

// The first recipe, in order of preference, whose matmul dtype the accelerator has a peak for.
bool switchToSupportedPrecision(ScenarioFitter &fitter)
{
    Scenario &scenario = fitter.scenario();
    const Accelerator &gpu = scenario.cluster.accelerator;
    for (PrecisionRecipe recipe : {PrecisionRecipe::BF16Mixed, PrecisionRecipe::FP16Mixed, PrecisionRecipe::FP32}) {
        const PrecisionConfig precision = precisionForRecipe(recipe);
        const double peak = gpu.dense_peak.forDType(precision.matmul_dtype);
        if (recipe != scenario.training.precision.recipe && std::isfinite(peak) && peak > 0) {
            fitter.note("precision " + std::string(toString(scenario.training.precision.recipe)) + " → "
                        + std::string(toString(recipe)) + ": " + (gpu.name.empty() ? gpu.id : gpu.name) + " has no "
                        + std::string(toString(scenario.training.precision.matmul_dtype)) + " peak");
            scenario.training.precision = precision;
            return true;
        }
    }
    return false;
}

bool roundGpusToNodes(ScenarioFitter &fitter)
{
    ClusterConfig &cluster = fitter.scenario().cluster;
    if (cluster.gpus < 1 || cluster.gpus_per_node < 1)
        return false;
    const std::int64_t nodes = std::max<std::int64_t>(1, (cluster.gpus + cluster.gpus_per_node / 2) / cluster.gpus_per_node);
    const std::int64_t gpus = nodes * cluster.gpus_per_node;
    fitter.note("gpus " + str(cluster.gpus) + " → " + str(gpus) + ": whole nodes of " + str(cluster.gpus_per_node)
                + " GPUs");
    cluster.gpus = int(gpus);
    fitParallelism(fitter);
    return true;
}

// Applies the repair for `problem` to the fitter; false when the problem has no obvious repair.
bool applyRepair(ScenarioFitter &fitter, const Problem &problem)
{
    Scenario &scenario = fitter.scenario();
    const std::string &rule = problem.rule;
    if (rule == "positive" && resetDegree(fitter, problem)) {
        fitParallelism(fitter);
        return true;
    }
    if (rule == "positive" && problem.field == "training.dp") {
        fitter.fitDataParallel();
        fitter.fitBatch();
        return true;
    }
    if (rule == "divisible" && involves(problem, "training.tp")) {
        fitParallelism(fitter);
        return true;
    }
    if (problem.field == "training.stage_layers") {
        fitter.fitStageLayers();
        return true;
    }
    if (rule == "layers_per_chunk" && problem.field == "model.n_layers") {
        fitter.fitPipelineParallel();
        fitter.fitStageLayers();
        fitter.fitDataParallel();
        fitter.fitExpertParallel();
        fitter.fitBatch();
        return true;
    }
    if (rule == "gpu_count" || (rule == "divisible" && involves(problem, "training.cp"))) {
        fitParallelism(fitter);
        return true;
    }
    if (rule == "divisible" && involves(problem, "training.ep")) {
        fitter.fitExpertParallel();
        return true;
    }
    if (rule == "divisible" && problem.field == "training.global_batch") {
        fitter.fitBatch();
        return true;
    }
    if (rule == "divisible" && problem.field == "cluster.gpus")
        return roundGpusToNodes(fitter);
    if (rule == "max_seq_len") {
        fitter.fitSeqLen();
        fitParallelism(fitter);
        return true;
    }
    if (rule == "requires_pp") {
        fitter.note("virtual_stages " + str(scenario.training.parallel.virtual_stages)
                    + " → 1: interleaving needs pipeline parallelism");
        scenario.training.parallel.virtual_stages = 1;
        return true;
    }
    if (rule == "requires_moe") {
        fitter.fitExpertParallel();
        return true;
    }
    if (rule == "unsupported" && problem.field == "training.precision.matmul_dtype")
        return switchToSupportedPrecision(fitter);
    if (rule == "recipe" && problem.field == "training.precision.weight_dtype") {
        fitter.note("weight_dtype " + std::string(toString(scenario.training.precision.weight_dtype))
                    + " → fp32: the fp32 recipe keeps fp32 weights");
        scenario.training.precision.weight_dtype = DType::FP32;
        return true;
    }
    if (rule == "maximum" && problem.field == "model.n_kv_heads" && scenario.model.n_heads > 0) {
        fitter.note("n_kv_heads " + str(scenario.model.n_kv_heads) + " → " + str(scenario.model.n_heads)
                    + ": at most one KV head per query head");
        scenario.model.n_kv_heads = scenario.model.n_heads;
        return true;
    }
    if (problem.field == "training.zero_stage") {
        const int stage = std::clamp(scenario.training.parallel.zero_stage, 0, 3);
        fitter.note("zero_stage " + str(scenario.training.parallel.zero_stage) + " → " + str(stage)
                    + ": ZeRO has stages 0 to 3");
        scenario.training.parallel.zero_stage = stage;
        return true;
    }
    return false;
}

}  // namespace

std::optional<Repair> repairProblem(const Scenario &scenario, const Problem &problem)
{
    ScenarioFitter fitter(scenario);
    if (!applyRepair(fitter, problem) || fitter.adjustments().empty())
        return std::nullopt;
    return Repair{fitter.scenario(), joinAdjustments(fitter.adjustments())};
}

Adjusted repairAllProblems(const Scenario &scenario)
{
    Adjusted result{scenario, {}};
    // Each repair removes at least the problem it is for; the bound only guards against two
    // repairs undoing each other.
    for (int round = 0; round < 32; ++round) {
        bool repaired = false;
        for (const Problem &problem : validate(result.scenario)) {
            ScenarioFitter fitter(result.scenario);
            if (!applyRepair(fitter, problem) || fitter.adjustments().empty())
                continue;
            result.scenario = fitter.scenario();
            result.adjustments.insert(result.adjustments.end(), fitter.adjustments().begin(), fitter.adjustments().end());
            repaired = true;
            break;
        }
        if (!repaired)
            break;
    }
    return result;
}

}  // namespace lse
