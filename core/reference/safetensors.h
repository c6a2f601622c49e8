// SPDX-License-Identifier: GPL-3.0-or-later
// The safetensors checkpoint format (https://github.com/huggingface/safetensors, "Format"): an
// 8-byte little-endian header length N, N bytes of JSON
//   {"name": {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]}, ...,
//    "__metadata__": {"key": "value", ...}}
// and then one byte buffer that the tensors' [begin, end) ranges (relative to the buffer) cover
// without holes or overlaps. The writer pads the JSON with spaces so that the buffer starts at a
// multiple of 8 bytes, and lays tensors out in the order given; the reader returns them in buffer
// order, so a round trip keeps the order.
#pragma once

#include "common/problem.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

class QFile;

namespace lse {

struct SafeTensor {
    std::string name;
    std::string dtype;                // "F64", "F32", "F16", "BF16", "I64", "I32", "I16", "I8", "U8", "BOOL", ...
    std::vector<std::int64_t> shape;  // empty for a scalar
    std::vector<unsigned char> bytes; // little-endian elements, C order (empty in a SafetensorsHeader)
    // Read from a file: where its bytes start in the data buffer and how many they are.
    std::uint64_t data_offset = 0;
    std::uint64_t data_bytes = 0;

    std::int64_t elementCount() const;
};

struct SafetensorsFile {
    std::vector<SafeTensor> tensors;               // in the order of their data in the file
    std::map<std::string, std::string> metadata;   // "__metadata__", empty when absent

    // nullptr when no tensor has that name.
    const SafeTensor *find(std::string_view name) const;
};

// Bytes per element of a safetensors dtype name, or nothing for an unknown name.
std::optional<int> safetensorsDtypeSize(std::string_view dtype);

// Tensors built from host arrays (C order, shape-product elements).
SafeTensor makeF32Tensor(std::string name, const float *data, std::vector<std::int64_t> shape);
SafeTensor makeF64Tensor(std::string name, const double *data, std::vector<std::int64_t> shape);
SafeTensor makeI64Tensor(std::string name, const std::int64_t *data, std::vector<std::int64_t> shape);

// The elements of an F32 tensor (or F64, converted); empty for any other dtype.
std::vector<float> safeTensorToFloat(const SafeTensor &tensor);
// Copies an F32 tensor into `out` when its element count is `count`; false otherwise. For loading
// a checkpoint straight into preallocated parameter buffers.
bool copySafeTensorTo(const SafeTensor &tensor, float *out, std::int64_t count);

// Writes atomically (FileWriter: every write checked, the old file intact until the new one is
// complete and flushed; a failure reports the system's text, rule "unwritable"). Problems
// for duplicate or empty names, the reserved name "__metadata__", unknown dtypes and byte counts
// that do not match the shape.
Result<bool> writeSafetensors(const std::string &path, const std::vector<SafeTensor> &tensors,
                              const std::map<std::string, std::string> &metadata = {});

// Checks everything a corrupt header could get wrong: the header length, the JSON, each entry's
// dtype, shape and offsets (inside the buffer, matching shape × dtype size, no overlaps, no holes).
Result<SafetensorsFile> parseSafetensors(std::string_view bytes, const std::string &where);
// Reads only a regular file of at most maxFileBytes(FileKind::Checkpoint) (rules "unreadable",
// "not_a_file", "too_large").
Result<SafetensorsFile> readSafetensors(const std::string &path);

// A file's header alone, with the same checks as parseSafetensors (the data buffer's size is the
// file's), and the open file to read chosen tensors from: loading a model from a training
// checkpoint then reads its parameters straight into the model's arena and never the optimizer's
// moments, twice the parameters' bytes (issue 35: `generate --checkpoint` held the whole file and a
// copy of every tensor, 546 MB for a 91 MB model).
class SafetensorsHeader {
public:
    SafetensorsHeader();
    SafetensorsHeader(SafetensorsHeader &&) noexcept;
    SafetensorsHeader &operator=(SafetensorsHeader &&) noexcept;
    ~SafetensorsHeader();

    SafetensorsFile layout;       // tensors without bytes, and the metadata
    std::uint64_t data_start = 0;  // file offset of the data buffer

    // An F32 tensor of `layout` into `out` when its element count is `count`: false (no problem)
    // when the dtype or count differ; a problem {path, "unreadable"} when the read fails.
    Result<bool> readF32Into(const SafeTensor &tensor, float *out, std::int64_t count);

private:
    friend Result<SafetensorsHeader> readSafetensorsHeader(const std::string &path);
    std::unique_ptr<QFile> file_;
    std::string path_;
};
Result<SafetensorsHeader> readSafetensorsHeader(const std::string &path);

}  // namespace lse
