// SPDX-License-Identifier: GPL-3.0-or-later
#include "cost/sweeps.h"

#include "hardware/hardware_catalog.h"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace lse {

namespace {

// Learned position embeddings cap the sequence length at max_seq_len (validation enforces it).
// A sweep over sequence lengths asks "what if the model had that many positions", so the copy's
// table is enlarged. This adds (s - max_seq_len) * d_model parameters, which changes neither the
// matmul FLOPs (a position embedding is a lookup and an add) nor the activations; it does change
// the parameter count and model-state memory slightly, which these sweeps do not report.
void allowSeqLen(ModelConfig &model, std::int64_t seq_len)
{
    if (model.positional_encoding == PositionalEncoding::Learned && model.max_seq_len < seq_len)
        model.max_seq_len = seq_len;
}

bool containsIgnoringCase(std::string_view text, std::string_view word)
{
    const auto equal = [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
    };
    return std::search(text.begin(), text.end(), word.begin(), word.end(), equal) != text.end();
}

Problems singleProblem(std::string field, std::string rule, std::string message)
{
    return Problems{Problem{std::move(field), std::move(rule), std::move(message)}};
}

}  // namespace

std::vector<ZeroStageMemory> memoryByZeroStage(const Scenario &scenario)
{
    std::vector<ZeroStageMemory> stages;
    for (int stage = 0; stage <= 3; ++stage) {
        Scenario copy = scenario;
        copy.training.parallel.zero_stage = stage;
        copy.training.mfu_source = MfuSource::Given;  // memory only: no step prediction needed
        ZeroStageMemory entry;
        entry.stage = stage;
        Result<Estimate> result = estimate(copy);
        if (result)
            entry.memory = result->memory;
        else
            entry.problems = result.problems();
        stages.push_back(std::move(entry));
    }
    return stages;
}

ActivationMemorySweep activationMemoryVsSeqLen(const Scenario &scenario, const std::vector<std::int64_t> &seq_lens)
{
    struct Setting {
        ActivationSetting id;
        Recomputation recomputation;
        bool flash;
    };
    const bool flash = scenario.training.flash_attention;
    const Setting settings[kActivationSettingCount] = {
        {ActivationSetting::NoRecomputation, Recomputation::None, flash},
        {ActivationSetting::Selective, Recomputation::Selective, flash},
        {ActivationSetting::Full, Recomputation::Full, flash},
        {ActivationSetting::OppositeFlashAttention, Recomputation::None, !flash},
    };

    ActivationMemorySweep sweep;
    sweep.flash_attention = flash;
    for (const std::int64_t seq_len : seq_lens) {
        ActivationMemoryPoint point;
        point.seq_len = seq_len;
        Problems problems;
        for (const Setting &setting : settings) {
            Scenario copy = scenario;
            copy.training.seq_len = seq_len;
            allowSeqLen(copy.model, seq_len);
            copy.training.recomputation = setting.recomputation;
            copy.training.flash_attention = setting.flash;
            copy.training.mfu_source = MfuSource::Given;  // memory only: no step prediction needed
            Result<Estimate> result = estimate(copy);
            if (!result) {
                problems = result.problems();
                break;
            }
            point.bytes[std::size_t(setting.id)] = result->memory.activations;
        }
        if (problems.empty())
            sweep.points.push_back(point);
        else
            sweep.skipped.push_back({double(seq_len), std::move(problems)});
    }
    return sweep;
}

Result<ComputeShare> computeShare(const ModelConfig &model, std::int64_t seq_len, AttentionFlops attention_flops)
{
    // FLOPs per token depend only on the model, the sequence length and the attention counting
    // convention, so the smallest valid training run around the model is enough: one GPU, one
    // sequence.
    Scenario scenario;
    scenario.model = model;
    allowSeqLen(scenario.model, seq_len);
    scenario.cluster.accelerator = customAccelerator();
    scenario.cluster.gpus = 1;
    scenario.cluster.gpus_per_node = 1;
    TrainingConfig &training = scenario.training;
    training.tokens = std::max<std::int64_t>(1, seq_len);
    training.seq_len = seq_len;
    training.global_batch = 1;
    training.micro_batch = 1;
    training.attention_flops = attention_flops;

    Result<Estimate> result = estimate(scenario);
    if (!result)
        return result.problems();
    const FlopsEstimate &flops = result->flops;
    ComputeShare share;
    share.seq_len = seq_len;
    // The model's own size, without the position table allowSeqLen may have enlarged.
    const ParameterCounts own = countParameters(model);
    share.parameters = own.total;
    share.active_parameters = own.active;
    share.forward_per_token_by_component = flops.forward_per_token_by_component;
    share.forward_per_token = flops.forward_per_token;
    const auto of = [&](Component component) { return flops.forward_per_token_by_component[std::size_t(component)]; };
    if (flops.forward_per_token > 0) {
        const double total = flops.forward_per_token;
        for (std::size_t i = 0; i < share.share_by_component.size(); ++i)
            share.share_by_component[i] = flops.forward_per_token_by_component[i] / total;
        share.attention_scores_share = of(Component::AttentionScores) / total;
        share.mlp_share =
            (of(Component::Mlp) + of(Component::Router) + of(Component::Experts) + of(Component::SharedExperts)) / total;
        share.projections_share = of(Component::AttentionProjections) / total;
        share.head_share = of(Component::Head) / total;
    }
    return share;
}

