// SPDX-License-Identifier: GPL-3.0-or-later
// The tiny reference-transformer run the trainer tests share: a two-layer model a repetitive corpus
// teaches in a few steps.
#pragma once

#include "reference/trainer.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lse::test {

// Two layers, d_model 32, 4 heads of 8, vocabulary 16, context 16; batch 4, 30 steps, learning rate
// 1e-2 → 1e-3 after 3 warm-up steps, no evaluation, seed 7.
inline reference::TrainConfig tinyTrainConfig(const std::string &data_path)
{
    reference::TrainConfig c;
    c.model.name = "test-tiny";
    c.model.n_layers = 2;
    c.model.d_model = 32;
    c.model.n_heads = 4;
    c.model.n_kv_heads = 4;
    c.model.head_dim = 8;
    c.model.d_ff = 64;
    c.model.vocab_size = 16;
    c.model.max_seq_len = 16;
    c.data_path = data_path;
    c.batch_size = 4;
    c.steps = 30;
    c.lr_max = 1e-2;
    c.lr_min = 1e-3;
    c.warmup_steps = 3;
    c.eval_every = 0;
    c.eval_batches = 2;
    c.seed = 7;
    return c;
}

// A corpus a tiny model learns quickly: the ids 0..11 cycling, with every 5th cycle reversed.
inline std::vector<std::uint32_t> repetitiveCorpus(std::size_t n)
{
    std::vector<std::uint32_t> ids;
    for (std::size_t cycle = 0; ids.size() < n; ++cycle)
        for (std::uint32_t i = 0; i < 12 && ids.size() < n; ++i)
            ids.push_back(cycle % 5 == 4 ? 11 - i : i);
    return ids;
}

}  // namespace lse::test
