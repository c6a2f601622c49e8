// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/hf_import.h"

#include "cost/parameters.h"
#include "scenario/presets.h"
#include "scenario/scenario_adjust.h"
#include "scenario/scenario_json.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace lse;

Q_DECLARE_METATYPE(lse::ModelConfig)

namespace {

// The config.json files below are written out as published on the Hugging Face Hub (keys that
// do not affect the architecture included), so the tests exercise what users will really load.

const char *const kLlama2_7b = R"({
  "_name_or_path": "meta-llama/Llama-2-7b-hf",
  "architectures": ["LlamaForCausalLM"],
  "bos_token_id": 1,
  "eos_token_id": 2,
  "hidden_act": "silu",
  "hidden_size": 4096,
  "initializer_range": 0.02,
  "intermediate_size": 11008,
  "max_position_embeddings": 4096,
  "model_type": "llama",
  "num_attention_heads": 32,
  "num_hidden_layers": 32,
  "num_key_value_heads": 32,
  "pretraining_tp": 1,
  "rms_norm_eps": 1e-05,
  "rope_scaling": null,
  "tie_word_embeddings": false,
  "torch_dtype": "float16",
  "transformers_version": "4.31.0.dev0",
  "use_cache": true,
  "vocab_size": 32000
})";

const char *const kLlama3_8b = R"({
  "architectures": ["LlamaForCausalLM"],
  "attention_bias": false,
  "attention_dropout": 0.0,
  "bos_token_id": 128000,
  "eos_token_id": 128001,
  "hidden_act": "silu",
  "hidden_size": 4096,
  "initializer_range": 0.02,
  "intermediate_size": 14336,
  "max_position_embeddings": 8192,
  "model_type": "llama",
  "num_attention_heads": 32,
  "num_hidden_layers": 32,
  "num_key_value_heads": 8,
  "pretraining_tp": 1,
  "rms_norm_eps": 1e-05,
  "rope_scaling": null,
  "rope_theta": 500000.0,
  "tie_word_embeddings": false,
  "torch_dtype": "bfloat16",
  "transformers_version": "4.40.0.dev0",
  "use_cache": true,
  "vocab_size": 128256
})";

// Only the required sizes: everything else must come from LlamaConfig's defaults.
const char *const kLlamaMinimal = R"({
  "model_type": "llama",
  "hidden_size": 2048,
  "intermediate_size": 5504,
  "num_attention_heads": 16,
  "num_hidden_layers": 24,
  "vocab_size": 32000,
  "attention_bias": true,
  "mlp_bias": true
})";

const char *const kMistral7b = R"({
  "architectures": ["MistralForCausalLM"],
  "bos_token_id": 1,
  "eos_token_id": 2,
  "hidden_act": "silu",
  "hidden_size": 4096,
  "initializer_range": 0.02,
  "intermediate_size": 14336,
  "max_position_embeddings": 32768,
  "model_type": "mistral",
  "num_attention_heads": 32,
  "num_hidden_layers": 32,
  "num_key_value_heads": 8,
  "rms_norm_eps": 1e-05,
  "rope_theta": 10000.0,
  "sliding_window": 4096,
  "tie_word_embeddings": false,
  "torch_dtype": "bfloat16",
  "transformers_version": "4.34.0.dev0",
  "use_cache": true,
  "vocab_size": 32000
})";

// No model_type: the family comes from the class name; num_key_value_heads and
// max_position_embeddings fall back to MistralConfig's 8 and 4096 * 32.
const char *const kMistralByArchitecture = R"({
  "architectures": ["MistralForCausalLM"],
  "hidden_size": 4096,
  "intermediate_size": 14336,
  "num_attention_heads": 32,
  "num_hidden_layers": 32,
  "vocab_size": 32768
})";

const char *const kMixtral8x7b = R"({
  "architectures": ["MixtralForCausalLM"],
  "attention_dropout": 0.0,
  "bos_token_id": 1,
  "eos_token_id": 2,
  "hidden_act": "silu",
  "hidden_size": 4096,
  "initializer_range": 0.02,
  "intermediate_size": 14336,
  "max_position_embeddings": 32768,
  "model_type": "mixtral",
  "num_attention_heads": 32,
  "num_experts_per_tok": 2,
  "num_hidden_layers": 32,
  "num_key_value_heads": 8,
  "num_local_experts": 8,
  "output_router_logits": false,
  "rms_norm_eps": 1e-05,
  "rope_theta": 1000000.0,
  "router_aux_loss_coef": 0.02,
  "sliding_window": null,
  "tie_word_embeddings": false,
  "torch_dtype": "bfloat16",
  "transformers_version": "4.36.0.dev0",
  "use_cache": true,
  "vocab_size": 32000
})";

