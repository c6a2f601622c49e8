// SPDX-License-Identifier: GPL-3.0-or-later
// Reading whole input files under one rule: only a regular file (not a device such as /dev/zero, a
// FIFO or a directory, which have no size to bound the read), and no larger than its kind of file
// can sensibly be, so a wrong path fails at once with a message instead of growing a buffer until
// the allocation aborts or reading a stream forever.
#pragma once

#include "common/problem.h"

#include <QByteArray>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

class QFile;

namespace lse {

// What a loader reads; each kind has its own size cap (maxFileBytes).
enum class FileKind {
    Config,      // scenario JSON, a Hugging Face config.json, a TrainConfig JSON
    Tokenizer,   // tokenizer.json, vocab.json, merges.txt, .tiktoken
    Checkpoint,  // a safetensors / npz checkpoint of the reference transformer
    Data,        // text and token-id files that are streamed or memory-mapped, not copied
    Text,        // a text read whole into memory to be shown and tokenized (the GUI's training text)
};

// The largest file of a kind that loaders accept, in bytes.
std::int64_t maxFileBytes(FileKind kind);
// "configuration file", "tokenizer file", ... for messages.
std::string fileKindName(FileKind kind);

// Why `path` cannot be read as a file of `kind`, as one problem {field: path, rule}: "unreadable"
// (missing or no permission, with the system's text), "not_a_file" (a directory, device, FIFO or
// socket) or "too_large" (over maxFileBytes(kind)); nothing when it can. Loaders that stream or map
// a file check this first; readFileBytes and mapFileBytes check it themselves.
std::optional<Problem> regularFileProblem(const std::string &path, FileKind kind);

// The whole file after the checks above, read with a bound: a file that grows past the cap while
// it is read is refused, not followed.
Result<QByteArray> readFileBytes(const std::string &path, FileKind kind);

// What a file that should hold text is instead, as one problem {field: "file", rule: "empty" or
// "binary"} whose message names the path ("'x.json': empty file", "'x.json': not a text file (a NUL
// byte at offset 12)"), or nothing when `bytes` is non-empty text (no NUL byte, valid UTF-8). Loaders
// of text formats check this first so that a wrong file is reported as what it is rather than as
// a syntax error of the format.
std::optional<Problem> textFileProblem(const QByteArray &bytes, const std::string &path);

// Whether two paths name the same file (the same device and inode: through a symbolic or hard link
// too). False when either does not exist.
bool sameFile(const std::string &a, const std::string &b);

// Read-only view of a whole file that stays valid while the object lives. A regular file is
// memory-mapped (no copy into a fresh buffer, whose every 4 KiB page would cost a page fault) and
// its pages are mapped in up front; anything that cannot be mapped is read into memory instead.
class FileBytes {
public:
    FileBytes();
    FileBytes(FileBytes &&) noexcept;
    FileBytes &operator=(FileBytes &&) noexcept;
    ~FileBytes();

    std::string_view view() const { return view_; }

private:
    friend Result<FileBytes> mapFileBytes(const std::string &path, FileKind kind);
    std::unique_ptr<QFile> file_;
    QByteArray data_;
    std::string_view view_;
};

// As readFileBytes, mapped where possible.
Result<FileBytes> mapFileBytes(const std::string &path, FileKind kind);

// A file read front to back in pieces, under the rules of regularFileProblem, for inputs too large
// to hold whole (training text, the text prepare-data encodes). Every read error is a problem
// {path, "unreadable"} with the system's text ("Input/output error" from /proc/self/mem), never an
// exception (std::ifstream's streambuf throws from an iterator) or a silent early end; a file that
// grows past its kind's cap while it is read is refused ("too_large"). Files of /proc and /sys,
// which say they hold 0 bytes, are read to their end.
class FileReader {
public:
    FileReader();
    FileReader(FileReader &&) noexcept;
    FileReader &operator=(FileReader &&) noexcept;
    ~FileReader();

    static Result<FileReader> open(const std::string &path, FileKind kind);

    // Up to `capacity` bytes into `buffer`: how many, 0 at the end of the file, or the problem.
    Result<std::size_t> read(char *buffer, std::size_t capacity);

    const std::string &path() const { return path_; }
    // The size the file system states (0 for /proc files; the bytes read may differ).
    std::int64_t statedBytes() const { return stated_bytes_; }
    std::int64_t bytesRead() const { return bytes_read_; }
    // The open descriptor (-1 for a file compiled into the program), e.g. to map a regular file.
    int descriptor() const { return fd_; }

private:
    std::string path_;
    FileKind kind_ = FileKind::Data;
    int fd_ = -1;
    std::unique_ptr<QFile> resource_;
    std::int64_t stated_bytes_ = 0;
    std::int64_t bytes_read_ = 0;
};

}  // namespace lse
