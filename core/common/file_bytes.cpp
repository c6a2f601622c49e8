// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/file_bytes.h"

#include "common/input_files.h"

#include <QFile>
#include <QString>
#include <QStringDecoder>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace lse {

namespace {

constexpr std::int64_t kMiB = std::int64_t{1} << 20;

// A file descriptor closed when it goes out of scope unless released.
class OwnedFd {
public:
    explicit OwnedFd(int fd) : fd_(fd) {}
    OwnedFd(const OwnedFd &) = delete;
    OwnedFd &operator=(const OwnedFd &) = delete;
    ~OwnedFd()
    {
        if (fd_ >= 0)
            ::close(fd_);
    }
    int get() const { return fd_; }
    int release() { return std::exchange(fd_, -1); }

private:
    int fd_;
};

Problem unreadable(const std::string &path, int error)
{
    return Problem{path, "unreadable", path + ": cannot open (" + std::strerror(error) + ")."};
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
        return "a pipe";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a plain file";
}

// The checks of regularFileProblem on an open descriptor, so that the file checked is the file read.
std::optional<Problem> openedFileProblem(int fd, const std::string &path, FileKind kind, std::int64_t *size)
{
    struct stat st {};
    if (::fstat(fd, &st) != 0)
        return unreadable(path, errno);
    if (!S_ISREG(st.st_mode))
        return Problem{path, "not_a_file",
                       path + ": is not a regular file (" + whatItIs(st.st_mode) + "); a " + fileKindName(kind) +
                           " must be a regular file."};
    if (st.st_size > maxFileBytes(kind))
        return Problem{path, "too_large",
                       path + ": " + std::to_string(st.st_size) + " bytes is more than a " + fileKindName(kind) +
                           " can be (at most " + std::to_string(maxFileBytes(kind) / kMiB) + " MiB)."};
    if (size)
        *size = st.st_size;
    return std::nullopt;
}

// O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer before fstat can refuse it.
int openForReading(const std::string &path)
{
    return ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
}

// A file compiled into the program (":/samples/tiny_stories_generated.txt"): Qt's resource system
// holds it, not the file system, so POSIX open() cannot find it. Resources are the program's own
// bounded files; they are read through QFile under the same size cap as any other file.
bool isResourcePath(const std::string &path) { return path.size() > 2 && path[0] == ':' && path[1] == '/'; }

Result<QByteArray> readResourceBytes(const std::string &path, FileKind kind)
{
    QFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::ReadOnly))
        return Problems{Problem{path, "unreadable", path + ": cannot open (no such file compiled into the program)."}};
    if (file.size() > maxFileBytes(kind))
        return Problems{Problem{path, "too_large",
                                path + ": " + std::to_string(file.size()) + " bytes is more than a " +
                                    fileKindName(kind) + " can be (at most " +
                                    std::to_string(maxFileBytes(kind) / kMiB) + " MiB)."}};
    return file.readAll();
}

}  // namespace

std::int64_t maxFileBytes(FileKind kind)
{
    switch (kind) {
    // A scenario or config.json is a few KiB; 16 MiB leaves room for any hand-written file.
    case FileKind::Config: return 16 * kMiB;
    // The largest published tokenizer.json files (256k-token vocabularies) are about 35 MB.
    case FileKind::Tokenizer: return 512 * kMiB;
    // Read into memory whole and then copied into the model: the reference transformer's largest
    // sensible configuration stays far below this.
    case FileKind::Checkpoint: return 4096 * kMiB;
    // Streamed or memory-mapped, never copied whole: bounded by the disk, not by memory.
    case FileKind::Data: return std::int64_t{1} << 50;
    // Held whole as a string and tokenized in the window: far beyond what a CPU run trains on.
    case FileKind::Text: return 256 * kMiB;
    }
    return 0;
}

std::string fileKindName(FileKind kind)
{
    switch (kind) {
    case FileKind::Config: return "configuration file";
    case FileKind::Tokenizer: return "tokenizer file";
    case FileKind::Checkpoint: return "checkpoint file";
    case FileKind::Data: return "data file";
    case FileKind::Text: return "text file";
    }
    return "file";
}

std::optional<Problem> regularFileProblem(const std::string &path, FileKind kind)
{
    if (isResourcePath(path)) {
        const Result<QByteArray> bytes = readResourceBytes(path, kind);
        return bytes ? std::nullopt : std::optional<Problem>(bytes.problems().front());
    }
    const OwnedFd fd(openForReading(path));
    if (fd.get() < 0)
        return unreadable(path, errno);
    return openedFileProblem(fd.get(), path, kind, nullptr);
}

