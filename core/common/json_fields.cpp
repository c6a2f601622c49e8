// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/json_fields.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QLocale>
#include <QString>

#include <cmath>
#include <limits>
#include <utility>

namespace lse {

namespace {

QString keyString(std::string_view key) { return QString::fromUtf8(key.data(), qsizetype(key.size())); }

std::string numberText(double value) { return QString::number(value, 'g', QLocale::FloatingPointShortest).toStdString(); }

}  // namespace

std::optional<std::int64_t> jsonCountValue(const QJsonValue &value)
{
    if (!value.isDouble())
        return std::nullopt;
    const double d = value.toDouble();
    if (!(d >= 0) || d > static_cast<double>(kMaxExactJsonInteger) || std::floor(d) != d)
        return std::nullopt;
    return static_cast<std::int64_t>(d);
}

std::string joinFieldPath(const std::string &prefix, std::string_view key)
{
    if (prefix.empty())
        return std::string(key);
    std::string path = prefix;
    path += '.';
    path += key;
    return path;
}

std::string describeJsonValue(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null:
        return "null";
    case QJsonValue::Bool:
        return value.toBool() ? "true" : "false";
    case QJsonValue::Double: {
        // Integer literals are kept as integers by the parser; print them digit for digit so a
        // rejected 2^53 + 1 shows as written, not rounded.
        const double number = value.toDouble();
        if (std::trunc(number) == number && std::fabs(number) < 1e18)
            return std::to_string(value.toInteger(static_cast<qint64>(number)));
        return numberText(number);
    }
    case QJsonValue::String: {
        constexpr qsizetype kShown = 60;  // enough to recognise the value without flooding a dialog
        QString text = value.toString();
        if (text.size() > kShown)
            text = text.left(kShown) + QStringLiteral("...");
        return '"' + text.toStdString() + '"';
    }
    case QJsonValue::Array:
        return "an array";
    case QJsonValue::Object:
        return "an object";
    case QJsonValue::Undefined:
        break;
    }
    return "nothing";
}

std::optional<QJsonObject> parseFormattedJson(const QByteArray &json, std::string_view format, int version,
                                              Problems &problems)
{
    const auto fail = [&problems](std::string rule, const std::string &text) {
        problems.push_back(Problem{"file", std::move(rule), "file: " + text});
        return std::nullopt;
    };
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        return fail("json", "not valid JSON at offset " + std::to_string(error.offset) + ": "
                                + error.errorString().toStdString());
    const std::string expected = "\"format\": \"" + std::string(format) + "\"";
    if (!document.isObject())
        return fail("format", "expected a JSON object with " + expected);
    QJsonObject root = document.object();
    const QJsonValue formatValue = root.value(QStringLiteral("format"));
    if (formatValue.toString() != keyString(format))
        return fail("format", "expected " + expected + ", got " + describeJsonValue(formatValue));
    const QJsonValue versionValue = root.value(QStringLiteral("version"));
    if (!versionValue.isDouble() || versionValue.toDouble() != double(version))
        return fail("version", "this program reads version " + std::to_string(version) + " of " + std::string(format)
                                   + ", got " + describeJsonValue(versionValue));
    return root;
}

JsonFieldReader::JsonFieldReader(const QJsonObject &object, std::string path, Problems &problems)
    : object_(object), path_(std::move(path)), problems_(problems)
{
}

QJsonValue JsonFieldReader::value(std::string_view key) const { return object_.value(keyString(key)); }

bool JsonFieldReader::has(std::string_view key) const { return object_.contains(keyString(key)); }

void JsonFieldReader::addProblem(std::string_view key, std::string rule, const std::string &text)
{
    std::string field = fieldPath(key);
    std::string message = field + ": " + text;
    problems_.push_back(Problem{std::move(field), std::move(rule), std::move(message)});
}

void JsonFieldReader::readString(std::string_view key, std::string &target)
{
    const QJsonValue v = value(key);
    if (v.isUndefined())
        return;
    if (!v.isString()) {
        addProblem(key, "type", "expected a string, got " + describeJsonValue(v));
        return;
    }
    target = v.toString().toStdString();
}

void JsonFieldReader::readBool(std::string_view key, bool &target)
{
    const QJsonValue v = value(key);
    if (v.isUndefined())
        return;
    if (!v.isBool()) {
        addProblem(key, "type", "expected true or false, got " + describeJsonValue(v));
        return;
    }
    target = v.toBool();
}

