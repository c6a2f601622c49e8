// SPDX-License-Identifier: GPL-3.0-or-later
#include "distributed/zero_shards.h"

#include <algorithm>

namespace lse::distributed {

std::vector<ParamSpan<float>> shardSpans(reference::Model &model, const ShardRange &shard)
{
    std::vector<ParamSpan<float>> spans;
    const float *arena = model.parameterData();
    const std::int64_t shard_end = shard.offset + shard.count;
    for (reference::NamedTensor<float> &tensor : model.parameters()) {
        const std::int64_t begin = tensor.data - arena;
        const std::int64_t end = begin + tensor.size();
        const std::int64_t from = std::max(begin, shard.offset), to = std::min(end, shard_end);
        if (from < to)
            spans.push_back(ParamSpan<float>{tensor.data + (from - begin), tensor.grad + (from - begin),
                                             std::size_t(to - from), true});
    }
    return spans;
}

std::vector<ParamSpan<float>> wholeSpans(reference::Model &model)
{
    return shardSpans(model, ShardRange{0, model.parameterCount()});
}

}  // namespace lse::distributed
