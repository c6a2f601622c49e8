// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/hf_import.h"

#include "common/file_bytes.h"
#include "scenario/model_identity.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QJsonValue>
#include <QString>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lse {

namespace {

constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();
constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();

enum class Family { Llama, Mistral, Mixtral, Qwen2, Qwen2Moe, Gemma2, Gpt2, GptNeoX };

struct FamilyName {
    Family family;
    std::string_view modelType;
};

constexpr FamilyName kFamilies[] = {
    {Family::Llama, "llama"},       {Family::Mistral, "mistral"},   {Family::Mixtral, "mixtral"},
    {Family::Qwen2, "qwen2"},       {Family::Qwen2Moe, "qwen2_moe"}, {Family::Gemma2, "gemma2"},
    {Family::Gpt2, "gpt2"},         {Family::GptNeoX, "gpt_neox"},
};

constexpr std::string_view kSupportedList = "llama, mistral, mixtral, qwen2, qwen2_moe, gemma2, gpt2, gpt_neox";

std::string lowerWithoutUnderscores(std::string_view text)
{
    std::string out;
    for (char c : text)
        if (c != '_')
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::optional<FamilyName> familyFromModelType(std::string_view type)
{
    for (const FamilyName &row : kFamilies)
        if (row.modelType == type)
            return row;
    return std::nullopt;
}

// transformers names its classes <Family><Head>, e.g. GPTNeoXForCausalLM or Qwen2MoeForCausalLM.
// The head suffix must match exactly so that e.g. Qwen2VLForConditionalGeneration (a different
// family) is not mistaken for qwen2.
std::optional<FamilyName> familyFromArchitecture(std::string_view className)
{
    static constexpr std::string_view kHeads[] = {
        "forcausallm", "lmheadmodel", "model", "forsequenceclassification", "fortokenclassification",
        "forquestionanswering",
    };
    const std::string lowered = lowerWithoutUnderscores(className);
    for (const FamilyName &row : kFamilies) {
        const std::string prefix = lowerWithoutUnderscores(row.modelType);
        if (lowered.size() <= prefix.size() || lowered.compare(0, prefix.size(), prefix) != 0)
            continue;
        const std::string_view head = std::string_view(lowered).substr(prefix.size());
        if (std::find(std::begin(kHeads), std::end(kHeads), head) != std::end(kHeads))
            return row;
    }
    return std::nullopt;
}

// Reads typed fields of one config object and records every problem instead of stopping at the
// first, so that a user sees all that is wrong with a file at once. Several keys may name one
// field because transformers' attribute_map lets e.g. GPT-2 configs say hidden_size for n_embd.
class FieldReader {
public:
    using Keys = std::initializer_list<const char *>;

    FieldReader(const QJsonObject &object, Problems &problems, std::string_view family)
        : object_(object), problems_(problems), family_(family)
    {
    }

    void problem(std::string field, std::string rule, std::string message)
    {
        problems_.push_back(Problem{std::move(field), std::move(rule), std::move(message)});
    }

    std::int64_t required(Keys keys, std::int64_t maximum = kInt64Max)
    {
        if (!find(keys)) {
            const std::string key = *keys.begin();
            problem(key, "required", key + " is required in a " + std::string(family_) + " config.");
            return 0;
        }
        return integer(keys, 1, maximum).value_or(0);
    }

    std::int64_t optional(Keys keys, std::int64_t fallback, std::int64_t minimum = 1,
                          std::int64_t maximum = kInt64Max)
    {
        return integer(keys, minimum, maximum).value_or(fallback);
    }

    // Absent and null both mean "use the class default", as transformers treats them.
    std::optional<std::int64_t> integer(Keys keys, std::int64_t minimum = 1, std::int64_t maximum = kInt64Max)
    {
        const std::optional<Found> found = find(keys);
        if (!found)
            return std::nullopt;
        return toInteger(found->key, found->value, minimum, maximum);
    }

    bool flag(const char *key, bool fallback)
    {
        const std::optional<Found> found = find({key});
        if (!found)
            return fallback;
        if (!found->value.isBool()) {
            problem(found->key, "type", found->key + " must be true or false.");
            return fallback;
        }
        return found->value.toBool();
    }

    // The key that was present alongside the text, so activation problems name the right field.
    std::optional<std::pair<std::string, std::string>> text(Keys keys)
    {
        const std::optional<Found> found = find(keys);
        if (!found)
            return std::nullopt;
        if (!found->value.isString()) {
            problem(found->key, "type", found->key + " must be a string.");
            return std::nullopt;
        }
        return std::pair{found->key, found->value.toString().toStdString()};
    }

    std::optional<QJsonValue> raw(const char *key) const
    {
        const std::optional<Found> found = find({key});
        if (!found)
            return std::nullopt;
        return found->value;
    }

    std::optional<std::int64_t> toInteger(const std::string &field, const QJsonValue &value,
                                          std::int64_t minimum, std::int64_t maximum)
    {
        if (!value.isDouble()) {
            problem(field, "type", field + " must be a number.");
            return std::nullopt;
        }
        const double number = value.toDouble();
        if (std::trunc(number) != number) {
            problem(field, "type", field + " must be a whole number, not " + std::to_string(number) + ".");
            return std::nullopt;
        }
        // Past 2^63 a double no longer converts to qint64; such a size is absurd anyway.
        if (std::fabs(number) >= 9.2e18) {
            problem(field, "range", field + " is far too large.");
            return std::nullopt;
        }
        const std::int64_t whole = value.toInteger();
        if (whole < minimum) {
            problem(field, minimum == 1 ? "positive" : "range",
                    field + " must be at least " + std::to_string(minimum) + ", not " + std::to_string(whole) + ".");
            return std::nullopt;
        }
        if (whole > maximum) {
            problem(field, "range",
                    field + " must be at most " + std::to_string(maximum) + ", not " + std::to_string(whole) + ".");
            return std::nullopt;
        }
        return whole;
    }

private:
    struct Found {
        std::string key;
        QJsonValue value;
    };

    std::optional<Found> find(Keys keys) const
    {
        for (const char *key : keys) {
            const QJsonValue value = object_.value(QLatin1String(key));
            if (!value.isUndefined() && !value.isNull())
                return Found{key, value};
        }
        return std::nullopt;
    }

    const QJsonObject &object_;
    Problems &problems_;
    std::string_view family_;
};

// Families whose MLP has a gate_proj (Llama, Mistral, Qwen, Gemma) multiply the activation by a
// second projection, so the same activation name means the gated variant there.
std::optional<Activation> activationFromName(FieldReader &reader, FieldReader::Keys keys, const char *fallback,
                                             bool gated)
{
    const auto found = reader.text(keys);
    const std::string key = found ? found->first : std::string(*keys.begin());
    const std::string name = found ? found->second : std::string(fallback);
    std::string lowered;
    for (char c : name)
        lowered += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));

