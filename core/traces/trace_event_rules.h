// SPDX-License-Identifier: GPL-3.0-or-later
// The rules both of TraceBuilder's event paths apply (the purpose-built reader and QJsonDocument):
// which categories are read as what, the ProfilerStep#N names, the bounds on times, and how a
// named thread becomes an id. One place, so that the two paths cannot drift apart.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace lse::traces::event_rules {

// Bounded so that every sum of times stays exact enough and finite: ±1e17 µs is 3 000 years from
// the epoch, and no event lasts 30 years (1e15 µs).
inline constexpr double kMaxTimestampUs = 1e17;
inline constexpr double kMaxDurationUs = 1e15;

enum class EventKind { Kernel, Memcpy, Memset, CpuOp, Annotation, Runtime, Ignored };

inline EventKind kindOf(std::string_view cat)
{
    if (cat == "kernel")
        return EventKind::Kernel;
    if (cat == "gpu_memcpy")
        return EventKind::Memcpy;
    if (cat == "gpu_memset")
        return EventKind::Memset;
    if (cat == "cpu_op" || cat == "operator")
        return EventKind::CpuOp;
    if (cat == "user_annotation")
        return EventKind::Annotation;
    if (cat == "cuda_runtime" || cat == "cuda_driver" || cat == "runtime")
        return EventKind::Runtime;
    return EventKind::Ignored;
}

// N of "ProfilerStep#N"; nothing for other names.
inline std::optional<std::int64_t> stepNumberOf(std::string_view name)
{
    static constexpr std::string_view kPrefix = "ProfilerStep#";
    if (name.substr(0, kPrefix.size()) != kPrefix || name.size() == kPrefix.size() || name.size() > kPrefix.size() + 15)
        return std::nullopt;
    std::int64_t n = 0;
    for (char c : name.substr(kPrefix.size())) {
        if (c < '0' || c > '9')
            return std::nullopt;
        n = n * 10 + (c - '0');
    }
    return n;
}

// N of a process named "rank N" (N a whole number of at most 9 digits): how our distributed export
// (core/reference/chrome_trace_writer.h) names each rank's process in its process_name metadata.
// Nothing for other names ("python3", "GPU 0", "pyper:trainer:0:1").
inline std::optional<int> rankOfProcessName(std::string_view name)
{
    static constexpr std::string_view kPrefix = "rank ";
    if (name.substr(0, kPrefix.size()) != kPrefix || name.size() == kPrefix.size() || name.size() > kPrefix.size() + 9)
        return std::nullopt;
    int n = 0;
    for (char c : name.substr(kPrefix.size())) {
        if (c < '0' || c > '9')
            return std::nullopt;
        n = n * 10 + (c - '0');
    }
    return n;
}

// A recorded args.flops / args.bytes the importer uses: a finite number ≥ 0.
inline bool usableRecordedCount(double value) { return value >= 0 && value <= 1e300; }

// A pid/tid given as a number: the number when it is finite and below 9e15 in size, else -1.
inline std::int64_t threadIdOfNumber(double d)
{
    if (d == d && d > -9.0e15 && d < 9.0e15)
        return static_cast<std::int64_t>(d);
    return -1;
}

// A pid/tid given as a name ("Spans", "CPU functions"): a stable id from its text.
inline std::int64_t threadIdOfName(const std::string &name)
{
    return static_cast<std::int64_t>(std::hash<std::string>{}(name) >> 2);
}

}  // namespace lse::traces::event_rules
