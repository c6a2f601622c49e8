// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/parallel/parallel_labels.h"

#include "pages/page_format.h"

#include <QCoreApplication>

#include <cmath>

namespace lse::gui {

namespace {

// lupdate files this namespace-scope tr() under the namespace's context, so it translates with that.
QString tr(const char *text) { return QCoreApplication::translate("lse::gui", text); }

}  // namespace

QString collectiveOpLabel(parallel::CollectiveOp value)
{
    switch (value) {
    case parallel::CollectiveOp::AllReduce: return tr("all-reduce");
    case parallel::CollectiveOp::ReduceScatter: return tr("reduce-scatter");
    case parallel::CollectiveOp::AllGather: return tr("all-gather");
    case parallel::CollectiveOp::Broadcast: return tr("broadcast");
    case parallel::CollectiveOp::Reduce: return tr("reduce");
    case parallel::CollectiveOp::AllToAll: return tr("all-to-all");
    }
    return QString();
}

QString collectiveAlgorithmLabel(parallel::CollectiveAlgorithm value)
{
    switch (value) {
    case parallel::CollectiveAlgorithm::Ring: return tr("ring");
    case parallel::CollectiveAlgorithm::Tree: return tr("tree (halving / doubling)");
    }
    return QString();
}

QString pipelineScheduleLabel(parallel::PipelineScheduleKind value)
{
    switch (value) {
    case parallel::PipelineScheduleKind::GPipe: return tr("GPipe");
    case parallel::PipelineScheduleKind::OneFOneB: return tr("1F1B");
    case parallel::PipelineScheduleKind::Interleaved: return tr("Interleaved 1F1B");
    case parallel::PipelineScheduleKind::ZeroBubble: return tr("ZB-H1 (zero bubble)");
    }
    return QString();
}

QString workKindLabel(parallel::WorkKind value)
{
    switch (value) {
    case parallel::WorkKind::Forward: return tr("forward");
    case parallel::WorkKind::Backward: return tr("backward");
    case parallel::WorkKind::BackwardInput: return tr("B (input grad)");
    case parallel::WorkKind::BackwardWeight: return tr("W (weight grad)");
    }
    return QString();
}

QString formatSeconds(double seconds)
{
    if (!std::isfinite(seconds))
        return tr("n/a");
    if (seconds == 0)
        return tr("0 s");
    struct Unit {
        double factor;
        const char *name;
    };
    static const Unit units[] = {{1e9, "ns"}, {1e6, "µs"}, {1e3, "ms"}, {1, "s"}};
    Unit unit = units[3];
    for (const Unit &candidate : units) {
        if (std::abs(seconds) * candidate.factor < 1000) {
            unit = candidate;
            break;
        }
    }
    const double scaled = seconds * unit.factor;
    const int decimals = std::abs(scaled) < 10 ? 2 : (std::abs(scaled) < 100 ? 1 : 0);
    return tr("%1 %2").arg(format::decimal(scaled, decimals), QString::fromUtf8(unit.name));
}


}  // namespace lse::gui
