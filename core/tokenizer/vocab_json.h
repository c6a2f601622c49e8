// SPDX-License-Identifier: GPL-3.0-or-later
// A single-purpose parser for the vocabulary files of BPE tokenizers: one flat JSON object of
// string keys and non-negative integer values ({"token": id, ...}). It decodes every JSON string
// escape, including surrogate pairs, and is several times faster than a general DOM parser, which
// matters because loading the tokenizer is part of every tokenizer command's run time.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lse {

// Calls entry(key, value) for each member in file order (key decoded to UTF-8; the view is valid
// only during the call). Returns false when the text is not exactly such an object (the caller
// then uses a general JSON parser to report where and why) or when entry returns false.
bool forEachFlatJsonIntMember(std::string_view json, const std::function<bool(std::string_view, std::int64_t)> &entry);

// The members in file order, or nullopt as above.
std::optional<std::vector<std::pair<std::string, std::int64_t>>> parseFlatJsonIntObject(std::string_view json);

}  // namespace lse
