// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/scenario_json.h"

#include "hardware/hardware_catalog.h"
#include "scenario/hf_import.h"
#include "scenario/presets.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <string>

using namespace lse;

namespace {

// QTest would pick up lse::toString (string_view) by ADL and fail to compile; compare the stable
// names instead, which also makes a failure readable.
template <typename Enum>
QString nameOf(Enum value)
{
    const std::string_view name = toString(value);
    return QString::fromUtf8(name.data(), qsizetype(name.size()));
}

constexpr std::int64_t kTwoTo53 = std::int64_t(1) << 53;

// A scenario in which every field differs from its default, so a field the reader skips (and
// leaves at its default) shows up as a difference after a round trip.
Scenario everythingChanged()
{
    Scenario s;
    ModelConfig &m = s.model;
    m.name = "every field changed";
    m.n_layers = 7;
    m.d_model = 1000;
    m.n_heads = 10;
    m.n_kv_heads = 5;
    m.head_dim = 100;
    m.d_ff = 3000;
    m.vocab_size = 12345;
    m.max_seq_len = 999;
    m.tied_embeddings = true;
    m.biases = BiasConfig{true, true, true, true};
    m.norm = NormType::LayerNorm;
    m.norm_placement = NormPlacement::Post;
    m.activation = Activation::ReLU;
    m.positional_encoding = PositionalEncoding::ALiBi;
    m.parallel_block = true;
    m.moe = MoeConfig{16, 4, 2, 512, 1024, 1, 2};

    ClusterConfig &c = s.cluster;
    c.accelerator = customAccelerator();
    c.accelerator.name = "changed";
    c.accelerator.dense_peak.fp8_flops_per_second = 1.25e15;
    c.accelerator.l2_bytes = 12345678;
    c.gpus = 96;
    c.gpus_per_node = 4;
    c.peak_flops_per_second_override = 1.979e15;
    c.intra_node_latency_seconds = 5e-6;
    c.inter_node_latency_seconds = 2.5e-5;
    c.link_efficiency = 0.7;
    c.intra_node_gbps_per_gpu = 2400;  // NVLink3, 300 GB/s per direction
    c.inter_node_gbps_per_gpu = 200;   // HDR InfiniBand
    c.price_per_gpu_hour = 3.25;

    TrainingConfig &t = s.training;
    t.tokens = kTwoTo53;
    t.seq_len = 8192;
    t.global_batch = 2048;
    t.micro_batch = 2;
    t.precision.recipe = PrecisionRecipe::FP8Mixed;
    t.precision.weight_dtype = DType::FP16;
    t.precision.gradient_dtype = DType::FP32;
    t.precision.matmul_dtype = DType::FP8;
    t.precision.activation_dtype = DType::TF32;
    t.precision.master_weights = false;
    t.precision.fp32_gradient_accumulation = true;
    t.optimizer = Optimizer::Adafactor;
    t.recomputation = Recomputation::Full;
    t.flash_attention = false;
    t.dropout = true;
    t.attention_flops = AttentionFlops::Causal;
    t.flops_model = FlopsModel::SixND;
    t.parallel = ParallelConfig{3, 2, 5, 2, 3, 2, 3, true};
    t.mfu = 0.45;
    t.framework_reserve_bytes = 3'000'000'000;
    t.kv_cache_dtype = DType::FP8;
    return s;
}

// Field by field, so a failure names the field (the value types have no operator==).
void compareScenarios(const Scenario &a, const Scenario &b)
{
    QCOMPARE(a.model.name, b.model.name);
    QCOMPARE(a.model.n_layers, b.model.n_layers);
    QCOMPARE(a.model.d_model, b.model.d_model);
    QCOMPARE(a.model.n_heads, b.model.n_heads);
    QCOMPARE(a.model.n_kv_heads, b.model.n_kv_heads);
    QCOMPARE(a.model.head_dim, b.model.head_dim);
    QCOMPARE(a.model.d_ff, b.model.d_ff);
    QCOMPARE(a.model.vocab_size, b.model.vocab_size);
    QCOMPARE(a.model.max_seq_len, b.model.max_seq_len);
    QCOMPARE(a.model.tied_embeddings, b.model.tied_embeddings);
    QCOMPARE(a.model.biases.qkv, b.model.biases.qkv);
    QCOMPARE(a.model.biases.attn_output, b.model.biases.attn_output);
    QCOMPARE(a.model.biases.mlp, b.model.biases.mlp);
    QCOMPARE(a.model.biases.lm_head, b.model.biases.lm_head);
    QCOMPARE(nameOf(a.model.norm), nameOf(b.model.norm));
    QCOMPARE(nameOf(a.model.norm_placement), nameOf(b.model.norm_placement));
    QCOMPARE(nameOf(a.model.activation), nameOf(b.model.activation));
    QCOMPARE(nameOf(a.model.positional_encoding), nameOf(b.model.positional_encoding));
    QCOMPARE(a.model.parallel_block, b.model.parallel_block);
    QCOMPARE(a.model.moe.n_experts, b.model.moe.n_experts);
    QCOMPARE(a.model.moe.top_k, b.model.moe.top_k);
    QCOMPARE(a.model.moe.n_shared_experts, b.model.moe.n_shared_experts);
    QCOMPARE(a.model.moe.expert_d_ff, b.model.moe.expert_d_ff);
    QCOMPARE(a.model.moe.shared_expert_d_ff, b.model.moe.shared_expert_d_ff);
    QCOMPARE(a.model.moe.first_moe_layer, b.model.moe.first_moe_layer);
    QCOMPARE(a.model.moe.moe_layer_interval, b.model.moe.moe_layer_interval);

    const Accelerator &x = a.cluster.accelerator;
    const Accelerator &y = b.cluster.accelerator;
    QCOMPARE(x.id, y.id);
    QCOMPARE(x.name, y.name);
    QCOMPARE(x.vendor, y.vendor);
    QCOMPARE(x.dense_peak.fp32_flops_per_second, y.dense_peak.fp32_flops_per_second);
    QCOMPARE(x.dense_peak.tf32_flops_per_second, y.dense_peak.tf32_flops_per_second);
    QCOMPARE(x.dense_peak.bf16_flops_per_second, y.dense_peak.bf16_flops_per_second);
    QCOMPARE(x.dense_peak.fp16_flops_per_second, y.dense_peak.fp16_flops_per_second);
    QCOMPARE(x.dense_peak.fp8_flops_per_second, y.dense_peak.fp8_flops_per_second);
    QCOMPARE(x.memory_bytes, y.memory_bytes);
    QCOMPARE(x.memory_bandwidth_bytes_per_second, y.memory_bandwidth_bytes_per_second);
    QCOMPARE(x.intra_node_bandwidth_bytes_per_second, y.intra_node_bandwidth_bytes_per_second);
    QCOMPARE(x.inter_node_bandwidth_bytes_per_second, y.inter_node_bandwidth_bytes_per_second);
    QCOMPARE(x.sm_count, y.sm_count);
    QCOMPARE(x.sram_bytes, y.sram_bytes);
    QCOMPARE(x.l2_bytes, y.l2_bytes);
    QCOMPARE(x.source, y.source);
    QCOMPARE(x.note, y.note);
    QCOMPARE(a.cluster.gpus, b.cluster.gpus);
    QCOMPARE(a.cluster.gpus_per_node, b.cluster.gpus_per_node);
    QCOMPARE(a.cluster.peak_flops_per_second_override.has_value(), b.cluster.peak_flops_per_second_override.has_value());
    if (a.cluster.peak_flops_per_second_override)
        QCOMPARE(*a.cluster.peak_flops_per_second_override, *b.cluster.peak_flops_per_second_override);
    QCOMPARE(a.cluster.intra_node_latency_seconds, b.cluster.intra_node_latency_seconds);
    QCOMPARE(a.cluster.inter_node_latency_seconds, b.cluster.inter_node_latency_seconds);
    QCOMPARE(a.cluster.link_efficiency, b.cluster.link_efficiency);
    QCOMPARE(a.cluster.intra_node_gbps_per_gpu, b.cluster.intra_node_gbps_per_gpu);
    QCOMPARE(a.cluster.inter_node_gbps_per_gpu, b.cluster.inter_node_gbps_per_gpu);
    QCOMPARE(a.cluster.price_per_gpu_hour, b.cluster.price_per_gpu_hour);

    const TrainingConfig &t = a.training;
    const TrainingConfig &u = b.training;
    QCOMPARE(t.tokens, u.tokens);
    QCOMPARE(t.seq_len, u.seq_len);
    QCOMPARE(t.global_batch, u.global_batch);
    QCOMPARE(t.micro_batch, u.micro_batch);
    QCOMPARE(nameOf(t.precision.recipe), nameOf(u.precision.recipe));
    QCOMPARE(nameOf(t.precision.weight_dtype), nameOf(u.precision.weight_dtype));
    QCOMPARE(nameOf(t.precision.gradient_dtype), nameOf(u.precision.gradient_dtype));
    QCOMPARE(nameOf(t.precision.matmul_dtype), nameOf(u.precision.matmul_dtype));
    QCOMPARE(nameOf(t.precision.activation_dtype), nameOf(u.precision.activation_dtype));
    QCOMPARE(t.precision.master_weights, u.precision.master_weights);
    QCOMPARE(t.precision.fp32_gradient_accumulation, u.precision.fp32_gradient_accumulation);
    QCOMPARE(nameOf(t.optimizer), nameOf(u.optimizer));
    QCOMPARE(nameOf(t.recomputation), nameOf(u.recomputation));
    QCOMPARE(t.flash_attention, u.flash_attention);
    QCOMPARE(t.dropout, u.dropout);
    QCOMPARE(nameOf(t.attention_flops), nameOf(u.attention_flops));
    QCOMPARE(nameOf(t.flops_model), nameOf(u.flops_model));
    QCOMPARE(t.parallel.dp, u.parallel.dp);
    QCOMPARE(t.parallel.tp, u.parallel.tp);
    QCOMPARE(t.parallel.pp, u.parallel.pp);
    QCOMPARE(t.parallel.cp, u.parallel.cp);
    QCOMPARE(t.parallel.ep, u.parallel.ep);
    QCOMPARE(t.parallel.virtual_stages, u.parallel.virtual_stages);
    QCOMPARE(t.parallel.zero_stage, u.parallel.zero_stage);
    QCOMPARE(t.parallel.sequence_parallel, u.parallel.sequence_parallel);
    QCOMPARE(t.parallel.dp_overlap, u.parallel.dp_overlap);
    QCOMPARE(t.mfu, u.mfu);
    QCOMPARE(t.framework_reserve_bytes, u.framework_reserve_bytes);
    QCOMPARE(nameOf(t.kv_cache_dtype), nameOf(u.kv_cache_dtype));
}

bool hasProblem(const Problems &problems, const std::string &field, const std::string &rule)
{
    return std::any_of(problems.begin(), problems.end(),
                       [&](const Problem &p) { return p.field == field && p.rule == rule; });
}

QByteArray scenarioText(const char *body)
{
    return QByteArray(R"({"format": "llm-explorer-scenario", "version": 1, )") + body + "}";
}

}  // namespace

