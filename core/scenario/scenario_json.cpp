// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/scenario_json.h"

#include "common/file_bytes.h"
#include "common/file_writer.h"
#include "common/json_fields.h"
#include "hardware/hardware_catalog.h"
#include "scenario/model_identity.h"
#include "scenario/presets.h"
#include "scenario/scenario_adjust.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QString>
#include <QtGlobal>

#include <initializer_list>
#include <utility>

namespace lse {

namespace {

constexpr const char *kScenarioFormat = "llm-explorer-scenario";
constexpr int kScenarioVersion = 1;

QString qstr(std::string_view text) { return QString::fromUtf8(text.data(), qsizetype(text.size())); }

// "a|b|c" built from the same toString() the writer uses, so messages never drift from the names.
template <typename Enum>
std::string choicesOf(std::initializer_list<Enum> values)
{
    std::string text;
    for (Enum value : values) {
        if (!text.empty())
            text += '|';
        text += toString(value);
    }
    return text;
}

const std::string &dtypeChoices()
{
    static const std::string choices = choicesOf({DType::FP32, DType::TF32, DType::BF16, DType::FP16, DType::FP8});
    return choices;
}

template <typename T>
void appendProblems(Problems &problems, const Result<T> &result)
{
    problems.insert(problems.end(), result.problems().begin(), result.problems().end());
}

// --- model -------------------------------------------------------------------------------------

QJsonObject moeToJson(const MoeConfig &moe)
{
    QJsonObject object;
    object.insert("n_experts", moe.n_experts);
    object.insert("top_k", moe.top_k);
    object.insert("n_shared_experts", moe.n_shared_experts);
    object.insert("expert_d_ff", qint64(moe.expert_d_ff));
    object.insert("shared_expert_d_ff", qint64(moe.shared_expert_d_ff));
    object.insert("first_moe_layer", moe.first_moe_layer);
    object.insert("moe_layer_interval", moe.moe_layer_interval);
    object.insert("shared_expert_gate", moe.shared_expert_gate);
    return object;
}

void readMoe(JsonFieldReader &reader, MoeConfig &moe)
{
    reader.readCount("n_experts", moe.n_experts);
    reader.readCount("top_k", moe.top_k);
    reader.readCount("n_shared_experts", moe.n_shared_experts);
    reader.readCount("expert_d_ff", moe.expert_d_ff);
    reader.readCount("shared_expert_d_ff", moe.shared_expert_d_ff);
    reader.readCount("first_moe_layer", moe.first_moe_layer);
    reader.readCount("moe_layer_interval", moe.moe_layer_interval);
    reader.readBool("shared_expert_gate", moe.shared_expert_gate);
}

QJsonObject biasesToJson(const BiasConfig &biases)
{
    QJsonObject object;
    object.insert("qkv", biases.qkv);
    object.insert("attn_output", biases.attn_output);
    object.insert("mlp", biases.mlp);
    object.insert("lm_head", biases.lm_head);
    return object;
}

void readBiases(JsonFieldReader &reader, BiasConfig &biases)
{
    reader.readBool("qkv", biases.qkv);
    reader.readBool("attn_output", biases.attn_output);
    reader.readBool("mlp", biases.mlp);
    reader.readBool("lm_head", biases.lm_head);
}

// --- training ----------------------------------------------------------------------------------

QJsonObject precisionToJson(const PrecisionConfig &precision)
{
    QJsonObject object;
    object.insert("recipe", qstr(toString(precision.recipe)));
    object.insert("weight_dtype", qstr(toString(precision.weight_dtype)));
    object.insert("gradient_dtype", qstr(toString(precision.gradient_dtype)));
    object.insert("matmul_dtype", qstr(toString(precision.matmul_dtype)));
    object.insert("activation_dtype", qstr(toString(precision.activation_dtype)));
    object.insert("master_weights", precision.master_weights);
    object.insert("fp32_gradient_accumulation", precision.fp32_gradient_accumulation);
    return object;
}

void readPrecision(JsonFieldReader &reader, PrecisionConfig &precision)
{
    // The recipe sets the defaults of the other fields, so {"recipe": "fp32"} alone means an
    // all-fp32 run rather than fp32 stamped on bf16 dtypes.
    PrecisionRecipe recipe = precision.recipe;
    reader.readEnum("recipe", recipe, precisionRecipeFromString, precisionRecipeChoices());
    if (reader.has("recipe"))
        precision = precisionForRecipe(recipe);
    reader.readEnum("weight_dtype", precision.weight_dtype, dtypeFromString, dtypeChoices());
    reader.readEnum("gradient_dtype", precision.gradient_dtype, dtypeFromString, dtypeChoices());
    reader.readEnum("matmul_dtype", precision.matmul_dtype, dtypeFromString, dtypeChoices());
    reader.readEnum("activation_dtype", precision.activation_dtype, dtypeFromString, dtypeChoices());
    reader.readBool("master_weights", precision.master_weights);
    reader.readBool("fp32_gradient_accumulation", precision.fp32_gradient_accumulation);
}

QJsonObject parallelToJson(const ParallelConfig &parallel)
{
    QJsonObject object;
    object.insert("dp", parallel.dp);
    object.insert("tp", parallel.tp);
    object.insert("pp", parallel.pp);
    object.insert("cp", parallel.cp);
    object.insert("ep", parallel.ep);
    object.insert("virtual_stages", parallel.virtual_stages);
    object.insert("zero_stage", parallel.zero_stage);
    object.insert("sequence_parallel", parallel.sequence_parallel);
    object.insert("dp_overlap", parallel.dp_overlap);
    object.insert("dp_param_gather_overlap", parallel.dp_param_gather_overlap);
    object.insert("tp_comm_overlap", parallel.tp_comm_overlap);
    object.insert("pp_comm_overlap", parallel.pp_comm_overlap);
    // Omitted when automatic, so older files and their output stay as they were.
    if (!parallel.stage_layers.empty()) {
        QJsonArray layers;
        for (int count : parallel.stage_layers)
            layers.append(count);
        object.insert("stage_layers", layers);
    }
    return object;
}

void readParallel(JsonFieldReader &reader, ParallelConfig &parallel)
{
    reader.readCount("dp", parallel.dp);
    reader.readCount("tp", parallel.tp);
    reader.readCount("pp", parallel.pp);
    reader.readCount("cp", parallel.cp);
    reader.readCount("ep", parallel.ep);
    reader.readCount("virtual_stages", parallel.virtual_stages);
    reader.readCount("zero_stage", parallel.zero_stage);
    reader.readBool("sequence_parallel", parallel.sequence_parallel);
    reader.readBool("dp_overlap", parallel.dp_overlap);  // absent in older files: overlapped, as before
    // Absent in older files: the defaults (parameter gather overlapped, TP and PP traffic exposed).
    reader.readBool("dp_param_gather_overlap", parallel.dp_param_gather_overlap);
    reader.readBool("tp_comm_overlap", parallel.tp_comm_overlap);
    reader.readBool("pp_comm_overlap", parallel.pp_comm_overlap);
    reader.readCountList("stage_layers", parallel.stage_layers);  // absent: as even as possible
}

// Reads a nested object with its own reader, so its problems carry the full dotted path.
template <typename Read>
void readNested(JsonFieldReader &parent, std::string_view key, Problems &problems, Read read)
{
    if (const auto object = parent.readObject(key)) {
        JsonFieldReader child(*object, parent.fieldPath(key), problems);
        read(child);
    }
}

Problem fileProblem(std::string rule, const std::string &text) { return Problem{"file", std::move(rule), "file: " + text}; }

// --- defaults for what a file leaves out -------------------------------------------------------

// `given` with every key it lacks taken from `defaults`, recursively for objects both have.
QJsonObject withDefaults(const QJsonObject &given, const QJsonObject &defaults)
{
    QJsonObject merged = given;
    for (auto it = defaults.begin(); it != defaults.end(); ++it) {
        const QJsonValue mine = given.value(it.key());
        if (mine.isUndefined())
            merged.insert(it.key(), it.value());
        else if (mine.isObject() && it.value().isObject())
            merged.insert(it.key(), withDefaults(mine.toObject(), it.value().toObject()));
    }
    return merged;
}

// The parts the file gave, as validation names them ("training.parallel.tp" is "training.tp"), so
// that fitting the defaulted rest to the model never overrides the author's own choices.
void collectGivenFields(const QJsonObject &object, const std::string &prefix, PinnedFields &fields)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        const std::string key = it.key().toStdString();
        const std::string path = prefix == "training.parallel" ? "training." + key : prefix + "." + key;
        if (it.value().isObject())
            collectGivenFields(it.value().toObject(), prefix + "." + key, fields);
        else
            fields.insert(path);
    }
}

