// SPDX-License-Identifier: GPL-3.0-or-later
#include "traces/trace_text_reader.h"

#include "common/file_bytes.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

namespace lse::traces {

struct TraceTextReader::State {
    std::optional<FileReader> file;
    std::string_view memory;  // when reading from memory
    std::size_t memory_at = 0;
    z_stream zs{};
    bool inflating = false;   // inflateInit2 done
    bool stream_end = false;  // the last member ended and no input followed
    std::vector<char> input = std::vector<char>(std::size_t{1} << 20);
    std::size_t input_begin = 0;  // unread compressed bytes input[begin, end)
    std::size_t input_end = 0;
    bool input_done = false;

    ~State()
    {
        if (inflating)
            inflateEnd(&zs);
    }
};

TraceTextReader::TraceTextReader() : state_(std::make_unique<State>()) {}
TraceTextReader::~TraceTextReader() = default;

Result<std::unique_ptr<TraceTextReader>> TraceTextReader::openFile(const std::string &path, std::int64_t max_file_bytes)
{
    Result<FileReader> file = FileReader::open(path, FileKind::Data);
    if (!file)
        return file.problems();
    if (file->statedBytes() > max_file_bytes)
        return Result<std::unique_ptr<TraceTextReader>>::failure(
            path, "too_large",
            path + ": " + std::to_string(file->statedBytes()) + " bytes is more than a trace file can be (at most " +
                std::to_string(max_file_bytes) + " bytes).");
    std::unique_ptr<TraceTextReader> reader(new TraceTextReader());
    reader->source_ = path;
    reader->input_total_ = file->statedBytes();
    reader->max_input_ = max_file_bytes;
    reader->state_->file.emplace(std::move(file.value()));
    return reader;
}

std::unique_ptr<TraceTextReader> TraceTextReader::fromBytes(std::string_view bytes, const std::string &source)
{
    std::unique_ptr<TraceTextReader> reader(new TraceTextReader());
    reader->source_ = source;
    reader->input_total_ = static_cast<std::int64_t>(bytes.size());
    reader->state_->memory = bytes;
    return reader;
}

Result<std::size_t> TraceTextReader::readInput(char *buffer, std::size_t capacity)
{
    State &s = *state_;
    std::size_t got = 0;
    if (s.file) {
        Result<std::size_t> read = s.file->read(buffer, capacity);
        if (!read)
            return read.problems();
        got = read.value();
    } else {
        got = std::min(capacity, s.memory.size() - s.memory_at);
        if (got > 0)
            std::memcpy(buffer, s.memory.data() + s.memory_at, got);
        s.memory_at += got;
    }
    input_read_ += static_cast<std::int64_t>(got);
    // A file that grows while it is read is refused at its cap, not followed.
    if (input_read_ > max_input_)
        return Result<std::size_t>::failure(source_, "too_large",
                                            source_ + ": more than " + std::to_string(max_input_) +
                                                " bytes, the most a trace file can be.");
    return got;
}

Result<std::size_t> TraceTextReader::inflateInto(char *buffer, std::size_t capacity)
{
    State &s = *state_;
    const auto gzipProblem = [this](const std::string &what) {
        return Result<std::size_t>::failure(source_, "gzip", source_ + ": not a valid gzip stream (" + what + ").");
    };
    std::size_t produced = 0;
    while (produced == 0) {
        if (s.stream_end)
            return std::size_t{0};
        if (s.input_begin == s.input_end && !s.input_done) {
            Result<std::size_t> got = readInput(s.input.data(), s.input.size());
            if (!got)
                return got.problems();
            s.input_begin = 0;
            s.input_end = got.value();
            s.input_done = got.value() == 0;
        }
        s.zs.next_in = reinterpret_cast<Bytef *>(s.input.data() + s.input_begin);
        s.zs.avail_in = static_cast<uInt>(s.input_end - s.input_begin);
        s.zs.next_out = reinterpret_cast<Bytef *>(buffer);
        s.zs.avail_out = static_cast<uInt>(capacity);
        const int status = inflate(&s.zs, Z_NO_FLUSH);
        s.input_begin = s.input_end - s.zs.avail_in;
        produced = capacity - s.zs.avail_out;
        if (status == Z_STREAM_END) {
            // Another gzip member may follow (concatenated .gz files are one valid gzip file).
            if (s.input_begin == s.input_end && !s.input_done) {
                Result<std::size_t> got = readInput(s.input.data(), s.input.size());
                if (!got)
                    return got.problems();
                s.input_begin = 0;
                s.input_end = got.value();
                s.input_done = got.value() == 0;
            }
            if (s.input_begin == s.input_end)
                s.stream_end = true;
            else if (inflateReset(&s.zs) != Z_OK)
                return gzipProblem("cannot restart after a member");
        } else if (status == Z_BUF_ERROR) {
            if (s.input_done && s.input_begin == s.input_end && produced == 0)
                return gzipProblem("truncated: the file ends inside the compressed data");
        } else if (status != Z_OK) {
            return gzipProblem(s.zs.msg != nullptr ? s.zs.msg : "inflate failed");
        }
        if (produced == 0 && s.input_done && s.input_begin == s.input_end && !s.stream_end)
            return gzipProblem("truncated: the file ends inside the compressed data");
    }
    return produced;
}

Result<std::size_t> TraceTextReader::read(char *buffer, std::size_t capacity, std::int64_t max_text_bytes)
{
    State &s = *state_;
    if (!started_) {
        started_ = true;
        // Peek at the first bytes to choose between plain text and gzip.
        Result<std::size_t> got = readInput(s.input.data(), s.input.size());
        if (!got)
            return got.problems();
        s.input_begin = 0;
        s.input_end = got.value();
        s.input_done = got.value() == 0;
        compressed_ = s.input_end >= 2 && static_cast<unsigned char>(s.input[0]) == 0x1f &&
                      static_cast<unsigned char>(s.input[1]) == 0x8b;
        if (compressed_) {
            // 15 + 16: a gzip wrapper only (not zlib or raw deflate), maximum window.
            if (inflateInit2(&s.zs, 15 + 16) != Z_OK)
                return Result<std::size_t>::failure(source_, "gzip", source_ + ": zlib could not start inflating.");
            s.inflating = true;
        }
    }
    std::size_t produced = 0;
    if (compressed_) {
        Result<std::size_t> got = inflateInto(buffer, capacity);
        if (!got)
            return got;
        produced = got.value();
    } else if (s.input_begin < s.input_end) {
        produced = std::min(capacity, s.input_end - s.input_begin);
        std::memcpy(buffer, s.input.data() + s.input_begin, produced);
        s.input_begin += produced;
    } else {
        Result<std::size_t> got = readInput(buffer, capacity);
        if (!got)
            return got;
        produced = got.value();
    }
    text_read_ += static_cast<std::int64_t>(produced);
    if (text_read_ > max_text_bytes)
        return Result<std::size_t>::failure(source_, "too_large",
                                            source_ + ": the trace's text is more than " +
                                                std::to_string(max_text_bytes) + " bytes" +
                                                (compressed_ ? " once inflated." : "."));
    return produced;
}

}  // namespace lse::traces