const char *const kQwen25_7b = R"({
  "architectures": ["Qwen2ForCausalLM"],
  "attention_dropout": 0.0,
  "bos_token_id": 151643,
  "eos_token_id": 151643,
  "hidden_act": "silu",
  "hidden_size": 3584,
  "initializer_range": 0.02,
  "intermediate_size": 18944,
  "max_position_embeddings": 131072,
  "max_window_layers": 28,
  "model_type": "qwen2",
  "num_attention_heads": 28,
  "num_hidden_layers": 28,
  "num_key_value_heads": 4,
  "rms_norm_eps": 1e-06,
  "rope_theta": 1000000.0,
  "sliding_window": 131072,
  "tie_word_embeddings": false,
  "torch_dtype": "bfloat16",
  "transformers_version": "4.43.1",
  "use_cache": true,
  "use_sliding_window": false,
  "vocab_size": 152064
})";

const char *const kQwen25_0_5b = R"({
  "architectures": ["Qwen2ForCausalLM"],
  "attention_dropout": 0.0,
  "bos_token_id": 151643,
  "eos_token_id": 151643,
  "hidden_act": "silu",
  "hidden_size": 896,
  "initializer_range": 0.02,
  "intermediate_size": 4864,
  "max_position_embeddings": 32768,
  "max_window_layers": 24,
  "model_type": "qwen2",
  "num_attention_heads": 14,
  "num_hidden_layers": 24,
  "num_key_value_heads": 2,
  "rms_norm_eps": 1e-06,
  "rope_theta": 1000000.0,
  "sliding_window": 32768,
  "tie_word_embeddings": true,
  "torch_dtype": "bfloat16",
  "transformers_version": "4.40.1",
  "use_cache": true,
  "use_sliding_window": false,
  "vocab_size": 151936
})";

const char *const kQwen15MoeA27b = R"({
  "architectures": ["Qwen2MoeForCausalLM"],
  "attention_dropout": 0.0,
  "bos_token_id": 151643,
  "eos_token_id": 151643,
  "hidden_act": "silu",
  "hidden_size": 2048,
  "initializer_range": 0.02,
  "intermediate_size": 5632,
  "max_position_embeddings": 8192,
  "max_window_layers": 21,
  "model_type": "qwen2_moe",
  "num_attention_heads": 16,
  "num_hidden_layers": 24,
  "num_key_value_heads": 16,
  "rms_norm_eps": 1e-06,
  "rope_theta": 1000000.0,
  "sliding_window": 32768,
  "tie_word_embeddings": false,
  "torch_dtype": "bfloat16",
  "transformers_version": "4.36.0.dev0",
  "use_cache": true,
  "use_sliding_window": false,
  "vocab_size": 151936,
  "decoder_sparse_step": 1,
  "moe_intermediate_size": 1408,
  "shared_expert_intermediate_size": 5632,
  "num_experts_per_tok": 4,
  "num_experts": 60,
  "norm_topk_prob": false,
  "output_router_logits": false,
  "router_aux_loss_coef": 0.001
})";

// Every second layer sparse, and layers 0 and 1 forced dense: transformers makes layers 3, 5, 7
// sparse (i + 1 divisible by 2, i not in mlp_only_layers).
const char *const kQwenMoeSparseStep = R"({
  "model_type": "qwen2_moe",
  "hidden_size": 1024,
  "intermediate_size": 2816,
  "num_attention_heads": 8,
  "num_hidden_layers": 8,
  "vocab_size": 151936,
  "decoder_sparse_step": 2,
  "mlp_only_layers": [1, 0],
  "moe_intermediate_size": 512,
  "shared_expert_intermediate_size": 0,
  "num_experts": 16,
  "num_experts_per_tok": 2
})";

