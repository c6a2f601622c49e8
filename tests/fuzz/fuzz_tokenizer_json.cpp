// SPDX-License-Identifier: GPL-3.0-or-later
// Hugging Face tokenizer.json (tokenizer/tokenizer_formats.h) through loadTokenizer, the entry point
// of `tokenize --tokenizer FILE` and the Tokenization page.
#include "fuzz_support.h"
#include "tokenizer/tokenizer_formats.h"
#include "tokenizer_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace lse;
    const std::string path = fuzz::writeScratchFile("tokenizer.json", fuzz::asText(data, size));
    Result<BpeTokenizer> loaded = loadTokenizer(path);
    if (!loaded) {
        fuzz::checkProblemsNameAField(loaded.problems());
        return 0;
    }
    fuzz::checkLoadedTokenizer(loaded.value());
    return 0;
}
