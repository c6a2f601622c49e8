// SPDX-License-Identifier: GPL-3.0-or-later
#include "tokenizer/pretokenizer.h"

#include <algorithm>

namespace lse {

std::vector<ByteSpan> pretokenize(std::string_view text)
{
    std::vector<ByteSpan> spans;
    forEachPretoken(text, [&](std::size_t b, std::size_t e) { spans.push_back({b, e}); });
    return spans;
}

std::vector<std::string> pretokenizeToStrings(std::string_view text)
{
    std::vector<std::string> out;
    forEachPretoken(text, [&](std::size_t b, std::size_t e) { out.emplace_back(text.substr(b, e - b)); });
    return out;
}

SpecialTokenMatcher::SpecialTokenMatcher(std::vector<std::string> tokens)
{
    for (auto &t : tokens) {
        if (t.empty() || std::find(tokens_.begin(), tokens_.end(), t) != tokens_.end())
            continue;
        maxLength_ = std::max(maxLength_, t.size());
        tokens_.push_back(std::move(t));
    }
}

SpecialTokenMatcher::Match SpecialTokenMatcher::find(std::string_view text, std::size_t from) const
{
    Match best;
    for (std::size_t t = 0; t < tokens_.size(); ++t) {
        const std::size_t at = text.find(tokens_[t], from);
        if (at == std::string_view::npos)
            continue;
        if (at < best.begin || (at == best.begin && tokens_[t].size() > best.length))
            best = {at, tokens_[t].size(), t};
    }
    return best;
}

}  // namespace lse