const char *const kGemma2_9b = R"({
  "architectures": ["Gemma2ForCausalLM"],
  "attention_bias": false,
  "attention_dropout": 0.0,
  "attn_logit_softcapping": 50.0,
  "bos_token_id": 2,
  "cache_implementation": "hybrid",
  "eos_token_id": 1,
  "final_logit_softcapping": 30.0,
  "head_dim": 256,
  "hidden_act": "gelu_pytorch_tanh",
  "hidden_activation": "gelu_pytorch_tanh",
  "hidden_size": 3584,
  "initializer_range": 0.02,
  "intermediate_size": 14336,
  "max_position_embeddings": 8192,
  "model_type": "gemma2",
  "num_attention_heads": 16,
  "num_hidden_layers": 42,
  "num_key_value_heads": 8,
  "pad_token_id": 0,
  "query_pre_attn_scalar": 256,
  "rms_norm_eps": 1e-06,
  "rope_theta": 10000.0,
  "sliding_window": 4096,
  "sliding_window_size": 4096,
  "torch_dtype": "float32",
  "transformers_version": "4.42.0.dev0",
  "use_cache": true,
  "vocab_size": 256000
})";

// head_dim 128 differs from hidden_size / heads = 144, so it must be read, not derived.
const char *const kGemma2_27b = R"({
  "_name_or_path": "google/gemma-2-27b",
  "architectures": ["Gemma2ForCausalLM"],
  "attention_bias": false,
  "attn_logit_softcapping": 50.0,
  "final_logit_softcapping": 30.0,
  "head_dim": 128,
  "hidden_activation": "gelu_pytorch_tanh",
  "hidden_size": 4608,
  "intermediate_size": 36864,
  "max_position_embeddings": 8192,
  "model_type": "gemma2",
  "num_attention_heads": 32,
  "num_hidden_layers": 46,
  "num_key_value_heads": 16,
  "query_pre_attn_scalar": 144,
  "sliding_window": 4096,
  "vocab_size": 256000
})";

const char *const kGpt2 = R"({
  "activation_function": "gelu_new",
  "architectures": ["GPT2LMHeadModel"],
  "attn_pdrop": 0.1,
  "bos_token_id": 50256,
  "embd_pdrop": 0.1,
  "eos_token_id": 50256,
  "initializer_range": 0.02,
  "layer_norm_epsilon": 1e-05,
  "model_type": "gpt2",
  "n_ctx": 1024,
  "n_embd": 768,
  "n_head": 12,
  "n_layer": 12,
  "n_positions": 1024,
  "resid_pdrop": 0.1,
  "summary_activation": null,
  "summary_first_dropout": 0.1,
  "summary_proj_to_labels": true,
  "summary_type": "cls_index",
  "summary_use_proj": true,
  "task_specific_params": {"text-generation": {"do_sample": true, "max_length": 50}},
  "vocab_size": 50257
})";

const char *const kGpt2Medium = R"({
  "_name_or_path": "gpt2-medium",
  "activation_function": "gelu_new",
  "architectures": ["GPT2LMHeadModel"],
  "model_type": "gpt2",
  "n_ctx": 1024,
  "n_embd": 1024,
  "n_head": 16,
  "n_inner": null,
  "n_layer": 24,
  "n_positions": 1024,
  "n_special": 0,
  "vocab_size": 50257
})";

const char *const kPythia160m = R"({
  "_name_or_path": "EleutherAI/pythia-160m",
  "architectures": ["GPTNeoXForCausalLM"],
  "bos_token_id": 0,
  "eos_token_id": 0,
  "hidden_act": "gelu",
  "hidden_size": 768,
  "initializer_range": 0.02,
  "intermediate_size": 3072,
  "layer_norm_eps": 1e-05,
  "max_position_embeddings": 2048,
  "model_type": "gpt_neox",
  "num_attention_heads": 12,
  "num_hidden_layers": 12,
  "rotary_emb_base": 10000,
  "rotary_pct": 0.25,
  "tie_word_embeddings": false,
  "torch_dtype": "float16",
  "transformers_version": "4.24.0",
  "use_cache": true,
  "use_parallel_residual": true,
  "vocab_size": 50304
})";

// use_parallel_residual omitted (GPTNeoXConfig default: true) in one, switched off in the other.
const char *const kNeoXDefaults = R"({
  "model_type": "gpt_neox",
  "hidden_size": 512,
  "intermediate_size": 2048,
  "num_attention_heads": 8,
  "num_hidden_layers": 6,
  "vocab_size": 50304
})";
const char *const kNeoXSequential = R"({
  "model_type": "gpt_neox",
  "hidden_size": 512,
  "intermediate_size": 2048,
  "num_attention_heads": 8,
  "num_hidden_layers": 6,
  "vocab_size": 50304,
  "use_parallel_residual": false,
  "tie_word_embeddings": true
})";

