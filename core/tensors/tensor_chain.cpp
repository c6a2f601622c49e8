// SPDX-License-Identifier: GPL-3.0-or-later
#include "tensors/tensor_chain.h"

#include <numeric>

namespace lse::tensors {

namespace {

// A copy writes the view's elements in row-major logical order into a fresh storage.
std::vector<std::int64_t> copiedValues(const TensorView &source, const std::vector<std::int64_t> &source_values)
{
    std::vector<std::int64_t> values;
    if (source_values.empty() || source.numel() > kMaxTrackedStorage)
        return values;
    for (std::int64_t index : source.storageIndices())
        values.push_back(source_values[static_cast<std::size_t>(index)]);
    return values;
}

}  // namespace

TensorChain runTensorChain(const TensorView &start, const std::vector<TensorOp> &ops, std::int64_t dtype_bytes)
{
    TensorChain chain;
    chain.start = start;
    if (start.storage_size <= kMaxTrackedStorage) {
        chain.start_values.resize(static_cast<std::size_t>(start.storage_size));
        std::iota(chain.start_values.begin(), chain.start_values.end(), std::int64_t{0});
    }
    TensorView current = start;
    std::vector<std::int64_t> current_values = chain.start_values;
    int next_storage_id = start.storage_id + 1;
    for (const TensorOp &op : ops) {
        ChainStep step;
        step.op = op.text();
        const Result<OpOutcome> outcome = applyTensorOp(current, op, next_storage_id);
        if (!outcome) {
            step.error = outcome.problems().front().message;
            chain.steps.push_back(std::move(step));
            break;
        }
        if (outcome->copied) {
            ++next_storage_id;
            current_values = copiedValues(current, current_values);
            step.copied = true;
            step.copy_bytes_read = current.numel() * dtype_bytes;
            step.copy_bytes_written = outcome->view.numel() * dtype_bytes;
        }
        current = outcome->view;
        step.view = current;
        step.contiguous = current.isContiguous();
        step.shares_storage = current.sharesStorageWith(start);
        step.storage_values = current_values;
        chain.steps.push_back(std::move(step));
    }
    return chain;
}

}  // namespace lse::tensors
