// SPDX-License-Identifier: GPL-3.0-or-later
#include "monkey/hf_config_files.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace lse::monkey {

namespace {

// Fields as the models' published config.json files on the Hugging Face Hub spell them.
const char *const kLlama2_7b = R"({"architectures": ["LlamaForCausalLM"], "hidden_act": "silu",
 "hidden_size": 4096, "intermediate_size": 11008, "max_position_embeddings": 4096,
 "model_type": "llama", "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 32,
 "rms_norm_eps": 1e-05, "rope_scaling": null, "tie_word_embeddings": false, "torch_dtype": "float16",
 "vocab_size": 32000})";
const char *const kLlama3_8b = R"({"architectures": ["LlamaForCausalLM"], "hidden_size": 4096,
 "intermediate_size": 14336, "max_position_embeddings": 8192, "model_type": "llama",
 "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 8, "rope_theta": 500000.0,
 "tie_word_embeddings": false, "torch_dtype": "bfloat16", "vocab_size": 128256})";
const char *const kMistral7b = R"({"architectures": ["MistralForCausalLM"], "hidden_size": 4096,
 "intermediate_size": 14336, "max_position_embeddings": 32768, "model_type": "mistral",
 "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 8, "rope_theta": 10000.0,
 "sliding_window": 4096, "tie_word_embeddings": false, "vocab_size": 32000})";
const char *const kGpt2 = R"({"architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "n_ctx": 1024,
 "n_embd": 768, "n_head": 12, "n_layer": 12, "n_positions": 1024, "vocab_size": 50257})";
const char *const kMixtral = R"({"architectures": ["MixtralForCausalLM"], "hidden_size": 4096,
 "intermediate_size": 14336, "max_position_embeddings": 32768, "model_type": "mixtral",
 "num_attention_heads": 32, "num_experts_per_tok": 2, "num_hidden_layers": 32, "num_key_value_heads": 8,
 "num_local_experts": 8, "vocab_size": 32000})";

const char *const kWrongTypes = R"({"model_type": "llama", "hidden_size": "4096", "num_hidden_layers": [32],
 "num_attention_heads": true, "intermediate_size": -11008, "vocab_size": 1e999})";
const char *const kMissingLayers = R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
 "intermediate_size": 11008, "vocab_size": 32000})";
const char *const kUnsupportedFamily = R"({"model_type": "t5", "d_model": 512, "num_layers": 6})";
const char *const kHugeValues = R"({"model_type": "llama", "hidden_size": 9223372036854775807,
 "intermediate_size": 11008, "num_attention_heads": 0, "num_hidden_layers": 2147483648, "vocab_size": 32000})";

bool writeFile(const QString &path, const QByteArray &bytes, QString *error)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size()) {
        if (error)
            *error = QStringLiteral("cannot write %1").arg(path);
        return false;
    }
    return true;
}

}  // namespace

HfConfigFiles writeHfConfigFiles(const QString &folder, QString *error)
{
    const QDir root(folder);
    const auto configIn = [&root](const QString &name) { return root.filePath(name + QStringLiteral("/config.json")); };
    HfConfigFiles files;
    const std::pair<const char *, QByteArray> valid[] = {
        {"Llama-2-7b-hf", kLlama2_7b}, {"Meta-Llama-3-8B", kLlama3_8b}, {"Mistral-7B-v0.1", kMistral7b},
        {"gpt2", kGpt2},               {"Mixtral-8x7B-v0.1", kMixtral}};
    for (const auto &[name, json] : valid) {
        if (!writeFile(configIn(QString::fromLatin1(name)), json, error))
            return {};
        files.valid.append(configIn(QString::fromLatin1(name)));
    }
    QByteArray binary;
    for (int i = 0; i < 4096; ++i)
        binary.append(char((i * 131 + 7) & 0xff));  // every byte value, NULs included
    const std::pair<const char *, QByteArray> broken[] = {
        {"truncated", QByteArray(kLlama3_8b).left(97)},
        {"wrong-types", kWrongTypes},
        {"missing-layers", kMissingLayers},
        {"unsupported-family", kUnsupportedFamily},
        {"huge-values", kHugeValues},
        {"empty", QByteArray()},
        {"binary", binary},
        {"array", QByteArray("[1, 2, 3]")},
        {"utf8-garbage", QByteArray("{\"model_type\": \"\xff\xfe\xe4\xb8\", \"hidden_size\": 4096}")}};
    for (const auto &[name, bytes] : broken) {
        if (!writeFile(configIn(QString::fromLatin1(name)), bytes, error))
            return {};
        files.broken.append(configIn(QString::fromLatin1(name)));
    }
    // A folder where the file should be: the import must say it is not a file.
    const QString folder_config = configIn(QStringLiteral("folder"));
    root.mkpath(folder_config);
    files.broken.append(folder_config);
    files.broken.append(configIn(QStringLiteral("does-not-exist")));
    return files;
}

}  // namespace lse::monkey
