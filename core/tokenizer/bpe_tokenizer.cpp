// SPDX-License-Identifier: GPL-3.0-or-later
#include "tokenizer/bpe_tokenizer.h"

#include "common/file_bytes.h"
#include "common/file_writer.h"
#include "common/input_files.h"
#include "common/json_fields.h"
#include "tokenizer/bpe_trainer.h"
#include "tokenizer/byte_unicode.h"
#include "tokenizer/unicode.h"
#include "tokenizer/vocab_json.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <istream>
#include <limits>
#include <optional>

namespace lse {

namespace {

constexpr std::uint32_t kNoMerge = PairRankTable::kNone;

// A merge of two byte tokens. rankPlusOne is 0 where there is none (so a fresh table is all-zero
// bytes) and rankPlusOne - 1 wraps to kNoMerge there.
struct PairMerge {
    std::uint32_t rankPlusOne = 0;
    std::uint32_t id = 0;
};

}  // namespace

struct BpeModel {
    ByteStringList tokens;  // id → bytes
    ByteStringTable ids{16};          // bytes → (id, 0); the first id wins for a duplicate
    std::vector<std::pair<std::uint32_t, std::uint32_t>, PrefaultedAllocator<std::pair<std::uint32_t, std::uint32_t>>>
        merges;  // rank → (left id, right id)
    PairRankTable mergeRank;                                      // (left, right) → (rank, merged id)
    std::uint32_t byteIds[256] = {};
    // (first byte << 8 | second byte) → the merge of the two byte tokens, for the first round of
    // every pre-token's merges without a hash lookup.
    ZeroedArray<PairMerge> bytePairs;
    std::vector<std::string> specialTokens;
    std::vector<std::uint32_t> specialIds;
    bool uniqueTokens = true;          // no two ids have the same bytes
    std::uint32_t lastMergedId = 0;    // the token the latest merge made
    // Bit (a << 8 | b): some merge joins a token that ends in byte a to one that starts with byte
    // b. Where bytes a and b meet in a pre-token and no merge joins them, no merge can ever cross
    // that point (a merge across it would be such a join), so the parts on either side merge
    // independently and their ids, concatenated, are the pre-token's. The encoder cuts first-seen
    // pre-tokens there and merges (and caches) the parts on their own: GPT-2's merges join 2.7k of
    // the 65,536 byte pairs, and 8.5 MB of mixed text then merges 46k distinct parts instead of 70k
    // distinct pre-tokens (a run of CJK or Cyrillic letters is one pre-token but many parts).
    std::uint64_t joinedBytePairs[1024] = {};
    bool mayJoin(unsigned char a, unsigned char b) const
    {
        const unsigned bit = unsigned(a) << 8 | b;
        return (joinedBytePairs[bit >> 6] >> (bit & 63)) & 1;
    }

    std::optional<std::uint32_t> idOf(std::string_view bytes) const
    {
        const ByteStringTable::Slot *slot = ids.find(bytes);
        return slot ? std::optional<std::uint32_t>(slot->first) : std::nullopt;
    }
};

namespace {

// Distinct pre-tokens kept before the cache is reset, and the longest one cached: bounds memory
// on adversarial input while real text (Zipf-distributed words) stays almost entirely cached.
constexpr std::size_t kCacheLimit = 1 << 18;
constexpr std::size_t kCacheMaxPieceBytes = 256;
// Pre-tokens longer than this use the heap-based merge instead of rescanning all pairs per merge.
constexpr std::size_t kLongPieceBytes = 96;

// Ids on their way into an output vector, gathered in a buffer on the stack. A cached pre-token's
// ids (at most PretokenCache::kInlineIds, in an entry with 16 readable bytes) are copied with one
// 16-byte store and the count added; push_back per id checked the vector's capacity and branched
// on the count, which varies from one pre-token to the next (issue 35: 13 of 63 ms of a warm
// 8.5 MB encode). The buffer moves into the vector when full, by flush() and on destruction, so
// the vector lags behind by at most kCapacity ids.
template <typename IdVector>
class IdAppender {
public:
    explicit IdAppender(IdVector &out) : out_(out) {}
    ~IdAppender() { flush(); }
    IdAppender(const IdAppender &) = delete;
    IdAppender &operator=(const IdAppender &) = delete;

