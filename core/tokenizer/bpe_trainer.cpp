// SPDX-License-Identifier: GPL-3.0-or-later
#include "tokenizer/bpe_trainer.h"

#include "tokenizer/pretokenizer.h"

#include "common/file_bytes.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <unordered_map>

namespace lse {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0)
{
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

bool isAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Splits [begin, end) of text into about `parts` stretches, cutting only between an ASCII letter
// and a following space: the letter's pre-token (a letter run or a contraction) ends there and the
// scan restarts at the space, so pre-tokens are the same as for the whole stretch.
void splitAtSafeCuts(std::string_view text, std::size_t begin, std::size_t end, std::size_t parts,
                     std::vector<std::pair<std::size_t, std::size_t>> &out)
{
    const std::size_t target = std::max<std::size_t>((end - begin) / std::max<std::size_t>(parts, 1), 1 << 16);
    std::size_t pos = begin;
    while (end - pos > target + target / 2) {
        std::size_t cut = pos + target;
        while (cut < end && !(text[cut] == ' ' && isAsciiLetter(text[cut - 1])))
            ++cut;
        if (cut >= end)
            break;
        out.emplace_back(pos, cut);
        pos = cut;
    }
    out.emplace_back(pos, end);
}

using CountMap = std::unordered_map<std::string_view, std::int64_t>;

}  // namespace

PretokenCounts countPretokens(std::string_view text, const std::vector<std::string> &specialTokens,
                              unsigned threads)
{
    if (threads == 0)
        threads = std::max(1u, std::thread::hardware_concurrency());
    // Ordinary-text pieces between special tokens, then cut large pieces at safe points.
    std::vector<std::pair<std::size_t, std::size_t>> pieces;
    const SpecialTokenMatcher matcher(specialTokens);
    matcher.split(
        text, [&](std::size_t b, std::size_t e) { pieces.emplace_back(b, e); },
        [](std::size_t, std::size_t, std::size_t) {});
    std::vector<std::pair<std::size_t, std::size_t>> work;
    for (const auto &[b, e] : pieces) {
        if (e - b > (1u << 17))
            splitAtSafeCuts(text, b, e, threads * 4, work);
        else
            work.emplace_back(b, e);
    }
    const unsigned used = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(work.size(), 1)));
    std::vector<CountMap> maps(used);
    std::atomic<std::size_t> nextItem{0};
    auto worker = [&](unsigned w) {
        // Counted into a map object on this thread's stack and moved out at the end: the maps of
        // `maps` sit side by side, and every new key writes its map's element count, which would
        // bounce a cache line shared with the next thread's map (false sharing, issue 35).
        CountMap m;
        for (std::size_t item = nextItem++; item < work.size(); item = nextItem++) {
            const std::string_view piece = text.substr(work[item].first, work[item].second - work[item].first);
            forEachPretoken(piece, [&](std::size_t b, std::size_t e) {
                // A pre-token longer than kMaxPretokenBytes counts as its slices, as it is encoded.
                while (e - b > kMaxPretokenBytes) {
                    const std::size_t slice = pretokenSliceLength(piece.substr(b, e - b));
                    ++m[piece.substr(b, slice)];
                    b += slice;
                }
                ++m[piece.substr(b, e - b)];
            });
        }
        maps[w] = std::move(m);
    };
    if (used <= 1) {
        worker(0);
    } else {
        std::vector<std::thread> pool;
        for (unsigned w = 0; w < used; ++w)
            pool.emplace_back(worker, w);
        for (auto &t : pool)
            t.join();
    }
    for (unsigned w = 1; w < used; ++w)
        for (const auto &[k, v] : maps[w])
            maps[0][k] += v;
    PretokenCounts counts;
    counts.entries.reserve(maps[0].size());
    for (const auto &[k, v] : maps[0])
        counts.entries.emplace_back(std::string(k), v);
    std::sort(counts.entries.begin(), counts.entries.end());
    return counts;
}

namespace {

struct HeapEntry {
    std::int64_t count;
    std::uint32_t left;
    std::uint32_t right;
};

inline std::uint64_t pairKey(std::uint32_t a, std::uint32_t b) { return (std::uint64_t(a) << 32) | b; }

}  // namespace

