// SPDX-License-Identifier: GPL-3.0-or-later
// Finding a GPT-2 style tokenizer on disk: vocab.json + merges.txt given as a directory or as one of
// the two files.
#pragma once

#include "common/problem.h"
#include "tokenizer/bpe_tokenizer.h"

#include <string>
#include <vector>

namespace lse {

struct Gpt2TokenizerFiles {
    std::string vocabPath;
    std::string mergesPath;
};

// path is
//  - a directory holding vocab.json + merges.txt, or else exactly one pair PREFIXvocab.json +
//    PREFIXmerges.txt with the same prefix (e.g. gpt2_vocab.json + gpt2_merges.txt), or
//  - a file named *vocab.json or *merges.txt whose partner (same prefix) sits next to it.
// Problems name the path and say what was looked for.
Result<Gpt2TokenizerFiles> locateGpt2TokenizerFiles(const std::string &path);

// locateGpt2TokenizerFiles + BpeTokenizer::loadGpt2.
Result<BpeTokenizer> loadGpt2TokenizerFrom(const std::string &path, const std::vector<std::string> &specialTokens = {});

}  // namespace lse