    // count <= 4 ids at `ids`, which has 16 readable bytes.
    void appendInline(const std::uint32_t *ids, std::uint32_t count)
    {
        std::memcpy(buffer_ + used_, ids, 16);  // used_ < kCapacity: within the 4 ids of slack
        used_ += count;
        if (used_ >= kCapacity)
            flush();
    }
    void append(const std::uint32_t *ids, std::size_t count)
    {
        if (count > kCapacity - used_) {
            flush();
            if (count >= kCapacity) {
                out_.insert(out_.end(), ids, ids + count);
                return;
            }
        }
        std::memcpy(buffer_ + used_, ids, count * sizeof(std::uint32_t));
        used_ += count;
        if (used_ >= kCapacity)
            flush();
    }
    void push_back(std::uint32_t id)
    {
        buffer_[used_++] = id;
        if (used_ >= kCapacity)
            flush();
    }
    void flush()
    {
        out_.insert(out_.end(), buffer_, buffer_ + used_);
        used_ = 0;
    }
    // The vector with every id appended so far.
    IdVector &flushed()
    {
        flush();
        return out_;
    }

private:
    static constexpr std::size_t kCapacity = 1024;
    IdVector &out_;
    std::size_t used_ = 0;
    std::uint32_t buffer_[kCapacity + 4];
};

template <typename T>
struct IsIdAppender : std::false_type {};
template <typename IdVector>
struct IsIdAppender<IdAppender<IdVector>> : std::true_type {};

template <typename Out>
void appendIds(Out &out, const std::uint32_t *ids, std::size_t count)
{
    if constexpr (IsIdAppender<Out>::value)
        out.append(ids, count);
    else
        out.insert(out.end(), ids, ids + count);
}

template <typename T>
Result<T> fileProblem(const std::string &file, std::size_t line, const std::string &rule, const std::string &what)
{
    std::string where = file;
    if (line > 0)
        where += ":" + std::to_string(line);
    return Result<T>::failure(where, rule, where + ": " + what);
}


std::string jsonEscape(std::string_view s)
{
    std::string out;
    for (const char c : s) {
        if (c == '"' || c == '\\') {
            out.push_back('\\');
            out.push_back(c);
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
            out += buf;
        } else {
            out.push_back(c);
        }
    }
    return out;
}


}  // namespace

// --- construction -------------------------------------------------------------------------------

std::size_t BpeTokenizer::vocabSize() const { return model_->tokens.size(); }
std::string_view BpeTokenizer::tokenBytes(std::uint32_t id) const { return model_->tokens.at(id); }
const std::vector<std::string> &BpeTokenizer::specialTokens() const { return model_->specialTokens; }
std::size_t BpeTokenizer::mergeCount() const { return model_->merges.size(); }

namespace {

// The vocabulary half of a model: tokens, their ids, the 256 byte tokens and the special tokens.
Result<std::shared_ptr<BpeModel>> buildVocabulary(ByteStringList tokens,
                                                  const std::vector<std::string> &specialTokens, std::size_t mergeCount)
{
    using R = Result<std::shared_ptr<BpeModel>>;
    auto model = std::make_shared<BpeModel>();
    model->tokens = std::move(tokens);
    if (model->tokens.size() >= std::numeric_limits<std::uint32_t>::max())
        return R::failure("vocab", "too_large", "The vocabulary is too large.");
    model->ids.reserve(model->tokens.size() + specialTokens.size());
    for (std::size_t id = 0; id < model->tokens.size(); ++id)
        if (!model->ids.insertIfAbsent(model->tokens[id], static_cast<std::uint32_t>(id), 0))
            model->uniqueTokens = false;
    for (const auto &special : specialTokens) {
        if (special.empty() ||
            std::find(model->specialTokens.begin(), model->specialTokens.end(), special) != model->specialTokens.end())
            continue;
        std::optional<std::uint32_t> id = model->idOf(special);
        if (!id) {
            id = static_cast<std::uint32_t>(model->tokens.size());
            model->tokens.push_back(special);
            model->ids.insert(special, *id, 0);
        }
        model->specialTokens.push_back(special);
        model->specialIds.push_back(*id);
    }
    for (int b = 0; b < 256; ++b) {
        const char byte = static_cast<char>(static_cast<unsigned char>(b));
        const std::optional<std::uint32_t> id = model->idOf(std::string_view(&byte, 1));
        if (!id)
            return R::failure("vocab", "missing_byte",
                              "The vocabulary has no token for the byte " + std::to_string(b) +
                                  "; a byte-level BPE needs all 256.");
        model->byteIds[b] = *id;
    }
    model->bytePairs = ZeroedArray<PairMerge>(std::size_t(1) << 16);
    model->merges.reserve(mergeCount);
    model->mergeRank.reserve(mergeCount, model->tokens.size());
    return model;
}

// Appends the next merge (rank = merges so far). Returns what is missing from the vocabulary, or
// an empty string. `joined` is scratch space.
std::string addMerge(BpeModel &model, std::string_view left, std::string_view right, std::string &joined)
{
    const auto li = model.idOf(left), ri = model.idOf(right);
    // Vocabularies written in merge order (GPT-2's, this trainer's) give merge k the id after
    // merge k-1's: check that id's bytes before hashing the joined string. Exact only when no two
    // ids share their bytes (idOf returns the first of duplicates).
    std::optional<std::uint32_t> mi;
    const std::uint32_t guess = model.lastMergedId + 1;
    if (model.uniqueTokens && !model.merges.empty() && guess < model.tokens.size()) {
        const std::string_view t = model.tokens[guess];
        if (t.size() == left.size() + right.size() && t.substr(0, left.size()) == left &&
            t.substr(left.size()) == right)
            mi = guess;
    }
    if (!mi) {
        joined.assign(left).append(right);
        mi = model.idOf(joined);
    }
    if (!li || !ri || !mi)
        return !li   ? "left part '" + bytesToAlphabet(left) + "'"
               : !ri ? "right part '" + bytesToAlphabet(right) + "'"
                     : "merged token '" + bytesToAlphabet(joined) + "'";
    const auto rank = static_cast<std::uint32_t>(model.merges.size());
    model.mergeRank.insert(*li, *ri, rank, *mi);
    model.lastMergedId = *mi;
    if (left.empty() || right.empty()) {  // an empty token joins anything: never cut
        std::fill(std::begin(model.joinedBytePairs), std::end(model.joinedBytePairs), ~std::uint64_t(0));
    } else {
        const unsigned bit = unsigned(static_cast<unsigned char>(left.back())) << 8 | static_cast<unsigned char>(right.front());
        model.joinedBytePairs[bit >> 6] |= std::uint64_t(1) << (bit & 63);
    }
    if (left.size() == 1 && right.size() == 1) {  // li, ri are then byteIds of the two bytes
        PairMerge &pair = model.bytePairs[std::size_t(static_cast<unsigned char>(left[0])) << 8 |
                                          static_cast<unsigned char>(right[0])];
        if (pair.rankPlusOne == 0)  // the first (lowest-rank) merge of a pair wins, as in mergeRank
            pair = {rank + 1, *mi};
    }
    model.merges.emplace_back(*li, *ri);
    return {};
}

std::string mergeProblemText(std::size_t rank, const std::string &missing)
{
    return "Merge " + std::to_string(rank + 1) + ": the " + missing + " is not in the vocabulary.";
}

}  // namespace

Result<BpeTokenizer> BpeTokenizer::create(std::vector<std::string> tokens,
                                          const std::vector<std::pair<std::string, std::string>> &merges,
                                          const std::vector<std::string> &specialTokens)
{
    ByteStringList list;
    std::size_t bytes = 0;
    for (const std::string &token : tokens)
        bytes += token.size();
    list.reserve(tokens.size(), bytes);
    for (const std::string &token : tokens)
        list.push_back(token);
    auto built = buildVocabulary(std::move(list), specialTokens, merges.size());
    if (!built)
        return built.problems();
    BpeModel &model = *built.value();
    std::string joined;
    for (std::size_t rank = 0; rank < merges.size(); ++rank) {
        const std::string missing = addMerge(model, merges[rank].first, merges[rank].second, joined);
        if (!missing.empty())
            return Result<BpeTokenizer>::failure("merges[" + std::to_string(rank) + "]", "unknown_token",
                                                 mergeProblemText(rank, missing));
    }
    return BpeTokenizer(std::move(built.value()));
}

Result<BpeTokenizer> BpeTokenizer::fromTraining(const BpeTrainResult &trained)
{
    std::vector<std::string> specials(trained.vocab.begin(),
                                      trained.vocab.begin() + static_cast<std::ptrdiff_t>(trained.specialCount));
    return create(trained.vocab, trained.merges, specials);
}

Result<BpeTokenizer> BpeTokenizer::loadGpt2(const std::string &vocabPath, const std::string &mergesPath,
                                            const std::vector<std::string> &specialTokens)
{
    // vocab.json
    const Result<FileBytes> vocabData = mapFileBytes(vocabPath, FileKind::Tokenizer);
    if (!vocabData)
        return vocabData.problems();
    // Tokens are placed by id as they are read; every id 0..n-1 must then appear exactly once, so
    // an id beyond the file's size in bytes can only be a gap (and must not size an allocation).
    const std::string_view vocabText = vocabData->view();
    ByteStringList tokens;
    std::string tokenScratch;
    std::vector<bool> seen;
    std::optional<Problems> entryProblem;
    const auto addEntry = [&](std::string_view key, std::int64_t id) {
        const auto maxId = static_cast<std::int64_t>(std::min<std::size_t>(vocabText.size(), std::size_t(1) << 31));
        if (id < 0 || id >= maxId || (std::size_t(id) < seen.size() && seen[std::size_t(id)])) {
            entryProblem = fileProblem<BpeTokenizer>(vocabPath, 0, "bad_id",
                                                     "token '" + std::string(key) + "' has the id " + std::to_string(id) +
                                                         ", which is negative, too large or already used.")
                               .problems();
            return false;
        }
        const auto index = static_cast<std::size_t>(id);
        if (index >= seen.size())
            seen.resize(index + 1, false);
        if (!alphabetToBytesInto(key, tokenScratch)) {
            entryProblem = fileProblem<BpeTokenizer>(vocabPath, 0, "bad_token",
                                                     "token '" + std::string(key) +
                                                         "' is not spelled in GPT-2's byte-to-unicode alphabet.")
                               .problems();
            return false;
        }
        tokens.set(index, tokenScratch);
        seen[index] = true;
        return true;
    };
    // The dedicated flat-object parser reads every well-formed vocabulary; only a file it refuses
    // goes through Qt's JSON parser, which says where and why it is invalid.
    tokens.reserve(vocabText.size() / 16, vocabText.size() / 2);
    if (!forEachFlatJsonIntMember(vocabText, addEntry)) {
        if (entryProblem)
            return *entryProblem;
        QJsonParseError error{};
        const QJsonDocument doc = QJsonDocument::fromJson(
            QByteArray::fromRawData(vocabText.data(), static_cast<qsizetype>(vocabText.size())), &error);
        if (error.error != QJsonParseError::NoError) {
            const auto line = 1 + static_cast<std::size_t>(
                                      std::count(vocabText.data(), vocabText.data() + error.offset, '\n'));
            return fileProblem<BpeTokenizer>(vocabPath, line, "bad_json",
                                             "invalid JSON: " + error.errorString().toStdString() + ".");
        }
        if (!doc.isObject())
            return fileProblem<BpeTokenizer>(vocabPath, 1, "bad_json", "expected a JSON object of token → id.");
        const QJsonObject obj = doc.object();
        tokens.clear();
        seen.clear();
        for (auto it = obj.begin(); it != obj.end(); ++it) {
            const std::optional<std::int64_t> v = jsonCountValue(it.value());
            const std::string key = it.key().toStdString();
            if (!v)
                return fileProblem<BpeTokenizer>(vocabPath, 0, "bad_id",
                                                 "token '" + key + "' has an id that is not a non-negative integer.");
            if (!addEntry(key, *v))
                return *entryProblem;
        }
    }
    if (const auto gap = std::find(seen.begin(), seen.end(), false); gap != seen.end())
        return fileProblem<BpeTokenizer>(vocabPath, 0, "bad_id",
                                         "no token has the id " + std::to_string(gap - seen.begin()) + "; ids must be 0.." +
                                             std::to_string(tokens.size() - 1) + " without gaps.");

    // merges.txt, resolved line by line into the model (no intermediate list of string pairs).
    const Result<FileBytes> mergesData = mapFileBytes(mergesPath, FileKind::Tokenizer);
    if (!mergesData)
        return mergesData.problems();
    const std::string_view text = mergesData->view();
    auto built = buildVocabulary(std::move(tokens), specialTokens,
                                 static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1);
    if (!built) {
        Problem p = built.problems().front();
        p.message = vocabPath + ": " + p.message;
        p.field = vocabPath;
        return Problems{p};
    }
    BpeModel &model = *built.value();
    std::string left, right, joined;
    std::size_t pos = 0, line = 0;
    while (pos < text.size()) {
        std::size_t eol = text.find('\n', pos);
        if (eol == std::string_view::npos)
            eol = text.size();
        std::string_view l = text.substr(pos, eol - pos);
        pos = eol + 1;
        ++line;
        if (!l.empty() && l.back() == '\r')
            l.remove_suffix(1);
        if (l.empty() || (line == 1 && l.substr(0, 8) == "#version"))
            continue;
        const std::size_t sp = l.find(' ');
        if (sp == std::string_view::npos || sp == 0 || sp + 1 >= l.size() || l.find(' ', sp + 1) != std::string_view::npos)
            return fileProblem<BpeTokenizer>(mergesPath, line, "bad_merge",
                                             "expected two tokens separated by one space, got '" + std::string(l) + "'.");
        if (!alphabetToBytesInto(l.substr(0, sp), left) || !alphabetToBytesInto(l.substr(sp + 1), right))
            return fileProblem<BpeTokenizer>(mergesPath, line, "bad_token",
                                             "'" + std::string(l) + "' is not spelled in GPT-2's byte-to-unicode alphabet.");
        const std::size_t rank = model.merges.size();
        const std::string missing = addMerge(model, left, right, joined);
        if (!missing.empty())
            return fileProblem<BpeTokenizer>(mergesPath, line, "unknown_token", mergeProblemText(rank, missing));
    }
    return BpeTokenizer(std::move(built.value()));
}

Result<bool> BpeTokenizer::saveGpt2(const std::string &vocabPath, const std::string &mergesPath) const
{
    std::string vocab = "{";
    for (std::size_t id = 0; id < model_->tokens.size(); ++id) {
        vocab += id == 0 ? "\n" : ",\n";
        vocab += "  \"" + jsonEscape(bytesToAlphabet(model_->tokens[id])) + "\": " + std::to_string(id);
    }
    vocab += "\n}\n";
    std::string merges = "#version: 0.2\n";
    for (const auto &[l, r] : model_->merges)
        merges += bytesToAlphabet(model_->tokens[l]) + " " + bytesToAlphabet(model_->tokens[r]) + "\n";
    // The two files belong together: both new or both old, never a new vocab.json beside an old or
    // short merges.txt.
    return writeFilesTogether({{vocabPath, vocab}, {mergesPath, merges}});
}

// --- encoding -----------------------------------------------------------------------------------

namespace {

// The first round of a pre-token's merges: its bytes' ids, and each adjacent byte pair's merge
// rank (kNoMerge when there is none) and result from the direct byte-pair table.
void startMerging(const BpeModel &m, std::string_view piece, std::uint32_t *ids, std::uint32_t *ranks,
                  std::uint32_t *merged)
{
    const auto *bytes = reinterpret_cast<const unsigned char *>(piece.data());
    const std::size_t n = piece.size();
    for (std::size_t i = 0; i < n; ++i)
        ids[i] = m.byteIds[bytes[i]];
    for (std::size_t i = 0; i + 1 < n; ++i) {
        const PairMerge pair = m.bytePairs[std::size_t(bytes[i]) << 8 | bytes[i + 1]];
        ranks[i] = pair.rankPlusOne - 1;  // kNoMerge when there is none
        merged[i] = pair.id;
    }
}

// The merge of symbols i and i + 1 after a merge beside them changed one of them.
[[gnu::always_inline]] inline void lookUpPair(const BpeModel &m, const std::uint32_t *ids, std::uint32_t *ranks,
                                              std::uint32_t *merged, std::size_t i)
{
    const PairRankTable::Merge e = m.mergeRank.find(ids[i], ids[i + 1]);
    ranks[i] = e.rank;  // kNoMerge when there is none
    merged[i] = e.id;
}

}  // namespace

void BpeTokenizer::mergePiece(std::string_view piece)
{
    // Merge the lowest-ranked adjacent pair (the leftmost of equal ranks) until no pair has a
    // merge. The rank and result of each adjacent pair are kept beside it, so a merge looks up
    // only the two pairs it creates; the first round reads byte pairs from a direct table, and the
    // minimum is a scan over a few integers (pieces here are at most kLongPieceBytes long).
    const BpeModel &m = *model_;
    const std::size_t n = piece.size();
    std::uint32_t ids[kLongPieceBytes];
    std::uint32_t ranks[kLongPieceBytes];   // ranks[i]: merge rank of (ids[i], ids[i+1])
    std::uint32_t merged[kLongPieceBytes];  // merged[i]: the token that merge makes
    startMerging(m, piece, ids, ranks, merged);
    const auto lookUp = [&](std::size_t i) { lookUpPair(m, ids, ranks, merged, i); };
    std::size_t count = n;
    while (count > 1) {
        std::size_t best = 0;
        for (std::size_t i = 1; i + 1 < count; ++i)
            if (ranks[i] < ranks[best])
                best = i;
        if (ranks[best] == kNoMerge)
            break;
        ids[best] = merged[best];
        for (std::size_t i = best + 1; i + 1 < count; ++i) {
            ids[i] = ids[i + 1];
            ranks[i] = ranks[i + 1];
            merged[i] = merged[i + 1];
        }
        --count;
        if (best + 1 < count)
            lookUp(best);
        if (best > 0)
            lookUp(best - 1);
    }
    scratch_.assign(ids, ids + count);
}

void BpeTokenizer::mergeMediumPiece(std::string_view piece)
{
#if defined(__AVX2__)
    // mergePiece for pre-tokens of 17..kLongPieceBytes bytes (the CJK and Cyrillic words of 8.5 MB
    // of mixed text: 10k of its 70k distinct pre-tokens, 40% of the merging time), with the scan
    // for the lowest rank and the shift that closes the gap 8 pairs per step. Arrays are padded
    // by 8 so that whole vectors can be read and shifted past the last pair; the pad's ranks stay
    // kNoMerge. Measured on those pre-tokens: 38-54 -> 31-35 ns per byte. Shorter pre-tokens stay
    // on the scalar loop: there the vector loads wait for the scalar stores just before them
    // (a failed store forward), and it was 2x slower on a hot cache.
    const BpeModel &m = *model_;
    const std::size_t n = piece.size();
    constexpr std::size_t kPad = 8;
    alignas(32) std::uint32_t ids[kLongPieceBytes + kPad];
    alignas(32) std::uint32_t ranks[kLongPieceBytes + kPad];   // ranks[i]: merge rank of (ids[i], ids[i+1])
    alignas(32) std::uint32_t merged[kLongPieceBytes + kPad];  // merged[i]: the token that merge makes
    startMerging(m, piece, ids, ranks, merged);
    for (std::size_t i = n - 1; i < n + kPad; ++i)
        ranks[i] = kNoMerge;
    const auto lookUp = [&](std::size_t i) { lookUpPair(m, ids, ranks, merged, i); };
    std::size_t count = n;
    while (count > 1) {
        const std::size_t pairs = count - 1;
        __m256i vmin = _mm256_load_si256(reinterpret_cast<const __m256i *>(ranks));
        for (std::size_t i = 8; i < pairs; i += 8)
            vmin = _mm256_min_epu32(vmin, _mm256_loadu_si256(reinterpret_cast<const __m256i *>(ranks + i)));
        vmin = _mm256_min_epu32(vmin, _mm256_permute2x128_si256(vmin, vmin, 1));
        vmin = _mm256_min_epu32(vmin, _mm256_shuffle_epi32(vmin, 0x4E));
        vmin = _mm256_min_epu32(vmin, _mm256_shuffle_epi32(vmin, 0xB1));
        const std::uint32_t low = static_cast<std::uint32_t>(_mm256_cvtsi256_si32(vmin));
        if (low == kNoMerge)
            break;
        std::size_t best = 0;
        for (;; best += 8) {
            const auto eq = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(
                _mm256_cmpeq_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(ranks + best)), vmin))));
            if (eq) {
                best += static_cast<std::size_t>(__builtin_ctz(eq));
                break;
            }
        }
        ids[best] = merged[best];
        for (std::size_t i = best + 1; i < count; i += 8) {
            _mm256_storeu_si256(reinterpret_cast<__m256i *>(ids + i), _mm256_loadu_si256(reinterpret_cast<const __m256i *>(ids + i + 1)));
            _mm256_storeu_si256(reinterpret_cast<__m256i *>(ranks + i), _mm256_loadu_si256(reinterpret_cast<const __m256i *>(ranks + i + 1)));
            _mm256_storeu_si256(reinterpret_cast<__m256i *>(merged + i), _mm256_loadu_si256(reinterpret_cast<const __m256i *>(merged + i + 1)));
        }
        --count;
        ranks[count - 1] = kNoMerge;
        if (best + 1 < count)
            lookUp(best);
        if (best > 0)
            lookUp(best - 1);
    }
    scratch_.assign(ids, ids + count);