std::optional<Problem> textFileProblem(const QByteArray &bytes, const std::string &path)
{
    const std::string prefix = "'" + path + "': ";
    if (bytes.isEmpty())
        return Problem{"file", "empty", prefix + "empty file (0 bytes)"};
    if (const qsizetype nul = bytes.indexOf('\0'); nul >= 0)
        return Problem{"file", "binary", prefix + "not a text file (a NUL byte at offset " + std::to_string(nul) + ")"};
    QStringDecoder utf8(QStringDecoder::Utf8);
    const QString decoded = utf8.decode(bytes);
    if (utf8.hasError())
        return Problem{"file", "binary", prefix + "not a text file (not valid UTF-8)"};
    return std::nullopt;
}

Result<QByteArray> readFileBytes(const std::string &path, FileKind kind)
{
    if (isResourcePath(path))
        return readResourceBytes(path, kind);
    const OwnedFd fd(openForReading(path));
    if (fd.get() < 0)
        return Problems{unreadable(path, errno)};
    std::int64_t size = 0;
    if (std::optional<Problem> problem = openedFileProblem(fd.get(), path, kind, &size))
        return Problems{*problem};
    noteInputFileOpened(fd.get(), path);
    // Read until the end of the file, at most one byte past the cap: a file still growing past its
    // cap is refused. fstat's size is only where to start: files of /proc and /sys say 0 bytes and
    // still hold text (/proc/cpuinfo), so the buffer grows until read() says the file ended.
    const std::int64_t cap = maxFileBytes(kind) + 1;
    QByteArray bytes(static_cast<qsizetype>(std::min(size + 1, cap)), Qt::Uninitialized);
    std::int64_t done = 0;
    while (done < cap) {
        if (done == bytes.size())
            bytes.resize(static_cast<qsizetype>(std::min<std::int64_t>(cap, std::max<std::int64_t>(4096, done * 2))));
        const ssize_t got = ::read(fd.get(), bytes.data() + done, static_cast<std::size_t>(bytes.size() - done));
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return Problems{Problem{path, "unreadable", path + ": cannot read (" + std::strerror(errno) + ")."}};
        if (got == 0)
            break;
        done += got;
    }
    if (done > maxFileBytes(kind))
        return Problems{Problem{path, "too_large",
                                path + ": grew past " + std::to_string(maxFileBytes(kind) / kMiB) + " MiB while being read; a " +
                                    fileKindName(kind) + " cannot be that large."}};
    bytes.truncate(static_cast<qsizetype>(done));
    return bytes;
}

