// SPDX-License-Identifier: GPL-3.0-or-later
// When can a tensor be viewed with another shape without copying? PyTorch's rule, ported from ATen's
// at::detail::computeStride (aten/src/ATen/TensorUtils.cpp): the input's dimensions fall into chunks
// whose elements are contiguous with each other (stride[d-1] == size[d]·stride[d], size-1 dimensions
// ignored); the new shape must split or merge dimensions only inside one chunk.
#pragma once

#include "tensors/tensor_view.h"

#include <optional>
#include <string>

namespace lse::tensors {

struct ViewStrides {
    std::optional<Sizes> strides;  // the new shape's strides when a view exists
    std::string why_not;           // when it does not: which dimensions cannot be merged and why
};

// `new_shape` must have as many elements as `from` (inferViewShape ensures it).
ViewStrides computeViewStrides(const TensorView &from, const Sizes &new_shape);

// PyTorch's infer_size for view/reshape: at most one -1, inferred from the element count; the other
// sizes non-negative and their product equal to the input's. Problems name `op`.
Result<Sizes> inferViewShape(const Sizes &requested, std::int64_t numel, const std::string &op);

}  // namespace lse::tensors
