// SPDX-License-Identifier: GPL-3.0-or-later
// Linked only into the sanitizer build's programs that mpiexec starts (the CLI, tests/mpi). Open
// MPI's components are built without frame pointers, so LeakSanitizer's fast unwinder stops at them
// and its reports of Open MPI's process-lifetime allocations name no library the suppressions
// (tests/sanitizers/lsan.supp) could match; the slow unwinder names them. It makes every allocation
// slower, so a process gets it only when mpiexec started it (Open MPI sets OMPI_COMM_WORLD_SIZE in
// each rank's environment). ASAN_OPTIONS, read after these defaults, still overrides them.
//
// Not through the environment: ASAN_OPTIONS reaches the test processes too (test_responsiveness
// took 499 s instead of 53 s), and Open MPI refuses OMPI_MCA_mca_base_env_list beside the -x the CLI
// passes to mpiexec.
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstddef>

namespace {

// /proc/self/environ and /proc/self/cmdline of the programs here are far smaller.
char buffer[1 << 20];

#define LSE_EARLY __attribute__((no_sanitize("address", "undefined"), optimize("no-tree-loop-distribute-patterns")))

// Reads a /proc file of NUL-separated strings into `buffer`; its size in bytes (0 when unreadable).
LSE_EARLY long readProcFile(const char *path)
{
    const long fd = syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    long size = 0;
    while (size < long(sizeof buffer)) {
        const long got = syscall(SYS_read, fd, buffer + size, sizeof buffer - std::size_t(size));
        if (got <= 0)
            break;
        size += got;
    }
    syscall(SYS_close, fd);
    return size;
}

// Whether one of the NUL-separated strings of buffer[0, size) is `word`, or starts with it followed
// by `then` (when `then` is not NUL). `first_only`: only the string at `first`.
LSE_EARLY bool hasString(long size, const char *word, char then, long first = 0, bool first_only = false)
{
    long length = 0;
    while (word[length] != '\0')
        ++length;
    long index = 0;
    for (long at = 0; at < size; ++index) {
        long matched = 0;
        while (matched < length && at + matched < size && buffer[at + matched] == word[matched])
            ++matched;
        const char next = at + matched < size ? buffer[at + matched] : '\0';
        if (index >= first && matched == length && (next == '\0' || (then != '\0' && next == then)))
            return true;
        if (first_only && index >= first)
            return false;
        while (at < size && buffer[at] != '\0')
            ++at;
        ++at;
    }
    return false;
}

}  // namespace

// AddressSanitizer calls this while it starts: before its shadow memory exists and before libc's
// getenv sees the environment (it returned null there). So no instrumentation, no libc string
// functions (they are intercepted) and no loops the compiler could turn into them: the environment
// and the command line are read from /proc with raw system calls and scanned by hand.
// The slow unwinder goes to a rank mpiexec started (OMPI_COMM_WORLD_SIZE is set) and to a CLI run
// that initialises MPI by itself as a single process (`links`, `train --dp/--tp/--pp`), which the
// tests run to see it refused.
extern "C" LSE_EARLY __attribute__((used, visibility("default"))) const char *__asan_default_options()
{
    static const char kSlow[] = "fast_unwind_on_malloc=0";
    if (hasString(readProcFile("/proc/self/environ"), "OMPI_COMM_WORLD_SIZE", '='))
        return kSlow;
    const long size = readProcFile("/proc/self/cmdline");
    if (hasString(size, "links", '\0', 1, true))
        return kSlow;
    static const char *const kMpiFlags[] = {"--dp", "--tp", "--pp"};
    for (const char *flag : kMpiFlags)
        if (hasString(size, flag, '=', 1))
            return kSlow;
    return "";
}
