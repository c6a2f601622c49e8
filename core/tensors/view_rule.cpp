// SPDX-License-Identifier: GPL-3.0-or-later
#include "tensors/view_rule.h"

#include <algorithm>

namespace lse::tensors {

namespace {

std::string dimRange(int first, int last)
{
    return first == last ? "dimension " + std::to_string(first)
                         : "dimensions " + std::to_string(first) + "–" + std::to_string(last);
}

// Whether `outer_stride` == chunk_numel · chunk_base_stride, without overflowing on huge strides.
bool continuesChunk(std::int64_t outer_stride, std::int64_t chunk_numel, std::int64_t chunk_base_stride)
{
    std::int64_t needed = 0;
    return !__builtin_mul_overflow(chunk_numel, chunk_base_stride, &needed) && needed == outer_stride;
}

// " = 24", or nothing when the product does not fit in 64 bits.
std::string neededText(std::int64_t chunk_numel, std::int64_t chunk_base_stride)
{
    std::int64_t needed = 0;
    return __builtin_mul_overflow(chunk_numel, chunk_base_stride, &needed) ? std::string() : " = " + std::to_string(needed);
}

}  // namespace

ViewStrides computeViewStrides(const TensorView &from, const Sizes &new_shape)
{
    const Sizes &old_shape = from.shape;
    const Sizes &old_strides = from.strides;
    const int new_dims = static_cast<int>(new_shape.size());
    // A 0-d tensor has one element: any shape of one element is a view with unit strides.
    if (old_shape.empty())
        return {Sizes(new_shape.size(), 1), {}};
    const std::int64_t numel = from.numel();
    if (numel == 0 && old_shape == new_shape)
        return {old_strides, {}};
    Sizes new_strides(new_shape.size(), 0);
    if (numel == 0) {
        // No element is ever addressed, so any strides do; ATen picks row-major ones.
        for (int d = new_dims - 1; d >= 0; --d)
            new_strides[d] = d == new_dims - 1 ? 1 : std::max<std::int64_t>(new_shape[d + 1], 1) * new_strides[d + 1];
        return {new_strides, {}};
    }

    int view_d = new_dims - 1;
    std::int64_t chunk_base_stride = old_strides.back();
    std::int64_t tensor_numel = 1;
    std::int64_t view_numel = 1;
    int chunk_last = static_cast<int>(old_shape.size()) - 1;  // innermost dimension of the current chunk
    for (int tensor_d = static_cast<int>(old_shape.size()) - 1; tensor_d >= 0; --tensor_d) {
        tensor_numel *= old_shape[tensor_d];
        // A chunk ends where the next outer (non-size-1) dimension does not continue it contiguously.
        if (tensor_d == 0
            || (old_shape[tensor_d - 1] != 1 && !continuesChunk(old_strides[tensor_d - 1], tensor_numel, chunk_base_stride))) {
            while (view_d >= 0 && (view_numel < tensor_numel || new_shape[view_d] == 1)) {
                new_strides[view_d] = view_numel * chunk_base_stride;
                view_numel *= new_shape[view_d];
                --view_d;
            }
            if (view_numel != tensor_numel) {
                // The new dimension view_d + 1 needs elements of this chunk and of dimension tensor_d - 1,
                // which is not laid out after the chunk with one stride.
                const int outer = tensor_d - 1;
                ViewStrides failed;
                failed.why_not = "dimension " + std::to_string(outer) + " (size " + std::to_string(old_shape[outer])
                    + ", stride " + std::to_string(old_strides[outer]) + ") cannot be merged with "
                    + dimRange(tensor_d, chunk_last) + " (" + std::to_string(tensor_numel)
                    + " elements, innermost stride " + std::to_string(chunk_base_stride) + "): merging needs stride["
                    + std::to_string(outer) + "] = " + std::to_string(tensor_numel) + " × "
                    + std::to_string(chunk_base_stride) + neededText(tensor_numel, chunk_base_stride) + " but it is " + std::to_string(old_strides[outer])
                    + ", so no single stride walks new dimension " + std::to_string(view_d + 1) + " (size "
                    + std::to_string(new_shape[view_d + 1]) + ") across them. Use reshape (which copies) or "
                    + "contiguous() first";
                return failed;
            }
            if (tensor_d > 0) {
                chunk_base_stride = old_strides[tensor_d - 1];
                tensor_numel = 1;
                view_numel = 1;
                chunk_last = tensor_d - 1;
            }
        }
    }
    if (view_d != -1)
        return {std::nullopt, "the new shape " + sizesText(new_shape) + " has dimensions left over"};
    return {new_strides, {}};
}

Result<Sizes> inferViewShape(const Sizes &requested, std::int64_t numel, const std::string &op)
{
    std::int64_t known = 1;
    int inferred = -1;
    for (std::size_t d = 0; d < requested.size(); ++d) {
        if (requested[d] == -1) {
            if (inferred >= 0)
                return Result<Sizes>::failure(op, "one-inferred", op + ": only one dimension can be inferred (-1), "
                                                                     "but shape " + sizesText(requested) + " has two");
            inferred = static_cast<int>(d);
        } else if (requested[d] < 0) {
            return Result<Sizes>::failure(op, "non-negative", op + ": size " + std::to_string(requested[d])
                                                                  + " of dimension " + std::to_string(d)
                                                                  + " is invalid (sizes are ≥ 0, or -1 to infer)");
        } else if (__builtin_mul_overflow(known, requested[d], &known) || known > kMaxElements) {
            return Result<Sizes>::failure(op, "numel", op + ": shape " + sizesText(requested) + " is invalid for input of size "
                                                           + std::to_string(numel));
        }
    }
    Sizes shape = requested;
    if (inferred >= 0) {
        if (known == 0)
            return Result<Sizes>::failure(op, "ambiguous", op + ": cannot reshape a tensor of " + std::to_string(numel)
                                                               + " elements into shape " + sizesText(requested)
                                                               + " because the -1 could be any value");
        if (numel % known != 0)
            return Result<Sizes>::failure(op, "numel", op + ": shape " + sizesText(requested)
                                                           + " is invalid for input of size " + std::to_string(numel)
                                                           + " (" + std::to_string(numel) + " is not a multiple of "
                                                           + std::to_string(known) + ")");
        shape[inferred] = numel / known;
    } else if (known != numel) {
        return Result<Sizes>::failure(op, "numel", op + ": shape " + sizesText(requested) + " is invalid for input of size "
                                                       + std::to_string(numel) + " (it has " + std::to_string(known)
                                                       + " elements)");
    }
    if (static_cast<int>(shape.size()) > kMaxDims)
        return Result<Sizes>::failure(op, "dims", op + ": at most " + std::to_string(kMaxDims) + " dimensions");
    return shape;
}

}  // namespace lse::tensors
