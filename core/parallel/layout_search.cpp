// SPDX-License-Identifier: GPL-3.0-or-later
#include "parallel/layout_search.h"

#include "cost/estimate_parts.h"
#include "ops/operator_list.h"
#include "parallel/predicted_step_bound.h"
#include "performance/step_prediction.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <tuple>

namespace lse::parallel {

namespace {

// The limits validate() puts on the layout fields (scenario/validation.cpp).
constexpr std::int64_t kMaxDimension = std::int64_t(1) << 24;
constexpr int kMaxDegree = 65536;
constexpr int kMaxDp = 10000000;
constexpr int kMaxVirtualStages = 1024;

bool divides(std::int64_t divisor, std::int64_t value) { return divisor > 0 && value % divisor == 0; }

std::vector<int> divisorsOf(int n)
{
    std::vector<int> result;
    for (int d = 1; std::int64_t(d) * d <= n; ++d)
        if (n % d == 0) {
            result.push_back(d);
            if (d != n / d)
                result.push_back(n / d);
        }
    std::sort(result.begin(), result.end());
    return result;
}

// A layout without the choices that do not change validity (zero stage and recomputation are
// always valid in range; sequence parallelism always is).
struct Shape {
    int dp, tp, pp, cp, ep, v;
    std::int64_t micro_batch;
};

// The scenario with everything the layout sets cleared to a trivially valid one-GPU layout; its
// problems are the ones no layout can fix.
Problems baseProblems(const Scenario &base)
{
    Scenario probe = base;
    probe.cluster.gpus = 1;
    probe.training.parallel = ParallelConfig{};
    probe.training.micro_batch = 1;
    Problems problems;
    for (Problem &problem : validate(probe))
        if (problem.field.rfind("cluster.", 0) != 0)
            problems.push_back(std::move(problem));
    for (Problem &problem : validate(base))
        if (problem.field.rfind("cluster.", 0) == 0)
            problems.push_back(std::move(problem));
    return problems;
}

Problems optionProblems(const SearchOptions &options)
{
    Problems problems;
    if (options.top < 1)
        problems.push_back({"options.top", "positive", "options.top must be at least 1"});
    for (int stage : options.zero_stages)
        if (stage < 0 || stage > 3)
            problems.push_back({"options.zero_stages", "range",
                                "options.zero_stages holds " + std::to_string(stage) + "; ZeRO stages are 0..3"});
    if (options.zero_stages.empty())
        problems.push_back({"options.zero_stages", "empty", "options.zero_stages must list at least one stage"});
    if (options.recomputations.empty())
        problems.push_back({"options.recomputations", "empty", "options.recomputations must list at least one mode"});
    if (options.max_micro_batch < 1 || options.max_micro_batch > kMaxDimension)
        problems.push_back({"options.max_micro_batch", "range", "options.max_micro_batch must be in 1..2^24"});
    if (options.max_virtual_stages < 1 || options.max_virtual_stages > kMaxVirtualStages)
        problems.push_back({"options.max_virtual_stages", "range", "options.max_virtual_stages must be in 1..1024"});
    return problems;
}

// Every (dp, tp, pp, cp, ep, v, micro-batch) the validation accepts, in a fixed order.
std::vector<Shape> enumerateShapes(const Scenario &base, const SearchOptions &options)
{
    const ModelConfig &model = base.model;
    const TrainingConfig &training = base.training;
    const int gpus = base.cluster.gpus;
    std::vector<Shape> shapes;
    for (int tp : divisorsOf(gpus)) {
        if (tp > kMaxDegree || !divides(tp, model.n_heads) || !divides(tp, model.n_kv_heads))
            continue;
        if (model.d_ff > 0 && !divides(tp, model.d_ff))
            continue;
        if (model.moe.enabled() && model.moe.expert_d_ff > 0 && !divides(tp, model.moe.expert_d_ff))
            continue;
        for (int pp : divisorsOf(gpus / tp)) {
            // pp need not divide the layers (BLOOM: 70 on 12 stages); each stage needs one.
            if (pp > kMaxDegree || pp > model.n_layers)
                continue;
            for (int cp : divisorsOf(gpus / tp / pp)) {
                if (cp > kMaxDegree || !divides(cp, training.seq_len))
                    continue;
                const int dp = gpus / tp / pp / cp;
                if (dp > kMaxDp)
                    continue;
                std::vector<int> eps{1};
                if (model.moe.enabled())
                    for (int ep : divisorsOf(model.moe.n_experts))
                        if (ep > 1 && ep <= kMaxDegree && divides(ep, std::int64_t(dp) * cp))
                            eps.push_back(ep);
                for (int ep : eps)
                    for (int v = 1; v <= std::min(options.max_virtual_stages, kMaxVirtualStages); ++v) {
                        if ((v > 1 && pp == 1) || std::int64_t(pp) * v > model.n_layers)
                            continue;  // every interleaved chunk needs a layer
                        for (std::int64_t mb = 1; mb <= std::min(options.max_micro_batch, kMaxDimension); ++mb)
                            if (divides(mb * dp, training.global_batch))
                                shapes.push_back({dp, tp, pp, cp, ep, v, mb});
                    }
            }
        }
    }
    return shapes;
}

// Everything a candidate's memory and step bound need that depends on fewer choices than the
// candidate: the parameter tensors once, the operator lists per (micro-batch, cp), the FLOPs per
// (micro-batch, recomputation). The estimate's own building blocks then run on a scenario edited
// in place, so the fast path computes exactly what estimate() does, without validation, the
// operator-list construction or copying the scenario.
class EvaluationCache {
public:
    explicit EvaluationCache(const Scenario &base)
        : work_(base), parameters_(modelParameters(base.model)), counts_(countParameters(parameters_, base.model))
    {
        work_.training.mfu_source = MfuSource::Given;  // the figures here need no prediction
    }

