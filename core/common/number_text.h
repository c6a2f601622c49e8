// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lse {

// Numbers as people type them: 4096, 15e12, 1.5T, 300B, 7M (K/M/B|G/T = 1e3/1e6/1e9/1e12).
// Decimal only (no 0x10, inf or nan) and finite after the suffix's scale; nothing otherwise.
std::optional<double> parseNumberText(std::string_view text);
// A whole, non-negative count in that syntax; nothing for fractions, negatives or garbage.
std::optional<std::int64_t> parseCountText(std::string_view text);
// The shortest exact form with a suffix: 15000000000000 -> "15T", 4096 -> "4096".
std::string formatCountText(std::int64_t value);

}  // namespace lse
