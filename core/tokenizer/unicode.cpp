// SPDX-License-Identifier: GPL-3.0-or-later
#include "tokenizer/unicode.h"

#include <algorithm>
#include <memory>

namespace lse {
namespace {

struct CodepointRange {
    std::uint32_t first;
    std::uint32_t last;
};

#include "tokenizer/unicode_tables.inc"

template <std::size_t N>
bool inRanges(const CodepointRange (&ranges)[N], std::uint32_t cp)
{
    const CodepointRange *end = ranges + N;
    const CodepointRange *it = std::upper_bound(
        ranges, end, cp, [](std::uint32_t v, const CodepointRange &r) { return v < r.first; });
    return it != ranges && (it - 1)->last >= cp;
}

CharClass slowClass(std::uint32_t cp)
{
    if (inRanges(kWhitespaceRanges, cp))
        return CharClass::Space;
    if (inRanges(kLetterRanges, cp))
        return CharClass::Letter;
    if (inRanges(kNumberRanges, cp))
        return CharClass::Number;
    return CharClass::Other;
}

// One byte per Basic Multilingual Plane code point (64 KiB), computed by the compiler so that it
// is ready before any code runs. Filled in reverse order of slowClass's tests so that the earlier
// test wins where tables overlap.
template <std::size_t N>
constexpr void fillBmp(std::array<std::uint8_t, 0x10000> &table, const CodepointRange (&ranges)[N], CharClass cls)
{
    for (const CodepointRange &r : ranges)
        for (std::uint32_t cp = r.first; cp <= r.last && cp < 0x10000; ++cp)
            table[cp] = static_cast<std::uint8_t>(cls);
}

constexpr std::array<std::uint8_t, 0x10000> makeBmpClass()
{
    std::array<std::uint8_t, 0x10000> table{};
    fillBmp(table, kNumberRanges, CharClass::Number);
    fillBmp(table, kLetterRanges, CharClass::Letter);
    fillBmp(table, kWhitespaceRanges, CharClass::Space);
    return table;
}

constexpr std::array<std::uint8_t, 128> makeAsciiClass()
{
    std::array<std::uint8_t, 128> t{};
    for (std::uint32_t c = 0; c < 128; ++c) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
            t[c] = static_cast<std::uint8_t>(CharClass::Letter);
        else if (c >= '0' && c <= '9')
            t[c] = static_cast<std::uint8_t>(CharClass::Number);
        else if ((c >= 0x09 && c <= 0x0D) || c == ' ')
            t[c] = static_cast<std::uint8_t>(CharClass::Space);
    }
    return t;
}

}  // namespace

const std::array<std::uint8_t, 128> kAsciiClass = makeAsciiClass();
constinit const std::array<std::uint8_t, 0x10000> kBmpClass = makeBmpClass();

ClassedChar charAtSlow(std::string_view text, std::size_t i)
{
    const Utf8Char c = decodeUtf8At(text, i);
    return {c.codepoint == kInvalidCodepoint ? CharClass::Other : unicodeClass(c.codepoint), c.length};
}

CharClass unicodeClass(std::uint32_t codepoint)
{
    if (codepoint < 0x10000)
        return static_cast<CharClass>(kBmpClass[codepoint]);
    if (codepoint > 0x10FFFF)
        return CharClass::Other;
    return slowClass(codepoint);
}

const char *unicodeTablesVersion() { return kUnicodeTablesVersion; }

Utf8Char decodeUtf8At(std::string_view text, std::size_t i)
{
    const auto byte = [&](std::size_t k) { return static_cast<std::uint32_t>(static_cast<unsigned char>(text[k])); };
    const std::uint32_t b0 = byte(i);
    const Utf8Char invalid{kInvalidCodepoint, 1};
    if (b0 < 0x80)
        return {b0, 1};
    std::uint32_t need = 0;
    std::uint32_t cp = 0;
    std::uint32_t lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        need = 1;
        cp = b0 & 0x1F;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        need = 2;
        cp = b0 & 0x0F;
        if (b0 == 0xE0)
            lo = 0xA0;
        else if (b0 == 0xED)
            hi = 0x9F;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        need = 3;
        cp = b0 & 0x07;
        if (b0 == 0xF0)
            lo = 0x90;
        else if (b0 == 0xF4)
            hi = 0x8F;
    } else {
        return invalid;
    }
    if (i + need >= text.size())
        return invalid;
    for (std::uint32_t k = 1; k <= need; ++k) {
        const std::uint32_t b = byte(i + k);
        const std::uint32_t l = k == 1 ? lo : 0x80, h = k == 1 ? hi : 0xBF;
        if (b < l || b > h)
            return invalid;
        cp = (cp << 6) | (b & 0x3F);
    }
    return {cp, need + 1};
}

std::size_t incompleteUtf8Tail(std::string_view text)
{
    // Look back at most 3 bytes for a lead byte whose sequence runs past the end.
    const std::size_t n = text.size();
    for (std::size_t back = 1; back <= 3 && back <= n; ++back) {
        const auto b = static_cast<unsigned char>(text[n - back]);
        if ((b & 0xC0) == 0x80)
            continue;  // continuation byte: keep looking for the lead
        std::size_t len = 0;
        if (b >= 0xC2 && b <= 0xDF)
            len = 2;
        else if (b >= 0xE0 && b <= 0xEF)
            len = 3;
        else if (b >= 0xF0 && b <= 0xF4)
            len = 4;
        if (len <= back)
            return 0;
        // Check that the bytes present are a valid prefix.
        std::string padded(text.substr(n - back));
        // Complete the sequence with the smallest continuation bytes allowed, then decode.
        for (std::size_t k = back; k < len; ++k)
            padded.push_back('\x80');
        if (len >= 2 && back == 1) {
            if (b == 0xE0)
                padded[1] = '\xA0';
            else if (b == 0xF0)
                padded[1] = '\x90';
        }
        return decodeUtf8At(padded, 0).length == len ? back : 0;
    }
    return 0;
}

void appendUtf8(std::string &out, std::uint32_t cp)
{
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

std::string repairUtf8(std::string_view bytes)
{
    std::string out;
    out.reserve(bytes.size());
    std::size_t i = 0;
    while (i < bytes.size()) {
        const Utf8Char c = decodeUtf8At(bytes, i);
        if (c.codepoint != kInvalidCodepoint) {
            out.append(bytes.substr(i, c.length));
            i += c.length;
            continue;
        }
        // Maximal subpart: a valid prefix of a sequence (lead + allowed continuations) that is cut
        // short becomes one U+FFFD; any other bad byte becomes one U+FFFD by itself.
        std::size_t len = 1;
        for (std::size_t k = 2; k <= 3 && i + k <= bytes.size(); ++k) {
            if (incompleteUtf8Tail(bytes.substr(i, k)) == k)
                len = k;
            else
                break;
        }
        out.append("\xEF\xBF\xBD");
        i += len;
    }
    return out;
}

}  // namespace lse