// The shape of a Llama-style model; rows adjust the rest.
ModelConfig rotary(const char *name, int layers, std::int64_t dModel, int heads, int kvHeads, int headDim,
                   std::int64_t dFf, std::int64_t vocab, std::int64_t maxSeq)
{
    ModelConfig model;
    model.name = name;
    model.n_layers = layers;
    model.d_model = dModel;
    model.n_heads = heads;
    model.n_kv_heads = kvHeads;
    model.head_dim = headDim;
    model.d_ff = dFf;
    model.vocab_size = vocab;
    model.max_seq_len = maxSeq;
    model.norm = NormType::RMSNorm;
    model.norm_placement = NormPlacement::Pre;
    model.activation = Activation::SwiGLU;
    model.positional_encoding = PositionalEncoding::RoPE;
    return model;
}

ModelConfig gpt2(const char *name, int layers, std::int64_t dModel, int heads)
{
    ModelConfig model;
    model.name = name;
    model.n_layers = layers;
    model.d_model = dModel;
    model.n_heads = heads;
    model.n_kv_heads = heads;
    model.head_dim = static_cast<int>(dModel / heads);
    model.d_ff = 4 * dModel;
    model.vocab_size = 50257;
    model.max_seq_len = 1024;
    model.tied_embeddings = true;
    model.biases = BiasConfig{true, true, true, false};
    model.norm = NormType::LayerNorm;
    model.activation = Activation::GeLU;
    model.positional_encoding = PositionalEncoding::Learned;
    return model;
}

ModelConfig neox(const char *name, int layers, std::int64_t dModel, int heads, std::int64_t dFf, std::int64_t maxSeq)
{
    ModelConfig model;
    model.name = name;
    model.n_layers = layers;
    model.d_model = dModel;
    model.n_heads = heads;
    model.n_kv_heads = heads;
    model.head_dim = static_cast<int>(dModel / heads);
    model.d_ff = dFf;
    model.vocab_size = 50304;
    model.max_seq_len = maxSeq;
    model.biases = BiasConfig{true, true, true, false};
    model.norm = NormType::LayerNorm;
    model.activation = Activation::GeLU;
    model.positional_encoding = PositionalEncoding::RoPE;
    model.parallel_block = true;
    return model;
}

QString describe(const Problems &problems) { return QString::fromStdString(formatProblems(problems)); }

QString str(std::string_view text) { return QString::fromUtf8(text.data(), qsizetype(text.size())); }

}  // namespace

class TestHfImport : public QObject {
    Q_OBJECT

private slots:
    void importsPublishedConfigs_data();
    void importsPublishedConfigs();
    void reportsBadInput_data();
    void reportsBadInput();
    void unsupportedTypeNamesTheSupportedFamilies();
    void loadsFromFile();
    void missingFileIsAProblem();
    void importedConfigsMatchOfficialCounts_data();
    void importedConfigsMatchOfficialCounts();
    void everyImportedConfigOpensValid_data() { importsPublishedConfigs_data(); }
    void everyImportedConfigOpensValid();
    void namedAfterTheModelNotTheFamily();
};

