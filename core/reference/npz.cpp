// SPDX-License-Identifier: GPL-3.0-or-later
// NumPy .npy format: https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
// Zip container: PKWARE APPNOTE.TXT 6.3.x, sections 4.3.7 (local file header), 4.3.12 (central
// directory header), 4.3.14-4.3.16 (zip64 and end of central directory records), 4.5.3 (zip64
// extended information extra field).
#include "reference/npz.h"

#include "common/file_bytes.h"

#include <array>
#include <bit>
#include <cstring>
#include <limits>
#include <optional>
#include <set>

namespace lse {

// Elements are copied with memcpy into host types, which is only the file's byte order on a
// little-endian host; every platform the project builds on is one.
static_assert(std::endian::native == std::endian::little, "the npy reader assumes a little-endian host");

namespace {

// ---------------------------------------------------------------------------------------------
// dtype descriptors

enum class Kind { Float, Signed, Unsigned, Bool };

struct DtypeInfo {
    Kind kind = Kind::Float;
    int size = 0;  // bytes per element
};

// '<f4' → {Float, 4}. Only little-endian ('<'), native ('=', little here) and byte-order-free ('|',
// single-byte types) descriptors are accepted; big-endian data would need swapping.
std::optional<DtypeInfo> parseDtype(const std::string &descr)
{
    if (descr.size() != 3)
        return std::nullopt;
    const char order = descr[0];
    const char kind = descr[1];
    const char size = descr[2];
    DtypeInfo info;
    info.size = size - '0';
    if (order != '<' && order != '=' && !(order == '|' && info.size == 1))
        return std::nullopt;
    if (order == '|' && info.size != 1)
        return std::nullopt;
    switch (kind) {
    case 'f':
        info.kind = Kind::Float;
        return (info.size == 4 || info.size == 8) ? std::optional(info) : std::nullopt;
    case 'i':
        info.kind = Kind::Signed;
        return (info.size == 1 || info.size == 2 || info.size == 4 || info.size == 8) ? std::optional(info) : std::nullopt;
    case 'u':
        info.kind = Kind::Unsigned;
        return (info.size == 1 || info.size == 2 || info.size == 4 || info.size == 8) ? std::optional(info) : std::nullopt;
    case 'b':
        info.kind = Kind::Bool;
        return info.size == 1 ? std::optional(info) : std::nullopt;
    default:
        return std::nullopt;
    }
}

template <typename Source>
Source loadElement(const unsigned char *p)
{
    Source value;
    std::memcpy(&value, p, sizeof value);
    return value;
}

// Element i of the raw buffer, converted to Target. The dtype was validated when the array was
// parsed; an NpyArray built by hand with an unknown dtype converts to an empty vector.
template <typename Target>
std::vector<Target> convertAll(const NpyArray &array)
{
    const std::optional<DtypeInfo> info = parseDtype(array.dtype);
    if (!info)
        return {};
    const std::size_t size = static_cast<std::size_t>(info->size);
    const std::size_t n = array.data.size() / size;
    std::vector<Target> out(n);
    const unsigned char *p = array.data.data();
    for (std::size_t i = 0; i < n; ++i, p += size) {
        switch (info->kind) {
        case Kind::Float:
            out[i] = size == 4 ? static_cast<Target>(loadElement<float>(p)) : static_cast<Target>(loadElement<double>(p));
            break;
        case Kind::Bool:
            out[i] = static_cast<Target>(*p != 0 ? 1 : 0);
            break;
        case Kind::Signed:
            switch (size) {
            case 1: out[i] = static_cast<Target>(loadElement<std::int8_t>(p)); break;
            case 2: out[i] = static_cast<Target>(loadElement<std::int16_t>(p)); break;
            case 4: out[i] = static_cast<Target>(loadElement<std::int32_t>(p)); break;
            default: out[i] = static_cast<Target>(loadElement<std::int64_t>(p)); break;
            }
            break;
        case Kind::Unsigned:
            switch (size) {
            case 1: out[i] = static_cast<Target>(loadElement<std::uint8_t>(p)); break;
            case 2: out[i] = static_cast<Target>(loadElement<std::uint16_t>(p)); break;
            case 4: out[i] = static_cast<Target>(loadElement<std::uint32_t>(p)); break;
            default: out[i] = static_cast<Target>(loadElement<std::uint64_t>(p)); break;
            }
            break;
        }
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// The .npy header is the repr() of a Python dict, e.g.
//   {'descr': '<f4', 'fortran_order': False, 'shape': (8, 128, 64), }
// This parser accepts exactly the literal forms that dict can hold: quoted strings, True/False and
// tuples of non-negative integers (Python 2 files may write '3L').

struct HeaderValue {
    enum class Type { String, Bool, Tuple } type = Type::String;
    std::string text;
    bool flag = false;
    std::vector<std::int64_t> numbers;
};

class HeaderParser {
public:
    explicit HeaderParser(std::string_view text) : text_(text) {}

    // Fills `entries`, or returns a sentence saying where the text stops making sense.
    std::optional<std::string> parse(std::map<std::string, HeaderValue> &entries)
    {
        skipSpace();
        if (!take('{'))
            return error("expected '{'");
        for (;;) {
            skipSpace();
            if (take('}'))
                break;
            std::string key;
            if (!parseString(key))
                return error("expected a quoted key");
            skipSpace();
            if (!take(':'))
                return error("expected ':' after key '" + key + "'");
            skipSpace();
            HeaderValue value;
            if (!parseValue(value))
                return error("cannot read the value of '" + key + "'");
            if (entries.count(key) != 0)
                return error("key '" + key + "' appears twice");
            entries.emplace(key, std::move(value));
            skipSpace();
            if (take(','))
                continue;
            skipSpace();
            if (take('}'))
                break;
            return error("expected ',' or '}'");
        }
        skipSpace();
        if (pos_ != text_.size())
            return error("unexpected text after the dictionary");
        return std::nullopt;
    }

private:
    std::string error(const std::string &what) const
    {
        return what + " at character " + std::to_string(pos_) + " of the header";
    }
    void skipSpace()
    {
        while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
            ++pos_;
    }
    bool take(char c)
    {
        if (pos_ < text_.size() && text_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    bool takeWord(std::string_view word)
    {
        if (text_.substr(pos_, word.size()) == word) {
            pos_ += word.size();
            return true;
        }
        return false;
    }
    bool parseString(std::string &out)
    {
        if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"'))
            return false;
        const char quote = text_[pos_++];
        while (pos_ < text_.size() && text_[pos_] != quote) {
            // The keys and descriptors numpy writes contain no escapes; keep the escaped
            // character as it is rather than interpreting Python's escape rules.
            if (text_[pos_] == '\\' && pos_ + 1 < text_.size())
                ++pos_;
            out += text_[pos_++];
        }
        return take(quote);
    }
    bool parseInteger(std::int64_t &out)
    {
        const std::size_t start = pos_;
        std::int64_t value = 0;
        while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
            const int digit = text_[pos_] - '0';
            if (value > (std::numeric_limits<std::int64_t>::max() - digit) / 10)
                return false;
            value = value * 10 + digit;
            ++pos_;
        }
        if (pos_ == start)
            return false;
        take('L');
        out = value;
        return true;
    }
    bool parseValue(HeaderValue &value)
    {
        if (pos_ < text_.size() && (text_[pos_] == '\'' || text_[pos_] == '"')) {
            value.type = HeaderValue::Type::String;
            return parseString(value.text);
        }
        if (takeWord("True")) {
            value.type = HeaderValue::Type::Bool;
            value.flag = true;
            return true;
        }
        if (takeWord("False")) {
            value.type = HeaderValue::Type::Bool;
            value.flag = false;
            return true;
        }
        if (take('(')) {
            value.type = HeaderValue::Type::Tuple;
            for (;;) {
                skipSpace();
                if (take(')'))
                    return true;
                std::int64_t n = 0;
                if (!parseInteger(n))
                    return false;
                value.numbers.push_back(n);
                skipSpace();
                if (take(','))
                    continue;
                skipSpace();
                return take(')');
            }
        }
        return false;  // lists (structured dtypes), numbers and anything else numpy does not write here
    }

    std::string_view text_;
    std::size_t pos_ = 0;
};

std::uint32_t readU16(std::string_view bytes, std::size_t at)
{
    return std::uint32_t(static_cast<unsigned char>(bytes[at])) | (std::uint32_t(static_cast<unsigned char>(bytes[at + 1])) << 8);
}

std::uint32_t readU32(std::string_view bytes, std::size_t at)
{
    return readU16(bytes, at) | (readU16(bytes, at + 2) << 16);
}

std::uint64_t readU64(std::string_view bytes, std::size_t at)
{
    return std::uint64_t(readU32(bytes, at)) | (std::uint64_t(readU32(bytes, at + 4)) << 32);
}

// CRC-32 (the zip/zlib polynomial 0xEDB88320, reflected), table-driven. Checking it turns a
// corrupted member into a clear problem instead of silently wrong numbers.
std::uint32_t crc32(std::string_view bytes)
{
    static const std::array<std::uint32_t, 256> table = [] {
        std::array<std::uint32_t, 256> t{};
        for (std::uint32_t i = 0; i < 256; ++i) {
            std::uint32_t c = i;
            for (int k = 0; k < 8; ++k)
                c = (c & 1u) != 0 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[i] = c;
        }
        return t;
    }();
    std::uint32_t crc = 0xFFFFFFFFu;
    for (const char ch : bytes)
        crc = table[(crc ^ static_cast<unsigned char>(ch)) & 0xFFu] ^ (crc >> 8);
    return crc ^ 0xFFFFFFFFu;
}

template <typename T>
Result<T> fail(const std::string &where, const std::string &rule, const std::string &what)
{
    return Result<T>::failure(where, rule, where + ": " + what);
}

std::optional<std::string> inflateRaw(std::string_view in, std::size_t expectedSize, std::string &out);

}  // namespace

// ---------------------------------------------------------------------------------------------
// NpyArray

std::int64_t NpyArray::elementCount() const
{
    std::int64_t n = 1;
    for (const std::int64_t d : shape)
        n *= d;
    return n;
}

std::vector<float> NpyArray::toFloat() const { return convertAll<float>(*this); }
std::vector<double> NpyArray::toDouble() const { return convertAll<double>(*this); }
std::vector<std::int64_t> NpyArray::toInt64() const { return convertAll<std::int64_t>(*this); }

// ---------------------------------------------------------------------------------------------
// .npy

Result<NpyArray> parseNpy(std::string_view bytes, const std::string &where)
{
    static constexpr std::string_view kMagic("\x93NUMPY", 6);
    if (bytes.size() < 10)
        return fail<NpyArray>(where, "truncated", "only " + std::to_string(bytes.size()) + " bytes; an .npy file has at least a 10-byte preamble.");
    if (bytes.substr(0, 6) != kMagic)
        return fail<NpyArray>(where, "format", "not an .npy array (the file does not start with \\x93NUMPY).");
    const int major = static_cast<unsigned char>(bytes[6]);
    const int minor = static_cast<unsigned char>(bytes[7]);
    // Version 1.0 stores the header length in 2 bytes; 2.0 in 4 bytes; 3.0 is 2.0 with a UTF-8
    // header. Later versions may change the layout, so they are refused rather than guessed.
    if (major < 1 || major > 3)
        return fail<NpyArray>(where, "unsupported", "npy format version " + std::to_string(major) + "." + std::to_string(minor) + " is not supported (1.0, 2.0 and 3.0 are).");
    std::size_t headerStart = 10;
    std::uint64_t headerLength = readU16(bytes, 8);
    if (major >= 2) {
        if (bytes.size() < 12)
            return fail<NpyArray>(where, "truncated", "the file ends inside the version " + std::to_string(major) + " preamble.");
        headerStart = 12;
        headerLength = readU32(bytes, 8);
    }
    if (headerLength > bytes.size() - headerStart)
        return fail<NpyArray>(where, "truncated", "the header claims " + std::to_string(headerLength) + " bytes but only " + std::to_string(bytes.size() - headerStart) + " follow the preamble.");
    const std::string_view header = bytes.substr(headerStart, static_cast<std::size_t>(headerLength));

    std::map<std::string, HeaderValue> entries;
    if (const std::optional<std::string> error = HeaderParser(header).parse(entries))
        return fail<NpyArray>(where, "header", "cannot parse the header dictionary: " + *error + ".");

    NpyArray array;
    const auto descr = entries.find("descr");
    const auto order = entries.find("fortran_order");
    const auto shape = entries.find("shape");
    if (descr == entries.end() || order == entries.end() || shape == entries.end())
        return fail<NpyArray>(where, "header", "the header must have the keys 'descr', 'fortran_order' and 'shape'.");
    if (descr->second.type != HeaderValue::Type::String)
        return fail<NpyArray>(where, "header", "'descr' is not a string (structured dtypes are not supported).");
    if (order->second.type != HeaderValue::Type::Bool)
        return fail<NpyArray>(where, "header", "'fortran_order' is not True or False.");
    if (shape->second.type != HeaderValue::Type::Tuple)
        return fail<NpyArray>(where, "header", "'shape' is not a tuple of integers.");
    array.dtype = descr->second.text;
    array.fortranOrder = order->second.flag;
    array.shape = shape->second.numbers;

    const std::optional<DtypeInfo> info = parseDtype(array.dtype);
    if (!info)
        return fail<NpyArray>(where, "unsupported", "dtype '" + array.dtype + "' is not supported (little-endian f4, f8, i1-i8, u1-u8 and b1 are).");

    // Shape product times element size, refusing anything that would overflow: a corrupt header
    // must not turn into a huge allocation.
    std::uint64_t count = 1;
    for (const std::int64_t d : array.shape) {
        const auto dim = static_cast<std::uint64_t>(d);
        if (dim != 0 && count > std::numeric_limits<std::uint64_t>::max() / 16 / dim)
            return fail<NpyArray>(where, "header", "the shape is too large to be real.");
        count *= dim;
    }
    const std::uint64_t dataBytes = count * static_cast<std::uint64_t>(info->size);
    const std::size_t dataStart = headerStart + static_cast<std::size_t>(headerLength);
    const std::uint64_t available = bytes.size() - dataStart;
    if (available < dataBytes)
        return fail<NpyArray>(where, "truncated", "the shape needs " + std::to_string(dataBytes) + " data bytes but only " + std::to_string(available) + " are present.");
    if (available > dataBytes)
        return fail<NpyArray>(where, "format", std::to_string(available - dataBytes) + " bytes follow the " + std::to_string(dataBytes) + " data bytes the shape calls for.");
    const auto *begin = reinterpret_cast<const unsigned char *>(bytes.data()) + dataStart;
    array.data.assign(begin, begin + dataBytes);
    return array;
}

Result<NpyArray> readNpy(const std::string &path)
{
    const Result<QByteArray> bytes = readFileBytes(path, FileKind::Checkpoint);
    if (!bytes.ok())
        return bytes.problems();
    return parseNpy(std::string_view(bytes->constData(), static_cast<std::size_t>(bytes->size())), path);
}

// ---------------------------------------------------------------------------------------------
// .npz

Result<std::map<std::string, NpyArray>> readNpz(const std::string &path)
{
    using Arrays = std::map<std::string, NpyArray>;
    const Result<QByteArray> file = readFileBytes(path, FileKind::Checkpoint);
    if (!file.ok())
        return file.problems();
    const std::string_view bytes(file->constData(), static_cast<std::size_t>(file->size()));

    // The end-of-central-directory record (22 bytes plus a comment of up to 65535 bytes) is found
    // by scanning backwards for its signature, as every zip reader must.
    static constexpr std::size_t kEocdSize = 22;
    if (bytes.size() < kEocdSize)
        return fail<Arrays>(path, "truncated", "only " + std::to_string(bytes.size()) + " bytes; too short to be a zip (.npz) archive.");
    std::optional<std::size_t> eocd;
    const std::size_t lowest = bytes.size() - kEocdSize > 65535 ? bytes.size() - kEocdSize - 65535 : 0;
    for (std::size_t at = bytes.size() - kEocdSize + 1; at-- > lowest;) {
        if (readU32(bytes, at) == 0x06054b50u && at + kEocdSize + readU16(bytes, at + 20) == bytes.size()) {
            eocd = at;
            break;
        }
    }
    if (!eocd)
        return fail<Arrays>(path, "format", "not a zip (.npz) archive, or truncated: no end-of-central-directory record.");
    if (readU16(bytes, *eocd + 4) != 0 || readU16(bytes, *eocd + 6) != 0)
        return fail<Arrays>(path, "unsupported", "multi-disk zip archives are not supported.");
    std::uint64_t entryCount = readU16(bytes, *eocd + 10);
    std::uint64_t directorySize = readU32(bytes, *eocd + 12);
    std::uint64_t directoryOffset = readU32(bytes, *eocd + 16);

    // Zip64 (which numpy uses for members over 4 GiB): saturated fields point to the zip64 end
    // record through the locator immediately before the classic record.
    if (entryCount == 0xFFFFu || directorySize == 0xFFFFFFFFu || directoryOffset == 0xFFFFFFFFu) {
        if (*eocd < 20 || readU32(bytes, *eocd - 20) != 0x07064b50u)
            return fail<Arrays>(path, "format", "the end record asks for zip64 but the zip64 locator is missing.");
        const std::uint64_t record = readU64(bytes, *eocd - 20 + 8);
        if (record > bytes.size() || bytes.size() - record < 56 || readU32(bytes, static_cast<std::size_t>(record)) != 0x06064b50u)
            return fail<Arrays>(path, "format", "the zip64 end-of-central-directory record is missing or truncated.");
        entryCount = readU64(bytes, static_cast<std::size_t>(record) + 32);
        directorySize = readU64(bytes, static_cast<std::size_t>(record) + 40);
        directoryOffset = readU64(bytes, static_cast<std::size_t>(record) + 48);
    }
    if (directoryOffset > bytes.size() || directorySize > bytes.size() - directoryOffset)
        return fail<Arrays>(path, "truncated", "the central directory (offset " + std::to_string(directoryOffset) + ", " + std::to_string(directorySize) + " bytes) lies outside the " + std::to_string(bytes.size()) + "-byte file.");

    Arrays arrays;
    Problems problems;
    std::size_t at = static_cast<std::size_t>(directoryOffset);
    const std::size_t directoryEnd = at + static_cast<std::size_t>(directorySize);
    for (std::uint64_t index = 0; index < entryCount; ++index) {
        const std::string entryWhere = path + " (zip entry " + std::to_string(index) + ")";
        if (directoryEnd - at < 46 || readU32(bytes, at) != 0x02014b50u)
            return fail<Arrays>(entryWhere, "format", "central directory entry missing or corrupt.");
        const std::uint32_t flags = readU16(bytes, at + 8);
        const std::uint32_t method = readU16(bytes, at + 10);
        const std::uint32_t crc = readU32(bytes, at + 16);
        std::uint64_t compressedSize = readU32(bytes, at + 20);
        std::uint64_t size = readU32(bytes, at + 24);
        const std::size_t nameLength = readU16(bytes, at + 28);
        const std::size_t extraLength = readU16(bytes, at + 30);
        const std::size_t commentLength = readU16(bytes, at + 32);
        std::uint64_t localOffset = readU32(bytes, at + 42);
        if (directoryEnd - at - 46 < nameLength + extraLength + commentLength)
            return fail<Arrays>(entryWhere, "truncated", "central directory entry runs past the end of the directory.");
        const std::string name(bytes.substr(at + 46, nameLength));
        const std::string_view extra = bytes.substr(at + 46 + nameLength, extraLength);
        at += 46 + nameLength + extraLength + commentLength;
        const std::string where = path + ":" + name;

        // Zip64 extra field: the 64-bit values appear in this order, only for saturated fields.
        for (std::size_t e = 0; e + 4 <= extra.size();) {
            const std::uint32_t id = readU16(extra, e);
            const std::size_t length = readU16(extra, e + 2);
            if (extra.size() - e - 4 < length)
                break;
            if (id == 0x0001u) {
                std::size_t f = e + 4;
                const std::size_t end = f + length;
                for (std::uint64_t *field : {&size, &compressedSize, &localOffset}) {
                    if (*field == 0xFFFFFFFFu && end - f >= 8) {
                        *field = readU64(extra, f);
                        f += 8;
                    }
                }
            }
            e += 4 + length;
        }

        if (!name.empty() && name.back() == '/')
            continue;  // a directory entry carries no data
        if ((flags & 1u) != 0) {
            problems.push_back({where, "unsupported", where + ": encrypted zip members are not supported."});
            continue;
        }
        if (method != 0 && method != 8) {
            problems.push_back({where, "unsupported", where + ": zip compression method " + std::to_string(method) + " is not supported (stored and deflated are)."});
            continue;
        }
        // The local header repeats the name and may carry a different extra field; the data
        // follows both. Sizes are taken from the central directory, which is authoritative even
        // when the local header defers them to a data descriptor (flag bit 3).
        if (localOffset > bytes.size() || bytes.size() - localOffset < 30 || readU32(bytes, static_cast<std::size_t>(localOffset)) != 0x04034b50u) {
            problems.push_back({where, "format", where + ": the local file header at offset " + std::to_string(localOffset) + " is missing or corrupt."});
            continue;
        }
        const auto local = static_cast<std::size_t>(localOffset);
        const std::uint64_t dataOffset = localOffset + 30 + readU16(bytes, local + 26) + readU16(bytes, local + 28);
        if (dataOffset > bytes.size() || bytes.size() - dataOffset < compressedSize) {
            problems.push_back({where, "truncated", where + ": the member's " + std::to_string(compressedSize) + " bytes run past the end of the file."});
            continue;
        }
        const std::string_view stored = bytes.substr(static_cast<std::size_t>(dataOffset), static_cast<std::size_t>(compressedSize));
        std::string inflated;
        std::string_view content = stored;
        if (method == 0) {
            if (compressedSize != size) {
                problems.push_back({where, "format", where + ": a stored member's compressed size (" + std::to_string(compressedSize) + ") differs from its size (" + std::to_string(size) + ")."});
                continue;
            }
        } else {
            // The inflated size is bounded by what the header promises, so a corrupt stream cannot
            // make the reader allocate without limit.
            if (size > (std::uint64_t(1) << 40)) {
                problems.push_back({where, "format", where + ": the uncompressed size " + std::to_string(size) + " is not believable."});
                continue;
            }
            if (const std::optional<std::string> error = inflateRaw(stored, static_cast<std::size_t>(size), inflated)) {
                problems.push_back({where, "format", where + ": cannot inflate the deflated member: " + *error + "."});
                continue;
            }
            content = inflated;
        }
        if (crc32(content) != crc) {
            problems.push_back({where, "checksum", where + ": CRC-32 mismatch; the member is corrupt."});
            continue;
        }
        std::string key = name;
        if (key.size() > 4 && key.compare(key.size() - 4, 4, ".npy") == 0)
            key.resize(key.size() - 4);
        if (arrays.count(key) != 0) {
            problems.push_back({where, "duplicate", where + ": the archive holds two members named '" + name + "'."});
            continue;
        }
        Result<NpyArray> array = parseNpy(content, where);
        if (!array.ok()) {
            problems.insert(problems.end(), array.problems().begin(), array.problems().end());
            continue;
        }
        arrays.emplace(std::move(key), std::move(array.value()));
    }
    if (!problems.empty())
        return problems;
    return arrays;
}

namespace {

// ---------------------------------------------------------------------------------------------
// Raw DEFLATE decoder (RFC 1951). Qt's qUncompress only reads zlib streams (RFC 1950), whose
// trailing Adler-32 a zip member does not carry, so the members are inflated here. Canonical
// Huffman codes are decoded with the count/symbol tables of RFC 1951 section 3.2.2.

class BitReader {
public:
    explicit BitReader(std::string_view in) : in_(in) {}
    // Bits are packed starting with the least significant bit of each byte (section 3.1.1).
    bool bits(int n, std::uint32_t &out)
    {
        std::uint32_t value = 0;
        for (int i = 0; i < n; ++i) {
            if (byte_ >= in_.size())
                return false;
            const std::uint32_t bit = (static_cast<unsigned char>(in_[byte_]) >> bit_) & 1u;
            value |= bit << i;
            if (++bit_ == 8) {
                bit_ = 0;
                ++byte_;
            }
        }
        out = value;
        return true;
    }
    void alignToByte()
    {
        if (bit_ != 0) {
            bit_ = 0;
            ++byte_;
        }
    }
    std::size_t bytePosition() const { return byte_; }
    void skipBytes(std::size_t n) { byte_ += n; }
    std::string_view input() const { return in_; }

private:
    std::string_view in_;
    std::size_t byte_ = 0;
    int bit_ = 0;
};

constexpr int kMaxCodeBits = 15;

struct Huffman {
    std::array<std::uint16_t, kMaxCodeBits + 1> count{};  // codes of each length
    std::vector<std::uint16_t> symbols;                    // symbols ordered by code
};

// Builds the decoding tables from code lengths; false for an over-subscribed set of lengths.
bool buildHuffman(const std::uint8_t *lengths, int n, Huffman &h)
{
    h.count.fill(0);
    for (int s = 0; s < n; ++s)
        ++h.count[lengths[s]];
    int left = 1;
    for (int len = 1; len <= kMaxCodeBits; ++len) {
        left = 2 * left - h.count[static_cast<std::size_t>(len)];
        if (left < 0)
            return false;
    }
    std::array<std::uint16_t, kMaxCodeBits + 2> offsets{};
    for (int len = 1; len <= kMaxCodeBits; ++len)
        offsets[static_cast<std::size_t>(len + 1)] = static_cast<std::uint16_t>(offsets[static_cast<std::size_t>(len)] + h.count[static_cast<std::size_t>(len)]);
    h.symbols.assign(static_cast<std::size_t>(n), 0);
    for (int s = 0; s < n; ++s)
        if (lengths[s] != 0)
            h.symbols[offsets[lengths[s]]++] = static_cast<std::uint16_t>(s);
    return true;
}

// Codes are read one bit at a time, most significant bit first (section 3.1.1).
bool decodeSymbol(BitReader &in, const Huffman &h, int &symbol)
{
    int code = 0, first = 0, index = 0;
    for (int len = 1; len <= kMaxCodeBits; ++len) {
        std::uint32_t bit = 0;
        if (!in.bits(1, bit))
            return false;
        code |= static_cast<int>(bit);
        const int count = h.count[static_cast<std::size_t>(len)];
        if (code - count < first) {
            symbol = h.symbols[static_cast<std::size_t>(index + (code - first))];
            return true;
        }
        index += count;
        first += count;
        first <<= 1;
        code <<= 1;
    }
    return false;
}

// Section 3.2.5: base lengths/distances and their extra bits.
constexpr std::array<std::uint16_t, 29> kLengthBase = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                                                       35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr std::array<std::uint8_t, 29> kLengthExtra = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
                                                      3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr std::array<std::uint16_t, 30> kDistanceBase = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129,
                                                         193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
                                                         4097, 6145, 8193, 12289, 16385, 24577};
constexpr std::array<std::uint8_t, 30> kDistanceExtra = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6,
                                                        6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

std::optional<std::string> inflateCodes(BitReader &in, const Huffman &literals, const Huffman &distances,
                                        std::size_t limit, std::string &out)
{
    for (;;) {
        int symbol = 0;
        if (!decodeSymbol(in, literals, symbol))
            return "bad literal/length code or truncated data";
        if (symbol < 256) {
            if (out.size() >= limit)
                return "more data than the header's size";
            out += static_cast<char>(symbol);
        } else if (symbol == 256) {
            return std::nullopt;
        } else {
            const auto li = static_cast<std::size_t>(symbol - 257);
            if (li >= kLengthBase.size())
                return "invalid length symbol";
            std::uint32_t extra = 0;
            if (!in.bits(kLengthExtra[li], extra))
                return "truncated data";
            const std::size_t length = kLengthBase[li] + extra;
            int ds = 0;
            if (!decodeSymbol(in, distances, ds) || static_cast<std::size_t>(ds) >= kDistanceBase.size())
                return "bad distance code or truncated data";
            if (!in.bits(kDistanceExtra[static_cast<std::size_t>(ds)], extra))
                return "truncated data";
            const std::size_t distance = kDistanceBase[static_cast<std::size_t>(ds)] + extra;
            if (distance > out.size())
                return "a back-reference points before the start of the data";
            if (length > limit - out.size())
                return "more data than the header's size";
            // Byte by byte: the copy may overlap what it writes (distance < length).
            for (std::size_t k = 0; k < length; ++k)
                out += out[out.size() - distance];
        }
    }
}

// Deflate produces at most 1032 bytes per input byte (a 258-byte match per 2-bit code; zlib's
// "Technical Details", https://zlib.net/zlib_tech.html, "Maximum Compression Factor").
constexpr std::size_t kMaxDeflateRatio = 1032;

std::optional<std::string> inflateRaw(std::string_view input, std::size_t expectedSize, std::string &out)
{
    out.clear();
    // The header's size is only a promise: a 100-byte member claiming 2 GB must not allocate 2 GB
    // up front (found by fuzz_npz), so the reservation is also bounded by what the input can make.
    const std::size_t inputLimit = input.size() > (SIZE_MAX - 258) / kMaxDeflateRatio ? SIZE_MAX : input.size() * kMaxDeflateRatio + 258;
    out.reserve(std::min(expectedSize, inputLimit));
    BitReader in(input);
    std::uint32_t last = 0;
    do {
        std::uint32_t type = 0;
        if (!in.bits(1, last) || !in.bits(2, type))
            return "truncated data";
        if (type == 0) {  // stored block (section 3.2.4): LEN and its one's complement NLEN
            in.alignToByte();
            const std::size_t at = in.bytePosition();
            if (input.size() < 4 || at > input.size() - 4)
                return "truncated stored block";
            const std::uint32_t len = readU16(input, at);
            if ((len ^ readU16(input, at + 2)) != 0xFFFFu)
                return "stored block length check failed";
            if (input.size() - at - 4 < len)
                return "truncated stored block";
            if (len > expectedSize - out.size())
                return "more data than the header's size";
            out.append(input.substr(at + 4, len));
            in.skipBytes(4 + len);
        } else if (type == 1) {  // fixed Huffman codes (section 3.2.6)
            static const std::pair<Huffman, Huffman> fixed = [] {
                std::array<std::uint8_t, 288> lengths{};
                for (std::size_t s = 0; s < 288; ++s)
                    lengths[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
                std::array<std::uint8_t, 30> distanceLengths{};
                distanceLengths.fill(5);
                std::pair<Huffman, Huffman> tables;
                buildHuffman(lengths.data(), 288, tables.first);
                buildHuffman(distanceLengths.data(), 30, tables.second);
                return tables;
            }();
            if (auto error = inflateCodes(in, fixed.first, fixed.second, expectedSize, out))
                return error;
        } else if (type == 2) {  // dynamic Huffman codes (section 3.2.7)
            std::uint32_t hlit = 0, hdist = 0, hclen = 0;
            if (!in.bits(5, hlit) || !in.bits(5, hdist) || !in.bits(4, hclen))
                return "truncated data";
            const int literalCount = static_cast<int>(hlit) + 257;
            const int distanceCount = static_cast<int>(hdist) + 1;
            if (literalCount > 286 || distanceCount > 30)
                return "too many codes in a dynamic block";
            static constexpr std::array<std::uint8_t, 19> kOrder = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
            std::array<std::uint8_t, 19> codeLengthLengths{};
            for (std::uint32_t i = 0; i < hclen + 4; ++i) {
                std::uint32_t v = 0;
                if (!in.bits(3, v))
                    return "truncated data";
                codeLengthLengths[kOrder[i]] = static_cast<std::uint8_t>(v);
            }
            Huffman codeLengths;
            if (!buildHuffman(codeLengthLengths.data(), 19, codeLengths))
                return "invalid code-length code";
            std::array<std::uint8_t, 286 + 30> lengths{};
            for (int i = 0; i < literalCount + distanceCount;) {
                int symbol = 0;
                if (!decodeSymbol(in, codeLengths, symbol))
                    return "bad code-length code or truncated data";
                if (symbol < 16) {
                    lengths[static_cast<std::size_t>(i++)] = static_cast<std::uint8_t>(symbol);
                    continue;
                }
                std::uint8_t value = 0;
                std::uint32_t repeat = 0;
                if (symbol == 16) {
                    if (i == 0)
                        return "a repeat code with nothing to repeat";
                    value = lengths[static_cast<std::size_t>(i - 1)];
                    if (!in.bits(2, repeat))
                        return "truncated data";
                    repeat += 3;
                } else if (symbol == 17) {
                    if (!in.bits(3, repeat))
                        return "truncated data";
                    repeat += 3;
                } else {
                    if (!in.bits(7, repeat))
                        return "truncated data";
                    repeat += 11;
                }
                if (static_cast<int>(repeat) > literalCount + distanceCount - i)
                    return "code lengths overrun their table";
                while (repeat-- > 0)
                    lengths[static_cast<std::size_t>(i++)] = value;
            }
            if (lengths[256] == 0)
                return "the block has no end-of-block code";
            Huffman literals, distances;
            if (!buildHuffman(lengths.data(), literalCount, literals) ||
                !buildHuffman(lengths.data() + literalCount, distanceCount, distances))
                return "invalid Huffman code lengths";
            if (auto error = inflateCodes(in, literals, distances, expectedSize, out))
                return error;
        } else {
            return "invalid block type 3";
        }
    } while (last == 0);
    if (out.size() != expectedSize)
        return "inflated to " + std::to_string(out.size()) + " bytes, not the " + std::to_string(expectedSize) + " the header states";
    return std::nullopt;
}

}  // namespace

}  // namespace lse
