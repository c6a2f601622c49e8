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
#include <cstdlib>

// AddressSanitizer calls it while it starts, before its shadow memory exists: not instrumented.
extern "C" __attribute__((no_sanitize("address", "undefined"), used, visibility("default")))
const char *__asan_default_options()
{
    return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr ? "fast_unwind_on_malloc=0" : "";
}
