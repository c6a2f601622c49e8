// SPDX-License-Identifier: GPL-3.0-or-later
// PyTorch profiler / Kineto Chrome traces (traces/trace_loader.h), plain or gzip, loaded from a
// file as the CLI loads them and analysed: the breakdown's parts sum to each step's window, idle
// splits into host-bound and waiting, every class count adds up, links point inside the trace.
#include "fuzz_support.h"
#include "traces/trace_analysis.h"
#include "traces/trace_loader.h"

#include <algorithm>
#include <cmath>

namespace {

using namespace lse;

void checkBreakdown(const traces::TraceTimeBreakdown &b, double magnitude_seconds)
{
    const double tolerance = 1e-9 * std::max(1.0, magnitude_seconds + b.window_seconds);
    const double parts = b.compute_seconds + b.communication_seconds + b.memcpy_seconds + b.idle_seconds;
    fuzz::check(std::isfinite(parts), "a breakdown part is not finite");
    fuzz::check(std::abs(parts - b.window_seconds) <= tolerance, "the breakdown does not sum to the window");
    fuzz::check(std::abs(b.idle_host_bound_seconds + b.idle_waiting_seconds - b.idle_seconds) <= tolerance,
                "idle is not host-bound + waiting");
    fuzz::check(b.compute_seconds >= -tolerance && b.communication_seconds >= -tolerance &&
                    b.memcpy_seconds >= -tolerance && b.idle_seconds >= -tolerance &&
                    b.idle_waiting_seconds >= -tolerance && b.idle_host_bound_seconds >= -tolerance,
                "a negative breakdown part");
    fuzz::check(b.overlap_percent >= 0 && b.overlap_percent <= 100 + 1e-6, "overlap outside 0..100 %");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string path = fuzz::writeScratchFile("trace.json.gz", fuzz::asText(data, size));
    traces::TraceLoadOptions options;
    options.max_text_bytes = 64 << 20;  // a gzip bomb stops here rather than at the 16 GiB default
    const Result<traces::TraceRank> rank = traces::loadTrace(path, options);
    if (!rank) {
        fuzz::checkProblemsNameAField(rank.problems());
        return 0;
    }
    const traces::TraceRank &r = rank.value();
    double latest_us = 0;
    for (const traces::TraceKernel &kernel : r.kernels) {
        fuzz::check(kernel.op_index < static_cast<std::int32_t>(r.cpu_ops.size()), "a kernel links past the operators");
        fuzz::check(kernel.duration_us >= 0, "a negative kernel duration");
        fuzz::check(kernel.flops >= 0 && kernel.bytes >= 0, "negative FLOPs or bytes");
        latest_us = std::max({latest_us, std::abs(kernel.start_us), std::abs(kernel.launch_start_us)});
    }
    for (std::size_t i = 0; i < r.cpu_ops.size(); ++i) {
        const std::int32_t parent = r.cpu_ops[i].parent;
        fuzz::check(parent < static_cast<std::int32_t>(i), "an operator's parent comes after it");
        fuzz::check(parent < 0 || r.cpu_ops[static_cast<std::size_t>(parent)].thread == r.cpu_ops[i].thread,
                    "an operator's parent is on another thread");
    }
    const traces::TraceRankAnalysis analysis = traces::analyseRank(r);
    const double magnitude_seconds = latest_us * 1e-6;
    checkBreakdown(analysis.breakdown, magnitude_seconds);
    for (const traces::TraceStepAnalysis &step : analysis.steps)
        checkBreakdown(step.breakdown, magnitude_seconds);
    std::int64_t classified = 0;
    for (const traces::TraceClassRow &row : analysis.classification.by_class)
        classified += row.count;
    fuzz::check(classified == static_cast<std::int64_t>(r.kernels.size()), "class counts do not add up");
    fuzz::check(analysis.classification.unknown_count <= classified, "more unknown kernels than kernels");
    fuzz::check(analysis.matmul_flops >= 0, "negative matmul FLOPs");
    return 0;
}