#else
    mergePiece(piece);
#endif
}

void BpeTokenizer::mergeLongPiece(std::string_view piece)
{
    // Doubly linked list of symbols and a min-heap of candidate merges keyed by (rank, position):
    // popping in that order merges pairs in the same order as the rescanning loop (lowest rank
    // first, leftmost first among equal ranks), in O(n log n) instead of O(n^2). Stale heap
    // entries (a side already merged away) are skipped when popped.
    const BpeModel &m = *model_;
    const std::size_t n = piece.size();
    struct Symbol {
        std::uint32_t id;
        std::uint32_t prev;  // kNone at the ends
        std::uint32_t next;
    };
    constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
    struct Candidate {
        std::uint32_t rank, left, leftId, rightId;
        bool operator>(const Candidate &o) const { return rank != o.rank ? rank > o.rank : left > o.left; }
    };
    std::vector<Symbol> symbols(n);
    for (std::size_t i = 0; i < n; ++i)
        symbols[i] = {m.byteIds[static_cast<unsigned char>(piece[i])], i == 0 ? kNone : std::uint32_t(i - 1),
                      i + 1 == n ? kNone : std::uint32_t(i + 1)};
    std::vector<Candidate> heap;
    const auto push = [&](std::uint32_t left) {
        const std::uint32_t right = symbols[left].next;
        if (right == kNone)
            return;
        if (const PairRankTable::Merge e = m.mergeRank.find(symbols[left].id, symbols[right].id)) {
            heap.push_back({e.rank, left, symbols[left].id, symbols[right].id});
            std::push_heap(heap.begin(), heap.end(), std::greater<>{});
        }
    };
    for (std::size_t i = 0; i + 1 < n; ++i)
        push(std::uint32_t(i));
    std::vector<bool> dead(n, false);
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), std::greater<>{});
        const Candidate c = heap.back();
        heap.pop_back();
        Symbol &left = symbols[c.left];
        if (dead[c.left] || left.id != c.leftId || left.next == kNone)
            continue;
        const std::uint32_t r = left.next;
        if (symbols[r].id != c.rightId)
            continue;
        left.id = m.mergeRank.find(c.leftId, c.rightId).id;
        dead[r] = true;
        left.next = symbols[r].next;
        if (left.next != kNone)
            symbols[left.next].prev = c.left;
        if (left.prev != kNone)
            push(left.prev);
        push(c.left);
    }
    scratch_.clear();
    for (std::uint32_t i = 0; i != kNone; i = symbols[i].next)
        scratch_.push_back(symbols[i].id);
}

