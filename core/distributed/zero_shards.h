// SPDX-License-Identifier: GPL-3.0-or-later
// ZeRO-1/2 (Rajbhandari et al., "ZeRO", SC 2020, §5.1–5.2): each rank updates only its shard of
// the flat parameter arena, so its optimizer holds moments for that shard alone. The shard is a
// range of the arena and may cut through tensors; AdamW works element by element, so updating
// the pieces gives the same numbers as updating whole tensors.
#pragma once

#include "distributed/communicator.h"
#include "reference/model.h"
#include "reference/optimizer.h"

#include <vector>

namespace lse::distributed {

// The pieces of the model's tensors that lie inside `shard` (arena elements), in arena order, as
// optimizer spans over the parameter and gradient arenas.
std::vector<ParamSpan<float>> shardSpans(reference::Model &model, const ShardRange &shard);

// Every tensor whole: what data-parallel training without sharding updates.
std::vector<ParamSpan<float>> wholeSpans(reference::Model &model);

}  // namespace lse::distributed
