// SPDX-License-Identifier: GPL-3.0-or-later
#include "tokenizer/vocab_json.h"

#include "tokenizer/unicode.h"

#include <limits>

namespace lse {
namespace {

class FlatObjectParser {
public:
    explicit FlatObjectParser(std::string_view text) : text_(text) {}

    bool parse(const std::function<bool(std::string_view, std::int64_t)> &entry)
    {
        skipSpace();
        if (!consume('{'))
            return false;
        skipSpace();
        if (consume('}'))
            return atEnd();
        std::string key;
        for (;;) {
            skipSpace();
            key.clear();
            if (!parseString(key))
                return false;
            skipSpace();
            if (!consume(':'))
                return false;
            skipSpace();
            std::int64_t value = 0;
            if (!parseNonNegativeInteger(value) || !entry(key, value))
                return false;
            skipSpace();
            if (consume(','))
                continue;
            if (consume('}'))
                return atEnd();
            return false;
        }
    }

private:
    bool atEnd()
    {
        skipSpace();
        return pos_ == text_.size();
    }

    bool consume(char c)
    {
        if (pos_ < text_.size() && text_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }

    void skipSpace()
    {
        while (pos_ < text_.size() &&
               (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\r' || text_[pos_] == '\t'))
            ++pos_;
    }

    bool parseHex4(std::uint32_t &value)
    {
        if (pos_ + 4 > text_.size())
            return false;
        value = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = text_[pos_++];
            value <<= 4;
            if (c >= '0' && c <= '9')
                value |= std::uint32_t(c - '0');
            else if (c >= 'a' && c <= 'f')
                value |= std::uint32_t(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                value |= std::uint32_t(c - 'A' + 10);
            else
                return false;
        }
        return true;
    }

    // RFC 8259 §7: escapes, \uXXXX with UTF-16 surrogate pairs; raw control characters are invalid.
    bool parseString(std::string &out)
    {
        if (!consume('"'))
            return false;
        for (;;) {
            const std::size_t start = pos_;
            while (pos_ < text_.size() && text_[pos_] != '"' && text_[pos_] != '\\' &&
                   static_cast<unsigned char>(text_[pos_]) >= 0x20)
                ++pos_;
            out.append(text_.substr(start, pos_ - start));
            if (pos_ >= text_.size())
                return false;
            const char c = text_[pos_++];
            if (c == '"')
                return true;
            if (c != '\\')
                return false;  // a raw control character
            if (pos_ >= text_.size())
                return false;
            const char e = text_[pos_++];
            switch (e) {
            case '"': out.push_back('"'); break;
            case '\\': out.push_back('\\'); break;
            case '/': out.push_back('/'); break;
            case 'b': out.push_back('\b'); break;
            case 'f': out.push_back('\f'); break;
            case 'n': out.push_back('\n'); break;
            case 'r': out.push_back('\r'); break;
            case 't': out.push_back('\t'); break;
            case 'u': {
                std::uint32_t unit = 0;
                if (!parseHex4(unit))
                    return false;
                if (unit >= 0xD800 && unit < 0xDC00) {
                    std::uint32_t low = 0;
                    if (!consume('\\') || !consume('u') || !parseHex4(low) || low < 0xDC00 || low >= 0xE000)
                        return false;
                    unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                } else if (unit >= 0xDC00 && unit < 0xE000) {
                    return false;  // a lone low surrogate is not a character
                }
                appendUtf8(out, unit);
                break;
            }
            default: return false;
            }
        }
    }

    bool parseNonNegativeInteger(std::int64_t &value)
    {
        const std::size_t start = pos_;
        value = 0;
        while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
            if (value > (std::numeric_limits<std::int64_t>::max() - 9) / 10)
                return false;
            value = value * 10 + (text_[pos_++] - '0');
        }
        const std::size_t digits = pos_ - start;
        // JSON forbids leading zeros; a fraction or exponent means it is not an id.
        if (digits == 0 || (digits > 1 && text_[start] == '0'))
            return false;
        return pos_ >= text_.size() || (text_[pos_] != '.' && text_[pos_] != 'e' && text_[pos_] != 'E');
    }

    std::string_view text_;
    std::size_t pos_ = 0;
};

}  // namespace

bool forEachFlatJsonIntMember(std::string_view json, const std::function<bool(std::string_view, std::int64_t)> &entry)
{
    return FlatObjectParser(json).parse(entry);
}

std::optional<std::vector<std::pair<std::string, std::int64_t>>> parseFlatJsonIntObject(std::string_view json)
{
    std::vector<std::pair<std::string, std::int64_t>> members;
    if (!forEachFlatJsonIntMember(json, [&](std::string_view key, std::int64_t value) {
            members.emplace_back(std::string(key), value);
            return true;
        }))
        return std::nullopt;
    return members;
}

}  // namespace lse
