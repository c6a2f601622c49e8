// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/file_bytes.h"

#include <QFile>
#include <QString>

namespace lse {

Result<QByteArray> readFileBytes(const std::string &path)
{
    QFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::ReadOnly))
        return Result<QByteArray>::failure(path, "unreadable",
                                           path + ": cannot open (" + file.errorString().toStdString() + ").");
    return file.readAll();
}

}  // namespace lse
