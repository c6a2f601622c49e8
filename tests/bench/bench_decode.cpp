// SPDX-License-Identifier: GPL-3.0-or-later
// Decode and prefill speed of the reference transformer (issue 35), measured in one run and printed
// as ratios. The CS336 shape (4 layers, d_model 512, 16 heads, d_ff 1344, vocabulary 10,000) with a
// context of 1024, batch 1, greedy, untrained weights; 200 new tokens after a 19-token prompt
// (positions 19-218) and after an 800-token prompt (positions 800-999), on 1 and on 2 threads,
// the four cases alternating round after round so that all see the same machine. Each decode rate
// is also given as a fraction of the bandwidth roof: tokens/s × bytes read per token (the weights but
// the embedding table, of which one row is read, and the KV cache up to the mean position) / this
// machine's measured STREAM bandwidth (one core for 1 thread, all cores for 2; `machine`'s cache).
// On this CPU the weights (70 MB) fit the last-level cache, so a fraction above 1 is possible.
// Nothing is asserted.
//
//   build/default/tests/bench_decode [ROUNDS]     (default 3)
#include "hardware/machine_roofline.h"
#include "reference/decode_benchmark.h"
#include "reference/thread_choice.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <vector>

using namespace lse;
using namespace lse::reference;

int main(int argc, char **argv)
{
    const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
    TrainConfig config;
    config.model.name = "cs336-1k";
    config.model.n_layers = 4;
    config.model.d_model = 512;
    config.model.n_heads = 16;
    config.model.n_kv_heads = 16;
    config.model.head_dim = 32;
    config.model.d_ff = 1344;
    config.model.vocab_size = 10000;
    config.model.max_seq_len = 1024;
    const int new_tokens = 200;
    const std::vector<int> prompts = {19, 800};
    const std::vector<int> thread_counts = {1, 2};

    std::string why;
    const std::optional<MachineRoofline> machine = loadCachedMachineRoofline(&why);
    if (!machine)
        std::printf("no cached machine roofline (%s): run `llm-explorer-cli machine` for the roof fractions\n", why.c_str());

    const double d = 512, layers = 4, vocab = 10000, ff = 1344;
    const double layer_weights = 4 * d * d + 3 * d * ff + 2 * d;  // QKV, out, SwiGLU up/gate/down, two norms
    const double weight_bytes = 4 * (layers * layer_weights + vocab * d + d);  // + LM head, final norm

    std::map<std::pair<int, int>, std::vector<double>> decode_rates, prefill_rates;
    std::printf("%-6s %-12s %-8s %14s %14s %10s\n", "round", "positions", "threads", "decode tok/s", "prefill tok/s", "roof");
    for (int round = 1; round <= rounds; ++round)
        for (int prompt : prompts)
            for (int threads : thread_counts) {
                useThreads(threads);
                config.threads = threads;
                const Result<DecodeBenchmark> run = benchmarkUntrainedDecode(config, 1, prompt, new_tokens, nullptr);
                if (!run) {
                    std::fprintf(stderr, "%s\n", formatProblems(run.problems()).c_str());
                    return 1;
                }
                const double decode = run->measured_decode_tokens_per_second;
                const double prefill = run->measured_prefill_seconds > 0 ? prompt / run->measured_prefill_seconds : 0;
                decode_rates[{prompt, threads}].push_back(decode);
                prefill_rates[{prompt, threads}].push_back(prefill);
                const double mean_position = prompt + new_tokens / 2.0;
                const double bytes = weight_bytes + 2 * layers * d * 4 * mean_position;
                const double bandwidth = !machine ? 0
                    : threads == 1 ? machine->bandwidth_bytes_per_s_one_core : machine->bandwidth_bytes_per_s_all_cores;
                char positions[32];
                std::snprintf(positions, sizeof positions, "%d-%d", prompt, prompt + new_tokens - 1);
                std::printf("%-6d %-12s %-8d %14.1f %14.1f %9.0f%%\n", round, positions, threads, decode, prefill,
                            bandwidth > 0 ? 100 * decode * bytes / bandwidth : 0.0);
            }
    const auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    std::printf("\nmedians of %d rounds\n", rounds);
    for (int prompt : prompts) {
        const double one = median(decode_rates[{prompt, 1}]), two = median(decode_rates[{prompt, 2}]);
        std::printf("positions %d-%d: decode %.1f tok/s on 1 thread, %.1f on 2 (%.2fx)\n", prompt, prompt + new_tokens - 1,
                    one, two, two / one);
    }
    // Prefill against feeding the prompt token by token (each a decode step at those positions).
    const double prefill = median(prefill_rates[{800, 1}]);
    const double token_by_token = (median(decode_rates[{19, 1}]) + median(decode_rates[{800, 1}])) / 2;
    std::printf("800-token prompt in one pass: %.0f tokens/s on 1 thread, %.1fx token by token (%.0f tokens/s)\n", prefill,
                prefill / token_by_token, token_by_token);
    std::printf("PyTorch twin: not run (Debian's python3-torch is not installed here)\n");
    return 0;
}