    const bool isGelu = lowered.rfind("gelu", 0) == 0 || lowered == "quick_gelu";
    if (gated) {
        if (lowered == "silu" || lowered == "swish")
            return Activation::SwiGLU;
        if (isGelu)
            return Activation::GeGLU;
    } else {
        if (isGelu)
            return Activation::GeLU;
        if (lowered == "relu")
            return Activation::ReLU;
    }
    // Gated ReLU and ungated SiLU have no Activation of their own; guessing would misstate the cost.
    reader.problem(key, "unsupported",
                   key + " '" + name + "' is not supported here; expected "
                       + (gated ? "silu, swish or gelu*" : "gelu* or relu") + ".");
    return std::nullopt;
}

// Class defaults of the rotary, RMSNorm, gated-MLP families that differ between them.
struct RotaryDefaults {
    std::optional<int> kvHeads;  // nullopt: one KV head per query head
    std::optional<int> headDim;  // nullopt: hidden_size / num_attention_heads
    std::int64_t maxPositions = 0;
    bool tied = false;
    const char *activation = "silu";
    std::optional<std::int64_t> intermediateSize;  // nullopt: the file must give it
};

ModelConfig readRotary(FieldReader &reader, const RotaryDefaults &defaults, FieldReader::Keys activationKeys)
{
    ModelConfig model;
    model.d_model = reader.required({"hidden_size"});
    model.n_layers = static_cast<int>(reader.required({"num_hidden_layers"}, kIntMax));
    model.n_heads = static_cast<int>(reader.required({"num_attention_heads"}, kIntMax));
    model.d_ff = defaults.intermediateSize ? reader.optional({"intermediate_size"}, *defaults.intermediateSize)
                                           : reader.required({"intermediate_size"});
    model.vocab_size = reader.required({"vocab_size"});
    model.max_seq_len = reader.optional({"max_position_embeddings"}, defaults.maxPositions);
    model.n_kv_heads = static_cast<int>(
        reader.optional({"num_key_value_heads"}, defaults.kvHeads.value_or(model.n_heads), 1, kIntMax));

    const std::optional<std::int64_t> headDim = reader.integer({"head_dim"}, 1, kIntMax);
    if (headDim) {
        model.head_dim = static_cast<int>(*headDim);
    } else if (defaults.headDim) {
        model.head_dim = *defaults.headDim;
    } else if (model.n_heads > 0 && model.d_model > 0) {
        if (model.d_model % model.n_heads != 0)
            reader.problem("num_attention_heads", "divisible",
                           "hidden_size " + std::to_string(model.d_model) + " is not divisible by num_attention_heads "
                               + std::to_string(model.n_heads) + " and no head_dim is given.");
        model.head_dim = static_cast<int>(model.d_model / model.n_heads);
    }
    if (model.n_heads > 0 && model.n_kv_heads > 0 && model.n_heads % model.n_kv_heads != 0)
        reader.problem("num_key_value_heads", "divisible",
                       "num_attention_heads " + std::to_string(model.n_heads)
                           + " is not divisible by num_key_value_heads " + std::to_string(model.n_kv_heads) + ".");

    model.tied_embeddings = reader.flag("tie_word_embeddings", defaults.tied);
    model.activation = activationFromName(reader, activationKeys, defaults.activation, true).value_or(Activation::SwiGLU);
    model.norm = NormType::RMSNorm;
    model.norm_placement = NormPlacement::Pre;
    model.positional_encoding = PositionalEncoding::RoPE;
    return model;
}

