// SPDX-License-Identifier: GPL-3.0-or-later
// Training-step throughput of the reference transformer (issue 5) at the CS336 TinyStories shape:
// vocab 10000, context 256, d_model 512, 4 layers, 16 heads, d_ff 1344, SwiGLU, RoPE, RMSNorm.
// Measures this machine's Eigen SGEMM peak (best of 3 products of 2048² matrices, 2n³ FLOPs each,
// before and again after the steps; the higher is used),
// then forward + backward steps (no optimizer) and prints tokens/s, achieved GFLOP/s of the counted
// FLOPs, the ratio to the peak, memory by category and the per-op time split from the profiler.
// Usage: bench_reference_step [batch=16] [steps=3]
#include "reference/model.h"
#include "reference/peak_utilisation.h"

#include <Eigen/Core>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cmath>
#include <cstdlib>
#include <random>
#include <string>

using namespace lse;
using namespace lse::reference;

namespace {

double seconds(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

double sgemmPeak()
{
    const Eigen::Index n = 2048;
    const Eigen::MatrixXf a = Eigen::MatrixXf::Random(n, n), b = Eigen::MatrixXf::Random(n, n);
    Eigen::MatrixXf c(n, n);
    double best = 1e30;
    for (int rep = 0; rep < 3; ++rep) {
        const auto t0 = std::chrono::steady_clock::now();
        c.noalias() = a * b;
        best = std::min(best, seconds(t0, std::chrono::steady_clock::now()));
    }
    std::printf("checksum %.3f\n", double(c(1, 2)));  // keeps the product observable
    return 2.0 * double(n) * double(n) * double(n) / best;
}

}  // namespace

int main(int argc, char **argv)
{
    const int batch = argc > 1 ? std::max(1, std::atoi(argv[1])) : 16;
    const int steps = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
    std::printf("threads: OpenMP %d, Eigen %d\n", omp_get_max_threads(), Eigen::nbThreads());
    const double peak = sgemmPeak();
    std::printf("SGEMM peak (n=2048, best of 3): %.1f GFLOP/s\n", peak * 1e-9);

    ModelConfig c;
    c.name = "cs336-tinystories";
    c.n_layers = 4;
    c.d_model = 512;
    c.n_heads = 16;
    c.n_kv_heads = 16;
    c.head_dim = 32;
    c.d_ff = 1344;
    c.vocab_size = 10000;
    c.max_seq_len = 256;
    ReferenceOptions o;
    o.max_batch = batch;
    auto created = Model::create(c, o);
    if (!created.ok()) {
        std::fprintf(stderr, "%s\n", formatProblems(created.problems()).c_str());
        return 1;
    }
    Model &model = *created.value();
    const int t = int(c.max_seq_len);
    std::mt19937 rng(1);
    std::uniform_int_distribution<std::int32_t> u(0, std::int32_t(c.vocab_size - 1));
    std::vector<std::int32_t> tokens(std::size_t(batch * (t + 1)));
    for (auto &x : tokens)
        x = u(rng);
    std::vector<std::int32_t> inputs, targets;
    for (int s = 0; s < batch; ++s) {
        inputs.insert(inputs.end(), tokens.begin() + s * (t + 1), tokens.begin() + s * (t + 1) + t);
        targets.insert(targets.end(), tokens.begin() + s * (t + 1) + 1, tokens.begin() + (s + 1) * (t + 1));
    }
    const ReferenceMemory m = model.memory();
    std::printf("model: %lld parameters; batch %d x %d tokens\n", static_cast<long long>(model.parameterCount()),
                batch, t);
    std::printf("memory MB: parameters %.1f, gradients %.1f, saved activations %.1f, workspace %.1f, kv cache %.1f\n",
                m.parameters / 1e6, m.gradients / 1e6, m.activations / 1e6, m.workspace / 1e6, m.kv_cache / 1e6);

    float loss = *model.forwardBackward(inputs.data(), targets.data(), batch, t);  // warm-up
    double best = 1e30, total = 0;
    for (int i = 0; i < steps; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        loss = *model.forwardBackward(inputs.data(), targets.data(), batch, t);
        const double s = seconds(t0, std::chrono::steady_clock::now());
        best = std::min(best, s);
        total += s;
    }
    // One profiled step for the FLOP count and the time split.
    model.profiler().setEnabled(true);
    const auto p0 = std::chrono::steady_clock::now();
    model.forwardBackward(inputs.data(), targets.data(), batch, t);
    const double profiled = seconds(p0, std::chrono::steady_clock::now());
    const OpProfiler &prof = model.profiler();
    const double flops = prof.totalFlops(), mm = prof.matmulFlops();
    // On a shared machine the load changes between measurements: the peak is measured again after
    // the steps and the better of the two is the reference, so the ratio is not flattered by a
    // peak taken at a busy moment.
    const double peak_after = sgemmPeak();
    std::printf("SGEMM peak after the steps: %.1f GFLOP/s; using %.1f\n", peak_after * 1e-9,
                std::max(peak, peak_after) * 1e-9);
    const double best_peak = std::max(peak, peak_after);
    std::printf("loss %.4f (ln V = %.4f)\n", double(loss), std::log(double(c.vocab_size)));
    std::printf("step (forward+backward, no optimizer): best %.3f s, mean %.3f s over %d; profiled step %.3f s\n", best,
                total / steps, steps, profiled);
    std::printf("tokens/s: %.0f\n", double(batch * t) / best);
    std::printf("counted FLOPs per step: %.2f GFLOP (matmul %.2f, element-wise %.2f)\n", flops * 1e-9, mm * 1e-9,
                (flops - mm) * 1e-9);
    // A share above 100% is no result: the peak was measured while something else held the cores.
    const auto share = [best_peak](double achieved) {
        static char text[96];
        if (exceedsMeasuredPeak(achieved / best_peak))
            std::snprintf(text, sizeof text, "exceeds the measured SGEMM peak - re-measure on an idle machine");
        else
            std::snprintf(text, sizeof text, "%.1f%% of SGEMM peak", 100.0 * achieved / best_peak);
        return std::string(text);
    };
    std::printf("achieved: %.1f GFLOP/s, %s", flops / best * 1e-9, share(flops / best).c_str());
    std::printf(" (matmul FLOPs only: %s)\n", share(mm / best).c_str());
    std::printf("\nper-op split of the profiled step (%.3f s timed inside ops):\n%s", prof.totalSeconds(),
                prof.table().c_str());
    return 0;
}