void BpeTokenizer::mergeInParts(std::string_view piece)
{
    // Cut where no merge joins the bytes on either side (BpeModel::joinedBytePairs); each part
    // merges on its own. A part of 2..16 bytes that is not the whole pre-token goes through the
    // short cache, so the characters and short runs a CJK or Cyrillic text repeats are merged once.
    const BpeModel &m = *model_;
    const auto *bytes = reinterpret_cast<const unsigned char *>(piece.data());
    const std::size_t n = piece.size();
    parts_.clear();
    std::size_t start = 0;
    for (std::size_t i = 1; i <= n; ++i) {
        if (i < n && m.mayJoin(bytes[i - 1], bytes[i]))
            continue;
        const std::string_view part = piece.substr(start, i - start);
        start = i;
        if (part.size() == 1) {
            parts_.push_back(m.byteIds[static_cast<unsigned char>(part[0])]);
            continue;
        }
        if (part.size() == n) {  // no cut: the caller has looked the pre-token up already
            ++piecesMerged_;
            if (n <= PretokenCache::kMaxKeyBytes)
                mergePiece(part);
            else if (n <= kLongPieceBytes)
                mergeMediumPiece(part);
            else
                mergeLongPiece(part);
            parts_.assign(scratch_.begin(), scratch_.end());
            return;
        }
        if (part.size() <= PretokenCache::kMaxKeyBytes) {
            const PretokenCache::Key key = PretokenCache::keyOf(part);
            std::uint32_t count = 0;
            if (const std::uint32_t *ids = shortCache_.find(key, count)) {
                parts_.insert(parts_.end(), ids, ids + count);
                continue;
            }
            ++piecesMerged_;
            mergePiece(part);
            if (shortCache_.size() >= kCacheLimit)
                shortCache_.clear();
            shortCache_.insert(key, scratch_.data(), static_cast<std::uint32_t>(scratch_.size()));
        } else if (part.size() <= kLongPieceBytes) {
            ++piecesMerged_;
            mergeMediumPiece(part);
        } else {
            ++piecesMerged_;
            mergeLongPiece(part);
        }
        parts_.insert(parts_.end(), scratch_.begin(), scratch_.end());
    }
}