    Scenario &work() { return work_; }

    // The estimate's memory for work()'s layout and a lower bound on its predicted step; false
    // when the engine would report an overflow.
    bool evaluate(StepTimeBreakdown &out, double &step_bound)
    {
        const TrainingConfig &training = work_.training;
        const detail::StepShape shape = detail::stepShape(work_);
        const ForwardOperators &local = localOperators(training.micro_batch, training.parallel.cp);
        const Result<MemoryEstimate> memory = detail::estimateMemory(work_, shape, local, parameters_);
        if (!memory)
            return false;
        StepBoundInputs in;
        in.flops = flops(training.micro_batch, training.recomputation);
        in.communication = detail::estimateCommunication(work_, shape, parameters_);
        in.efficiency = work_.cluster.accelerator.efficiency;
        in.peak_flops_per_gpu = shape.peak_flops;
        in.gpus = work_.cluster.gpus;
        in.pp = training.parallel.pp;
        in.dp_overlap = training.parallel.dp_overlap;
        in.dp_param_gather_overlap = training.parallel.dp_param_gather_overlap;
        in.tp_comm_overlap = training.parallel.tp_comm_overlap;
        in.pp_comm_overlap = training.parallel.pp_comm_overlap;
        in.tp = training.parallel.tp;
        in.cp = training.parallel.cp;
        in.virtual_stages = training.parallel.virtual_stages;
        in.zero_stage = training.parallel.zero_stage;
        in.micro_batches = double(shape.micro_batches);
        in.layers_per_stage = mostLoadedStageLayers(work_.model.n_layers, training.parallel);
        in.tokens_per_step = double(training.global_batch) * double(training.seq_len);
        out = StepTimeBreakdown{};
        out.memory_bytes_per_gpu = double(memory->total);
        out.fits = memory->total <= memory->capacity;
        step_bound = predictedStepLowerBound(in);
        return std::isfinite(step_bound);
    }

private:
    // The operators of one micro-batch at the sequence shard of `cp` ranks; `cp` is work()'s cp or 1
    // (the full sequence, which the FLOP count uses: estimate() counts FLOPs on it).
    const ForwardOperators &localOperators(std::int64_t micro_batch, int cp)
    {
        // Candidates come in runs of the same shape: skip the map lookup for a repeat.
        if (last_operators_ != nullptr && last_operators_key_ == std::make_pair(micro_batch, cp))
            return *last_operators_;
        auto &slot = operators_[{micro_batch, cp}];
        if (!slot) {
            const detail::StepShape shape = detail::stepShape(work_);
            slot = std::make_unique<ForwardOperators>(
                forwardOperators(work_.model, detail::operatorShapes(work_, shape, cp == 1)));
        }
        last_operators_key_ = {micro_batch, cp};
        last_operators_ = slot.get();
        return *slot;
    }