void TestHfImport::importsPublishedConfigs_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<ModelConfig>("expected");

    QTest::addRow("Llama-2-7b") << QByteArray(kLlama2_7b)
                                << rotary("Llama 2 7B", 32, 4096, 32, 32, 128, 11008, 32000, 4096);
    QTest::addRow("Llama-3-8B") << QByteArray(kLlama3_8b)
                                << rotary("Llama 3 8B", 32, 4096, 32, 8, 128, 14336, 128256, 8192);
    {
        ModelConfig model = rotary("llama", 24, 2048, 16, 16, 128, 5504, 32000, 2048);
        model.biases = BiasConfig{true, true, true, false};
        QTest::addRow("llama defaults") << QByteArray(kLlamaMinimal) << model;
    }
    QTest::addRow("Mistral-7B-v0.1") << QByteArray(kMistral7b)
                                     << rotary("Mistral 7B v0.1", 32, 4096, 32, 8, 128, 14336, 32000, 32768);
    QTest::addRow("mistral by architectures") << QByteArray(kMistralByArchitecture)
                                              << rotary("mistral", 32, 4096, 32, 8, 128, 14336, 32768, 131072);
    {
        ModelConfig model = rotary("Mixtral 8x7B v0.1", 32, 4096, 32, 8, 128, 14336, 32000, 32768);
        model.moe.n_experts = 8;
        model.moe.top_k = 2;
        model.moe.expert_d_ff = 14336;
        QTest::addRow("Mixtral-8x7B-v0.1") << QByteArray(kMixtral8x7b) << model;
    }
    {
        ModelConfig model = rotary("Qwen2.5 7B", 28, 3584, 28, 4, 128, 18944, 152064, 131072);
        model.biases.qkv = true;
        QTest::addRow("Qwen2.5-7B") << QByteArray(kQwen25_7b) << model;
    }
    {
        ModelConfig model = rotary("qwen2", 24, 896, 14, 2, 64, 4864, 151936, 32768);
        model.biases.qkv = true;
        model.tied_embeddings = true;
        QTest::addRow("Qwen2.5-0.5B") << QByteArray(kQwen25_0_5b) << model;
    }
    {
        ModelConfig model = rotary("qwen2_moe", 24, 2048, 16, 16, 128, 5632, 151936, 8192);
        model.biases.qkv = true;
        model.moe.n_experts = 60;
        model.moe.top_k = 4;
        model.moe.n_shared_experts = 1;
        model.moe.shared_expert_gate = true;
        model.moe.expert_d_ff = 1408;
        model.moe.shared_expert_d_ff = 5632;
        QTest::addRow("Qwen1.5-MoE-A2.7B") << QByteArray(kQwen15MoeA27b) << model;
    }
    {
        ModelConfig model = rotary("qwen2_moe", 8, 1024, 8, 8, 128, 2816, 151936, 32768);
        model.biases.qkv = true;
        model.moe.n_experts = 16;
        model.moe.top_k = 2;
        model.moe.expert_d_ff = 512;
        model.moe.first_moe_layer = 3;
        model.moe.moe_layer_interval = 2;
        QTest::addRow("qwen2_moe sparse step") << QByteArray(kQwenMoeSparseStep) << model;
    }
    {
        ModelConfig model = rotary("Gemma 2 9B", 42, 3584, 16, 8, 256, 14336, 256000, 8192);
        model.tied_embeddings = true;
        model.activation = Activation::GeGLU;
        model.norm_placement = NormPlacement::Double;
        QTest::addRow("gemma-2-9b") << QByteArray(kGemma2_9b) << model;
    }
    {
        ModelConfig model = rotary("gemma-2-27b", 46, 4608, 32, 16, 128, 36864, 256000, 8192);
        model.tied_embeddings = true;
        model.activation = Activation::GeGLU;
        model.norm_placement = NormPlacement::Double;
        QTest::addRow("gemma-2-27b") << QByteArray(kGemma2_27b) << model;
    }
    QTest::addRow("gpt2") << QByteArray(kGpt2) << gpt2("GPT-2 small (124M)", 12, 768, 12);
    QTest::addRow("gpt2-medium") << QByteArray(kGpt2Medium) << gpt2("GPT-2 medium (355M)", 24, 1024, 16);
    QTest::addRow("pythia-160m") << QByteArray(kPythia160m)
                                 << neox("pythia-160m", 12, 768, 12, 3072, 2048);
    QTest::addRow("gpt_neox defaults") << QByteArray(kNeoXDefaults) << neox("gpt_neox", 6, 512, 8, 2048, 2048);
    {
        ModelConfig model = neox("gpt_neox", 6, 512, 8, 2048, 2048);
        model.parallel_block = false;
        model.tied_embeddings = true;
        QTest::addRow("gpt_neox sequential") << QByteArray(kNeoXSequential) << model;
    }
}

void TestHfImport::importsPublishedConfigs()
{
    QFETCH(QByteArray, json);
    QFETCH(ModelConfig, expected);

    const Result<ModelConfig> result = modelFromHuggingFaceConfig(json);
    QVERIFY2(result.ok(), qPrintable(describe(result.problems())));
    const ModelConfig &model = result.value();

    QCOMPARE(QString::fromStdString(model.name), QString::fromStdString(expected.name));
    QCOMPARE(model.n_layers, expected.n_layers);
    QCOMPARE(model.d_model, expected.d_model);
    QCOMPARE(model.n_heads, expected.n_heads);
    QCOMPARE(model.n_kv_heads, expected.n_kv_heads);
    QCOMPARE(model.head_dim, expected.head_dim);
    QCOMPARE(model.d_ff, expected.d_ff);
    QCOMPARE(model.vocab_size, expected.vocab_size);
    QCOMPARE(model.max_seq_len, expected.max_seq_len);
    QCOMPARE(model.tied_embeddings, expected.tied_embeddings);
    QCOMPARE(model.biases.qkv, expected.biases.qkv);
    QCOMPARE(model.biases.attn_output, expected.biases.attn_output);
    QCOMPARE(model.biases.mlp, expected.biases.mlp);
    QCOMPARE(model.biases.lm_head, expected.biases.lm_head);
    QCOMPARE(str(toString(model.norm)), str(toString(expected.norm)));
    QCOMPARE(str(toString(model.norm_placement)), str(toString(expected.norm_placement)));
    QCOMPARE(str(toString(model.activation)), str(toString(expected.activation)));
    QCOMPARE(str(toString(model.positional_encoding)), str(toString(expected.positional_encoding)));
    QCOMPARE(model.parallel_block, expected.parallel_block);
    QCOMPARE(model.moe.n_experts, expected.moe.n_experts);
    QCOMPARE(model.moe.top_k, expected.moe.top_k);
    QCOMPARE(model.moe.n_shared_experts, expected.moe.n_shared_experts);
    QCOMPARE(model.moe.shared_expert_gate, expected.moe.shared_expert_gate);
    QCOMPARE(model.moe.expert_d_ff, expected.moe.expert_d_ff);
    QCOMPARE(model.moe.shared_expert_d_ff, expected.moe.shared_expert_d_ff);
    QCOMPARE(model.moe.first_moe_layer, expected.moe.first_moe_layer);
    QCOMPARE(model.moe.moe_layer_interval, expected.moe.moe_layer_interval);
}