class TestScenarioJson : public QObject {
    Q_OBJECT

private slots:
    void everyFieldRoundTrips()
    {
        const Scenario original = everythingChanged();
        const QByteArray json = scenarioToJson(original);
        const Result<Scenario> back = scenarioFromJson(json);
        QVERIFY2(back.ok(), formatProblems(back.problems()).c_str());
        compareScenarios(*back, original);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(scenarioToJson(*back), json);
    }

    void presetRoundTripsInsideAScenario_data()
    {
        QTest::addColumn<QString>("id");
        for (const ModelPreset &preset : builtinModelPresets())
            QTest::addRow("%s", preset.id.c_str()) << QString::fromStdString(preset.id);
    }
    void presetRoundTripsInsideAScenario()
    {
        QFETCH(QString, id);
        const ModelPreset *preset = findModelPreset(id.toStdString());
        QVERIFY(preset != nullptr);
        Scenario scenario = defaultScenario();
        scenario.model = preset->model;
        const Result<Scenario> back = scenarioFromJson(scenarioToJson(scenario));
        QVERIFY2(back.ok(), formatProblems(back.problems()).c_str());
        compareScenarios(*back, scenario);
    }

    void defaultScenarioRoundTrips()
    {
        const Scenario original = defaultScenario();
        const Result<Scenario> back = scenarioFromJson(scenarioToJson(original));
        QVERIFY2(back.ok(), formatProblems(back.problems()).c_str());
        compareScenarios(*back, original);
    }