std::optional<std::int64_t> JsonFieldReader::readInteger(std::string_view key, std::int64_t max)
{
    const QJsonValue v = value(key);
    if (v.isUndefined())
        return std::nullopt;
    if (!v.isDouble()) {
        addProblem(key, "type", "expected an integer, got " + describeJsonValue(v));
        return std::nullopt;
    }
    const double number = v.toDouble();
    if (!std::isfinite(number) || std::trunc(number) != number) {
        addProblem(key, "integer", "expected an integer, got " + describeJsonValue(v));
        return std::nullopt;
    }
    if (number < 0) {
        addProblem(key, "range", "must not be negative, got " + describeJsonValue(v));
        return std::nullopt;
    }
    // The double check rejects huge values before toInteger() could saturate; the integer check
    // catches literals such as 2^53 + 1 that the double rounds down into range.
    if (number > double(kMaxExactJsonInteger) || v.toInteger() > kMaxExactJsonInteger) {
        addProblem(key, "range",
                   describeJsonValue(v) + " is larger than 2^53 (" + std::to_string(kMaxExactJsonInteger)
                       + "), the largest integer a JSON number holds exactly");
        return std::nullopt;
    }
    const std::int64_t integer = v.toInteger();
    if (integer > max) {
        addProblem(key, "range", describeJsonValue(v) + " is larger than the maximum " + std::to_string(max));
        return std::nullopt;
    }
    return integer;
}

void JsonFieldReader::readCount(std::string_view key, int &target)
{
    if (const auto integer = readInteger(key, std::numeric_limits<int>::max()))
        target = static_cast<int>(*integer);
}

void JsonFieldReader::readCount(std::string_view key, std::int64_t &target)
{
    if (const auto integer = readInteger(key, kMaxExactJsonInteger))
        target = *integer;
}

void JsonFieldReader::readCountList(std::string_view key, std::vector<int> &target)
{
    const QJsonValue v = value(key);
    if (v.isUndefined())
        return;
    if (!v.isArray()) {
        addProblem(key, "type", "expected an array of integers, got " + describeJsonValue(v));
        return;
    }
    const QJsonArray array = v.toArray();
    std::vector<int> counts;
    counts.reserve(std::size_t(array.size()));
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QJsonValue entry = array.at(i);
        const double number = entry.toDouble(-1);
        if (!entry.isDouble() || !std::isfinite(number) || std::trunc(number) != number || number < 0
            || number > double(std::numeric_limits<int>::max())) {
            addProblem(key, entry.isDouble() ? "range" : "type",
                       "entry " + std::to_string(i) + " must be an integer in 0.." + std::to_string(std::numeric_limits<int>::max())
                           + ", got " + describeJsonValue(entry));
            return;
        }
        counts.push_back(int(number));
    }
    target = std::move(counts);
}

void JsonFieldReader::readAmount(std::string_view key, double &target)
{
    const QJsonValue v = value(key);
    if (v.isUndefined())
        return;
    if (!v.isDouble()) {
        addProblem(key, "type", "expected a number, got " + describeJsonValue(v));
        return;
    }
    const double number = v.toDouble();
    if (!(number >= 0)) {
        addProblem(key, "range", "must not be negative, got " + describeJsonValue(v));
        return;
    }
    target = number;
}

void JsonFieldReader::readOptionalAmount(std::string_view key, std::optional<double> &target)
{
    const QJsonValue v = value(key);
    if (v.isUndefined())
        return;
    if (v.isNull()) {
        target.reset();
        return;
    }
    double number = 0;
    const std::size_t before = problems_.size();
    readAmount(key, number);
    if (problems_.size() == before)
        target = number;
}

bool JsonFieldReader::readEnumText(std::string_view key, const std::string &choices, std::string &text)
{
    const QJsonValue v = value(key);
    if (v.isUndefined())
        return false;
    if (!v.isString()) {
        addProblem(key, "type", "expected one of " + choices + ", got " + describeJsonValue(v));
        return false;
    }
    text = v.toString().toStdString();
    return true;
}

std::optional<QJsonObject> JsonFieldReader::readObject(std::string_view key)
{
    const QJsonValue v = value(key);
    if (v.isUndefined())
        return std::nullopt;
    if (!v.isObject()) {
        addProblem(key, "type", "expected an object, got " + describeJsonValue(v));
        return std::nullopt;
    }
    return v.toObject();
}

}  // namespace lse