Result<BpeTrainResult> trainBpeFromCounts(const PretokenCounts &counts, const BpeTrainOptions &options)
{
    const auto t0 = Clock::now();
    BpeTrainResult result;
    std::vector<std::string> specials;
    for (const auto &s : options.specialTokens)
        if (std::find(specials.begin(), specials.end(), s) == specials.end())
            specials.push_back(s);
    const std::size_t base = specials.size() + 256;
    if (options.vocabSize < base)
        return Result<BpeTrainResult>::failure(
            "vocab_size", "too_small",
            "The vocabulary size " + std::to_string(options.vocabSize) + " is smaller than the " +
                std::to_string(specials.size()) + " special tokens plus 256 bytes.");
    result.specialCount = specials.size();
    auto &vocab = result.vocab;
    vocab = specials;
    for (int b = 0; b < 256; ++b)
        vocab.emplace_back(1, static_cast<char>(static_cast<unsigned char>(b)));
    const auto byteId = [&](char c) { return static_cast<std::uint32_t>(specials.size() + static_cast<unsigned char>(c)); };

    // Words: symbol sequences with counts.
    std::vector<std::vector<std::uint32_t>> words;
    std::vector<std::int64_t> wordCount;
    words.reserve(counts.entries.size());
    for (const auto &[bytes, count] : counts.entries) {
        if (bytes.size() < 2)
            continue;  // no pair inside
        std::vector<std::uint32_t> syms;
        syms.reserve(bytes.size());
        for (const char c : bytes)
            syms.push_back(byteId(c));
        words.push_back(std::move(syms));
        wordCount.push_back(count);
    }
    std::unordered_map<std::uint64_t, std::int64_t> pairCount;
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> pairWords;
    for (std::uint32_t w = 0; w < words.size(); ++w) {
        const auto &s = words[w];
        for (std::size_t i = 0; i + 1 < s.size(); ++i) {
            const std::uint64_t key = pairKey(s[i], s[i + 1]);
            pairCount[key] += wordCount[w];
            auto &list = pairWords[key];
            if (list.empty() || list.back() != w)
                list.push_back(w);
        }
    }
    // Max-heap with lazy invalidation: an entry is live while its count equals the pair's count.
    const auto heapLess = [&vocab](const HeapEntry &x, const HeapEntry &y) {
        if (x.count != y.count)
            return x.count < y.count;
        const int c = vocab[x.left].compare(vocab[y.left]);
        if (c != 0)
            return c < 0;
        return vocab[x.right].compare(vocab[y.right]) < 0;
    };
    std::vector<HeapEntry> heap;
    heap.reserve(pairCount.size());
    for (const auto &[key, c] : pairCount)
        heap.push_back({c, static_cast<std::uint32_t>(key >> 32), static_cast<std::uint32_t>(key)});
    std::make_heap(heap.begin(), heap.end(), heapLess);

    const std::size_t wanted = options.vocabSize - base;
    std::unordered_map<std::uint64_t, std::int64_t> delta;
    std::vector<std::uint32_t> merged;
    for (std::size_t done = 0; done < wanted; ++done) {
        if (options.cancel && options.cancel->load(std::memory_order_relaxed))
            return Result<BpeTrainResult>::failure("training", "cancelled",
                                                   "Training was cancelled after " + std::to_string(done) + " merges.");
        // Best live pair.
        HeapEntry best{};
        bool found = false;
        while (!heap.empty()) {
            std::pop_heap(heap.begin(), heap.end(), heapLess);
            const HeapEntry top = heap.back();
            heap.pop_back();
            const auto it = pairCount.find(pairKey(top.left, top.right));
            if (it != pairCount.end() && it->second == top.count && top.count > 0) {
                best = top;
                found = true;
                break;
            }
        }
        if (!found)
            break;  // no pair left: the vocabulary cannot grow further
        const std::uint32_t a = best.left, b = best.right;
        const auto newId = static_cast<std::uint32_t>(vocab.size());
        vocab.push_back(vocab[a] + vocab[b]);
        result.merges.emplace_back(vocab[a], vocab[b]);
        const std::uint64_t bestKey = pairKey(a, b);
        std::vector<std::uint32_t> affected = std::move(pairWords[bestKey]);
        pairWords.erase(bestKey);
        delta.clear();
        for (const std::uint32_t w : affected) {
            auto &s = words[w];
            const std::int64_t c = wordCount[w];
            bool has = false;
            for (std::size_t i = 0; i + 1 < s.size(); ++i)
                if (s[i] == a && s[i + 1] == b) {
                    has = true;
                    break;
                }
            if (!has)
                continue;  // stale index entry
            for (std::size_t i = 0; i + 1 < s.size(); ++i)
                delta[pairKey(s[i], s[i + 1])] -= c;
            merged.clear();
            for (std::size_t i = 0; i < s.size();) {
                if (i + 1 < s.size() && s[i] == a && s[i + 1] == b) {
                    merged.push_back(newId);
                    i += 2;
                } else {
                    merged.push_back(s[i]);
                    ++i;
                }
            }
            s.assign(merged.begin(), merged.end());
            for (std::size_t i = 0; i + 1 < s.size(); ++i) {
                const std::uint64_t key = pairKey(s[i], s[i + 1]);
                delta[key] += c;
                if (s[i] == newId || s[i + 1] == newId) {
                    auto &list = pairWords[key];
                    if (list.empty() || list.back() != w)
                        list.push_back(w);
                }
            }
        }
        for (const auto &[key, d] : delta) {
            if (d == 0)
                continue;
            auto it = pairCount.find(key);
            const std::int64_t now = (it == pairCount.end() ? 0 : it->second) + d;
            if (now <= 0) {
                if (it != pairCount.end())
                    pairCount.erase(it);
                pairWords.erase(key);
                continue;
            }
            if (it == pairCount.end())
                pairCount.emplace(key, now);
            else
                it->second = now;
            heap.push_back({now, static_cast<std::uint32_t>(key >> 32), static_cast<std::uint32_t>(key)});
            std::push_heap(heap.begin(), heap.end(), heapLess);
        }
        // Keep the heap bounded by the live pairs: rebuild when stale entries dominate.
        if (heap.size() > 4 * pairCount.size() + 1024) {
            heap.clear();
            for (const auto &[key, c] : pairCount)
                heap.push_back({c, static_cast<std::uint32_t>(key >> 32), static_cast<std::uint32_t>(key)});
            std::make_heap(heap.begin(), heap.end(), heapLess);
        }
        if (options.progress)
            options.progress(done + 1, wanted);
    }
    result.mergeSeconds = secondsSince(t0);
    return result;
}