void checkTopK(FieldReader &reader, const MoeConfig &moe, const char *expertsKey)
{
    if (moe.n_experts > 0 && moe.top_k > moe.n_experts)
        reader.problem("num_experts_per_tok", "range",
                       "num_experts_per_tok " + std::to_string(moe.top_k) + " exceeds " + expertsKey + " "
                           + std::to_string(moe.n_experts) + ".");
}

// transformers makes layer i sparse iff i is not in mlp_only_layers and (i + 1) % decoder_sparse_step
// == 0. MoeConfig can express "dense up to a layer, then every n-th", so a leading run 0..k-1 of
// dense layers maps exactly; any other list of dense layers cannot be represented and is reported
// rather than ignored, since ignoring it would overstate the parameter count.
void applyQwenSparsity(FieldReader &reader, ModelConfig &model, int sparseStep)
{
    model.moe.moe_layer_interval = sparseStep;
    int leadingDense = 0;
    if (const std::optional<QJsonValue> value = reader.raw("mlp_only_layers")) {
        if (!value->isArray()) {
            reader.problem("mlp_only_layers", "type", "mlp_only_layers must be a list of layer indices.");
        } else {
            std::vector<std::int64_t> layers;
            bool typeError = false;
            for (const QJsonValue &entry : value->toArray()) {
                const std::optional<std::int64_t> layer =
                    reader.toInteger("mlp_only_layers", entry, std::numeric_limits<std::int64_t>::min(), kInt64Max);
                if (!layer)
                    typeError = true;
                // Indices outside the model never match a layer in transformers either.
                else if (*layer >= 0 && *layer < model.n_layers)
                    layers.push_back(*layer);
            }
            std::sort(layers.begin(), layers.end());
            layers.erase(std::unique(layers.begin(), layers.end()), layers.end());
            bool leadingRun = true;
            for (std::size_t i = 0; i < layers.size(); ++i)
                leadingRun = leadingRun && layers[i] == std::int64_t(i);
            if (!leadingRun && !typeError)
                reader.problem("mlp_only_layers", "unsupported",
                               "mlp_only_layers must list the first layers 0, 1, ..., k-1; other sets of dense "
                               "layers cannot be represented.");
            else
                leadingDense = static_cast<int>(layers.size());
        }
    }
    // The first sparse layer at or after leadingDense: the smallest i >= k with (i + 1) % step == 0.
    const int first = (leadingDense + sparseStep) / sparseStep * sparseStep - 1;
    if (first >= model.n_layers)
        model.moe = MoeConfig{};
    else
        model.moe.first_moe_layer = first;
}

