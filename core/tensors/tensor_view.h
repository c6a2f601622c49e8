// SPDX-License-Identifier: GPL-3.0-or-later
// A strided view over a 1-D storage, as PyTorch lays tensors out: element (i_0, …, i_{n-1}) lives at
// storage index offset + Σ i_k·stride_k (strides in elements, not bytes).
#pragma once

#include "common/problem.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lse::tensors {

using Sizes = std::vector<std::int64_t>;

// Limits that keep every index computation inside int64 and a brute-force enumeration finite.
inline constexpr int kMaxDims = 8;
inline constexpr std::int64_t kMaxElements = std::int64_t{1} << 40;
inline constexpr std::int64_t kMaxStorage = std::int64_t{1} << 41;

struct TensorView {
    Sizes shape;
    Sizes strides;                 // elements, one per dimension, never negative (PyTorch forbids negative strides)
    std::int64_t offset = 0;       // storage offset in elements
    int storage_id = 0;            // 0 is the original storage; each copy gets the next id
    std::int64_t storage_size = 0; // elements in that storage

    int dims() const { return static_cast<int>(shape.size()); }
    std::int64_t numel() const;
    // PyTorch's is_contiguous(): strides are row-major for the shape, skipping dimensions of size 1
    // (their stride never matters); an empty tensor is contiguous (c10/core/Contiguity.h).
    bool isContiguous() const;
    // offset + Σ indices[k]·strides[k]; indices must be in range.
    std::int64_t storageIndex(const Sizes &indices) const;
    // Every element's storage index in row-major logical order (the order a copy reads them).
    std::vector<std::int64_t> storageIndices() const;
    // The largest storage index an element uses, or offset - 1 when there are no elements.
    std::int64_t lastStorageIndex() const;
    bool sharesStorageWith(const TensorView &other) const { return storage_id == other.storage_id; }
};

// Row-major (C-order) strides for a shape: the last dimension has stride 1.
Sizes contiguousStrides(const Sizes &shape);

// The view a user starts from: `strides` empty means contiguous; the storage is exactly large enough
// for the largest index. Problems name "shape", "strides" or "offset".
Result<TensorView> makeView(const Sizes &shape, const Sizes &strides = {}, std::int64_t offset = 0);

// "[2, 3, 4]"
std::string sizesText(const Sizes &sizes);

}  // namespace lse::tensors
