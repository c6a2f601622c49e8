// SPDX-License-Identifier: GPL-3.0-or-later
// The chart series: each sweep must show what its paper (or the course) says it shows.

#include "cost/estimate_json.h"
#include "cost/sweeps.h"
#include "hardware/hardware_catalog.h"
#include "scenario/presets.h"
#include "scenario/scenario_json.h"

#include <QTest>

#include <cmath>

using namespace lse;

namespace {

const ModelConfig &presetModel(const char *id)
{
    const ModelPreset *preset = findModelPreset(id);
    if (preset == nullptr)
        qFatal("missing preset %s", id);
    return preset->model;
}

std::vector<std::int64_t> powersOfTwo(std::int64_t from, std::int64_t to)
{
    std::vector<std::int64_t> values;
    for (std::int64_t value = from; value <= to; value *= 2)
        values.push_back(value);
    return values;
}

}  // namespace

class TestSweeps : public QObject {
    Q_OBJECT
private slots:
    // ZeRO §5: each stage shards one more of optimizer states, gradients, parameters over N_d.
    void zeroStagesShrinkModelStates()
    {
        const Scenario scenario = defaultScenario();
        QVERIFY(scenario.training.parallel.dp > 1);
        const std::vector<ZeroStageMemory> stages = memoryByZeroStage(scenario);
        QCOMPARE(stages.size(), std::size_t(4));
        double previous = 0;
        for (const ZeroStageMemory &stage : stages) {
            QVERIFY(stage.memory.has_value());
            QVERIFY(stage.problems.empty());
            const MemoryEstimate &m = *stage.memory;
            const double states = double(m.params + m.grads + m.optimizer);
            if (stage.stage > 0)
                QVERIFY2(states < previous, qPrintable(QString("stage %1: %2 >= %3").arg(stage.stage).arg(states).arg(previous)));
            previous = states;
            // Activations do not depend on the ZeRO stage.
            QCOMPARE(m.activations, stages.front().memory->activations);
        }
        // Stage 1 keeps 2Ψ + 2Ψ and shards 12Ψ (ZeRO §5, F2 in cost-model-notes.md).
        const MemoryEstimate &s0 = *stages[0].memory, &s1 = *stages[1].memory;
        QCOMPARE(s1.params, s0.params);
        QCOMPARE(s1.grads, s0.grads);
        QVERIFY(std::abs(double(s1.optimizer) * scenario.training.parallel.dp - double(s0.optimizer)) < 64);
    }

    void zeroStagesOfInvalidScenarioCarryProblems()
    {
        Scenario scenario = defaultScenario();
        scenario.training.parallel.dp = 3;  // 3·8·4 != 1024
        const std::vector<ZeroStageMemory> stages = memoryByZeroStage(scenario);
        QCOMPARE(stages.size(), std::size_t(4));
        for (const ZeroStageMemory &stage : stages) {
            QVERIFY(!stage.memory.has_value());
            QVERIFY(!stage.problems.empty());
        }
    }

    // Korthikanti et al. 2022 Table 2: full (2sbh) < selective (34sbh/t with SP) < none
    // (sbh/t·(34 + 5as/h)); FlashAttention removes the 5as/h term; without it memory grows with s².
    void activationMemoryOrdering()
    {
        Scenario scenario = defaultScenario();
        scenario.training.flash_attention = false;  // Table 2 stores the s x s scores
        const std::vector<std::int64_t> seq_lens = powersOfTwo(512, 131072);
        const ActivationMemorySweep sweep = activationMemoryVsSeqLen(scenario, seq_lens);
        QVERIFY(sweep.skipped.empty());
        QCOMPARE(sweep.points.size(), seq_lens.size());
        const auto at = [](const ActivationMemoryPoint &p, ActivationSetting s) { return double(p.bytes[std::size_t(s)]); };
        for (std::size_t i = 0; i < sweep.points.size(); ++i) {
            const ActivationMemoryPoint &p = sweep.points[i];
            QCOMPARE(p.seq_len, seq_lens[i]);
            QVERIFY(at(p, ActivationSetting::Full) < at(p, ActivationSetting::Selective));
            QVERIFY(at(p, ActivationSetting::Selective) < at(p, ActivationSetting::NoRecomputation));
            QVERIFY(at(p, ActivationSetting::OppositeFlashAttention) < at(p, ActivationSetting::NoRecomputation));
            if (i == 0)
                continue;
            const ActivationMemoryPoint &q = sweep.points[i - 1];
            for (int s = 0; s < kActivationSettingCount; ++s)
                QVERIFY(p.bytes[std::size_t(s)] > q.bytes[std::size_t(s)]);
            // Doubling s more than doubles the memory when the s x s scores are stored.
            QVERIFY(at(p, ActivationSetting::NoRecomputation) > 2.0 * at(q, ActivationSetting::NoRecomputation));
        }
    }

