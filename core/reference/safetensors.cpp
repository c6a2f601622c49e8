// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/safetensors.h"

#include "common/file_bytes.h"
#include "common/file_writer.h"
#include "common/json_fields.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>

namespace lse {

// Tensor bytes are the host's float/int64 bytes copied as they are; safetensors is little-endian.
static_assert(std::endian::native == std::endian::little, "the safetensors code assumes a little-endian host");

namespace {

constexpr const char *kMetadataKey = "__metadata__";
// The reference implementation refuses headers above 100 MB; a corrupt length must not make the
// reader believe in a gigantic header either.
constexpr std::uint64_t kMaxHeaderBytes = 100'000'000;
// The byte buffer starts at a multiple of this (the format pads the header with spaces), so that
// a memory-mapped reader could use the tensors in place.
constexpr std::uint64_t kAlignment = 8;

// Product of the dimensions, or nothing if one is negative or the product overflows.
std::optional<std::uint64_t> shapeCount(const std::vector<std::int64_t> &shape)
{
    std::uint64_t count = 1;
    for (const std::int64_t d : shape) {
        if (d < 0)
            return std::nullopt;
        const auto dim = static_cast<std::uint64_t>(d);
        if (dim != 0 && count > std::numeric_limits<std::uint64_t>::max() / 16 / dim)
            return std::nullopt;
        count *= dim;
    }
    return count;
}

template <typename T>
SafeTensor makeTensor(std::string name, const char *dtype, const T *data, std::vector<std::int64_t> shape)
{
    SafeTensor t;
    t.name = std::move(name);
    t.dtype = dtype;
    const std::uint64_t count = shapeCount(shape).value_or(0);
    t.shape = std::move(shape);
    t.bytes.resize(static_cast<std::size_t>(count) * sizeof(T));
    if (count != 0)
        std::memcpy(t.bytes.data(), data, t.bytes.size());
    return t;
}

std::string shapeText(const std::vector<std::int64_t> &shape)
{
    std::string text = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + "]";
}

}  // namespace

std::int64_t SafeTensor::elementCount() const
{
    return static_cast<std::int64_t>(shapeCount(shape).value_or(0));
}

const SafeTensor *SafetensorsFile::find(std::string_view name) const
{
    for (const SafeTensor &t : tensors)
        if (t.name == name)
            return &t;
    return nullptr;
}

std::optional<int> safetensorsDtypeSize(std::string_view dtype)
{
    static const std::pair<std::string_view, int> kSizes[] = {
        {"F64", 8}, {"F32", 4}, {"F16", 2}, {"BF16", 2}, {"F8_E4M3", 1}, {"F8_E5M2", 1},
        {"I64", 8}, {"I32", 4}, {"I16", 2}, {"I8", 1},   {"U64", 8},     {"U32", 4},
        {"U16", 2}, {"U8", 1},  {"BOOL", 1}};
    for (const auto &[name, size] : kSizes)
        if (name == dtype)
            return size;
    return std::nullopt;
}

SafeTensor makeF32Tensor(std::string name, const float *data, std::vector<std::int64_t> shape)
{
    return makeTensor(std::move(name), "F32", data, std::move(shape));
}

SafeTensor makeF64Tensor(std::string name, const double *data, std::vector<std::int64_t> shape)
{
    return makeTensor(std::move(name), "F64", data, std::move(shape));
}

SafeTensor makeI64Tensor(std::string name, const std::int64_t *data, std::vector<std::int64_t> shape)
{
    return makeTensor(std::move(name), "I64", data, std::move(shape));
}

std::vector<float> safeTensorToFloat(const SafeTensor &tensor)
{
    if (tensor.dtype == "F32") {
        std::vector<float> out(tensor.bytes.size() / sizeof(float));
        if (!out.empty())
            std::memcpy(out.data(), tensor.bytes.data(), out.size() * sizeof(float));
        return out;
    }
    if (tensor.dtype == "F64") {
        std::vector<float> out(tensor.bytes.size() / sizeof(double));
        for (std::size_t i = 0; i < out.size(); ++i) {
            double d = 0;
            std::memcpy(&d, tensor.bytes.data() + i * sizeof(double), sizeof d);
            out[i] = static_cast<float>(d);
        }
        return out;
    }
    return {};
}

bool copySafeTensorTo(const SafeTensor &tensor, float *out, std::int64_t count)
{
    if (tensor.dtype != "F32" || count < 0 || tensor.bytes.size() != static_cast<std::size_t>(count) * sizeof(float))
        return false;
    if (count != 0)
        std::memcpy(out, tensor.bytes.data(), tensor.bytes.size());
    return true;
}

Result<bool> writeSafetensors(const std::string &path, const std::vector<SafeTensor> &tensors,
                              const std::map<std::string, std::string> &metadata)
{
    Problems problems;
    auto problem = [&](const std::string &field, const std::string &rule, const std::string &text) {
        problems.push_back({field, rule, field + ": " + text});
    };
    QJsonObject header;
    std::set<std::string> names;
    std::uint64_t offset = 0;
    for (const SafeTensor &t : tensors) {
        const std::string field = path + ":" + t.name;
        if (t.name.empty() || t.name == kMetadataKey) {
            problem(field, "name", "'" + t.name + "' cannot be a tensor name.");
            continue;
        }
        if (!names.insert(t.name).second) {
            problem(field, "duplicate", "two tensors are named '" + t.name + "'.");
            continue;
        }
        const std::optional<int> size = safetensorsDtypeSize(t.dtype);
        if (!size) {
            problem(field, "dtype", "unknown dtype '" + t.dtype + "'.");
            continue;
        }
        const std::optional<std::uint64_t> count = shapeCount(t.shape);
        if (!count || *count > static_cast<std::uint64_t>(kMaxExactJsonInteger)) {
            problem(field, "shape", "shape " + shapeText(t.shape) + " is negative or too large.");
            continue;
        }
        const std::uint64_t bytes = *count * static_cast<std::uint64_t>(*size);
        if (bytes != t.bytes.size()) {
            problem(field, "size", "shape " + shapeText(t.shape) + " of " + t.dtype + " needs " + std::to_string(bytes) +
                                       " bytes but the tensor holds " + std::to_string(t.bytes.size()) + ".");
            continue;
        }
        QJsonArray shape;
        for (const std::int64_t d : t.shape)
            shape.append(static_cast<qint64>(d));
        QJsonObject entry;
        entry["dtype"] = QString::fromStdString(t.dtype);
        entry["shape"] = shape;
        entry["data_offsets"] = QJsonArray{static_cast<qint64>(offset), static_cast<qint64>(offset + bytes)};
        header[QString::fromStdString(t.name)] = entry;
        offset += bytes;
    }
    if (!problems.empty())
        return problems;
    if (!metadata.empty()) {
        QJsonObject meta;
        for (const auto &[key, value] : metadata)
            meta[QString::fromStdString(key)] = QString::fromStdString(value);
        header[kMetadataKey] = meta;
    }
    QByteArray json = QJsonDocument(header).toJson(QJsonDocument::Compact);
    while ((8 + static_cast<std::uint64_t>(json.size())) % kAlignment != 0)
        json.append(' ');

    QByteArray length(8, '\0');
    const auto n = static_cast<std::uint64_t>(json.size());
    for (int i = 0; i < 8; ++i)
        length[i] = static_cast<char>((n >> (8 * i)) & 0xFFu);

    // Every write is checked and the file flushed before it replaces an old checkpoint.
    FileWriter file(path);
    const auto failed = [&file] { return Result<bool>(Problems{file.problem()}); };
    if (!file.open() || !file.write(length.constData(), static_cast<std::size_t>(length.size())) ||
        !file.write(json.constData(), static_cast<std::size_t>(json.size())))
        return failed();
    for (const SafeTensor &t : tensors)
        if (!t.bytes.empty() && !file.write(t.bytes.data(), t.bytes.size()))
            return failed();
    if (!file.replace())
        return failed();
    return true;
}

namespace {

// The header length of a file of `file_size` bytes from its first 8 (or fewer) bytes, checked.
Result<std::uint64_t> headerLengthOf(std::string_view first_bytes, std::uint64_t file_size, const std::string &where)
{
    using R = Result<std::uint64_t>;
    if (file_size < 8 || first_bytes.size() < 8)
        return R::failure(where, "truncated", where + ": only " + std::to_string(file_size) + " bytes; a safetensors file starts with an 8-byte header length.");
    std::uint64_t headerLength = 0;
    for (int i = 7; i >= 0; --i)
        headerLength = (headerLength << 8) | static_cast<unsigned char>(first_bytes[static_cast<std::size_t>(i)]);
    if (headerLength > kMaxHeaderBytes)
        return R::failure(where, "header", where + ": the header length " + std::to_string(headerLength) + " is over the format's 100 MB limit; not a safetensors file or corrupt.");
    if (headerLength > file_size - 8)
        return R::failure(where, "truncated", where + ": the header claims " + std::to_string(headerLength) + " bytes but only " + std::to_string(file_size - 8) + " follow.");
    return headerLength;
}

// The tensors (without their bytes; data_offset set, in buffer order) and metadata of the JSON
// header `json`, checked against a data buffer of `buffer_size` bytes.
Result<SafetensorsFile> parseLayout(std::string_view json, std::uint64_t buffer_size, const std::string &where)
{
    using R = Result<SafetensorsFile>;
    if (json.size() < 2 || json[0] != '{')
        return R::failure(where, "header", where + ": the header is not a JSON object.");

    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray(json.data(), static_cast<qsizetype>(json.size())), &error);
    if (error.error != QJsonParseError::NoError)
        return R::failure(where, "json", where + ": the header is not valid JSON (" + error.errorString().toStdString() + " at byte " + std::to_string(8 + error.offset) + ").");
    if (!document.isObject())
        return R::failure(where, "header", where + ": the header is not a JSON object.");
    const QJsonObject header = document.object();

