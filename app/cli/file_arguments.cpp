// SPDX-License-Identifier: GPL-3.0-or-later
#include "file_arguments.h"

#include "common/file_bytes.h"
#include "common/input_files.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace lse::cli {

namespace {

std::string nativePath(const QString &path) { return QFile::encodeName(path).toStdString(); }

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
        if (QFileInfo(input.path).isDir() || !sameFile(nativePath(output), nativePath(input.path)))
            continue;
        return Problem{outFlag, "same_file",
                       outFlag + " '" + output.toStdString() + "' is the same file as " + input.flag + " '" +
                           input.path.toStdString() + "'; writing it would destroy the input. Choose another output file."};
    }
    if (const std::optional<RegisteredInput> read = registeredInputAt(nativePath(output)))
        return Problem{outFlag, "same_file",
                       outFlag + " '" + output.toStdString() + "' is the same file as '" + read->path +
                           "', which this run reads; writing it would destroy the input. Choose another output file."};
    return std::nullopt;
}

Problem writerProblem(const std::string &flag, const FileWriter &file)
{
    Problem problem = file.problem();
    problem.field = flag;
    problem.message = flag + " " + problem.message;
    return problem;
}

std::optional<Problem> outputFlagProblem(const std::string &flag, const QString &path)
{
    std::optional<Problem> problem = outputPathProblem(nativePath(path));
    if (problem) {
        problem->field = flag;
        problem->message = flag + " " + problem->message;
    }
    return problem;
}

}  // namespace lse::cli