    // The CS336 worked example as the brief fixes it.
    void defaultScenarioIsTheCourseExample()
    {
        const Scenario s = defaultScenario();
        const ModelPreset *llama = findModelPreset("llama-2-70b");
        QVERIFY(llama != nullptr);
        QCOMPARE(s.model.name, llama->model.name);
        QCOMPARE(s.model.n_layers, 80);
        QCOMPARE(s.cluster.accelerator.id, std::string("h100-sxm"));
        QCOMPARE(s.cluster.gpus, 1024);
        QCOMPARE(s.cluster.gpus_per_node, 8);
        QVERIFY(!s.cluster.peak_flops_per_second_override.has_value());
        QCOMPARE(s.training.tokens, std::int64_t(15'000'000'000'000));
        QCOMPARE(s.training.seq_len, std::int64_t(4096));
        QCOMPARE(s.training.global_batch, std::int64_t(1024));
        QCOMPARE(s.training.micro_batch, std::int64_t(1));
        QCOMPARE(nameOf(s.training.precision.recipe), nameOf(PrecisionRecipe::BF16Mixed));
        QCOMPARE(nameOf(s.training.optimizer), nameOf(Optimizer::AdamW));
        QCOMPARE(nameOf(s.training.recomputation), nameOf(Recomputation::Selective));
        QVERIFY(s.training.flash_attention);
        QCOMPARE(s.training.parallel.tp, 8);
        QCOMPARE(s.training.parallel.pp, 4);
        QCOMPARE(s.training.parallel.dp, 32);
        QCOMPARE(s.training.parallel.zero_stage, 1);
        QVERIFY(s.training.parallel.sequence_parallel);
        QCOMPARE(s.training.mfu, 0.3);
        QCOMPARE(s.training.parallel.tp * s.training.parallel.pp * s.training.parallel.dp, s.cluster.gpus);
    }