Result<BpeTrainResult> trainBpe(std::string_view text, const BpeTrainOptions &options)
{
    const auto t0 = Clock::now();
    const PretokenCounts counts = countPretokens(text, options.specialTokens, options.threads);
    const double pre = secondsSince(t0);
    Result<BpeTrainResult> r = trainBpeFromCounts(counts, options);
    if (r.ok())
        r.value().pretokenizeSeconds = pre;
    return r;
}

namespace {

// The last place in text, at most `limit`, where countFilePretokens may cut; 0 when there is none.
std::size_t lastCut(std::string_view text, std::size_t limit, const std::vector<std::string> &specialTokens)
{
    for (std::size_t p = std::min(limit, text.size() - 1); p > 0; --p)
        if (endsPretokenAt(text, p) && !specialTokenCrosses(text, p, specialTokens))
            return p;
    return 0;
}

// For text without a space or line break after a word (a line of Chinese, a run of one class):
// the start of the last pre-token k of the last stretch between special tokens that is not the
// last one and follows a pre-token that is not whitespace (the stream encoder's rule), or, when the
// stretch is one pre-token longer than kMaxPretokenBytes, the end of its first slice. At most
// `limit`; 0 when there is no such place.
std::size_t lastCutBySpans(std::string_view text, std::size_t limit, const std::vector<std::string> &specialTokens)
{
    std::size_t stretch = 0;        // the last ordinary stretch starts after the last special token
    std::size_t lastSpecial = 0;    // where that token starts: a cut there is safe too
    SpecialTokenMatcher(specialTokens).split(
        text, [](std::size_t, std::size_t) {}, [&](std::size_t begin, std::size_t end, std::size_t) {
            lastSpecial = begin;
            stretch = end;
        });
    if (stretch >= limit)
        return lastSpecial <= limit ? lastSpecial : 0;
    const std::string_view piece = text.substr(stretch);
    std::vector<ByteSpan> spans;
    forEachPretoken(piece, [&](std::size_t b, std::size_t e) { spans.push_back({b, e}); });
    const auto whitespace = [&](const ByteSpan &span) {
        std::uint32_t length = 0;
        if (classAt(piece, span.begin, length) != CharClass::Space)
            return false;
        return !(piece[span.begin] == ' ' && span.end - span.begin > 1 &&
                 classAt(piece, span.begin + 1, length) != CharClass::Space);
    };
    for (std::size_t k = spans.size() >= 2 ? spans.size() - 2 : 0; k >= 1; --k)
        if (stretch + spans[k].begin <= limit && !whitespace(spans[k - 1]))
            return stretch + spans[k].begin;
    // One pre-token (the last span may go on past the text): its first slice is final once the
    // pre-token is known to be longer than the slice by a margin (a cut never falls on its last byte).
    if (!spans.empty() && spans[0].end - spans[0].begin > kMaxPretokenBytes + 8) {
        const std::size_t cut = stretch + pretokenSliceLength(piece.substr(spans[0].begin));
        if (cut <= limit)
            return cut;
    }
    return 0;
}

void addCounts(std::unordered_map<std::string, std::int64_t> &total, const PretokenCounts &counts)
{
    for (const auto &[pretoken, count] : counts.entries)
        total[pretoken] += count;
}

}  // namespace