// The file's scenario object completed from defaultScenario(). Two parts are completed as a whole
// rather than field by field: a precision with a recipe takes that recipe's defaults (readPrecision),
// and an accelerator with an id takes the catalog entry of that id (a custom id takes nothing, since
// another accelerator's figures would be wrong for it).
QJsonObject scenarioWithDefaults(const QJsonObject &root)
{
    const Scenario fallback = defaultScenario();
    QJsonObject model = root.value(QStringLiteral("model")).toObject();
    QJsonObject cluster = root.value(QStringLiteral("cluster")).toObject();
    QJsonObject training = root.value(QStringLiteral("training")).toObject();

    QJsonObject default_cluster = clusterToJson(fallback.cluster);
    const QJsonValue accelerator = cluster.value(QStringLiteral("accelerator"));
    if (accelerator.isObject() && accelerator.toObject().contains(QStringLiteral("id"))) {
        const Accelerator *entry =
            builtinHardwareCatalog().find(accelerator.toObject().value(QStringLiteral("id")).toString().toStdString());
        if (entry)
            default_cluster.insert(QStringLiteral("accelerator"), acceleratorToJson(*entry));
        else
            default_cluster.remove(QStringLiteral("accelerator"));
    }
    QJsonObject default_training = trainingToJson(fallback.training);
    const QJsonValue precision = training.value(QStringLiteral("precision"));
    if (precision.isObject() && precision.toObject().contains(QStringLiteral("recipe")))
        default_training.remove(QStringLiteral("precision"));

    QJsonObject merged = root;
    // Only objects are completed; a section of the wrong type is left for the reader to report.
    const auto complete = [&merged, &root](const char *key, const QJsonObject &given, const QJsonObject &defaults) {
        const QJsonValue value = root.value(QLatin1String(key));
        if (value.isUndefined() || value.isObject())
            merged.insert(QLatin1String(key), withDefaults(given, defaults));
    };
    complete("model", model, modelToJson(fallback.model));
    complete("cluster", cluster, default_cluster);
    complete("training", training, default_training);
    return merged;
}

}  // namespace

