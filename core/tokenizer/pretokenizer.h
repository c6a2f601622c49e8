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
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
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

// Classes of 64 bytes as bit masks (bit k: byte k), by the same rules as kAsciiClass: letters
// A-Z a-z, digits 0-9, whitespace 0x09-0x0D and ' '; bytes from 0x80 on are in nonAscii only.
struct AsciiBlockMasks {
    std::uint64_t nonAscii = 0;
    std::uint64_t letter = 0;
    std::uint64_t digit = 0;
    std::uint64_t space = 0;       // White_Space
    std::uint64_t blank = 0;       // ' ' itself, the only space that leads a pre-token
    std::uint64_t apostrophe = 0;  // '\'', which may start a contraction
};

inline AsciiBlockMasks asciiBlockMasks(const unsigned char *p)  // reads p[0..63]
{
    AsciiBlockMasks m;
#if defined(__SSE2__)
    // Signed byte compares: bytes from 0x80 on are negative, so never letters, digits or spaces.
    const __m128i fold = _mm_set1_epi8(0x20);
    for (int q = 0; q < 4; ++q) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p + 16 * q));
        const __m128i lower = _mm_or_si128(v, fold);
        const __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(lower, _mm_set1_epi8('a' - 1)),
                                             _mm_cmplt_epi8(lower, _mm_set1_epi8('z' + 1)));
        const __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)), _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
        const __m128i blank = _mm_cmpeq_epi8(v, _mm_set1_epi8(' '));
        const __m128i space = _mm_or_si128(
            blank, _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8(0x08)), _mm_cmplt_epi8(v, _mm_set1_epi8(0x0E))));
        const __m128i apostrophe = _mm_cmpeq_epi8(v, _mm_set1_epi8('\''));
        const auto bits = [&](__m128i x) {
            return std::uint64_t(static_cast<std::uint16_t>(_mm_movemask_epi8(x))) << (16 * q);
        };
        m.nonAscii |= bits(v);
        m.letter |= bits(letter);
        m.digit |= bits(digit);
        m.space |= bits(space);
        m.blank |= bits(blank);
        m.apostrophe |= bits(apostrophe);
    }
#else
    for (int k = 0; k < 64; ++k) {
        const unsigned char b = p[k];
        const std::uint64_t bit = std::uint64_t(1) << k;
        if (b >= 0x80) {
            m.nonAscii |= bit;
            continue;
        }
        const auto cls = static_cast<CharClass>(kAsciiClass[b]);
        m.letter |= cls == CharClass::Letter ? bit : 0;
        m.digit |= cls == CharClass::Number ? bit : 0;
        m.space |= cls == CharClass::Space ? bit : 0;
        m.blank |= b == ' ' ? bit : 0;
        m.apostrophe |= b == '\'' ? bit : 0;
    }
#endif
    return m;
}

