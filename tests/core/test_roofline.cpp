// SPDX-License-Identifier: GPL-3.0-or-later
// The roofline lab against closed forms: Williams et al. 2009 (ridge point, min(peak, I·bw)),
// square GEMM intensity, Dao et al. 2022 (FlashAttention HBM traffic), the memory-bound decode
// argument, and the cost engine's FLOP totals (one operator definition for both).

#include "cost/estimate.h"
#include "hardware/hardware_catalog.h"
#include "ops/flop_rules.h"
#include "roofline/measured_roofline.h"
#include "roofline/roofline.h"
#include "scenario/presets.h"
#include "scenario/scenario_json.h"
#include "test_models.h"

#include <QTest>

#include <cmath>

using namespace lse;

Q_DECLARE_METATYPE(lse::DType)
Q_DECLARE_METATYPE(lse::Recomputation)

namespace {

double relativeError(double value, double expected)
{
    return expected == 0 ? std::abs(value) : std::abs(value - expected) / std::abs(expected);
}

RooflineReport reportOrFail(const Scenario &scenario, const RooflineOptions &options, const RooflineMachine &machine)
{
    const Result<RooflineReport> result = rooflineReport(scenario, options, machine);
    if (!result.ok())
        qFatal("rooflineReport failed: %s", formatProblems(result.problems()).c_str());
    return *result;
}

Estimate estimateOrFail(const Scenario &scenario)
{
    const Result<Estimate> result = estimate(scenario);
    if (!result.ok())
        qFatal("estimate failed: %s", formatProblems(result.problems()).c_str());
    return *result;
}

const RooflineOp *findOp(const RooflineReport &report, const std::string &name, OpPass pass)
{
    for (const RooflineOp &op : report.ops)
        if (op.name == name && op.pass == pass)
            return &op;
    return nullptr;
}

double sumBytes(const RooflineReport &report, std::initializer_list<const char *> names, OpPass pass)
{
    double bytes = 0;
    for (const char *name : names)
        if (const RooflineOp *op = findOp(report, name, pass))
            bytes += op->bytes();
    return bytes;
}

double sumFlops(const RooflineReport &report, std::initializer_list<const char *> names, OpPass pass)
{
    double flops = 0;
    for (const char *name : names)
        if (const RooflineOp *op = findOp(report, name, pass))
            flops += op->flops;
    return flops;
}

Scenario presetScenario(const char *id, std::int64_t seq_len)
{
    const ModelPreset *preset = findModelPreset(id);
    if (!preset)
        qFatal("missing preset %s", id);
    Scenario scenario = test::scenarioFor(preset->model, 8);
    scenario.training.seq_len = seq_len;
    return scenario;
}

// A square model: d_model = d_ff = n, so mlp_down is X[T×n]·W[n×n] with T = n tokens.
Scenario squareScenario(std::int64_t n, DType dtype)
{
    ModelConfig model = test::gptModel(1, n, 8, 1000, n);
    model.d_ff = n;
    model.activation = Activation::GeLU;
    Scenario scenario = test::scenarioFor(model, 1);
    scenario.training.seq_len = n;
    scenario.training.precision.activation_dtype = dtype;
    scenario.training.precision.weight_dtype = dtype;
    scenario.training.precision.matmul_dtype = dtype;
    return scenario;
}

// Attention-only shapes: a heads of d = 128, one layer, no dropout.
Scenario attentionScenario(std::int64_t seq_len, bool flash)
{
    ModelConfig model = test::gptModel(1, 2048, 16, 1000, 65536);
    Scenario scenario = test::scenarioFor(model, 1);
    scenario.training.seq_len = seq_len;
    scenario.training.flash_attention = flash;
    return scenario;
}

// Closed form of the smallest m with X[m×k]·W[k×n] compute-bound: 2mkn >= R·(act·m·k + w·k·n + act·m·n).
double crossoverClosedForm(double k, double n, double ridge, double act, double w)
{
    const double denominator = 2 * k * n - ridge * act * (k + n);
    return denominator <= 0 ? INFINITY : std::ceil(ridge * w * k * n / denominator);
}

}  // namespace

