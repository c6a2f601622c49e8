// SPDX-License-Identifier: GPL-3.0-or-later
// Every invalid setting is reported, naming the field and the rule, and never estimated.

#include "cost/estimate.h"
#include "test_models.h"

#include <QTest>

#include <limits>

#include <functional>

using namespace lse;

namespace {

// 32 layers, d 4096, 32 heads (8 KV), d_ff 11008 on 64 GPUs: dp 8 × tp 4 × pp 2.
Scenario baseScenario()
{
    Scenario scenario = test::scenarioFor(test::gptModel(32, 4096, 32, 32000, 4096), 64);
    scenario.model.n_kv_heads = 8;
    scenario.model.d_ff = 11008;
    scenario.training.parallel.dp = 8;
    scenario.training.parallel.tp = 4;
    scenario.training.parallel.pp = 2;
    scenario.training.global_batch = 256;
    scenario.training.micro_batch = 2;
    return scenario;
}

struct BadCase {
    const char *name;
    std::function<void(Scenario &)> mutate;
    const char *field;
    const char *rule;
    const char *message;  // a part of the expected message
};

const std::vector<BadCase> &badCases()
{
    static const std::vector<BadCase> cases = {
        {"zero layers", [](Scenario &s) { s.model.n_layers = 0; }, "model.n_layers", "positive",
         "model.n_layers is 0; it must be at least 1"},
        {"negative d_model", [](Scenario &s) { s.model.d_model = -5; }, "model.d_model", "positive",
         "model.d_model is -5; it must be at least 1"},
        {"heads not divisible by tp", [](Scenario &s) {
             s.model.n_heads = 30; s.model.n_kv_heads = 30; s.training.parallel.tp = 4; },
         "model.n_heads", "divisible", "model.n_heads 30 is not divisible by training.tp 4"},
        {"heads 32 with tp 3", [](Scenario &s) {
             s.training.parallel.tp = 3; s.cluster.gpus = 48; s.cluster.gpus_per_node = 8; },
         "model.n_heads", "divisible", "model.n_heads 32 is not divisible by training.tp 3"},
        {"kv heads do not divide heads", [](Scenario &s) { s.model.n_kv_heads = 5; }, "model.n_heads", "divisible",
         "model.n_heads 32 is not divisible by model.n_kv_heads 5"},
        {"more kv heads than heads", [](Scenario &s) { s.model.n_kv_heads = 64; }, "model.n_kv_heads", "maximum",
         "model.n_kv_heads 64 exceeds model.n_heads 32"},
        {"parallel product differs from GPU count", [](Scenario &s) { s.training.parallel.dp = 4; }, "training.dp",
         "gpu_count", "dp·tp·pp·cp = 4·4·2·1 = 32 ≠ cluster.gpus 64"},
        {"micro-batch does not divide global batch", [](Scenario &s) { s.training.global_batch = 100; },
         "training.global_batch", "divisible", "training.global_batch 100 is not divisible by training.micro_batch·dp 16"},
        // pp need not divide the layers any more (uneven stages); every chunk still needs one.
        {"fewer layers than pipeline chunks", [](Scenario &s) { s.model.n_layers = 3; s.training.parallel.virtual_stages = 2; },
         "model.n_layers", "layers_per_chunk",
         "model.n_layers 3 is fewer than training.pp·virtual_stages 4; every pipeline chunk needs at least one layer"},
        {"interleaving without pipeline", [](Scenario &s) {
             s.training.parallel.pp = 1; s.training.parallel.dp = 16; s.training.parallel.virtual_stages = 2; },
         "training.virtual_stages", "requires_pp", "needs pipeline parallelism"},
        {"zero stage 4", [](Scenario &s) { s.training.parallel.zero_stage = 4; }, "training.zero_stage", "maximum",
         "training.zero_stage is 4; it must be at most 3"},
        {"mfu above one", [](Scenario &s) { s.training.mfu = 1.5; }, "training.mfu", "range",
         "training.mfu is 1.5; it must be in (0, 1]"},
        {"mfu not a number", [](Scenario &s) { s.training.mfu = std::nan(""); }, "training.mfu", "range",
         "training.mfu is nan"},
        {"zero tokens", [](Scenario &s) { s.training.tokens = 0; }, "training.tokens", "positive",
         "training.tokens is 0; it must be at least 1"},
        {"sequence longer than learned positions", [](Scenario &s) { s.training.seq_len = 8192; },
         "training.seq_len", "max_seq_len", "exceeds model.max_seq_len 4096"},
        {"context parallel does not divide sequence", [](Scenario &s) {
             s.training.seq_len = 4095; s.training.parallel.cp = 2; s.training.parallel.dp = 4; },
         "training.seq_len", "divisible", "training.seq_len 4095 is not divisible by training.cp 2"},
        {"expert parallel on a dense model", [](Scenario &s) { s.training.parallel.ep = 2; }, "training.ep",
         "requires_moe", "needs a mixture-of-experts model"},
        {"experts not divisible by ep", [](Scenario &s) {
             s.model.moe = {6, 2, 0, 14336, 0, 0, 1}; s.training.parallel.ep = 4; },
         "model.moe.n_experts", "divisible", "model.moe.n_experts 6 is not divisible by training.ep 4"},
        {"top-k above expert count", [](Scenario &s) { s.model.moe = {8, 9, 0, 14336, 0, 0, 1}; },
         "model.moe.top_k", "range", "model.moe.top_k is 9; it must be between 1 and model.moe.n_experts (8)"},
        {"gpus not a multiple of the node size", [](Scenario &s) {
             s.cluster.gpus = 12; s.training.parallel.dp = 1; s.training.parallel.tp = 4; s.training.parallel.pp = 3;
             s.model.n_layers = 36; s.training.global_batch = 2; }, "cluster.gpus", "divisible",
         "cluster.gpus 12 is not divisible by cluster.gpus_per_node 8"},
        {"fp8 on a GPU without fp8", [](Scenario &s) {
             s.cluster.accelerator = *builtinHardwareCatalog().find("a100-sxm-80gb");
             s.training.precision = precisionForRecipe(PrecisionRecipe::FP8Mixed); },
         "training.precision.matmul_dtype", "unsupported", "fp8 has no peak on"},
        {"negative peak override", [](Scenario &s) { s.cluster.peak_flops_per_second_override = -1.0; },
         "cluster.peak_flops_per_second_override", "positive", "must be a finite number greater than 0"},
        {"zero nvlink", [](Scenario &s) { s.cluster.intra_node_gbps_per_gpu = 0.0; },
         "cluster.intra_node_gbps_per_gpu", "positive", "must be a finite number greater than 0"},
        {"infinite network", [](Scenario &s) { s.cluster.inter_node_gbps_per_gpu = std::numeric_limits<double>::infinity(); },
         "cluster.inter_node_gbps_per_gpu", "positive", "must be a finite number greater than 0"},
        {"nan network", [](Scenario &s) { s.cluster.inter_node_gbps_per_gpu = std::numeric_limits<double>::quiet_NaN(); },
         "cluster.inter_node_gbps_per_gpu", "positive", "must be a finite number greater than 0"},
        {"link efficiency zero", [](Scenario &s) { s.cluster.link_efficiency = 0; }, "cluster.link_efficiency",
         "range", "cluster.link_efficiency is 0; it must be in (0, 1]"},
        {"negative price", [](Scenario &s) { s.cluster.price_per_gpu_hour = -2; }, "cluster.price_per_gpu_hour",
         "non_negative", "cluster.price_per_gpu_hour is -2; it must be at least 0"},
        {"d_ff not divisible by tp", [](Scenario &s) { s.model.d_ff = 11010; }, "model.d_ff", "divisible",
         "model.d_ff 11010 is not divisible by training.tp 4"},
        {"zero vocabulary", [](Scenario &s) { s.model.vocab_size = 0; }, "model.vocab_size", "positive",
         "model.vocab_size is 0; it must be at least 1"},
        {"zero memory", [](Scenario &s) { s.cluster.accelerator.memory_bytes = 0; }, "cluster.accelerator.memory_bytes",
         "positive", "cluster.accelerator.memory_bytes is 0"},
        {"accelerator without a name or a peak", [](Scenario &s) {
             s.cluster.accelerator.id.clear(); s.cluster.accelerator.name.clear();
             s.cluster.accelerator.dense_peak.bf16_flops_per_second = 0; },
         "training.precision.matmul_dtype", "unsupported",
         "bf16 has no peak on the unnamed accelerator (cluster.accelerator.dense_peak.bf16 is 0)"},
        {"negative latency", [](Scenario &s) { s.cluster.inter_node_latency_seconds = -1; },
         "cluster.inter_node_latency_seconds", "non_negative", "cluster.inter_node_latency_seconds is -1;"},
        {"bf16 weights with the fp32 recipe", [](Scenario &s) {
             s.training.precision.recipe = PrecisionRecipe::FP32; s.training.precision.weight_dtype = DType::BF16; },
         "training.precision.weight_dtype", "recipe", "training.precision.weight_dtype is bf16;"},
        {"absurd sequence length", [](Scenario &s) {
             s.training.seq_len = std::int64_t(1) << 40; s.model.positional_encoding = PositionalEncoding::RoPE; },
         "training.seq_len", "maximum", "it must be at most 16777216"},
    };
    return cases;
}

}  // namespace

