// SPDX-License-Identifier: GPL-3.0-or-later
// Rules for the files commands take as arguments: problems about a file are named after the flag
// that gave it, and no output may be one of the inputs (prepare-data --input X --out X once
// overwrote the text with its own token ids).
#pragma once

#include "common/file_writer.h"
#include "common/problem.h"

#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace lse::cli {

// Problems about the file as a whole (field "file" or the path itself, as core's loaders report
// them) renamed after the flag: field `flag`, message "--scenario /dev/zero: is not a regular file
// …". Problems about a field inside the file keep their field.
Problems namedAfterFlag(Problems problems, const std::string &flag, const QString &path);

// An input file given with a flag.
struct InputFile {
    std::string flag;  // "--input"
    QString path;      // as given; a folder stands for no file of its own (see below)
};

// A problem {field: outFlag, rule: "same_file"} when `output` is the same file as one of the
// inputs (by name or through a symbolic or hard link) or as a file this run has already read
// (common/input_files.h), or nothing. Checked before long work starts; the writer checks again
// when it writes. A folder given as an input stands only for the files a loader actually reads
// from it, which the run has registered by then: prepare-data --out tk/ids.bin beside the
// tokenizer's vocab.json is not an input.
std::optional<Problem> outputIsAnInput(const std::string &outFlag, const QString &output,
                                       const std::vector<InputFile> &inputs);

// The writer's problem (a non-regular target, one of the run's inputs, a failed write) named after
// the flag that gave the path: {field: flag, rule: the writer's, message: "--out …"}.
Problem writerProblem(const std::string &flag, const FileWriter &file);
// Why `path`, given with `flag`, cannot be an output, before anything is written.
std::optional<Problem> outputFlagProblem(const std::string &flag, const QString &path);

}  // namespace lse::cli
