// SPDX-License-Identifier: GPL-3.0-or-later
// Training text → token ids for the reference transformer, with the documents' separator kept as
// one token. Stories in a text such as TinyStories are separated by <|endoftext|>; encoded as
// ordinary text it becomes a dozen byte-level tokens, the model learns to write them out and
// generation runs on into the next story. Allowed as its special token it is one id, which the
// model learns to predict at a story's end and generation stops at (GenerateOptions::stop_token).
#pragma once

#include "tokenizer/bpe_tokenizer.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace lse::reference {

inline constexpr std::string_view kEndOfText = "<|endoftext|>";

// The id of <|endoftext|> when the tokenizer has it as a special token; nothing otherwise.
std::optional<std::uint32_t> endOfTextId(const BpeTokenizer &tokenizer);

// Encodes `text` with <|endoftext|> as its special id (when the tokenizer has it), other text as
// ordinary BPE.
std::vector<std::uint32_t> encodeTrainingText(BpeTokenizer &tokenizer, std::string_view text);

}  // namespace lse::reference