ModelConfig readFamily(FieldReader &reader, Family family)
{
    ModelConfig model;
    switch (family) {
    case Family::Llama: {
        model = readRotary(reader, RotaryDefaults{std::nullopt, std::nullopt, 2048, false, "silu", std::nullopt},
                           {"hidden_act"});
        const bool attentionBias = reader.flag("attention_bias", false);
        model.biases.qkv = attentionBias;
        model.biases.attn_output = attentionBias;
        model.biases.mlp = reader.flag("mlp_bias", false);
        break;
    }
    case Family::Mistral:
        // The sliding window bounds attention span, not the weights or the per-token matmuls.
        model = readRotary(reader, RotaryDefaults{8, std::nullopt, 4096 * 32, false, "silu", std::nullopt},
                           {"hidden_act"});
        break;
    case Family::Mixtral: {
        model = readRotary(reader, RotaryDefaults{8, std::nullopt, 4096 * 32, false, "silu", std::nullopt},
                           {"hidden_act"});
        model.moe.n_experts = static_cast<int>(reader.optional({"num_local_experts", "num_experts"}, 8, 1, kIntMax));
        model.moe.top_k = static_cast<int>(reader.optional({"num_experts_per_tok"}, 2, 1, kIntMax));
        model.moe.expert_d_ff = model.d_ff;
        checkTopK(reader, model.moe, "num_local_experts");
        break;
    }
    case Family::Qwen2:
        // Qwen2Config's own default of 32 KV heads equals its default head count, i.e. plain MHA.
        model = readRotary(reader, RotaryDefaults{std::nullopt, std::nullopt, 32768, false, "silu", std::nullopt},
                           {"hidden_act"});
        model.biases.qkv = true;  // Qwen2Attention: q/k/v_proj with bias, o_proj without
        break;
    case Family::Qwen2Moe: {
        // intermediate_size only sizes the dense layers, which a typical Qwen-MoE does not have.
        model = readRotary(reader, RotaryDefaults{std::nullopt, std::nullopt, 32768, false, "silu", 5632},
                           {"hidden_act"});
        model.biases.qkv = reader.flag("qkv_bias", true);
        model.moe.n_experts = static_cast<int>(reader.optional({"num_experts"}, 60, 1, kIntMax));
        model.moe.top_k = static_cast<int>(reader.optional({"num_experts_per_tok"}, 4, 1, kIntMax));
        model.moe.expert_d_ff = reader.optional({"moe_intermediate_size"}, 1408);
        // One shared expert whose width is the whole shared size, scaled by a sigmoid gate.
        const std::int64_t shared = reader.optional({"shared_expert_intermediate_size"}, 5632, 0);
        model.moe.n_shared_experts = shared > 0 ? 1 : 0;
        model.moe.shared_expert_d_ff = shared;
        model.moe.shared_expert_gate = shared > 0;
        checkTopK(reader, model.moe, "num_experts");
        const int step = static_cast<int>(reader.optional({"decoder_sparse_step"}, 1, 1, kIntMax));
        applyQwenSparsity(reader, model, step);
        break;
    }
    case Family::Gemma2: {
        // Gemma2Config's KV-head default changed between releases, so only the file is trusted;
        // without it we assume MHA like the other families.
        model = readRotary(reader, RotaryDefaults{std::nullopt, 256, 8192, true, "gelu_pytorch_tanh", std::nullopt},
                           {"hidden_activation", "hidden_act"});
        model.norm_placement = NormPlacement::Double;
        const bool attentionBias = reader.flag("attention_bias", false);
        model.biases.qkv = attentionBias;
        model.biases.attn_output = attentionBias;
        break;
    }
    case Family::Gpt2: {
        model.d_model = reader.required({"n_embd", "hidden_size"});
        model.n_layers = static_cast<int>(reader.required({"n_layer", "num_hidden_layers"}, kIntMax));
        model.n_heads = static_cast<int>(reader.required({"n_head", "num_attention_heads"}, kIntMax));
        model.n_kv_heads = model.n_heads;
        model.vocab_size = reader.required({"vocab_size"});
        model.max_seq_len = reader.optional({"n_positions", "max_position_embeddings"}, 1024);
        model.d_ff = reader.optional({"n_inner"}, 4 * model.d_model);
        if (model.n_heads > 0 && model.d_model > 0) {
            if (model.d_model % model.n_heads != 0)
                reader.problem("n_head", "divisible",
                               "n_embd " + std::to_string(model.d_model) + " is not divisible by n_head "
                                   + std::to_string(model.n_heads) + ".");
            model.head_dim = static_cast<int>(model.d_model / model.n_heads);
        }
        model.tied_embeddings = reader.flag("tie_word_embeddings", true);
        model.activation = activationFromName(reader, {"activation_function"}, "gelu_new", false).value_or(Activation::GeLU);
        model.norm = NormType::LayerNorm;
        model.norm_placement = NormPlacement::Pre;
        model.positional_encoding = PositionalEncoding::Learned;
        model.biases = BiasConfig{true, true, true, false};
        break;
    }
    case Family::GptNeoX: {
        model.d_model = reader.required({"hidden_size"});
        model.n_layers = static_cast<int>(reader.required({"num_hidden_layers"}, kIntMax));
        model.n_heads = static_cast<int>(reader.required({"num_attention_heads"}, kIntMax));
        model.n_kv_heads = model.n_heads;
        model.d_ff = reader.required({"intermediate_size"});
        model.vocab_size = reader.required({"vocab_size"});
        model.max_seq_len = reader.optional({"max_position_embeddings"}, 2048);
        if (model.n_heads > 0 && model.d_model > 0) {
            if (model.d_model % model.n_heads != 0)
                reader.problem("num_attention_heads", "divisible",
                               "hidden_size " + std::to_string(model.d_model)
                                   + " is not divisible by num_attention_heads " + std::to_string(model.n_heads) + ".");
            model.head_dim = static_cast<int>(model.d_model / model.n_heads);
        }
        model.tied_embeddings = reader.flag("tie_word_embeddings", false);
        model.parallel_block = reader.flag("use_parallel_residual", true);
        model.activation = activationFromName(reader, {"hidden_act"}, "gelu", false).value_or(Activation::GeLU);
        model.norm = NormType::LayerNorm;
        model.norm_placement = NormPlacement::Pre;
        // rotary_pct rotates only part of each head; RoPE has no weights and a negligible share of
        // FLOPs, so the fraction does not change any count.
        model.positional_encoding = PositionalEncoding::RoPE;
        const bool attentionBias = reader.flag("attention_bias", true);
        model.biases = BiasConfig{attentionBias, attentionBias, true, false};
        break;
    }
    }
    return model;
}