    void largeCountsAreExact_data()
    {
        QTest::addColumn<QByteArray>("literal");
        QTest::addColumn<qint64>("expected");
        QTest::addRow("15e12 written with an exponent") << QByteArray("15e12") << qint64(15'000'000'000'000);
        QTest::addRow("15e12 written out") << QByteArray("15000000000000") << qint64(15'000'000'000'000);
        QTest::addRow("1.5e13") << QByteArray("1.5e13") << qint64(15'000'000'000'000);
        QTest::addRow("2^53") << QByteArray("9007199254740992") << qint64(kTwoTo53);
        QTest::addRow("2^53 - 1") << QByteArray("9007199254740991") << qint64(kTwoTo53 - 1);
    }
    void largeCountsAreExact()
    {
        QFETCH(QByteArray, literal);
        QFETCH(qint64, expected);
        const QByteArray body = R"("training": {"tokens": )" + literal + "}";
        const Result<Scenario> scenario = scenarioFromJson(scenarioText(body.constData()));
        QVERIFY2(scenario.ok(), formatProblems(scenario.problems()).c_str());
        QCOMPARE(qint64(scenario->training.tokens), expected);
        const Result<Scenario> again = scenarioFromJson(scenarioToJson(*scenario));
        QVERIFY(again.ok());
        QCOMPARE(qint64(again->training.tokens), expected);
    }

    void missingFieldsTakeDefaults()
    {
        const Result<Scenario> scenario = scenarioFromJson(scenarioText(R"("model": {"n_layers": 2})"));
        QVERIFY2(scenario.ok(), formatProblems(scenario.problems()).c_str());
        QCOMPARE(scenario->model.n_layers, 2);
        // The rest is the course example's (defaultScenario()), not the value types' zeros.
        const Scenario course = defaultScenario();
        QCOMPARE(nameOf(scenario->model.activation), nameOf(course.model.activation));
        QCOMPARE(scenario->model.d_model, course.model.d_model);
        QCOMPARE(scenario->training.mfu, course.training.mfu);
        QCOMPARE(scenario->training.tokens, course.training.tokens);
        QCOMPARE(scenario->cluster.gpus, course.cluster.gpus);
        QCOMPARE(QString::fromStdString(scenario->cluster.accelerator.id), QString::fromStdString(course.cluster.accelerator.id));
        QCOMPARE(scenario->cluster.gpus_per_node, course.cluster.gpus_per_node);
        // A file without a framework reserve gets the documented default (issue 28 item 19: it
        // was 0 GB, so a layout could fill a GPU to its last byte); a file's own 0 stays 0.
        QCOMPARE(scenario->training.framework_reserve_bytes, kDefaultFrameworkReserveBytes);
        const Result<Scenario> none =
            scenarioFromJson(scenarioText(R"("training": {"framework_reserve_bytes": 0})"));
        QVERIFY(none.ok());
        QCOMPARE(none->training.framework_reserve_bytes, qint64(0));
    }

