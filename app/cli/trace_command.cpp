// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli trace FILE...`: PyTorch profiler (Kineto) traces read and analysed per rank:
// where each step's GPU time went (compute, exposed communication, copies, idle host-bound or
// waiting), communication overlap, the kernels by class with FLOPs and achieved rates, the
// operators with their shapes, and the FLOPs of the matrix multiplies (core/traces).

#include "commands.h"
#include "file_arguments.h"
#include "output.h"
#include "trace_prediction_output.h"

#include "traces/trace_analysis.h"
#include "traces/trace_json.h"
#include "traces/trace_loader.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

#include <vector>

namespace lse::cli {

namespace {

using traces::TraceRankAnalysis;

QString qstr(const std::string &text) { return QString::fromStdString(text); }
QString qstr(std::string_view text) { return QString::fromUtf8(text.data(), qsizetype(text.size())); }

QString percentOf(double part, double whole)
{
    return whole > 0 ? QString::number(100.0 * part / whole, 'f', 1) + QStringLiteral("%") : QStringLiteral("-");
}

QString shortened(const std::string &name, int width)
{
    QString text = qstr(name);
    return text.size() > width ? text.left(width - 3) + QStringLiteral("...") : text;
}

QString rankText(const TraceRankAnalysis &a)
{
    QString out;
    out += QStringLiteral("Trace %1: rank %2%3\n")
               .arg(qstr(a.source), a.rank >= 0 ? QString::number(a.rank) : QStringLiteral("?"),
                    a.device_name.empty() ? QString() : QStringLiteral(", ") + qstr(a.device_name));
    if (!a.has_gpu) {
        out += QStringLiteral("  CPU-only trace: no GPU kernels; steps: %1\n")
                   .arg(a.steps.size() == 1 && a.steps.front().number < 0 ? QStringLiteral("none (whole trace)")
                                                                          : QString::number(a.steps.size()));
        if (a.cpu_communication.count > 0)
            out += QStringLiteral("  communication on the CPU: %1 calls, %2, %3\n")
                       .arg(a.cpu_communication.count)
                       .arg(formatSeconds(a.cpu_communication.seconds))
                       .arg(formatBytes(a.cpu_communication.bytes));
    } else {
        const traces::TraceTimeBreakdown &b = a.breakdown;
        out += QStringLiteral("  steps: %1; GPU kernels: %2 (%3)\n")
                   .arg(a.steps.size() == 1 && a.steps.front().number < 0 ? QStringLiteral("none (whole trace)")
                                                                          : QString::number(a.steps.size()))
                   .arg(a.kernel_count)
                   .arg(formatSeconds(a.kernel_seconds));
        out += QStringLiteral("  breakdown of %1 on the GPU (union of all streams):\n").arg(formatSeconds(b.window_seconds));
        const auto line = [&](const char *label, double seconds) {
            out += QStringLiteral("    %1 %2  %3\n")
                       .arg(QLatin1String(label), -26)
                       .arg(formatSeconds(seconds), 12)
                       .arg(percentOf(seconds, b.window_seconds), 6);
        };
        line("compute", b.compute_seconds);
        line("communication (exposed)", b.communication_seconds);
        line("memcpy/memset (exposed)", b.memcpy_seconds);
        line("idle", b.idle_seconds);
        line("  host-bound (none queued)", b.idle_host_bound_seconds);
        line("  waiting (work queued)", b.idle_waiting_seconds);
        if (a.steps.size() > 1) {
            out += QStringLiteral("  per step:   window      compute  comm.exp.  memcpy   idle (host-bound / waiting)\n");
            for (const traces::TraceStepAnalysis &step : a.steps) {
                const traces::TraceTimeBreakdown &s = step.breakdown;
                out += QStringLiteral("    #%1 %2 %3 %4 %5 %6 (%7 / %8)\n")
                           .arg(step.number, -6)
                           .arg(formatSeconds(s.window_seconds), 11)
                           .arg(percentOf(s.compute_seconds, s.window_seconds), 8)
                           .arg(percentOf(s.communication_seconds, s.window_seconds), 9)
                           .arg(percentOf(s.memcpy_seconds, s.window_seconds), 7)
                           .arg(percentOf(s.idle_seconds, s.window_seconds), 6)
                           .arg(percentOf(s.idle_host_bound_seconds, s.window_seconds))
                           .arg(percentOf(s.idle_waiting_seconds, s.window_seconds));
            }
        }
        if (a.outside_steps.count > 0)
            out += QStringLiteral("  not in any step: %1 activities (%2), %3 of them (%4) queued before the trace began\n")
                       .arg(a.outside_steps.count)
                       .arg(formatSeconds(a.outside_steps.seconds))
                       .arg(a.queued_before_trace.count)
                       .arg(formatSeconds(a.queued_before_trace.seconds));
        out += QStringLiteral("  communication overlapped with compute: %1 of %2\n")
                   .arg(b.communication_total_seconds > 0 ? QString::number(b.overlap_percent, 'f', 1) + QStringLiteral("%")
                                                          : QStringLiteral("-"),
                        formatSeconds(b.communication_total_seconds));
        out += QStringLiteral("  classified: %1 activities, %2 unknown (%3%)\n")
                   .arg(a.classification.activity_count)
                   .arg(a.classification.unknown_count)
                   .arg(QString::number(a.classification.unknown_percent, 'f', 1));
        for (const traces::TraceClassRow &row : a.classification.by_class) {
            if (row.count > 0)
                out += QStringLiteral("    %1 %2  %3\n")
                           .arg(qstr(traces::kernelClassName(row.kernel_class)), -14)
                           .arg(row.count, 7)
                           .arg(formatSeconds(row.seconds), 12);
        }
        out += QStringLiteral("  top kernels by time:\n");
        for (const traces::TraceKernelRow &row : a.top_kernels)
            out += QStringLiteral("    %1  %2  %3  %4x  %5\n")
                       .arg(formatSeconds(row.seconds), 10)
                       .arg(QString::number(row.percent, 'f', 1) + QStringLiteral("%"), 6)
                       .arg(qstr(traces::kernelClassName(row.kernel_class)), -13)
                       .arg(row.count, 5)
                       .arg(shortened(row.name, 80));
    }
    if (a.record_shapes || a.matmul_flops > 0)
        out += QStringLiteral("  matrix multiplies: %1 calls, %2 (recorded FLOPs, else 2mnk from the shapes)\n")
                   .arg(a.matmul_count)
                   .arg(formatFlops(a.matmul_flops));
    else
        out += QStringLiteral("  matrix multiplies: %1 calls; FLOPs unknown (traced without record_shapes)\n")
                   .arg(a.matmul_count);
    for (const std::string &note : a.notes)
        out += QStringLiteral("  note: %1\n").arg(qstr(note));
    out += QStringLiteral("  operators by time (%1):\n").arg(a.has_gpu ? QStringLiteral("GPU time of their kernels")
                                                                       : QStringLiteral("CPU self time"));
    const std::size_t shown = std::min<std::size_t>(a.operators.size(), 10);
    for (std::size_t i = 0; i < shown; ++i) {
        const traces::TraceOperatorRow &row = a.operators[i];
        out += QStringLiteral("    %1  %2x  %3  %4  %5 %6\n")
                   .arg(formatSeconds(row.seconds), 10)
                   .arg(row.count, 5)
                   .arg(qstr(traces::kernelClassName(row.kernel_class)), -13)
                   .arg(row.flops > 0 ? formatFlopsShort(row.flops) : QStringLiteral("-"), 12)
                   .arg(shortened(row.name, 48))
                   .arg(qstr(row.shape));
    }
    return out;
}

// One line per rank, so the slow or idle rank stands out.
QString ranksSideBySide(const std::vector<TraceRankAnalysis> &analyses)
{
    QString out = QStringLiteral("Ranks side by side:\n  rank      GPU window   compute  comm.exp.  idle  overlap  matmul FLOPs\n");
    for (const TraceRankAnalysis &a : analyses) {
        const traces::TraceTimeBreakdown &b = a.breakdown;
        out += QStringLiteral("  %1 %2 %3 %4 %5 %6  %7\n")
                   .arg(a.rank >= 0 ? QString::number(a.rank) : QStringLiteral("?"), -6)
                   .arg(a.has_gpu ? formatSeconds(b.window_seconds) : QStringLiteral("CPU only"), 13)
                   .arg(percentOf(b.compute_seconds, b.window_seconds), 9)
                   .arg(percentOf(b.communication_seconds, b.window_seconds), 10)
                   .arg(percentOf(b.idle_seconds, b.window_seconds), 5)
                   .arg(b.communication_total_seconds > 0 ? QString::number(b.overlap_percent, 'f', 1) + QStringLiteral("%")
                                                          : QStringLiteral("-"),
                        8)
                   .arg(a.record_shapes || a.matmul_flops > 0 ? formatFlopsShort(a.matmul_flops) : QStringLiteral("unknown"));
    }
    return out;
}

}  // namespace

int runTrace(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Read PyTorch profiler (Kineto) Chrome-trace files, plain or .json.gz, one per rank (a file whose\n"
        "processes are named \"rank N\", as `train --dp N --trace` writes, gives one rank each), and show\n"
        "where each step's GPU time went (compute, exposed communication, copies, idle: host-bound or\n"
        "waiting; HTA's definitions), how much communication overlapped compute, the kernels by class\n"
        "with FLOPs and achieved rates, the operators with their shapes, and the matrix multiplies'\n"
        "FLOPs (recorded ones, else 2mnk from the recorded shapes). Definitions: docs/user-guide/traces.md."));
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption help(QStringList{"h", "help"}, QStringLiteral("Show this help."));
    parser.addOption(help);
    parser.addOption(QCommandLineOption("top", "Kernels listed by time (default 10).", "N"));
    parser.addOption(QCommandLineOption("json", "Print JSON: one rank object for one rank, {\"ranks\": [...]} for several."));
    addTracePredictionOptions(parser);  // --scenario / scenario flags, --gpu, --pass
    parser.addPositionalArgument("FILE", "Trace files (.json or .json.gz), one per rank.", "FILE...");
    if (!parser.parse(QStringList{"trace"} + arguments))
        return reportProblems({Problem{"arguments", "syntax", parser.errorText().toStdString()}});
    if (parser.isSet(help)) {
        printOut(QStringLiteral("Usage: llm-explorer-cli trace [options] FILE...\n") + parser.helpText().section('\n', 1));
        return kExitOk;
    }
    traces::TraceAnalysisOptions options;
    if (parser.isSet("top")) {
        const std::optional<std::int64_t> top = parseCount(parser.value("top"));
        if (!top || *top > 100000)
            return reportProblems({Problem{"--top", "range",
                                           "--top must be a whole number from 0 to 100000, got '" +
                                               parser.value("top").toStdString() + "'"}});
        options.top_kernels = static_cast<int>(*top);
    }
    const QStringList files = parser.positionalArguments();
    if (files.isEmpty())
        return reportProblems({Problem{"FILE", "missing", "give at least one trace file (.json or .json.gz)"}});

