// SPDX-License-Identifier: GPL-3.0-or-later
// An output file written beside its final name and renamed over it when complete, so a reader never
// sees a half-written file under the final name and a failed or interrupted run leaves any old file
// as it was. Every write is checked (core/common/file_writer.h). It does not fsync before the
// rename: the files written this way (token ids) are derived data that a rerun recreates, and
// flushing a 6 MB ids file to disk took 6–17 ms of a 200 ms prepare-data run on the development VM.
// The kernel writes the data back as usual; ext4 also orders the data before a rename that
// replaces a file.
#pragma once

#include "common/file_writer.h"

#include <QFile>
#include <QString>

namespace lse::cli {

class ReplacingFile : public FileWriter {
public:
    explicit ReplacingFile(const QString &path) : FileWriter(QFile::encodeName(path).toStdString(), Durability::NoSync) {}

    bool commit() { return replace(); }  // gives the file the usual permissions and renames it over path
};

}  // namespace lse::cli