    SafetensorsFile result;
    Problems problems;
    auto problem = [&](const std::string &field, const std::string &rule, const std::string &text) {
        problems.push_back({field, rule, field + ": " + text});
    };
    struct Span {
        std::uint64_t begin, end;
        std::size_t tensor;
    };
    std::vector<Span> spans;
    // A repeated key reaches us once (QJsonDocument keeps the last copy); the bytes of the dropped
    // copy then belong to no tensor, which the tiling check below refuses as a hole.
    std::uint64_t last_end = 0;  // the furthest data_offsets end past the buffer
    std::size_t cut_tensors = 0;
    for (auto it = header.begin(); it != header.end(); ++it) {
        const std::string name = it.key().toStdString();
        const std::string field = where + ":" + name;
        if (name == kMetadataKey) {
            if (!it.value().isObject()) {
                problem(field, "metadata", "\"__metadata__\" must be an object of strings.");
                continue;
            }
            const QJsonObject meta = it.value().toObject();
            for (auto m = meta.begin(); m != meta.end(); ++m) {
                if (!m.value().isString())
                    problem(field, "metadata", "metadata value '" + m.key().toStdString() + "' is " + describeJsonValue(m.value()) + ", not a string.");
                else
                    result.metadata[m.key().toStdString()] = m.value().toString().toStdString();
            }
            continue;
        }
        if (!it.value().isObject()) {
            problem(field, "entry", "the entry is " + describeJsonValue(it.value()) + ", not an object.");
            continue;
        }
        const QJsonObject entry = it.value().toObject();
        SafeTensor tensor;
        tensor.name = name;
        if (!entry.value("dtype").isString()) {
            problem(field, "dtype", "\"dtype\" is missing or not a string.");
            continue;
        }
        tensor.dtype = entry.value("dtype").toString().toStdString();
        const std::optional<int> size = safetensorsDtypeSize(tensor.dtype);
        if (!size) {
            problem(field, "dtype", "unknown dtype '" + tensor.dtype + "'.");
            continue;
        }
        if (!entry.value("shape").isArray()) {
            problem(field, "shape", "\"shape\" is missing or not an array.");
            continue;
        }
        bool shapeOk = true;
        for (const QJsonValue &d : entry.value("shape").toArray()) {
            const std::optional<std::int64_t> dim = jsonCountValue(d);
            if (!dim) {
                problem(field, "shape", "shape entry " + describeJsonValue(d) + " is not a non-negative integer.");
                shapeOk = false;
                break;
            }
            tensor.shape.push_back(*dim);
        }
        if (!shapeOk)
            continue;
        const std::optional<std::uint64_t> count = shapeCount(tensor.shape);
        if (!count) {
            problem(field, "shape", "shape " + shapeText(tensor.shape) + " is too large.");
            continue;
        }
        // -1 marks a missing or unusable offset (jsonCountValue only yields non-negative values).
        const QJsonArray offsets = entry.value("data_offsets").toArray();
        const std::int64_t begin = offsets.size() == 2 ? jsonCountValue(offsets[0]).value_or(-1) : -1;
        const std::int64_t end = offsets.size() == 2 ? jsonCountValue(offsets[1]).value_or(-1) : -1;
        if (begin < 0 || end < 0 || begin > end) {
            problem(field, "offsets", "\"data_offsets\" must be [begin, end] with 0 <= begin <= end.");
            continue;
        }
        const auto b = static_cast<std::uint64_t>(begin), e = static_cast<std::uint64_t>(end);
        if (e > buffer_size) {
            cut_tensors += 1;
            last_end = std::max(last_end, e);
            continue;  // said once for the whole file below
        }
        const std::uint64_t expected = *count * static_cast<std::uint64_t>(*size);
        if (e - b != expected) {
            problem(field, "size", "shape " + shapeText(tensor.shape) + " of " + tensor.dtype + " needs " + std::to_string(expected) +
                                       " bytes but data_offsets span " + std::to_string(e - b) + ".");
            continue;
        }
        tensor.data_bytes = e - b;
        spans.push_back({b, e, result.tensors.size()});
        result.tensors.push_back(std::move(tensor));
    }
    // A file cut short (a save interrupted mid-write, a partial copy) is one problem, not one per
    // tensor that lies past the end: a --resume of a partial checkpoint listed 109 of them.
    if (cut_tensors > 0)
        problems.insert(problems.begin(),
                        Problem{where, "truncated",
                                where + ": the file is cut short: its header describes " + std::to_string(last_end) +
                                    " bytes of tensor data but only " + std::to_string(buffer_size) + " follow (" +
                                    std::to_string(cut_tensors) + " tensor(s) lie past the end). It was not written "
                                    "completely, e.g. by a save that was interrupted."});
    if (!problems.empty())
        return problems;