void TestHfImport::reportsBadInput_data()
{
    // Each expected problem as "field:rule"; the whole list must match, in any order.
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QStringList>("expected");

    QTest::addRow("unknown model_type") << QByteArray(R"({"model_type": "bert", "hidden_size": 768})")
                                        << QStringList{"model_type:unsupported"};
    QTest::addRow("model_type not a string") << QByteArray(R"({"model_type": 7})") << QStringList{"model_type:type"};
    QTest::addRow("no model_type or architectures") << QByteArray(R"({"hidden_size": 768})")
                                                    << QStringList{"model_type:required"};
    QTest::addRow("unknown architecture") << QByteArray(R"({"architectures": ["Qwen2VLForConditionalGeneration"]})")
                                          << QStringList{"architectures:unsupported"};
    QTest::addRow("invalid JSON") << QByteArray(R"({"model_type": "llama", "hidden_size": )")
                                  << QStringList{"json:syntax"};
    QTest::addRow("top level is an array") << QByteArray(R"([{"model_type": "llama"}])") << QStringList{"json:type"};
    QTest::addRow("missing hidden_size")
        << QByteArray(R"({"model_type": "llama", "intermediate_size": 11008, "num_attention_heads": 32,
                          "num_hidden_layers": 32, "vocab_size": 32000})")
        << QStringList{"hidden_size:required"};
    QTest::addRow("hidden_size as string")
        << QByteArray(R"({"model_type": "mistral", "hidden_size": "4096", "intermediate_size": 14336,
                          "num_attention_heads": 32, "num_hidden_layers": 32, "vocab_size": 32000})")
        << QStringList{"hidden_size:type"};
    QTest::addRow("all problems at once")
        << QByteArray(R"({"model_type": "qwen2", "hidden_size": 3584, "intermediate_size": 18944.5,
                          "num_attention_heads": 28, "tie_word_embeddings": "yes"})")
        << QStringList{"num_hidden_layers:required", "vocab_size:required", "intermediate_size:type",
                       "tie_word_embeddings:type"};
    QTest::addRow("non-positive size")
        << QByteArray(R"({"model_type": "gpt_neox", "hidden_size": -768, "intermediate_size": 3072,
                          "num_attention_heads": 12, "num_hidden_layers": 0, "vocab_size": 50304})")
        << QStringList{"hidden_size:positive", "num_hidden_layers:positive"};
    QTest::addRow("gated relu")
        << QByteArray(R"({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008, "hidden_act": "relu",
                          "num_attention_heads": 32, "num_hidden_layers": 32, "vocab_size": 32000})")
        << QStringList{"hidden_act:unsupported"};
    QTest::addRow("kv heads do not divide heads")
        << QByteArray(R"({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008,
                          "num_attention_heads": 32, "num_key_value_heads": 5, "num_hidden_layers": 32,
                          "vocab_size": 32000})")
        << QStringList{"num_key_value_heads:divisible"};
    QTest::addRow("heads do not divide hidden size")
        << QByteArray(R"({"model_type": "gpt2", "n_embd": 770, "n_head": 12, "n_layer": 12, "vocab_size": 50257})")
        << QStringList{"n_head:divisible"};
    QTest::addRow("gpt2 n_inner wrong type")
        << QByteArray(R"({"model_type": "gpt2", "n_embd": 768, "n_head": 12, "n_layer": 12, "n_inner": "3072",
                          "vocab_size": 50257})")
        << QStringList{"n_inner:type"};
    QTest::addRow("more experts per token than experts")
        << QByteArray(R"({"model_type": "mixtral", "hidden_size": 4096, "intermediate_size": 14336,
                          "num_attention_heads": 32, "num_hidden_layers": 32, "vocab_size": 32000,
                          "num_local_experts": 4, "num_experts_per_tok": 6})")
        << QStringList{"num_experts_per_tok:range"};
    QTest::addRow("scattered mlp_only_layers")
        << QByteArray(R"({"model_type": "qwen2_moe", "hidden_size": 2048, "num_attention_heads": 16,
                          "num_hidden_layers": 24, "vocab_size": 151936, "mlp_only_layers": [3, 7]})")
        << QStringList{"mlp_only_layers:unsupported"};
}

