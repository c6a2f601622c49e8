// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers shared by the libFuzzer harnesses (tests/fuzz/fuzz_*.cpp): writing an input to a file
// for loaders that take a path, and an invariant check that stops the run with a message.
#pragma once

#include "common/problem.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace lse::fuzz {

// Writes `bytes` to `name` inside this process's scratch folder (created once under /dev/shm or
// $TMPDIR, removed at exit) and returns the path. Loaders are called with a path exactly as the app
// calls them, so their file checks (regular file, size cap, text check) are fuzzed too.
std::string writeScratchFile(const std::string &name, std::string_view bytes);
// That folder (for loaders that look a file up by name, such as $LSE_CACHE_DIR).
std::string scratchFolderPath();

// The input as text.
inline std::string_view asText(const std::uint8_t *data, std::size_t size)
{
    return {reinterpret_cast<const char *>(data), size};
}

// Aborts with `what` when `ok` is false: libFuzzer (and the replay runner) report the abort as a
// crash and keep the input.
void check(bool ok, const char *what);

// A failed load must say why: at least one problem, each naming a field and a rule, with a message.
void checkProblemsNameAField(const Problems &problems);

}  // namespace lse::fuzz
