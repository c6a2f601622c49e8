// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace_options.h"

#include "count_option.h"

#include "reference/chrome_trace_writer.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace lse::cli {

QCommandLineOption traceOption(const QString &what)
{
    return QCommandLineOption(QStringLiteral("trace"),
                              QStringLiteral("Write the run's %1 as a Chrome trace (JSON: one event per operator call with its "
                                             "class, shape, FLOPs and bytes; open it in Perfetto or chrome://tracing).")
                                  .arg(what),
                              QStringLiteral("FILE"));
}

QCommandLineOption traceStepsOption(const QString &which)
{
    return QCommandLineOption(QStringLiteral("trace-steps"),
                              QStringLiteral("With --trace: how many steps it records (default %1, at most %2): %3.")
                                  .arg(kDefaultTraceSteps)
                                  .arg(kMaxTraceSteps)
                                  .arg(which),
                              QStringLiteral("N"));
}

TraceRequest readTraceOptions(const QCommandLineParser &parser, const std::vector<InputFile> &inputs, Problems &problems)
{
    TraceRequest request;
    const QString steps = QStringLiteral("trace-steps");
    if (parser.isSet(steps) && !parser.isSet(QStringLiteral("trace"))) {
        problems.push_back(Problem{"--trace-steps", "requires", "--trace-steps needs --trace FILE."});
        return request;
    }
    if (!parser.isSet(QStringLiteral("trace")))
        return request;
    request.path = parser.value(QStringLiteral("trace"));
    intOption(parser, steps, 1, request.steps, problems);
    if (request.steps > kMaxTraceSteps)
        problems.push_back(Problem{"--trace-steps", "range",
                                   "--trace-steps " + std::to_string(request.steps) + " is more than "
                                       + std::to_string(kMaxTraceSteps) + " steps; a trace that long is too big to open."});
    if (request.path.isEmpty()) {
        problems.push_back(Problem{"--trace", "required", "--trace needs a file name."});
        return request;
    }
    if (std::optional<Problem> same = outputIsAnInput("--trace", request.path, inputs))
        problems.push_back(*same);
    else if (std::optional<Problem> target = outputFlagProblem("--trace", request.path))
        problems.push_back(*target);  // a FIFO or a device: refused before any step runs
    else if (!QFileInfo(request.path).absoluteDir().exists())
        problems.push_back(Problem{"--trace", "unwritable",
                                   "--trace " + request.path.toStdString() + ": the folder does not exist."});
    return request;
}

Problems writeTraceFile(const QString &path, const std::string &document)
{
    Result<bool> written = reference::writeChromeTrace(QFile::encodeName(path).toStdString(), document);
    if (written)
        return {};
    return namedAfterFlag(written.problems(), "--trace", path);
}

}  // namespace lse::cli