void TestHfImport::reportsBadInput()
{
    QFETCH(QByteArray, json);
    QFETCH(QStringList, expected);

    const Result<ModelConfig> result = modelFromHuggingFaceConfig(json);
    QVERIFY(!result.ok());
    QStringList actual;
    for (const Problem &problem : result.problems()) {
        QVERIFY2(!problem.message.empty(), qPrintable(QString::fromStdString(problem.field)));
        actual << QString::fromStdString(problem.field + ":" + problem.rule);
    }
    actual.sort();
    expected.sort();
    QCOMPARE(actual, expected);
}

void TestHfImport::unsupportedTypeNamesTheSupportedFamilies()
{
    const Result<ModelConfig> result = modelFromHuggingFaceConfig(R"({"model_type": "falcon"})");
    QCOMPARE(result.problems().size(), std::size_t(1));
    const QString message = QString::fromStdString(result.problems().front().message);
    QVERIFY2(message.contains("falcon"), qPrintable(message));
    for (const char *family : {"llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "gemma2", "gpt2", "gpt_neox"})
        QVERIFY2(message.contains(QLatin1String(family)), qPrintable(message));

    const Result<ModelConfig> broken = modelFromHuggingFaceConfig(R"({"model_type": "llama",)");
    QCOMPARE(broken.problems().size(), std::size_t(1));
    QVERIFY2(QString::fromStdString(broken.problems().front().message).contains("offset"),
             qPrintable(describe(broken.problems())));
}

void TestHfImport::loadsFromFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("config.json");
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(kPythia160m);
    }
    const Result<ModelConfig> result = loadHuggingFaceConfigFile(path.toStdString());
    QVERIFY2(result.ok(), qPrintable(describe(result.problems())));
    QCOMPARE(result->n_layers, 12);
    QCOMPARE(result->d_model, std::int64_t(768));
    QVERIFY(result->parallel_block);

    const QString brokenPath = dir.filePath("broken.json");
    {
        QFile file(brokenPath);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"model_type\": ");
    }
    const Result<ModelConfig> broken = loadHuggingFaceConfigFile(brokenPath.toStdString());
    QVERIFY(!broken.ok());
    QCOMPARE(QString::fromStdString(broken.problems().front().field), QString("json"));
    QVERIFY(QString::fromStdString(broken.problems().front().message).contains(brokenPath));
}

void TestHfImport::missingFileIsAProblem()
{
    const Result<ModelConfig> result = loadHuggingFaceConfigFile("/nonexistent/dir/config.json");
    QVERIFY(!result.ok());
    QCOMPARE(result.problems().size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(result.problems().front().field), QString("file"));
    QVERIFY(QString::fromStdString(result.problems().front().message).contains("/nonexistent/dir/config.json"));
}