class TestRoofline : public QObject {
    Q_OBJECT
private slots:
    void ridgePoint_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<DType>("dtype");
        for (const Accelerator &gpu : builtinHardwareCatalog().accelerators)
            for (DType dtype : {DType::FP32, DType::TF32, DType::BF16, DType::FP16, DType::FP8})
                if (gpu.dense_peak.forDType(dtype) > 0)
                    QTest::addRow("%s-%s", gpu.id.c_str(), std::string(toString(dtype)).c_str())
                        << QString::fromStdString(gpu.id) << dtype;
    }
    void ridgePoint()
    {
        QFETCH(QString, gpu);
        QFETCH(DType, dtype);
        const Accelerator &accelerator = *builtinHardwareCatalog().find(gpu.toStdString());
        const RooflineMachine machine = rooflineMachine(accelerator, dtype);
        const double expected = accelerator.dense_peak.forDType(dtype) / accelerator.memory_bandwidth_bytes_per_second;
        QVERIFY(relativeError(machine.ridgePointFlopPerByte(), expected) < 1e-15);
        // Below the ridge the bandwidth limits, above it the peak (Williams et al. 2009, Fig. 1).
        QCOMPARE(attainableFlopsPerSecond(machine, expected / 2), accelerator.dense_peak.forDType(dtype) / 2);
        QCOMPARE(attainableFlopsPerSecond(machine, expected * 2), accelerator.dense_peak.forDType(dtype));
    }
    void ridgePointH100()
    {
        // H100 SXM datasheet: 989.4 TFLOP/s dense BF16, 3.35 TB/s HBM3: ≈ 295 FLOP/byte.
        const RooflineMachine machine = rooflineMachine(*builtinHardwareCatalog().find("h100-sxm"), DType::BF16);
        QVERIFY2(std::abs(machine.ridgePointFlopPerByte() - 295.34) < 0.01,
                 qPrintable(QString::number(machine.ridgePointFlopPerByte())));
        QCOMPARE(machine.sram_bytes_per_sm, std::int64_t(228 * 1024));
    }

    void squareGemm_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<DType>("dtype");
        QTest::addRow("256-bf16") << 256 << DType::BF16;
        QTest::addRow("1024-bf16") << 1024 << DType::BF16;
        QTest::addRow("4096-bf16") << 4096 << DType::BF16;
        QTest::addRow("1024-fp32") << 1024 << DType::FP32;
        QTest::addRow("8192-fp8") << 8192 << DType::FP8;
    }
    void squareGemm()
    {
        QFETCH(int, n);
        QFETCH(DType, dtype);
        const double bytes = bytesPerElement(dtype);
        const double expected = 2.0 * n * n * n / (3.0 * n * n * bytes);  // 2n³ / (3n²·bytes)
        const RooflineMachine machine = rooflineMachine(*builtinHardwareCatalog().find("h100-sxm"), dtype);
        const RooflineOp helper = matmulRooflineOp("gemm", n, n, n, int(bytes), machine);
        QVERIFY(relativeError(helper.intensity_flop_per_byte, expected) < 1e-12);
        QVERIFY(helper.bound == (expected >= machine.ridgePointFlopPerByte() ? Bound::Compute : Bound::Memory));
        QVERIFY(relativeError(helper.seconds, helper.flops / std::min(machine.peak_flops_per_second,
                                                                      expected * machine.memory_bandwidth_bytes_per_second))
                < 1e-12);
        // The same product inside a model: mlp_down of a d_model = d_ff = n model over n tokens.
        const Scenario scenario = squareScenario(n, dtype);
        const RooflineReport report = reportOrFail(scenario, rooflineOptionsFor(scenario), machine);
        const RooflineOp *down = findOp(report, "mlp_down", OpPass::Forward);
        QVERIFY(down);
        QCOMPARE(down->count, 1);
        QVERIFY(relativeError(down->flops, 2.0 * n * n * n) < 1e-15);
        QVERIFY(relativeError(down->intensity_flop_per_byte, expected) < 1e-12);
    }

    void attentionBytes_data()
    {
        QTest::addColumn<int>("seq_len");
        QTest::addRow("1024") << 1024;
        QTest::addRow("4096") << 4096;
        QTest::addRow("16384") << 16384;
    }
    void attentionBytes()
    {
        QFETCH(int, seq_len);
        const RooflineMachine machine = rooflineMachine(*builtinHardwareCatalog().find("h100-sxm"), DType::BF16);
        const double a = 16, d = 128, act = 2;
        std::vector<double> naive_bytes, flash_bytes;
        for (const int factor : {1, 2, 4}) {
            const double s = double(seq_len) * factor;
            const Scenario naive_scenario = attentionScenario(std::int64_t(s), false);
            const Scenario flash_scenario = attentionScenario(std::int64_t(s), true);
            const RooflineReport naive = reportOrFail(naive_scenario, rooflineOptionsFor(naive_scenario), machine);
            const RooflineReport flash = reportOrFail(flash_scenario, rooflineOptionsFor(flash_scenario), machine);
            // Same FLOPs: FlashAttention changes the memory traffic, not the arithmetic.
            const double naive_flops =
                sumFlops(naive, {"attention_scores", "softmax", "attention_values"}, OpPass::Forward);
            QVERIFY(relativeError(findOp(flash, "flash_attention", OpPass::Forward)->flops, naive_flops) < 1e-12);
            // Naive: QKᵀ reads Q, K and writes S; softmax reads S, writes P; P·V reads P, V, writes O:
            // act·a·(4s² + 4sd) per layer and sequence, Θ(s²) (Dao et al. 2022, Theorem 2: Θ(Nd + N²)).
            const double naive_expected = act * a * (4 * s * s + 4 * s * d);
            naive_bytes.push_back(sumBytes(naive, {"attention_scores", "softmax", "attention_values"}, OpPass::Forward));
            QVERIFY2(relativeError(naive_bytes.back(), naive_expected) < 1e-12,
                     qPrintable(QString("%1 vs %2").arg(naive_bytes.back()).arg(naive_expected)));
            // FlashAttention-2: Q read and O written once, K and V once per query tile of
            // B_r = min(ceil(M/4d), d) rows (M = 228 KiB / 2 bytes on an H100: B_r = 128), plus the fp32
            // log-sum-exp; no s×s term of its own, only K/V re-reads: Θ(s²d²/M).
            const double tile_rows = std::min(std::ceil(228.0 * 1024 / 2 / (4 * d)), d);
            QCOMPARE(flash.flash_tile_rows, std::int64_t(tile_rows));
            // The re-reads hit L2 while K and V of one head fit in half of it (FlashAttention-2 runs a
            // head's query tiles in parallel, Dao 2023 §3.2): 2·s·d·act <= 50 MiB / 2 up to s = 51,200.
            const bool kv_in_l2 = 2 * s * d * act <= 52428800.0 / 2;
            const double query_tiles = kv_in_l2 ? 1.0 : std::ceil(s / tile_rows);
            const double flash_expected = a * (act * s * d * (2 + 2 * query_tiles) + 4 * s);
            flash_bytes.push_back(findOp(flash, "flash_attention", OpPass::Forward)->bytes());
            QVERIFY2(relativeError(flash_bytes.back(), flash_expected) < 1e-12,
                     qPrintable(QString("%1 vs %2").arg(flash_bytes.back()).arg(flash_expected)));
            // The s×s traffic it avoids: 4s² elements against 2s·d/B_r re-read elements per row.
            QVERIFY(flash_bytes.back() < naive_bytes.back());
        }
        // Doubling s: naive → ×4 (up to the s·d term), FlashAttention's Q/O part ×2 and its K/V
        // re-reads ×4, as the closed forms above say; check the naive growth directly.
        QVERIFY(naive_bytes[1] / naive_bytes[0] > 3.5 && naive_bytes[2] / naive_bytes[1] > 3.5);
        // FlashAttention moves Θ(s·d) bytes while K/V stay in L2: doubling s doubles its traffic
        // exactly, where the naive path's grows ×4.
        for (std::size_t i = 1; i < flash_bytes.size(); ++i)
            if (2.0 * double(seq_len) * (1 << i) * d * act <= 52428800.0 / 2)
                QVERIFY(relativeError(flash_bytes[i] / flash_bytes[i - 1], 2) < 1e-12);
        // Past that (s = 65,536 here) the re-reads reach HBM (Θ(s²d²/M), Dao et al. 2022 Thm. 2) and
        // the flash/naive ratio tends to (2d/B_r)/4 = d/(2·B_r) = 1/2.
        QVERIFY(flash_bytes[2] / naive_bytes[2] < 0.6);
    }
    void flashBytesLinearWithinOneTile()
    {
        // While the whole sequence fits in one query tile (s <= B_r), K and V are read once:
        // bytes = a·(4·s·d·act + 4s), exactly linear in s.
        const RooflineMachine machine = rooflineMachine(*builtinHardwareCatalog().find("h100-sxm"), DType::BF16);
        double previous = 0;
        for (const std::int64_t s : {32, 64, 128}) {
            const Scenario scenario = attentionScenario(s, true);
            const double bytes = findOp(reportOrFail(scenario, rooflineOptionsFor(scenario), machine), "flash_attention",
                                        OpPass::Forward)
                                     ->bytes();
            QVERIFY(relativeError(bytes, 16.0 * (4.0 * double(s) * 128 * 2 + 4.0 * double(s))) < 1e-12);
            if (previous > 0)
                QVERIFY(relativeError(bytes / previous, 2) < 1e-12);
            previous = bytes;
        }
    }

    void decodeMemoryBound_data()
    {
        QTest::addColumn<QString>("gpu");
        for (const Accelerator &gpu : builtinHardwareCatalog().accelerators)
            if (gpu.dense_peak.forDType(DType::BF16) > 0)
                QTest::addRow("%s", gpu.id.c_str()) << QString::fromStdString(gpu.id);
    }
    void decodeMemoryBound()
    {
        QFETCH(QString, gpu);
        Scenario scenario = presetScenario("llama-3-8b", 4096);
        const RooflineMachine machine =
            rooflineMachine(*builtinHardwareCatalog().find(gpu.toStdString()), DType::BF16);
        const ModelConfig &model = scenario.model;
        const double ridge = machine.ridgePointFlopPerByte();
        // Closed form per weight matmul (k × n): qkv, attention output, gate|up, down, lm_head.
        double expected = 0;
        for (const auto &[k, n] : std::vector<std::pair<double, double>>{
                 {double(model.d_model), double(model.qDim() + 2 * model.kvDim())},
                 {double(model.qDim()), double(model.d_model)},
                 {double(model.d_model), 2.0 * double(model.d_ff)},
                 {double(model.d_ff), double(model.d_model)},
                 {double(model.d_model), double(model.vocab_size)}})
            expected = std::max(expected, crossoverClosedForm(k, n, ridge, 2, 2));
        const std::int64_t crossover = decodeCrossoverBatch(scenario, machine);
        QCOMPARE(double(crossover), expected);
        // ≈ ridge · weight bytes / 2 for large k, n (the course's "batch ≈ ridge" rule for bf16).
        QVERIFY(double(crossover) >= ridge && double(crossover) < 1.3 * ridge);

        RooflineOptions options = rooflineOptionsFor(scenario, StepPhase::Decode);
        for (const std::int64_t batch : {std::int64_t(1), crossover - 1, crossover}) {
            options.batch = batch;
            const RooflineReport report = reportOrFail(scenario, options, machine);
            QCOMPARE(report.decode_crossover_batch, crossover);
            int weight_matmuls = 0;
            for (const RooflineOp &op : report.ops) {
                if (!op.weight_matmul)
                    continue;
                ++weight_matmuls;
                if (batch == crossover)
                    QVERIFY2(op.bound == Bound::Compute, op.name.c_str());
                else if (batch == 1)
                    QVERIFY2(op.bound == Bound::Memory, op.name.c_str());
            }
            QCOMPARE(weight_matmuls, 5);
            if (batch == crossover - 1) {
                bool any_memory_bound = false;
                for (const RooflineOp &op : report.ops)
                    any_memory_bound = any_memory_bound || (op.weight_matmul && op.bound == Bound::Memory);
                QVERIFY(any_memory_bound);
            }
        }
    }
    void decodeReadsKvCache()
    {
        // vLLM §3: the KV cache is 2·L·n_kv_heads·head_dim·context·batch·bytes; decode attention
        // reads all of it plus the new token's query, and writes the output.
        Scenario scenario = presetScenario("llama-3-8b", 4096);
        RooflineOptions options = rooflineOptionsFor(scenario, StepPhase::Decode);
        options.batch = 4;
        options.context_tokens = 2000;
        const RooflineMachine machine = rooflineMachine(scenario);
        const RooflineReport report = reportOrFail(scenario, options, machine);
        const double cache = 2.0 * 32 * 8 * 128 * 2000 * 4 * 2;
        QVERIFY(relativeError(report.kv_cache_bytes, cache) < 1e-15);
        const RooflineOp *flash = findOp(report, "flash_attention", OpPass::Forward);
        QVERIFY(flash);
        QCOMPARE(flash->count, 32);
        QVERIFY(relativeError(flash->bytes(), cache + 32.0 * 2 * (4 * 32 * 128 * 2)) < 1e-12);
        QVERIFY(relativeError(flash->flops, 32.0 * (2 * 2 * 4 * 32 * 2000 * 128.0 + 5.0 * 4 * 32 * 2000)) < 1e-12);
        QCOMPARE(report.tokens, std::int64_t(4));
        QVERIFY(!findOp(report, "cross_entropy", OpPass::Forward));
        QVERIFY(!findOp(report, "mlp_up", OpPass::Backward));
    }

    void trainingFlopsMatchEngine_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<Recomputation>("recomputation");
        QTest::addColumn<bool>("flash");
        QTest::addColumn<bool>("dropout");
        QTest::addColumn<bool>("causal");
        for (const char *preset : {"gpt2-small", "llama-3-8b", "mixtral-8x7b", "gemma-2-9b"})
            for (const auto &[name, recomputation] : {std::pair{"none", Recomputation::None},
                                                      std::pair{"selective", Recomputation::Selective},
                                                      std::pair{"full", Recomputation::Full}})
                for (const bool flash : {true, false})
                    QTest::addRow("%s-%s-%s", preset, name, flash ? "flash" : "naive")
                        << QString(preset) << recomputation << flash << false << false;
        QTest::addRow("gpt2-small-dropout-selective")
            << QString("gpt2-small") << Recomputation::Selective << false << true << false;
        QTest::addRow("llama-3-8b-causal-full") << QString("llama-3-8b") << Recomputation::Full << true << false << true;
    }
    void trainingFlopsMatchEngine()
    {
        QFETCH(QString, preset);
        QFETCH(Recomputation, recomputation);
        QFETCH(bool, flash);
        QFETCH(bool, dropout);
        QFETCH(bool, causal);
        Scenario scenario = presetScenario(preset.toUtf8().constData(), 1024);
        scenario.training.micro_batch = 2;
        scenario.training.global_batch = 16;
        scenario.training.recomputation = recomputation;
        scenario.training.flash_attention = flash;
        scenario.training.dropout = dropout;
        scenario.training.attention_flops = causal ? AttentionFlops::Causal : AttentionFlops::Full;
        const Estimate e = estimateOrFail(scenario);
        const RooflineMachine machine = rooflineMachine(scenario);
        for (const bool fused : {false, true}) {
            RooflineOptions options = rooflineOptionsFor(scenario);
            options.fused_elementwise = fused;
            const RooflineReport report = reportOrFail(scenario, options, machine);
            const double tokens = double(report.tokens);
            QCOMPARE(report.tokens, std::int64_t(2 * 1024));
            double all = 0, matmul = 0;
            for (const RooflineOp &op : report.ops) {
                if (op.pass == OpPass::Optimizer)
                    continue;
                all += op.flops;
                matmul += op.matmul_flops;
            }
            QVERIFY2(relativeError(all, e.flops.all_ops_hardware_train_per_token * tokens) < 1e-12,
                     qPrintable(QString("roofline %1 engine %2").arg(all, 0, 'g', 17)
                                    .arg(e.flops.all_ops_hardware_train_per_token * tokens, 0, 'g', 17)));
            QVERIFY(relativeError(matmul, e.flops.hardware_train_per_token * tokens) < 1e-12);
            QVERIFY(relativeError(report.model_flops, e.flops.train_per_token * tokens) < 1e-12);
            // The engine's MFU-based time for the same work, and the implied MFU.
            QVERIFY(relativeError(report.mfu_step_seconds,
                                  report.model_flops / (machine.peak_flops_per_second * scenario.training.mfu))
                    < 1e-12);
            QVERIFY(relativeError(report.implied_mfu,
                                  report.model_flops / (report.step_seconds * machine.peak_flops_per_second))
                    < 1e-12);
        }
    }

    void stepIsSumOfOperators()
    {
        const Scenario scenario = defaultScenario();
        const RooflineMachine machine = rooflineMachine(scenario);
        const RooflineReport report = reportOrFail(scenario, rooflineOptionsFor(scenario), machine);
        double seconds = 0, shares = 0;
        for (const RooflineOp &op : report.ops) {
            seconds += op.seconds;
            shares += op.share_of_step;
            QVERIFY(relativeError(op.seconds, std::max(op.flops / machine.peak_flops_per_second,
                                                       op.bytes() / machine.memory_bandwidth_bytes_per_second))
                    < 1e-12);
            QVERIFY(op.bound
                    == (op.intensity_flop_per_byte >= report.ridge_point_flop_per_byte ? Bound::Compute : Bound::Memory));
        }
        QVERIFY(relativeError(report.step_seconds, seconds) < 1e-12);
        QVERIFY(relativeError(report.compute_bound_seconds + report.memory_bound_seconds, seconds) < 1e-12);
        QVERIFY(relativeError(shares, 1) < 1e-12);
        // A roofline is an upper bound on speed: it can never take longer than the engine's 30%-MFU time
        // ... nor be faster than the peak allows.
        QVERIFY(report.implied_mfu > 0 && report.implied_mfu <= 1);
    }

    void optimizerStep()
    {
        // AdamW with fp32 master weights (ZeRO §3.1): reads bf16 grad, fp32 master, m, v (2 + 4 + 8),
        // writes master, m, v and the bf16 working copy (4 + 8 + 2); 16 FLOPs per parameter.
        const Scenario scenario = presetScenario("llama-3-8b", 1024);
        const RooflineReport report = reportOrFail(scenario, rooflineOptionsFor(scenario), rooflineMachine(scenario));
        const RooflineOp *step = findOp(report, "optimizer_step", OpPass::Optimizer);
        QVERIFY(step);
        QVERIFY(relativeError(report.parameters, 8'030'261'248.0) < 1e-15);  // Llama 3 8B model card
        QVERIFY(relativeError(step->bytes_read, 14.0 * report.parameters) < 1e-15);
        QVERIFY(relativeError(step->bytes_written, 14.0 * report.parameters) < 1e-15);
        QVERIFY(relativeError(step->flops, 16.0 * report.parameters) < 1e-15);
        QVERIFY(step->bound == Bound::Memory);
        QCOMPARE(report.optimizer_seconds, step->seconds);
        RooflineOptions options = rooflineOptionsFor(scenario);
        options.include_optimizer = false;
        QVERIFY(!findOp(reportOrFail(scenario, options, rooflineMachine(scenario)), "optimizer_step", OpPass::Optimizer));
    }

    void fusion()
    {
        // Training keeps the residual stream and the inputs of norms and activations, so a fused
        // kernel saves only the re-reads; prefill keeps nothing for a backward pass.
        //   Llama 3 8B (pre-norm, no biases): attention_residual + mlp_norm: 3 + 2 → 4 tensors of T×h.
        //   GPT-2 (biases, GeLU): mlp_up_bias + mlp_activation: 2 + 2 → 3 tensors of T×f (train), 2 (prefill);
        //   attention_output_bias + attention_residual + mlp_norm: 2 + 3 + 2 → 4 tensors of T×h.
        const double T = 1024, act = 2;
        for (const StepPhase phase : {StepPhase::Train, StepPhase::Prefill}) {
            const auto find = [](const std::vector<FusionComparison> &chains, std::vector<std::string> names) {
                for (const FusionComparison &chain : chains)
                    if (chain.chain == names)
                        return &chain;
                return static_cast<const FusionComparison *>(nullptr);
            };
            const Scenario llama = presetScenario("llama-3-8b", 1024);
            const std::vector<FusionComparison> llama_chains = fusionComparisons(llama, rooflineOptionsFor(llama, phase));
            const FusionComparison *residual_norm = find(llama_chains, {"attention_residual", "mlp_norm"});
            QVERIFY(residual_norm);
            QCOMPARE(residual_norm->count, 32);
            // + the norm's gain vector (RMSNorm: one of h), read once per call at the weight dtype.
            const double gain = 4096 * 2;
            QVERIFY(relativeError(residual_norm->unfused_bytes, 32 * (5 * T * 4096 * act + gain)) < 1e-12);
            QVERIFY(relativeError(residual_norm->fused_bytes, 32 * (4 * T * 4096 * act + gain)) < 1e-12);
            const FusionComparison *across_layers = find(llama_chains, {"mlp_residual", "attention_norm"});
            QVERIFY(across_layers);
            QCOMPARE(across_layers->count, 31);
            QVERIFY(find(llama_chains, {"mlp_residual", "final_norm"}));

            const Scenario gpt2 = presetScenario("gpt2-small", 1024);
            const double h = 768, f = 3072;
            const std::vector<FusionComparison> gpt2_chains = fusionComparisons(gpt2, rooflineOptionsFor(gpt2, phase));
            const FusionComparison *bias_activation = find(gpt2_chains, {"mlp_up_bias", "mlp_activation"});
            QVERIFY(bias_activation);
            QCOMPARE(bias_activation->count, 12);
            QVERIFY(relativeError(bias_activation->unfused_bytes, 12 * 4 * T * f * act) < 1e-12);
            QVERIFY(relativeError(bias_activation->fused_bytes,
                                  12 * (phase == StepPhase::Train ? 3 : 2) * T * f * act) < 1e-12);
            QVERIFY(relativeError(bias_activation->flops, 12 * (1 + 8) * T * f) < 1e-12);
            const FusionComparison *bias_residual_norm =
                find(gpt2_chains, {"attention_output_bias", "attention_residual", "mlp_norm"});
            QVERIFY(bias_residual_norm);
            const double gain_bias = 2 * h * 2;  // LayerNorm's gain and bias, bf16
            QVERIFY(relativeError(bias_residual_norm->unfused_bytes, 12 * (7 * T * h * act + gain_bias)) < 1e-12);
            QVERIFY(relativeError(bias_residual_norm->fused_bytes, 12 * (4 * T * h * act + gain_bias)) < 1e-12);

            // The fused step moves exactly the saved bytes less, with the same FLOPs.
            for (const Scenario *scenario : {&llama, &gpt2}) {
                RooflineOptions options = rooflineOptionsFor(*scenario, phase);
                const RooflineReport plain = reportOrFail(*scenario, options, rooflineMachine(*scenario));
                options.fused_elementwise = true;
                const RooflineReport fused = reportOrFail(*scenario, options, rooflineMachine(*scenario));
                double saved = 0;
                for (const FusionComparison &chain : fusionComparisons(*scenario, options))
                    saved += chain.unfused_bytes - chain.fused_bytes;
                QVERIFY(saved > 0);
                QVERIFY(relativeError(plain.total_bytes - fused.total_bytes, saved) < 1e-9);
                QVERIFY(relativeError(plain.total_flops, fused.total_flops) < 1e-12);
                QVERIFY(fused.step_seconds < plain.step_seconds);
            }
            RooflineOptions options = rooflineOptionsFor(llama, phase);
            options.fused_elementwise = true;
            const RooflineReport fused_llama = reportOrFail(llama, options, rooflineMachine(llama));
            const RooflineOp *row = findOp(fused_llama, "attention_residual+mlp_norm", OpPass::Forward);
            QVERIFY(row && row->fused && row->count == 32);
        }
    }

    void measuredPoints()
    {
        // A CPU-sized fp32 model with the reference transformer's (non-flash) operator names.
        ModelConfig model = test::gptModel(2, 256, 4, 1000, 128);
        Scenario scenario = test::scenarioFor(model, 1);
        scenario.training.flash_attention = false;
        scenario.training.precision = precisionForRecipe(PrecisionRecipe::FP32);
        RooflineMachine cpu;
        cpu.id = "this-cpu";
        cpu.name = "test CPU";
        cpu.dtype = DType::FP32;
        cpu.peak_flops_per_second = 100e9;
        cpu.memory_bandwidth_bytes_per_second = 20e9;
        const RooflineReport report = reportOrFail(scenario, rooflineOptionsFor(scenario), cpu);
        // mlp_up forward per layer: T·h·f·2 FLOPs; reads X (T×h) and W (h×f), writes T×f, 4 bytes each.
        const double T = 128, h = 256, f = 1024;
        const double up_flops = 2 * 2 * T * h * f, up_bytes = 2 * 4 * (T * h + h * f + T * f);
        const double softmax_backward_bytes = 2 * 3 * 4.0 * (4 * T * T);  // 2 layers: read dP and P, write dS (4 heads, fp32)
        std::vector<reference::OpRecord> records(3);
        records[0] = {"mlp_up", reference::OpPhase::Forward, true, 3 * up_flops, 0.25, 6};
        const RooflineOp *softmax = findOp(report, "softmax", OpPass::Backward);
        QVERIFY(softmax);
        records[1] = {"softmax", reference::OpPhase::Backward, false, 5 * softmax->flops, 0.5, 10};
        records[2] = {"not_an_engine_op", reference::OpPhase::Forward, false, 1e6, 0.1, 1};
        const std::vector<MeasuredRooflinePoint> points = measuredRooflinePoints(records, report);
        QCOMPARE(points.size(), std::size_t(2));
        QCOMPARE(points[0].name, std::string("mlp_up"));
        QVERIFY(points[0].pass == OpPass::Forward);
        QVERIFY(relativeError(points[0].bytes, 3 * up_bytes) < 1e-12);
        QVERIFY(relativeError(points[0].intensity_flop_per_byte, up_flops / up_bytes) < 1e-12);
        QVERIFY(relativeError(points[0].achieved_flops_per_second, 3 * up_flops / 0.25) < 1e-12);
        QVERIFY(points[1].pass == OpPass::Backward);
        QVERIFY(relativeError(points[1].bytes, 5 * softmax_backward_bytes) < 1e-12);
        QVERIFY(relativeError(points[1].seconds, 0.5) < 1e-15);
    }

    void cpuMachine()
    {
        MachineRoofline cpu;
        cpu.cpu_model = "Test CPU";
        cpu.threads_used = 2;
        cpu.peak_flops_per_s_all_cores = 200e9;
        cpu.peak_flops_per_s_one_core = 100e9;
        cpu.bandwidth_bytes_per_s_all_cores = 20e9;
        cpu.bandwidth_bytes_per_s_one_core = 12e9;
        const RooflineMachine all = rooflineMachine(cpu, true);
        QCOMPARE(all.ridgePointFlopPerByte(), 10.0);
        QCOMPARE(all.sram_bytes_per_sm, std::int64_t(0));
        QVERIFY(all.dtype == DType::FP32);
        QVERIFY(relativeError(rooflineMachine(cpu, false).ridgePointFlopPerByte(), 100.0 / 12.0) < 1e-15);
        // Without SRAM information FlashAttention tiles are head_dim × head_dim.
        QCOMPARE(flashTileRows(0, 4, 64), std::int64_t(64));
        // Dao et al. 2022 Alg. 1 with the A100 catalog entry's 164 KiB per SM and d = 64: B_c = ceil(83968 / 256).
        QCOMPARE(flashTileColumns(164 * 1024, 2, 64), std::int64_t(328));
        QCOMPARE(flashTileRows(164 * 1024, 2, 64), std::int64_t(64));
    }

    void badInput()
    {
        const Scenario scenario = defaultScenario();
        RooflineOptions options = rooflineOptionsFor(scenario);
        options.batch = -1;
        Result<RooflineReport> result = rooflineReport(scenario, options, rooflineMachine(scenario));
        QVERIFY(!result.ok());
        QCOMPARE(result.problems().front().field, std::string("roofline.batch"));

        options.batch = std::int64_t(1) << 50;
        result = rooflineReport(scenario, options, rooflineMachine(scenario));
        QVERIFY(!result.ok());
        QCOMPARE(result.problems().front().rule, std::string("max"));

        Scenario broken = scenario;
        broken.model.n_layers = 0;
        result = rooflineReport(broken, rooflineOptionsFor(broken), rooflineMachine(scenario));
        QVERIFY(!result.ok());
        QVERIFY(fusionComparisons(broken, rooflineOptionsFor(broken)).empty());
        QCOMPARE(decodeCrossoverBatch(broken, rooflineMachine(scenario)), std::int64_t(0));

        // The TPU v5p has no fp32 peak in the catalog: no roofline for it.
        const RooflineMachine tpu = rooflineMachine(*builtinHardwareCatalog().find("tpu-v5p"), DType::FP32);
        result = rooflineReport(scenario, rooflineOptionsFor(scenario), tpu);
        QVERIFY(!result.ok());
        QCOMPARE(result.problems().front().field, std::string("roofline.machine.peak_flops_per_second"));
    }

    void phaseNames()
    {
        for (const StepPhase phase : {StepPhase::Train, StepPhase::Prefill, StepPhase::Decode})
            QVERIFY(stepPhaseFromString(toString(phase)) == phase);
        QVERIFY(stepPhaseFromString("DECODE") == StepPhase::Decode);
        QVERIFY(!stepPhaseFromString("inference"));
        QVERIFY(toString(Bound::Memory) == std::string_view("memory"));
        QVERIFY(opPassFromString("recompute") == OpPass::Recompute);
    }
};

QTEST_GUILESS_MAIN(TestRoofline)
#include "test_roofline.moc"
