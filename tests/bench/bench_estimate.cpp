// SPDX-License-Identifier: GPL-3.0-or-later
// How many full estimates (validation, operator list, parameters, FLOPs, memory, communication)
// one core evaluates per second. A benchmark, not a test: it prints rates measured in this run.

#include "cost/estimate.h"
#include "scenario/presets.h"
#include "scenario/scenario_json.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

int main()
{
    using Clock = std::chrono::steady_clock;
    const char *const models[] = {"gpt2-small", "llama-2-70b", "mixtral-8x7b", "llama-3.1-405b"};
    std::printf("%-16s %14s %12s\n", "model", "estimates/s", "us/estimate");
    for (const char *id : models) {
        lse::Scenario scenario = lse::defaultScenario();
        scenario.model = lse::findModelPreset(id)->model;
        const int tp = scenario.model.n_heads % 8 == 0 ? 8 : 4;
        scenario.training.parallel = {1024 / tp, tp, 1, 1, 1, 1, 1, true};
        if (scenario.model.moe.enabled())
            scenario.training.parallel.ep = 8;
        scenario.training.seq_len = std::min<std::int64_t>(scenario.training.seq_len, scenario.model.max_seq_len);
        if (const lse::Result<lse::Estimate> first = lse::estimate(scenario); !first.ok()) {
            std::fprintf(stderr, "%s: invalid benchmark scenario:\n%s", id, lse::formatProblems(first.problems()).c_str());
            return 1;
        }
        double checksum = 0;
        long count = 0;
        const auto start = Clock::now();
        auto elapsed = Clock::duration::zero();
        // Run for about a second; vary a field so nothing can be hoisted out of the loop.
        while (elapsed < std::chrono::seconds(1)) {
            for (int i = 0; i < 200; ++i) {
                scenario.training.micro_batch = 1 + (count % 2);
                const lse::Result<lse::Estimate> result = lse::estimate(scenario);
                checksum += result.ok() ? result->time.days : 0.0;
                ++count;
            }
            elapsed = Clock::now() - start;
        }
        const double seconds = std::chrono::duration<double>(elapsed).count();
        std::printf("%-16s %14.0f %12.2f   (checksum %.3g)\n", id, double(count) / seconds, 1e6 * seconds / double(count),
                    checksum);
    }
    return 0;
}
