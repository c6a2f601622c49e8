// SPDX-License-Identifier: GPL-3.0-or-later
#include "tensors/tensor_view.h"

#include <algorithm>

namespace lse::tensors {

std::int64_t TensorView::numel() const
{
    std::int64_t count = 1;
    for (std::int64_t size : shape)
        count *= size;
    return count;
}

bool TensorView::isContiguous() const
{
    if (numel() == 0)
        return true;
    std::int64_t expected = 1;
    for (int d = dims() - 1; d >= 0; --d) {
        if (shape[d] == 1)
            continue;
        if (strides[d] != expected)
            return false;
        expected *= shape[d];
    }
    return true;
}

std::int64_t TensorView::storageIndex(const Sizes &indices) const
{
    std::int64_t index = offset;
    for (int d = 0; d < dims(); ++d)
        index += indices[d] * strides[d];
    return index;
}

std::vector<std::int64_t> TensorView::storageIndices() const
{
    std::vector<std::int64_t> result;
    const std::int64_t count = numel();
    if (count == 0)
        return result;
    result.reserve(static_cast<std::size_t>(count));
    Sizes indices(shape.size(), 0);
    for (std::int64_t n = 0; n < count; ++n) {
        result.push_back(storageIndex(indices));
        // Odometer increment, last dimension fastest.
        for (int d = dims() - 1; d >= 0; --d) {
            if (++indices[d] < shape[d])
                break;
            indices[d] = 0;
        }
    }
    return result;
}

std::int64_t TensorView::lastStorageIndex() const
{
    if (numel() == 0)
        return offset - 1;
    std::int64_t index = offset;
    for (int d = 0; d < dims(); ++d)
        index += (shape[d] - 1) * strides[d];
    return index;
}

Sizes contiguousStrides(const Sizes &shape)
{
    Sizes strides(shape.size(), 1);
    std::int64_t stride = 1;
    for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
        strides[d] = stride;
        stride *= std::max<std::int64_t>(shape[d], 1);
    }
    return strides;
}

namespace {

bool multiplyWithin(std::int64_t a, std::int64_t b, std::int64_t limit, std::int64_t &product)
{
    return !__builtin_mul_overflow(a, b, &product) && product <= limit;
}

}  // namespace

Result<TensorView> makeView(const Sizes &shape, const Sizes &strides, std::int64_t offset)
{
    Problems problems;
    if (static_cast<int>(shape.size()) > kMaxDims)
        problems.push_back({"shape", "dims",
                            "shape " + sizesText(shape) + " has " + std::to_string(shape.size())
                                + " dimensions; at most " + std::to_string(kMaxDims) + " are supported"});
    std::int64_t count = 1;
    for (std::size_t d = 0; d < shape.size(); ++d) {
        if (shape[d] < 0) {
            problems.push_back({"shape", "non-negative",
                                "shape " + sizesText(shape) + ": size " + std::to_string(shape[d]) + " of dimension "
                                    + std::to_string(d) + " is negative"});
            continue;
        }
        if (!multiplyWithin(count, shape[d], kMaxElements, count))
            problems.push_back({"shape", "maximum",
                                "shape " + sizesText(shape) + " has more than 2^40 elements"});
    }
    if (!strides.empty() && strides.size() != shape.size())
        problems.push_back({"strides", "count",
                            "strides " + sizesText(strides) + " give " + std::to_string(strides.size())
                                + " strides for the " + std::to_string(shape.size()) + " dimensions of shape "
                                + sizesText(shape),
                            {"shape"}});
    for (std::size_t d = 0; d < strides.size(); ++d)
        if (strides[d] < 0 || strides[d] > kMaxElements)
            problems.push_back({"strides", "range",
                                "stride " + std::to_string(strides[d]) + " of dimension " + std::to_string(d)
                                    + " must be between 0 and 2^40 (PyTorch has no negative strides)"});
    if (offset < 0 || offset > kMaxElements)
        problems.push_back({"offset", "range", "storage offset " + std::to_string(offset)
                                                   + " must be between 0 and 2^40"});
    if (!problems.empty())
        return problems;

    TensorView view;
    view.shape = shape;
    view.strides = strides.empty() ? contiguousStrides(shape) : strides;
    view.offset = offset;
    // The largest index, checked term by term so that huge strides are refused instead of overflowing.
    std::int64_t last = offset;
    for (std::size_t d = 0; d < shape.size() && count > 0; ++d) {
        std::int64_t term = 0;
        if (!multiplyWithin(shape[d] - 1, view.strides[d], kMaxStorage, term) || (last += term) > kMaxStorage)
            return Result<TensorView>::failure("strides", "maximum",
                                               "shape " + sizesText(shape) + " with strides " + sizesText(view.strides)
                                                   + " reaches beyond 2^41 storage elements");
    }
    view.storage_size = count > 0 ? last + 1 : offset;
    return view;
}

std::string sizesText(const Sizes &sizes)
{
    std::string text = "[";
    for (std::size_t i = 0; i < sizes.size(); ++i)
        text += (i ? ", " : "") + std::to_string(sizes[i]);
    return text + "]";
}

}  // namespace lse::tensors
