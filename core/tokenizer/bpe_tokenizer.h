// SPDX-License-Identifier: GPL-3.0-or-later
// Byte-level BPE encoder/decoder (GPT-2 style): text → special-token split → GPT-2 pre-tokens →
// merges applied by rank within each pre-token → ids. Loads and saves GPT-2 vocab.json + merges.txt.
#pragma once

#include "common/prefaulted_allocator.h"
#include "common/problem.h"
#include "tokenizer/flat_tables.h"
#include "tokenizer/pretoken_cache.h"
#include "tokenizer/pretokenizer.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <istream>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace lse {

struct BpeTrainResult;

struct EncodedToken {
    std::uint32_t id = 0;
    std::size_t begin = 0;  // byte offsets into the encoded text
    std::size_t end = 0;
};

// What encodeFile read and produced.
struct FileEncoding {
    std::size_t tokens = 0;
    std::int64_t bytes = 0;  // bytes actually read (a /proc file states 0 and still holds text)
};

struct StringViewHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

// Immutable model data shared by copies of a tokenizer (defined in bpe_tokenizer.cpp).
struct BpeModel;

// Not thread-safe (it owns a pre-token cache); copies are cheap and share the model, so use one
// copy per thread.
class BpeTokenizer {
public:
    // tokens: id → bytes; merges in rank order as byte strings; special tokens are added to the
    // vocabulary when missing. Every single byte must be a token.
    static Result<BpeTokenizer> create(std::vector<std::string> tokens,
                                       const std::vector<std::pair<std::string, std::string>> &merges,
                                       const std::vector<std::string> &specialTokens = {});
    static Result<BpeTokenizer> fromTraining(const BpeTrainResult &trained);
    // GPT-2 vocab.json + merges.txt (byte-to-unicode alphabet; a "#version" first line is skipped).
    static Result<BpeTokenizer> loadGpt2(const std::string &vocabPath, const std::string &mergesPath,
                                         const std::vector<std::string> &specialTokens = {});
    // Both files are written and flushed before either replaces an old one (writeFilesTogether).
    Result<bool> saveGpt2(const std::string &vocabPath, const std::string &mergesPath) const;

    std::size_t vocabSize() const;
    std::string_view tokenBytes(std::uint32_t id) const;  // valid while a copy of this tokenizer lives
    const std::vector<std::string> &specialTokens() const;
    std::size_t mergeCount() const;

    // Special tokens in allowedSpecial (which must be special tokens of this tokenizer) are split
    // out first and become their ids; any other text, including special tokens not allowed, is
    // encoded as ordinary text.
    std::vector<std::uint32_t> encode(std::string_view text, const std::vector<std::string> &allowedSpecial = {});
    std::vector<EncodedToken> encodeWithOffsets(std::string_view text,
                                                const std::vector<std::string> &allowedSpecial = {});
    // The same tokens passed to sink in order, in batches, so that the listing of a large text
    // never has to be held whole (24 bytes a token: 6 GB for 256 MiB of single-byte tokens).
    using TokenSink = std::function<void(const EncodedToken *tokens, std::size_t count)>;
    void encodeWithOffsets(std::string_view text, const std::vector<std::string> &allowedSpecial, const TokenSink &sink);
    // Appends to out (no clearing).
    void encodeInto(std::string_view text, const std::vector<std::string> &allowedSpecial,
                    std::vector<std::uint32_t> &out);

    // Reads the stream in chunks of chunkBytes and passes ids to sink in order, in batches; the ids
    // are identical to encode() of the whole input. Holds only the unfinished tail of the input.
    using IdSink = std::function<void(const std::uint32_t *ids, std::size_t count)>;
    // A stream that goes bad is a problem {"input", "unreadable"}.
    Result<std::size_t> encodeStream(std::istream &in, const std::vector<std::string> &allowedSpecial,
                                     const IdSink &sink, std::size_t chunkBytes = 1 << 20);
    // A file under FileReader's rules (FileKind::Data): a regular file of known size is mapped,
    // anything else (a /proc file, a file too large to map under an address-space limit) streamed
    // in chunks of chunkBytes. Problems name the path: unreadable, not_a_file, a read error.
    // A mapped file of at least two pieces (kParallelPieceBytes) is encoded on `threads` threads:
    // pieces cut where the encodings concatenate (nextSafeCut), each thread with its own copy of
    // this tokenizer (the calling thread with this one), the ids handed to sink in order from the
    // calling thread. The ids are the same for every thread count.
    Result<FileEncoding> encodeFile(const std::string &path, const std::vector<std::string> &allowedSpecial,
                                    const IdSink &sink, std::size_t chunkBytes = 1 << 20, unsigned threads = 1);
    static constexpr std::size_t kParallelPieceBytes = std::size_t(4) << 20;