QTEST_GUILESS_MAIN(TestHfImport)
// Importing a published config.json and counting it reproduces the publisher's exact count.
void TestHfImport::importedConfigsMatchOfficialCounts_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<qint64>("parameters");
    QTest::addRow("Qwen1.5-MoE-A2.7B (model card: 14.3B, shared-expert gate included)")
        << QByteArray(kQwen15MoeA27b) << qint64(14'315'784'192);
    QTest::addRow("Llama-2-7b-hf (6,738,415,616)") << QByteArray(kLlama2_7b) << qint64(6'738'415'616);
}

void TestHfImport::importedConfigsMatchOfficialCounts()
{
    QFETCH(QByteArray, json);
    QFETCH(qint64, parameters);
    const lse::Result<lse::ModelConfig> model = lse::modelFromHuggingFaceConfig(json);
    QVERIFY(model.ok());
    QCOMPARE(lse::countParameters(*model).total, parameters);
}

// Every config the importer accepts gives a valid scenario on the course example's cluster.
void TestHfImport::everyImportedConfigOpensValid()
{
    QFETCH(QByteArray, json);
    const Result<ModelConfig> model = modelFromHuggingFaceConfig(json);
    QVERIFY(model.ok());
    const Adjusted adjusted = adaptScenarioToModel(defaultScenario(), *model);
    QVERIFY2(validate(adjusted.scenario).empty(),
             qPrintable(describe(validate(adjusted.scenario)) + QString::fromStdString(joinAdjustments(adjusted.adjustments))));
}

void TestHfImport::namedAfterTheModelNotTheFamily()
{
    // A GPT-3-shaped config says model_type "gpt2"; without _name_or_path its folder names it.
    const QByteArray gpt3 = R"({"model_type": "gpt2", "n_embd": 12288, "n_head": 96, "n_layer": 96,
                                "n_positions": 2048, "vocab_size": 50257})";
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QDir(dir.path()).mkpath("gpt3-175b"));
    QVERIFY(QDir(dir.path()).mkpath("models--openai-community--gpt2-large/snapshots/0123abc"));
    const auto write = [](const QString &path, const QByteArray &bytes) {
        QFile file(path);
        return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
    };
    const QString inFolder = dir.filePath("gpt3-175b/config.json");
    QVERIFY(write(inFolder, gpt3));
    const Result<ModelConfig> byFolder = loadHuggingFaceConfigFile(inFolder.toStdString());
    QVERIFY(byFolder.ok());
    // ... unless it equals a preset exactly: then it is that preset.
    QCOMPARE(QString::fromStdString(byFolder->name), QString::fromStdString(findModelPreset("gpt3-175b")->model.name));

    // The Hub cache folder is a commit hash; the model's name is two levels up.
    const QByteArray custom = R"({"model_type": "gpt2", "n_embd": 640, "n_head": 10, "n_layer": 7, "vocab_size": 50257})";
    QVERIFY(write(inFolder, custom));
    const Result<ModelConfig> customByFolder = loadHuggingFaceConfigFile(inFolder.toStdString());
    QVERIFY(customByFolder.ok());
    QCOMPARE(QString::fromStdString(customByFolder->name), QString("gpt3-175b"));
    const QString inCache = dir.filePath("models--openai-community--gpt2-large/snapshots/0123abc/config.json");
    QVERIFY(write(inCache, custom));
    const Result<ModelConfig> byCache = loadHuggingFaceConfigFile(inCache.toStdString());
    QVERIFY(byCache.ok());
    QCOMPARE(QString::fromStdString(byCache->name), QString("gpt2-large"));

    // A file named after its model in a folder of configs ("hf/") keeps the file's name; the folder
    // names nothing (issue 28 item 20: "hf/qwen2.5-7b.json" was called "hf").
    QVERIFY(QDir(dir.path()).mkpath("hf"));
    const QString inCollection = dir.filePath("hf/tiny-gpt.v2.json");
    QVERIFY(write(inCollection, custom));
    const Result<ModelConfig> byStem = loadHuggingFaceConfigFile(inCollection.toStdString());
    QVERIFY(byStem.ok());
    QCOMPARE(QString::fromStdString(byStem->name), QString("tiny-gpt.v2"));
    // In a model folder (its tokenizer or weights beside the config) the folder is the model.
    QVERIFY(QDir(dir.path()).mkpath("my-model"));
    const QString inModelFolder = dir.filePath("my-model/tiny-gpt.json");
    QVERIFY(write(inModelFolder, custom));
    QVERIFY(write(dir.filePath("my-model/model.safetensors"), QByteArray("x")));
    const Result<ModelConfig> byModelFolder = loadHuggingFaceConfigFile(inModelFolder.toStdString());
    QVERIFY(byModelFolder.ok());
    QCOMPARE(QString::fromStdString(byModelFolder->name), QString("my-model"));

    // _name_or_path wins over the folder; only its last part is the name.
    QByteArray named = custom;
    named.insert(1, R"("_name_or_path": "acme/tiny-gpt/", )");
    QVERIFY(write(inFolder, named));
    const Result<ModelConfig> byPath = loadHuggingFaceConfigFile(inFolder.toStdString());
    QVERIFY(byPath.ok());
    QCOMPARE(QString::fromStdString(byPath->name), QString("tiny-gpt"));
}

#include "test_hf_import.moc"
