// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/stale_temporaries.h"

#include <cerrno>
#include <cstring>
#include <mutex>
#include <set>

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lse {

namespace {

constexpr std::size_t kRandomChars = 6;  // mkostemp's XXXXXX

std::string joinPath(const std::string &folder, const std::string &name)
{
    return folder.empty() || folder.back() == '/' ? folder + name : folder + "/" + name;
}

// True when `path` is a regular file that nobody holds a lock on; `bytes` gets its size.
bool unlockedRegularFile(const std::string &path, std::int64_t *bytes)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0)
        return false;
    struct stat st {};
    bool stale = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ::flock(fd, LOCK_SH | LOCK_NB) == 0;
    if (bytes)
        *bytes = st.st_size;
    ::close(fd);  // drops the shared lock taken for the test
    return stale;
}

struct Reporting {
    std::mutex mutex;
    StaleTemporaryReporter reporter;
    std::set<std::string> reported;
};

Reporting &reporting()
{
    static Reporting instance;
    return instance;
}

}  // namespace

std::string partialFileTemplate(const std::string &output) { return output + kPartialFileMarker + "XXXXXX"; }

bool isPartialFileName(const std::string &name)
{
    const std::size_t at = name.rfind(kPartialFileMarker);
    return at != std::string::npos && at > 0 && name.size() == at + std::strlen(kPartialFileMarker) + kRandomChars;
}

std::vector<StaleTemporary> staleTemporariesIn(const std::string &folder)
{
    std::vector<StaleTemporary> found;
    DIR *dir = ::opendir(folder.empty() ? "." : folder.c_str());
    if (!dir)
        return found;
    while (const dirent *entry = ::readdir(dir)) {
        const std::string name = entry->d_name;
        if (!isPartialFileName(name))
            continue;
        StaleTemporary stale{joinPath(folder, name)};
        if (unlockedRegularFile(stale.path, &stale.bytes))
            found.push_back(std::move(stale));
    }
    ::closedir(dir);
    return found;
}

bool removeStaleTemporary(const std::string &path, std::string *error)
{
    const std::size_t slash = path.rfind('/');
    const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    const auto fail = [error](std::string why) {
        if (error)
            *error = std::move(why);
        return false;
    };
    if (!isPartialFileName(name))
        return fail("'" + path + "' is not a temporary file of this program; it was left alone.");
    if (!unlockedRegularFile(path, nullptr))
        return fail("'" + path + "' is in use by a running program, or is not a regular file; it was left alone.");
    if (::unlink(path.c_str()) != 0)
        return fail("cannot remove '" + path + "' (" + std::strerror(errno) + ").");
    return true;
}

void setStaleTemporaryReporter(StaleTemporaryReporter reporter)
{
    Reporting &r = reporting();
    const std::lock_guard lock(r.mutex);
    r.reporter = std::move(reporter);
}

void reportStaleTemporariesIn(const std::string &folder)
{
    Reporting &r = reporting();
    {
        const std::lock_guard lock(r.mutex);
        if (!r.reporter)
            return;
    }
    for (const StaleTemporary &stale : staleTemporariesIn(folder)) {
        StaleTemporaryReporter reporter;
        {
            const std::lock_guard lock(r.mutex);
            if (!r.reported.insert(stale.path).second)
                continue;
            reporter = r.reporter;
        }
        if (reporter)
            reporter(stale);
    }
}

}  // namespace lse
