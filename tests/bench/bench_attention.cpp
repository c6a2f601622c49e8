// SPDX-License-Identifier: GPL-3.0-or-later
// Naive vs tiled (FlashAttention) causal attention on this CPU over N = 256 … max_n (issue 32):
// median wall times of the forward pass and of forward + backward (naive and tiled runs
// alternating), the peak bytes of their buffers as allocated, the bytes moved between memory and
// cache (perf_event LLC misses where available, else the IO model), and GFLOP/s of the causal
// triangle's products, beside the cache sizes, so the N where the naive kernel's N × N scores
// leave the L2 shows. Prints a Markdown table (docs/user-guide/inside-the-gpu-cpu.md).
// Usage: bench_attention [max_n=8192] [heads=4] [head_dim=64] [repeats=3] [block_rows=0] [block_cols=0]
#include "reference/attention_measurement.h"
#include "reference/thread_choice.h"

#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace lse;
using namespace lse::reference;

namespace {

std::string mib(double bytes)
{
    char text[32];
    std::snprintf(text, sizeof text, bytes >= 1 << 20 ? "%.1f MiB" : "%.0f KiB", bytes >= 1 << 20 ? bytes / (1 << 20) : bytes / 1024);
    return text;
}

std::string ms(const AttentionKernelRun &run, double seconds)
{
    if (!run.ran)
        return "—";
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", seconds * 1e3);
    return text;
}

}  // namespace

int main(int argc, char **argv)
{
    AttentionMeasureRequest request;
    const std::int64_t max_n = argc > 1 ? std::atoll(argv[1]) : 8192;
    request.heads = argc > 2 ? std::atoi(argv[2]) : 4;
    request.head_dim = argc > 3 ? std::atoi(argv[3]) : 64;
    request.repeats = argc > 4 ? std::atoi(argv[4]) : 3;
    request.block_rows = argc > 5 ? std::atoi(argv[5]) : 0;
    request.block_cols = argc > 6 ? std::atoi(argv[6]) : 0;
    request.sequence_lengths.clear();
    for (std::int64_t n = 256; n <= max_n; n *= 2)
        request.sequence_lengths.push_back(n);
    // As the trainer does: the cores other processes leave idle (spinning OpenMP threads on a busy
    // core would measure the other process, thread_choice.h).
    const ThreadChoice threads = chooseThreads(0);
    useThreads(threads.threads);
    const Result<AttentionMeasurement> result = measureAttention(request, [](int done, int total, const std::string &what) {
        std::fprintf(stderr, "\r[%d/%d] %s          ", done, total, what.c_str());
        return true;
    });
    std::fprintf(stderr, "\n");
    if (!result) {
        std::fprintf(stderr, "%s\n", formatProblems(result.problems()).c_str());
        return 2;
    }
    const AttentionMeasurement &m = *result;
    std::printf("threads: %s\n", threads.reason().c_str());
    std::printf("caches: L1d %s, L2 %s; tiled blocks B_r = %lld, B_c = %lld (one thread's working set %s)\n",
                mib(double(m.caches.l1d_bytes)).c_str(), mib(double(m.caches.l2_bytes)).c_str(), (long long)m.blocks.rows,
                (long long)m.blocks.cols, mib(m.tiled_working_set_bytes).c_str());
    std::printf("B = %d, H = %d, d = %d, causal, fp32; medians of %d alternating runs\n", request.batch, request.heads,
                request.head_dim, request.repeats);
    std::printf("bytes moved: %s%s%s\n\n", m.bytes_moved_source.c_str(), m.counter_note.empty() ? "" : "; ",
                m.counter_note.c_str());
    std::printf("| N | one head's N×N scores | naive fwd ms | tiled fwd ms | naive fwd+bwd ms | tiled fwd+bwd ms | "
                "naive GFLOP/s | tiled GFLOP/s | naive peak | tiled peak | naive moved | tiled moved |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const AttentionMeasureRow &row : m.rows) {
        const auto gflops = [](const AttentionKernelRun &run) {
            if (!run.ran || run.training_seconds <= 0)
                return std::string("—");
            char text[32];
            std::snprintf(text, sizeof text, "%.1f", run.useful_flops / run.training_seconds * 1e-9);
            return std::string(text);
        };
        const auto moved = [](const AttentionKernelRun &run) {
            return run.ran ? mib(run.counted_bytes_moved ? *run.counted_bytes_moved : run.modelled_bytes_moved) : std::string("—");
        };
        std::printf("| %lld | %s%s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", (long long)row.n,
                    mib(row.scores_bytes_per_head).c_str(), row.scores_bytes_per_head > double(m.caches.l2_bytes) ? " (> L2)" : "",
                    ms(row.naive, row.naive.forward_seconds).c_str(), ms(row.tiled, row.tiled.forward_seconds).c_str(),
                    ms(row.naive, row.naive.training_seconds).c_str(), ms(row.tiled, row.tiled.training_seconds).c_str(),
                    gflops(row.naive).c_str(), gflops(row.tiled).c_str(),
                    row.naive.ran ? mib(row.naive.training_peak_bytes).c_str() : "—",
                    mib(row.tiled.training_peak_bytes).c_str(), moved(row.naive).c_str(), moved(row.tiled).c_str());
    }
    for (const AttentionMeasureRow &row : m.rows)
        if (!row.naive.ran)
            std::printf("\nN = %lld: naive not run: %s", (long long)row.n, row.naive.skipped.c_str());
    std::printf("\n");
    return 0;
}