// model_type wins; architectures[0] is only a fallback for hand-written or very old configs.
std::optional<FamilyName> resolveFamily(const QJsonObject &object, Problems &problems)
{
    const QJsonValue type = object.value(QLatin1String("model_type"));
    if (!type.isUndefined() && !type.isNull()) {
        if (!type.isString()) {
            problems.push_back(Problem{"model_type", "type", "model_type must be a string."});
            return std::nullopt;
        }
        const std::string name = type.toString().toStdString();
        if (std::optional<FamilyName> family = familyFromModelType(name))
            return family;
        problems.push_back(Problem{"model_type", "unsupported",
                                   "model_type '" + name + "' is not supported; supported: " + std::string(kSupportedList)
                                       + "."});
        return std::nullopt;
    }

    const QJsonValue architectures = object.value(QLatin1String("architectures"));
    if (architectures.isUndefined() || architectures.isNull()) {
        problems.push_back(Problem{"model_type", "required",
                                   "model_type is required (or architectures naming a supported class); supported: "
                                       + std::string(kSupportedList) + "."});
        return std::nullopt;
    }
    if (!architectures.isArray() || architectures.toArray().isEmpty() || !architectures.toArray().at(0).isString()) {
        problems.push_back(Problem{"architectures", "type", "architectures must be a non-empty list of class names."});
        return std::nullopt;
    }
    const std::string className = architectures.toArray().at(0).toString().toStdString();
    if (std::optional<FamilyName> family = familyFromArchitecture(className))
        return family;
    problems.push_back(Problem{"architectures", "unsupported",
                               "architectures[0] '" + className + "' is not a supported model class; supported: "
                                   + std::string(kSupportedList) + "."});
    return std::nullopt;
}

