// SPDX-License-Identifier: GPL-3.0-or-later
// Decode and prefill speed of the reference transformer (issue 35), measured in one run and printed
// as ratios. The CS336 shape (4 layers, d_model 512, 16 heads, d_ff 1344, vocabulary 10,000) with a
// context of 1024, batch 1, greedy, untrained weights; 200 new tokens after a 19-token prompt
// (positions 19-218) and after an 800-token prompt (positions 800-999), on 1 and on 2 threads,
// the four cases alternating round after round so that all see the same machine.
//
// Each decode rate is also given as a fraction of two bandwidth roofs: tokens/s × bytes read per
// token (the weights but the embedding table, of which one row is read, and the KV cache up to the
// mean position) over
//   ws    the one-row product's bandwidth with its matrices in a working set of those bytes, at the
//         run's threads: the prediction's own kernel factor (machine-kernels.json, as `generate`
//         measures it), the roof of a decode step on this machine. On this CPU the ~85 MB a token
//         reads sit in the 300 MB last-level cache, so it is well above DRAM's.
//   DRAM  the STREAM triad bandwidth over arrays larger than the last-level cache (`machine`'s
//         cache): one core for 1 thread, all cores for 2. Fractions above 100% mean the bytes come
//         from the cache.
//
// Where Debian's python3-torch is installed, each case also runs tools/pytorch_decode_twin.py, the
// same generation in PyTorch (a separate process per case, in the same alternation). At T > 1
// threads the twin runs with OpenBLAS on 1 thread and on T and the faster counts: its own thread
// pool beside PyTorch's collapses on a 2-core machine (73 against 209 tokens/s, measured here).
// The medians also compare with the twin as Debian installs it: OpenBLAS picking its kernels itself
// (on this VM, which hides the CPU model, its generic Prescott kernels; OpenBLAS on one thread).
// Last, the cost of an OpenMP parallel region against a barrier inside one, and what one region
// per layer instead of one per kernel could save of a decode token. Nothing is asserted.
//
//   build/default/tests/bench_decode [ROUNDS]     (default 3)
#include "hardware/machine_kernel_factors.h"
#include "hardware/machine_roofline.h"
#include "performance/cpu_kernel_time.h"
#include "reference/decode_benchmark.h"
#include "reference/thread_choice.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace lse;
using namespace lse::reference;