    // Issue 13 item 7: the curves used FlashAttention off while the scenario had it on, so the chart
    // showed 300.8 GB for full recomputation of Llama-2-70B at s = 131072 where the engine says
    // 25.98 GB. Each recomputation curve must pass through the engine's figure for that setting.
    void activationSweepUsesTheScenariosFlashAttention()
    {
        for (const bool flash : {true, false}) {
            Scenario scenario = defaultScenario();
            scenario.training.seq_len = 131072;
            scenario.training.flash_attention = flash;
            const ActivationMemorySweep sweep = activationMemoryVsSeqLen(scenario, {4096, 131072});
            QCOMPARE(sweep.flash_attention, flash);
            QVERIFY(sweep.skipped.empty());
            QCOMPARE(sweep.points.back().seq_len, std::int64_t(131072));
            const ActivationMemoryPoint &point = sweep.points.back();
            const struct {
                ActivationSetting setting;
                Recomputation recomputation;
                bool flash;
            } checks[] = {
                {ActivationSetting::NoRecomputation, Recomputation::None, flash},
                {ActivationSetting::Selective, Recomputation::Selective, flash},
                {ActivationSetting::Full, Recomputation::Full, flash},
                {ActivationSetting::OppositeFlashAttention, Recomputation::None, !flash},
            };
            for (const auto &check : checks) {
                Scenario at = scenario;
                at.training.recomputation = check.recomputation;
                at.training.flash_attention = check.flash;
                const Result<Estimate> engine = estimate(at);
                QVERIFY(engine.ok());
                QCOMPARE(point.bytes[std::size_t(check.setting)], engine->memory.activations);
            }
        }
        // With FlashAttention on, full recomputation of Llama-2-70B at 128k tokens stays far below
        // the 80 GB of an H100 (the engine's 25.98 GB), while without it the s x s scores of the
        // recomputed layer alone exceed it.
        Scenario scenario = defaultScenario();
        scenario.training.seq_len = 131072;
        scenario.training.recomputation = Recomputation::Full;
        const ActivationMemorySweep sweep = activationMemoryVsSeqLen(scenario, {131072});
        QCOMPARE(sweep.points.front().bytes[std::size_t(ActivationSetting::Full)], estimate(scenario)->memory.activations);
        QVERIFY(sweep.points.front().bytes[std::size_t(ActivationSetting::Full)] < std::int64_t(80e9));
    }

    void activationSweepSkipsInvalidPointsAndAllowsLearnedPositions()
    {
        Scenario scenario = defaultScenario();
        scenario.training.parallel.cp = 2;
        scenario.training.parallel.dp = 16;
        const ActivationMemorySweep sweep = activationMemoryVsSeqLen(scenario, {1000, 1001, 2048});
        QCOMPARE(sweep.points.size(), std::size_t(2));
        QCOMPARE(sweep.skipped.size(), std::size_t(1));
        QCOMPARE(sweep.skipped.front().x, 1001.0);
        QCOMPARE(sweep.skipped.front().problems.front().field, std::string("training.seq_len"));

        // GPT-2 has 1024 learned positions; the sweep looks beyond them anyway.
        Scenario gpt2 = scenario;
        gpt2.model = presetModel("gpt2-small");
        gpt2.training.parallel = {};
        gpt2.training.parallel.dp = 1024;
        gpt2.training.seq_len = 1024;
        QVERIFY(estimate(gpt2).ok());
        const ActivationMemorySweep long_sweep = activationMemoryVsSeqLen(gpt2, {1024, 8192});
        QVERIFY(long_sweep.skipped.empty());
        QCOMPARE(long_sweep.points.size(), std::size_t(2));
    }