    const FlopsEstimate &flops(std::int64_t micro_batch, Recomputation recomputation)
    {
        auto it = flops_.find({micro_batch, int(recomputation)});
        if (it == flops_.end())
            it = flops_.emplace(std::make_pair(micro_batch, int(recomputation)),
                                detail::estimateFlops(work_, localOperators(micro_batch, 1), counts_)).first;
        return it->second;
    }

    Scenario work_;
    ModelParameters parameters_;
    ParameterCounts counts_;
    std::map<std::pair<std::int64_t, int>, std::unique_ptr<ForwardOperators>> operators_;
    std::map<std::pair<std::int64_t, int>, FlopsEstimate> flops_;
    std::pair<std::int64_t, int> last_operators_key_{0, 0};
    const ForwardOperators *last_operators_ = nullptr;
};

// Faster first; equal times: less memory, then the order of enumeration (stable).
bool faster(const LayoutCandidate &a, const LayoutCandidate &b)
{
    if (a.breakdown.total_seconds != b.breakdown.total_seconds)
        return a.breakdown.total_seconds < b.breakdown.total_seconds;
    return a.breakdown.memory_bytes_per_gpu < b.breakdown.memory_bytes_per_gpu;
}

// The prediction's parts into a breakdown (memory and fit are left as they are).
void fillPredicted(const performance::StepPrediction &p, StepTimeBreakdown &b)
{
    b.compute_seconds = p.compute_seconds;
    b.optimizer_seconds = p.optimizer_seconds;
    b.exposed_tp_seconds = p.exposed.tp_seconds;
    b.exposed_cp_seconds = p.exposed.cp_seconds;
    b.exposed_ep_seconds = p.exposed.ep_seconds;
    b.exposed_pp_seconds = p.exposed.pp_seconds;
    b.exposed_dp_seconds = p.exposed.dp_seconds;
    b.exposed_communication_seconds = p.exposed_communication_seconds;
    b.bubble_seconds = p.bubble_seconds;
    b.straggler_seconds = p.straggler_seconds;
    b.total_seconds = p.total_seconds;
    b.tokens_per_second = p.tokens_per_second;
    b.mfu = p.mfu;
}

// The candidate's predicted step into its breakdown (memory and fit stay the fast path's); false
// when the prediction has problems.
bool predict(const Scenario &base, LayoutCandidate &candidate)
{
    const Result<performance::StepPrediction> prediction = performance::predictStep(applyLayout(base, candidate));
    if (!prediction || !std::isfinite(prediction->total_seconds))
        return false;
    fillPredicted(*prediction, candidate.breakdown);
    return true;
}

// A fitting layout waiting for its prediction, with the bound that orders the waiting.
struct Pending {
    double step_bound = 0;
    LayoutCandidate candidate;
};

}  // namespace

Result<StepTimeBreakdown> predictedBreakdown(const Scenario &scenario)
{
    Scenario given = scenario;
    given.training.mfu_source = MfuSource::Given;  // predictStep runs estimate(): no nested prediction
    const Result<Estimate> estimated = estimate(given);
    if (!estimated)
        return estimated.problems();
    const Result<performance::StepPrediction> prediction = performance::predictStep(given);
    if (!prediction)
        return prediction.problems();
    StepTimeBreakdown breakdown;
    fillPredicted(*prediction, breakdown);
    breakdown.memory_bytes_per_gpu = double(estimated->memory.total);
    breakdown.fits = estimated->memory.fits;
    return breakdown;
}

Scenario applyLayout(const Scenario &base, const LayoutCandidate &layout)
{
    Scenario scenario = base;
    scenario.training.parallel = layout.parallel;
    scenario.training.micro_batch = layout.micro_batch;
    scenario.training.recomputation = layout.recomputation;
    return scenario;
}

bool layoutIsValid(const Scenario &base, const ParallelConfig &p, std::int64_t micro_batch)
{
    const ModelConfig &model = base.model;
    const TrainingConfig &training = base.training;
    if (micro_batch < 1 || micro_batch > kMaxDimension)
        return false;
    if (p.dp < 1 || p.dp > kMaxDp || p.tp < 1 || p.tp > kMaxDegree || p.pp < 1 || p.pp > kMaxDegree || p.cp < 1
        || p.cp > kMaxDegree || p.ep < 1 || p.ep > kMaxDegree || p.virtual_stages < 1
        || p.virtual_stages > kMaxVirtualStages || p.zero_stage < 0 || p.zero_stage > 3)
        return false;
    if (std::int64_t(p.dp) * p.tp * p.pp * p.cp != base.cluster.gpus)
        return false;
    if (!divides(p.tp, model.n_heads) || !divides(p.tp, model.n_kv_heads))
        return false;
    if (model.d_ff > 0 && !divides(p.tp, model.d_ff))
        return false;
    if (model.moe.enabled() && model.moe.expert_d_ff > 0 && !divides(p.tp, model.moe.expert_d_ff))
        return false;
    if (!stageLayerProblems(model.n_layers, p).empty() || (p.virtual_stages > 1 && p.pp == 1))
        return false;
    if (!divides(p.cp, training.seq_len))
        return false;
    if (p.ep > 1
        && (!model.moe.enabled() || !divides(p.ep, model.moe.n_experts) || !divides(p.ep, std::int64_t(p.dp) * p.cp)))
        return false;
    return divides(micro_batch * p.dp, training.global_batch);
}

Result<SearchResult> searchLayouts(const Scenario &base, const SearchOptions &options, const SearchProgress &progress)
{
    Problems problems = optionProblems(options);
    for (Problem &problem : baseProblems(base))
        problems.push_back(std::move(problem));
    if (!problems.empty())
        return problems;

    const auto started = std::chrono::steady_clock::now();
    const std::vector<Shape> shapes = enumerateShapes(base, options);
    const std::int64_t per_shape = std::int64_t(options.zero_stages.size()) * std::int64_t(options.recomputations.size());
    std::int64_t total = 0;
    for (const Shape &shape : shapes)
        total += per_shape * (shape.tp > 1 && options.allow_sequence_parallel ? 2 : 1);

    SearchResult result;
    result.valid = total;
    const std::int64_t cloud_stride = options.keep_cloud && options.max_cloud_points > 0
        ? std::max<std::int64_t>(1, (total + std::int64_t(options.max_cloud_points) - 1)
                                        / std::int64_t(options.max_cloud_points))
        : 0;
    if (cloud_stride > 0)
        result.cloud.reserve(std::size_t(total / cloud_stride + 1));

    // Pass 1, every valid layout: memory (exactly the engine's) and a lower bound on the predicted step.
    EvaluationCache cache(base);
    const Scenario &given = cache.work();  // predictions run on the base with the MFU given: no nested prediction
    Scenario &work = cache.work();
    std::vector<Pending> pending;
    std::int64_t index = 0;
    for (const Shape &shape : shapes) {
        for (bool sp : {false, true}) {
            if (sp && (shape.tp == 1 || !options.allow_sequence_parallel))
                continue;
            for (Recomputation recomputation : options.recomputations)
                for (int zero : options.zero_stages) {
                    Pending next;
                    LayoutCandidate &candidate = next.candidate;
                    candidate.parallel.dp = shape.dp;
                    candidate.parallel.tp = shape.tp;
                    candidate.parallel.pp = shape.pp;
                    candidate.parallel.cp = shape.cp;
                    candidate.parallel.ep = shape.ep;
                    candidate.parallel.virtual_stages = shape.v;
                    candidate.parallel.zero_stage = zero;
                    candidate.parallel.sequence_parallel = sp;
                    // How the framework reduces gradients is the recipe's, not a layout choice.
                    candidate.parallel.dp_overlap = base.training.parallel.dp_overlap;
                    candidate.parallel.dp_param_gather_overlap = base.training.parallel.dp_param_gather_overlap;
                    candidate.parallel.tp_comm_overlap = base.training.parallel.tp_comm_overlap;
                    candidate.parallel.pp_comm_overlap = base.training.parallel.pp_comm_overlap;
                    candidate.micro_batch = shape.micro_batch;
                    candidate.recomputation = recomputation;
                    work.training.parallel = candidate.parallel;
                    work.training.micro_batch = candidate.micro_batch;
                    work.training.recomputation = recomputation;
                    const bool ok = cache.evaluate(candidate.breakdown, next.step_bound);
                    ++index;
                    if (!ok)
                        continue;
                    ++result.evaluated;
                    if (cloud_stride > 0 && (index - 1) % cloud_stride == 0)
                        result.cloud.push_back(candidate);
                    if (!candidate.breakdown.fits)
                        continue;
                    ++result.fitting;
                    pending.push_back(std::move(next));
                }
            if (progress && !progress(index, total)) {
                result.cancelled = true;
                break;
            }
        }
        if (result.cancelled)
            break;
    }

    // Pass 2: predict the fitting layouts, lowest bound first, until no remaining layout can beat
    // the K-th best predicted step (its bound is above it; an equal bound could still tie).
    std::stable_sort(pending.begin(), pending.end(),
                     [](const Pending &a, const Pending &b) { return a.step_bound < b.step_bound; });
    const std::size_t top = std::size_t(options.top);
    std::vector<LayoutCandidate> best;  // a max-heap on faster(): the slowest kept layout on top
    best.reserve(top + 1);
    constexpr std::int64_t kPredictionsPerProgressCall = 16;
    for (Pending &next : pending) {
        if (result.cancelled)
            break;
        if (best.size() >= top && next.step_bound > best.front().breakdown.total_seconds)
            break;
        LayoutCandidate &candidate = next.candidate;
        ++result.predicted;
        if (result.predicted % kPredictionsPerProgressCall == 0 && progress && !progress(index, total))
            result.cancelled = true;
        if (!predict(given, candidate))
            continue;
        if (best.size() < top || faster(candidate, best.front())) {
            best.push_back(candidate);
            std::push_heap(best.begin(), best.end(), faster);
            if (best.size() > top) {
                std::pop_heap(best.begin(), best.end(), faster);
                best.pop_back();
            }
        }
    }
    std::sort_heap(best.begin(), best.end(), faster);
    result.top = std::move(best);
    result.band_fraction = base.cluster.accelerator.accuracy.bandFraction();
    markWithinBandOfBest(result.top, result.band_fraction);

    // The cloud's sample, predicted too so the chart shows the same model as the table.
    if (!result.cancelled) {
        std::vector<LayoutCandidate> cloud;
        cloud.reserve(result.cloud.size());
        for (LayoutCandidate &candidate : result.cloud) {
            ++result.predicted;
            if (predict(given, candidate))
                cloud.push_back(std::move(candidate));
        }
        result.cloud = std::move(cloud);
    } else {
        result.cloud.clear();
    }
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
}

void markWithinBandOfBest(std::vector<LayoutCandidate> &top, double band_fraction)
{
    if (top.empty())
        return;
    const double best = top.front().breakdown.total_seconds;
    const double limit = best * (1 + std::max(0.0, band_fraction));
    for (LayoutCandidate &candidate : top)
        candidate.within_band_of_best = candidate.breakdown.total_seconds <= limit;
}

}  // namespace lse::parallel
