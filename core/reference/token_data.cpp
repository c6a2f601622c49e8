// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/token_data.h"

#include "common/file_bytes.h"
#include "common/file_writer.h"
#include "common/input_files.h"

#include <QFile>
#include <QString>

#include <bit>
#include <cstring>
#include <limits>

namespace lse {

// Ids are read by copying their bytes into host integers: the file's little-endian order is the
// host's on every platform the project builds for.
static_assert(std::endian::native == std::endian::little, "the token file reader assumes a little-endian host");

std::string_view tokenDtypeName(TokenDtype dtype)
{
    return dtype == TokenDtype::U16 ? "uint16" : "uint32";
}

std::optional<TokenDtype> parseTokenDtype(std::string_view name)
{
    if (name == "uint16" || name == "u16")
        return TokenDtype::U16;
    if (name == "uint32" || name == "u32")
        return TokenDtype::U32;
    return std::nullopt;
}

int tokenDtypeSize(TokenDtype dtype) { return dtype == TokenDtype::U16 ? 2 : 4; }

Result<TokenFile> TokenFile::open(const std::string &path, TokenDtype dtype)
{
    TokenFile tokens;
    tokens.path_ = path;
    tokens.dtype_ = dtype;
    // A device such as /dev/zero has size 0 and would open as an empty corpus; say what it is.
    if (std::optional<Problem> problem = regularFileProblem(path, FileKind::Data))
        return Problems{*problem};
    tokens.file_ = std::make_unique<QFile>(QString::fromStdString(path));
    if (!tokens.file_->open(QIODevice::ReadOnly))
        return Result<TokenFile>::failure(path, "unreadable", path + ": cannot open (" + tokens.file_->errorString().toStdString() + ").");
    noteInputFileOpened(tokens.file_->handle(), path);
    const qint64 size = tokens.file_->size();
    const int idSize = tokenDtypeSize(dtype);
    if (size % idSize != 0)
        return Result<TokenFile>::failure(path, "size", path + ": " + std::to_string(size) + " bytes is not a whole number of " +
                                                            std::string(tokenDtypeName(dtype)) + " ids (" + std::to_string(idSize) +
                                                            " bytes each); wrong dtype or a truncated file.");
    tokens.count_ = size / idSize;
    if (size > 0) {
        // Read-only mapping: pages are loaded on demand and shared with the page cache, so even a
        // corpus larger than memory opens instantly.
        tokens.data_ = tokens.file_->map(0, size);
        if (tokens.data_ == nullptr)
            return Result<TokenFile>::failure(path, "unreadable", path + ": cannot memory-map (" + tokens.file_->errorString().toStdString() + ").");
    }
    return Result<TokenFile>(std::move(tokens));
}

TokenFile::TokenFile(TokenFile &&) noexcept = default;
TokenFile &TokenFile::operator=(TokenFile &&) noexcept = default;
// QFile's destructor closes the file, which also removes its mappings.
TokenFile::~TokenFile() = default;

std::uint32_t TokenFile::at(std::int64_t i) const
{
    if (dtype_ == TokenDtype::U16) {
        std::uint16_t v = 0;
        std::memcpy(&v, data_ + i * 2, sizeof v);
        return v;
    }
    std::uint32_t v = 0;
    std::memcpy(&v, data_ + i * 4, sizeof v);
    return v;
}

Result<bool> TokenFile::validateIds(std::uint32_t vocabSize) const
{
    for (std::int64_t i = 0; i < count_; ++i) {
        const std::uint32_t id = at(i);
        if (id >= vocabSize)
            return Result<bool>::failure(path_, "vocab", path_ + ": token " + std::to_string(i) + " has id " + std::to_string(id) +
                                                             ", not below the vocabulary size " + std::to_string(vocabSize) +
                                                             " (the first of possibly several).");
    }
    return true;
}

Result<bool> TokenFile::checkBatchShape(int batchSize, int contextLength) const
{
    if (batchSize < 1 || contextLength < 1)
        return Result<bool>::failure(path_, "range", path_ + ": batch size (" + std::to_string(batchSize) + ") and context length (" +
                                                         std::to_string(contextLength) + ") must be at least 1.");
    // Each row needs ctx inputs plus the one target beyond them.
    if (count_ < static_cast<std::int64_t>(contextLength) + 1)
        return Result<bool>::failure(path_, "too-short", path_ + ": " + std::to_string(count_) + " tokens; a batch of context length " +
                                                             std::to_string(contextLength) + " needs at least " +
                                                             std::to_string(contextLength + 1) + ".");
    return true;
}

void TokenFile::fillRow(std::int64_t start, int contextLength, std::int32_t *inputs, std::int32_t *targets) const
{
    // x[s..s+ctx] read once: targets are the inputs shifted by one.
    std::int32_t previous = static_cast<std::int32_t>(at(start));
    for (int t = 0; t < contextLength; ++t) {
        const auto next = static_cast<std::int32_t>(at(start + t + 1));
        inputs[t] = previous;
        targets[t] = next;
        previous = next;
    }
}

Result<bool> TokenFile::sampleBatch(int batchSize, int contextLength, std::mt19937_64 &rng, std::int32_t *inputs,
                                    std::int32_t *targets) const
{
    if (Result<bool> shape = checkBatchShape(batchSize, contextLength); !shape.ok())
        return shape;
    // CS336 get_batch: np.random.randint(0, len(x) - context_length) draws from the half-open
    // [0, n − ctx), i.e. the closed [0, n − ctx − 1], so the last target x[n − 1] can be used.
    std::uniform_int_distribution<std::int64_t> start(0, count_ - contextLength - 1);
    for (int b = 0; b < batchSize; ++b) {
        const std::ptrdiff_t row = static_cast<std::ptrdiff_t>(b) * contextLength;
        fillRow(start(rng), contextLength, inputs + row, targets + row);
    }
    return true;
}

Result<bool> TokenFile::sequentialBatch(std::int64_t startIndex, int batchSize, int contextLength, std::int32_t *inputs,
                                        std::int32_t *targets) const
{
    if (Result<bool> shape = checkBatchShape(batchSize, contextLength); !shape.ok())
        return shape;
    const std::int64_t lastStart = startIndex + static_cast<std::int64_t>(batchSize - 1) * contextLength;
    if (startIndex < 0 || lastStart > count_ - contextLength - 1)
        return Result<bool>::failure(path_, "range", path_ + ": a batch of " + std::to_string(batchSize) + " windows of " +
                                                         std::to_string(contextLength) + " tokens from position " +
                                                         std::to_string(startIndex) + " needs " +
                                                         std::to_string(lastStart + contextLength + 1) + " tokens; the file has " +
                                                         std::to_string(count_) + ".");
    for (int b = 0; b < batchSize; ++b) {
        const std::ptrdiff_t row = static_cast<std::ptrdiff_t>(b) * contextLength;
        fillRow(startIndex + static_cast<std::int64_t>(b) * contextLength, contextLength, inputs + row, targets + row);
    }
    return true;
}

std::int64_t TokenFile::windowCount(int contextLength) const
{
    if (contextLength < 1 || count_ < static_cast<std::int64_t>(contextLength) + 1)
        return 0;
    return (count_ - 1) / contextLength;
}

Result<bool> writeTokenFile(const std::string &path, const std::vector<std::uint32_t> &ids, TokenDtype dtype)
{
    QByteArray bytes;
    bytes.reserve(static_cast<qsizetype>(ids.size()) * tokenDtypeSize(dtype));
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const std::uint32_t id = ids[i];
        if (dtype == TokenDtype::U16) {
            if (id > std::numeric_limits<std::uint16_t>::max())
                return Result<bool>::failure(path, "range", path + ": token " + std::to_string(i) + " has id " + std::to_string(id) +
                                                                ", which does not fit uint16; write uint32 ids.");
            const auto v = static_cast<std::uint16_t>(id);
            bytes.append(reinterpret_cast<const char *>(&v), sizeof v);
        } else {
            bytes.append(reinterpret_cast<const char *>(&id), sizeof id);
        }
    }
    return writeFileReplacing(path, std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
}

}  // namespace lse