    void unknownFieldsAreIgnored()
    {
        const Result<Scenario> scenario =
            scenarioFromJson(scenarioText(R"("comment": "hi", "model": {"n_layers": 3, "colour": "blue"})"));
        QVERIFY2(scenario.ok(), formatProblems(scenario.problems()).c_str());
        QCOMPARE(scenario->model.n_layers, 3);
    }

    void enumNamesIgnoreCase()
    {
        const Result<Scenario> scenario =
            scenarioFromJson(scenarioText(R"("model": {"norm": "RMSNorm", "activation": "SwiGLU"})"));
        QVERIFY2(scenario.ok(), formatProblems(scenario.problems()).c_str());
        QCOMPARE(nameOf(scenario->model.norm), nameOf(NormType::RMSNorm));
    }

    void recipeSetsPrecisionDefaults()
    {
        const Result<Scenario> scenario =
            scenarioFromJson(scenarioText(R"("training": {"precision": {"recipe": "fp32"}})"));
        QVERIFY2(scenario.ok(), formatProblems(scenario.problems()).c_str());
        QCOMPARE(nameOf(scenario->training.precision.weight_dtype), nameOf(DType::FP32));
        QCOMPARE(nameOf(scenario->training.precision.matmul_dtype), nameOf(DType::FP32));
        QVERIFY(!scenario->training.precision.master_weights);
    }

