// SPDX-License-Identifier: GPL-3.0-or-later
// How much memory this process can still get, and which limit says so: the one place every memory
// check asks (the reference model and trainer, bench-tokenizer, the machine measurement's arrays).
// Physical memory alone is not the answer: under `ulimit -v 4000000` a configuration that needed
// 10 GB of a 25 GB machine passed the check and then aborted with std::bad_alloc, and a container's
// cgroup limit kills the process long before the machine runs out.
#pragma once

#include <optional>
#include <string>

namespace lse {

// Which limit is the smallest.
enum class MemoryLimitKind {
    Unknown,       // nothing is known: no check can be made
    Physical,      // this machine's memory (sysconf _SC_PHYS_PAGES)
    AddressSpace,  // RLIMIT_AS (`ulimit -v`), less the address space already mapped
    Data,          // RLIMIT_DATA (`ulimit -d`), less the data segment already in use
    Cgroup,        // the memory limit of this process's cgroup or one of its ancestors
};

// What the system says, each figure in bytes; an absent limit is no limit.
struct MemoryLimitReadings {
    double physical_bytes = 0;  // 0 when unknown
    std::optional<double> address_space_limit_bytes;  // RLIMIT_AS soft limit
    double address_space_used_bytes = 0;              // VmSize of /proc/self/status
    std::optional<double> data_limit_bytes;           // RLIMIT_DATA soft limit
    double data_used_bytes = 0;                       // VmData of /proc/self/status
    std::optional<double> cgroup_limit_bytes;         // the smallest memory.max / memory.limit_in_bytes
    std::string cgroup_limit_file;                    // the file that set it
};

struct MemoryAvailable {
    double bytes = 0;  // 0 with Unknown
    MemoryLimitKind limit = MemoryLimitKind::Unknown;
    // The limit for a sentence that ends "... but <what>": "this machine has 25.28 GB of memory",
    // "the address-space limit (RLIMIT_AS, ulimit -v) of 4.10 GB leaves 3.79 GB (0.31 GB in use)".
    std::string what;
};

// The smallest of the readings' limits (an address-space or data limit less what is in use, never
// below 0). A cgroup limit counts whole: its usage includes page cache the kernel can reclaim.
MemoryAvailable smallestMemoryLimit(const MemoryLimitReadings &readings);

// The smallest memory limit of the cgroup that `proc_self_cgroup` (the text of /proc/self/cgroup)
// names, or of one of its ancestors, with the file that sets it: cgroup v2's memory.max under a
// cgroup2 mount, v1's memory.limit_in_bytes under the cgroup mount with the memory controller,
// mount points from `mountinfo` (the text of /proc/self/mountinfo), each prefixed with `root` (""
// for the real file system; a test's folder). "max" and v1's "no limit" (about 2^63) are no limit.
struct CgroupMemoryLimit {
    double bytes = 0;
    std::string file;
};
std::optional<CgroupMemoryLimit> cgroupMemoryLimit(const std::string &proc_self_cgroup, const std::string &mountinfo,
                                                   const std::string &root = {});

// This process's readings: sysconf, getrlimit, /proc/self/status, and the cgroup files under
// /sys/fs/cgroup for the cgroup /proc/self/cgroup names (v2 memory.max, v1 memory.limit_in_bytes),
// walking up to the root (a parent's limit binds its children). Figures the system does not give
// stay unknown.
MemoryLimitReadings readMemoryLimits();

// smallestMemoryLimit(readMemoryLimits()).
MemoryAvailable memoryAvailableToThisProcess();

// "1.23 GB" (decimal, as the project prints memory).
std::string formatMemoryBytes(double bytes);

}  // namespace lse
