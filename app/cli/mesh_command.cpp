// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli mesh`: where every rank of a scenario's layout sits — its node and, for each
// parallel dimension, which group it belongs to and its position inside it
// (core/parallel/device_mesh.h).

#include "commands.h"
#include "output.h"
#include "scenario_options.h"

#include "parallel/device_mesh.h"
#include "scenario/scenario.h"

#include <QCommandLineParser>
#include <QJsonArray>

#include <array>
#include <string>
#include <vector>

namespace lse::cli {

namespace {

using parallel::MeshDim;

// One line per rank: 65,536 ranks print about 6 MB of text (JSON about 20 MB) in well under a
// second, more than any cluster studied here; the largest validation allows (1e7) would print a GB.
constexpr int kMaxListedRanks = 65536;

constexpr std::array<MeshDim, 5> kDims = {MeshDim::TP, MeshDim::CP, MeshDim::EP, MeshDim::DP, MeshDim::PP};

QString dimName(MeshDim dim)
{
    const std::string_view name = parallel::toString(dim);
    return QString::fromUtf8(name.data(), int(name.size()));
}

std::optional<MeshDim> dimFromName(const QString &name)
{
    for (MeshDim dim : kDims)
        if (name.trimmed().compare(dimName(dim), Qt::CaseInsensitive) == 0)
            return dim;
    return std::nullopt;
}

// For each dimension, rank → index of its group in mesh.groups(dim) (groups ordered by their
// smallest rank, so group 0 holds rank 0).
std::array<std::vector<int>, kDims.size()> groupIndices(const parallel::DeviceMesh &mesh)
{
    std::array<std::vector<int>, kDims.size()> indices;
    for (std::size_t d = 0; d < kDims.size(); ++d) {
        indices[d].assign(std::size_t(mesh.gpus), -1);
        const std::vector<std::vector<int>> groups = mesh.groups(kDims[d]);
        for (std::size_t g = 0; g < groups.size(); ++g)
            for (int rank : groups[g])
                indices[d][std::size_t(rank)] = int(g);
    }
    return indices;
}

}  // namespace

int runMesh(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Each rank's node and its TP/CP/EP/DP/PP group for the scenario's layout. Ranks fill nodes in blocks of\n"
        "--gpus-per-node; the order lists the axes innermost first (default tp,cp,dp,pp: TP inside a node, as in\n"
        "Megatron-LM and the Llama 3 paper). EP groups are blocks of ep consecutive dp×cp ranks."));
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption help(QStringList{"h", "help"}, QStringLiteral("Show this help."));
    parser.addOption(help);
    addScenarioOptions(parser);
    parser.addOption(QCommandLineOption("order", "Axis order, innermost first (a permutation of tp,cp,dp,pp).",
                                        "LIST", "tp,cp,dp,pp"));
    parser.addOption(QCommandLineOption("json", "Print one JSON object (fields: docs/file-formats.md, \"JSON output\")."));
    if (!parser.parse(QStringList{"mesh"} + arguments))
        return reportProblems({Problem{"arguments", "syntax", parser.errorText().toStdString()}});
    if (parser.isSet(help)) {
        printOut(QStringLiteral("Usage: llm-explorer-cli mesh [options]\n") + parser.helpText().section('\n', 1));
        return kExitOk;
    }
    if (!parser.positionalArguments().isEmpty())
        return reportProblems({Problem{"arguments", "unexpected",
                                       "unexpected argument '" + parser.positionalArguments().front().toStdString()
                                           + "'; options start with --"}});

    Problems problems;
    std::vector<MeshDim> order;
    for (const QString &name : parser.value("order").split(QLatin1Char(','))) {
        const std::optional<MeshDim> dim = dimFromName(name);
        if (!dim || *dim == MeshDim::EP) {
            problems.push_back({"--order", "enum",
                                "--order '" + name.toStdString() + "' is not one of tp, cp, dp, pp (EP is carved out "
                                "of dp×cp and has no axis of its own)"});
            break;
        }
        order.push_back(*dim);
    }
    std::vector<std::string> adjustments;
    const Result<Scenario> scenario = scenarioFromOptions(parser, &adjustments);
    if (!scenario)
        problems.insert(problems.end(), scenario.problems().begin(), scenario.problems().end());
    if (!problems.empty())
        return reportProblems(problems);
    // The same rules as estimate, before anything is built per rank.
    if (const Problems invalid = validate(*scenario); !invalid.empty())
        return reportProblems(nameScenarioFlags(invalid, parser));
    if (scenario->cluster.gpus > kMaxListedRanks) {
        Problem tooMany{"cluster.gpus", "maximum",
                        "mesh lists every rank, at most " + std::to_string(kMaxListedRanks) + "; "
                            + std::to_string(scenario->cluster.gpus)
                            + " GPUs would print millions of lines ('estimate' and 'search' take clusters this size)"};
        return reportProblems(nameScenarioFlags({tooMany}, parser));
    }
    const Result<parallel::DeviceMesh> built = parallel::makeDeviceMesh(scenario->cluster, scenario->training.parallel, order);
    if (!built) {
        Problems named = built.problems();
        for (Problem &problem : named)
            if (problem.field == "order")
                problem.field = "--order";
        return reportProblems(named);
    }
    const parallel::DeviceMesh &mesh = *built;
    const auto indices = groupIndices(mesh);
    const std::vector<Problem> warnings = parallel::meshWarnings(mesh);

    if (parser.isSet("json")) {
        QJsonObject object;
        object["gpus"] = mesh.gpus;
        object["gpus_per_node"] = mesh.gpus_per_node;
        object["nodes"] = mesh.nodes;
        QJsonArray orderJson;
        for (MeshDim dim : mesh.order)
            orderJson.append(dimName(dim));
        object["order"] = orderJson;
        QJsonObject degrees;
        QJsonObject crossing;
        for (MeshDim dim : kDims) {
            degrees[dimName(dim)] = mesh.size(dim);
            crossing[dimName(dim)] = mesh.groupCrossesNodes(dim);
        }
        object["degrees"] = degrees;
        object["groups_cross_nodes"] = crossing;
        QJsonArray warningJson;
        for (const Problem &warning : warnings)
            warningJson.append(QString::fromStdString(warning.message));
        object["warnings"] = warningJson;
        QJsonArray ranks;
        for (int rank = 0; rank < mesh.gpus; ++rank) {
            QJsonObject entry;
            entry["rank"] = rank;
            entry["node"] = mesh.node(rank);
            for (std::size_t d = 0; d < kDims.size(); ++d) {
                QJsonObject group;
                group["group"] = indices[d][std::size_t(rank)];
                group["index"] = mesh.coordinate(rank, kDims[d]);
                entry[dimName(kDims[d])] = group;
            }
            ranks.append(entry);
        }
        object["ranks"] = ranks;
        printJson(withAdjustments(object, adjustments));
        return kExitOk;
    }

    QString text = QStringLiteral("%1 GPUs on %2 node(s) of %3; order (innermost first):")
                       .arg(mesh.gpus).arg(mesh.nodes).arg(mesh.gpus_per_node);
    for (MeshDim dim : mesh.order)
        text += QLatin1Char(' ') + dimName(dim);
    text += QLatin1Char('\n');
    for (MeshDim dim : kDims)
        text += QStringLiteral("  %1 %2: %3 groups%4\n")
                    .arg(dimName(dim), -2)
                    .arg(mesh.size(dim), 4)
                    .arg(mesh.gpus / std::max(1, mesh.size(dim)))
                    .arg(mesh.groupCrossesNodes(dim) ? QStringLiteral(", cross nodes") : QString());
    for (const Problem &warning : warnings)
        text += QStringLiteral("warning: %1\n").arg(QString::fromStdString(warning.message));
    text += QStringLiteral("\n rank  node   tp group.idx   cp group.idx   ep group.idx   dp group.idx   pp group.idx\n");
    for (int rank = 0; rank < mesh.gpus; ++rank) {
        text += QStringLiteral("%1 %2").arg(rank, 5).arg(mesh.node(rank), 5);
        for (std::size_t d = 0; d < kDims.size(); ++d)
            text += QStringLiteral("  %1").arg(QStringLiteral("%1.%2")
                                                   .arg(indices[d][std::size_t(rank)])
                                                   .arg(mesh.coordinate(rank, kDims[d])),
                                               13);
        text += QLatin1Char('\n');
    }
    printOut(text);
    return kExitOk;
}

}  // namespace lse::cli
