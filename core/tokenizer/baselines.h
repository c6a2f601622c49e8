// SPDX-License-Identifier: GPL-3.0-or-later
// Baseline tokenizers to compare BPE against, each built from a training text:
//  - Character: one token per Unicode code point (a byte that is not valid UTF-8 is its own symbol);
//  - Byte: one token per byte, a fixed vocabulary of 256 that never meets an unknown symbol;
//  - Word: one token per maximal run of non-whitespace characters (White_Space as Unicode defines
//    it); the whitespace itself is not tokenized, so CJK text without spaces becomes long "words".
// Character and word vocabularies hold id 0 = "<unk>" and the training symbols by falling frequency
// (ties: byte order); a symbol not in the vocabulary encodes as the unknown id.
#pragma once

#include "tokenizer/bpe_tokenizer.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace lse {

enum class BaselineKind { Character, Byte, Word };

const char *baselineKindName(BaselineKind kind);  // "character", "byte", "word"

// Token statistics of one text.
struct TokenizerStats {
    std::size_t bytes = 0;          // UTF-8 bytes of the text
    std::size_t tokens = 0;
    std::size_t unknownTokens = 0;
    std::size_t unknownBytes = 0;   // bytes of the text covered by unknown tokens
    double bytesPerToken = 0;       // compression; 0 for no tokens
    double unknownRate = 0;         // unknownTokens / tokens; 0 for no tokens
};

class BaselineTokenizer {
public:
    static constexpr std::uint32_t kUnknownId = 0;

    // maxVocab > 0 keeps only the most frequent symbols so that the vocabulary (with "<unk>") has at
    // most maxVocab entries; 0 keeps all. Ignored for Byte.
    static BaselineTokenizer train(BaselineKind kind, std::string_view text, std::size_t maxVocab = 0);

    BaselineKind kind() const { return kind_; }
    std::size_t vocabSize() const { return kind_ == BaselineKind::Byte ? 256 : symbols_.size(); }
    bool hasUnknown() const { return kind_ != BaselineKind::Byte; }
    // Bytes of a token ("<unk>" for the unknown id).
    std::string tokenText(std::uint32_t id) const;

    std::vector<EncodedToken> encodeWithOffsets(std::string_view text) const;
    std::vector<std::uint32_t> encode(std::string_view text) const;
    TokenizerStats stats(std::string_view text) const;

private:
    BaselineKind kind_ = BaselineKind::Byte;
    std::vector<std::string> symbols_;  // id → bytes (Character, Word)
    std::unordered_map<std::string, std::uint32_t, StringViewHash, std::equal_to<>> ids_;
};

// Statistics of a BPE tokenizer on a text (byte-level BPE has no unknown tokens).
TokenizerStats bpeStats(BpeTokenizer &tokenizer, std::string_view text, const std::vector<std::string> &allowedSpecial = {});

}  // namespace lse
