// SPDX-License-Identifier: GPL-3.0-or-later
// `mpirun -np N llm-explorer-cli links`: this machine's link between N processes, measured as
// nccl-tests does (a ping-pong on 2 ranks, a ring all-reduce sweep on any N), fitted to the α-β
// model and kept as the link profile for N ranks, which `train --dp N` predicts collective times with.

#include "commands.h"
#include "output.h"

#include "distributed/link_profile.h"

#include <QCommandLineParser>
#include <QJsonArray>

#include <exception>

#ifdef LSE_WITH_MPI
#include "mpi_communicator.h"
#endif

namespace lse::cli {

namespace {

using distributed::LinkProfile;
using distributed::SweepPoint;

// --sizes 4,1K,1M: whole byte counts > 0, multiples of 4 (the sweep moves float buffers).
std::vector<std::int64_t> parseSizes(const QString &text, Problems &problems)
{
    std::vector<std::int64_t> sizes;
    for (const QString &item : text.split(QLatin1Char(','))) {
        const std::optional<std::int64_t> bytes = parseCount(item.trimmed());
        if (!bytes || *bytes <= 0 || *bytes % 4 != 0 || *bytes > (std::int64_t(1) << 30)) {
            problems.push_back({"--sizes", "bytes",
                                QStringLiteral("--sizes '%1': each size must be a whole number of bytes, a multiple of 4 "
                                               "from 4 to 1 GiB (e.g. 4,4K,1M)")
                                    .arg(item)
                                    .toStdString()});
            return {};
        }
        sizes.push_back(*bytes);
    }
    return sizes;
}

// Printing a measured profile: only a build with MPI measures one.
#ifdef LSE_WITH_MPI
QString qstr(const std::string &text) { return QString::fromStdString(text); }

void printSweep(const QString &title, const std::vector<SweepPoint> &points, const parallel::LinkModel &link,
                parallel::CollectiveOp op, int ranks)
{
    printOut(title + QStringLiteral("\n%1 %2 %3 %4 %5\n")
                         .arg(QStringLiteral("size (B)"), 12)
                         .arg(QStringLiteral("time (us)"), 12)
                         .arg(QStringLiteral("model (us)"), 12)
                         .arg(QStringLiteral("algbw (GB/s)"), 13)
                         .arg(QStringLiteral("busbw (GB/s)"), 13));
    for (const SweepPoint &point : points) {
        // The fitted model's time for this size (a ping-pong is one transfer: α + S/β).
        const double model = op == parallel::CollectiveOp::Broadcast
                                 ? link.latency_seconds + double(point.bytes) / link.bandwidth_bytes_per_second
                                 : parallel::collectiveSeconds(op, parallel::CollectiveAlgorithm::Ring, ranks,
                                                               double(point.bytes), link);
        printOut(QStringLiteral("%1 %2 %3 %4 %5\n")
                     .arg(point.bytes, 12)
                     .arg(point.seconds * 1e6, 12, 'f', 2)
                     .arg(model * 1e6, 12, 'f', 2)
                     .arg(point.algorithm_bandwidth_bytes_per_second / 1e9, 13, 'f', 3)
                     .arg(point.bus_bandwidth_bytes_per_second / 1e9, 13, 'f', 3));
    }
    printOut(QStringLiteral("fit: alpha %1 us, beta %2 GB/s\n\n")
                 .arg(link.latency_seconds * 1e6, 0, 'f', 2)
                 .arg(link.bandwidth_bytes_per_second / 1e9, 0, 'f', 3));
}

QJsonArray sweepJson(const std::vector<SweepPoint> &points)
{
    QJsonArray array;
    for (const SweepPoint &point : points)
        array.append(QJsonObject{{"bytes", double(point.bytes)},
                                 {"seconds", point.seconds},
                                 {"algbw_bytes_per_second", point.algorithm_bandwidth_bytes_per_second},
                                 {"busbw_bytes_per_second", point.bus_bandwidth_bytes_per_second}});
    return array;
}

QJsonObject linkJson(const parallel::LinkModel &link)
{
    return QJsonObject{{"alpha_seconds", link.latency_seconds}, {"beta_bytes_per_second", link.bandwidth_bytes_per_second}};
}

// Rank 0's report of a finished sweep: the table (or JSON) and where the profile went.
int reportProfile(const LinkProfile &profile, bool json)
{
    const Result<parallel::LinkModel> ping_pong_fit =
        profile.ping_pong.empty() ? Result<parallel::LinkModel>(Problems{}) : distributed::fitPingPong(profile.ping_pong);
    const Result<std::string> saved = distributed::saveLinkProfile(profile);
    if (json) {
        QJsonObject out{{"ranks", profile.ranks},
                        {"alpha_seconds", profile.alpha_seconds},
                        {"beta_bytes_per_second", profile.beta_bytes_per_second},
                        {"fitted_to", QStringLiteral("all_reduce")},
                        {"measured_at", qstr(profile.measured_at)},
                        {"all_reduce", sweepJson(profile.all_reduce)},
                        {"profile_path", qstr(distributed::linkProfileCachePath(profile.ranks))},
                        {"saved", saved.ok()}};
        if (!profile.ping_pong.empty()) {
            out.insert("ping_pong", sweepJson(profile.ping_pong));
            out.insert("ping_pong_fit", ping_pong_fit ? QJsonValue(linkJson(*ping_pong_fit)) : QJsonValue());
        }
        printJson(out);
    } else {
        printOut(QStringLiteral("Link between %1 processes on this machine (nccl-tests: algbw = S/t, busbw = algbw x "
                                "bus factor)\n\n")
                     .arg(profile.ranks));
        if (ping_pong_fit)
            printSweep(QStringLiteral("ping-pong, one-way time"), profile.ping_pong, *ping_pong_fit,
                       parallel::CollectiveOp::Broadcast, profile.ranks);
        printSweep(QStringLiteral("ring all-reduce"), profile.all_reduce, profile.link(), parallel::CollectiveOp::AllReduce,
                   profile.ranks);
        if (saved)
            printOut(QStringLiteral("saved to %1 (train --dp %2 predicts its collectives with it)\n")
                         .arg(qstr(*saved))
                         .arg(profile.ranks));
    }
    if (!saved)
        return reportProblems(saved.problems());
    return kExitOk;
}

#endif  // LSE_WITH_MPI

}  // namespace

int runLinks(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Measure the link between the processes mpirun started, as nccl-tests does: a ping-pong (2 ranks) and a ring "
        "all-reduce over a sweep of message sizes; fit latency alpha and bandwidth beta of the alpha-beta model and save "
        "them as this machine's link profile for that rank count (beside the `machine` cache). Run it as "
        "mpirun -np N llm-explorer-cli links; rank 0 prints."));
    const QCommandLineOption help(QStringList{"h", "help"}, QStringLiteral("Show this help."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print one JSON object on stdout."));
    const QCommandLineOption sizes(QStringLiteral("sizes"),
                                   QStringLiteral("Message sizes in bytes, comma-separated, multiples of 4 (default 4 B to "
                                                  "4 MiB in steps of x4)."),
                                   QStringLiteral("LIST"));
    parser.addOptions({help, json, sizes});
    if (!parser.parse(QStringList{QStringLiteral("links")} + arguments))
        return reportProblems({Problem{"arguments", "syntax", parser.errorText().toStdString()}});
    if (parser.isSet(help)) {
        printOut(QStringLiteral("Usage: mpirun -np N llm-explorer-cli links [--json] [--sizes LIST]\n")
                 + parser.helpText().section('\n', 1));
        return kExitOk;
    }
    if (!parser.positionalArguments().isEmpty())
        return reportProblems({Problem{"arguments", "unexpected",
                                       "unexpected argument '" + parser.positionalArguments().front().toStdString() + "'"}});
    Problems problems;
    distributed::SweepOptions options;
    if (parser.isSet(sizes))
        options.message_bytes = parseSizes(parser.value(sizes), problems);
    if (!problems.empty())
        return reportProblems(problems);
#ifndef LSE_WITH_MPI
    (void)json;
    return reportProblems({Problem{"ranks", "unavailable",
                                   "links: this build has no MPI (install libopenmpi-dev openmpi-bin and rebuild)"}});
#else
    std::unique_ptr<distributed::Communicator> communicator = distributed::makeMpiCommunicator();
    const int ranks = communicator->size();
    if (ranks < 2)
        return reportProblems({Problem{"ranks", "at_least_two",
                                       "links: 1 process, but a link needs two ends; run it as mpirun -np 2 "
                                       "llm-explorer-cli links (add --oversubscribe --allow-run-as-root as needed)"}});
    // Progress on rank 0's stderr, one line per measured size: "sweep k/N ..." (the GUI's
    // Collectives page follows these lines while it measures).
    const int sweep_points = int(options.message_bytes.size()) * (ranks == 2 ? 2 : 1);
    int measured_points = 0;
    if (communicator->rank() == 0)
        options.point_measured = [&measured_points, sweep_points](std::int64_t bytes) {
            ++measured_points;
            printError(QStringLiteral("sweep %1/%2  %3 B\n").arg(measured_points).arg(sweep_points).arg(bytes));
        };
    try {
        std::vector<SweepPoint> ping_pong;
        if (ranks == 2)
            ping_pong = distributed::measurePingPong(*communicator, options);
        std::vector<SweepPoint> all_reduce = distributed::measureAllReduce(*communicator, options);
        if (communicator->rank() != 0)
            return kExitOk;
        const Result<LinkProfile> profile = distributed::makeLinkProfile(ranks, std::move(ping_pong), std::move(all_reduce));
        if (!profile)
            return reportProblems(profile.problems());
        return reportProfile(*profile, parser.isSet(json));
    } catch (const std::exception &error) {
        return reportProblems({Problem{"links", "failed", std::string("links: ") + error.what()}});
    }
#endif
}

}  // namespace lse::cli
