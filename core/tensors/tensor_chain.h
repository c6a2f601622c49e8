// SPDX-License-Identifier: GPL-3.0-or-later
// A chain of tensor operations applied one after another from a starting view, as the Tensors page and
// `llm-explorer-cli tensor` show it: after each op the view, whether it still shares the original
// storage, whether it copied and the copy's memory traffic. The chain stops at the first impossible op,
// so an error is always the last step.
#pragma once

#include "tensors/tensor_op.h"

#include <optional>
#include <string>
#include <vector>

namespace lse::tensors {

// Storages up to this many elements have their contents tracked (for drawing); larger ones do not.
inline constexpr std::int64_t kMaxTrackedStorage = std::int64_t{1} << 16;

struct ChainStep {
    std::string op;                   // canonical text, e.g. "view(6, 4)"
    std::optional<TensorView> view;   // the result; absent when the op failed
    bool contiguous = false;
    bool shares_storage = false;      // with the starting tensor's storage
    bool copied = false;              // this op allocated a new storage and copied into it
    std::int64_t copy_bytes_read = 0;     // a copy reads every element once through the old strides …
    std::int64_t copy_bytes_written = 0;  // … and writes it once, contiguously
    std::string error;                // why the op is impossible; empty when it succeeded
    // The contents of the view's storage: each element holds the index, in the original storage, of the
    // element it came from (the original storage holds 0, 1, 2, …). Empty when not tracked.
    std::vector<std::int64_t> storage_values;

    bool ok() const { return error.empty(); }
};

struct TensorChain {
    TensorView start;
    std::vector<std::int64_t> start_values;  // 0 … storage_size-1, empty when not tracked
    std::vector<ChainStep> steps;
};

// Applies `ops` in order; a copy's traffic counts `dtype_bytes` per element read and written.
TensorChain runTensorChain(const TensorView &start, const std::vector<TensorOp> &ops, std::int64_t dtype_bytes);

}  // namespace lse::tensors