    std::string decodeBytes(const std::vector<std::uint32_t> &ids) const;  // raw bytes
    std::string decode(const std::vector<std::uint32_t> &ids) const;       // invalid UTF-8 → U+FFFD

    // Pre-tokens and parts of pre-tokens merged by this copy so far (the rest came from its
    // caches): the work a cold cache adds, which copies on several threads each repeat.
    std::size_t piecesMerged() const { return piecesMerged_; }

    // Applies the merges to one pre-token (no special-token handling); appends ids.
    void encodePretoken(std::string_view piece, std::vector<std::uint32_t> &out);

private:
    explicit BpeTokenizer(std::shared_ptr<const BpeModel> model) : model_(std::move(model)) {}
    // Up to `capacity` bytes into the buffer: how many (0 at the end), or why not.
    using ByteSource = std::function<Result<std::size_t>(char *buffer, std::size_t capacity)>;
    Result<std::size_t> encodeSource(const ByteSource &read, const std::vector<std::string> &allowedSpecial,
                                     const IdSink &sink, std::size_t chunkBytes);
    SpecialTokenMatcher matcherFor(const std::vector<std::string> &allowedSpecial) const;
    void reserveCacheFor(std::size_t textBytes);  // sizes the pre-token cache for a text this long
    void encodeOrdinary(std::string_view text, std::vector<std::uint32_t> &out);
    void mergePiece(std::string_view piece);        // BPE of one pre-token into scratch_
    void mergeMediumPiece(std::string_view piece);  // the same, vectorised, for 17..kLongPieceBytes bytes
    void mergeLongPiece(std::string_view piece);    // the same in O(n log n) for long pre-tokens
    void mergeInParts(std::string_view piece);      // BPE of a pre-token cut where no merge joins, into parts_
    // Member templates below take any vector of std::uint32_t; defined and instantiated in the .cpp.
    template <typename IdVector>
    void appendPretokenIds(std::string_view piece, IdVector &out);
    template <typename IdVector>
    void appendShortPretokenIds(std::string_view piece, const PretokenCache::Key &key, IdVector &out);
    template <typename IdVector>
    void appendLongPretokenIds(std::string_view piece, IdVector &out);
    // encodeOrdinary with the cache entries of upcoming pre-tokens prefetched. afterPiece() runs
    // after each pre-token, when `out` may lack up to a thousand of the latest ids (they pass
    // through a buffer; all are in `out` on return), and after each slice of a pre-token longer
    // than kMaxPretokenBytes, when `out` has every id so far.
    template <typename IdVector, typename AfterPiece>
    void encodeOrdinaryPipelined(std::string_view text, IdVector &out, AfterPiece &&afterPiece);
    // encodeFile's mapped text on several threads; the number of ids, or nothing (and no id passed
    // on) when the text cannot be cut into pieces of bounded size.
    std::optional<std::size_t> encodeInParallel(std::string_view text, const std::vector<std::string> &allowedSpecial, const IdSink &sink,
                                 unsigned threads);

    std::shared_ptr<const BpeModel> model_;
    // Pre-tokens of 2..16 bytes → ids; longer ones (up to kCacheMaxPieceBytes) → (id count,
    // offset in cacheIds_). Both grow with the text, so copies of a fresh tokenizer stay cheap.
    PretokenCache shortCache_{256};
    ByteStringTable cache_{16};
    std::vector<std::uint32_t, PrefaultedAllocator<std::uint32_t>> cacheIds_;
    std::vector<std::uint32_t> scratch_;
    std::vector<std::uint32_t> parts_;
    std::size_t piecesMerged_ = 0;
};

}  // namespace lse
