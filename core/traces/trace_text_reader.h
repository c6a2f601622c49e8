// SPDX-License-Identifier: GPL-3.0-or-later
// A trace's JSON text in pieces, from a file or from memory, inflated on the way when it is gzip
// (its first two bytes 1f 8b, whatever the file is called). zlib's streaming inflate is used rather
// than a hand-written one like core/reference/npz.cpp's (which inflates one whole deflate member
// held in memory): it reads the gzip header and trailer (with its CRC), several concatenated gzip
// members, and works on a piece at a time, so a 1 GB trace is never held whole.
#pragma once

#include "common/problem.h"

#include <climits>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace lse::traces {

class TraceTextReader {
public:
    ~TraceTextReader();
    TraceTextReader(const TraceTextReader &) = delete;
    TraceTextReader &operator=(const TraceTextReader &) = delete;

    // A regular file of at most `max_file_bytes`.
    static Result<std::unique_ptr<TraceTextReader>> openFile(const std::string &path, std::int64_t max_file_bytes);
    // Bytes that outlive the reader.
    static std::unique_ptr<TraceTextReader> fromBytes(std::string_view bytes, const std::string &source);

    // Up to `capacity` bytes of text: how many, 0 at the end, or the problem ({source, "gzip"} for
    // a damaged or truncated gzip stream, {source, "too_large"} past `max_text_bytes` of text).
    Result<std::size_t> read(char *buffer, std::size_t capacity, std::int64_t max_text_bytes);

    bool compressed() const { return compressed_; }
    // Bytes of the file (compressed) consumed so far and its size, for progress.
    std::int64_t inputBytesRead() const { return input_read_; }
    std::int64_t inputBytesTotal() const { return input_total_; }
    std::int64_t textBytesRead() const { return text_read_; }

private:
    struct State;
    TraceTextReader();
    Result<std::size_t> readInput(char *buffer, std::size_t capacity);
    Result<std::size_t> inflateInto(char *buffer, std::size_t capacity);

    std::unique_ptr<State> state_;
    std::string source_;
    bool compressed_ = false;
    bool started_ = false;
    std::int64_t input_read_ = 0;
    std::int64_t input_total_ = 0;
    std::int64_t text_read_ = 0;
    std::int64_t max_input_ = INT64_MAX;
};

}  // namespace lse::traces
