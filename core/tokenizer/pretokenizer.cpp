// SPDX-License-Identifier: GPL-3.0-or-later
#include "tokenizer/pretokenizer.h"

#include <algorithm>

namespace lse {

std::size_t pretokenSliceLength(std::string_view piece)
{
    if (piece.size() <= kMaxPretokenBytes)
        return piece.size();
    // A byte that is not a continuation byte starts a character; so does one with no lead byte in
    // the three before it (a stray continuation byte is a character of its own).
    for (std::size_t cut = kMaxPretokenBytes; cut + 3 >= kMaxPretokenBytes; --cut)
        if ((static_cast<unsigned char>(piece[cut]) & 0xC0) != 0x80)
            return cut;
    return kMaxPretokenBytes;
}

bool endsPretokenAt(std::string_view text, std::size_t p)
{
    if (p == 0 || p >= text.size() || (text[p] != ' ' && text[p] != '\n'))
        return false;
    // The character before p: step back over continuation bytes to its first byte. A valid
    // sequence starts with a byte that is not a continuation byte, so forward decoding from the
    // start of the text meets it at the same place.
    for (std::size_t length = 1; length <= 4 && length <= p; ++length) {
        const auto byte = static_cast<unsigned char>(text[p - length]);
        if ((byte & 0xC0) == 0x80)
            continue;
        const Utf8Char c = decodeUtf8At(text, p - length);
        return c.codepoint != kInvalidCodepoint && c.length == length && unicodeClass(c.codepoint) != CharClass::Space;
    }
    return false;
}

bool specialTokenCrosses(std::string_view text, std::size_t p, const std::vector<std::string> &specialTokens)
{
    for (const std::string &token : specialTokens) {
        if (token.size() < 2)
            continue;
        const std::size_t from = p >= token.size() - 1 ? p - (token.size() - 1) : 0;
        const std::size_t at = text.find(token, from);
        if (at != std::string_view::npos && at < p)
            return true;
    }
    return false;
}

std::size_t nextSafeCut(std::string_view text, std::size_t from, const std::vector<std::string> &specialTokens)
{
    for (std::size_t p = std::max<std::size_t>(from, 1); p < text.size(); ++p)
        if ((text[p] == ' ' || text[p] == '\n') && endsPretokenAt(text, p) && !specialTokenCrosses(text, p, specialTokens))
            return p;
    return text.size();
}

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
