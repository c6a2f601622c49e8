// SPDX-License-Identifier: GPL-3.0-or-later
#include "file_arguments.h"

#include "common/file_bytes.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace lse::cli {

namespace {

std::string nativePath(const QString &path) { return QFile::encodeName(path).toStdString(); }

// The files an input stands for: itself, or the files directly in it when it is a folder (a
// tokenizer folder's vocab.json, merges.txt, tokenizer.json).
QStringList filesOf(const QString &path)
{
    const QFileInfo info(path);
    if (!info.isDir())
        return {path};
    QStringList files;
    const QDir dir(path);
    for (const QString &name : dir.entryList(QDir::Files | QDir::Hidden | QDir::System))
        files << dir.filePath(name);
    return files;
}

}  // namespace

Problems namedAfterFlag(Problems problems, const std::string &flag, const QString &path)
{
    const std::string file = "file";
    const std::string given = path.toStdString();
    for (Problem &problem : problems) {
        if (problem.field != file && problem.field != given)
            continue;
        std::string message = problem.message;
        if (problem.field == file && message.compare(0, file.size() + 2, file + ": ") == 0)
            message.erase(0, file.size() + 2);
        problem.field = flag;
        problem.message = flag + " " + message;
    }
    return problems;
}

std::optional<Problem> outputIsAnInput(const std::string &outFlag, const QString &output,
                                       const std::vector<InputFile> &inputs)
{
    if (!QFileInfo::exists(output))
        return std::nullopt;
    for (const InputFile &input : inputs) {
        for (const QString &file : filesOf(input.path)) {
            if (!sameFile(nativePath(output), nativePath(file)))
                continue;
            const std::string via = file == input.path ? std::string() : " (in " + input.path.toStdString() + ")";
            return Problem{outFlag, "same_file",
                           outFlag + " '" + output.toStdString() + "' is the same file as " + input.flag + " '" +
                               file.toStdString() + "'" + via +
                               "; writing it would destroy the input. Choose another output file."};
        }
    }
    return std::nullopt;
}

}  // namespace lse::cli
