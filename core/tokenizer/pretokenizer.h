// SPDX-License-Identifier: GPL-3.0-or-later
// GPT-2 pre-tokenization by a hand-written scanner, and splitting at special tokens.
//
// The scanner implements exactly the pattern
//     '(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
// with leftmost-first alternation, as tiktoken's GPT-2 encoding does: letters are general category
// L*, numbers N*, whitespace the White_Space property. Every byte is covered: a byte that is not
// valid UTF-8 counts as one "other" character (byte-level BPE never drops input).
#pragma once

#include "tokenizer/unicode.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace lse {

struct ByteSpan {
    std::size_t begin = 0;
    std::size_t end = 0;  // exclusive
    friend bool operator==(const ByteSpan &, const ByteSpan &) = default;
};

namespace detail {

inline bool isContractionTail(std::string_view text, std::size_t i, std::size_t &len)
{
    // text[i] == '\''
    const std::size_t n = text.size();
    if (i + 1 >= n)
        return false;
    const char a = text[i + 1];
    if (a == 's' || a == 'd' || a == 'm' || a == 't') {
        len = 2;
        return true;
    }
    if (i + 2 >= n)
        return false;
    const char b = text[i + 2];
    if ((a == 'l' && b == 'l') || (a == 'v' && b == 'e') || (a == 'r' && b == 'e')) {
        len = 3;
        return true;
    }
    return false;
}

// How many of the n bytes at p are ASCII letters before the first byte that is not one. Sixteen
// bytes per step with SSE2 (every x86-64 CPU has it): a letter is a byte whose case-folded value
// (| 0x20) lies in 'a'..'z', compared as signed bytes so that bytes from 0x80 on (negative) are
// never letters. Prose is mostly runs of letters, which the byte-at-a-time class loop below took
// a table load, a compare and a branch per byte to cross (issue 35: the tokenizer's hottest loop).
inline std::size_t asciiLetterRun(const unsigned char *p, std::size_t n)
{
    std::size_t k = 0;
#if defined(__SSE2__)
    const __m128i fold = _mm_set1_epi8(0x20);
    const __m128i belowA = _mm_set1_epi8('a' - 1);
    const __m128i aboveZ = _mm_set1_epi8('z' + 1);
    for (; k + 16 <= n; k += 16) {
        const __m128i lower = _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i *>(p + k)), fold);
        const __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(lower, belowA), _mm_cmplt_epi8(lower, aboveZ));
        const auto mask = static_cast<unsigned>(_mm_movemask_epi8(letter));
        if (mask != 0xFFFFu)
            return k + static_cast<std::size_t>(__builtin_ctz(~mask));
    }
#endif
    for (; k < n; ++k) {
        const unsigned char lower = p[k] | 0x20;
        if (lower < 'a' || lower > 'z')
            break;
    }
    return k;
}

}  // namespace detail

// Calls sink(begin, end) for each pre-token of text, in order; the spans tile the text exactly.
// (Not named "emit": Qt defines that as an empty macro in every file that includes QObject.)
// No allocation.
template <typename Sink>
void forEachPretoken(std::string_view text, Sink &&sink)
{
    const std::size_t n = text.size();
    const auto *bytes = reinterpret_cast<const unsigned char *>(text.data());
    // End of the run of class cls that starts at k. ASCII bytes are classified by one table load
    // in the inner loop; only other bytes go through UTF-8 decoding.
    const auto runEnd = [&](std::size_t k, CharClass cls) {
        const auto ascii = static_cast<std::uint8_t>(cls);
        if (cls == CharClass::Letter)
            k += detail::asciiLetterRun(bytes + k, n - k);
        while (k < n) {
            const unsigned char b = bytes[k];
            if (b < 0x80) {
                if (kAsciiClass[b] != ascii)
                    break;
                ++k;
                continue;
            }
            const ClassedChar c = charAt(text, k);
            if (c.cls != cls)
                break;
            k += c.length;
        }
        return k;
    };
    // One call of sink per pre-token, at the bottom of the loop: with a single call site the
    // compiler inlines the encoder's sink into this loop (with one per case it did not, and a call
    // with its register saves per pre-token cost 6-10% of an encode).
    std::size_t i = 0;
    while (i < n) {
        const std::size_t start = i;
        std::size_t end = 0;
        std::size_t contraction = 0;
        if (bytes[i] == '\'' && detail::isContractionTail(text, i, contraction)) {
            end = start + contraction;
        } else {
            ClassedChar c = charAt(text, i);
            std::size_t j = i + c.length;
            if (bytes[i] == ' ' && i + 1 < n) {
                const ClassedChar next = charAt(text, i + 1);
                if (next.cls != CharClass::Space) {
                    c = next;
                    j = i + 1 + next.length;
                }
            }
            if (c.cls != CharClass::Space) {
                // Run of one class (letters, numbers or others).
                end = runEnd(j, c.cls);
            } else {
                // Whitespace run: \s+(?!\S) backs off one character when a non-space follows a
                // run of two or more; \s+ takes a single space character otherwise.
                std::size_t k = i;
                std::size_t lastStart = i;
                while (k < n) {
                    const ClassedChar w = charAt(text, k);
                    if (w.cls != CharClass::Space)
                        break;
                    lastStart = k;
                    k += w.length;
                }
                end = (k == n || lastStart == i) ? k : lastStart;
            }
        }
        sink(start, end);
        i = end;
    }
}

