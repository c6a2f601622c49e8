// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <vector>

namespace lse::gui::bench {

// Median, smallest and largest of a benchmark's samples (all zero when there are none). The median
// of an even count is the mean of the two middle samples.
struct SampleSummary {
    double median = 0.0;
    double min = 0.0;
    double max = 0.0;
    int count = 0;
};

inline SampleSummary summarize(std::vector<double> samples)
{
    SampleSummary summary;
    summary.count = int(samples.size());
    if (samples.empty())
        return summary;
    std::sort(samples.begin(), samples.end());
    const size_t middle = samples.size() / 2;
    summary.median = samples.size() % 2 == 1 ? samples[middle] : (samples[middle - 1] + samples[middle]) / 2.0;
    summary.min = samples.front();
    summary.max = samples.back();
    return summary;
}

}  // namespace lse::gui::bench
