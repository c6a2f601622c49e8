// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/memory_limit.h"

#include "common/file_bytes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

#include <sys/resource.h>
#include <unistd.h>

namespace lse {

namespace {

// The text of a small system file, or nothing (files of /proc and /sys state 0 or 4096 bytes and
// are read to their end by readFileBytes).
std::optional<std::string> readSystemFile(const std::string &path)
{
    const Result<QByteArray> bytes = readFileBytes(path, FileKind::Config);
    if (!bytes)
        return std::nullopt;
    return std::string(bytes->constData(), static_cast<std::size_t>(bytes->size()));
}

std::vector<std::string> splitOn(const std::string &text, char separator)
{
    std::vector<std::string> parts;
    std::string part;
    std::istringstream in(text);
    while (std::getline(in, part, separator))
        parts.push_back(part);
    return parts;
}

// "VmSize:   123456 kB" of /proc/self/status, in bytes; 0 when absent.
double statusKilobytes(const std::string &status, const std::string &key)
{
    for (const std::string &line : splitOn(status, '\n'))
        if (line.compare(0, key.size() + 1, key + ":") == 0) {
            double kilobytes = 0;
            if (std::sscanf(line.c_str() + key.size() + 1, "%lf", &kilobytes) == 1)
                return kilobytes * 1024.0;
        }
    return 0;
}

std::optional<double> softLimit(int resource)
{
    rlimit limit{};
    if (::getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return std::nullopt;
    return static_cast<double>(limit.rlim_cur);
}

// A cgroup limit file's value: "max" or v1's page-rounded 2^63 - 1 mean none.
std::optional<double> limitValue(const std::string &text)
{
    double value = 0;
    if (text.compare(0, 3, "max") == 0 || std::sscanf(text.c_str(), "%lf", &value) != 1 || !(value > 0) || value >= 0x1p62)
        return std::nullopt;
    return value;
}

struct CgroupMount {
    std::string root;         // the hierarchy's path mounted there ("/" unless in a namespace)
    std::string mount_point;  // where it is mounted
};

// The cgroup2 mount, and the v1 mount with the memory controller, from /proc/self/mountinfo:
// "ID parent major:minor root mount-point options [optional...] - fstype source super-options".
void findMounts(const std::string &mountinfo, std::optional<CgroupMount> &v2, std::optional<CgroupMount> &v1)
{
    for (const std::string &line : splitOn(mountinfo, '\n')) {
        std::istringstream in(line);
        std::vector<std::string> fields;
        for (std::string field; in >> field;)
            fields.push_back(field);
        const auto dash = std::find(fields.begin(), fields.end(), "-");
        if (fields.size() < 5 || dash == fields.end() || dash + 1 == fields.end())
            continue;
        const std::string &type = *(dash + 1);
        const std::string options = dash + 3 < fields.end() ? *(dash + 3) : std::string();
        if (type == "cgroup2" && !v2)
            v2 = CgroupMount{fields[3], fields[4]};
        else if (type == "cgroup" && !v1)
            for (const std::string &option : splitOn(options, ','))
                if (option == "memory")
                    v1 = CgroupMount{fields[3], fields[4]};
    }
}

// The smallest limit in `file_name` of the cgroup at `path` (relative to the hierarchy) and its
// ancestors, under the mount.
void smallestOnTheWayUp(const std::string &root, const CgroupMount &mount, std::string path, const std::string &file_name,
                        std::optional<CgroupMemoryLimit> &best)
{
    // A path under the mount's root is relative to it; one outside it (a namespace) is not visible
    // and the mount's own root stands for it.
    if (mount.root != "/" && path.compare(0, mount.root.size(), mount.root) == 0)
        path = path.substr(mount.root.size());
    else if (mount.root != "/")
        path = "/";
    for (;;) {
        const std::string file = root + mount.mount_point + (path == "/" ? std::string() : path) + "/" + file_name;
        if (const std::optional<std::string> text = readSystemFile(file))
            if (const std::optional<double> value = limitValue(*text); value && (!best || *value < best->bytes))
                best = CgroupMemoryLimit{*value, file};
        if (path.empty() || path == "/")
            break;
        const std::size_t slash = path.find_last_of('/');
        path = slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
    }
}

}  // namespace

std::string formatMemoryBytes(double bytes)
{
    static const char *const units[] = {"B", "KB", "MB", "GB", "TB", "PB", "EB"};
    int unit = 0;
    while (std::fabs(bytes) >= 1000 && unit < 6) {
        bytes /= 1000;
        ++unit;
    }
    char text[64];
    std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.2f %s", bytes, units[unit]);
    return text;
}

MemoryAvailable smallestMemoryLimit(const MemoryLimitReadings &r)
{
    MemoryAvailable best;
    const auto consider = [&best](double bytes, MemoryLimitKind kind, const std::string &what) {
        bytes = std::max(bytes, 0.0);
        if (best.limit == MemoryLimitKind::Unknown || bytes < best.bytes)
            best = MemoryAvailable{bytes, kind, what};
    };
    if (r.physical_bytes > 0)
        consider(r.physical_bytes, MemoryLimitKind::Physical, "this machine has " + formatMemoryBytes(r.physical_bytes) + " of memory");
    if (r.address_space_limit_bytes) {
        const double left = *r.address_space_limit_bytes - r.address_space_used_bytes;
        consider(left, MemoryLimitKind::AddressSpace,
                 "the address-space limit (RLIMIT_AS, ulimit -v) of " + formatMemoryBytes(*r.address_space_limit_bytes) +
                     " leaves " + formatMemoryBytes(std::max(left, 0.0)) + " (" +
                     formatMemoryBytes(r.address_space_used_bytes) + " in use)");
    }
    if (r.data_limit_bytes) {
        const double left = *r.data_limit_bytes - r.data_used_bytes;
        consider(left, MemoryLimitKind::Data,
                 "the data-segment limit (RLIMIT_DATA, ulimit -d) of " + formatMemoryBytes(*r.data_limit_bytes) + " leaves " +
                     formatMemoryBytes(std::max(left, 0.0)) + " (" + formatMemoryBytes(r.data_used_bytes) + " in use)");
    }
    if (r.cgroup_limit_bytes)
        consider(*r.cgroup_limit_bytes, MemoryLimitKind::Cgroup,
                 "the cgroup memory limit is " + formatMemoryBytes(*r.cgroup_limit_bytes) + " (" + r.cgroup_limit_file + ")");
    return best;
}

std::optional<CgroupMemoryLimit> cgroupMemoryLimit(const std::string &proc_self_cgroup, const std::string &mountinfo,
                                                   const std::string &root)
{
    std::optional<CgroupMount> v2, v1;
    findMounts(mountinfo, v2, v1);
    std::optional<CgroupMemoryLimit> best;
    // Lines "hierarchy-ID:controllers:path": "0::/path" is cgroup v2, "N:...memory...:/path" v1's.
    for (const std::string &line : splitOn(proc_self_cgroup, '\n')) {
        const std::size_t first = line.find(':');
        const std::size_t second = first == std::string::npos ? std::string::npos : line.find(':', first + 1);
        if (second == std::string::npos)
            continue;
        const std::string controllers = line.substr(first + 1, second - first - 1);
        const std::string path = line.substr(second + 1);
        if (controllers.empty() && line.compare(0, first, "0") == 0 && v2)
            smallestOnTheWayUp(root, *v2, path, "memory.max", best);
        else if (v1)
            for (const std::string &controller : splitOn(controllers, ','))
                if (controller == "memory")
                    smallestOnTheWayUp(root, *v1, path, "memory.limit_in_bytes", best);
    }
    return best;
}

MemoryLimitReadings readMemoryLimits()
{
    MemoryLimitReadings r;
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long pageSize = ::sysconf(_SC_PAGESIZE);
    r.physical_bytes = pages > 0 && pageSize > 0 ? double(pages) * double(pageSize) : 0.0;
    r.address_space_limit_bytes = softLimit(RLIMIT_AS);
    r.data_limit_bytes = softLimit(RLIMIT_DATA);
    if (r.address_space_limit_bytes || r.data_limit_bytes)
        if (const std::optional<std::string> status = readSystemFile("/proc/self/status")) {
            r.address_space_used_bytes = statusKilobytes(*status, "VmSize");
            r.data_used_bytes = statusKilobytes(*status, "VmData");
        }
    const std::optional<std::string> cgroup = readSystemFile("/proc/self/cgroup");
    const std::optional<std::string> mountinfo = readSystemFile("/proc/self/mountinfo");
    if (cgroup && mountinfo)
        if (const std::optional<CgroupMemoryLimit> limit = cgroupMemoryLimit(*cgroup, *mountinfo)) {
            r.cgroup_limit_bytes = limit->bytes;
            r.cgroup_limit_file = limit->file;
        }
    return r;
}

MemoryAvailable memoryAvailableToThisProcess() { return smallestMemoryLimit(readMemoryLimits()); }

}  // namespace lse
