// SPDX-License-Identifier: GPL-3.0-or-later
// How many full estimates (validation, operator list, parameters, FLOPs, memory, communication)
// one core evaluates per second. A benchmark, not a test: it prints rates measured in this run.

#include "cost/estimate.h"
#include "scenario/presets.h"
#include "scenario/scenario_json.h"

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
        scenario.training.parallel = {128, 8, 1, 1, 1, 1, 1, true};
        if (scenario.model.moe.enabled())
            scenario.training.parallel.ep = 8;
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
