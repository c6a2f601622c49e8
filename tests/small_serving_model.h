// SPDX-License-Identifier: GPL-3.0-or-later
// The small model the serving tests compute by hand (test_inference, test_quantisation_savings):
// 2 layers, d_model 64, 4 query heads and 2 KV heads of 16, SwiGLU d_ff 128, vocabulary 100,
// RMSNorm, untied embeddings, no biases.
#pragma once

#include "scenario/model_config.h"

namespace lse::test {

inline ModelConfig smallServingModel()
{
    ModelConfig model;
    model.name = "small";
    model.n_layers = 2;
    model.d_model = 64;
    model.n_heads = 4;
    model.n_kv_heads = 2;
    model.head_dim = 16;
    model.d_ff = 128;
    model.vocab_size = 100;
    model.max_seq_len = 4096;
    model.norm = NormType::RMSNorm;
    model.activation = Activation::SwiGLU;
    model.positional_encoding = PositionalEncoding::RoPE;
    return model;
}

}  // namespace lse::test