class TestValidation : public QObject {
    Q_OBJECT
private slots:
    void baseScenarioIsValid()
    {
        const Problems problems = validate(baseScenario());
        QVERIFY2(problems.empty(), formatProblems(problems).c_str());
    }

    void badConfiguration_data()
    {
        QTest::addColumn<int>("index");
        for (std::size_t i = 0; i < badCases().size(); ++i)
            QTest::addRow("%s", badCases()[i].name) << int(i);
    }
    void badConfiguration()
    {
        QFETCH(int, index);
        const BadCase &bad = badCases()[std::size_t(index)];
        Scenario scenario = baseScenario();
        bad.mutate(scenario);
        const Problems problems = validate(scenario);
        bool found = false;
        for (const Problem &problem : problems)
            found = found
                || (problem.field == bad.field && problem.rule == bad.rule
                    && problem.message.find(bad.message) != std::string::npos);
        QVERIFY2(found, ("expected " + std::string(bad.field) + " [" + bad.rule + "] \"" + bad.message + "\"; got\n"
                         + formatProblems(problems))
                            .c_str());
        // An invalid scenario never produces numbers.
        QVERIFY(!estimate(scenario).ok());
    }

    void divisibilityNamesBothFields()
    {
        Scenario scenario = baseScenario();
        scenario.training.global_batch = 100;
        const Problems problems = validate(scenario);
        QCOMPARE(problems.size(), std::size_t(1));
        QCOMPARE(problems[0].related, (std::vector<std::string>{"training.micro_batch", "training.dp"}));
    }

    void allProblemsAtOnce()
    {
        Scenario scenario = baseScenario();
        scenario.model.n_layers = 0;
        scenario.training.mfu = 2;
        scenario.cluster.price_per_gpu_hour = -1;
        scenario.training.parallel.zero_stage = 7;
        const Problems problems = validate(scenario);
        QVERIFY(problems.size() >= 4);
    }
};

QTEST_GUILESS_MAIN(TestValidation)
#include "test_validation.moc"
