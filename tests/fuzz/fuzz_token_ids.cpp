// SPDX-License-Identifier: GPL-3.0-or-later
// Token-id files (reference/token_data.h) as the reference trainer opens them: open, validate the
// ids against the vocabulary, then draw training and validation batches. The first input byte
// chooses the dtype and the context length; the rest is the file.
#include "fuzz_support.h"
#include "reference/token_data.h"

#include <random>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace lse;
    if (size == 0)
        return 0;
    const TokenDtype dtype = (data[0] & 1) ? TokenDtype::U32 : TokenDtype::U16;
    const int context = 1 + (data[0] >> 1) % 16;
    constexpr std::uint32_t kVocabSize = 50257;  // GPT-2's, as the course's data
    const std::string path = fuzz::writeScratchFile("tokens.bin", fuzz::asText(data + 1, size - 1));

    Result<TokenFile> file = TokenFile::open(path, dtype);
    if (!file) {
        fuzz::checkProblemsNameAField(file.problems());
        fuzz::check((size - 1) % std::size_t(tokenDtypeSize(dtype)) != 0, "a whole number of ids was refused");
        return 0;
    }
    fuzz::check(file->tokenCount() == std::int64_t((size - 1) / std::size_t(tokenDtypeSize(dtype))),
                "the token count does not match the file size");
    const Result<bool> valid = file->validateIds(kVocabSize);
    if (!valid) {
        fuzz::checkProblemsNameAField(valid.problems());
        return 0;
    }
    constexpr int kBatch = 2;
    std::vector<std::int32_t> inputs(std::size_t(kBatch * context)), targets(inputs.size());
    std::mt19937_64 rng(1);
    const Result<bool> sampled = file->sampleBatch(kBatch, context, rng, inputs.data(), targets.data());
    if (!sampled) {
        fuzz::checkProblemsNameAField(sampled.problems());
        return 0;
    }
    for (std::size_t i = 0; i < inputs.size(); ++i)
        fuzz::check(inputs[i] >= 0 && std::uint32_t(inputs[i]) < kVocabSize, "a sampled id is outside the vocabulary");
    const std::int64_t windows = file->windowCount(context);
    if (windows >= kBatch) {
        const Result<bool> sequential =
            file->sequentialBatch((windows - kBatch) * context, kBatch, context, inputs.data(), targets.data());
        fuzz::check(sequential.ok(), "the last whole windows cannot be read as a batch");
    }
    return 0;
}