// "meta-llama/Llama-3.1-405B" -> "Llama-3.1-405B"; "/ckpt/run7/" -> "run7"; "." -> "".
std::string lastPathComponent(std::string text)
{
    while (!text.empty() && (text.back() == '/' || text.back() == '\\'))
        text.pop_back();
    const std::size_t slash = text.find_last_of("/\\");
    std::string last = slash == std::string::npos ? text : text.substr(slash + 1);
    return last == "." || last == ".." ? std::string() : last;
}

}  // namespace

Result<ModelConfig> modelFromHuggingFaceConfig(const QByteArray &json, const std::string &fallback_name)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        return Result<ModelConfig>::failure("json", "syntax",
                                            "not valid JSON: " + error.errorString().toStdString() + " at offset "
                                                + std::to_string(error.offset) + ".");
    if (!document.isObject())
        return Result<ModelConfig>::failure("json", "type", "config.json must hold a JSON object at the top level.");
    const QJsonObject object = document.object();

    Problems problems;
    const std::optional<FamilyName> family = resolveFamily(object, problems);
    if (!family)
        return problems;

    FieldReader reader(object, problems, family->modelType);
    ModelConfig model = readFamily(reader, family->family);
    const auto path = reader.text({"_name_or_path"});
    if (!problems.empty())
        return problems;
    // model_type names a family, not a model (GPT-3 configs say "gpt2"), so it is the last resort.
    std::string name = path ? lastPathComponent(path->second) : std::string();
    if (name.empty())
        name = fallback_name;
    if (name.empty())
        name = std::string(family->modelType);
    model.name = name;
    if (const ModelPreset *preset = presetWithArchitecture(model))
        model.name = preset->model.name;
    return model;
}

namespace {

// A folder a model was downloaded or saved into (save_pretrained, the Hub cache): its tokenizer or
// weights sit beside the config. Such a folder is named after the model; any other folder (a
// collection of configs, "hf/") says nothing about it.
bool isModelFolder(const QDir &folder)
{
    static const QStringList kModelFiles = {
        QStringLiteral("tokenizer.json"),     QStringLiteral("tokenizer_config.json"), QStringLiteral("tokenizer.model"),
        QStringLiteral("vocab.json"),         QStringLiteral("merges.txt"),            QStringLiteral("special_tokens_map.json"),
        QStringLiteral("generation_config.json"), QStringLiteral("*.safetensors"),     QStringLiteral("*.safetensors.index.json"),
        QStringLiteral("pytorch_model*.bin"), QStringLiteral("*.gguf"),                QStringLiteral("*.pt")};
    return !folder.entryList(kModelFiles, QDir::Files | QDir::Readable).isEmpty();
}

}  // namespace

std::string modelNameFromConfigPath(const std::string &path)
{
    const QFileInfo file(QString::fromStdString(path));
    const QDir folder = file.absoluteDir();
    // The Hub cache keeps files in models--<org>--<name>/snapshots/<commit>/: the commit says nothing.
    QDir parent = folder;
    if (parent.cdUp() && parent.dirName() == QLatin1String("snapshots") && parent.cdUp()
        && parent.dirName().startsWith(QLatin1String("models--")))
        return parent.dirName().section(QStringLiteral("--"), -1).toStdString();
    // A file named after its model ("hf/qwen2.5-7b.json") outside a model folder keeps that name;
    // "config.json" names nothing, so its folder does.
    const QString stem = file.completeBaseName();
    if (!isModelFolder(folder) && !stem.isEmpty() && stem.compare(QLatin1String("config"), Qt::CaseInsensitive) != 0)
        return stem.toStdString();
    return folder.dirName().toStdString();
}

Result<ModelConfig> loadHuggingFaceConfigFile(const std::string &path)
{
    const Result<QByteArray> read = readFileBytes(path, FileKind::Config);
    if (!read) {
        // Whole-file problems have the field "file"; the message names the path.
        Problem problem = read.problems().front();
        problem.field = "file";
        return Problems{problem};
    }
    const QByteArray &bytes = *read;
    if (const std::optional<Problem> problem = textFileProblem(bytes, path))
        return Problems{*problem};
    Result<ModelConfig> result = modelFromHuggingFaceConfig(bytes, modelNameFromConfigPath(path));
    if (result.ok())
        return result;
    // Syntax problems are about the file as a whole, so they say which file.
    Problems problems = result.problems();
    for (Problem &problem : problems)
        if (problem.field == "json")
            problem.message = "'" + path + "': " + problem.message;
    return problems;
}

}  // namespace lse