// Where pre-tokens start in text[i, i + 64), given that one starts at i (i + 64 < text.size()):
// bit k set for a start at i + k, k >= 1, where the characters that decide it could be classified
// (below); 0 when none could. Sets noWindowBefore past the first character it could not classify,
// so that the character-by-character scanner takes the text up to it.
//
// Rules of the pattern (each checked against the scanner by character, see the
// tests): a run of letters, of digits or of other characters starts where the class changes,
// except that a ' ' before it leads it (the pre-token starts at the ' ' instead); a whitespace
// character starts a pre-token when the character before it is not whitespace, or when the one
// after it is not (\s+(?!\S) leaves the last whitespace before a word to the next pre-token, where
// a ' ' leads the word and any other whitespace stands alone). A contraction ('s 't 'd 'm 'll 've
// 're) is a pre-token when its apostrophe starts one, and the next pre-token starts right after it.
inline std::uint64_t asciiWindowStarts(std::string_view text, std::size_t i, std::size_t &noWindowBefore)
{
    const auto *p = reinterpret_cast<const unsigned char *>(text.data()) + i;
    AsciiBlockMasks m = asciiBlockMasks(p);
    const unsigned char after = p[64];
    // Other characters are classified one by one and their class given to all their bytes, so a
    // run of letters in any script is a run of letter bits. Whitespace beyond ASCII (where the
    // last character before a word would have to be found by its first byte) and a character that
    // runs past the window stop the window there: byte h is the first byte not classified (byte
    // 64 counts when it is not ASCII), and a start at k, decided by bytes k - 1, k and k + 1, is
    // decided up to h - 2.
    unsigned h = after < 0x80 ? 65u : 64u;
    for (std::uint64_t high = m.nonAscii; high != 0;) {
        const auto k = static_cast<unsigned>(__builtin_ctzll(high));
        const ClassedChar c = charAt(text, i + k);
        if (c.cls == CharClass::Space || k + c.length > 64) {
            h = k;
            break;
        }
        const std::uint64_t bytesOfChar = ((std::uint64_t(1) << c.length) - 1) << k;  // length <= 4
        if (c.cls == CharClass::Letter)
            m.letter |= bytesOfChar;
        else if (c.cls == CharClass::Number)
            m.digit |= bytesOfChar;
        high &= ~bytesOfChar;
    }
    std::uint64_t decided = ~std::uint64_t(0);
    if (h < 65) {
        if (h < 64)
            noWindowBefore = i + h + 1;
        if (h < 2)
            return 0;
        decided = (std::uint64_t(1) << (h - 1)) - 1;
    }
    const bool afterIsSpace = after < 0x80 && static_cast<CharClass>(kAsciiClass[after]) == CharClass::Space;
    const std::uint64_t other = ~(m.letter | m.digit | m.space);
    const std::uint64_t runStart =
        (m.letter & ~(m.letter << 1)) | (m.digit & ~(m.digit << 1)) | (other & ~(other << 1));
    const std::uint64_t nextIsSpace = (m.space >> 1) | (std::uint64_t(afterIsSpace) << 63);
    const std::uint64_t spaceStart = m.space & (~(m.space << 1) | ~nextIsSpace);
    std::uint64_t starts = ((runStart & ~(m.blank << 1)) | spaceStart) & decided & ~std::uint64_t(1);
    // Contractions, in order: each one's end is a start and the letters inside it are not; the
    // start it adds may itself be an apostrophe.
    std::uint64_t apostrophes = (starts | 1) & m.apostrophe;
    while (apostrophes != 0) {
        const auto k = static_cast<unsigned>(__builtin_ctzll(apostrophes));
        std::size_t length = 0;
        if (isContractionTail(text, i + k, length)) {
            const std::size_t end = k + length;
            if (end <= 63 && ((decided >> end) & 1)) {
                starts &= ~(((std::uint64_t(1) << (length - 1)) - 1) << (k + 1));
                starts |= std::uint64_t(1) << end;
            } else {
                starts &= (std::uint64_t(2) << k) - 1;  // its end is not decided here: stop at k
            }
        }
        apostrophes = starts & m.apostrophe & ~((std::uint64_t(2) << k) - 1);
    }
    return starts;
}

// forEachPretoken; kWindows = false scans character by character only (the definition the tests
// hold the bit-mask windows to).
template <bool kWindows, typename Sink>
void scanPretokens(std::string_view text, Sink &&sink)
{
    const std::size_t n = text.size();
    const auto *bytes = reinterpret_cast<const unsigned char *>(text.data());
    // End of the run of class cls that starts at k. ASCII bytes are classified by one table load
    // in the inner loop; only other bytes go through UTF-8 decoding.
    const auto runEnd = [&](std::size_t k, CharClass cls) {
        const auto ascii = static_cast<std::uint8_t>(cls);
        if (cls == CharClass::Letter)
            k += asciiLetterRun(bytes + k, n - k);
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
    //
    // Where the next 65 bytes are ASCII, the starts of the pre-tokens in them come from bit masks
    // (detail::asciiWindowStarts) and are taken one by one from the mask: no branch per pre-token
    // on its class, which the scanner below mispredicts about once a pre-token. The rest (text
    // with other characters, the last 64 bytes, a pre-token longer than the window) goes
    // character by character.
    std::size_t i = 0;
    std::uint64_t windowStarts = 0;  // bit k: a pre-token starts at windowBase + k (bits above i only)
    std::size_t windowBase = 0;
    std::size_t noWindowBefore = 0;
    while (i < n) {
        const std::size_t start = i;
        std::size_t end = 0;
        std::size_t contraction = 0;
        if (kWindows && windowStarts == 0 && i >= noWindowBefore && n - i > 64) {
            windowStarts = asciiWindowStarts(text, i, noWindowBefore);
            windowBase = i;
        }
        if (windowStarts != 0) {
            end = windowBase + static_cast<std::size_t>(__builtin_ctzll(windowStarts));
            windowStarts &= windowStarts - 1;
        } else if (bytes[i] == '\'' && isContractionTail(text, i, contraction)) {
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

}  // namespace detail

// Calls sink(begin, end) for each pre-token of text, in order; the spans tile the text exactly.
// (Not named "emit": Qt defines that as an empty macro in every file that includes QObject.)
// No allocation.
template <typename Sink>
void forEachPretoken(std::string_view text, Sink &&sink)
{
    detail::scanPretokens<true>(text, std::forward<Sink>(sink));
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

// Whether an occurrence of one of specialTokens starts before p and ends after it.
bool specialTokenCrosses(std::string_view text, std::size_t p, const std::vector<std::string> &specialTokens);

// The first p >= from (and > 0) where text may be cut into two texts whose encodings, with
// specialTokens split out, concatenate to the encoding of the whole: a pre-token ends there
// (endsPretokenAt) and no special token crosses it. text.size() when there is none.
std::size_t nextSafeCut(std::string_view text, std::size_t from, const std::vector<std::string> &specialTokens);

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
