// SPDX-License-Identifier: GPL-3.0-or-later
// Tokenizer file formats beyond GPT-2's vocab.json + merges.txt: Hugging Face tokenizer.json (BPE
// models with byte-level pre-tokenizer and decoder) and tiktoken .tiktoken rank files, plus one
// entry point that recognises a directory or file and picks the right loader.
//
// tiktoken files hold no merges, only "base64(token bytes) rank" lines; tiktoken encodes by
// repeatedly merging the adjacent pair whose concatenation has the lowest rank. The loader recovers
// one merge per token with mergesFromRanks (rank_merges.h; near-linear in the token's length), in
// rank order, and gives token ids equal to ranks. For a BPE-trained rank file (GPT-2's r50k/"gpt2",
// cl100k, o200k) this merge list reproduces the original merges, so BpeTokenizer's merge-by-rank
// gives tiktoken's ids. A token that cannot be formed from two lower-ranked tokens gets no merge
// (reported by TiktokenInfo::unreachableTokens); it stays in the vocabulary but BPE never produces it.
#pragma once

#include "common/problem.h"
#include "tokenizer/bpe_tokenizer.h"
#include "tokenizer/rank_merges.h"

#include <cstddef>
#include <string>
#include <vector>

namespace lse {

// Hugging Face tokenizer.json with model.type "BPE", a ByteLevel pre-tokenizer (GPT-2 pattern, no
// prefix space) and no normalizer. Vocabulary keys are in GPT-2's byte-to-unicode alphabet; merges
// are "a b" strings or ["a", "b"] pairs; added_tokens with "special": true become special tokens.
// Problems name the file and a JSON path (or the line for a syntax error).
Result<BpeTokenizer> loadHfTokenizerJson(const std::string &path);

struct TiktokenInfo {
    std::size_t ranks = 0;              // lines read
    std::size_t unreachableTokens = 0;  // multi-byte tokens without a recovered merge
};

// tiktoken rank file ("base64 rank" per line, ranks 0..n-1 each once). specialTokens are appended
// with ids n, n+1, ... (tiktoken's GPT-2 encoding has "<|endoftext|>" = 50256 after 50,256 ranks).
// Problems name the file and line.
Result<BpeTokenizer> loadTiktoken(const std::string &path, const std::vector<std::string> &specialTokens = {"<|endoftext|>"},
                                  TiktokenInfo *info = nullptr);

// Loads a tokenizer from
//  - a directory holding tokenizer.json (preferred; when it fails to load and vocab.json + merges.txt
//    are beside it, those are loaded instead), or vocab.json + merges.txt, or one *.tiktoken file;
//  - a tokenizer.json file (any *.json except vocab.json; a vocab.json with merges.txt beside it
//    loads as GPT-2 files);
//  - a *.tiktoken file (with "<|endoftext|>" appended as special token after the ranks).
// For vocab.json + merges.txt, "<|endoftext|>" becomes a special token when the vocabulary has it.
// extraSpecialTokens are added as special tokens in every case.
Result<BpeTokenizer> loadTokenizer(const std::string &path, const std::vector<std::string> &extraSpecialTokens = {});

}  // namespace lse
