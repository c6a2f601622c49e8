// SPDX-License-Identifier: GPL-3.0-or-later
// One writer per output folder. Two train-bpe runs into one --out could leave vocab.json of one
// and merges.txt of the other (each file is replaced atomically, the pair is not), and two train
// runs into one --checkpoint-dir interleaved their step files. A run that writes a folder of
// files that belong together holds this lock for as long as it writes; a second run finds the
// first one live and refuses, naming it.
//
// The lock is flock() on a small file in the folder (".llm-explorer-lock"), which the kernel
// releases when the holder ends however it ends (kill -9 included), so a lock is never stale; the
// file itself is removed when the lock is released.
#pragma once

#include "common/problem.h"

#include <string>

namespace lse {

inline constexpr const char *kFolderLockFileName = ".llm-explorer-lock";

class FolderLock {
public:
    FolderLock() = default;
    FolderLock(FolderLock &&other) noexcept;
    FolderLock &operator=(FolderLock &&other) noexcept;
    FolderLock(const FolderLock &) = delete;
    FolderLock &operator=(const FolderLock &) = delete;
    ~FolderLock();

    // Takes the lock on `folder` (which must exist) for this process; `holder` says who holds it
    // ("llm-explorer-cli train-bpe") in the message a second writer gets. Problem {field, "busy"}
    // when another live process holds it, {field, "unwritable"} when the lock file cannot be made.
    static Result<FolderLock> acquire(const std::string &folder, const std::string &field, const std::string &holder);

    bool held() const { return fd_ >= 0; }
    void release();

private:
    int fd_ = -1;
    std::string path_;
};

}  // namespace lse
