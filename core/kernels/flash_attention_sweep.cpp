// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernels/flash_attention_sweep.h"

#include <string>

namespace lse::kernels {

namespace {

Result<std::vector<AttentionIoPoint>> sweep(const AttentionConfig &base, const std::vector<std::int64_t> &values,
                                            std::int64_t AttentionConfig::*field, const char *name)
{
    if (values.empty() || values.size() > kMaxAttentionSweepPoints)
        return Result<std::vector<AttentionIoPoint>>::failure(
            "values", "points",
            "values: a sweep takes 1 to " + std::to_string(kMaxAttentionSweepPoints) + " points, not "
                + std::to_string(values.size()));
    std::vector<AttentionIoPoint> points;
    points.reserve(values.size());
    for (std::size_t index = 0; index < values.size(); ++index) {
        AttentionConfig config = base;
        config.*field = values[index];
        Result<AttentionIo> io = attentionIo(config);
        if (!io) {
            Problems named = io.problems();
            for (Problem &problem : named)
                problem.message = std::string(name) + "[" + std::to_string(index) + "]: " + problem.message;
            return named;
        }
        points.push_back(AttentionIoPoint{config.sequence_length, config.sram_bytes, std::move(io.value())});
    }
    return points;
}

}  // namespace

Result<std::vector<AttentionIoPoint>> attentionIoOverSequenceLength(const AttentionConfig &base,
                                                                    const std::vector<std::int64_t> &values)
{
    return sweep(base, values, &AttentionConfig::sequence_length, "sequence_length");
}

Result<std::vector<AttentionIoPoint>> attentionIoOverSram(const AttentionConfig &base, const std::vector<std::int64_t> &values)
{
    return sweep(base, values, &AttentionConfig::sram_bytes, "sram_bytes");
}

std::vector<std::int64_t> doublingSeries(std::int64_t first, std::int64_t last)
{
    std::vector<std::int64_t> values;
    if (first < 1)
        return values;
    for (std::int64_t value = first; value <= last && values.size() < kMaxAttentionSweepPoints; value *= 2) {
        values.push_back(value);
        if (value > last / 2)
            break;
    }
    return values;
}

}  // namespace lse::kernels