void BpeTokenizer::encodePretoken(std::string_view piece, std::vector<std::uint32_t> &out)
{
    appendPretokenIds(piece, out);
}

template <typename IdVector>
void BpeTokenizer::appendPretokenIds(std::string_view piece, IdVector &out)
{
    const std::size_t n = piece.size();
    if (n == 1) {
        out.push_back(model_->byteIds[static_cast<unsigned char>(piece[0])]);
        return;
    }
    if (n <= PretokenCache::kMaxKeyBytes)
        appendShortPretokenIds(piece, PretokenCache::keyOf(piece), out);
    else
        appendLongPretokenIds(piece, out);
}

template <typename IdVector>
void BpeTokenizer::appendShortPretokenIds(std::string_view piece, const PretokenCache::Key &key, IdVector &out)
{
    // The common case: a short pre-token, found in one cache line.
    std::uint32_t count = 0;
    if (const std::uint32_t *ids = shortCache_.find(key, count)) {
        if constexpr (IsIdAppender<IdVector>::value) {
            if (count <= PretokenCache::kInlineIds)
                out.appendInline(ids, count);
            else
                out.append(ids, count);
        } else {
            out.insert(out.end(), ids, ids + count);
        }
        return;
    }
    mergeInParts(piece);
    appendIds(out, parts_.data(), parts_.size());
    if (shortCache_.size() >= kCacheLimit)
        shortCache_.clear();
    shortCache_.insert(key, parts_.data(), static_cast<std::uint32_t>(parts_.size()));
}

