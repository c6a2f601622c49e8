// SPDX-License-Identifier: GPL-3.0-or-later
// The Unicode facts byte-level tokenization needs: UTF-8 decoding that never loses a byte, the
// character classes of the GPT-2 pre-tokenization pattern, and lossy UTF-8 repair for display.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace lse {

// Class of one character for the GPT-2 pattern: \p{L}, \p{N}, \s (White_Space) or anything else.
// A byte that does not start a valid UTF-8 sequence is one Other character of length 1.
enum class CharClass : std::uint8_t { Other = 0, Letter = 1, Number = 2, Space = 3 };

// Class of a Unicode scalar value (tables generated from the Unicode Character Database).
CharClass unicodeClass(std::uint32_t codepoint);

// Unicode version of the generated tables.
const char *unicodeTablesVersion();

struct Utf8Char {
    std::uint32_t codepoint;  // 0xFFFFFFFF for an invalid byte
    std::uint32_t length;     // bytes consumed, 1..4 (1 for an invalid byte)
};

inline constexpr std::uint32_t kInvalidCodepoint = 0xFFFFFFFFu;

// Decodes the character at text[i] (i < text.size()). Rejects overlong forms, surrogates, values
// above U+10FFFF and truncated sequences; each such lead byte is an invalid character of length 1.
Utf8Char decodeUtf8At(std::string_view text, std::size_t i);

// Number of bytes at the end of text that are a valid but incomplete UTF-8 sequence prefix (0..3):
// a streaming reader must wait for more input before classifying them.
std::size_t incompleteUtf8Tail(std::string_view text);

// Copy of bytes with every ill-formed subsequence replaced by U+FFFD ("maximal subpart" practice
// of the Unicode standard, as Python's errors="replace" and WHATWG decoders do).
std::string repairUtf8(std::string_view bytes);

void appendUtf8(std::string &out, std::uint32_t codepoint);

// Classes of the 128 ASCII code points and of the Basic Multilingual Plane (values of CharClass).
extern const std::array<std::uint8_t, 128> kAsciiClass;
extern const std::array<std::uint8_t, 0x10000> kBmpClass;

// A character's class and its length in bytes.
struct ClassedChar {
    CharClass cls;
    std::uint32_t length;
};

// charAt for what the inline path leaves: 4-byte sequences and invalid bytes.
ClassedChar charAtSlow(std::string_view text, std::size_t i);

// Class and length of the character at text[i] (i < text.size()). ASCII and well-formed 2- and
// 3-byte sequences (all of the BMP: Latin, Greek, Cyrillic, CJK, kana) are decoded inline; the
// result comes back in registers (no out-parameter whose address would keep it in memory).
[[gnu::always_inline]] inline ClassedChar charAt(std::string_view text, std::size_t i)
{
    const auto b = static_cast<unsigned char>(text[i]);
    if (b < 0x80)
        return {static_cast<CharClass>(kAsciiClass[b]), 1};
    const std::size_t n = text.size();
    if (b >= 0xC2 && b <= 0xDF && i + 1 < n) {
        const auto c1 = static_cast<unsigned char>(text[i + 1]);
        if ((c1 & 0xC0) == 0x80)
            return {static_cast<CharClass>(kBmpClass[(std::uint32_t(b & 0x1F) << 6) | (c1 & 0x3F)]), 2};
    } else if ((b & 0xF0) == 0xE0 && i + 2 < n) {
        const auto c1 = static_cast<unsigned char>(text[i + 1]);
        const auto c2 = static_cast<unsigned char>(text[i + 2]);
        if ((c1 & 0xC0) == 0x80 && (c2 & 0xC0) == 0x80) {
            const std::uint32_t cp = (std::uint32_t(b & 0x0F) << 12) | (std::uint32_t(c1 & 0x3F) << 6) | (c2 & 0x3F);
            // Overlong forms (below U+0800) and surrogates are invalid: the slow path says so.
            if (cp >= 0x800 && (cp < 0xD800 || cp > 0xDFFF))
                return {static_cast<CharClass>(kBmpClass[cp]), 3};
        }
    }
    return charAtSlow(text, i);
}

// charAt with the length as an out-parameter.
inline CharClass classAt(std::string_view text, std::size_t i, std::uint32_t &length)
{
    const ClassedChar c = charAt(text, i);
    length = c.length;
    return c.cls;
}

}  // namespace lse