Result<PretokenCounts> countFilePretokens(const std::string &path, const std::vector<std::string> &specialTokens,
                                          unsigned threads, std::size_t chunk_bytes, const std::atomic<bool> *cancel,
                                          std::int64_t *bytes_read)
{
    Result<FileReader> opened = FileReader::open(path, FileKind::Data);
    if (!opened)
        return opened.problems();
    FileReader &reader = opened.value();
    chunk_bytes = std::max<std::size_t>(chunk_bytes, 1);
    std::size_t longestSpecial = 0;
    for (const std::string &token : specialTokens)
        longestSpecial = std::max(longestSpecial, token.size());
    std::unordered_map<std::string, std::int64_t> total;
    std::string pending;  // read, not yet counted: it ends inside a pre-token or a special token
    for (;;) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            return Result<PretokenCounts>::failure("training", "cancelled", "Training was cancelled while pre-tokenizing " + path + ".");
        const std::size_t old = pending.size();
        pending.resize(old + chunk_bytes);
        const Result<std::size_t> got = reader.read(pending.data() + old, chunk_bytes);
        if (!got)
            return got.problems();
        pending.resize(old + *got);
        if (*got == 0)
            break;
        if (pending.size() < chunk_bytes)
            continue;
        // A special token that could cross a cut must lie wholly inside the buffer to be seen, and
        // the bytes after a cut must be enough to tell how the pre-token before it ends.
        const std::size_t limit = pending.size() > longestSpecial + 8 ? pending.size() - longestSpecial - 8 : 0;
        std::size_t cut = limit > 0 ? lastCut(pending, limit, specialTokens) : 0;
        // Text with no space or line break after a word: cut by pre-tokens (two chunks' worth at
        // most, so that the full scan is rare even then).
        if (cut == 0 && limit > 0 && pending.size() >= 2 * chunk_bytes)
            cut = lastCutBySpans(pending, limit, specialTokens);
        if (cut == 0)
            continue;
        addCounts(total, countPretokens(std::string_view(pending).substr(0, cut), specialTokens, threads));
        pending.erase(0, cut);
    }
    addCounts(total, countPretokens(pending, specialTokens, threads));
    if (bytes_read)
        *bytes_read = reader.bytesRead();
    PretokenCounts counts;
    counts.entries.assign(total.begin(), total.end());
    std::sort(counts.entries.begin(), counts.entries.end());
    return counts;
}

Result<BpeTrainResult> trainBpeFiles(const std::vector<std::string> &paths, const BpeTrainOptions &options)
{
    const auto t0 = Clock::now();
    std::unordered_map<std::string, std::int64_t> total;
    std::int64_t inputBytes = 0;
    for (const auto &path : paths) {
        std::int64_t bytes = 0;
        const Result<PretokenCounts> counts =
            countFilePretokens(path, options.specialTokens, options.threads, std::size_t{32} << 20, options.cancel, &bytes);
        if (!counts)
            return counts.problems();
        addCounts(total, *counts);
        inputBytes += bytes;
    }
    PretokenCounts counts;
    counts.entries.assign(total.begin(), total.end());
    std::sort(counts.entries.begin(), counts.entries.end());
    const double pre = secondsSince(t0);
    Result<BpeTrainResult> r = trainBpeFromCounts(counts, options);
    if (r.ok()) {
        r.value().pretokenizeSeconds = pre;
        r.value().inputBytes = inputBytes;
    }
    return r;
}

}  // namespace lse
