// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/folder_lock.h"

#include <cerrno>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lse {

namespace {

std::string readHolder(int fd)
{
    char text[256] = {};
    const ssize_t got = ::pread(fd, text, sizeof text - 1, 0);
    std::string holder = got > 0 ? std::string(text, static_cast<std::size_t>(got)) : std::string();
    while (!holder.empty() && (holder.back() == '\n' || holder.back() == '\r'))
        holder.pop_back();
    return holder;
}

}  // namespace

FolderLock::FolderLock(FolderLock &&other) noexcept
    : fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_))
{
}

FolderLock &FolderLock::operator=(FolderLock &&other) noexcept
{
    if (this != &other) {
        release();
        fd_ = std::exchange(other.fd_, -1);
        path_ = std::move(other.path_);
    }
    return *this;
}

FolderLock::~FolderLock() { release(); }

Result<FolderLock> FolderLock::acquire(const std::string &folder, const std::string &field, const std::string &holder)
{
    const std::string path = (folder.empty() ? std::string(".") : folder) + "/" + kFolderLockFileName;
    // A holder removes the file when it lets go; a run that opened the file just before that has
    // locked a file no longer in the folder, so it checks and tries again.
    for (int attempt = 0; attempt < 5; ++attempt) {
        const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (fd < 0)
            return Result<FolderLock>::failure(field, "unwritable",
                                               field + " '" + folder + "': cannot create the lock file " +
                                                   kFolderLockFileName + " (" + std::strerror(errno) + ").");
        if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
            const int error = errno;
            std::string other = readHolder(fd);
            ::close(fd);
            if (error != EWOULDBLOCK)
                return Result<FolderLock>::failure(field, "unwritable",
                                                   field + " '" + folder + "': cannot lock the folder (" +
                                                       std::strerror(error) + ").");
            return Result<FolderLock>::failure(
                field, "busy",
                field + " '" + folder + "' is being written by another run" +
                    (other.empty() ? std::string() : " (" + other + ")") +
                    "; wait for it to finish or choose another folder.");
        }
        struct stat held {}, named {};
        if (::fstat(fd, &held) == 0 && ::stat(path.c_str(), &named) == 0 && held.st_dev == named.st_dev &&
            held.st_ino == named.st_ino) {
            const std::string text = holder + ", process " + std::to_string(::getpid()) + "\n";
            if (::ftruncate(fd, 0) == 0)
                (void)!::pwrite(fd, text.data(), text.size(), 0);  // only for the other run's message
            FolderLock lock;
            lock.fd_ = fd;
            lock.path_ = path;
            return lock;
        }
        ::close(fd);
    }
    return Result<FolderLock>::failure(field, "busy",
                                       field + " '" + folder + "': the folder's lock keeps changing hands; another "
                                                               "run is writing it. Try again when it has finished.");
}

void FolderLock::release()
{
    if (fd_ < 0)
        return;
    ::unlink(path_.c_str());  // while still locked: nobody else can hold this file now
    ::close(std::exchange(fd_, -1));
    path_.clear();
}

}  // namespace lse
