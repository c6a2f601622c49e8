// SPDX-License-Identifier: GPL-3.0-or-later
#include "distributed/zero3_parameters.h"

#include "distributed/released_pages.h"
#include "distributed/zero_shards.h"

#include <algorithm>
#include <limits>

namespace lse::distributed {

using reference::Model;

std::vector<Zero3Group> zero3Groups(const Model &model, int ranks, int rank)
{
    std::vector<Zero3Group> groups;
    for (const auto &[offset, count] : model.parameterGroups()) {
        const ShardRange piece = shardRange(count, ranks, rank);
        groups.push_back(Zero3Group{ShardRange{offset, count}, ShardRange{offset + piece.offset, piece.count}});
    }
    return groups;
}

std::vector<ParamSpan<float>> zero3ShardSpans(Model &model, const std::vector<Zero3Group> &groups)
{
    std::vector<ParamSpan<float>> spans;
    for (const Zero3Group &group : groups) {
        const std::vector<ParamSpan<float>> piece = shardSpans(model, group.own);
        spans.insert(spans.end(), piece.begin(), piece.end());
    }
    return spans;
}

Zero3Parameters::Zero3Parameters(Model &model, Communicator &communicator, int ranks, int rank,
                                 std::function<void(const char *)> note)
    : model_(model), communicator_(communicator), note_(std::move(note)), groups_(zero3Groups(model, ranks, rank))
{
    for (const Zero3Group &group : groups_)
        shard_elements_ += group.own.count;
}

void Zero3Parameters::attach()
{
    model_.setParameterUseCallback([this](int group, Model::ParameterUse use) { onUse(group, use); });
}

void Zero3Parameters::detach() { model_.setParameterUseCallback({}); }

namespace {

// The whole pages of [from, to) go back to the kernel (a later read sees zeros); the partial pages
// at the ends, which the arena's neighbours share, get NaN, so a read of a parameter that was not
// gathered poisons the loss or, inside a dropped page, reads zero: either way the step no longer
// matches one process (tested).
void releaseRange(float *from, float *to)
{
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const DroppedRange dropped = dropWholePages(from, to - from);
    if (dropped.begin == dropped.end) {
        std::fill(from, to, nan);
        return;
    }
    std::fill(from, dropped.begin, nan);
    std::fill(dropped.end, to, nan);
}

}  // namespace

void Zero3Parameters::release(const Zero3Group &group)
{
    float *data = model_.parameterData();
    releaseRange(data + group.whole.offset, data + group.own.offset);
    releaseRange(data + group.own.offset + group.own.count, data + group.whole.offset + group.whole.count);
}

void Zero3Parameters::releaseGradients(const Zero3Group &group)
{
    // Reduced into the rank's piece; the rest is not read again before the group's next backward,
    // which zeroes it first (Model::setParameterUseCallback).
    float *grads = model_.gradientData();
    dropWholePages(grads + group.whole.offset, group.own.offset - group.whole.offset);
    const std::int64_t end = group.own.offset + group.own.count;
    dropWholePages(grads + end, group.whole.offset + group.whole.count - end);
}

void Zero3Parameters::gatherAll()
{
    for (const Zero3Group &group : groups_)
        communicator_.allGather(model_.parameterData() + group.whole.offset, group.whole.count);
}

void Zero3Parameters::releaseAll()
{
    for (const Zero3Group &group : groups_) {
        release(group);
        releaseGradients(group);
    }
}

void Zero3Parameters::beginStep(std::int64_t optimizer_elements)
{
    optimizer_elements_ = optimizer_elements;
    gathered_ = full_gradients_ = 0;
    peaks_ = Zero3MemoryPeaks{};
    account();
}

void Zero3Parameters::account()
{
    peaks_.gathered_parameters = std::max(peaks_.gathered_parameters, gathered_);
    peaks_.full_gradients = std::max(peaks_.full_gradients, full_gradients_);
    // Shard parameters and shard gradients (ZeRO-3 keeps both between steps), the optimizer's
    // state, and what is held beyond the shard at this moment.
    peaks_.model_state = std::max(peaks_.model_state,
                                  2 * shard_elements_ + optimizer_elements_ + gathered_ + full_gradients_);
    // What the kernel really holds of the two arenas now (the optimizer's state is the shard's alone).
    const std::int64_t bytes = model_.parameterCount() * std::int64_t(sizeof(float));
    const std::int64_t params = residentBytes(model_.parameterData(), bytes);
    const std::int64_t grads = residentBytes(model_.gradientData(), bytes);
    if (params >= 0 && grads >= 0)
        peaks_.resident_arena_bytes = std::max(peaks_.resident_arena_bytes, params + grads);
}

void Zero3Parameters::onUse(int index, Model::ParameterUse use)
{
    const Zero3Group &group = groups_[std::size_t(index)];
    const std::int64_t beyond = group.whole.count - group.own.count;
    float *params = model_.parameterData() + group.whole.offset;
    switch (use) {
    case Model::ParameterUse::BeforeForward:
    case Model::ParameterUse::BeforeBackward:
        note_(use == Model::ParameterUse::BeforeForward ? "zero3_gather_forward" : "zero3_gather_backward");
        communicator_.allGather(params, group.whole.count);
        gathered_ += beyond;
        if (use == Model::ParameterUse::BeforeBackward)
            full_gradients_ += beyond;  // backward writes the group's whole gradient
        account();
        break;
    case Model::ParameterUse::AfterForward:
        release(group);
        gathered_ -= beyond;
        break;
    case Model::ParameterUse::AfterBackward:
        // This group's gradients are final: sum them over the ranks into each rank's piece.
        note_("zero3_reduce_scatter");
        communicator_.reduceScatterSum(model_.gradientData() + group.whole.offset, group.whole.count);
        account();  // the group's whole gradient and parameters are still held here
        release(group);
        releaseGradients(group);
        gathered_ -= beyond;
        full_gradients_ -= beyond;
        break;
    }
}

}  // namespace lse::distributed
