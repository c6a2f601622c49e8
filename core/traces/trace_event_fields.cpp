// SPDX-License-Identifier: GPL-3.0-or-later
#include "traces/trace_event_fields.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace lse::traces {

namespace {

using Kind = JsonToken::Kind;

bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// U+FDD0..U+FDEF and the last two code points of every plane: noncharacters, which a general
// parser may keep or replace; the fast path leaves them to it.
bool isNoncharacter(std::uint32_t cp) { return (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE; }

// Four hex digits at `p` (which has at least 4 bytes), or -1.
long hex4(const char *p)
{
    long v = 0;
    for (int i = 0; i < 4; ++i) {
        const int h = hexValue(p[i]);
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    return v;
}

class Reader {
public:
    Reader(const char *begin, const char *end) : p_(begin), end_(end) {}

    void skipSpace()
    {
        while (p_ < end_ && isSpace(*p_))
            ++p_;
    }
    bool atEnd() const { return p_ >= end_; }
    char peek() const { return *p_; }
    const char *position() const { return p_; }

    // A string at p_ (its opening quote): the token's text without quotes, strictly checked.
    bool string(JsonToken &token)
    {
        ++p_;
        const char *const begin = p_;
        bool escaped = false;
        for (;;) {
            if (p_ >= end_)
                return false;
            const unsigned char c = static_cast<unsigned char>(*p_);
            if (c == '"')
                break;
            if (c < 0x20)
                return false;
            if (c == '\\') {
                escaped = true;
                if (++p_ >= end_)
                    return false;
                switch (*p_) {
                case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
                    ++p_;
                    break;
                case 'u': {
                    if (end_ - p_ < 5)
                        return false;
                    const long unit = hex4(p_ + 1);
                    p_ += 5;
                    if (unit <= 0 || (unit >= 0xDC00 && unit <= 0xDFFF))
                        return false;  // \u0000 or a lone low surrogate
                    std::uint32_t cp = std::uint32_t(unit);
                    if (unit >= 0xD800 && unit <= 0xDBFF) {
                        if (end_ - p_ < 6 || p_[0] != '\\' || p_[1] != 'u')
                            return false;
                        const long low = hex4(p_ + 2);
                        if (low < 0xDC00 || low > 0xDFFF)
                            return false;
                        p_ += 6;
                        cp = 0x10000 + ((std::uint32_t(unit) - 0xD800) << 10) + (std::uint32_t(low) - 0xDC00);
                    }
                    if (isNoncharacter(cp))
                        return false;
                    break;
                }
                default:
                    return false;
                }
            } else if (c < 0x80) {
                ++p_;
            } else if (!utf8Sequence()) {
                return false;
            }
        }
        token.kind = Kind::String;
        token.text = std::string_view(begin, std::size_t(p_ - begin));
        token.escaped = escaped;
        ++p_;  // the closing quote
        return true;
    }

    // A value at p_ (no white space before it). Objects and arrays are checked and skipped.
    bool value(JsonToken &token, int depth)
    {
        if (p_ >= end_)
            return false;
        const char *const begin = p_;
        switch (*p_) {
        case '"':
            return string(token);
        case '{':
        case '[':
            if (!container(depth))
                return false;
            token.kind = *begin == '{' ? Kind::Object : Kind::Array;
            break;
        case 't':
            if (!literal("true"))
                return false;
            token.kind = Kind::True;
            break;
        case 'f':
            if (!literal("false"))
                return false;
            token.kind = Kind::False;
            break;
        case 'n':
            if (!literal("null"))
                return false;
            token.kind = Kind::Null;
            break;
        default:
            if (!number())
                return false;
            token.kind = Kind::Number;
            break;
        }
        token.text = std::string_view(begin, std::size_t(p_ - begin));
        token.escaped = false;
        return true;
    }

    // An object whose members are handed to `member(key, value_reader)`; the callback reads the
    // value (returning false to give up). `key` is the decoded key.
    template <class Member>
    bool object(int depth, Member &&member)
    {
        if (depth > kMaxEventDepth || p_ >= end_ || *p_ != '{')
            return false;
        ++p_;
        skipSpace();
        if (p_ < end_ && *p_ == '}') {
            ++p_;
            return true;
        }
        std::string decoded;
        for (;;) {
            if (p_ >= end_ || *p_ != '"')
                return false;
            JsonToken key;
            if (!string(key))
                return false;
            std::string_view name = key.text;
            if (key.escaped) {
                decoded = jsonTokenString(key);
                name = decoded;
            }
            skipSpace();
            if (p_ >= end_ || *p_ != ':')
                return false;
            ++p_;
            skipSpace();
            if (!member(name))
                return false;
            skipSpace();
            if (p_ >= end_)
                return false;
            if (*p_ == '}') {
                ++p_;
                return true;
            }
            if (*p_ != ',')
                return false;
            ++p_;
            skipSpace();
        }
    }

private:
    bool literal(const char *word)
    {
        const std::size_t n = std::strlen(word);
        if (std::size_t(end_ - p_) < n || std::memcmp(p_, word, n) != 0)
            return false;
        p_ += n;
        return true;
    }

    // RFC 8259: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?, and a value a double holds
    // comfortably: Qt refuses a number that overflows or underflows a double (1e400, 1e-400) and
    // may round one near the limits or with hundreds of digits its own way, so those fall back.
    bool number()
    {
        const char *const begin = p_;
        if (!numberSyntax())
            return false;
        if (p_ - begin > 300)
            return false;
        const std::string_view text(begin, std::size_t(p_ - begin));
        if (text.find_first_of("eE") == std::string_view::npos)
            return true;
        double value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        const double magnitude = std::fabs(value);
        return error == std::errc() && end == text.data() + text.size() && magnitude != 0 && magnitude > 1e-300
            && magnitude < 1e300;
    }

    bool numberSyntax()
    {
        if (p_ < end_ && *p_ == '-')
            ++p_;
        if (p_ >= end_ || !isDigit(*p_))
            return false;
        if (*p_ == '0') {
            ++p_;
        } else {
            while (p_ < end_ && isDigit(*p_))
                ++p_;
        }
        if (p_ < end_ && *p_ == '.') {
            ++p_;
            if (p_ >= end_ || !isDigit(*p_))
                return false;
            while (p_ < end_ && isDigit(*p_))
                ++p_;
        }
        if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
            ++p_;
            if (p_ < end_ && (*p_ == '+' || *p_ == '-'))
                ++p_;
            if (p_ >= end_ || !isDigit(*p_))
                return false;
            while (p_ < end_ && isDigit(*p_))
                ++p_;
        }
        return true;
    }

    // One multi-byte UTF-8 sequence at p_: well formed, shortest form, no surrogates, at most
    // U+10FFFF, not a noncharacter.
    bool utf8Sequence()
    {
        const unsigned char lead = static_cast<unsigned char>(*p_);
        int length = 0;
        std::uint32_t cp = 0;
        if (lead >= 0xC2 && lead <= 0xDF) {
            length = 2;
            cp = lead & 0x1F;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            length = 3;
            cp = lead & 0x0F;
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            length = 4;
            cp = lead & 0x07;
        } else {
            return false;
        }
        if (end_ - p_ < length)
            return false;
        for (int i = 1; i < length; ++i) {
            const unsigned char c = static_cast<unsigned char>(p_[i]);
            if ((c & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (c & 0x3F);
        }
        if ((length == 3 && cp < 0x800) || (length == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
            return false;
        if ((cp >= 0xD800 && cp <= 0xDFFF) || isNoncharacter(cp))
            return false;
        p_ += length;
        return true;
    }

    // An object or array at p_, checked and skipped.
    bool container(int depth)
    {
        if (depth >= kMaxEventDepth)
            return false;
        if (*p_ == '{')
            return object(depth + 1, [&](std::string_view) {
                JsonToken ignored;
                return value(ignored, depth + 1);
            });
        ++p_;
        skipSpace();
        if (p_ < end_ && *p_ == ']') {
            ++p_;
            return true;
        }
        for (;;) {
            JsonToken ignored;
            if (!value(ignored, depth + 1))
                return false;
            skipSpace();
            if (p_ >= end_)
                return false;
            if (*p_ == ']') {
                ++p_;
                return true;
            }
            if (*p_ != ',')
                return false;
            ++p_;
            skipSpace();
        }
    }

    const char *p_;
    const char *end_;
};

// Records a wanted member's value; false when the key was already given (a general parser's
// choice between duplicates is its own) or the value is not valid.
bool capture(Reader &reader, JsonToken &slot, int depth)
{
    if (!slot.absent())
        return false;
    return reader.value(slot, depth);
}

void appendUtf8(std::string &out, std::uint32_t cp)
{
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xC0 | (cp >> 6));
        out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += char(0xE0 | (cp >> 12));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    } else {
        out += char(0xF0 | (cp >> 18));
        out += char(0x80 | ((cp >> 12) & 0x3F));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    }
}

}  // namespace

bool readTraceEventFields(std::string_view json, TraceEventFields &fields)
{
    fields = TraceEventFields{};
    Reader reader(json.data(), json.data() + json.size());
    reader.skipSpace();
    const bool ok = reader.object(1, [&](std::string_view key) {
        if (key == "args") {
            if (!fields.args.absent())
                return false;
            reader.skipSpace();
            if (reader.atEnd() || reader.peek() != '{')
                return reader.value(fields.args, 1);
            const char *const args_begin = reader.position();
            const bool read = reader.object(2, [&](std::string_view arg) {
                JsonToken *slot = nullptr;
                if (arg == "correlation")
                    slot = &fields.correlation;
                else if (arg == "External id")
                    slot = &fields.external_id;
                else if (arg == "device")
                    slot = &fields.device;
                else if (arg == "stream")
                    slot = &fields.stream;
                else if (arg == "bytes")
                    slot = &fields.bytes;
                else if (arg == "grid")
                    slot = &fields.grid;
                else if (arg == "block")
                    slot = &fields.block;
                else if (arg == "Input Dims")
                    slot = &fields.input_dims;
                else if (arg == "Input type")
                    slot = &fields.input_type;
                else if (arg == "flops")
                    slot = &fields.flops;
                else if (arg == "class")
                    slot = &fields.op_class;
                else if (arg == "name")
                    slot = &fields.arg_name;
                if (slot)
                    return capture(reader, *slot, 2);
                JsonToken ignored;
                return reader.value(ignored, 2);
            });
            if (!read)
                return false;
            fields.args.kind = Kind::Object;
            fields.args.text = std::string_view(args_begin, std::size_t(reader.position() - args_begin));
            return true;
        }
        JsonToken *slot = nullptr;
        if (key == "ph")
            slot = &fields.ph;
        else if (key == "cat")
            slot = &fields.cat;
        else if (key == "name")
            slot = &fields.name;
        else if (key == "ts")
            slot = &fields.ts;
        else if (key == "dur")
            slot = &fields.dur;
        else if (key == "pid")
            slot = &fields.pid;
        else if (key == "tid")
            slot = &fields.tid;
        if (slot)
            return capture(reader, *slot, 1);
        JsonToken ignored;
        return reader.value(ignored, 1);
    });
    if (!ok)
        return false;
    reader.skipSpace();
    return reader.atEnd();
}

bool jsonTokenNumber(const JsonToken &token, double &value)
{
    if (token.kind != Kind::Number)
        return false;
    const std::string_view text = token.text;
    // Whole numbers of up to 15 digits, the common case (ids, µs timestamps), are exact in a double.
    const bool negative = !text.empty() && text.front() == '-';
    const std::string_view digits = text.substr(negative ? 1 : 0);
    if (digits.size() <= 15 && digits.find_first_not_of("0123456789") == std::string_view::npos) {
        std::int64_t n = 0;
        for (char c : digits)
            n = n * 10 + (c - '0');
        // QJsonValue keeps an integer literal as an integer, so "-0" is 0, not -0.0.
        value = negative && n != 0 ? -double(n) : double(n);
        return true;
    }
    double parsed = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed);
    if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(parsed))
        return false;
    value = parsed;
    return true;
}

std::string jsonTokenString(const JsonToken &token)
{
    if (token.kind != Kind::String)
        return {};
    if (!token.escaped)
        return std::string(token.text);
    std::string out;
    out.reserve(token.text.size());
    const std::string_view t = token.text;
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (t[i] != '\\') {
            out += t[i];
            continue;
        }
        const char e = t[++i];
        switch (e) {
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
            std::uint32_t cp = std::uint32_t(hex4(t.data() + i + 1));
            i += 4;
            if (cp >= 0xD800 && cp <= 0xDBFF) {  // readTraceEventFields checked the pair
                const std::uint32_t low = std::uint32_t(hex4(t.data() + i + 3));
                i += 6;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            }
            appendUtf8(out, cp);
            break;
        }
        default: out += e; break;  // " \ /
        }
    }
    return out;
}

JsonArrayElements::JsonArrayElements(const JsonToken &array)
{
    if (array.kind != Kind::Array || array.text.size() < 2)
        return;
    at_ = array.text.data() + 1;
    end_ = array.text.data() + array.text.size() - 1;  // the closing bracket
}

bool JsonArrayElements::next(JsonToken &element)
{
    if (!at_)
        return false;
    Reader reader(at_, end_);
    reader.skipSpace();
    if (reader.atEnd()) {
        at_ = nullptr;
        return false;
    }
    element = JsonToken{};
    if (!reader.value(element, 0)) {
        at_ = nullptr;
        return false;
    }
    reader.skipSpace();
    if (!reader.atEnd())  // a comma
        at_ = reader.position() + 1;
    else
        at_ = end_;
    return true;
}

}  // namespace lse::traces
