// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/problem.h"

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lse {

// JSON numbers are doubles: integers beyond 2^53 cannot be stored exactly, so counts above it are
// rejected rather than silently rounded.
inline constexpr std::int64_t kMaxExactJsonInteger = std::int64_t(1) << 53;

// A JSON number that is a non-negative integer of at most 2^53, or nothing (a fraction, a negative
// or larger number, or not a number). The range is checked before the conversion: casting a double
// such as 1e120 to an integer is undefined behaviour (found by fuzz_tokenizer_json and
// fuzz_gpt2_files in the token-id checks of tokenizer.json and vocab.json).
std::optional<std::int64_t> jsonCountValue(const QJsonValue &value);

// "a.b" from "a" and "b"; just "b" when the prefix is empty.
std::string joinFieldPath(const std::string &prefix, std::string_view key);

// How a value looked in the file, for messages: "abc" quoted, numbers as written, "an object".
std::string describeJsonValue(const QJsonValue &value);

// Opens one of the project's own files: valid JSON, an object, the expected "format" and "version".
// On failure returns nothing and adds one Problem with field "file" and rule "json" (with the
// parser's offset), "format" or "version"; the contents of a file of unknown format are not read.
std::optional<QJsonObject> parseFormattedJson(const QByteArray &json, std::string_view format, int version,
                                              Problems &problems);

// Reads the fields of one JSON object into typed targets, adding a Problem for every field that is
// present but unusable and carrying on, so one pass reports everything. A missing field leaves its
// target alone, which is how defaults work. Rules: "type" (wrong JSON type), "integer" (a fraction
// where a count is needed), "range" (negative, or too large to hold exactly), "enum" (unknown name).
class JsonFieldReader {
public:
    JsonFieldReader(const QJsonObject &object, std::string path, Problems &problems);

    const std::string &path() const { return path_; }
    std::string fieldPath(std::string_view key) const { return joinFieldPath(path_, key); }
    bool has(std::string_view key) const;

    void readString(std::string_view key, std::string &target);
    void readBool(std::string_view key, bool &target);
    // Counts are never negative; `int` targets are also bounded by INT_MAX.
    void readCount(std::string_view key, int &target);
    void readCount(std::string_view key, std::int64_t &target);
    // An array of counts, each bounded by INT_MAX; the target is left alone if any entry is unusable.
    void readCountList(std::string_view key, std::vector<int> &target);
    // Rates, sizes, times and fractions: any non-negative number.
    void readAmount(std::string_view key, double &target);
    // As readAmount, but an explicit null means "not set".
    void readOptionalAmount(std::string_view key, std::optional<double> &target);

    template <typename Enum>
    void readEnum(std::string_view key, Enum &target, std::optional<Enum> (*parse)(std::string_view),
                  const std::string &choices)
    {
        std::string text;
        if (!readEnumText(key, choices, text))
            return;
        if (const std::optional<Enum> value = parse(text))
            target = *value;
        else
            addProblem(key, "enum", "unknown value '" + text + "'; expected " + choices);
    }

    // A nested object, or nothing when it is absent or (with a problem) not an object.
    std::optional<QJsonObject> readObject(std::string_view key);

    void addProblem(std::string_view key, std::string rule, const std::string &text);

private:
    QJsonValue value(std::string_view key) const;
    std::optional<std::int64_t> readInteger(std::string_view key, std::int64_t max);
    bool readEnumText(std::string_view key, const std::string &choices, std::string &text);

    QJsonObject object_;  // implicitly shared, so the copy is cheap and never dangles
    std::string path_;
    Problems &problems_;
};

}  // namespace lse
