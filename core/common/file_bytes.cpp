// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/file_bytes.h"

#include <QFile>
#include <QString>
#include <QStringDecoder>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace lse {

namespace {

Problems unreadable(const std::string &path, const QFile &file)
{
    return Result<bool>::failure(path, "unreadable", path + ": cannot open (" + file.errorString().toStdString() + ").")
        .problems();
}

}  // namespace

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

Result<QByteArray> readFileBytes(const std::string &path)
{
    QFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::ReadOnly))
        return unreadable(path, file);
    return file.readAll();
}

FileBytes::FileBytes() = default;
FileBytes::FileBytes(FileBytes &&) noexcept = default;
FileBytes &FileBytes::operator=(FileBytes &&) noexcept = default;
FileBytes::~FileBytes() = default;  // QFile's destructor unmaps

Result<FileBytes> mapFileBytes(const std::string &path)
{
    FileBytes bytes;
    bytes.file_ = std::make_unique<QFile>(QString::fromStdString(path));
    QFile &file = *bytes.file_;
    if (!file.open(QIODevice::ReadOnly))
        return unreadable(path, file);
    const qint64 size = file.size();
    if (const uchar *mapped = size > 0 ? file.map(0, size) : nullptr) {
#if defined(__linux__) && defined(MADV_POPULATE_READ)
        // One system call maps every page (the file is about to be read front to back) instead of
        // a fault per 64 KiB of fault-around; an older kernel refuses the advice harmlessly.
        ::madvise(const_cast<uchar *>(mapped), static_cast<std::size_t>(size), MADV_POPULATE_READ);
#endif
        bytes.view_ = std::string_view(reinterpret_cast<const char *>(mapped), static_cast<std::size_t>(size));
        return bytes;
    }
    bytes.data_ = file.readAll();
    if (file.error() != QFileDevice::NoError)
        return unreadable(path, file);
    bytes.view_ = std::string_view(bytes.data_.constData(), static_cast<std::size_t>(bytes.data_.size()));
    return bytes;
}

}  // namespace lse
