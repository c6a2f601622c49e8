// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/training_text.h"

#include <algorithm>
#include <string>

namespace lse::reference {

std::optional<std::uint32_t> endOfTextId(const BpeTokenizer &tokenizer)
{
    const std::vector<std::string> &specials = tokenizer.specialTokens();
    if (std::find(specials.begin(), specials.end(), kEndOfText) == specials.end())
        return std::nullopt;
    for (std::uint32_t id = 0; id < tokenizer.vocabSize(); ++id)
        if (tokenizer.tokenBytes(id) == kEndOfText)
            return id;
    return std::nullopt;
}

std::vector<std::uint32_t> encodeTrainingText(BpeTokenizer &tokenizer, std::string_view text)
{
    std::vector<std::string> allowed;
    if (endOfTextId(tokenizer))
        allowed.emplace_back(kEndOfText);
    return tokenizer.encode(text, allowed);
}

}  // namespace lse::reference