    // The format requires the entries to tile the buffer exactly: no overlaps (two tensors
    // aliasing bytes) and no holes (hidden data).
    std::sort(spans.begin(), spans.end(), [](const Span &x, const Span &y) { return x.begin != y.begin ? x.begin < y.begin : x.end < y.end; });
    std::uint64_t covered = 0;
    for (const Span &s : spans) {
        const std::string field = where + ":" + result.tensors[s.tensor].name;
        if (s.begin < covered)
            return R::failure(field, "overlap", field + ": data_offsets [" + std::to_string(s.begin) + ", " + std::to_string(s.end) + "] overlap another tensor.");
        if (s.begin > covered)
            return R::failure(field, "hole", field + ": bytes " + std::to_string(covered) + " to " + std::to_string(s.begin) + " of the data buffer belong to no tensor.");
        covered = s.end;
    }
    if (covered != buffer_size)
        return R::failure(where, "hole", where + ": the data buffer has " + std::to_string(buffer_size) + " bytes but the tensors cover " + std::to_string(covered) + ".");

    std::vector<SafeTensor> ordered;
    ordered.reserve(spans.size());
    for (const Span &s : spans) {
        SafeTensor &t = result.tensors[s.tensor];
        t.data_offset = s.begin;
        ordered.push_back(std::move(t));
    }
    result.tensors = std::move(ordered);
    return result;
}

}  // namespace

