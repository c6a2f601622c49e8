// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/scenario_fitter.h"

#include "scenario/stage_layers.h"

#include <cstdint>
#include <cstdlib>
#include <utility>

namespace lse {

namespace {

std::string str(std::int64_t value) { return std::to_string(value); }

std::string change(const char *setting, std::int64_t from, std::int64_t to)
{
    return std::string(setting) + " " + str(from) + " → " + str(to) + ": ";
}

// A size that is absent (0) puts no constraint on a degree.
bool dividesOrAbsent(std::int64_t value, std::int64_t by) { return value <= 0 || value % by == 0; }

// Above these validation reports a range problem; fitting such values would mean searching
// billions of candidates (or overflowing a product), so the steps leave them alone.
constexpr int kMaxDegree = 65536;
constexpr int kMaxLayers = 100000;
constexpr std::int64_t kMaxBatch = std::int64_t(1) << 24;
constexpr std::int64_t kMaxDataParallel = 10000000;

std::string modelLabel(const ModelConfig &model) { return model.name.empty() ? std::string("the model") : model.name; }

}  // namespace

ScenarioFitter::ScenarioFitter(Scenario scenario, PinnedFields pinned)
    : scenario_(std::move(scenario)), pinned_(std::move(pinned))
{
}

void ScenarioFitter::fitSeqLen()
{
    const ModelConfig &model = scenario_.model;
    std::int64_t &seq = scenario_.training.seq_len;
    if (pinned("training.seq_len") || model.max_seq_len <= 0 || seq <= model.max_seq_len)
        return;
    // Learned positions have no embedding beyond max_seq_len; rotary and other encodings were not
    // trained past it either, so a longer sequence is not a sensible default for any model.
    const std::string why = model.positional_encoding == PositionalEncoding::Learned
        ? modelLabel(model) + " has " + str(model.max_seq_len) + " learned positions"
        : modelLabel(model) + "'s context is " + str(model.max_seq_len) + " tokens";
    note(change("seq_len", seq, model.max_seq_len) + why);
    seq = model.max_seq_len;
}

bool ScenarioFitter::tensorParallelFits(int tp) const
{
    const ModelConfig &model = scenario_.model;
    const ClusterConfig &cluster = scenario_.cluster;
    if (!dividesOrAbsent(model.n_heads, tp) || !dividesOrAbsent(model.n_kv_heads, tp)
        || !dividesOrAbsent(model.d_ff, tp))
        return false;
    if (model.moe.enabled() && !dividesOrAbsent(model.moe.expert_d_ff, tp))
        return false;
    // Tensor parallelism exchanges activations in every layer; across nodes it would run at
    // network instead of NVLink speed (Narayanan et al. 2021, §3.3), so it stays inside a node.
    if (cluster.gpus_per_node > 0 && tp > cluster.gpus_per_node)
        return false;
    return dividesOrAbsent(cluster.gpus, tp);
}

void ScenarioFitter::fitTensorParallel()
{
    int &tp = scenario_.training.parallel.tp;
    if (pinned("training.tp") || tp < 1 || tp > kMaxDegree || tensorParallelFits(tp))
        return;
    int chosen = 1;
    for (int candidate = tp - 1; candidate > 1; --candidate)
        if (tensorParallelFits(candidate)) {
            chosen = candidate;
            break;
        }
    const ModelConfig &model = scenario_.model;
    const ClusterConfig &cluster = scenario_.cluster;
    std::vector<std::string> parts;
    if (!dividesOrAbsent(model.n_heads, tp))
        parts.push_back(str(model.n_heads) + " heads");
    if (!dividesOrAbsent(model.n_kv_heads, tp))
        parts.push_back(str(model.n_kv_heads) + " KV heads");
    if (!dividesOrAbsent(model.d_ff, tp))
        parts.push_back("d_ff " + str(model.d_ff));
    if (model.moe.enabled() && !dividesOrAbsent(model.moe.expert_d_ff, tp))
        parts.push_back("expert_d_ff " + str(model.moe.expert_d_ff));
    std::string why;
    if (!parts.empty()) {
        for (std::size_t i = 0; i < parts.size(); ++i)
            why += (i == 0 ? "" : " / ") + parts[i];
        const bool plural = parts.size() > 1 || parts.front().ends_with("heads");
        why += std::string(plural ? " are" : " is") + " not divisible by " + str(tp);
    } else if (cluster.gpus_per_node > 0 && tp > cluster.gpus_per_node) {
        why = "tensor parallelism stays within a node of " + str(cluster.gpus_per_node) + " GPUs";
    } else {
        why = str(cluster.gpus) + " GPUs are not divisible by " + str(tp);
    }
    note(change("tp", tp, chosen) + why);
    tp = chosen;
}

void ScenarioFitter::fitContextParallel()
{
    ParallelConfig &parallel = scenario_.training.parallel;
    const std::int64_t seq = scenario_.training.seq_len;
    const std::int64_t gpus = scenario_.cluster.gpus;
    if (pinned("training.cp") || parallel.cp <= 1 || parallel.cp > kMaxDegree || parallel.tp < 1 || parallel.tp > kMaxDegree)
        return;
    const auto fits = [&](int cp) {
        return dividesOrAbsent(seq, cp) && dividesOrAbsent(gpus, std::int64_t(parallel.tp) * cp);
    };
    if (fits(parallel.cp))
        return;
    int chosen = 1;
    for (int candidate = parallel.cp - 1; candidate > 1; --candidate)
        if (fits(candidate)) {
            chosen = candidate;
            break;
        }
    const std::string why = !dividesOrAbsent(seq, parallel.cp)
        ? "seq_len " + str(seq) + " is not divisible by " + str(parallel.cp)
        : str(gpus) + " GPUs are not divisible by tp·cp " + str(parallel.tp) + "·" + str(parallel.cp);
    note(change("cp", parallel.cp, chosen) + why);
    parallel.cp = chosen;
}

bool ScenarioFitter::pipelineFits(int pp, int virtual_stages) const
{
    const ParallelConfig &parallel = scenario_.training.parallel;
    if (virtual_stages > 1 && pp == 1)
        return false;  // interleaving needs a pipeline
    // Every chunk needs a layer; pp need not divide them (scenario/stage_layers.h).
    const int layers = scenario_.model.n_layers;
    return (layers <= 0 || std::int64_t(pp) * virtual_stages <= layers)
        && dividesOrAbsent(scenario_.cluster.gpus, std::int64_t(parallel.tp) * parallel.cp * pp);
}

int ScenarioFitter::nearestPipelineDegree(int virtual_stages) const
{
    const int current = scenario_.training.parallel.pp;
    const int limit = std::max(current, scenario_.model.n_layers);
    int best = 0;
    // Counting up with a strict comparison keeps the smaller degree on a tie.
    for (int candidate = 1; candidate <= limit; ++candidate)
        if (pipelineFits(candidate, virtual_stages) && (best == 0 || std::abs(candidate - current) < std::abs(best - current)))
            best = candidate;
    return best;
}

void ScenarioFitter::fitPipelineParallel()
{
    ParallelConfig &parallel = scenario_.training.parallel;
    const ModelConfig &model = scenario_.model;
    const std::int64_t gpus = scenario_.cluster.gpus;
    // tp and cp bounded too: pipelineFits multiplies tp·cp·pp in 64 bits (the GUI monkey test found
    // tp·cp = 2e18 with pp = 5 overflowing).
    if (pinned("training.pp") || parallel.pp < 1 || parallel.pp > kMaxDegree || parallel.virtual_stages < 1
        || parallel.virtual_stages > kMaxDegree || parallel.tp < 1 || parallel.cp < 1 || parallel.tp > kMaxDegree
        || parallel.cp > kMaxDegree || model.n_layers > kMaxLayers)
        return;
    if (pipelineFits(parallel.pp, parallel.virtual_stages))
        return;
    int chosen = nearestPipelineDegree(parallel.virtual_stages);
    if (chosen == 0 && parallel.virtual_stages > 1 && !pinned("training.virtual_stages")) {
        note(change("virtual_stages", parallel.virtual_stages, 1) + "no pipeline of " + str(model.n_layers)
             + " layers splits into " + str(parallel.virtual_stages) + " chunks per stage on these GPUs");
        parallel.virtual_stages = 1;
        if (pipelineFits(parallel.pp, 1))
            return;
        chosen = nearestPipelineDegree(1);
    }
    if (chosen == 0 || chosen == parallel.pp)
        return;
    const std::int64_t per_gpu_chunks = std::int64_t(parallel.pp) * parallel.virtual_stages;
    std::string why;
    if (model.n_layers > 0 && per_gpu_chunks > model.n_layers) {
        why = str(model.n_layers) + " layers are fewer than "
            + (parallel.virtual_stages > 1 ? "pp·virtual_stages " + str(parallel.pp) + "·" + str(parallel.virtual_stages)
                                           : str(parallel.pp) + " stages");
    } else {
        why = str(gpus) + " GPUs are not divisible by tp·cp·pp " + str(parallel.tp) + "·" + str(parallel.cp) + "·"
            + str(parallel.pp);
    }
    note(change("pp", parallel.pp, chosen) + why);
    parallel.pp = chosen;
}

void ScenarioFitter::fitStageLayers()
{
    ParallelConfig &parallel = scenario_.training.parallel;
    if (pinned("training.stage_layers") || parallel.stage_layers.empty()
        || stageLayerProblems(scenario_.model.n_layers, parallel).empty())
        return;
    // The list was made for another pp or depth; the automatic split is the neutral choice.
    note("stage_layers " + stageLayersText(parallel.stage_layers) + " → automatic: it must give "
         + str(parallel.pp) + " stages summing to " + str(scenario_.model.n_layers) + " layers");
    parallel.stage_layers.clear();
}

void ScenarioFitter::fitDataParallel()
{
    ParallelConfig &parallel = scenario_.training.parallel;
    const std::int64_t gpus = scenario_.cluster.gpus;
    if (pinned("training.dp") || gpus <= 0 || parallel.tp < 1 || parallel.pp < 1 || parallel.cp < 1
        || parallel.tp > kMaxDegree || parallel.pp > kMaxDegree || parallel.cp > kMaxDegree)
        return;
    const std::int64_t model_parallel = std::int64_t(parallel.tp) * parallel.pp * parallel.cp;
    if (gpus % model_parallel != 0 || gpus / model_parallel == parallel.dp)
        return;
    const int dp = int(gpus / model_parallel);
    note(change("dp", parallel.dp, dp) + str(gpus) + " GPUs / (tp·pp·cp " + str(parallel.tp) + "·" + str(parallel.pp)
         + "·" + str(parallel.cp) + ")");
    parallel.dp = dp;
}

void ScenarioFitter::fitExpertParallel()
{
    ParallelConfig &parallel = scenario_.training.parallel;
    const MoeConfig &moe = scenario_.model.moe;
    if (pinned("training.ep") || parallel.ep <= 1 || parallel.ep > kMaxDegree)
        return;
    if (!moe.enabled()) {
        note(change("ep", parallel.ep, 1) + modelLabel(scenario_.model) + " is a dense model (no experts)");
        parallel.ep = 1;
        return;
    }
    const std::int64_t dp_cp = std::int64_t(parallel.dp) * parallel.cp;
    const auto fits = [&](int ep) { return moe.n_experts % ep == 0 && dp_cp > 0 && dp_cp % ep == 0; };
    if (fits(parallel.ep))
        return;
    int chosen = 1;
    for (int candidate = parallel.ep - 1; candidate > 1; --candidate)
        if (fits(candidate)) {
            chosen = candidate;
            break;
        }
    const std::string why = moe.n_experts % parallel.ep != 0
        ? str(moe.n_experts) + " experts are not divisible by " + str(parallel.ep)
        : "dp·cp " + str(parallel.dp) + "·" + str(parallel.cp) + " is not divisible by " + str(parallel.ep);
    note(change("ep", parallel.ep, chosen) + why);
    parallel.ep = chosen;
}

void ScenarioFitter::fitBatch()
{
    TrainingConfig &training = scenario_.training;
    const std::int64_t dp = training.parallel.dp;
    if (training.global_batch < 1 || training.micro_batch < 1 || dp < 1 || training.global_batch > kMaxBatch
        || training.micro_batch > kMaxBatch || dp > kMaxDataParallel)
        return;
    const std::int64_t unit = training.micro_batch * dp;
    if (training.global_batch % unit == 0)
        return;
    const std::string why = "global_batch " + str(training.global_batch) + " is not divisible by micro_batch·dp "
        + str(training.micro_batch) + "·" + str(dp);
    // A smaller micro-batch keeps the tokens per step; only if none divides does the batch move.
    if (!pinned("training.micro_batch"))
        for (std::int64_t micro = training.micro_batch - 1; micro >= 1; --micro)
            if (training.global_batch % (micro * dp) == 0) {
                note(change("micro_batch", training.micro_batch, micro) + why);
                training.micro_batch = micro;
                return;
            }
    if (pinned("training.global_batch"))
        return;
    const std::int64_t lower = training.global_batch / unit * unit;
    const std::int64_t upper = lower + unit;
    const std::int64_t chosen = lower == 0 || training.global_batch - lower >= upper - training.global_batch ? upper : lower;
    note(change("global_batch", training.global_batch, chosen) + why);
    training.global_batch = chosen;
}

void ScenarioFitter::fitAll()
{
    fitSeqLen();
    fitTensorParallel();
    fitContextParallel();
    fitPipelineParallel();
    fitStageLayers();
    fitDataParallel();
    fitExpertParallel();
    fitBatch();
}

}  // namespace lse