QJsonObject modelToJson(const ModelConfig &model)
{
    QJsonObject object;
    object.insert("name", qstr(model.name));
    object.insert("n_layers", model.n_layers);
    object.insert("d_model", qint64(model.d_model));
    object.insert("n_heads", model.n_heads);
    object.insert("n_kv_heads", model.n_kv_heads);
    object.insert("head_dim", model.head_dim);
    object.insert("d_ff", qint64(model.d_ff));
    object.insert("vocab_size", qint64(model.vocab_size));
    object.insert("max_seq_len", qint64(model.max_seq_len));
    object.insert("tied_embeddings", model.tied_embeddings);
    object.insert("biases", biasesToJson(model.biases));
    object.insert("norm", qstr(toString(model.norm)));
    object.insert("norm_placement", qstr(toString(model.norm_placement)));
    object.insert("activation", qstr(toString(model.activation)));
    object.insert("positional_encoding", qstr(toString(model.positional_encoding)));
    object.insert("parallel_block", model.parallel_block);
    object.insert("moe", moeToJson(model.moe));
    return object;
}

Result<ModelConfig> modelFromJson(const QJsonObject &object, const std::string &field)
{
    Problems problems;
    ModelConfig model;
    JsonFieldReader reader(object, field, problems);
    reader.readString("name", model.name);
    reader.readCount("n_layers", model.n_layers);
    reader.readCount("d_model", model.d_model);
    reader.readCount("n_heads", model.n_heads);
    reader.readCount("n_kv_heads", model.n_kv_heads);
    reader.readCount("head_dim", model.head_dim);
    reader.readCount("d_ff", model.d_ff);
    reader.readCount("vocab_size", model.vocab_size);
    reader.readCount("max_seq_len", model.max_seq_len);
    reader.readBool("tied_embeddings", model.tied_embeddings);
    readNested(reader, "biases", problems, [&model](JsonFieldReader &r) { readBiases(r, model.biases); });
    reader.readEnum("norm", model.norm, normTypeFromString, choicesOf({NormType::LayerNorm, NormType::RMSNorm, NormType::None}));
    reader.readEnum("norm_placement", model.norm_placement, normPlacementFromString,
                    choicesOf({NormPlacement::Pre, NormPlacement::Post, NormPlacement::Double}));
    reader.readEnum("activation", model.activation, activationFromString,
                    choicesOf({Activation::ReLU, Activation::GeLU, Activation::SiLU, Activation::SwiGLU, Activation::GeGLU}));
    reader.readEnum("positional_encoding", model.positional_encoding, positionalEncodingFromString,
                    choicesOf({PositionalEncoding::Learned, PositionalEncoding::Sinusoidal, PositionalEncoding::RoPE,
                               PositionalEncoding::ALiBi, PositionalEncoding::None}));
    reader.readBool("parallel_block", model.parallel_block);
    readNested(reader, "moe", problems, [&model](JsonFieldReader &r) { readMoe(r, model.moe); });
    if (!problems.empty())
        return problems;
    return model;
}