    // The course's point: at a fixed context the s² attention work is a shrinking share of the
    // compute as models widen (attention scores 4·s·h vs MLP 16·h² per layer per token, Kaplan et
    // al. 2020 Table 1), while for one model it grows with the context.
    void attentionShareFallsWithModelSize()
    {
        std::vector<ModelPreset> family;
        for (const char *id : {"gpt3-175b", "gpt2-medium", "gpt2-small", "gpt2-xl", "gpt2-large"})
            family.push_back(*findModelPreset(id));
        const ModelComputeShareSweep sweep = computeShareAcrossModels(family, 2048);
        QVERIFY(sweep.skipped.empty());
        QCOMPARE(sweep.points.size(), family.size());
        QCOMPARE(sweep.points.front().id, std::string("gpt2-small"));
        QCOMPARE(sweep.points.back().id, std::string("gpt3-175b"));
        for (std::size_t i = 1; i < sweep.points.size(); ++i) {
            const ComputeShare &smaller = sweep.points[i - 1].share, &larger = sweep.points[i].share;
            QVERIFY(larger.parameters > smaller.parameters);
            QVERIFY2(larger.attention_scores_share < smaller.attention_scores_share,
                     qPrintable(QString::fromStdString(sweep.points[i].id)));
            QVERIFY(larger.mlp_share > smaller.mlp_share);
        }
        for (const ModelComputeShare &point : sweep.points) {
            const ComputeShare &s = point.share;
            QVERIFY(std::abs(s.attention_scores_share + s.mlp_share + s.projections_share + s.head_share - 1.0) < 1e-12);
        }
        // GPT-3 175B at s = 2048: 4sh / (24h² + 4sh) per layer (projections 8h², MLP 16h²)
        // = 8192 / (24·12288 + 8192) ≈ 2.7 %, ignoring the head.
        QVERIFY(sweep.points.back().share.attention_scores_share > 0.02);
        QVERIFY(sweep.points.back().share.attention_scores_share < 0.03);
    }

    void attentionShareGrowsWithSeqLen()
    {
        const std::vector<std::int64_t> seq_lens = powersOfTwo(256, 131072);
        const ComputeShareSweep sweep = computeShareVsSeqLen(presetModel("llama-2-7b"), seq_lens);
        QVERIFY(sweep.skipped.empty());
        QCOMPARE(sweep.points.size(), seq_lens.size());
        for (std::size_t i = 1; i < sweep.points.size(); ++i) {
            QVERIFY(sweep.points[i].attention_scores_share > sweep.points[i - 1].attention_scores_share);
            QVERIFY(sweep.points[i].mlp_share < sweep.points[i - 1].mlp_share);
            QCOMPARE(sweep.points[i].parameters, sweep.points[0].parameters);
        }
        // Causal counting halves the score FLOPs, so it lowers the share.
        const ComputeShare full = *computeShare(presetModel("llama-2-7b"), 4096, AttentionFlops::Full);
        const ComputeShare causal = *computeShare(presetModel("llama-2-7b"), 4096, AttentionFlops::Causal);
        QVERIFY(causal.attention_scores_share < full.attention_scores_share);
        // GPT-2 at 2048 exceeds its 1024 learned positions; the share is still defined.
        QVERIFY(computeShare(presetModel("gpt2-small"), 2048, AttentionFlops::Full).ok());
    }

    void moeShareCountsExperts()
    {
        const Result<ComputeShare> share = computeShare(presetModel("mixtral-8x7b"), 4096, AttentionFlops::Full);
        QVERIFY(share.ok());
        QVERIFY(share->forward_per_token_by_component[std::size_t(Component::Experts)] > 0);
        QVERIFY(share->active_parameters < share->parameters);
        QVERIFY(share->mlp_share > 0.5);
    }