Result<SafetensorsFile> parseSafetensors(std::string_view bytes, const std::string &where)
{
    const Result<std::uint64_t> headerLength = headerLengthOf(bytes, bytes.size(), where);
    if (!headerLength)
        return headerLength.problems();
    const std::string_view json = bytes.substr(8, static_cast<std::size_t>(*headerLength));
    const std::string_view buffer = bytes.substr(8 + static_cast<std::size_t>(*headerLength));
    Result<SafetensorsFile> layout = parseLayout(json, buffer.size(), where);
    if (!layout)
        return layout.problems();
    for (SafeTensor &t : layout.value().tensors) {
        const auto *p = reinterpret_cast<const unsigned char *>(buffer.data()) + t.data_offset;
        t.bytes.assign(p, p + t.data_bytes);
    }
    return layout;
}

Result<SafetensorsHeader> readSafetensorsHeader(const std::string &path)
{
    if (const std::optional<Problem> bad = regularFileProblem(path, FileKind::Checkpoint))
        return Problems{*bad};
    auto file = std::make_unique<QFile>(QString::fromStdString(path));
    if (!file->open(QIODevice::ReadOnly))
        return Result<SafetensorsHeader>::failure(path, "unreadable", path + ": " + file->errorString().toStdString());
    const auto fileSize = static_cast<std::uint64_t>(file->size());
    const QByteArray first = file->read(8);
    const Result<std::uint64_t> headerLength =
        headerLengthOf(std::string_view(first.constData(), static_cast<std::size_t>(first.size())), fileSize, path);
    if (!headerLength)
        return headerLength.problems();
    const QByteArray json = file->read(static_cast<qint64>(*headerLength));
    if (static_cast<std::uint64_t>(json.size()) != *headerLength)
        return Result<SafetensorsHeader>::failure(path, "unreadable", path + ": the header could not be read (" + file->errorString().toStdString() + ").");
    Result<SafetensorsFile> layout = parseLayout(std::string_view(json.constData(), static_cast<std::size_t>(json.size())),
                                                 fileSize - 8 - *headerLength, path);
    if (!layout)
        return layout.problems();
    SafetensorsHeader header;
    header.layout = std::move(layout.value());
    header.data_start = 8 + *headerLength;
    header.file_ = std::move(file);
    header.path_ = path;
    return header;
}

