// SPDX-License-Identifier: GPL-3.0-or-later
#include "fuzz_support.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <unistd.h>

namespace lse::fuzz {

namespace {

// /dev/shm keeps the per-input write off the disk: libFuzzer runs thousands of inputs a second.
// The path lives on the heap and is never freed: the exit handler that removes the folder runs
// after function-local statics are destroyed.
const std::filesystem::path &scratchFolder()
{
    static const std::filesystem::path *const folder = [] {
        const std::filesystem::path base = std::filesystem::exists("/dev/shm") ? std::filesystem::path("/dev/shm")
                                                                               : std::filesystem::temp_directory_path();
        auto *made = new std::filesystem::path(base / ("lse-fuzz-" + std::to_string(::getpid())));
        std::filesystem::create_directories(*made);
        std::atexit([] {
            std::error_code ignored;
            std::filesystem::remove_all(scratchFolder(), ignored);
        });
        return made;
    }();
    return *folder;
}

}  // namespace

std::string writeScratchFile(const std::string &name, std::string_view bytes)
{
    const std::filesystem::path path = scratchFolder() / name;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    out.close();
    check(out.good(), "the fuzz input could not be written to the scratch folder");
    return path.string();
}

std::string scratchFolderPath() { return scratchFolder().string(); }

void check(bool ok, const char *what)
{
    if (ok)
        return;
    std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
    std::abort();
}

void checkProblemsNameAField(const Problems &problems)
{
    check(!problems.empty(), "a failed load returned no problem");
    for (const Problem &problem : problems) {
        check(!problem.field.empty(), "a problem names no field");
        check(!problem.rule.empty(), "a problem names no rule");
        check(!problem.message.empty(), "a problem has no message");
    }
}

}  // namespace lse::fuzz