    // FLOPs / (N · peak · MFU): time is inversely proportional to GPU count and to MFU.
    void daysHalveWhenGpusDouble()
    {
        const Scenario scenario = defaultScenario();
        const TimeSweep sweep = daysVsGpuCount(scenario, {32, 64, 100, 512, 1024, 2048});
        QCOMPARE(sweep.points.size(), std::size_t(5));
        QCOMPARE(sweep.skipped.size(), std::size_t(1));
        QCOMPARE(sweep.skipped.front().x, 100.0);  // not a multiple of tp·pp = 32
        QCOMPARE(sweep.points[0].dp, 1);
        QCOMPARE(sweep.points[1].time.days * 2, sweep.points[0].time.days);
        QCOMPARE(sweep.points[4].time.days * 2, sweep.points[3].time.days);
        QCOMPARE(sweep.points[3].time.days, estimate(scenario)->time.days);
        // Cost (GPU-hours) does not depend on the GPU count under perfect scaling.
        QVERIFY(std::abs(sweep.points[0].time.gpu_hours / sweep.points[4].time.gpu_hours - 1) < 1e-12);

        // 4096 GPUs need dp = 128, and 1024 sequences per step still divide over it; 65536 do not.
        const TimeSweep big = daysVsGpuCount(scenario, {65536});
        QVERIFY(big.points.empty());
        QCOMPARE(big.skipped.front().problems.front().field, std::string("training.global_batch"));
    }

    void daysScaleAsOneOverMfu()
    {
        const Scenario scenario = defaultScenario();
        const TimeSweep sweep = daysVsMfu(scenario, {0.1, 0.2, 0.4, 0.0, 1.5});
        QCOMPARE(sweep.points.size(), std::size_t(3));
        QCOMPARE(sweep.skipped.size(), std::size_t(2));
        QVERIFY(std::abs(sweep.points[0].time.days / sweep.points[1].time.days - 2) < 1e-12);
        QVERIFY(std::abs(sweep.points[0].time.days / sweep.points[2].time.days - 4) < 1e-12);
    }

    // The course's 119 days: 6·70e9·15e12 FLOPs / (1024 · 2 PFLOP/s · 0.3) — the sparse headline.
    void sparseHeadlinePeak()
    {
        const Scenario scenario = defaultScenario();
        const Result<PeakComparison> comparison = comparePeaks(scenario);
        QVERIFY(comparison.ok());
        const Estimate base = *estimate(scenario);
        QVERIFY(!comparison->current_is_override);
        QCOMPARE(comparison->current_days, base.time.days);
        QCOMPARE(comparison->dense_peak, comparison->current_peak);
        QVERIFY(comparison->sparse_documented);  // the H100 catalog note says so
        QCOMPARE(comparison->sparse_peak, 2 * comparison->dense_peak);
        QVERIFY(std::abs(comparison->sparse_days * 2 / comparison->dense_days - 1) < 1e-12);
        const double six_nd_days = base.flops.six_nd / (1024 * comparison->sparse_peak * 0.3) / 86400;
        QVERIFY(std::abs(comparison->sparse_days_six_nd / six_nd_days - 1) < 1e-12);
        // Issue 13 item 9: 6ND at the dense peak too (the lecture's formula with the datasheet's
        // dense figure): twice the sparse-peak 6ND days, and below the exact-count dense days.
        const double dense_six_nd_days = base.flops.six_nd / (1024 * comparison->dense_peak * 0.3) / 86400;
        QVERIFY(std::abs(comparison->dense_days_six_nd / dense_six_nd_days - 1) < 1e-12);
        QVERIFY(std::abs(comparison->dense_days_six_nd / comparison->sparse_days_six_nd - 2) < 1e-12);
        QVERIFY(comparison->dense_days_six_nd < comparison->dense_days);
        // 68.98e9 parameters and 1,979 TFLOP/s instead of the course's rounded 70e9 and 2 PFLOP/s.
        QVERIFY(comparison->sparse_days_six_nd > 115 && comparison->sparse_days_six_nd < 120);

        // The course's figure as an override: the comparison still reports the dense peak.
        Scenario course = scenario;
        course.cluster.peak_flops_per_second_override = 2e15;
        const Result<PeakComparison> with_override = comparePeaks(course);
        QVERIFY(with_override->current_is_override);
        QCOMPARE(with_override->current_peak, 2e15);
        QVERIFY(with_override->dense_days > 1.9 * with_override->current_days);

        // TPUs have no sparse headline.
        Scenario tpu = scenario;
        tpu.cluster.accelerator = *builtinHardwareCatalog().find("tpu-v5p");
        const Result<PeakComparison> tpu_comparison = comparePeaks(tpu);
        QVERIFY(tpu_comparison.ok());
        QCOMPARE(tpu_comparison->sparse_peak, 0.0);
        QVERIFY(tpu_comparison->dense_days > 0);
        // With the time computed at any peak, days scale inversely.
        QVERIFY(std::abs(timeAtPeak(scenario, 1e15)->days / timeAtPeak(scenario, 2e15)->days - 2) < 1e-12);
    }

