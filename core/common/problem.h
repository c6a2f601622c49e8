// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace lse {

// One thing wrong with an input: which field, which rule it breaks, and a sentence for a person.
// Validation returns every problem at once so the user can fix them in one pass.
struct Problem {
    std::string field;    // dotted path, e.g. "training.tp"
    std::string rule;     // short machine-readable rule id, e.g. "divisible"
    std::string message;  // full sentence naming the field and the values
    // Other fields the rule involves (the divisor of a divisibility rule, the factors of a
    // product), so an editor can mark every field the user might change.
    std::vector<std::string> related = {};
};

using Problems = std::vector<Problem>;

// A value or the list of problems that prevented it. Core code returns this instead of throwing.
template <typename T>
class Result {
public:
    Result(T value) : state_(std::move(value)) {}
    Result(Problems problems) : state_(std::move(problems)) {}
    static Result failure(std::string field, std::string rule, std::string message)
    {
        return Result(Problems{Problem{std::move(field), std::move(rule), std::move(message)}});
    }

    bool ok() const { return std::holds_alternative<T>(state_); }
    explicit operator bool() const { return ok(); }
    const T &value() const { return std::get<T>(state_); }
    T &value() { return std::get<T>(state_); }
    const T &operator*() const { return value(); }
    const T *operator->() const { return &value(); }
    const Problems &problems() const
    {
        static const Problems none;
        return ok() ? none : std::get<Problems>(state_);
    }

private:
    std::variant<T, Problems> state_;
};

// "field: message" lines, one per problem, for terminals and message boxes.
std::string formatProblems(const Problems &problems);
// The same on one line, problems joined by "; " and without the [rule] tags: for a reason quoted
// inside a sentence ("the cache is stale (file: not valid JSON at offset 13)").
std::string formatProblemsOnOneLine(const Problems &problems);

}  // namespace lse
