// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/parallel/layout/mesh_grid_chart.h"

#include "charts/chart_palette.h"
#include "pages/page_format.h"

#include <algorithm>
#include <cmath>

namespace lse::gui {

using parallel::MeshDim;

namespace {

constexpr MeshDim kAllDims[] = {MeshDim::TP, MeshDim::CP, MeshDim::EP, MeshDim::DP, MeshDim::PP};
// Group member lists longer than this are cut in tooltips (a DP group of 1024 GPUs is no list).
constexpr std::size_t kMaxListedMembers = 16;
// Outlines reach a bit beyond the cell so they read as a frame; the hovered GPU's frame is thicker.
constexpr double kHaloMargin = 0.07;
constexpr double kHoveredHaloMargin = 0.12;
// How much the GPUs outside the hovered GPU's groups fade towards the background.
constexpr double kFade = 0.72;

// The outline colour of each dimension: distinct from each other, and drawn on faded cells.
QColor haloColor(MeshDim dim, const QPalette &palette)
{
    switch (dim) {
    case MeshDim::TP: return chartReferenceColor(palette);
    case MeshDim::CP: return chartSeriesColor(2, palette);
    case MeshDim::EP: return chartSeriesColor(4, palette);
    case MeshDim::DP: return chartSeriesColor(1, palette);
    case MeshDim::PP: return chartSeriesColor(0, palette);
    }
    return palette.color(QPalette::Text);
}

}  // namespace

QString meshDimName(MeshDim dim) { return format::fromStd(parallel::toString(dim)).toUpper(); }

MeshGridChart::MeshGridChart(const parallel::DeviceMesh &mesh, MeshDim colour_by, const QPalette &palette)
    : mesh_(mesh), colour_by_(colour_by), palette_(palette)
{
    shown_nodes_ = std::min(mesh_.nodes, kMeshGridMaxNodes);
    const int shown = std::min(mesh_.gpus, shownGpus());
    const std::vector<std::vector<int>> groups = mesh_.groups(colour_by_);
    colour_groups_ = int(groups.size());
    std::vector<int> group_of(std::size_t(mesh_.gpus), 0);
    for (std::size_t g = 0; g < groups.size(); ++g)
        for (int rank : groups[g])
            group_of[std::size_t(rank)] = int(g);

    const QString dim_name = meshDimName(colour_by_);
    cells_.reserve(shown);
    for (int rank = 0; rank < shown; ++rank) {
        const int row = mesh_.node(rank);
        const int local = rank % mesh_.gpus_per_node;
        const int group = group_of[std::size_t(rank)];
        ChartRect cell;
        cell.x0 = local - kMeshCellHalfWidth;
        cell.x1 = local + kMeshCellHalfWidth;
        cell.y0 = row - kMeshCellHalfHeight;
        cell.y1 = row + kMeshCellHalfHeight;
        cell.color = chartSeriesColor(group, palette_);
        cell.label = QString::number(rank);
        cell.tooltip = cellTooltip(rank);
        if (colour_groups_ <= kMeshGridMaxLegendGroups)
            cell.group = tr("%1 group %2").arg(dim_name).arg(group);
        cells_.append(cell);
    }
}

std::optional<int> MeshGridChart::rankAt(double x, double y) const
{
    if (!std::isfinite(x) || !std::isfinite(y))
        return std::nullopt;
    const int local = int(std::lround(x));
    const int row = int(std::lround(y));
    if (local < 0 || local >= mesh_.gpus_per_node || row < 0 || row >= shown_nodes_)
        return std::nullopt;
    if (std::abs(x - local) > kMeshCellHalfWidth || std::abs(y - row) > kMeshCellHalfHeight)
        return std::nullopt;
    const int rank = row * mesh_.gpus_per_node + local;
    if (rank >= mesh_.gpus)
        return std::nullopt;
    return rank;
}

QString MeshGridChart::membersText(const std::vector<int> &members) const
{
    QStringList ranks;
    for (std::size_t i = 0; i < members.size() && i < kMaxListedMembers; ++i)
        ranks << QString::number(members[i]);
    QString text = ranks.join(QStringLiteral(", "));
    if (members.size() > kMaxListedMembers)
        text += tr(", … (%1 GPUs)").arg(members.size());
    return text;
}

QString MeshGridChart::cellTooltip(int rank) const
{
    QString html = tr("<b>Rank %1</b>: node %2, GPU %3 of the node")
                       .arg(rank)
                       .arg(mesh_.node(rank))
                       .arg(rank % mesh_.gpus_per_node);
    QStringList coordinates;
    for (MeshDim dim : kAllDims)
        coordinates << QStringLiteral("%1 %2/%3").arg(meshDimName(dim)).arg(mesh_.coordinate(rank, dim)).arg(mesh_.size(dim));
    html += QStringLiteral("<br>") + tr("Coordinates: %1").arg(coordinates.join(QStringLiteral(" · ")));
    for (MeshDim dim : kAllDims) {
        if (mesh_.size(dim) <= 1)
            continue;
        const std::vector<int> members = mesh_.group(rank, dim);
        std::vector<int> nodes;
        for (int member : members)
            nodes.push_back(mesh_.node(member));
        std::sort(nodes.begin(), nodes.end());
        const auto distinct = std::unique(nodes.begin(), nodes.end()) - nodes.begin();
        html += QStringLiteral("<br>")
                + tr("%1 group: %2 (on %n node(s))", nullptr, int(distinct)).arg(meshDimName(dim), membersText(members));
    }
    return html;
}

ChartData MeshGridChart::chart(std::optional<int> hovered) const
{
    ChartData chart;
    const QString dim_name = meshDimName(colour_by_);
    chart.title = tr("Device mesh: %1 GPUs on %Ln node(s) of %2, coloured by %3 group", nullptr, mesh_.nodes)
                      .arg(format::integer(mesh_.gpus))
                      .arg(mesh_.gpus_per_node)
                      .arg(dim_name);
    if (shown_nodes_ < mesh_.nodes)
        chart.title += tr(" (first %1 of %2 nodes shown)").arg(shown_nodes_).arg(mesh_.nodes);
    if (colour_groups_ > kMeshGridMaxLegendGroups)
        chart.title += tr("; %1 %2 groups, colours repeat").arg(colour_groups_).arg(dim_name);
    chart.x_label = tr("GPU within the node");
    chart.y_label = tr("Node");
    chart.x_unit = QStringLiteral("GPU");
    chart.y_unit = QStringLiteral("node");
    for (int local = 0; local < mesh_.gpus_per_node; ++local)
        chart.categories << tr("GPU %1").arg(local);
    for (int row = 0; row < shown_nodes_; ++row)
        chart.y_categories << tr("node %1").arg(row);
    chart.y_reversed = true;

    const int focus = hovered.value_or(0);
    const QColor background = palette_.color(QPalette::Base);
    if (hovered) {
        // Outlines first so the cells are drawn over them; each GPU gets the outline of the first
        // dimension it shares with the hovered GPU (EP groups lie inside DP×CP groups).
        std::vector<int> outline_of(std::size_t(shownGpus()), -1);
        for (MeshDim dim : kAllDims) {
            if (mesh_.size(dim) <= 1)
                continue;
            for (int member : mesh_.group(focus, dim))
                if (member < int(outline_of.size()) && outline_of[std::size_t(member)] < 0 && member != focus)
                    outline_of[std::size_t(member)] = int(dim);
        }
        const auto halo = [&](int rank, const QColor &color, const QString &group) {
            const ChartRect &cell = cells_.at(rank);
            const double margin = rank == focus ? kHoveredHaloMargin : kHaloMargin;
            ChartRect frame;
            frame.x0 = cell.x0 - margin;
            frame.x1 = cell.x1 + margin;
            frame.y0 = cell.y0 - margin;
            frame.y1 = cell.y1 + margin;
            frame.color = color;
            frame.tooltip = cell.tooltip;
            frame.group = group;
            chart.rects.append(frame);
        };
        for (int rank = 0; rank < cells_.size(); ++rank) {
            if (rank == focus) {
                halo(rank, palette_.color(QPalette::Text), tr("Hovered: rank %1").arg(focus));
            } else if (outline_of[std::size_t(rank)] >= 0) {
                const MeshDim dim = MeshDim(outline_of[std::size_t(rank)]);
                halo(rank, haloColor(dim, palette_), tr("Rank %1's %2 group").arg(focus).arg(meshDimName(dim)));
            }
        }
        for (int rank = 0; rank < cells_.size(); ++rank) {
            ChartRect cell = cells_.at(rank);
            if (rank != focus && outline_of[std::size_t(rank)] < 0)
                cell.color = blendColors(cell.color, background, kFade);
            chart.rects.append(cell);
        }
    } else {
        chart.rects = cells_;
    }

    // The GPU the outlines refer to (rank 0 until the mouse points at another), as a marker so the
    // chart's CSV and tooltip name it too.
    if (focus < cells_.size()) {
        ChartSeries marker;
        marker.name = hovered ? tr("Hovered GPU") : tr("Rank 0 (hover a GPU)");
        marker.kind = ChartSeries::Kind::Marker;
        marker.color = palette_.color(QPalette::Text);
        // In the cell's top-left corner, clear of the rank label.
        marker.x << double(focus % mesh_.gpus_per_node) - kMeshCellHalfWidth * 0.65;
        marker.y << double(mesh_.node(focus)) - kMeshCellHalfHeight * 0.5;
        marker.point_tooltips << cells_.at(focus).tooltip;
        chart.series << marker;
    }

    QStringList order;
    QStringList terms;
    for (MeshDim dim : mesh_.order)
        order << meshDimName(dim);
    // rank = c₀ + n₀·(c₁ + n₁·(c₂ + n₂·c₃)) with the innermost axis first.
    QString formula = QStringLiteral("c_%1").arg(order.back().toLower());
    for (int i = int(mesh_.order.size()) - 2; i >= 0; --i)
        formula = QStringLiteral("c_%1 + %2·(%3)").arg(order[i].toLower()).arg(mesh_.size(mesh_.order[std::size_t(i)])).arg(formula);
    const ParallelConfig &p = mesh_.degrees;
    chart.formula.inputs = tr("dp = %1, tp = %2, pp = %3, cp = %4, ep = %5; %6 GPUs per node; axis order (innermost first) %7")
                               .arg(p.dp)
                               .arg(p.tp)
                               .arg(p.pp)
                               .arg(p.cp)
                               .arg(p.ep)
                               .arg(mesh_.gpus_per_node)
                               .arg(order.join(QStringLiteral("-")));
    chart.formula.formula = tr("rank = %1; node = ⌊rank / %2⌋; a group holds the ranks that differ only in its own "
                               "coordinate (EP: blocks of ep consecutive dp×cp indices)")
                                .arg(formula)
                                .arg(mesh_.gpus_per_node);
    chart.formula.source = tr("Megatron-LM parallel_state.py RankGenerator (order tp-cp-ep-dp-pp); Dubey et al. 2024 "
                              "(Llama 3) §3.3.2");
    return chart;
}

}  // namespace lse::gui
