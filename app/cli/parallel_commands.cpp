// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli collective` and `llm-explorer-cli pipeline`: step-by-step collectives and
// pipeline-parallel timelines from core/parallel, as text (with an ASCII Gantt chart) or JSON.

#include "commands.h"
#include "count_option.h"
#include "output.h"

#include "parallel/collectives.h"
#include "parallel/pipeline_schedule.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

namespace lse::cli {

namespace {

using namespace lse::parallel;

// H100 SXM NVLink 4: 18 links x 25 GB/s = 450 GB/s per GPU and direction (NVIDIA H100 datasheet
// quotes 900 GB/s, both directions together).
constexpr double kDefaultLinkGbps = 3600;
// Per-step latency: one NVLink hop plus NCCL's per-step kernel overhead is a few microseconds.
constexpr double kDefaultLatencyMicroseconds = 3;
// Above this many ranks the JSON lists step times only, unless --steps asks for the transfers.
constexpr int kJsonTransfersUpToRanks = 64;
// --steps lists at most this many transfers (about 15 MB of JSON): a 1024-rank ring all-reduce has
// 2 million, 260 MB that no one reads and that took seconds and a GB of memory to build.
constexpr std::int64_t kMaxListedTransfers = 100000;
// A pass of one micro-batch through one stage longer than a day is a typo (1e30 ms printed a
// 24-digit number of days); the bound keeps every makespan a readable, finite number.
constexpr double kMaxPassMilliseconds = 86400e3;
// The text output lists every task only up to this many (JSON always has all of them).
constexpr int kTextTaskRows = 400;
// Wider charts would have to merge tasks into one column, which misleads; they are left out.
constexpr int kGanttColumns = 160;

QString qstr(std::string_view text) { return QString::fromUtf8(text.data(), qsizetype(text.size())); }

// Core names fields after its arguments; the user typed flags.
Problems renameFields(Problems problems, const std::map<std::string, std::string> &flag_of_field)
{
    for (Problem &problem : problems) {
        const auto flag = flag_of_field.find(problem.field);
        if (flag != flag_of_field.end())
            problem.field = flag->second;
        for (std::string &related : problem.related)
            if (const auto other = flag_of_field.find(related); other != flag_of_field.end())
                related = other->second;
    }
    return problems;
}

int checkCommonArguments(QCommandLineParser &parser, const QString &command, const QStringList &arguments,
                         const QString &usage, bool *done)
{
    *done = true;
    if (!parser.parse(QStringList{command} + arguments))
        return reportProblems({Problem{"arguments", "syntax", parser.errorText().toStdString()}});
    if (parser.isSet(QStringLiteral("help"))) {
        printOut(usage + parser.helpText().section('\n', 1));
        return kExitOk;
    }
    if (!parser.positionalArguments().isEmpty())
        return reportProblems({Problem{"arguments", "unexpected",
                                       "unexpected argument '" + parser.positionalArguments().front().toStdString() +
                                           "'; options start with --"}});
    *done = false;
    return kExitOk;
}

// A flag's number, or a problem naming the flag.
std::optional<double> numberOption(const QCommandLineParser &parser, const QString &name, double fallback,
                                   Problems &problems)
{
    if (!parser.isSet(name))
        return fallback;
    const std::optional<double> value = parseNumber(parser.value(name));
    if (!value || !std::isfinite(*value))
        problems.push_back({("--" + name).toStdString(), "number",
                            "--" + name.toStdString() + " must be a number (like 400, 1.5e3 or 256M), got '" +
                                parser.value(name).toStdString() + "'"});
    return value;
}

std::optional<int> intOption(const QCommandLineParser &parser, const QString &name, int fallback, Problems &problems)
{
    if (!parser.isSet(name))
        return fallback;
    const std::optional<std::int64_t> value = parseCount(parser.value(name));
    if (!value || *value > 1000000000) {
        problems.push_back({("--" + name).toStdString(), "count",
                            "--" + name.toStdString() + " must be a whole non-negative number, got '" +
                                parser.value(name).toStdString() + "'"});
        return std::nullopt;
    }
    return int(*value);
}

// Each problem on a flag quotes the value as typed, so "--link-gbps: ... (given as --link-gbps 0)".
Problems withValuesGiven(Problems problems, const QCommandLineParser &parser)
{
    for (Problem &problem : problems) {
        const QString flag = QString::fromStdString(problem.field);
        if (flag.startsWith(QLatin1String("--")) && parser.isSet(flag.mid(2)))
            problem.message += " (given as " + problem.field + " " + parser.value(flag.mid(2)).toStdString() + ")";
    }
    return problems;
}

// --- collective ----------------------------------------------------------------------------

// As the cost engine's estimate (core/cost/estimate.cpp): beyond 1e300 the next product overflows.
bool finiteResult(double value) { return std::isfinite(value) && std::fabs(value) <= 1e300; }

std::int64_t transferCount(const CollectiveSimulation &sim)
{
    std::int64_t count = 0;
    for (const CollectiveStep &step : sim.steps)
        count += std::int64_t(step.transfers.size());
    return count;
}

// Every positive bandwidth and latency passes validation, yet 1e-320 Gbit/s makes a step take
// bytes / bandwidth = inf seconds. Name the flag that did it, with the value as typed.
Problem nonFiniteCollective(const QCommandLineParser &parser, const CollectiveSimulation &sim, const LinkModel &link)
{
    const double steps = double(std::max<std::size_t>(1, sim.steps.size()));
    const bool latency = !finiteResult(link.latency_seconds * steps);
    const std::string flag = latency ? "latency-us" : "link-gbps";
    const std::string given = parser.isSet(QString::fromStdString(flag))
        ? parser.value(QString::fromStdString(flag)).toStdString()
        : std::string("its default");
    return {"--" + flag, "finite_result",
            "--" + flag + " " + given + " makes the collective's time not a finite number ("
                + (latency ? "steps × latency" : "bytes / bandwidth") + " overflows); give a realistic "
                + (latency ? "latency in microseconds" : "bandwidth in Gbit/s"),
            {latency ? "--latency-us" : "--bytes"}};
}

Problem tooManyTransfers(const CollectiveSimulation &sim)
{
    return {"--steps", "maximum",
            "--steps would list " + std::to_string(transferCount(sim)) + " transfers, more than the "
                + std::to_string(kMaxListedTransfers) + " it prints (hundreds of MB); use fewer --ranks or leave "
                "out --steps for the per-step times"};
}

QJsonObject collectiveJson(const CollectiveSimulation &sim, bool with_transfers)
{
    QJsonArray steps;
    for (const CollectiveStep &step : sim.steps) {
        QJsonObject object{{"seconds", step.seconds}, {"transfer_count", int(step.transfers.size())}};
        if (with_transfers) {
            QJsonArray transfers;
            for (const ChunkTransfer &t : step.transfers)
                transfers.append(QJsonObject{{"from", t.from_rank},
                                             {"to", t.to_rank},
                                             {"chunk", t.chunk},
                                             {"chunk_count", t.chunk_count},
                                             {"bytes", t.bytes},
                                             {"reduces", t.reduces}});
            object.insert("transfers", transfers);
        }
        steps.append(object);
    }
    return QJsonObject{{"op", qstr(toString(sim.op))},
                       {"algorithm", qstr(toString(sim.algorithm))},
                       {"ranks", sim.ranks},
                       {"root", sim.root},
                       {"bytes", sim.message_bytes},
                       {"chunks", sim.chunks},
                       {"steps", steps},
                       {"bytes_sent_per_rank", sim.bytes_sent_per_rank},
                       {"seconds", sim.seconds},
                       {"algorithm_bandwidth_bytes_per_s", sim.algorithm_bandwidth_bytes_per_second},
                       {"bus_bandwidth_bytes_per_s", sim.bus_bandwidth_bytes_per_second},
                       {"bus_bandwidth_factor", busBandwidthFactor(sim.op, sim.ranks)}};
}

QString chunkText(const ChunkTransfer &t)
{
    return t.chunk_count == 1 ? QStringLiteral("chunk %1").arg(t.chunk)
                              : QStringLiteral("chunks %1-%2").arg(t.chunk).arg(t.chunk + t.chunk_count - 1);
}

QString collectiveText(const CollectiveSimulation &sim, const LinkModel &link, bool with_steps)
{
    QString text;
    const auto line = [&text](const QString &label, const QString &value) {
        text += QStringLiteral("%1 %2\n").arg(label, -26).arg(value);
    };
    line(QStringLiteral("collective"), QStringLiteral("%1, %2 algorithm, %3 ranks%4")
                                           .arg(qstr(displayName(sim.op)), qstr(toString(sim.algorithm)))
                                           .arg(sim.ranks)
                                           .arg(sim.op == CollectiveOp::Broadcast || sim.op == CollectiveOp::Reduce
                                                    ? QStringLiteral(", root %1").arg(sim.root)
                                                    : QString()));
    line(QStringLiteral("message"), QStringLiteral("%1 in %2 chunks of %3")
                                        .arg(formatBytes(sim.message_bytes))
                                        .arg(sim.chunks)
                                        .arg(formatBytes(sim.message_bytes / sim.chunks)));
    line(QStringLiteral("link"), QStringLiteral("%1/s per rank and direction, %2 per step")
                                     .arg(formatBytes(link.bandwidth_bytes_per_second))
                                     .arg(formatSeconds(link.latency_seconds)));
    line(QStringLiteral("steps"), QString::number(sim.steps.size()));
    line(QStringLiteral("bytes sent per rank"), formatBytes(sim.bytes_sent_per_rank));
    line(QStringLiteral("time"), formatSeconds(sim.seconds));
    line(QStringLiteral("algorithm bandwidth"),
         sim.seconds > 0 ? QStringLiteral("%1/s (message / time)").arg(formatBytes(sim.algorithm_bandwidth_bytes_per_second))
                         : QStringLiteral("- (one rank: nothing to send)"));
    line(QStringLiteral("bus bandwidth"),
         sim.seconds > 0 ? QStringLiteral("%1/s (algorithm bandwidth x %2, nccl-tests)")
                               .arg(formatBytes(sim.bus_bandwidth_bytes_per_second))
                               .arg(busBandwidthFactor(sim.op, sim.ranks), 0, 'g', 4)
                         : QStringLiteral("-"));
    if (!with_steps)
        return text + QStringLiteral("\n(--steps lists every transfer of every step)\n");
    for (std::size_t s = 0; s < sim.steps.size(); ++s) {
        const CollectiveStep &step = sim.steps[s];
        text += QStringLiteral("\nstep %1 (%2)\n").arg(s + 1).arg(formatSeconds(step.seconds));
        for (const ChunkTransfer &t : step.transfers)
            text += QStringLiteral("  r%1 → r%2 %3 (%4) %5\n")
                        .arg(t.from_rank)
                        .arg(t.to_rank)
                        .arg(chunkText(t), t.reduces ? QStringLiteral("reduce") : QStringLiteral("copy"))
                        .arg(formatBytes(t.bytes));
    }
    return text;
}

// --- pipeline ------------------------------------------------------------------------------

QJsonObject pipelineJson(const PipelineTimeline &t)
{
    QJsonArray peaks, deferred;
    for (int peak : t.peak_in_flight_micro_batches)
        peaks.append(peak);
    for (int peak : t.peak_deferred_weight_passes)
        deferred.append(peak);
    QJsonArray tasks;
    for (const PipelineTask &task : t.tasks)
        tasks.append(QJsonObject{{"stage", task.stage},
                                 {"start", task.start_seconds},
                                 {"end", task.end_seconds},
                                 {"kind", qstr(toString(task.kind))},
                                 {"microbatch", task.micro_batch},
                                 {"chunk", task.chunk}});
    return QJsonObject{{"schedule", qstr(toString(t.schedule))},
                       {"stages", t.stages},
                       {"microbatches", t.micro_batches},
                       {"chunks", t.chunks},
                       {"makespan_seconds", t.makespan_seconds},
                       {"busy_seconds_per_stage", t.busy_seconds_per_stage},
                       {"bubble_fraction", t.bubble_fraction},
                       {"idle_share_of_makespan", t.idle_share_of_makespan},
                       {"analytic_bubble_fraction", t.analytic_bubble_fraction},
                       {"analytic_bubble_applies", t.analytic_bubble_applies},
                       {"analytic_bubble_assumption", qstr(t.analytic_bubble_assumption)},
                       {"peak_in_flight", peaks},
                       {"peak_deferred_weight_passes", deferred},
                       {"tasks", tasks}};
}

QChar kindLetter(WorkKind kind)
{
    switch (kind) {
    case WorkKind::Forward:
        return QLatin1Char('F');
    case WorkKind::Backward:
    case WorkKind::BackwardInput:
        return QLatin1Char('B');
    case WorkKind::BackwardWeight:
        return QLatin1Char('W');
    }
    return QLatin1Char('?');
}

// One column per time slice (the shortest task); each stage gets a row of work kinds and a row of
// micro-batch digits (and chunk digits when interleaved). A column shows the task running at the
// middle of its slice, '.' when the stage is idle.
QString ganttChart(const PipelineTimeline &t)
{
    double shortest = t.makespan_seconds;
    for (const PipelineTask &task : t.tasks)
        shortest = std::min(shortest, task.end_seconds - task.start_seconds);
    const double natural_columns = std::ceil(t.makespan_seconds / shortest - 1e-9);
    if (natural_columns > kGanttColumns)
        return QStringLiteral("\n(timeline chart left out: %1 columns would not fit; fewer micro-batches or --json)\n")
            .arg(natural_columns, 0, 'f', 0);
    const int columns = std::max(1, int(natural_columns));
    const double slice = t.makespan_seconds / columns;
    QStringList kinds, batches, chunks;
    for (int s = 0; s < t.stages; ++s) {
        kinds << QString(columns, QLatin1Char('.'));
        batches << QString(columns, QLatin1Char(' '));
        chunks << QString(columns, QLatin1Char(' '));
    }
    for (const PipelineTask &task : t.tasks) {
        const int first = std::max(0, int(std::ceil(task.start_seconds / slice - 0.5 - 1e-9)));
        const int last = std::min(columns - 1, int(std::ceil(task.end_seconds / slice - 0.5 - 1e-9)) - 1);
        for (int c = first; c <= last; ++c) {
            kinds[task.stage][c] = kindLetter(task.kind);
            batches[task.stage][c] = QLatin1Char(char('0' + task.micro_batch % 10));
            chunks[task.stage][c] = QLatin1Char(char('0' + task.chunk % 10));
        }
    }
    QString text = QStringLiteral("\nTimeline (one column = %1; F forward, B backward%2; digits: micro-batch mod 10%3; "
                                  ". idle)\n")
                       .arg(formatSeconds(slice))
                       .arg(t.schedule == PipelineScheduleKind::ZeroBubble ? QStringLiteral(" (input gradient), W weight gradient")
                                                                         : QString())
                       .arg(t.chunks > 1 ? QStringLiteral(", second digit row: model chunk") : QString());
    for (int s = 0; s < t.stages; ++s) {
        text += QStringLiteral("stage %1 |%2|\n").arg(s, -3).arg(kinds[s]);
        text += QStringLiteral("          |%1|\n").arg(batches[s]);
        if (t.chunks > 1)
            text += QStringLiteral("          |%1|\n").arg(chunks[s]);
    }
    return text;
}

QString pipelineText(const PipelineTimeline &t)
{
    QString text;
    const auto line = [&text](const QString &label, const QString &value) {
        text += QStringLiteral("%1 %2\n").arg(label, -26).arg(value);
    };
    line(QStringLiteral("schedule"), QStringLiteral("%1, %2 stages, %3 micro-batches%4")
                                         .arg(qstr(displayName(t.schedule)))
                                         .arg(t.stages)
                                         .arg(t.micro_batches)
                                         .arg(t.chunks > 1 ? QStringLiteral(", %1 chunks per stage").arg(t.chunks) : QString()));
    line(QStringLiteral("makespan"), formatSeconds(t.makespan_seconds));
    line(QStringLiteral("busy per stage"), formatSeconds(t.busy_seconds_per_stage));
    // Outside its assumptions the closed form is not this schedule's bubble: print it only with
    // that warning, so nobody compares the measured value with a formula that does not hold.
    line(QStringLiteral("bubble (idle / busy)"),
         t.analytic_bubble_applies
             ? QStringLiteral("%1 measured, %2 analytic")
                   .arg(t.bubble_fraction, 0, 'f', 4)
                   .arg(t.analytic_bubble_fraction, 0, 'f', 4)
             : QStringLiteral("%1 measured (the analytic formula assumes %2, which does not hold here; "
                              "it would give %3)")
                   .arg(t.bubble_fraction, 0, 'f', 4)
                   .arg(qstr(t.analytic_bubble_assumption))
                   .arg(t.analytic_bubble_fraction, 0, 'f', 4));
    line(QStringLiteral("idle share of makespan"), QStringLiteral("%1 %").arg(100 * t.idle_share_of_makespan, 0, 'f', 1));
    QStringList peaks;
    for (int peak : t.peak_in_flight_micro_batches)
        peaks << QString::number(peak);
    line(QStringLiteral("peak in flight per stage"), peaks.join(QStringLiteral(" ")) +
                                                         QStringLiteral(" (micro-batches%1 holding activations)")
                                                             .arg(t.chunks > 1 ? QStringLiteral(" x chunks") : QString()));
    if (t.schedule == PipelineScheduleKind::ZeroBubble) {
        QStringList deferred;
        for (int peak : t.peak_deferred_weight_passes)
            deferred << QString::number(peak);
        line(QStringLiteral("peak waiting for W"), deferred.join(QStringLiteral(" ")) +
                                                       QStringLiteral(" (micro-batches whose B is done, W not yet)"));
    }
    text += ganttChart(t);
    if (int(t.tasks.size()) > kTextTaskRows)
        return text + QStringLiteral("\n%1 tasks (--json lists every one)\n").arg(t.tasks.size());
    text += QStringLiteral("\n%1 %2 %3 %4 %5 %6\n")
                .arg(QStringLiteral("stage"), 5)
                .arg(QStringLiteral("start"), 12)
                .arg(QStringLiteral("end"), 12)
                .arg(QStringLiteral("kind"), 4)
                .arg(QStringLiteral("micro-batch"), 11)
                .arg(QStringLiteral("chunk"), 5);
    for (const PipelineTask &task : t.tasks)
        text += QStringLiteral("%1 %2 %3 %4 %5 %6\n")
                    .arg(task.stage, 5)
                    .arg(formatSeconds(task.start_seconds), 12)
                    .arg(formatSeconds(task.end_seconds), 12)
                    .arg(qstr(toString(task.kind)), 4)
                    .arg(task.micro_batch, 11)
                    .arg(task.chunk, 5);
    return text;
}

}  // namespace

int runCollective(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Simulate one collective step by step with the alpha-beta model: every step each rank sends blocks of "
        "the message; a step takes latency + (largest bytes one rank sends or receives) / bandwidth.\n"
        "ring: reduce-scatter/all-gather around a ring (all-reduce = both, 2(n-1) steps), pipelined chain for "
        "broadcast/reduce, shifted exchange for all-to-all. tree: recursive halving/doubling (all-reduce = "
        "Rabenseifner), binomial tree for broadcast/reduce, pairwise exchange for all-to-all.\n"
        "Message size as nccl-tests: the buffer for all-reduce/broadcast/reduce, the full output of all-gather, "
        "the full input of reduce-scatter, each rank's send buffer for all-to-all."));
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.addOption(QCommandLineOption(QStringList{"h", "help"}, QStringLiteral("Show this help.")));
    parser.addOption(QCommandLineOption("op", QString::fromStdString("Collective: " + collectiveOpChoices() + "."), "OP"));
    parser.addOption(QCommandLineOption("algo", QString::fromStdString("Algorithm: " + collectiveAlgorithmChoices() +
                                                                       " (default ring)."),
                                        "ALGO"));
    parser.addOption(QCommandLineOption("ranks", QStringLiteral("Number of ranks, 1..1024."), "N"));
    parser.addOption(QCommandLineOption("bytes", QStringLiteral("Message size in bytes: 1048576, 256M, 1G, 1e9 (decimal suffixes)."), "S"));
    parser.addOption(QCommandLineOption("root", QStringLiteral("Root rank of broadcast / reduce (default 0)."), "R"));
    parser.addOption(QCommandLineOption(
        "link-gbps",
        QStringLiteral("Per-rank unidirectional link bandwidth in Gbit/s (default %1 = 450 GB/s, H100 NVLink 4).")
            .arg(kDefaultLinkGbps),
        "X"));
    parser.addOption(QCommandLineOption(
        "latency-us", QStringLiteral("Latency per step in microseconds (default %1).").arg(kDefaultLatencyMicroseconds), "Y"));
    parser.addOption(QCommandLineOption("steps", QStringLiteral("List every transfer of every step (JSON: also above %1 ranks).")
                                                     .arg(kJsonTransfersUpToRanks)));
    parser.addOption(QCommandLineOption("json", QStringLiteral("Print one JSON object.")));
    bool done = false;
    const int status = checkCommonArguments(
        parser, QStringLiteral("collective"), arguments,
        QStringLiteral("Usage: llm-explorer-cli collective --op OP [--algo ring|tree] --ranks N --bytes S [options]\n"),
        &done);
    if (done)
        return status;

    Problems problems;
    std::optional<CollectiveOp> op;
    if (!parser.isSet("op"))
        problems.push_back({"--op", "required", "--op is required: " + collectiveOpChoices()});
    else if (!(op = collectiveOpFromString(parser.value("op").toStdString())))
        problems.push_back({"--op", "choice", "--op must be one of " + collectiveOpChoices() + ", got '" +
                                                  parser.value("op").toStdString() + "'"});
    std::optional<CollectiveAlgorithm> algorithm = CollectiveAlgorithm::Ring;
    if (parser.isSet("algo") && !(algorithm = collectiveAlgorithmFromString(parser.value("algo").toStdString())))
        problems.push_back({"--algo", "choice", "--algo must be one of " + collectiveAlgorithmChoices() + ", got '" +
                                                    parser.value("algo").toStdString() + "'"});
    if (!parser.isSet("ranks"))
        problems.push_back({"--ranks", "required", "--ranks is required (number of ranks, 1..1024)"});
    if (!parser.isSet("bytes"))
        problems.push_back({"--bytes", "required", "--bytes is required (message size, e.g. 256M)"});
    const std::optional<int> ranks = intOption(parser, "ranks", 1, problems);
    // A message is a whole number of bytes, at least one (1e-30 and 2.5 printed "0.000 B" and "2.500 B").
    const std::optional<std::int64_t> bytes = countFlag(parser, "bytes", 1, std::int64_t{1'000'000'000'000'000'000}, problems);
    const std::optional<int> root = intOption(parser, "root", 0, problems);
    const std::optional<double> gbps = numberOption(parser, "link-gbps", kDefaultLinkGbps, problems);
    const std::optional<double> latency_us = numberOption(parser, "latency-us", kDefaultLatencyMicroseconds, problems);
    if (!problems.empty())
        return reportProblems(problems);

    const LinkModel link{*gbps * 1e9 / 8.0, *latency_us * 1e-6};
    const Result<CollectiveSimulation> sim = simulateCollective(*op, *algorithm, *ranks, double(*bytes), link, *root);
    if (!sim)
        return reportProblems(withValuesGiven(renameFields(sim.problems(), {{"ranks", "--ranks"},
                                                                             {"message_bytes", "--bytes"},
                                                                             {"bandwidth", "--link-gbps"},
                                                                             {"latency", "--latency-us"},
                                                                             {"root", "--root"}}),
                                              parser));
    if (!finiteResult(sim->seconds) || !finiteResult(sim->bus_bandwidth_bytes_per_second))
        return reportProblems({nonFiniteCollective(parser, *sim, link)});
    const bool listed = parser.isSet("steps") || (parser.isSet("json") && *ranks <= kJsonTransfersUpToRanks);
    if (listed && transferCount(*sim) > kMaxListedTransfers)
        return reportProblems({tooManyTransfers(*sim)});
    if (parser.isSet("json"))
        printJson(collectiveJson(*sim, listed));
    else
        printOut(collectiveText(*sim, link, parser.isSet("steps")));
    return kExitOk;
}

