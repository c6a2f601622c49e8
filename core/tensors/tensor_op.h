// SPDX-License-Identifier: GPL-3.0-or-later
// One tensor operation as a user writes it ("transpose(0,1)", "view(-1)", ".T") and what it does to a
// strided view, with PyTorch's semantics (negative dims wrap, -1 infers a size in view/reshape and keeps
// a size in expand).
#pragma once

#include "tensors/tensor_view.h"

#include <string>
#include <vector>

namespace lse::tensors {

enum class OpKind {
    Transpose,    // transpose(dim0, dim1)
    Permute,      // permute(d0, d1, ...)
    Narrow,       // narrow(dim, start, length)
    Slice,        // slice(dim, start[, stop[, step]]) = x[..., start:stop:step, ...]
    Expand,       // expand(s0, s1, ...); -1 keeps a size; broadcast dimensions get stride 0
    Unsqueeze,    // unsqueeze(dim)
    Squeeze,      // squeeze() every size-1 dimension, squeeze(dim) one
    View,         // view(s0, ...): never copies; fails when the strides cannot express the shape
    Reshape,      // reshape(s0, ...): a view when one exists, else a contiguous copy
    Flatten,      // flatten([start_dim[, end_dim]]) = reshape merging start_dim..end_dim
    Contiguous,   // contiguous(): a copy only when the view is not contiguous
    T,            // t(): transpose of a tensor of at most 2 dimensions
    ReverseDims,  // .T: all dimensions reversed
};

struct TensorOp {
    OpKind kind = OpKind::View;
    Sizes args;
    // Canonical text: "transpose(0, 1)", ".T".
    std::string text() const;
};

// The op names the parser accepts, in a useful order for completion lists ("transpose", "permute", …, ".T").
const std::vector<std::string> &tensorOpNames();
// A usage line per op name: "transpose(dim0, dim1)".
std::string tensorOpSignature(const std::string &name);

// Parses "name(a, b, …)" (an optional leading '.' and spaces allowed) or ".T". A problem (field "op")
// names the op and the argument when the text cannot be read: unknown name, a non-integer argument, or
// the wrong number of arguments.
Result<TensorOp> parseTensorOp(const std::string &text);

// What an operation produced: a view of the input's storage, or (copied) a new contiguous storage.
struct OpOutcome {
    TensorView view;
    bool copied = false;
};

// Applies `op`; a copy gets storage id `copy_storage_id`. Problems (field = the op's name) say why the op
// is impossible on this view: a dimension out of range, sizes that do not fit, a view that needs to merge
// dimensions that are not contiguous with each other.
Result<OpOutcome> applyTensorOp(const TensorView &input, const TensorOp &op, int copy_storage_id);

}  // namespace lse::tensors
