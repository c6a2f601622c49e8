// SPDX-License-Identifier: GPL-3.0-or-later
// Temporaries that a run killed outright (SIGKILL, a power cut) left beside its outputs. FileWriter
// names its temporaries "<output>.llm-explorer-partial-XXXXXX" and holds an exclusive lock on each
// while it writes, so a temporary with that name and no lock is one no live run will finish.
// The next writer into the same folder reports them (never deletes them itself): the CLI prints a
// line on stderr, the GUI offers to remove them.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace lse {

inline constexpr const char *kPartialFileMarker = ".llm-explorer-partial-";

// "<output>.llm-explorer-partial-XXXXXX" for `output`: the template mkostemp fills in.
std::string partialFileTemplate(const std::string &output);

// Whether `name` (a file name, no folder) has the shape of a temporary of FileWriter.
bool isPartialFileName(const std::string &name);

struct StaleTemporary {
    std::string path;
    std::int64_t bytes = 0;
};

// The temporaries in `folder` that no live writer holds.
std::vector<StaleTemporary> staleTemporariesIn(const std::string &folder);

// Removes `path` only if it is a stale temporary of this program (name, a regular file, unlocked);
// false otherwise, with `error` saying why.
bool removeStaleTemporary(const std::string &path, std::string *error = nullptr);

// Who hears about stale temporaries that writers come across: called once per path per process.
// Nothing is reported until a reporter is set (the CLI's and the GUI's main() set one).
using StaleTemporaryReporter = std::function<void(const StaleTemporary &)>;
void setStaleTemporaryReporter(StaleTemporaryReporter reporter);
// Looks in `folder` and reports what it has not reported before.
void reportStaleTemporariesIn(const std::string &folder);

}  // namespace lse
