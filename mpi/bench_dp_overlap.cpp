// SPDX-License-Identifier: GPL-3.0-or-later
// Exposed gradient communication of naive vs bucketed data parallelism (issue 19), measured over MPI:
//
//     mpirun -np 2 --oversubscribe --allow-run-as-root --bind-to none build/default/mpi/bench_dp_overlap
//
// Naive DP all-reduces the whole gradient arena after backward, so all of it is exposed; bucketed
// DP starts each bucket's all-reduce as backward finishes it, so the reductions of the last layers
// run while the first layers still compute. Both modes train the same model on the same tokens; the
// rounds alternate A/B (naive, bucketed, naive, ...) because the machine is shared, and the median
// exposed time per step of each mode is printed with their ratio. A benchmark, not a test: it
// asserts nothing.
#include "distributed/data_parallel_trainer.h"
#include "mpi_communicator.h"
#include "reference/token_data.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

using namespace lse;
using namespace lse::distributed;

namespace {

reference::TrainConfig benchConfig(const std::string &data_path, int steps)
{
    reference::TrainConfig c;
    c.model.name = "bench-dp";
    c.model.n_layers = 6;
    c.model.d_model = 192;
    c.model.n_heads = 6;
    c.model.n_kv_heads = 6;
    c.model.head_dim = 32;
    c.model.d_ff = 768;
    c.model.vocab_size = 512;
    c.model.max_seq_len = 64;
    c.data_path = data_path;
    c.batch_size = 8;
    c.steps = steps;
    c.lr_max = 1e-3;
    c.lr_min = 1e-4;
    c.warmup_steps = 1;
    c.eval_every = 0;
    c.seed = 11;
    c.threads = 1;
    return c;
}

double median(std::vector<double> values)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

}  // namespace

int main()
{
    std::unique_ptr<Communicator> communicator = makeMpiCommunicator();
    const bool printer = communicator->rank() == 0;
    // Every rank writes the same corpus to its own file (no shared temporary folder assumed).
    const std::string data_path = "/tmp/lse-bench-dp-" + std::to_string(getpid()) + ".bin";
    std::vector<std::uint32_t> ids(200000);
    for (std::size_t i = 0; i < ids.size(); ++i)
        ids[i] = std::uint32_t((i * 2654435761u) % 512u);
    if (!writeTokenFile(data_path, ids, TokenDtype::U16).ok()) {
        std::fprintf(stderr, "cannot write %s\n", data_path.c_str());
        return 1;
    }
    constexpr int kRounds = 3;
    constexpr int kSteps = 6;
    std::vector<double> exposed[2], step_seconds[2];
    const DataParallelMode modes[2] = {DataParallelMode::Naive, DataParallelMode::Bucketed};
    for (int round = 0; round < kRounds; ++round)
        for (int m = 0; m < 2; ++m) {
            DataParallelOptions options;
            options.mode = modes[m];
            options.bucket_bytes = 512 * 1024;
            Result<std::unique_ptr<DataParallelTrainer>> trainer =
                DataParallelTrainer::create(benchConfig(data_path, kSteps), options, *communicator);
            if (!trainer) {
                std::fprintf(stderr, "%s\n", formatProblems(trainer.problems()).c_str());
                return 1;
            }
            for (int s = 0; s < kSteps; ++s) {
                Result<DataParallelStepReport> report = (*trainer)->step();
                if (!report) {
                    std::fprintf(stderr, "%s\n", formatProblems(report.problems()).c_str());
                    return 1;
                }
                if (s == 0)
                    continue;  // the first step warms caches and allocators
                double gradient_exposed = 0;
                for (const CommunicationEntry &entry : report->communication)
                    if (entry.purpose == "gradients")
                        gradient_exposed += entry.exposed_seconds;
                exposed[m].push_back(gradient_exposed);
                step_seconds[m].push_back(report->seconds);
            }
        }
    std::remove(data_path.c_str());
    if (printer) {
        std::printf("bench_dp_overlap: %d ranks, 6 layers d_model 192 (%s), batch 8 x 64, 512 KiB buckets, "
                    "%d rounds x %d steps, A/B alternating; medians on rank 0\n",
                    communicator->size(), "~2.9M parameters", kRounds, kSteps - 1);
        std::printf("%-10s %22s %16s\n", "mode", "exposed gradient ms", "step ms");
        for (int m = 0; m < 2; ++m)
            std::printf("%-10s %22.3f %16.3f\n", std::string(toString(modes[m])).c_str(), median(exposed[m]) * 1e3,
                        median(step_seconds[m]) * 1e3);
        const double naive = median(exposed[0]);
        const double bucketed = median(exposed[1]);
        std::printf("bucketed / naive exposed: %.2f\n", naive > 0 ? bucketed / naive : 0.0);
    }
    return 0;
}
