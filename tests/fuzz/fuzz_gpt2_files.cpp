// SPDX-License-Identifier: GPL-3.0-or-later
// GPT-2 vocab.json + merges.txt (BpeTokenizer::loadGpt2) through loadTokenizer on the folder that
// holds them, as `tokenize --tokenizer DIR` reads them. One input holds both files: the vocabulary,
// then kSeparator, then the merges (no separator: all vocabulary, empty merges).
#include "fuzz_support.h"
#include "tokenizer/tokenizer_formats.h"
#include "tokenizer_checks.h"

#include <filesystem>

namespace {
constexpr std::string_view kSeparator = "\n=====MERGES=====\n";
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace lse;
    const std::string_view input = fuzz::asText(data, size);
    const std::size_t split = input.find(kSeparator);
    const std::string_view vocab = input.substr(0, split);
    const std::string_view merges =
        split == std::string_view::npos ? std::string_view() : input.substr(split + kSeparator.size());
    const std::string vocabPath = fuzz::writeScratchFile("vocab.json", vocab);
    fuzz::writeScratchFile("merges.txt", merges);
    Result<BpeTokenizer> loaded = loadTokenizer(std::filesystem::path(vocabPath).parent_path().string());
    if (!loaded) {
        fuzz::checkProblemsNameAField(loaded.problems());
        return 0;
    }
    fuzz::checkLoadedTokenizer(loaded.value());
    return 0;
}
