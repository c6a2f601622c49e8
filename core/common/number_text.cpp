// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/number_text.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

namespace lse {

namespace {

// Only what people write as decimal numbers: strtod would also read hexadecimal ("0x10" = 16),
// "inf", "nan" and "infinity", which nobody means by a count of GPUs.
bool decimalSyntax(const std::string &body)
{
    for (const char c : body)
        if (!std::isdigit(static_cast<unsigned char>(c)) && c != '.' && c != 'e' && c != 'E' && c != '+' && c != '-')
            return false;
    return true;
}

}  // namespace

std::optional<double> parseNumberText(std::string_view text)
{
    std::string body(text);
    while (!body.empty() && std::isspace(static_cast<unsigned char>(body.back())))
        body.pop_back();
    std::size_t start = 0;
    while (start < body.size() && std::isspace(static_cast<unsigned char>(body[start])))
        ++start;
    body = body.substr(start);
    double scale = 1;
    if (!body.empty()) {
        switch (std::toupper(static_cast<unsigned char>(body.back()))) {
        case 'K': scale = 1e3; break;
        case 'M': scale = 1e6; break;
        case 'B':
        case 'G': scale = 1e9; break;
        case 'T': scale = 1e12; break;
        default: break;
        }
        if (scale != 1)
            body.pop_back();
    }
    if (body.empty() || !decimalSyntax(body))
        return std::nullopt;
    char *end = nullptr;
    const double value = std::strtod(body.c_str(), &end);
    // The suffix can carry a finite number past the largest double (1e308T): finite after scaling only.
    if (end != body.c_str() + body.size() || !std::isfinite(value) || !std::isfinite(value * scale))
        return std::nullopt;
    return value * scale;
}

std::optional<std::int64_t> parseCountText(std::string_view text)
{
    const std::optional<double> value = parseNumberText(text);
    // Below 2^62 the conversion is defined; validation applies the real limits with field names.
    if (!value || *value < 0 || *value > 4.6e18 || std::floor(*value) != *value)
        return std::nullopt;
    return std::int64_t(*value);
}

std::string formatCountText(std::int64_t value)
{
    struct Suffix {
        std::int64_t scale;
        char letter;
    };
    for (const Suffix suffix : {Suffix{1'000'000'000'000, 'T'}, Suffix{1'000'000'000, 'B'}, Suffix{1'000'000, 'M'}}) {
        if (value >= suffix.scale && value % (suffix.scale / 1000) == 0) {
            // Up to three decimals: 1.5T, 15T, 2.048B.
            const std::int64_t whole = value / suffix.scale;
            std::int64_t fraction = value % suffix.scale / (suffix.scale / 1000);
            std::string text = std::to_string(whole);
            if (fraction != 0) {
                std::string digits = std::to_string(fraction);
                digits.insert(0, 3 - digits.size(), '0');
                while (!digits.empty() && digits.back() == '0')
                    digits.pop_back();
                text += "." + digits;
            }
            return text + suffix.letter;
        }
    }
    return std::to_string(value);
}

}  // namespace lse