template <typename IdVector>
void BpeTokenizer::appendLongPretokenIds(std::string_view piece, IdVector &out)
{
    const std::size_t n = piece.size();
    if (n > kMaxPretokenBytes) {
        // Merged slice by slice (pretokenizer.h): the merge's memory stays bounded.
        for (std::size_t at = 0; at < n;) {
            const std::size_t slice = pretokenSliceLength(piece.substr(at));
            appendPretokenIds(piece.substr(at, slice), out);
            at += slice;
        }
        return;
    }
    const bool cacheable = n <= kCacheMaxPieceBytes;
    const std::uint64_t hash = cacheable ? hashBytes(piece) : 0;
    if (cacheable) {
        if (const ByteStringTable::Slot *slot = cache_.find(piece, hash)) {
            appendIds(out, cacheIds_.data() + slot->second, slot->first);
            return;
        }
    }
    mergeInParts(piece);
    const auto &s = parts_;
    appendIds(out, s.data(), s.size());
    if (!cacheable)
        return;
    if (cache_.size() >= kCacheLimit) {
        cache_.clear();
        cacheIds_.clear();
    }
    cache_.insert(piece, hash, static_cast<std::uint32_t>(s.size()), static_cast<std::uint32_t>(cacheIds_.size()));
    cacheIds_.insert(cacheIds_.end(), s.begin(), s.end());
}

template <typename IdVector, typename AfterPiece>
void BpeTokenizer::encodeOrdinaryPipelined(std::string_view text, IdVector &out, AfterPiece &&afterPiece)
{
    // A short pre-token's cache entry is fetched kAhead pre-tokens before it is looked up, so the
    // memory latency of a miss overlaps with encoding the pre-tokens in between instead of
    // stalling on each one in turn. Pieces are encoded strictly in order.
    constexpr std::size_t kAhead = 8;
    struct Pending {
        std::size_t begin = 0;
        std::size_t end = 0;
        PretokenCache::Key key;
    };
    Pending ring[kAhead];
    std::size_t seen = 0;
    IdAppender<IdVector> ids(out);
    const auto encodePending = [&](const Pending &p) {
        std::string_view piece(text.data() + p.begin, p.end - p.begin);
        if (p.key.length != 0) {
            appendShortPretokenIds(piece, p.key, ids);
        } else {
            // A pre-token longer than a slice is handed over slice by slice, so that the caller
            // can pass its ids on before the next slice (a 5 GB run is 5 G ids).
            while (piece.size() > kMaxPretokenBytes) {
                const std::size_t slice = pretokenSliceLength(piece);
                appendPretokenIds(piece.substr(0, slice), ids.flushed());
                afterPiece();
                piece.remove_prefix(slice);
            }
            appendPretokenIds(piece, ids);
        }
        afterPiece();
    };
    forEachPretoken(text, [&](std::size_t b, std::size_t e) {
        Pending &slot = ring[seen % kAhead];
        if (seen >= kAhead)
            encodePending(slot);
        ++seen;
        slot.begin = b;
        slot.end = e;
        const std::size_t n = e - b;
        if (n >= PretokenCache::kMinKeyBytes && n <= PretokenCache::kMaxKeyBytes) {
            slot.key = PretokenCache::keyOf(std::string_view(text.data() + b, n));
            shortCache_.prefetch(slot.key);
        } else {
            slot.key.length = 0;
        }
    });
    for (std::size_t k = seen > kAhead ? seen - kAhead : 0; k < seen; ++k)
        encodePending(ring[k % kAhead]);
}

void BpeTokenizer::encodeOrdinary(std::string_view text, std::vector<std::uint32_t> &out)
{
    encodeOrdinaryPipelined(text, out, [] {});
}

SpecialTokenMatcher BpeTokenizer::matcherFor(const std::vector<std::string> &allowedSpecial) const
{
    std::vector<std::string> allowed;
    for (const auto &s : allowedSpecial)
        if (std::find(model_->specialTokens.begin(), model_->specialTokens.end(), s) != model_->specialTokens.end())
            allowed.push_back(s);
    return SpecialTokenMatcher(std::move(allowed));
}

void BpeTokenizer::reserveCacheFor(std::size_t textBytes)
{
    // Real text has roughly one new pre-token per 100 bytes (8.5 MB of mixed text: 70k distinct);
    // sizing the cache for that up front saves the rehashes of growing into it. Short texts keep
    // the small cache a copy of the tokenizer starts with.
    if (textBytes >= (std::size_t(1) << 20))
        shortCache_.reserve(std::min(kCacheLimit, textBytes / 100 + 1024));
}

void BpeTokenizer::encodeInto(std::string_view text, const std::vector<std::string> &allowedSpecial,
                              std::vector<std::uint32_t> &out)
{
    reserveCacheFor(text.size());
    const SpecialTokenMatcher matcher = matcherFor(allowedSpecial);
    // The ids go into a vector object on this thread's stack, moved in and back out (no copy): every
    // push_back writes the vector's end pointer, and callers that encode on several threads keep
    // their output vectors side by side (a vector of vectors), where two threads' end pointers
    // share one cache line. That false sharing made two threads encode at 1.3-1.5x one (issue 35).
    std::vector<std::uint32_t> ids = std::move(out);
    matcher.split(
        text, [&](std::size_t b, std::size_t e) { encodeOrdinary(text.substr(b, e - b), ids); },
        [&](std::size_t, std::size_t, std::size_t t) { ids.push_back(*model_->idOf(matcher.tokens()[t])); });
    out = std::move(ids);
}

std::vector<std::uint32_t> BpeTokenizer::encode(std::string_view text, const std::vector<std::string> &allowedSpecial)
{
    std::vector<std::uint32_t> out;
    out.reserve(text.size() / 3 + 1);
    encodeInto(text, allowedSpecial, out);
    return out;
}

std::vector<EncodedToken> BpeTokenizer::encodeWithOffsets(std::string_view text,
                                                          const std::vector<std::string> &allowedSpecial)
{
    std::vector<EncodedToken> out;
    encodeWithOffsets(text, allowedSpecial,
                      [&out](const EncodedToken *tokens, std::size_t count) { out.insert(out.end(), tokens, tokens + count); });
    return out;
}