    // vLLM §3: Llama-2-70B caches 2 · 80 layers · 8 KV heads · 128 · 2 bytes = 327,680 B per token.
    void inferenceMemoryPerGpu()
    {
        Scenario scenario = defaultScenario();
        scenario.training.parallel = {};
        scenario.training.parallel.tp = 8;
        scenario.training.parallel.dp = 128;
        scenario.training.micro_batch = 2;
        const Result<Estimate> result = estimate(scenario);
        QVERIFY(result.ok());
        const std::int64_t tokens = 2 * 4096;
        QCOMPARE(result->inference.kv_cache_bytes_per_gpu, qint64(327'680) * tokens / 8);
        // Weights: every matrix split over 8 ranks, the norms replicated.
        const double total_bytes = 2.0 * double(result->params.total);
        QVERIFY(double(result->inference.weights_bytes_per_gpu) >= total_bytes / 8);
        QVERIFY(double(result->inference.weights_bytes_per_gpu) < total_bytes / 8 * 1.001);

        // One GPU holds everything.
        Scenario single = scenario;
        single.cluster.gpus = 1;
        single.training.parallel = {};
        single.training.global_batch = 2;
        const Result<Estimate> one = estimate(single);
        QVERIFY(one.ok());
        QCOMPARE(one->inference.weights_bytes_per_gpu, 2 * one->params.total);
        QCOMPARE(one->inference.kv_cache_bytes_per_gpu, one->inference.kv_cache_bytes_per_sequence * 2);

        // Pipeline stages split the layers (and the cache) by pp; the heavier end stage counts.
        Scenario piped = scenario;
        piped.training.parallel.pp = 4;
        piped.training.parallel.dp = 32;
        const Result<Estimate> staged = estimate(piped);
        QVERIFY(staged.ok());
        QCOMPARE(staged->inference.kv_cache_bytes_per_gpu, qint64(327'680) * tokens / 32);
        QVERIFY(staged->inference.weights_bytes_per_gpu < result->inference.weights_bytes_per_gpu / 3);
        QVERIFY(staged->inference.weights_bytes_per_gpu > result->inference.weights_bytes_per_gpu / 4);

        const QJsonObject json = estimateToJson(*result, scenario);
        const QJsonObject inference = json.value("inference").toObject();
        QCOMPARE(inference.value("kv_cache_bytes_per_gpu").toInteger(), result->inference.kv_cache_bytes_per_gpu);
        QCOMPARE(inference.value("weights_bytes_per_gpu").toInteger(), result->inference.weights_bytes_per_gpu);
    }

    void allPresetsHaveAComputeShare()
    {
        const ModelComputeShareSweep sweep = computeShareAcrossModels(builtinModelPresets(), 2048);
        QVERIFY(sweep.skipped.empty());
        QCOMPARE(sweep.points.size(), builtinModelPresets().size());
        for (std::size_t i = 1; i < sweep.points.size(); ++i)
            QVERIFY(sweep.points[i].share.parameters >= sweep.points[i - 1].share.parameters);
    }
};

QTEST_GUILESS_MAIN(TestSweeps)
#include "test_sweeps.moc"