bool sameFile(const std::string &a, const std::string &b)
{
    struct stat sa {}, sb {};
    return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

FileBytes::FileBytes() = default;
FileBytes::FileBytes(FileBytes &&) noexcept = default;
FileBytes &FileBytes::operator=(FileBytes &&) noexcept = default;
FileBytes::~FileBytes() = default;  // QFile's destructor unmaps

Result<FileBytes> mapFileBytes(const std::string &path, FileKind kind)
{
    if (isResourcePath(path)) {
        Result<QByteArray> read = readResourceBytes(path, kind);
        if (!read)
            return read.problems();
        FileBytes bytes;
        bytes.data_ = std::move(read.value());
        bytes.view_ = std::string_view(bytes.data_.constData(), static_cast<std::size_t>(bytes.data_.size()));
        return bytes;
    }
    OwnedFd fd(openForReading(path));
    if (fd.get() < 0)
        return Problems{unreadable(path, errno)};
    std::int64_t size = 0;
    if (std::optional<Problem> problem = openedFileProblem(fd.get(), path, kind, &size))
        return Problems{*problem};
    noteInputFileOpened(fd.get(), path);
    FileBytes bytes;
    bytes.file_ = std::make_unique<QFile>();
    QFile &file = *bytes.file_;
    if (!file.open(fd.get(), QIODevice::ReadOnly, QFileDevice::AutoCloseHandle))
        return Problems{Problem{path, "unreadable", path + ": cannot open (" + file.errorString().toStdString() + ")."}};
    fd.release();
    if (const uchar *mapped = size > 0 ? file.map(0, size) : nullptr) {
#if defined(__linux__) && defined(MADV_POPULATE_READ)
        // One system call maps every page (the file is about to be read front to back) instead of
        // a fault per 64 KiB of fault-around; an older kernel refuses the advice harmlessly.
        ::madvise(const_cast<uchar *>(mapped), static_cast<std::size_t>(size), MADV_POPULATE_READ);
#endif
        bytes.view_ = std::string_view(reinterpret_cast<const char *>(mapped), static_cast<std::size_t>(size));
        return bytes;
    }
    // Not mappable, or a file that says it is empty (a /proc or /sys file says 0 bytes and still
    // holds text): read it to its end under the cap, as readFileBytes does.
    file.close();
    Result<QByteArray> read = readFileBytes(path, kind);
    if (!read)
        return read.problems();
    bytes.data_ = std::move(read.value());
    bytes.view_ = std::string_view(bytes.data_.constData(), static_cast<std::size_t>(bytes.data_.size()));
    return bytes;
}

FileReader::FileReader() = default;

FileReader::FileReader(FileReader &&other) noexcept
    : path_(std::move(other.path_)),
      kind_(other.kind_),
      fd_(std::exchange(other.fd_, -1)),
      resource_(std::move(other.resource_)),
      stated_bytes_(other.stated_bytes_),
      bytes_read_(other.bytes_read_)
{
}

FileReader &FileReader::operator=(FileReader &&other) noexcept
{
    if (this != &other) {
        if (fd_ >= 0)
            ::close(fd_);
        path_ = std::move(other.path_);
        kind_ = other.kind_;
        fd_ = std::exchange(other.fd_, -1);
        resource_ = std::move(other.resource_);
        stated_bytes_ = other.stated_bytes_;
        bytes_read_ = other.bytes_read_;
    }
    return *this;
}

FileReader::~FileReader()
{
    if (fd_ >= 0)
        ::close(fd_);
}

Result<FileReader> FileReader::open(const std::string &path, FileKind kind)
{
    FileReader reader;
    reader.path_ = path;
    reader.kind_ = kind;
    if (isResourcePath(path)) {
        reader.resource_ = std::make_unique<QFile>(QString::fromStdString(path));
        if (!reader.resource_->open(QIODevice::ReadOnly))
            return Problems{Problem{path, "unreadable", path + ": cannot open (no such file compiled into the program)."}};
        reader.stated_bytes_ = reader.resource_->size();
        if (reader.stated_bytes_ > maxFileBytes(kind))
            return Problems{Problem{path, "too_large",
                                    path + ": " + std::to_string(reader.stated_bytes_) + " bytes is more than a " +
                                        fileKindName(kind) + " can be (at most " +
                                        std::to_string(maxFileBytes(kind) / kMiB) + " MiB)."}};
        return reader;
    }
    OwnedFd fd(openForReading(path));
    if (fd.get() < 0)
        return Problems{unreadable(path, errno)};
    if (std::optional<Problem> problem = openedFileProblem(fd.get(), path, kind, &reader.stated_bytes_))
        return Problems{*problem};
    noteInputFileOpened(fd.get(), path);
    // Opened non-blocking only so that a FIFO could not stall the open; a regular file reads the same
    // either way, but blocking reads are what the loop below expects.
    const int flags = ::fcntl(fd.get(), F_GETFL);
    if (flags >= 0)
        ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK);
    reader.fd_ = fd.release();
    return reader;
}

Result<std::size_t> FileReader::read(char *buffer, std::size_t capacity)
{
    // At most one byte past the cap, so that a file still growing past it is noticed and refused.
    const std::int64_t left = maxFileBytes(kind_) + 1 - bytes_read_;
    capacity = static_cast<std::size_t>(std::min<std::int64_t>(static_cast<std::int64_t>(capacity), std::max<std::int64_t>(left, 0)));
    std::int64_t got = 0;
    if (resource_) {
        got = resource_->read(buffer, static_cast<qint64>(capacity));
        if (got < 0)
            return Problems{Problem{path_, "unreadable", path_ + ": cannot read (" + resource_->errorString().toStdString() + ")."}};
    } else {
        if (fd_ < 0)
            return Problems{Problem{path_, "unreadable", path_ + ": cannot read (the file is not open)."}};
        ssize_t n = 0;
        do
            n = ::read(fd_, buffer, capacity);
        while (n < 0 && errno == EINTR);
        if (n < 0)
            return Problems{Problem{path_, "unreadable", path_ + ": cannot read (" + std::strerror(errno) + ")."}};
        got = n;
    }
    bytes_read_ += got;
    if (bytes_read_ > maxFileBytes(kind_))
        return Problems{Problem{path_, "too_large",
                                path_ + ": grew past " + std::to_string(maxFileBytes(kind_) / kMiB) + " MiB while being read; a " +
                                    fileKindName(kind_) + " cannot be that large."}};
    return static_cast<std::size_t>(got);
}

}  // namespace lse
