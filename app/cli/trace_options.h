// SPDX-License-Identifier: GPL-3.0-or-later
// `--trace FILE [--trace-steps N]` of `train` and `generate` (issue 31): the run's steps as
// Chrome-trace JSON (core/reference/chrome_trace_writer.h), written through the one atomic writer.
#pragma once

#include "file_arguments.h"

#include "common/problem.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>

#include <string>
#include <vector>

namespace lse::cli {

inline constexpr int kDefaultTraceSteps = 3;
inline constexpr int kMaxTraceSteps = 1000;

struct TraceRequest {
    QString path;                     // empty: no trace
    int steps = kDefaultTraceSteps;  // --trace-steps
    bool requested() const { return !path.isEmpty(); }
};

// The two options. `what`: the steps the trace holds ("training steps"); `which`: which of them
// --trace-steps selects, as a phrase ending the help text.
QCommandLineOption traceOption(const QString &what);
QCommandLineOption traceStepsOption(const QString &which);

// Reads --trace and --trace-steps: --trace-steps needs --trace and lies in [1, 1000]; the file is
// a regular file or a new name in an existing folder and none of `inputs` (file_arguments.h),
// checked before any step runs. Problems name the flag.
TraceRequest readTraceOptions(const QCommandLineParser &parser, const std::vector<InputFile> &inputs, Problems &problems);

// Writes the document; a problem named after --trace when it cannot.
Problems writeTraceFile(const QString &path, const std::string &document);

}  // namespace lse::cli
