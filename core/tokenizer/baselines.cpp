// SPDX-License-Identifier: GPL-3.0-or-later
#include "tokenizer/baselines.h"

#include "tokenizer/unicode.h"

#include <algorithm>

namespace lse {
namespace {

// Calls emit(begin, end) for each symbol of text for a character or word tokenizer.
template <typename Emit>
void forEachSymbol(BaselineKind kind, std::string_view text, Emit &&emit_range)
{
    const std::size_t n = text.size();
    if (kind == BaselineKind::Character) {
        for (std::size_t i = 0; i < n;) {
            const std::size_t len = decodeUtf8At(text, i).length;
            emit_range(i, i + len);
            i += len;
        }
        return;
    }
    std::size_t i = 0;
    while (i < n) {
        std::uint32_t len = 0;
        if (classAt(text, i, len) == CharClass::Space) {
            i += len;
            continue;
        }
        const std::size_t start = i;
        while (i < n && classAt(text, i, len) != CharClass::Space)
            i += len;
        emit_range(start, i);
    }
}

TokenizerStats makeStats(std::size_t bytes, std::size_t tokens, std::size_t unknownTokens, std::size_t unknownBytes)
{
    TokenizerStats s;
    s.bytes = bytes;
    s.tokens = tokens;
    s.unknownTokens = unknownTokens;
    s.unknownBytes = unknownBytes;
    if (tokens > 0) {
        s.bytesPerToken = static_cast<double>(bytes) / static_cast<double>(tokens);
        s.unknownRate = static_cast<double>(unknownTokens) / static_cast<double>(tokens);
    }
    return s;
}

}  // namespace

const char *baselineKindName(BaselineKind kind)
{
    switch (kind) {
    case BaselineKind::Character:
        return "character";
    case BaselineKind::Byte:
        return "byte";
    case BaselineKind::Word:
        return "word";
    }
    return "";
}

BaselineTokenizer BaselineTokenizer::train(BaselineKind kind, std::string_view text, std::size_t maxVocab)
{
    BaselineTokenizer t;
    t.kind_ = kind;
    if (kind == BaselineKind::Byte)
        return t;
    std::unordered_map<std::string, std::size_t, StringViewHash, std::equal_to<>> counts;
    forEachSymbol(kind, text, [&](std::size_t b, std::size_t e) {
        const std::string_view sym = text.substr(b, e - b);
        if (const auto it = counts.find(sym); it != counts.end())
            ++it->second;
        else
            counts.emplace(std::string(sym), 1);
    });
    std::vector<std::pair<std::string, std::size_t>> sorted(counts.begin(), counts.end());
    std::sort(sorted.begin(), sorted.end(), [](const auto &a, const auto &b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    if (maxVocab > 0 && sorted.size() + 1 > maxVocab)
        sorted.resize(maxVocab - 1);
    t.symbols_.reserve(sorted.size() + 1);
    t.symbols_.push_back("<unk>");
    for (auto &[sym, count] : sorted) {
        t.ids_.emplace(sym, static_cast<std::uint32_t>(t.symbols_.size()));
        t.symbols_.push_back(std::move(sym));
    }
    return t;
}

std::string BaselineTokenizer::tokenText(std::uint32_t id) const
{
    if (kind_ == BaselineKind::Byte)
        return id < 256 ? std::string(1, static_cast<char>(static_cast<unsigned char>(id))) : std::string();
    return id < symbols_.size() ? symbols_[id] : std::string();
}

std::vector<EncodedToken> BaselineTokenizer::encodeWithOffsets(std::string_view text) const
{
    std::vector<EncodedToken> out;
    if (kind_ == BaselineKind::Byte) {
        out.reserve(text.size());
        for (std::size_t i = 0; i < text.size(); ++i)
            out.push_back({static_cast<unsigned char>(text[i]), i, i + 1});
        return out;
    }
    forEachSymbol(kind_, text, [&](std::size_t b, std::size_t e) {
        const auto it = ids_.find(text.substr(b, e - b));
        out.push_back({it == ids_.end() ? kUnknownId : it->second, b, e});
    });
    return out;
}

std::vector<std::uint32_t> BaselineTokenizer::encode(std::string_view text) const
{
    std::vector<std::uint32_t> ids;
    for (const auto &t : encodeWithOffsets(text))
        ids.push_back(t.id);
    return ids;
}

TokenizerStats BaselineTokenizer::stats(std::string_view text) const
{
    std::size_t unknown = 0, unknownBytes = 0;
    const auto toks = encodeWithOffsets(text);
    if (hasUnknown())
        for (const auto &t : toks)
            if (t.id == kUnknownId) {
                ++unknown;
                unknownBytes += t.end - t.begin;
            }
    return makeStats(text.size(), toks.size(), unknown, unknownBytes);
}

TokenizerStats bpeStats(BpeTokenizer &tokenizer, std::string_view text, const std::vector<std::string> &allowedSpecial)
{
    return makeStats(text.size(), tokenizer.encode(text, allowedSpecial).size(), 0, 0);
}

}  // namespace lse