int runPipeline(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Simulate a pipeline-parallel schedule: every stage runs its own order of forward (F) and backward (B) "
        "passes, and a pass starts when its stage is free and its input from the neighbouring stage is ready "
        "(communication time 0). Prints the measured bubble next to the papers' formula, the peak number of "
        "micro-batches whose activations a stage holds, and an ASCII timeline.\n"
        "gpipe: all F then all B (Huang et al. 2019). 1f1b: PipeDream-Flush / Megatron (Narayanan et al. 2021). "
        "interleaved: 1F1B over --chunks model chunks per stage (needs microbatches divisible by stages). "
        "zb: ZB-H1 (Qi et al. 2023), backward split into B (input gradient) and W (weight gradient)."));
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.addOption(QCommandLineOption(QStringList{"h", "help"}, QStringLiteral("Show this help.")));
    parser.addOption(QCommandLineOption("schedule", QString::fromStdString("Schedule: " + pipelineScheduleChoices() +
                                                                           " (default 1f1b)."),
                                        "KIND"));
    parser.addOption(QCommandLineOption("stages", QStringLiteral("Pipeline stages p, 1..1024."), "P"));
    parser.addOption(QCommandLineOption("microbatches", QStringLiteral("Micro-batches m per step, 1..65536."), "M"));
    parser.addOption(QCommandLineOption("chunks", QStringLiteral("Model chunks per stage v (interleaved only, >= 2; default 2)."), "V"));
    parser.addOption(QCommandLineOption(
        "forward-ms", QStringLiteral("Forward time of one micro-batch on one whole stage, ms (default 1; "
                                     "interleaved: each chunk takes this / v)."),
        "X"));
    parser.addOption(QCommandLineOption("backward-ms", QStringLiteral("Backward time, ms (default 2 = 2 x forward)."), "Y"));
    parser.addOption(QCommandLineOption("backward-input-ms",
                                        QStringLiteral("zb: input-gradient part B, ms (default half the backward)."), "B"));
    parser.addOption(QCommandLineOption("backward-weight-ms",
                                        QStringLiteral("zb: weight-gradient part W, ms (default half the backward)."), "W"));
    parser.addOption(QCommandLineOption("json", QStringLiteral("Print one JSON object (times in seconds).")));
    bool done = false;
    const int status = checkCommonArguments(
        parser, QStringLiteral("pipeline"), arguments,
        QStringLiteral("Usage: llm-explorer-cli pipeline [--schedule KIND] --stages P --microbatches M [options]\n"),
        &done);
    if (done)
        return status;

    Problems problems;
    std::optional<PipelineScheduleKind> schedule = PipelineScheduleKind::OneFOneB;
    if (parser.isSet("schedule") && !(schedule = pipelineScheduleFromString(parser.value("schedule").toStdString())))
        problems.push_back({"--schedule", "choice", "--schedule must be one of " + pipelineScheduleChoices() +
                                                        ", got '" + parser.value("schedule").toStdString() + "'"});
    if (!parser.isSet("stages"))
        problems.push_back({"--stages", "required", "--stages is required (number of pipeline stages)"});
    if (!parser.isSet("microbatches"))
        problems.push_back({"--microbatches", "required", "--microbatches is required (micro-batches per step)"});
    const std::optional<int> stages = intOption(parser, "stages", 1, problems);
    const std::optional<int> micro_batches = intOption(parser, "microbatches", 1, problems);
    const bool interleaved = schedule && *schedule == PipelineScheduleKind::Interleaved;
    const std::optional<int> chunks = intOption(parser, "chunks", interleaved ? 2 : 1, problems);
    const std::optional<double> forward_ms = numberOption(parser, "forward-ms", 1, problems);
    const std::optional<double> backward_ms = numberOption(parser, "backward-ms", 2, problems);
    const std::optional<double> input_ms = numberOption(parser, "backward-input-ms", 0, problems);
    const std::optional<double> weight_ms = numberOption(parser, "backward-weight-ms", 0, problems);
    for (const char *flag : {"forward-ms", "backward-ms", "backward-input-ms", "backward-weight-ms"})
        if (const std::optional<double> ms = parseNumber(parser.value(flag)); parser.isSet(flag) && ms && *ms > kMaxPassMilliseconds)
            problems.push_back({std::string("--") + flag, "maximum",
                                std::string("--") + flag + " '" + parser.value(flag).toStdString() + "' is more than "
                                    + QString::number(kMaxPassMilliseconds, 'g', 6).toStdString()
                                    + " ms (one day) for one micro-batch on one stage"});
    if (!problems.empty())
        return reportProblems(problems);

    // Interleaving splits a stage's layers into v chunks, so one chunk takes 1/v of the time.
    const double per_chunk = interleaved && *chunks > 0 ? 1.0 / *chunks : 1.0;
    PipelineTimes times;
    times.forward_seconds = *forward_ms * 1e-3 * per_chunk;
    times.backward_seconds = *backward_ms * 1e-3 * per_chunk;
    times.backward_input_seconds = *input_ms * 1e-3 * per_chunk;
    times.backward_weight_seconds = *weight_ms * 1e-3 * per_chunk;
    const Result<PipelineTimeline> timeline = simulatePipeline(*schedule, *stages, *micro_batches, *chunks, times);
    if (!timeline)
        return reportProblems(withValuesGiven(renameFields(timeline.problems(), {{"stages", "--stages"},
                                                                 {"micro_batches", "--microbatches"},
                                                                 {"chunks", "--chunks"},
                                                                 {"forward_seconds", "--forward-ms"},
                                                                 {"backward_seconds", "--backward-ms"},
                                                                 {"backward_input_seconds", "--backward-input-ms"},
                                                                 {"backward_weight_seconds", "--backward-weight-ms"}}),
                                              parser));
    if (parser.isSet("json"))
        printJson(pipelineJson(*timeline));
    else
        printOut(pipelineText(*timeline));
    return kExitOk;
}

}  // namespace lse::cli