    const Result<TracePredictionRequest> prediction_request = tracePredictionRequest(parser);
    if (!prediction_request)
        return reportProblems(prediction_request.problems());

    std::vector<std::string> paths;
    for (const QString &file : files)
        paths.push_back(file.toStdString());
    Result<std::vector<traces::TraceRank>> ranks = traces::loadTraces(paths);
    if (!ranks)
        return reportProblems(ranks.problems());
    std::vector<TraceRankAnalysis> analyses;
    for (const traces::TraceRank &rank : ranks.value())
        analyses.push_back(traces::analyseRank(rank, options));
    // Measured beside predicted (trace_prediction_output.h): per-GEMM times, and the scenario's step.
    std::vector<TracePredictionOutput> predictions;
    for (std::size_t i = 0; i < analyses.size(); ++i) {
        Result<TracePredictionOutput> prediction =
            tracePredictionFor(*prediction_request, ranks.value()[i], analyses[i], options.top_kernels);
        if (!prediction)
            return reportProblems(prediction.problems());
        predictions.push_back(std::move(prediction.value()));
    }
    const auto rankJson = [&](std::size_t i) {
        QJsonObject object = traces::traceAnalysisToJson(analyses[i]);
        if (!predictions[i].json.isEmpty())
            object.insert("prediction", predictions[i].json);
        return object;
    };

    if (parser.isSet("json")) {
        if (analyses.size() == 1) {
            printJson(rankJson(0));
        } else {
            QJsonArray array;
            for (std::size_t i = 0; i < analyses.size(); ++i)
                array.append(rankJson(i));
            printJson(QJsonObject{{"ranks", array}});
        }
        return kExitOk;
    }
    QString text;
    for (std::size_t i = 0; i < analyses.size(); ++i)
        text += (i > 0 ? QStringLiteral("\n") : QString()) + rankText(analyses[i]) + predictions[i].text;
    if (analyses.size() > 1)
        text += QStringLiteral("\n") + ranksSideBySide(analyses);
    printOut(text);
    return kExitOk;
}

}  // namespace lse::cli