// All pre-token spans of text.
std::vector<ByteSpan> pretokenize(std::string_view text);

// The pre-tokens of text as strings (for tests and display).
std::vector<std::string> pretokenizeToStrings(std::string_view text);

// The longest pre-token BPE merges as one piece, in training and in encoding alike: a longer one
// (a run of one character class over a megabyte: a file of NUL bytes or of digits, never prose) is
// merged in consecutive slices of at most this many bytes. Merging needs about 40 bytes of memory
// per byte of the piece, so without a bound one 5 GB run of zeros asked for 200 GB; the ids of the
// slices still decode to the same bytes. Every path (whole text, mapped file, stream, trainer) cuts
// the slices at the same places: pretokenSliceLength of what is left of the pre-token.
inline constexpr std::size_t kMaxPretokenBytes = std::size_t{1} << 20;

// The length of the first slice of `piece`, a pre-token or what is left of one: all of it up to
// kMaxPretokenBytes, otherwise kMaxPretokenBytes moved back (by at most 3 bytes) to the start of a
// UTF-8 character, so that scanning again from the cut sees the same characters.
std::size_t pretokenSliceLength(std::string_view piece);

// Whether a pre-token of text always ends at byte p (0 < p < text.size()), whatever follows p:
// text[p] is a space or a line feed and the character that ends at p is a complete, valid UTF-8
// character that is not whitespace. No alternative of the pattern matches whitespace after a
// non-space character (a space only leads a pre-token), so the pre-tokens of text[0, p) and of
// text[p, ...) together are those of the whole text: a reader can count a file in pieces cut here.
bool endsPretokenAt(std::string_view text, std::size_t p);

// Finds special tokens in text. At each position the earliest occurrence wins, and of several
// starting there the longest (so "<|endoftext|><|endoftext|>" beats "<|endoftext|>" when both are
// special). Empty tokens are ignored.
class SpecialTokenMatcher {
public:
    SpecialTokenMatcher() = default;
    explicit SpecialTokenMatcher(std::vector<std::string> tokens);

    bool empty() const { return tokens_.empty(); }
    std::size_t maxLength() const { return maxLength_; }
    const std::vector<std::string> &tokens() const { return tokens_; }

    struct Match {
        std::size_t begin = std::string_view::npos;  // npos when none
        std::size_t length = 0;
        std::size_t token = 0;  // index into tokens()
    };

    // First match starting at or after from.
    Match find(std::string_view text, std::size_t from) const;

    // Calls onText(begin, end) for each maximal stretch of ordinary text (possibly empty stretches
    // are skipped) and onSpecial(begin, end, tokenIndex) for each special token, in order.
    template <typename OnText, typename OnSpecial>
    void split(std::string_view text, OnText &&onText, OnSpecial &&onSpecial) const
    {
        std::size_t pos = 0;
        if (!tokens_.empty()) {
            // Next occurrence of each token, refreshed only when passed.
            std::vector<std::size_t> next(tokens_.size(), 0);
            std::vector<bool> stale(tokens_.size(), true);
            while (pos < text.size()) {
                Match best;
                for (std::size_t t = 0; t < tokens_.size(); ++t) {
                    if (stale[t] || (next[t] != std::string_view::npos && next[t] < pos)) {
                        next[t] = text.find(tokens_[t], pos);
                        stale[t] = false;
                    }
                    const std::size_t at = next[t];
                    if (at == std::string_view::npos)
                        continue;
                    if (at < best.begin || (at == best.begin && tokens_[t].size() > best.length))
                        best = {at, tokens_[t].size(), t};
                }
                if (best.begin == std::string_view::npos)
                    break;
                if (best.begin > pos)
                    onText(pos, best.begin);
                onSpecial(best.begin, best.begin + best.length, best.token);
                pos = best.begin + best.length;
            }
        }
        if (pos < text.size())
            onText(pos, text.size());
    }

private:
    std::vector<std::string> tokens_;
    std::size_t maxLength_ = 0;
};

}  // namespace lse
