// SPDX-License-Identifier: GPL-3.0-or-later
#include "replacing_file.h"

#include <QFileInfo>

#include <cerrno>
#include <cstdio>
#include <cstring>

#if defined(Q_OS_UNIX)
#include <sys/stat.h>
#endif

namespace lse::cli {

ReplacingFile::ReplacingFile(const QString &path) : path_(path), temp_(path + QStringLiteral(".XXXXXX"))
{
    temp_.setAutoRemove(true);
}

bool ReplacingFile::open()
{
    if (temp_.open())
        return true;
    error_ = temp_.errorString();
    return false;
}

bool ReplacingFile::write(const char *data, qint64 size)
{
    if (temp_.write(data, size) == size)
        return true;
    error_ = temp_.errorString();
    return false;
}

bool ReplacingFile::commit()
{
    if (!temp_.flush()) {
        error_ = temp_.errorString();
        return false;
    }
#if defined(Q_OS_UNIX)
    // QTemporaryFile creates the file 0600; give it what a plain new file would get (0666 minus the
    // umask), or the permissions of the file it replaces.
    const QFileInfo old(path_);
    if (old.exists()) {
        temp_.setPermissions(old.permissions());
    } else {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        ::fchmod(temp_.handle(), 0666 & ~mask);
    }
#endif
    const QByteArray from = QFile::encodeName(temp_.fileName()), to = QFile::encodeName(path_);
    if (std::rename(from.constData(), to.constData()) != 0) {
        error_ = QString::fromLocal8Bit(std::strerror(errno));
        return false;
    }
    temp_.setAutoRemove(false);  // it is now the file at path
    temp_.close();
    return true;
}

void ReplacingFile::cancel()
{
    temp_.close();
    temp_.remove();
}

}  // namespace lse::cli
