// SPDX-License-Identifier: GPL-3.0-or-later
// Training data for the reference transformer: a file of raw little-endian token ids (uint16 or
// uint32, no header), as `llm-explorer-cli prepare-data` writes it, memory-mapped read-only so a
// corpus larger than memory costs nothing to open. Batches follow the CS336 get_batch semantics.
#pragma once

#include "common/problem.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

class QFile;

namespace lse {

enum class TokenDtype { U16, U32 };

std::string_view tokenDtypeName(TokenDtype dtype);             // "uint16", "uint32"
std::optional<TokenDtype> parseTokenDtype(std::string_view name);  // also accepts "u16"/"u32"
int tokenDtypeSize(TokenDtype dtype);

class TokenFile {
public:
    // Maps the file. Problems: unreadable, not_a_file (a device, FIFO or directory), or a size that
    // is not a multiple of the id size. An empty file opens with no tokens; the batch functions then
    // report it as too short.
    static Result<TokenFile> open(const std::string &path, TokenDtype dtype);

    TokenFile(TokenFile &&) noexcept;
    TokenFile &operator=(TokenFile &&) noexcept;
    ~TokenFile();

    const std::string &path() const { return path_; }
    TokenDtype dtype() const { return dtype_; }
    std::int64_t tokenCount() const { return count_; }
    // Id at position i, 0 <= i < tokenCount() (not checked).
    std::uint32_t at(std::int64_t i) const;

    // Every id must be < vocabSize; the problem names the first bad position and its id.
    Result<bool> validateIds(std::uint32_t vocabSize) const;

    // CS336 get_batch: batchSize starts drawn uniformly from [0, n − contextLength − 1]; row b of
    // `inputs` is x[s..s+ctx) and of `targets` x[s+1..s+ctx], both batchSize × contextLength, row
    // major. Allocates nothing. Ids are written as int32, so they must be below 2^31 (validateIds).
    Result<bool> sampleBatch(int batchSize, int contextLength, std::mt19937_64 &rng, std::int32_t *inputs,
                             std::int32_t *targets) const;

    // Deterministic batch for validation loss: row b starts at startIndex + b·contextLength
    // (consecutive non-overlapping windows). Every row must fit: start + ctx + 1 <= n.
    Result<bool> sequentialBatch(std::int64_t startIndex, int batchSize, int contextLength, std::int32_t *inputs,
                                 std::int32_t *targets) const;
    // How many whole non-overlapping windows (each needing ctx + 1 tokens, sharing the boundary
    // token with the next) the file holds: (n − 1) / ctx, 0 when n < ctx + 1.
    std::int64_t windowCount(int contextLength) const;

private:
    TokenFile() = default;
    Result<bool> checkBatchShape(int batchSize, int contextLength) const;
    void fillRow(std::int64_t start, int contextLength, std::int32_t *inputs, std::int32_t *targets) const;

    std::string path_;
    TokenDtype dtype_ = TokenDtype::U16;
    std::unique_ptr<QFile> file_;
    const unsigned char *data_ = nullptr;
    std::int64_t count_ = 0;
};

// Writes ids as a raw token file (writeFileReplacing: checked and atomic); a problem if an id does
// not fit the dtype or the file cannot be written (the system's text).
Result<bool> writeTokenFile(const std::string &path, const std::vector<std::uint32_t> &ids, TokenDtype dtype);

}  // namespace lse