void BpeTokenizer::encodeWithOffsets(std::string_view text, const std::vector<std::string> &allowedSpecial,
                                     const TokenSink &sink)
{
    constexpr std::size_t kBatch = 1 << 16;
    std::vector<EncodedToken> out;
    const auto flushIfFull = [&] {
        if (out.size() >= kBatch) {
            sink(out.data(), out.size());
            out.clear();
        }
    };
    std::vector<std::uint32_t> ids;
    const SpecialTokenMatcher matcher = matcherFor(allowedSpecial);
    matcher.split(
        text,
        [&](std::size_t b, std::size_t e) {
            const std::string_view piece = text.substr(b, e - b);
            forEachPretoken(piece, [&](std::size_t pb, std::size_t pe) {
                // Slice by slice (pretokenizer.h), as encodePretoken would merge them, so that the
                // ids of one slice at most are held.
                while (pb < pe) {
                    const std::size_t slice = pretokenSliceLength(piece.substr(pb, pe - pb));
                    ids.clear();
                    encodePretoken(piece.substr(pb, slice), ids);
                    std::size_t at = b + pb;
                    for (const std::uint32_t id : ids) {
                        const std::size_t len = model_->tokens[id].size();
                        out.push_back({id, at, at + len});
                        at += len;
                        flushIfFull();
                    }
                    pb += slice;
                }
            });
        },
        [&](std::size_t b, std::size_t e, std::size_t t) {
            out.push_back({*model_->idOf(matcher.tokens()[t]), b, e});
            flushIfFull();
        });
    if (!out.empty())
        sink(out.data(), out.size());
}

Result<std::size_t> BpeTokenizer::encodeStream(std::istream &in, const std::vector<std::string> &allowedSpecial,
                                               const IdSink &sink, std::size_t chunkBytes)
{
    return encodeSource(
        [&in](char *buffer, std::size_t capacity) -> Result<std::size_t> {
            in.read(buffer, static_cast<std::streamsize>(capacity));
            if (in.bad())
                return Result<std::size_t>::failure("input", "unreadable", "Reading the input failed.");
            return static_cast<std::size_t>(in.gcount());
        },
        allowedSpecial, sink, chunkBytes);
}

Result<std::size_t> BpeTokenizer::encodeSource(const ByteSource &read, const std::vector<std::string> &allowedSpecial,
                                               const IdSink &sink, std::size_t chunkBytes)
{
    const SpecialTokenMatcher matcher = matcherFor(allowedSpecial);
    const std::size_t holdBack = matcher.empty() ? 0 : matcher.maxLength() - 1;
    chunkBytes = std::max<std::size_t>(chunkBytes, 1);
    std::string buf;
    std::vector<std::uint32_t> ids;
    std::vector<ByteSpan> spans;
    std::size_t total = 0;
    const auto flush = [&] {
        if (!ids.empty())
            sink(ids.data(), ids.size());
        total += ids.size();
        ids.clear();
    };
    for (;;) {
        // A whole chunk, or what is left before the end.
        const std::size_t old = buf.size();
        buf.resize(old + chunkBytes);
        std::size_t filled = 0;
        bool ended = false;
        while (filled < chunkBytes) {
            const Result<std::size_t> got = read(buf.data() + old + filled, chunkBytes - filled);
            if (!got)
                return got.problems();
            if (*got == 0) {
                ended = true;
                break;
            }
            filled += *got;
        }
        buf.resize(old + filled);
        if (ended) {
            encodeInto(buf, allowedSpecial, ids);
            flush();
            return total;
        }
        // Special tokens that start before `limit` are entirely in the buffer.
        const std::string_view text(buf);
        const std::size_t limit = text.size() > holdBack ? text.size() - holdBack : 0;
        const std::size_t avail = text.size() - incompleteUtf8Tail(text);
        std::size_t pos = 0;
        while (!matcher.empty()) {
            const auto m = matcher.find(text, pos);
            if (m.begin == std::string_view::npos || m.begin >= limit)
                break;
            encodeOrdinary(text.substr(pos, m.begin - pos), ids);
            ids.push_back(*model_->idOf(matcher.tokens()[m.token]));
            pos = m.begin + m.length;
        }
        // Cut the ordinary text at the start of a pre-token k that is not the last one, after a
        // pre-token k-1 that is not whitespace: pre-tokens before it are then final.
        // The spans are found once and encoded directly: scanning the chunk a second time
        // would cost as much as the scan itself.
        std::size_t cut = pos;
        std::size_t finalSpans = 0;
        if (avail > pos) {
            const std::string_view piece = text.substr(pos, avail - pos);
            spans.clear();
            forEachPretoken(piece, [&](std::size_t b, std::size_t e) { spans.push_back({b, e}); });
            for (std::size_t k = spans.size() >= 2 ? spans.size() - 2 : 0; k >= 1; --k) {
                if (pos + spans[k].begin > limit)
                    continue;
                const ByteSpan prev = spans[k - 1];
                std::uint32_t len = 0;
                const CharClass first = classAt(piece, prev.begin, len);
                bool whitespace = first == CharClass::Space;
                if (whitespace && piece[prev.begin] == ' ' && prev.end - prev.begin > 1) {
                    std::uint32_t l2 = 0;
                    whitespace = classAt(piece, prev.begin + 1, l2) == CharClass::Space;
                }
                if (!whitespace) {
                    cut = pos + spans[k].begin;
                    finalSpans = k;
                    break;
                }
            }
            for (std::size_t k = 0; k < finalSpans; ++k)
                encodePretoken(piece.substr(spans[k].begin, spans[k].end - spans[k].begin), ids);
            // No cut, and the first pre-token is longer than a slice by a margin (so the cut is
            // not its last byte): its first slice is final, whatever follows (pretokenizer.h).
            // Without this, one run of a single character class is held whole however long.
            if (finalSpans == 0 && !spans.empty() && spans[0].end - spans[0].begin > kMaxPretokenBytes + 8) {
                const std::size_t slice = pretokenSliceLength(piece.substr(0, spans[0].end));
                if (pos + slice <= limit) {
                    encodePretoken(piece.substr(0, slice), ids);
                    cut = pos + slice;
                }
            }
        }
        buf.erase(0, cut);
        flush();
    }
}