QJsonObject clusterToJson(const ClusterConfig &cluster)
{
    QJsonObject object;
    object.insert("accelerator", acceleratorToJson(cluster.accelerator));
    object.insert("gpus", cluster.gpus);
    object.insert("gpus_per_node", cluster.gpus_per_node);
    // Written as null rather than left out so that people editing the file see the option exists.
    object.insert("peak_flops_per_second_override",
                  cluster.peak_flops_per_second_override ? QJsonValue(*cluster.peak_flops_per_second_override)
                                                         : QJsonValue(QJsonValue::Null));
    // null = the accelerator's catalog bandwidth (older files lack the keys and read the same).
    for (const auto &[key, gbps] : {std::pair{"intra_node_gbps_per_gpu", cluster.intra_node_gbps_per_gpu},
                                    std::pair{"inter_node_gbps_per_gpu", cluster.inter_node_gbps_per_gpu}})
        object.insert(QLatin1String(key), gbps ? QJsonValue(*gbps) : QJsonValue(QJsonValue::Null));
    object.insert("intra_node_latency_seconds", cluster.intra_node_latency_seconds);
    object.insert("inter_node_latency_seconds", cluster.inter_node_latency_seconds);
    object.insert("link_efficiency", cluster.link_efficiency);
    object.insert("price_per_gpu_hour", cluster.price_per_gpu_hour);
    return object;
}

Result<ClusterConfig> clusterFromJson(const QJsonObject &object, const std::string &field)
{
    Problems problems;
    ClusterConfig cluster;
    JsonFieldReader reader(object, field, problems);
    if (const auto acceleratorObject = reader.readObject("accelerator")) {
        Result<Accelerator> accelerator = acceleratorFromJson(*acceleratorObject, reader.fieldPath("accelerator"));
        if (accelerator) {
            cluster.accelerator = std::move(accelerator.value());
            // Files written before the catalog had prediction accuracy: a catalog accelerator gets
            // the catalog's (it describes the model, not the file).
            if (!acceleratorObject->contains(QStringLiteral("prediction_accuracy")))
                if (const Accelerator *builtin = builtinHardwareCatalog().find(cluster.accelerator.id))
                    cluster.accelerator.accuracy = builtin->accuracy;
        } else {
            appendProblems(problems, accelerator);
        }
    }
    reader.readCount("gpus", cluster.gpus);
    reader.readCount("gpus_per_node", cluster.gpus_per_node);
    reader.readOptionalAmount("peak_flops_per_second_override", cluster.peak_flops_per_second_override);
    for (const auto &[key, gbps] : {std::pair{"intra_node_gbps_per_gpu", &cluster.intra_node_gbps_per_gpu},
                                    std::pair{"inter_node_gbps_per_gpu", &cluster.inter_node_gbps_per_gpu}}) {
        reader.readOptionalAmount(key, *gbps);
        // A link of 0 Gbit/s cannot carry the traffic; null (not 0) is how a file asks for the catalog's.
        if (*gbps && !(**gbps > 0)) {
            const std::string path = reader.fieldPath(key);
            problems.push_back({path, "positive", path + ": must be above 0 Gbit/s (null = the catalog's value), got 0"});
            gbps->reset();
        }
    }
    reader.readAmount("intra_node_latency_seconds", cluster.intra_node_latency_seconds);
    reader.readAmount("inter_node_latency_seconds", cluster.inter_node_latency_seconds);
    reader.readAmount("link_efficiency", cluster.link_efficiency);
    reader.readAmount("price_per_gpu_hour", cluster.price_per_gpu_hour);
    if (!problems.empty())
        return problems;
    return cluster;
}

