// SPDX-License-Identifier: GPL-3.0-or-later
// Tokenizer throughput: GPT-2 encode MB/s (in memory, cold and warm cache, and streaming) and BPE
// training time on the CS336 corpus. A benchmark, not a test: it prints rates measured in this run.
// Usage: bench_tokenizer [cs336-dir] (default: LSE_SHARED_DIR/cs336 if compiled in, else ../shared/cs336)
#include "tokenizer/bpe_tokenizer.h"
#include "tokenizer/bpe_trainer.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::string readAll(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

int main(int argc, char **argv)
{
#ifdef LSE_SHARED_DIR
    std::string dir = std::string(LSE_SHARED_DIR) + "/cs336";
#else
    std::string dir = "../shared/cs336";
#endif
    if (argc > 1)
        dir = argv[1];
    const std::string corpus = readAll(dir + "/bpe/corpus.en");
    if (corpus.empty()) {
        std::fprintf(stderr, "cannot read %s/bpe/corpus.en\n", dir.c_str());
        return 1;
    }

    // Training.
    lse::BpeTrainOptions o;
    o.vocabSize = 500;
    o.specialTokens = {"<|endoftext|>"};
    for (unsigned threads : {1u, 2u}) {
        o.threads = threads;
        const auto t0 = Clock::now();
        const auto r = lse::trainBpe(corpus, o);
        const double s = since(t0);
        if (!r.ok())
            return 1;
        std::printf("train corpus.en (%zu bytes) vocab 500, %u thread(s): %.1f ms (pre-tokenize %.1f ms, %zu merges %.1f ms, %.2f us/merge)\n",
                    corpus.size(), threads, s * 1e3, r->pretokenizeSeconds * 1e3, r->merges.size(), r->mergeSeconds * 1e3,
                    r->mergeSeconds * 1e6 / static_cast<double>(std::max<std::size_t>(r->merges.size(), 1)));
    }

    // Encoding.
    const auto t0 = Clock::now();
    auto loaded = lse::BpeTokenizer::loadGpt2(dir + "/tokenizer/gpt2_vocab.json", dir + "/tokenizer/gpt2_merges.txt",
                                              {"<|endoftext|>"});
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s", lse::formatProblems(loaded.problems()).c_str());
        return 1;
    }
    std::printf("load GPT-2 vocab.json + merges.txt: %.1f ms\n", since(t0) * 1e3);
    std::string text;
    while (text.size() < (32u << 20))
        text += corpus;
    const double mb = static_cast<double>(text.size()) / 1e6;
    {
        lse::BpeTokenizer tok = loaded.value();  // cold cache
        const auto t1 = Clock::now();
        const auto ids = tok.encode(text, {"<|endoftext|>"});
        const double s = since(t1);
        std::printf("encode %.1f MB (cold cache): %.3f s, %.1f MB/s, %zu ids, %.2f bytes/token\n", mb, s, mb / s,
                    ids.size(), static_cast<double>(text.size()) / static_cast<double>(ids.size()));
        const auto t2 = Clock::now();
        const auto again = tok.encode(text, {"<|endoftext|>"});
        const double s2 = since(t2);
        std::printf("encode %.1f MB (warm cache): %.3f s, %.1f MB/s\n", mb, s2, mb / s2);
        std::istringstream in(text);
        std::size_t count = 0;
        const auto t3 = Clock::now();
        const auto r = tok.encodeStream(in, {"<|endoftext|>"}, [&](const std::uint32_t *, std::size_t n) { count += n; });
        const double s3 = since(t3);
        std::printf("stream encode %.1f MB (1 MiB chunks): %.3f s, %.1f MB/s, ids %s\n", mb, s3, mb / s3,
                    r.ok() && count == ids.size() ? "identical count" : "MISMATCH");
    }
    return 0;
}
