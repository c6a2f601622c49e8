// SPDX-License-Identifier: GPL-3.0-or-later
// What each op does to shape, strides and offset — PyTorch's semantics (aten/src/ATen/native/TensorShape.cpp).
#include "tensors/tensor_op.h"
#include "tensors/view_rule.h"

#include <algorithm>
#include <utility>

namespace lse::tensors {

namespace {

using Outcome = Result<OpOutcome>;

std::string opName(const TensorOp &op)
{
    const std::string text = op.text();
    return text.substr(0, text.find('('));
}

Outcome failure(const TensorOp &op, std::string rule, const std::string &message)
{
    return Outcome::failure(opName(op), std::move(rule), op.text() + ": " + message);
}

Outcome viewOf(TensorView view)
{
    return OpOutcome{std::move(view), false};
}

// PyTorch's maybe_wrap_dim: dims in [-rank, rank-1] (a 0-d tensor accepts -1 and 0); negative ones
// count from the end. Writes the wrapped dim or returns the error text.
bool wrapDim(std::int64_t dim, int rank, const char *argument, std::int64_t &wrapped, std::string &error)
{
    const int range = std::max(rank, 1);
    if (dim < -range || dim >= range) {
        error = std::string(argument) + " = " + std::to_string(dim) + " is out of range for a " + std::to_string(rank)
            + "-dimensional tensor (expected " + std::to_string(-range) + " to " + std::to_string(range - 1) + ")";
        return false;
    }
    wrapped = dim < 0 ? dim + range : dim;
    return true;
}

TensorView copyOf(const TensorView &input, const Sizes &shape, int storage_id)
{
    TensorView copy;
    copy.shape = shape;
    copy.strides = contiguousStrides(shape);
    copy.offset = 0;
    copy.storage_id = storage_id;
    copy.storage_size = input.numel();
    return copy;
}

Outcome transpose(const TensorView &input, const TensorOp &op, std::int64_t a, std::int64_t b)
{
    std::string error;
    if (!wrapDim(a, input.dims(), "dim0", a, error) || !wrapDim(b, input.dims(), "dim1", b, error))
        return failure(op, "dim", error);
    TensorView view = input;
    if (input.dims() > 0) {
        std::swap(view.shape[a], view.shape[b]);
        std::swap(view.strides[a], view.strides[b]);
    }
    return viewOf(view);
}

Outcome permute(const TensorView &input, const TensorOp &op)
{
    if (static_cast<int>(op.args.size()) != input.dims())
        return failure(op, "dims", "permute needs one dim per dimension (" + std::to_string(input.dims()) + "), got "
                                       + std::to_string(op.args.size()));
    TensorView view = input;
    std::vector<bool> seen(op.args.size(), false);
    for (std::size_t i = 0; i < op.args.size(); ++i) {
        std::int64_t dim = 0;
        std::string error;
        if (!wrapDim(op.args[i], input.dims(), ("dim " + std::to_string(i)).c_str(), dim, error))
            return failure(op, "dim", error);
        if (seen[dim])
            return failure(op, "repeated", "dimension " + std::to_string(dim) + " appears twice; permute needs each once");
        seen[dim] = true;
        view.shape[i] = input.shape[dim];
        view.strides[i] = input.strides[dim];
    }
    return viewOf(view);
}

Outcome slice(const TensorView &input, const TensorOp &op, std::int64_t dim, std::int64_t start, std::int64_t stop,
              std::int64_t step, bool python_clamping)
{
    std::string error;
    if (input.dims() == 0)
        return failure(op, "dims", "a 0-dimensional tensor cannot be sliced");
    if (!wrapDim(dim, input.dims(), "dim", dim, error))
        return failure(op, "dim", error);
    if (step <= 0)
        return failure(op, "step", "step = " + std::to_string(step) + " must be positive (PyTorch has no negative strides)");
    const std::int64_t size = input.shape[dim];
    if (python_clamping) {
        // Python slice bounds: negative counts from the end, then clamped to [0, size].
        if (start < 0)
            start += size;
        if (stop < 0)
            stop += size;
        start = std::clamp<std::int64_t>(start, 0, size);
        stop = std::clamp<std::int64_t>(stop, start, size);
    }
    TensorView view = input;
    const std::int64_t length = (stop - start + step - 1) / step;
    std::int64_t stride = 0;
    if (__builtin_mul_overflow(input.strides[dim], step, &stride) || stride > kMaxStorage)
        return failure(op, "step", "step = " + std::to_string(step) + " makes the stride larger than 2^41");
    view.offset += start * input.strides[dim];
    view.shape[dim] = length;
    view.strides[dim] = stride;
    return viewOf(view);
}

Outcome narrow(const TensorView &input, const TensorOp &op)
{
    std::int64_t dim = op.args[0];
    std::string error;
    if (input.dims() == 0)
        return failure(op, "dims", "a 0-dimensional tensor cannot be narrowed");
    if (!wrapDim(dim, input.dims(), "dim", dim, error))
        return failure(op, "dim", error);
    const std::int64_t size = input.shape[dim];
    std::int64_t start = op.args[1];
    const std::int64_t length = op.args[2];
    if (start < -size || start > size)
        return failure(op, "start", "start = " + std::to_string(start) + " is out of range for dimension "
                                        + std::to_string(dim) + " of size " + std::to_string(size));
    if (start < 0)
        start += size;
    if (length < 0 || start + length > size)
        return failure(op, "length", "start (" + std::to_string(start) + ") + length (" + std::to_string(length)
                                         + ") exceeds dimension " + std::to_string(dim) + "'s size "
                                         + std::to_string(size) + " (or length is negative)");
    return slice(input, op, dim, start, start + length, 1, false);
}

// at::inferExpandGeometry: new leading dimensions and size-1 dimensions broadcast with stride 0.
Outcome expand(const TensorView &input, const TensorOp &op)
{
    const int rank = static_cast<int>(op.args.size());
    if (rank < input.dims())
        return failure(op, "dims", "the number of sizes (" + std::to_string(rank)
                                       + ") must be at least the tensor's dimensions (" + std::to_string(input.dims()) + ")");
    if (rank > kMaxDims)
        return failure(op, "dims", "at most " + std::to_string(kMaxDims) + " dimensions");
    TensorView view = input;
    view.shape.assign(rank, 0);
    view.strides.assign(rank, 0);
    std::int64_t count = 1;
    for (int i = rank - 1; i >= 0; --i) {
        const int offset = rank - 1 - i;
        const int dim = input.dims() - 1 - offset;
        std::int64_t size = op.args[i];
        std::int64_t stride = 0;
        if (dim >= 0) {
            if (size == -1)
                size = input.shape[dim];
            if (input.shape[dim] == size)
                stride = input.strides[dim];
            else if (input.shape[dim] != 1)
                return failure(op, "size", "size " + std::to_string(size) + " at position " + std::to_string(i)
                                               + " must equal the existing size " + std::to_string(input.shape[dim])
                                               + " of dimension " + std::to_string(dim)
                                               + " (only size-1 dimensions can be expanded)");
        } else if (size == -1) {
            return failure(op, "size", "-1 is not allowed at position " + std::to_string(i)
                                           + ", a new leading dimension (there is no size to keep)");
        }
        if (size < 0)
            return failure(op, "size", "size " + std::to_string(size) + " at position " + std::to_string(i)
                                           + " is negative");
        if (__builtin_mul_overflow(count, size, &count) || count > kMaxElements)
            return failure(op, "size", "the expanded tensor would have more than 2^40 elements");
        view.shape[i] = size;
        view.strides[i] = stride;
    }
    return viewOf(view);
}

Outcome unsqueeze(const TensorView &input, const TensorOp &op)
{
    std::int64_t dim = op.args[0];
    std::string error;
    if (input.dims() >= kMaxDims)
        return failure(op, "dims", "at most " + std::to_string(kMaxDims) + " dimensions");
    if (!wrapDim(dim, input.dims() + 1, "dim", dim, error))
        return failure(op, "dim", error);
    TensorView view = input;
    // The stride of a size-1 dimension never matters; ATen uses size·stride of the next dimension.
    const std::int64_t stride = dim >= input.dims() ? 1 : input.shape[dim] * input.strides[dim];
    view.shape.insert(view.shape.begin() + dim, 1);
    view.strides.insert(view.strides.begin() + dim, stride);
    return viewOf(view);
}

Outcome squeeze(const TensorView &input, const TensorOp &op)
{
    TensorView view = input;
    if (!op.args.empty()) {
        std::int64_t dim = 0;
        std::string error;
        if (!wrapDim(op.args[0], input.dims(), "dim", dim, error))
            return failure(op, "dim", error);
        // Like PyTorch, squeezing a dimension that is not of size 1 leaves the tensor unchanged.
        if (input.dims() > 0 && input.shape[dim] == 1) {
            view.shape.erase(view.shape.begin() + dim);
            view.strides.erase(view.strides.begin() + dim);
        }
        return viewOf(view);
    }
    view.shape.clear();
    view.strides.clear();
    for (int d = 0; d < input.dims(); ++d)
        if (input.shape[d] != 1) {
            view.shape.push_back(input.shape[d]);
            view.strides.push_back(input.strides[d]);
        }
    return viewOf(view);
}

Outcome viewOrReshape(const TensorView &input, const TensorOp &op, const Sizes &requested, bool may_copy,
                      int copy_storage_id)
{
    const Result<Sizes> shape = inferViewShape(requested, input.numel(), opName(op));
    if (!shape)
        return failure(op, shape.problems().front().rule, shape.problems().front().message.substr(opName(op).size() + 2));
    const ViewStrides strides = computeViewStrides(input, *shape);
    if (strides.strides) {
        TensorView view = input;
        view.shape = *shape;
        view.strides = *strides.strides;
        return viewOf(view);
    }
    if (!may_copy)
        return failure(op, "view", "view size is not compatible with input tensor's size and stride: " + strides.why_not);
    return OpOutcome{copyOf(input, *shape, copy_storage_id), true};
}

Outcome flatten(const TensorView &input, const TensorOp &op, int copy_storage_id)
{
    if (input.dims() == 0)
        return viewOrReshape(input, op, {1}, true, copy_storage_id);
    std::int64_t start = 0;
    std::int64_t end = input.dims() - 1;
    std::string error;
    if (op.args.size() > 0 && !wrapDim(op.args[0], input.dims(), "start_dim", start, error))
        return failure(op, "dim", error);
    if (op.args.size() > 1 && !wrapDim(op.args[1], input.dims(), "end_dim", end, error))
        return failure(op, "dim", error);
    if (start > end)
        return failure(op, "dim", "start_dim (" + std::to_string(start) + ") must not come after end_dim ("
                                      + std::to_string(end) + ")");
    if (start == end)
        return viewOf(input);
    Sizes shape(input.shape.begin(), input.shape.begin() + start);
    std::int64_t merged = 1;
    for (std::int64_t d = start; d <= end; ++d)
        merged *= input.shape[d];
    shape.push_back(merged);
    shape.insert(shape.end(), input.shape.begin() + end + 1, input.shape.end());
    return viewOrReshape(input, op, shape, true, copy_storage_id);
}

Outcome reverseDims(const TensorView &input)
{
    TensorView view = input;
    std::reverse(view.shape.begin(), view.shape.end());
    std::reverse(view.strides.begin(), view.strides.end());
    return viewOf(view);
}

}  // namespace

Result<OpOutcome> applyTensorOp(const TensorView &input, const TensorOp &op, int copy_storage_id)
{
    switch (op.kind) {
    case OpKind::Transpose:
        return transpose(input, op, op.args[0], op.args[1]);
    case OpKind::Permute:
        return permute(input, op);
    case OpKind::Narrow:
        return narrow(input, op);
    case OpKind::Slice:
        return slice(input, op, op.args[0], op.args[1], op.args.size() > 2 ? op.args[2] : kMaxElements,
                     op.args.size() > 3 ? op.args[3] : 1, true);
    case OpKind::Expand:
        return expand(input, op);
    case OpKind::Unsqueeze:
        return unsqueeze(input, op);
    case OpKind::Squeeze:
        return squeeze(input, op);
    case OpKind::View:
        return viewOrReshape(input, op, op.args, false, copy_storage_id);
    case OpKind::Reshape:
        return viewOrReshape(input, op, op.args, true, copy_storage_id);
    case OpKind::Flatten:
        return flatten(input, op, copy_storage_id);
    case OpKind::Contiguous:
        if (input.isContiguous())
            return viewOf(input);
        return OpOutcome{copyOf(input, input.shape, copy_storage_id), true};
    case OpKind::T:
        if (input.dims() > 2)
            return failure(op, "dims", "t() expects a tensor with at most 2 dimensions, but this one has "
                                           + std::to_string(input.dims()) + " (use transpose or permute)");
        return input.dims() < 2 ? viewOf(input) : transpose(input, op, 0, 1);
    case OpKind::ReverseDims:
        return reverseDims(input);
    }
    return failure(op, "unknown", "unknown operation");
}

}  // namespace lse::tensors
