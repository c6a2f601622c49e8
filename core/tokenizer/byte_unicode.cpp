// SPDX-License-Identifier: GPL-3.0-or-later
#include "tokenizer/byte_unicode.h"

#include "tokenizer/unicode.h"

#include <array>

namespace lse {
namespace {

struct Tables {
    std::array<std::uint32_t, 256> toCp{};
    std::array<std::int16_t, 512> toByte{};  // every code point of the alphabet is below U+0144
};

constexpr bool selfMapped(std::uint32_t b)
{
    return (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
}

constexpr Tables makeTables()
{
    Tables t{};
    for (auto &v : t.toByte)
        v = -1;
    std::uint32_t next = 0;
    for (std::uint32_t b = 0; b < 256; ++b) {
        const std::uint32_t cp = selfMapped(b) ? b : 256 + next++;
        t.toCp[b] = cp;
        t.toByte[cp] = static_cast<std::int16_t>(b);
    }
    return t;
}

constexpr Tables kTables = makeTables();

}  // namespace

std::uint32_t byteToUnicode(std::uint8_t b) { return kTables.toCp[b]; }

int unicodeToByte(std::uint32_t cp) { return cp < kTables.toByte.size() ? kTables.toByte[cp] : -1; }

std::string bytesToAlphabet(std::string_view bytes)
{
    std::string out;
    out.reserve(bytes.size() * 2);
    for (const char c : bytes)
        appendUtf8(out, byteToUnicode(static_cast<std::uint8_t>(c)));
    return out;
}

bool alphabetToBytesInto(std::string_view text, std::string &out)
{
    out.clear();
    std::size_t i = 0;
    while (i < text.size()) {
        const auto lead = static_cast<unsigned char>(text[i]);
        // Printable ASCII other than space stands for itself; everything else is decoded.
        if (lead > 0x20 && lead < 0x7F) {
            out.push_back(static_cast<char>(lead));
            ++i;
            continue;
        }
        const Utf8Char c = decodeUtf8At(text, i);
        if (c.codepoint == kInvalidCodepoint)
            return false;
        const int b = unicodeToByte(c.codepoint);
        if (b < 0)
            return false;
        out.push_back(static_cast<char>(static_cast<unsigned char>(b)));
        i += c.length;
    }
    return true;
}

std::optional<std::string> alphabetToBytes(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    if (!alphabetToBytesInto(text, out))
        return std::nullopt;
    return out;
}

}  // namespace lse