QJsonObject trainingToJson(const TrainingConfig &training)
{
    QJsonObject object;
    object.insert("tokens", qint64(training.tokens));
    object.insert("seq_len", qint64(training.seq_len));
    object.insert("global_batch", qint64(training.global_batch));
    object.insert("micro_batch", qint64(training.micro_batch));
    object.insert("precision", precisionToJson(training.precision));
    object.insert("optimizer", qstr(toString(training.optimizer)));
    object.insert("recomputation", qstr(toString(training.recomputation)));
    object.insert("flash_attention", training.flash_attention);
    object.insert("attention_kernel", qstr(toString(training.attention_kernel)));
    object.insert("fused_elementwise", training.fused_elementwise);
    object.insert("dropout", training.dropout);
    object.insert("attention_flops", qstr(toString(training.attention_flops)));
    object.insert("flops_model", qstr(toString(training.flops_model)));
    object.insert("parallel", parallelToJson(training.parallel));
    object.insert("mfu", training.mfu);
    object.insert("mfu_source", qstr(toString(training.mfu_source)));
    object.insert("framework_reserve_bytes", qint64(training.framework_reserve_bytes));
    object.insert("kv_cache_dtype", qstr(toString(training.kv_cache_dtype)));
    return object;
}

Result<TrainingConfig> trainingFromJson(const QJsonObject &object, const std::string &field)
{
    Problems problems;
    TrainingConfig training;
    JsonFieldReader reader(object, field, problems);
    reader.readCount("tokens", training.tokens);
    reader.readCount("seq_len", training.seq_len);
    reader.readCount("global_batch", training.global_batch);
    reader.readCount("micro_batch", training.micro_batch);
    readNested(reader, "precision", problems, [&training](JsonFieldReader &r) { readPrecision(r, training.precision); });
    reader.readEnum("optimizer", training.optimizer, optimizerFromString, optimizerChoices());
    reader.readEnum("recomputation", training.recomputation, recomputationFromString,
                    choicesOf({Recomputation::None, Recomputation::Selective, Recomputation::Full}));
    reader.readBool("flash_attention", training.flash_attention);
    // Absent in older files: FlashAttention-2 and fused element-wise kernels (the defaults).
    reader.readEnum("attention_kernel", training.attention_kernel, attentionKernelFromString,
                    choicesOf({AttentionKernel::FlashAttention2, AttentionKernel::FlashAttention3}));
    reader.readBool("fused_elementwise", training.fused_elementwise);
    reader.readBool("dropout", training.dropout);
    reader.readEnum("attention_flops", training.attention_flops, attentionFlopsFromString,
                    choicesOf({AttentionFlops::Full, AttentionFlops::Causal}));
    reader.readEnum("flops_model", training.flops_model, flopsModelFromString,
                    choicesOf({FlopsModel::Exact, FlopsModel::SixND}));
    readNested(reader, "parallel", problems, [&training](JsonFieldReader &r) { readParallel(r, training.parallel); });
    reader.readAmount("mfu", training.mfu);
    reader.readEnum("mfu_source", training.mfu_source, mfuSourceFromString,
                    choicesOf({MfuSource::Given, MfuSource::Predicted}));
    reader.readCount("framework_reserve_bytes", training.framework_reserve_bytes);
    reader.readEnum("kv_cache_dtype", training.kv_cache_dtype, dtypeFromString, dtypeChoices());
    if (!problems.empty())
        return problems;
    return training;
}

