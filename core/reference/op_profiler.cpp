// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/op_profiler.h"

#include "reference/op_trace.h"

#include <cstdio>
#include <cstring>

namespace lse::reference {

namespace {
// More than the distinct (name, phase) pairs of a model (~36), so record() never reallocates.
constexpr std::size_t kCapacity = 128;
}  // namespace

OpProfiler::OpProfiler() { records_.reserve(kCapacity); }

void OpProfiler::reset() { records_.clear(); }

void OpProfiler::record(const char *name, OpPhase phase, bool matmul, double flops, double seconds)
{
    for (OpRecord &r : records_)
        if (r.phase == phase && (r.name == name || std::strcmp(r.name, name) == 0)) {
            r.flops += flops;
            r.seconds += seconds;
            ++r.calls;
            return;
        }
    if (records_.size() == records_.capacity())
        return;  // never expected; dropping beats allocating inside a training step
    records_.push_back(OpRecord{name, phase, matmul, flops, seconds, 1});
}

void OpProfiler::traceCall(const char *name, OpPhase phase, double flops, const OpShape &shape,
                           std::chrono::steady_clock::time_point start, std::chrono::steady_clock::time_point end)
{
    trace_->addOperator(name, phase, flops, shape, start, end);
}

double OpProfiler::totalFlops() const
{
    double total = 0;
    for (const OpRecord &r : records_)
        total += r.flops;
    return total;
}

double OpProfiler::matmulFlops() const
{
    double total = 0;
    for (const OpRecord &r : records_)
        if (r.matmul)
            total += r.flops;
    return total;
}

double OpProfiler::totalSeconds() const
{
    double total = 0;
    for (const OpRecord &r : records_)
        total += r.seconds;
    return total;
}

std::string OpProfiler::table() const
{
    std::string out;
    char line[200];
    const double all = totalSeconds();
    std::snprintf(line, sizeof line, "%-24s %-8s %6s %12s %10s %7s %9s\n", "op", "phase", "calls", "GFLOP", "seconds",
                  "share", "GFLOP/s");
    out += line;
    for (const OpRecord &r : records_) {
        std::snprintf(line, sizeof line, "%-24s %-8s %6lld %12.3f %10.4f %6.1f%% %9.1f\n", r.name,
                      r.phase == OpPhase::Forward ? "forward" : "backward", static_cast<long long>(r.calls),
                      r.flops * 1e-9, r.seconds, all > 0 ? 100.0 * r.seconds / all : 0.0,
                      r.seconds > 0 ? r.flops * 1e-9 / r.seconds : 0.0);
        out += line;
    }
    return out;
}

}  // namespace lse::reference
