// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cctype>
#include <optional>
#include <string>
#include <string_view>

namespace lse {

// A table row mapping an enum value to its stable text name (JSON files, CLI flags).
template <typename Enum>
struct EnumName {
    Enum value;
    std::string_view name;
};

template <typename Enum, std::size_t N>
std::string_view enumToString(const EnumName<Enum> (&table)[N], Enum value)
{
    for (const auto &row : table)
        if (row.value == value)
            return row.name;
    return "unknown";
}

// Case-insensitive so that "RMSNorm", "rmsnorm" and "RMSNORM" are all accepted from users.
template <typename Enum, std::size_t N>
std::optional<Enum> enumFromString(const EnumName<Enum> (&table)[N], std::string_view text)
{
    for (const auto &row : table) {
        if (row.name.size() != text.size())
            continue;
        bool equal = true;
        for (std::size_t i = 0; i < text.size() && equal; ++i)
            equal = std::tolower(static_cast<unsigned char>(text[i])) == row.name[i];
        if (equal)
            return row.value;
    }
    return std::nullopt;
}

// "a|b|c" for help texts and error messages.
template <typename Enum, std::size_t N>
std::string enumChoices(const EnumName<Enum> (&table)[N])
{
    std::string text;
    for (const auto &row : table) {
        if (!text.empty())
            text += '|';
        text += row.name;
    }
    return text;
}

}  // namespace lse
