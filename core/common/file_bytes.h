// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/problem.h"

#include <QByteArray>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

class QFile;

namespace lse {

// The whole file, or one problem {field: path, rule: "unreadable"} saying why it cannot be opened.
Result<QByteArray> readFileBytes(const std::string &path);

// What a file that should hold text is instead, as one problem {field: "file", rule: "empty" or
// "binary"} whose message names the path ("'x.json': empty file", "'x.json': not a text file (a NUL
// byte at offset 12)"), or nothing when `bytes` is non-empty text (no NUL byte, valid UTF-8). Loaders
// of text formats check this first so that a wrong file is reported as what it is rather than as
// a syntax error of the format.
std::optional<Problem> textFileProblem(const QByteArray &bytes, const std::string &path);

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
    friend Result<FileBytes> mapFileBytes(const std::string &path);
    std::unique_ptr<QFile> file_;
    QByteArray data_;
    std::string_view view_;
};

// As readFileBytes, mapped where possible.
Result<FileBytes> mapFileBytes(const std::string &path);

}  // namespace lse
