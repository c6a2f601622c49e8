// SPDX-License-Identifier: GPL-3.0-or-later
// GPT-2's byte-to-unicode alphabet: a bijection from the 256 byte values to printable code points,
// used by vocab.json and merges.txt so that every token is a readable string without spaces.
// Bytes '!'..'~', 0xA1..0xAC and 0xAE..0xFF map to the code point of the same value; the other
// 68 bytes map, in increasing order, to U+0100, U+0101, ... (so the space byte is 'Ġ' U+0120).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lse {

// Code point that stands for byte b.
std::uint32_t byteToUnicode(std::uint8_t b);

// Byte that code point cp stands for, or -1 when cp is not in the alphabet.
int unicodeToByte(std::uint32_t cp);

// Raw bytes → their spelling in the alphabet (UTF-8).
std::string bytesToAlphabet(std::string_view bytes);

// Spelling in the alphabet (UTF-8) → raw bytes; nullopt when a character is not in the alphabet
// or the input is not valid UTF-8.
std::optional<std::string> alphabetToBytes(std::string_view text);
// The same into a caller's buffer (replaced, not appended); false when a character is not in the
// alphabet. Loaders call it once per merge line and reuse the buffer.
bool alphabetToBytesInto(std::string_view text, std::string &out);

}  // namespace lse
