// SPDX-License-Identifier: GPL-3.0-or-later
// Reader for NumPy .npy arrays and .npz archives (zip files of .npy members), enough for the
// course's reference tensors: format 1.0/2.0/3.0 headers, little-endian '<f4', '<f8', '<i8', '<i4',
// '|b1', C order; zip members stored (method 0) or deflated (method 8, decoded by the reader's own
// RFC 1951 inflater, since Qt's zlib entry point only takes zlib-wrapped streams), zip64 sizes.
// Problems name the file, the member and what is wrong; a truncated or corrupt file never crashes.
#pragma once

#include "common/problem.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace lse {

struct NpyArray {
    std::string dtype;                 // as in the header, e.g. "<f4"
    std::vector<std::int64_t> shape;   // empty for a scalar
    bool fortranOrder = false;
    std::vector<unsigned char> data;   // raw little-endian element bytes, shape-product elements

    std::int64_t elementCount() const;
    // Converted element-wise (bool → 0/1); C order unless fortranOrder.
    std::vector<float> toFloat() const;
    std::vector<double> toDouble() const;
    std::vector<std::int64_t> toInt64() const;
};

// Parses one .npy file image. `where` names it in problems (e.g. "file.npz:weight.npy").
Result<NpyArray> parseNpy(std::string_view bytes, const std::string &where);
Result<NpyArray> readNpy(const std::string &path);
// All arrays of an .npz archive, keyed by member name without the ".npy" suffix.
Result<std::map<std::string, NpyArray>> readNpz(const std::string &path);

}  // namespace lse
