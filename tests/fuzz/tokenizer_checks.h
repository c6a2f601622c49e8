// SPDX-License-Identifier: GPL-3.0-or-later
// What every loaded tokenizer must do, whatever file it came from: encode a short text and decode
// it back to the same bytes (byte-level BPE has a token for every byte, so nothing is lost).
#pragma once

#include "fuzz_support.h"
#include "tokenizer/bpe_tokenizer.h"

namespace lse::fuzz {

inline void checkLoadedTokenizer(BpeTokenizer tokenizer)
{
    static const std::string sample = "Once upon a time, 42 cats\n\n said \xc3\xa9t\xc3\xa9 \xe4\xbd\xa0\xe5\xa5\xbd!";
    const std::vector<std::uint32_t> ids = tokenizer.encode(sample);
    for (const std::uint32_t id : ids)
        check(id < tokenizer.vocabSize(), "an encoded id is outside the vocabulary");
    check(tokenizer.decodeBytes(ids) == sample, "a loaded tokenizer does not decode its encoding back to the text");
}

}  // namespace lse::fuzz