QByteArray scenarioToJson(const Scenario &scenario)
{
    QJsonObject root;
    root.insert("format", QLatin1String(kScenarioFormat));
    root.insert("version", kScenarioVersion);
    root.insert("model", modelToJson(scenario.model));
    root.insert("cluster", clusterToJson(scenario.cluster));
    root.insert("training", trainingToJson(scenario.training));
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

Result<Scenario> scenarioFromJson(const QByteArray &json)
{
    Problems problems;
    const std::optional<QJsonObject> given = parseFormattedJson(json, kScenarioFormat, kScenarioVersion, problems);
    if (!given)
        return problems;
    const QJsonObject root = scenarioWithDefaults(*given);

    // Each part is read even when an earlier one failed, so the user sees every problem at once.
    Scenario scenario;
    JsonFieldReader reader(root, "", problems);
    if (const auto object = reader.readObject("model")) {
        Result<ModelConfig> model = modelFromJson(*object, "model");
        if (model)
            scenario.model = std::move(model.value());
        else
            appendProblems(problems, model);
    }
    if (const auto object = reader.readObject("cluster")) {
        Result<ClusterConfig> cluster = clusterFromJson(*object, "cluster");
        if (cluster)
            scenario.cluster = std::move(cluster.value());
        else
            appendProblems(problems, cluster);
    }
    if (const auto object = reader.readObject("training")) {
        Result<TrainingConfig> training = trainingFromJson(*object, "training");
        if (training)
            scenario.training = std::move(training.value());
        else
            appendProblems(problems, training);
    }
    if (!problems.empty())
        return problems;

    PinnedFields given_fields;
    for (const char *section : {"model", "cluster", "training"})
        collectGivenFields(given->value(QLatin1String(section)).toObject(), section, given_fields);
    // A model written without a name is named by what it is, not after the default it was
    // completed from.
    if (!given_fields.count("model.name")) {
        const ModelPreset *preset = presetWithArchitecture(scenario.model);
        if (!given->contains(QStringLiteral("model")))
            scenario.model.name = defaultScenario().model.name;
        else
            scenario.model.name = preset ? preset->model.name : customModelName({});
    }
    // The defaults are the course example's; fitted to the file's model where they do not suit it.
    return fitScenarioToModel(scenario, given_fields).scenario;
}

Result<Scenario> loadScenarioFile(const std::string &path)
{
    const Result<QByteArray> read = readFileBytes(path, FileKind::Config);
    if (!read) {
        // The shared rule's "unreadable" is this format's "read"; its message already names the path.
        const Problem &problem = read.problems().front();
        return Problems{fileProblem(problem.rule == "unreadable" ? "read" : problem.rule, problem.message)};
    }
    const QByteArray &bytes = *read;
    if (std::optional<Problem> problem = textFileProblem(bytes, path)) {
        problem->message = "file: " + problem->message;
        return Problems{*problem};
    }
    Result<Scenario> scenario = scenarioFromJson(bytes);
    if (scenario)
        return scenario;
    // Problems about the file as a whole say which file, since the caller may load several.
    Problems problems = scenario.problems();
    const std::string prefix = "file: ";
    for (Problem &problem : problems)
        if (problem.field == "file" && problem.message.compare(0, prefix.size(), prefix) == 0)
            problem.message = prefix + "'" + path + "': " + problem.message.substr(prefix.size());
    return problems;
}

Problems saveScenarioFile(const Scenario &scenario, const std::string &path, InputReplacement replacement)
{
    const QByteArray bytes = scenarioToJson(scenario);
    const Result<bool> written =
        writeFileReplacing(path, std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())), replacement);
    if (!written) {
        const Problem &problem = written.problems().front();
        return Problems{fileProblem(problem.rule == "unwritable" ? "write" : problem.rule, problem.message)};
    }
    return {};
}

Scenario defaultScenario()
{
    // Stanford CS336's worked example: a 70B dense model trained on 15T tokens on 1024 H100s. The
    // course's 119-day answer assumed 2 PFLOP/s per H100 (the 2:4-sparse headline); the default
    // keeps the catalog's dense peak and no override, so the overview can show both figures.
    Scenario scenario;
    const ModelPreset *preset = findModelPreset("llama-2-70b");
    const Accelerator *h100 = builtinHardwareCatalog().find("h100-sxm");
    if (preset == nullptr || h100 == nullptr)
        qFatal("the default scenario needs the llama-2-70b preset and the h100-sxm catalog entry");
    scenario.model = preset->model;

    scenario.cluster.accelerator = *h100;
    scenario.cluster.gpus = 1024;
    scenario.cluster.gpus_per_node = 8;

    TrainingConfig &training = scenario.training;
    training.tokens = 15'000'000'000'000;
    training.seq_len = 4096;
    training.global_batch = 1024;
    training.micro_batch = 1;
    training.precision = precisionForRecipe(PrecisionRecipe::BF16Mixed);
    training.optimizer = Optimizer::AdamW;
    training.recomputation = Recomputation::Selective;
    training.flash_attention = true;
    // tp 8 stays inside one 8-GPU NVLink node; 8 x 4 x 32 = 1024 GPUs.
    training.parallel.tp = 8;
    training.parallel.pp = 4;
    training.parallel.dp = 32;
    training.parallel.zero_stage = 1;
    training.parallel.sequence_parallel = true;
    training.mfu = 0.3;
    return scenario;
}

}  // namespace lse
