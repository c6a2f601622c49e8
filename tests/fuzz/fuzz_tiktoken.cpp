// SPDX-License-Identifier: GPL-3.0-or-later
// tiktoken rank files (tokenizer/tokenizer_formats.h) through loadTokenizer, as `tokenize
// --tokenizer FILE.tiktoken` reads them.
#include "fuzz_support.h"
#include "tokenizer/tokenizer_formats.h"
#include "tokenizer_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace lse;
    const std::string path = fuzz::writeScratchFile("ranks.tiktoken", fuzz::asText(data, size));
    Result<BpeTokenizer> loaded = loadTokenizer(path);
    if (!loaded) {
        fuzz::checkProblemsNameAField(loaded.problems());
        return 0;
    }
    fuzz::checkLoadedTokenizer(loaded.value());
    return 0;
}
