// SPDX-License-Identifier: GPL-3.0-or-later
#include "traces/trace_loader.h"

#include "traces/trace_builder.h"
#include "traces/trace_event_scanner.h"
#include "traces/trace_text_reader.h"

#include <memory>
#include <vector>

namespace lse::traces {

namespace {

constexpr std::size_t kPieceBytes = std::size_t{1} << 20;

// Reads `reader` to its end through the scanner into `builder`. `progress_offset` and
// `progress_total` place this file among several for the progress callback.
Result<bool> readTrace(TraceBuilder &builder, TraceTextReader &reader, const std::string &source,
                       const TraceLoadOptions &options, const TraceLoadProgress &progress, std::int64_t progress_offset,
                       std::int64_t progress_total)
{
    TraceScanLimits limits;
    limits.max_events = options.max_events;
    limits.max_piece_bytes = options.max_event_bytes;
    limits.max_depth = options.max_depth;
    TraceEventScanner scanner(
        source, limits, {"deviceProperties", "distributedInfo", "record_shapes"},
        [&builder](std::int64_t index, std::string_view json) { return builder.addEvent(index, json); },
        [&builder](std::string_view key, std::string_view json) { return builder.addMember(key, json); });
    std::vector<char> piece(kPieceBytes);
    const auto cancelled = [&source]() {
        return Result<bool>::failure(source, "cancelled", source + ": loading was cancelled.");
    };
    if (progress && !progress(progress_offset, progress_total))
        return cancelled();
    for (;;) {
        Result<std::size_t> got = reader.read(piece.data(), piece.size(), options.max_text_bytes);
        if (!got)
            return got.problems();
        if (got.value() == 0)
            break;
        Result<bool> fed = scanner.feed(std::string_view(piece.data(), got.value()));
        if (!fed)
            return fed.problems();
        if (!fed.value())
            return builder.problems();
        if (progress && !progress(progress_offset + reader.inputBytesRead(), progress_total))
            return cancelled();
    }
    return scanner.finish();
}

// The whole file as one rank (`split` false) or as its ranks (TraceBuilder::finishRanks).
Result<std::vector<TraceRank>> readRanks(TraceTextReader &reader, const std::string &source,
                                         const TraceLoadOptions &options, const TraceLoadProgress &progress,
                                         std::int64_t progress_offset, std::int64_t progress_total, bool split)
{
    TraceBuilder builder(source, options.fast_event_parser);
    Result<bool> read = readTrace(builder, reader, source, options, progress, progress_offset, progress_total);
    if (!read)
        return read.problems();
    if (split)
        return builder.finishRanks();
    std::vector<TraceRank> one;
    one.push_back(builder.finish());
    return one;
}

Result<TraceRank> onlyRank(Result<std::vector<TraceRank>> ranks)
{
    if (!ranks)
        return ranks.problems();
    return std::move(ranks.value().front());
}

}  // namespace

Result<TraceRank> loadTrace(const std::string &path, const TraceLoadOptions &options, const TraceLoadProgress &progress)
{
    Result<std::unique_ptr<TraceTextReader>> reader = TraceTextReader::openFile(path, options.max_file_bytes);
    if (!reader)
        return reader.problems();
    return onlyRank(readRanks(*reader.value(), path, options, progress, 0, reader.value()->inputBytesTotal(), false));
}

Result<std::vector<TraceRank>> loadTraceRanks(const std::string &path, const TraceLoadOptions &options,
                                              const TraceLoadProgress &progress)
{
    Result<std::unique_ptr<TraceTextReader>> reader = TraceTextReader::openFile(path, options.max_file_bytes);
    if (!reader)
        return reader.problems();
    return readRanks(*reader.value(), path, options, progress, 0, reader.value()->inputBytesTotal(), true);
}

Result<TraceRank> parseTrace(std::string_view bytes, const std::string &source, const TraceLoadOptions &options,
                             const TraceLoadProgress &progress)
{
    std::unique_ptr<TraceTextReader> reader = TraceTextReader::fromBytes(bytes, source);
    return onlyRank(readRanks(*reader, source, options, progress, 0, static_cast<std::int64_t>(bytes.size()), false));
}

Result<std::vector<TraceRank>> parseTraceRanks(std::string_view bytes, const std::string &source,
                                               const TraceLoadOptions &options, const TraceLoadProgress &progress)
{
    std::unique_ptr<TraceTextReader> reader = TraceTextReader::fromBytes(bytes, source);
    return readRanks(*reader, source, options, progress, 0, static_cast<std::int64_t>(bytes.size()), true);
}

Result<std::vector<TraceRank>> loadTraces(const std::vector<std::string> &paths, const TraceLoadOptions &options,
                                          const TraceLoadProgress &progress)
{
    std::vector<std::unique_ptr<TraceTextReader>> readers;
    Problems problems;
    std::int64_t total = 0;
    for (const std::string &path : paths) {
        Result<std::unique_ptr<TraceTextReader>> reader = TraceTextReader::openFile(path, options.max_file_bytes);
        if (!reader) {
            problems.insert(problems.end(), reader.problems().begin(), reader.problems().end());
            readers.emplace_back();
            continue;
        }
        total += reader.value()->inputBytesTotal();
        readers.push_back(std::move(reader.value()));
    }
    if (!problems.empty())
        return problems;
    std::vector<TraceRank> ranks;
    std::int64_t done = 0;
    for (std::size_t i = 0; i < paths.size(); ++i) {
        Result<std::vector<TraceRank>> file = readRanks(*readers[i], paths[i], options, progress, done, total, true);
        done += readers[i]->inputBytesTotal();
        if (!file) {
            if (!file.problems().empty() && file.problems().front().rule == "cancelled")
                return file.problems();
            problems.insert(problems.end(), file.problems().begin(), file.problems().end());
            continue;
        }
        for (TraceRank &rank : file.value())
            ranks.push_back(std::move(rank));
        readers[i].reset();
    }
    if (!problems.empty())
        return problems;
    return ranks;
}

}  // namespace lse::traces