std::optional<std::size_t> BpeTokenizer::encodeInParallel(std::string_view text, const std::vector<std::string> &allowedSpecial,
                                                          const IdSink &sink, unsigned threads)
{
    // Pieces of about kParallelPieceBytes, handed out in order to whichever thread is free; the
    // calling thread passes each piece's ids to sink as soon as the pieces before it are done. A
    // thread does not start a piece more than threads + 2 pieces ahead of the one being passed on,
    // so at most that many pieces' ids are held. A text without a place to cut for 4 pieces' length
    // (a run of one class: megabytes of NUL bytes or digits) is left to the one-thread encoder,
    // which hands its ids over in small batches whatever the text.
    std::vector<std::size_t> cuts{0};
    while (cuts.back() < text.size()) {
        cuts.push_back(nextSafeCut(text, cuts.back() + kParallelPieceBytes, allowedSpecial));
        if (cuts.back() - cuts[cuts.size() - 2] > 4 * kParallelPieceBytes)
            return std::nullopt;
    }
    const std::size_t pieces = cuts.size() - 1;
    std::vector<std::vector<std::uint32_t>> ids(pieces);
    // Id vectors already passed on, kept for the next pieces: a fresh one per piece faulted in its
    // pages again (on this VM 13-18 us per 4 KiB page, some 20 ms per piece).
    std::vector<std::vector<std::uint32_t>> spare;
    std::vector<char> done(pieces, 0);
    std::size_t nextPiece = 0;   // the next piece a thread takes
    std::size_t passedOn = 0;    // pieces already given to sink
    std::mutex lock;
    std::condition_variable changed;
    const std::size_t ahead = std::size_t(threads) + 2;
    // Takes the next piece when one may be started (with an id vector from spare); under lock.
    const auto takePiece = [&](std::size_t &k, std::vector<std::uint32_t> &out) {
        if (nextPiece >= pieces || nextPiece >= passedOn + ahead)
            return false;
        k = nextPiece++;
        if (!spare.empty()) {
            out = std::move(spare.back());
            spare.pop_back();
        }
        return true;
    };
    const auto encodePiece = [&](BpeTokenizer &tokenizer, std::size_t k, std::vector<std::uint32_t> &out) {
        tokenizer.encodeInto(text.substr(cuts[k], cuts[k + 1] - cuts[k]), allowedSpecial, out);
        {
            const std::lock_guard<std::mutex> guard(lock);
            ids[k] = std::move(out);
            done[k] = 1;
        }
        changed.notify_all();
    };
    const auto work = [&](BpeTokenizer &tokenizer) {
        for (;;) {
            std::size_t k = 0;
            std::vector<std::uint32_t> out;
            {
                std::unique_lock<std::mutex> guard(lock);
                changed.wait(guard, [&] { return nextPiece >= pieces || nextPiece < passedOn + ahead; });
                if (!takePiece(k, out))
                    return;
            }
            encodePiece(tokenizer, k, out);
        }
    };
    // The other threads encode with copies; the calling thread encodes with this tokenizer (its
    // cache stays warm for the next file) and passes each piece on, in order, between its own.
    std::vector<BpeTokenizer> copies(threads - 1, *this);
    std::vector<std::thread> workers;
    for (BpeTokenizer &copy : copies)
        workers.emplace_back([&work, &copy] { work(copy); });
    std::size_t total = 0;
    for (std::size_t k = 0; k < pieces; ++k) {
        std::vector<std::uint32_t> ready;
        for (;;) {
            std::size_t own = 0;
            std::vector<std::uint32_t> out;
            {
                std::unique_lock<std::mutex> guard(lock);
                changed.wait(guard, [&] { return done[k] != 0 || (nextPiece < pieces && nextPiece < passedOn + ahead); });
                if (done[k] != 0) {
                    ready = std::move(ids[k]);
                    break;
                }
                takePiece(own, out);
            }
            encodePiece(*this, own, out);
        }
        if (!ready.empty())
            sink(ready.data(), ready.size());
        total += ready.size();
        ready.clear();
        {
            const std::lock_guard<std::mutex> guard(lock);
            passedOn = k + 1;
            spare.push_back(std::move(ready));
        }
        changed.notify_all();
    }
    for (std::thread &w : workers)
        w.join();
    return total;
}

Result<FileEncoding> BpeTokenizer::encodeFile(const std::string &path, const std::vector<std::string> &allowedSpecial,
                                              const IdSink &sink, std::size_t chunkBytes, unsigned threads)
{
    Result<FileReader> opened = FileReader::open(path, FileKind::Data);
    if (!opened)
        return opened.problems();
    FileReader &reader = opened.value();
    const std::int64_t size = reader.statedBytes();
    // A regular file is mapped rather than copied through a buffer: the kernel pages it in and
    // drops clean pages under memory pressure, so the process still never holds the whole input,
    // and the encoder reads the bytes where they lie. Ids leave in batches.
    QFile file;
    const uchar *mapped = nullptr;
    if (size > 0 && reader.descriptor() >= 0 && file.open(reader.descriptor(), QIODevice::ReadOnly, QFileDevice::DontCloseHandle))
        mapped = file.map(0, size);
    if (!mapped) {
        // Not mappable (a /proc file that states 0 bytes, a compiled-in file, or more than the
        // address space left under ulimit -v): read in chunks, every read error reported.
        const Result<std::size_t> tokens = encodeSource(
            [&reader](char *buffer, std::size_t capacity) { return reader.read(buffer, capacity); }, allowedSpecial,
            sink, chunkBytes);
        if (!tokens)
            return tokens.problems();
        return FileEncoding{*tokens, reader.bytesRead()};
    }
    const std::string_view text(reinterpret_cast<const char *>(mapped), static_cast<std::size_t>(size));
    if (threads > 1 && text.size() >= 2 * kParallelPieceBytes)
        if (const std::optional<std::size_t> total = encodeInParallel(text, allowedSpecial, sink, threads)) {
            file.unmap(const_cast<uchar *>(mapped));
            return FileEncoding{*total, size};
        }
    reserveCacheFor(text.size());
    constexpr std::size_t kBatch = 1 << 16;
    std::vector<std::uint32_t, PrefaultedAllocator<std::uint32_t>> ids;
    ids.reserve(kBatch + 1024);
    std::size_t total = 0;
    const auto flush = [&] {
        if (!ids.empty())
            sink(ids.data(), ids.size());
        total += ids.size();
        ids.clear();
    };
    const SpecialTokenMatcher matcher = matcherFor(allowedSpecial);
    matcher.split(
        text,
        [&](std::size_t b, std::size_t e) {
            encodeOrdinaryPipelined(text.substr(b, e - b), ids, [&] {
                if (ids.size() >= kBatch)
                    flush();
            });
        },
        [&](std::size_t, std::size_t, std::size_t t) { ids.push_back(*model_->idOf(matcher.tokens()[t])); });
    flush();
    file.unmap(const_cast<uchar *>(mapped));
    return FileEncoding{total, size};
}

// --- decoding -----------------------------------------------------------------------------------

std::string BpeTokenizer::decodeBytes(const std::vector<std::uint32_t> &ids) const
{
    std::string out;
    for (const std::uint32_t id : ids)
        if (id < model_->tokens.size())
            out += model_->tokens[id];
    return out;
}

std::string BpeTokenizer::decode(const std::vector<std::uint32_t> &ids) const
{
    std::string bytes;
    for (const std::uint32_t id : ids)
        bytes += id < model_->tokens.size() ? model_->tokens[id] : std::string_view("\xEF\xBF\xBD");
    return repairUtf8(bytes);
}

}  // namespace lse
