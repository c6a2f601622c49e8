// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Model and scenario builders shared by the core tests.

#include "hardware/hardware_catalog.h"
#include "scenario/model_config.h"
#include "scenario/scenario.h"

namespace lse::test {

// The GPT architecture the Megatron papers analyse: LayerNorm, GeLU MLP with d_ff = 4h, learned
// positions, biases, tied embeddings.
inline ModelConfig gptModel(int layers, std::int64_t hidden, int heads, std::int64_t vocab, std::int64_t context)
{
    ModelConfig model;
    model.name = "gpt";
    model.n_layers = layers;
    model.d_model = hidden;
    model.n_heads = heads;
    model.n_kv_heads = heads;
    model.head_dim = int(hidden / heads);
    model.d_ff = 4 * hidden;
    model.vocab_size = vocab;
    model.max_seq_len = context;
    model.tied_embeddings = true;
    model.biases = {true, true, true, false};
    model.norm = NormType::LayerNorm;
    model.activation = Activation::GeLU;
    model.positional_encoding = PositionalEncoding::Learned;
    return model;
}

// A scenario around `model` on `gpus` H100 with plain data parallelism.
inline Scenario scenarioFor(const ModelConfig &model, int gpus)
{
    Scenario scenario;
    scenario.model = model;
    scenario.cluster.accelerator = *builtinHardwareCatalog().find("h100-sxm");
    scenario.cluster.gpus = gpus;
    scenario.cluster.gpus_per_node = gpus < 8 ? gpus : 8;
    scenario.training.tokens = 1'000'000'000;
    scenario.training.seq_len = model.max_seq_len;
    scenario.training.global_batch = gpus;
    scenario.training.micro_batch = 1;
    scenario.training.parallel.dp = gpus;
    return scenario;
}

}  // namespace lse::test
