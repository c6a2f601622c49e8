// SPDX-License-Identifier: GPL-3.0-or-later
// Byte-level BPE training with the CS336 assignment's semantics.
//
// Vocabulary = special tokens (ids 0..S-1) + the 256 byte values (S..S+255) + one token per merge.
// The text is split at special tokens (which never take part in merges), each piece is
// pre-tokenized with the GPT-2 pattern, and the distinct pre-tokens are counted (in parallel).
// Then the most frequent adjacent pair within pre-tokens is merged, repeatedly; ties go to the
// lexicographically greater pair of byte strings (left first, then right, unsigned bytes).
// Pair counts are updated incrementally: a merge only touches the pre-tokens that contain it.
#pragma once

#include "common/problem.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lse {

// Distinct pre-tokens and how often each occurs, sorted by bytes (deterministic).
struct PretokenCounts {
    std::vector<std::pair<std::string, std::int64_t>> entries;
};

// Pre-tokenizes text (split at special tokens first) on up to `threads` threads (0: hardware
// concurrency). The result does not depend on the thread count. A pre-token longer than
// kMaxPretokenBytes is counted as its slices (pretokenizer.h), as the encoder merges it.
PretokenCounts countPretokens(std::string_view text, const std::vector<std::string> &specialTokens,
                              unsigned threads = 0);

// Pre-token counts of one file, equal to countPretokens of its whole text, read in pieces of about
// `chunk_bytes` so that a file larger than memory can be counted: each piece ends where a pre-token
// ends (endsPretokenAt; in text without such places, by pre-tokens, and inside a pre-token longer
// than kMaxPretokenBytes at the end of a slice) and no special token crosses the cut. Problems: the
// file's (FileReader: unreadable, not_a_file, a read error such as EIO), "cancelled" when `cancel`
// is set between pieces. `bytes_read` (optional) receives the bytes read.
Result<PretokenCounts> countFilePretokens(const std::string &path, const std::vector<std::string> &specialTokens,
                                          unsigned threads = 0, std::size_t chunk_bytes = std::size_t{32} << 20,
                                          const std::atomic<bool> *cancel = nullptr, std::int64_t *bytes_read = nullptr);

struct BpeTrainOptions {
    std::size_t vocabSize = 0;  // including special tokens and the 256 bytes
    std::vector<std::string> specialTokens;
    unsigned threads = 0;  // for pre-tokenization; 0 = hardware concurrency
    // Called after each merge with (merges done, merges wanted).
    std::function<void(std::size_t, std::size_t)> progress;
    const std::atomic<bool> *cancel = nullptr;  // training stops with a "cancelled" problem
};

struct BpeTrainResult {
    std::vector<std::string> vocab;                          // id → bytes
    std::vector<std::pair<std::string, std::string>> merges;  // in order, as byte strings
    std::size_t specialCount = 0;                            // ids 0..specialCount-1 are special
    std::int64_t inputBytes = 0;                             // trainBpeFiles: the bytes read from the files
    double pretokenizeSeconds = 0;
    double mergeSeconds = 0;
};

Result<BpeTrainResult> trainBpe(std::string_view text, const BpeTrainOptions &options);
Result<BpeTrainResult> trainBpeFromCounts(const PretokenCounts &counts, const BpeTrainOptions &options);

// Reads the files (UTF-8 bytes as they are) and trains on their concatenation's pre-tokens; the
// files are pre-tokenized one at a time, each in pieces (countFilePretokens), so no file is held
// whole. Problems name the file (a read error included) or say that training was cancelled.
Result<BpeTrainResult> trainBpeFiles(const std::vector<std::string> &paths, const BpeTrainOptions &options);

}  // namespace lse