    void peakOverrideNullOrNumber_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<bool>("set");
        QTest::addColumn<double>("expected");
        QTest::addRow("null") << QByteArray("null") << false << 0.0;
        QTest::addRow("course's 2 PFLOP/s") << QByteArray("2e15") << true << 2e15;
    }
    void peakOverrideNullOrNumber()
    {
        QFETCH(QByteArray, value);
        QFETCH(bool, set);
        QFETCH(double, expected);
        const QByteArray body = R"("cluster": {"peak_flops_per_second_override": )" + value + "}";
        const Result<Scenario> scenario = scenarioFromJson(scenarioText(body.constData()));
        QVERIFY2(scenario.ok(), formatProblems(scenario.problems()).c_str());
        QCOMPARE(scenario->cluster.peak_flops_per_second_override.has_value(), set);
        if (set)
            QCOMPARE(*scenario->cluster.peak_flops_per_second_override, expected);
    }

    // Files written before the link fields existed read as "catalog bandwidth, overlapped DP".
    void olderFilesWithoutLinkFieldsReadAsBefore()
    {
        const Result<Scenario> s = scenarioFromJson(scenarioText(R"("cluster": {"gpus": 16})"));
        QVERIFY2(s.ok(), formatProblems(s.problems()).c_str());
        QVERIFY(!s->cluster.intra_node_gbps_per_gpu.has_value());
        QVERIFY(!s->cluster.inter_node_gbps_per_gpu.has_value());
        QVERIFY(s->training.parallel.dp_overlap);
    }

    void linkFieldsNullOrNumber()
    {
        const Result<Scenario> s = scenarioFromJson(scenarioText(
            R"("cluster": {"intra_node_gbps_per_gpu": null, "inter_node_gbps_per_gpu": 400},)"
            R"( "training": {"parallel": {"dp_overlap": false}})"));
        QVERIFY2(s.ok(), formatProblems(s.problems()).c_str());
        QVERIFY(!s->cluster.intra_node_gbps_per_gpu.has_value());
        QCOMPARE(s->cluster.inter_node_gbps_per_gpu.value_or(0), 400.0);
        QVERIFY(!s->training.parallel.dp_overlap);
    }

    void badFiles_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("rule");

        QTest::addRow("not JSON") << QByteArray(R"({"format": "llm-explorer-scenario",)") << "file" << "json";
        QTest::addRow("empty file") << QByteArray() << "file" << "json";
        QTest::addRow("top level is an array") << QByteArray("[1, 2]") << "file" << "format";
        QTest::addRow("no format") << QByteArray(R"({"version": 1})") << "file" << "format";
        QTest::addRow("hardware catalog instead") << QByteArray(R"({"format": "llm-explorer-hardware", "version": 1})")
                                                  << "file" << "format";
        QTest::addRow("newer version") << QByteArray(R"({"format": "llm-explorer-scenario", "version": 2})") << "file"
                                       << "version";
        QTest::addRow("model is an array") << scenarioText(R"("model": [])") << "model" << "type";
        QTest::addRow("n_layers as text") << scenarioText(R"("model": {"n_layers": "abc"})") << "model.n_layers"
                                          << "type";
        QTest::addRow("fractional d_model") << scenarioText(R"("model": {"d_model": 1.5})") << "model.d_model"
                                            << "integer";
        QTest::addRow("negative heads") << scenarioText(R"("model": {"n_heads": -4})") << "model.n_heads" << "range";
        QTest::addRow("layers beyond int") << scenarioText(R"("model": {"n_layers": 3e9})") << "model.n_layers"
                                           << "range";
        QTest::addRow("unknown activation") << scenarioText(R"("model": {"activation": "swish"})") << "model.activation"
                                            << "enum";
        QTest::addRow("activation as number") << scenarioText(R"("model": {"activation": 3})") << "model.activation"
                                              << "type";
        QTest::addRow("bias as text") << scenarioText(R"("model": {"biases": {"qkv": "yes"}})") << "model.biases.qkv"
                                      << "type";
        QTest::addRow("fractional top_k") << scenarioText(R"("model": {"moe": {"top_k": 2.5}})") << "model.moe.top_k"
                                          << "integer";
        QTest::addRow("tokens above 2^53") << scenarioText(R"("training": {"tokens": 1e20})") << "training.tokens"
                                           << "range";
        QTest::addRow("tokens 2^53 + 1") << scenarioText(R"("training": {"tokens": 9007199254740993})")
                                         << "training.tokens" << "range";
        QTest::addRow("unknown optimizer") << scenarioText(R"("training": {"optimizer": "lion"})")
                                           << "training.optimizer" << "enum";
        QTest::addRow("tp as bool") << scenarioText(R"("training": {"parallel": {"tp": true}})")
                                    << "training.parallel.tp" << "type";
        QTest::addRow("unknown matmul dtype") << scenarioText(R"("training": {"precision": {"matmul_dtype": "int4"}})")
                                              << "training.precision.matmul_dtype" << "enum";
        QTest::addRow("zero network") << scenarioText(R"("cluster": {"inter_node_gbps_per_gpu": 0})")
                                      << "cluster.inter_node_gbps_per_gpu" << "positive";
        QTest::addRow("negative nvlink") << scenarioText(R"("cluster": {"intra_node_gbps_per_gpu": -1})")
                                         << "cluster.intra_node_gbps_per_gpu" << "range";
        QTest::addRow("nvlink as text") << scenarioText(R"("cluster": {"intra_node_gbps_per_gpu": "fast"})")
                                        << "cluster.intra_node_gbps_per_gpu" << "type";
        QTest::addRow("dp overlap as text") << scenarioText(R"("training": {"parallel": {"dp_overlap": "yes"}})")
                                            << "training.parallel.dp_overlap" << "type";
        QTest::addRow("negative mfu") << scenarioText(R"("training": {"mfu": -0.3})") << "training.mfu" << "range";
        QTest::addRow("memory as text") << scenarioText(R"("cluster": {"accelerator": {"memory_bytes": "80GB"}})")
                                        << "cluster.accelerator.memory_bytes" << "type";
        QTest::addRow("peak as text") << scenarioText(R"("cluster": {"accelerator": {"dense_peak": {"bf16": "fast"}}})")
                                      << "cluster.accelerator.dense_peak.bf16" << "type";
        QTest::addRow("override as text") << scenarioText(R"("cluster": {"peak_flops_per_second_override": "2P"})")
                                          << "cluster.peak_flops_per_second_override" << "type";
    }
    void badFiles()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, field);
        QFETCH(QString, rule);
        const Result<Scenario> scenario = scenarioFromJson(json);
        QVERIFY(!scenario.ok());
        QVERIFY2(hasProblem(scenario.problems(), field.toStdString(), rule.toStdString()),
                 formatProblems(scenario.problems()).c_str());
        for (const Problem &problem : scenario.problems())
            QVERIFY2(problem.message.rfind(problem.field + ": ", 0) == 0, problem.message.c_str());
    }

    void messageQuotesTheValue()
    {
        const Result<Scenario> scenario = scenarioFromJson(scenarioText(R"("model": {"n_layers": "abc"})"));
        QCOMPARE(scenario.problems().size(), std::size_t(1));
        QCOMPARE(scenario.problems().front().message, std::string(R"(model.n_layers: expected an integer, got "abc")"));

        const Result<Scenario> swish = scenarioFromJson(scenarioText(R"("model": {"activation": "swish"})"));
        QCOMPARE(swish.problems().size(), std::size_t(1));
        QCOMPARE(swish.problems().front().message,
                 std::string("model.activation: unknown value 'swish'; expected relu|gelu|silu|swiglu|geglu"));
    }

    void invalidJsonGivesTheOffset()
    {
        const Result<Scenario> scenario = scenarioFromJson(R"({"format": "llm-explorer-scenario", "version": 1,,})");
        QCOMPARE(scenario.problems().size(), std::size_t(1));
        QVERIFY2(scenario.problems().front().message.find("offset") != std::string::npos,
                 scenario.problems().front().message.c_str());
    }

    void everyProblemIsCollected()
    {
        const Result<Scenario> scenario = scenarioFromJson(scenarioText(R"(
            "model": {"n_layers": "abc", "activation": "swish", "moe": {"top_k": -1}},
            "cluster": {"gpus": 1.5, "accelerator": {"sm_count": "many"}},
            "training": {"tokens": 1e300, "optimizer": 7, "parallel": {"zero_stage": "one"}})"));
        QVERIFY(!scenario.ok());
        const Problems &problems = scenario.problems();
        QCOMPARE(problems.size(), std::size_t(8));
        QVERIFY(hasProblem(problems, "model.n_layers", "type"));
        QVERIFY(hasProblem(problems, "model.activation", "enum"));
        QVERIFY(hasProblem(problems, "model.moe.top_k", "range"));
        QVERIFY(hasProblem(problems, "cluster.gpus", "integer"));
        QVERIFY(hasProblem(problems, "cluster.accelerator.sm_count", "type"));
        QVERIFY(hasProblem(problems, "training.tokens", "range"));
        QVERIFY(hasProblem(problems, "training.optimizer", "type"));
        QVERIFY(hasProblem(problems, "training.parallel.zero_stage", "type"));
    }

    void saveAndLoadThroughAFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("run.llmx.json").toStdString();
        const Scenario original = everythingChanged();
        const Problems saved = saveScenarioFile(original, path);
        QVERIFY2(saved.empty(), formatProblems(saved).c_str());
        const Result<Scenario> loaded = loadScenarioFile(path);
        QVERIFY2(loaded.ok(), formatProblems(loaded.problems()).c_str());
        compareScenarios(*loaded, original);

        // Saving again replaces the file whole.
        QVERIFY(saveScenarioFile(defaultScenario(), path).empty());
        const Result<Scenario> reloaded = loadScenarioFile(path);
        QVERIFY(reloaded.ok());
        compareScenarios(*reloaded, defaultScenario());
    }

    void unreadableFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("missing.json").toStdString();
        const Result<Scenario> loaded = loadScenarioFile(path);
        QVERIFY(!loaded.ok());
        QVERIFY(hasProblem(loaded.problems(), "file", "read"));
        QVERIFY(loaded.problems().front().message.find(path) != std::string::npos);
    }

    void brokenFileNamesItself()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("broken.json");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"format": "llm-explorer-scenario", "version": 1, "model": )");
        file.close();
        const Result<Scenario> loaded = loadScenarioFile(path.toStdString());
        QVERIFY(hasProblem(loaded.problems(), "file", "json"));
        const std::string &message = loaded.problems().front().message;
        QVERIFY2(message.find(path.toStdString()) != std::string::npos, message.c_str());
        QVERIFY2(message.find("offset") != std::string::npos, message.c_str());
    }

    void unwritableFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("no/such/folder/run.json").toStdString();
        const Problems problems = saveScenarioFile(defaultScenario(), path);
        QVERIFY(hasProblem(problems, "file", "write"));
    }

    void onlyAModelGivesAValidScenario()
    {
        // A hand-written file with nothing but a model: the rest is the course example, fitted to
        // the model (GPT-2 XL has 25 heads and 1024 learned positions), and nothing is reported.
        QJsonObject model = modelToJson(findModelPreset("gpt2-xl")->model);
        model.remove("name");
        const QByteArray body = "\"model\": " + QJsonDocument(model).toJson(QJsonDocument::Compact);
        const Result<Scenario> scenario = scenarioFromJson(scenarioText(body.constData()));
        QVERIFY2(scenario.ok(), formatProblems(scenario.problems()).c_str());
        QVERIFY2(validate(*scenario).empty(), formatProblems(validate(*scenario)).c_str());
        QCOMPARE(scenario->training.seq_len, std::int64_t(1024));
        // 25 heads: of the degrees dividing them only 1 also divides the 1024 GPUs.
        QCOMPARE(scenario->training.parallel.tp, 1);
        // A model equal to a preset is recognised as it.
        QCOMPARE(QString::fromStdString(scenario->model.name), QString::fromStdString(findModelPreset("gpt2-xl")->model.name));
        // What the file does give is never changed, even when it does not fit.
        const Result<Scenario> pinned = scenarioFromJson(
            scenarioText(("\"model\": " + QJsonDocument(model).toJson(QJsonDocument::Compact)
                          + R"(, "training": {"parallel": {"tp": 8}})").constData()));
        QVERIFY(pinned.ok());
        QCOMPARE(pinned->training.parallel.tp, 8);
    }

    void acceleratorIdCompletesFromTheCatalog()
    {
        const Result<Scenario> scenario =
            scenarioFromJson(scenarioText(R"("cluster": {"accelerator": {"id": "a100-sxm-80gb"}, "gpus": 64})"));
        QVERIFY2(scenario.ok(), formatProblems(scenario.problems()).c_str());
        const Accelerator *a100 = builtinHardwareCatalog().find("a100-sxm-80gb");
        QVERIFY(a100);
        QCOMPARE(scenario->cluster.accelerator.memory_bytes, a100->memory_bytes);
        QCOMPARE(scenario->cluster.accelerator.dense_peak.bf16_flops_per_second, a100->dense_peak.bf16_flops_per_second);
        QCOMPARE(scenario->cluster.gpus, 64);
        QVERIFY2(validate(*scenario).empty(), formatProblems(validate(*scenario)).c_str());
    }

    void customAcceleratorProblemsNameRealFields()
    {
        // An accelerator that is not in the catalog takes nothing from another one; what it lacks
        // is reported by field, never as "no peak on ;".
        const Result<Scenario> scenario =
            scenarioFromJson(scenarioText(R"("cluster": {"accelerator": {"id": "my-chip", "memory_bytes": 1e11}})"));
        QVERIFY(scenario.ok());
        const Problems problems = validate(*scenario);
        QVERIFY(hasProblem(problems, "training.precision.matmul_dtype", "unsupported"));
        for (const Problem &problem : problems) {
            QVERIFY2(problem.message.find(" on ;") == std::string::npos, problem.message.c_str());
            QVERIFY2(problem.message.find(problem.field) != std::string::npos, problem.message.c_str());
        }
        const std::string peak = std::find_if(problems.begin(), problems.end(), [](const Problem &p) {
                                     return p.rule == "unsupported";
                                 })->message;
        QVERIFY2(peak.find("'my-chip'") != std::string::npos && peak.find("cluster.accelerator.dense_peak.bf16 is 0") != std::string::npos,
                 peak.c_str());
    }

    void wrongKindsOfFileSayWhatTheyAre_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("rule");
        QTest::addColumn<QString>("message");
        QTest::addRow("empty") << QByteArray() << "empty" << "empty file";
        QTest::addRow("binary") << QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16) << "binary" << "not a text file";
        QByteArray random;
        for (int i = 0; i < 256; ++i)
            random.append(char((i * 151 + 17) % 256 | 0x80));  // no NUL, not UTF-8
        QTest::addRow("random") << random << "binary" << "not a text file";
    }
    void wrongKindsOfFileSayWhatTheyAre()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, rule);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("thing.json");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
        file.close();
        // The scenario loader and the config.json importer (GUI and CLI both use them) agree.
        const Result<Scenario> scenario = loadScenarioFile(path.toStdString());
        const Result<ModelConfig> config = loadHuggingFaceConfigFile(path.toStdString());
        for (const Problems &problems : {scenario.problems(), config.problems()}) {
            QCOMPARE(problems.size(), std::size_t(1));
            QCOMPARE(QString::fromStdString(problems.front().rule), rule);
            const QString text = QString::fromStdString(problems.front().message);
            QVERIFY2(text.contains(message) && text.contains(path) && !text.contains("JSON"), qPrintable(text));
        }
    }
};

QTEST_GUILESS_MAIN(TestScenarioJson)
#include "test_scenario_json.moc"