namespace {

constexpr const char *kPython = "/usr/bin/python3";  // Debian's, where python3-torch installs

bool torchInstalled()
{
    const std::string command = std::string(kPython) + " -c 'import torch' >/dev/null 2>&1";
    return std::system(command.c_str()) == 0;
}

struct TwinRun {
    double prefill_seconds = 0;
    double decode_tokens_per_second = 0;
    int blas_threads = 1;
};

// One run of the PyTorch twin; nothing when it fails (its error output is shown).
// `as_installed`: OpenBLAS picks its kernels itself, as PyTorch runs when installed from Debian.
std::optional<TwinRun> runTwin(int prompt, int new_tokens, int threads, int blas_threads, bool as_installed = false)
{
    const std::string command = std::string(kPython) + " " LSE_SOURCE_DIR "/tools/pytorch_decode_twin.py --prompt "
        + std::to_string(prompt) + " --new-tokens " + std::to_string(new_tokens) + " --threads " + std::to_string(threads)
        + " --blas-threads " + std::to_string(blas_threads) + (as_installed ? " --blas-as-installed" : "");
    FILE *pipe = popen(command.c_str(), "r");
    if (!pipe)
        return std::nullopt;
    std::string output;
    char buffer[512];
    while (std::fgets(buffer, sizeof buffer, pipe))
        output += buffer;
    if (pclose(pipe) != 0)
        return std::nullopt;
    const QJsonObject json = QJsonDocument::fromJson(QByteArray::fromStdString(output)).object();
    TwinRun run{json.value("prefill_seconds").toDouble(), json.value("decode_tokens_per_second").toDouble(), blas_threads};
    if (!(run.prefill_seconds > 0 && run.decode_tokens_per_second > 0))
        return std::nullopt;
    return run;
}

// The twin at `threads`, with OpenBLAS on 1 thread and (above 1) on `threads`: the faster.
std::optional<TwinRun> bestTwin(int prompt, int new_tokens, int threads)
{
    std::optional<TwinRun> best = runTwin(prompt, new_tokens, threads, 1);
    if (threads > 1)
        if (std::optional<TwinRun> other = runTwin(prompt, new_tokens, threads, threads);
            other && (!best || other->decode_tokens_per_second > best->decode_tokens_per_second))
            best = other;
    return best;
}


// Microseconds of one empty parallel region (fork and join) and of one barrier inside a region,
// at `threads`: best of 5 batches of 20,000.
struct RegionCosts {
    double fork_join_us = 0;
    double barrier_us = 0;
};
RegionCosts measureRegionCosts(int threads)
{
    using Clock = std::chrono::steady_clock;
    constexpr int kCalls = 20000;
    omp_set_num_threads(threads);
    RegionCosts best{1e9, 1e9};
    volatile int sink = 0;
    for (int batch = 0; batch < 5; ++batch) {
        Clock::time_point start = Clock::now();
        for (int i = 0; i < kCalls; ++i) {
#pragma omp parallel
            {
                if (omp_get_thread_num() == 0)
                    sink = sink + 1;
            }
        }
        best.fork_join_us = std::min(best.fork_join_us, std::chrono::duration<double, std::micro>(Clock::now() - start).count() / kCalls);
        start = Clock::now();
#pragma omp parallel
        {
            for (int i = 0; i < kCalls; ++i) {
#pragma omp barrier
            }
        }
        best.barrier_us = std::min(best.barrier_us, std::chrono::duration<double, std::micro>(Clock::now() - start).count() / kCalls);
    }
    return best;
}
}  // namespace

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

    std::map<int, std::optional<CpuKernelFactors>> factors;
    for (int threads : thread_counts) {
        factors[threads] = loadCachedCpuKernelFactors(threads);
        if (!factors[threads])
            std::printf("no cached kernel factors at %d thread(s): run `llm-explorer-cli generate --threads %d ...` once for the ws roof\n",
                        threads, threads);
    }
    const bool twin = torchInstalled();
    std::map<std::pair<int, int>, std::vector<double>> decode_rates, prefill_rates, twin_decode, twin_prefill, installed_decode;
    std::printf("%-6s %-12s %-8s %14s %14s %9s %9s %16s %16s\n", "round", "positions", "threads", "decode tok/s",
                "prefill tok/s", "roof ws", "roof DRAM", "PyTorch decode", "PyTorch prefill");
    for (int round = 1; round <= rounds; ++round)
        for (int prompt : prompts)
            for (int threads : thread_counts) {
                if (factors[threads])
                    useThreads(threads, *factors[threads]);
                else
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
                const double dram = !machine ? 0
                    : threads == 1 ? machine->bandwidth_bytes_per_s_one_core : machine->bandwidth_bytes_per_s_all_cores;
                const double working_set = factors[threads] ? performance::cpuGemvBytesPerSecond(*factors[threads], bytes) : 0;
                char positions[32];
                std::snprintf(positions, sizeof positions, "%d-%d", prompt, prompt + new_tokens - 1);
                std::string peer = "-", peer_prefill = "-";
                if (twin) {
                    useThreads(1);  // the twin's process alone on the cores
                    if (const std::optional<TwinRun> peerRun = bestTwin(prompt, new_tokens, threads)) {
                        twin_decode[{prompt, threads}].push_back(peerRun->decode_tokens_per_second);
                        twin_prefill[{prompt, threads}].push_back(prompt / peerRun->prefill_seconds);
                        char text[64];
                        std::snprintf(text, sizeof text, "%.1f (blas %d)", peerRun->decode_tokens_per_second, peerRun->blas_threads);
                        peer = text;
                        std::snprintf(text, sizeof text, "%.1f", prompt / peerRun->prefill_seconds);
                        peer_prefill = text;
                    } else {
                        peer = "failed";
                    }
                    if (const std::optional<TwinRun> installed = runTwin(prompt, new_tokens, threads, 1, true))
                        installed_decode[{prompt, threads}].push_back(installed->decode_tokens_per_second);
                }
                std::printf("%-6d %-12s %-8d %14.1f %14.1f %8.0f%% %8.0f%% %16s %16s\n", round, positions, threads, decode,
                            prefill, working_set > 0 ? 100 * decode * bytes / working_set : 0.0,
                            dram > 0 ? 100 * decode * bytes / dram : 0.0, peer.c_str(), peer_prefill.c_str());
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
        for (int threads : thread_counts)
            if (!twin_decode[{prompt, threads}].empty()) {
                const double peer = median(twin_decode[{prompt, threads}]);
                std::printf("  %d thread%s: %.2fx PyTorch's decode (%.1f tok/s)", threads, threads == 1 ? "" : "s",
                            median(decode_rates[{prompt, threads}]) / peer, peer);
                if (!installed_decode[{prompt, threads}].empty()) {
                    const double installed = median(installed_decode[{prompt, threads}]);
                    std::printf("; %.2fx PyTorch with the kernels OpenBLAS picks itself (%.1f tok/s)",
                                median(decode_rates[{prompt, threads}]) / installed, installed);
                }
                std::printf("\n");
            }
    }
    // Prefill against feeding the prompt token by token (each a decode step at those positions).
    const double prefill = median(prefill_rates[{800, 1}]);
    const double token_by_token = (median(decode_rates[{19, 1}]) + median(decode_rates[{800, 1}])) / 2;
    std::printf("800-token prompt in one pass: %.0f tokens/s on 1 thread, %.1fx token by token (%.0f tokens/s)\n", prefill,
                prefill / token_by_token, token_by_token);
    for (int threads : thread_counts)
        if (!twin_prefill[{800, threads}].empty())
            std::printf("800-token prefill on %d thread%s: %.2fx PyTorch's (%.0f tokens/s)\n", threads, threads == 1 ? "" : "s",
                        median(prefill_rates[{800, threads}]) / median(twin_prefill[{800, threads}]),
                        median(twin_prefill[{800, threads}]));
    if (!twin)
        std::printf("PyTorch twin: not run (%s cannot import torch: install Debian's python3-torch)\n", kPython);

    // What one parallel region per layer, instead of one per kernel, could save: a decode token
    // at batch 1 runs the four products of each layer (QKV, output, up, down), each layer's
    // attention over its KV heads and the head's product as parallel regions (the norms, RoPE and
    // residual adds of one row stay on one thread); inside one region per layer each would still
    // end in a barrier, so the fork and join less a barrier is the most it saves.
    const RegionCosts regions = measureRegionCosts(2);
    const int regionsPerToken = int(config.model.n_layers) * 5 + 1;
    const double savedUs = regionsPerToken * std::max(0.0, regions.fork_join_us - regions.barrier_us);
    const double tokenUs = 1e6 / median(decode_rates[{800, 2}]);
    std::printf("parallel regions on 2 threads: fork and join %.2f us, a barrier inside a region %.2f us; a decode token "
                "runs %d regions: one region per layer would save at most %.1f us of %.0f us a token at 800-999 (%.1f%%)\n",
                regions.fork_join_us, regions.barrier_us, regionsPerToken, savedUs, tokenUs, 100 * savedUs / tokenUs);
    return 0;
}
