// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/file_writer.h"

#include "common/input_files.h"
#include "common/interrupt_cleanup.h"
#include "common/stale_temporaries.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lse {

namespace {

std::string folderOf(const std::string &path)
{
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

// A rename is durable once the folder's entry is on disk; file systems that cannot sync a folder
// say so with an error that changes nothing about the files, so it is ignored.
void syncFolderOf(const std::string &path)
{
    const int fd = ::open(folderOf(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

// What a new file gets from open(…, 0666): 0666 minus the umask (mkstemp makes it 0600).
mode_t newFileMode()
{
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return 0666 & ~mask;
}

std::string whatItIs(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISFIFO(mode))
        return "a pipe (FIFO)";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

// The file a save through `path` replaces: the path itself, or what a symbolic link there names
// (saving through a link replaces its target and keeps the link, as QSaveFile did).
std::string replacedFile(const std::string &path)
{
    struct stat entry {};
    if (::lstat(path.c_str(), &entry) == 0 && S_ISLNK(entry.st_mode))
        if (char *resolved = ::realpath(path.c_str(), nullptr)) {
            std::string target = resolved;
            std::free(resolved);
            return target;
        }
    return path;
}

// Rule and message when `target` (reached through `path`) may not be replaced, or nothing.
std::optional<Problem> replaceProblem(const std::string &path, const std::string &target, bool mayReplaceInput)
{
    struct stat st {};
    if (::stat(target.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        const std::string via = target == path ? std::string() : " (the link names '" + target + "')";
        return Problem{path, "not_a_file",
                       "'" + path + "' is " + whatItIs(st.st_mode) + via +
                           "; an output must be a regular file or a new name, so it was left as it is. "
                           "Choose a file name."};
    }
    if (!mayReplaceInput)
        if (const std::optional<RegisteredInput> input = registeredInputAt(target)) {
            const std::string same = input->path == path ? std::string() : " ('" + input->path + "')";
            return Problem{path, "same_file",
                           "'" + path + "' is " + input->description + same +
                               "; writing it would destroy the input. Choose another output file."};
        }
    return std::nullopt;
}

}  // namespace

std::optional<Problem> outputPathProblem(const std::string &path)
{
    return replaceProblem(path, replacedFile(path), false);
}

FileWriter::FileWriter(std::string path, Durability durability) : path_(std::move(path)), durability_(durability) {}

FileWriter::~FileWriter()
{
    if (!replaced_)
        cancel();
}

bool FileWriter::fail(const char *what, int error)
{
    failed_action_ = std::string("cannot ") + what;
    system_error_ = std::strerror(error);
    error_ = failed_action_ + " '" + path_ + "' (" + system_error_ + ")";
    return false;
}

bool FileWriter::refuse(std::string rule, std::string message)
{
    rule_ = std::move(rule);
    failed_action_.clear();
    system_error_.clear();
    error_ = std::move(message);
    return false;
}

Problem FileWriter::problem() const
{
    if (rule_ != "unwritable")
        return Problem{path_, rule_, error_};
    return Problem{path_, "unwritable", path_ + ": " + failed_action_ + " (" + system_error_ + ")."};
}

bool FileWriter::targetIsWritable()
{
    if (const std::optional<Problem> problem = replaceProblem(path_, target_, may_replace_input_))
        return refuse(problem->rule, problem->message);
    return true;
}

bool FileWriter::open()
{
    // The temporary goes beside the file that is replaced, so that the rename stays in one folder.
    target_ = replacedFile(path_);
    rule_ = "unwritable";
    if (!targetIsWritable())
        return false;
    reportStaleTemporariesIn(folderOf(target_));
    std::string name = partialFileTemplate(target_);
    {
        // Created and registered with the terminating signals held: one between the two would
        // leave this temporary behind.
        const TerminatingSignalsHeld held;
        fd_ = ::mkostemp(name.data(), O_CLOEXEC);
        if (fd_ >= 0)
            cleanup_slot_ = registerTemporaryForCleanup(name);
    }
    if (fd_ < 0)
        return fail("create a file beside", errno);
    temp_path_ = std::move(name);
    // Held until the file is complete: tells a later run that this temporary is not stale.
    ::flock(fd_, LOCK_EX | LOCK_NB);
    return true;
}

bool FileWriter::write(const void *data, std::size_t size)
{
    if (fd_ < 0 || finished_)
        return fail("write", EBADF);
    const auto *p = static_cast<const char *>(data);
    while (size > 0) {
        const ssize_t written = ::write(fd_, p, size);
        if (written < 0 && errno == EINTR)
            continue;
        if (written < 0)
            return fail("write", errno);
        if (written == 0)  // no progress and no error: treat as a full disk rather than loop
            return fail("write", ENOSPC);
        p += written;
        size -= static_cast<std::size_t>(written);
    }
    return true;
}

bool FileWriter::finish()
{
    if (finished_)
        return true;
    if (fd_ < 0)
        return fail("write", EBADF);
    // The permissions of the file being replaced, or those of a plain new file.
    struct stat old {};
    ::fchmod(fd_, ::stat(target_.c_str(), &old) == 0 ? (old.st_mode & 07777) : newFileMode());
    // File systems that allocate late (NFS, some FUSE ones) report a full disk only here.
    if (durability_ == Durability::SyncToDisk && ::fsync(fd_) != 0) {
        const int error = errno;
        if (error != EINVAL && error != ENOTSUP)  // nothing to sync on a special file system
            return fail("flush", error);
    }
    const int fd = std::exchange(fd_, -1);
    if (::close(fd) != 0 && errno != EINTR)
        return fail("finish writing", errno);
    finished_ = true;
    return true;
}

bool FileWriter::replace()
{
    if (!finish())
        return false;
    // Checked again at the last moment: the target may have become a FIFO or an input meanwhile.
    if (!targetIsWritable()) {
        cancel();
        return false;
    }
    {
        // Renamed and unregistered with the terminating signals held, so the handler never
        // unlinks a name that is no longer this run's temporary.
        const TerminatingSignalsHeld held;
        if (std::rename(temp_path_.c_str(), target_.c_str()) != 0)
            return fail("replace", errno);
        replaced_ = true;
        unregisterTemporaryForCleanup(std::exchange(cleanup_slot_, -1));
    }
    if (durability_ == Durability::SyncToDisk)
        syncFolderOf(target_);
    return true;
}

void FileWriter::cancel()
{
    if (fd_ >= 0)
        ::close(std::exchange(fd_, -1));
    if (!temp_path_.empty() && !replaced_)
        ::unlink(temp_path_.c_str());
    unregisterTemporaryForCleanup(std::exchange(cleanup_slot_, -1));
    temp_path_.clear();
}

Result<bool> writeFileReplacing(const std::string &path, std::string_view bytes, InputReplacement replacement)
{
    FileWriter file(path);
    if (replacement == InputReplacement::AllowedForOwnFile)
        file.allowReplacingInput();
    if (!file.open() || !file.write(bytes.data(), bytes.size()) || !file.replace())
        return Problems{file.problem()};
    return true;
}

Result<bool> writeFilesTogether(const std::vector<std::pair<std::string, std::string_view>> &files)
{
    std::vector<std::unique_ptr<FileWriter>> writers;
    for (const auto &[path, bytes] : files) {
        writers.push_back(std::make_unique<FileWriter>(path));
        FileWriter &file = *writers.back();
        if (!file.open() || !file.write(bytes.data(), bytes.size()) || !file.finish())
            return Problems{file.problem()};  // every temporary is removed; no final name touched
    }
    // Every new file is complete. Hard links keep the old files reachable while the new ones are
    // renamed in, so that a failed rename can put back the ones already replaced.
    std::vector<std::string> backups(files.size());
    std::vector<bool> existed(files.size(), true);
    const auto dropBackups = [&backups] {
        for (const std::string &backup : backups)
            if (!backup.empty())
                ::unlink(backup.c_str());
    };
    for (std::size_t i = 0; i < writers.size(); ++i) {
        const std::string backup = writers[i]->temporaryPath() + ".old";
        if (::link(writers[i]->targetPath().c_str(), backup.c_str()) == 0) {
            backups[i] = backup;
        } else if (errno == ENOENT) {
            existed[i] = false;
        } else if (errno != EPERM && errno != ENOTSUP) {
            // An old file that cannot be kept for an unexpected reason: stop before changing any.
            // (A file system without hard links, such as FAT, replaces without the safety net.)
            const int error = errno;
            dropBackups();
            return Result<bool>::failure(writers[i]->path(), "unwritable",
                                         writers[i]->path() + ": cannot keep the old file while replacing it (" +
                                             std::strerror(error) + ").");
        }
    }
    for (std::size_t i = 0; i < writers.size(); ++i) {
        if (writers[i]->replace())
            continue;
        for (std::size_t j = 0; j < i; ++j) {
            const std::string &target = writers[j]->targetPath();
            if (!backups[j].empty() && std::rename(backups[j].c_str(), target.c_str()) == 0)
                backups[j].clear();
            else if (!existed[j])
                ::unlink(target.c_str());
        }
        dropBackups();
        return Problems{writers[i]->problem()};
    }
    dropBackups();
    return true;
}

}  // namespace lse