ModelComputeShareSweep computeShareAcrossModels(const std::vector<ModelPreset> &presets, std::int64_t seq_len,
                                                AttentionFlops attention_flops)
{
    ModelComputeShareSweep sweep;
    for (const ModelPreset &preset : presets) {
        Result<ComputeShare> share = computeShare(preset.model, seq_len, attention_flops);
        if (share)
            sweep.points.push_back({preset.id, preset.model.name, *share});
        else
            sweep.skipped.push_back(preset.id);
    }
    std::stable_sort(sweep.points.begin(), sweep.points.end(), [](const ModelComputeShare &a, const ModelComputeShare &b) {
        return a.share.parameters < b.share.parameters;
    });
    return sweep;
}

ComputeShareSweep computeShareVsSeqLen(const ModelConfig &model, const std::vector<std::int64_t> &seq_lens,
                                       AttentionFlops attention_flops)
{
    ComputeShareSweep sweep;
    for (const std::int64_t seq_len : seq_lens) {
        Result<ComputeShare> share = computeShare(model, seq_len, attention_flops);
        if (share)
            sweep.points.push_back(*share);
        else
            sweep.skipped.push_back({double(seq_len), share.problems()});
    }
    return sweep;
}

TimeSweep daysVsGpuCount(const Scenario &scenario, const std::vector<int> &gpu_counts)
{
    const ParallelConfig &parallel = scenario.training.parallel;
    // A model-parallel group (tp x pp x cp GPUs) holds one replica; more GPUs mean more replicas.
    const std::int64_t group = std::int64_t(parallel.tp) * parallel.pp * parallel.cp;
    TimeSweep sweep;
    for (const int gpus : gpu_counts) {
        if (gpus < 1 || group < 1 || gpus % group != 0) {
            sweep.skipped.push_back({double(gpus), singleProblem("cluster.gpus", "divisible",
                "cluster.gpus " + std::to_string(gpus) + " is not a positive multiple of tp·pp·cp = "
                    + std::to_string(group))});
            continue;
        }
        Scenario copy = scenario;
        copy.cluster.gpus = gpus;
        copy.training.parallel.dp = int(gpus / group);
        Result<Estimate> result = estimate(copy);
        if (!result) {
            sweep.skipped.push_back({double(gpus), result.problems()});
            continue;
        }
        // The MFU the time used: the given one, or the prediction at this GPU count.
        sweep.points.push_back({double(gpus), gpus, copy.training.parallel.dp, result->time.mfu, result->time});
    }
    return sweep;
}

TimeSweep daysVsMfu(const Scenario &scenario, const std::vector<double> &mfus)
{
    TimeSweep sweep;
    for (const double mfu : mfus) {
        Scenario copy = scenario;
        copy.training.mfu = mfu;
        copy.training.mfu_source = MfuSource::Given;  // the swept MFU is the given one
        Result<Estimate> result = estimate(copy);
        if (!result) {
            sweep.skipped.push_back({mfu, result.problems()});
            continue;
        }
        sweep.points.push_back({mfu, copy.cluster.gpus, copy.training.parallel.dp, mfu, result->time});
    }
    return sweep;
}

Result<TimeEstimate> timeAtPeak(const Scenario &scenario, double peak_flops_per_gpu)
{
    Scenario copy = scenario;
    copy.cluster.peak_flops_per_second_override = peak_flops_per_gpu;
    Result<Estimate> result = estimate(copy);
    if (!result)
        return result.problems();
    return result->time;
}

Result<PeakComparison> comparePeaks(const Scenario &scenario)
{
    Result<Estimate> base = estimate(scenario);
    if (!base)
        return base.problems();
    PeakComparison comparison;
    comparison.current_peak = base->time.peak_flops_per_gpu;
    comparison.current_days = base->time.days;
    comparison.current_is_override = scenario.cluster.peak_flops_per_second_override.has_value();

    const Accelerator &gpu = scenario.cluster.accelerator;
    const double dense = gpu.dense_peak.forDType(scenario.training.precision.matmul_dtype);
    if (!(dense > 0))
        return comparison;  // only an override gives this dtype a peak: nothing to compare with
    comparison.dense_peak = dense;
    if (Result<TimeEstimate> time = timeAtPeak(scenario, dense); time)
        comparison.dense_days = time->days;
    else
        return time.problems();
    Scenario six_nd = scenario;
    six_nd.training.flops_model = FlopsModel::SixND;
    if (Result<TimeEstimate> time = timeAtPeak(six_nd, dense); time)
        comparison.dense_days_six_nd = time->days;
    else
        return time.problems();

    // The catalog notes say where a datasheet headline is 2:4 sparse. NVIDIA and AMD both sell
    // structured sparsity at twice the dense rate, so for their parts without such a note 2x is
    // assumed; others (TPUs) publish no sparse figure.
    comparison.sparse_documented = containsIgnoringCase(gpu.note, "sparse");
    const bool sparse_vendor = containsIgnoringCase(gpu.vendor, "nvidia") || containsIgnoringCase(gpu.vendor, "amd");
    if (!comparison.sparse_documented && !sparse_vendor)
        return comparison;
    comparison.sparse_peak = kStructuredSparsityFactor * dense;
    if (Result<TimeEstimate> time = timeAtPeak(scenario, comparison.sparse_peak); time)
        comparison.sparse_days = time->days;
    else
        return time.problems();
    if (Result<TimeEstimate> time = timeAtPeak(six_nd, comparison.sparse_peak); time)
        comparison.sparse_days_six_nd = time->days;
    else
        return time.problems();
    return comparison;
}

}  // namespace lse
