// SPDX-License-Identifier: GPL-3.0-or-later
// BPE encode/decode of arbitrary bytes (tokenizer/bpe_tokenizer.h): whatever the input, decoding
// its ids gives the input back byte for byte, with and without "<|endoftext|>" allowed, and the
// offsets of encodeWithOffsets tile the input, and the pre-tokenizer's bit-mask windows cut where
// its character-by-character scanner does. The tokenizer is trained once, at start-up, on the
// compiled-in sample text, so the harness needs no file from outside the project.
#include "fuzz_support.h"
#include "tokenizer/bpe_tokenizer.h"
#include "tokenizer/bpe_trainer.h"
#include "tokenizer/pretokenizer.h"

#include <QFile>

namespace {

constexpr const char *kEndOfText = "<|endoftext|>";

lse::BpeTokenizer trainedTokenizer()
{
    QFile sample(QStringLiteral(":/samples/tiny_stories_generated.txt"));
    lse::fuzz::check(sample.open(QIODevice::ReadOnly), "the compiled-in sample text is missing");
    // 64 KiB and 600 tokens train in well under a second under the sanitizers and still give
    // multi-byte merges across letters, spaces and punctuation.
    const QByteArray text = sample.read(64 * 1024);
    lse::BpeTrainOptions options;
    options.vocabSize = 600;
    options.specialTokens = {kEndOfText};
    options.threads = 1;
    const lse::Result<lse::BpeTrainResult> trained = lse::trainBpe(std::string_view(text.constData(), std::size_t(text.size())), options);
    lse::fuzz::check(trained.ok(), "training the fuzz tokenizer failed");
    lse::Result<lse::BpeTokenizer> tokenizer = lse::BpeTokenizer::fromTraining(*trained);
    lse::fuzz::check(tokenizer.ok(), "the trained fuzz tokenizer does not load");
    return tokenizer.value();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace lse;
    static BpeTokenizer tokenizer = trainedTokenizer();
    const std::string_view text = fuzz::asText(data, size);

    const std::vector<std::uint32_t> ids = tokenizer.encode(text);
    fuzz::check(tokenizer.decodeBytes(ids) == text, "decode(encode(bytes)) differs from the bytes");

    const std::vector<std::uint32_t> withSpecial = tokenizer.encode(text, {kEndOfText});
    fuzz::check(tokenizer.decodeBytes(withSpecial) == text, "decode(encode(bytes, <|endoftext|> allowed)) differs");

    const std::vector<EncodedToken> tokens = tokenizer.encodeWithOffsets(text, {kEndOfText});
    fuzz::check(tokens.size() == withSpecial.size(), "encodeWithOffsets gives a different number of tokens");
    std::size_t at = 0;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        fuzz::check(tokens[i].id == withSpecial[i], "encodeWithOffsets gives a different id");
        fuzz::check(tokens[i].begin == at && tokens[i].end > at, "token offsets leave a gap or overlap");
        fuzz::check(text.substr(tokens[i].begin, tokens[i].end - tokens[i].begin) == tokenizer.tokenBytes(tokens[i].id),
                    "a token's offsets do not cover its bytes");
        at = tokens[i].end;
    }
    fuzz::check(at == text.size(), "token offsets do not reach the end of the input");

    // The pre-tokenizer's bit-mask windows cut where the character-by-character scanner cuts.
    std::vector<ByteSpan> byWindows, byCharacter;
    forEachPretoken(text, [&](std::size_t b, std::size_t e) { byWindows.push_back({b, e}); });
    detail::scanPretokens<false>(text, [&](std::size_t b, std::size_t e) { byCharacter.push_back({b, e}); });
    fuzz::check(byWindows == byCharacter, "the bit-mask pre-tokenizer cuts differently from the character scanner");
    return 0;
}