Result<bool> SafetensorsHeader::readF32Into(const SafeTensor &tensor, float *out, std::int64_t count)
{
    using R = Result<bool>;
    if (tensor.dtype != "F32" || count < 0 || tensor.data_bytes != static_cast<std::uint64_t>(count) * sizeof(float))
        return false;
    if (count == 0)
        return true;
    if (!file_ || !file_->seek(static_cast<qint64>(data_start + tensor.data_offset)))
        return R::failure(path_, "unreadable", path_ + ": cannot seek to tensor " + tensor.name + ".");
    char *destination = reinterpret_cast<char *>(out);
    qint64 left = static_cast<qint64>(tensor.data_bytes);
    while (left > 0) {
        const qint64 got = file_->read(destination, left);
        if (got <= 0)
            return R::failure(path_, "unreadable", path_ + ": tensor " + tensor.name + " could not be read whole ("
                                                      + file_->errorString().toStdString() + ").");
        destination += got;
        left -= got;
    }
    return true;
}

SafetensorsHeader::SafetensorsHeader() = default;
SafetensorsHeader::SafetensorsHeader(SafetensorsHeader &&) noexcept = default;
SafetensorsHeader &SafetensorsHeader::operator=(SafetensorsHeader &&) noexcept = default;
SafetensorsHeader::~SafetensorsHeader() = default;

Result<SafetensorsFile> readSafetensors(const std::string &path)
{
    const Result<QByteArray> bytes = readFileBytes(path, FileKind::Checkpoint);
    if (!bytes.ok())
        return bytes.problems();
    return parseSafetensors(std::string_view(bytes->constData(), static_cast<std::size_t>(bytes->size())), path);
}

}  // namespace lse
