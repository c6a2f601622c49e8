// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The device mesh as a diagram: one row per node, one cell per GPU, cells coloured by the group
// they belong to along one parallel dimension, and (on hover) outlines on every GPU that shares a
// group with the hovered one. Formatting only: ranks, coordinates and groups come from
// parallel::DeviceMesh.

#include "charts/chart_data.h"
#include "parallel/device_mesh.h"

#include <QCoreApplication>
#include <QPalette>
#include <QVector>

#include <optional>

namespace lse::gui {

// Nodes drawn at most: a 1024-GPU mesh has 128 nodes, far more than a screen can show legibly.
inline constexpr int kMeshGridMaxNodes = 16;
// Above this many groups the colours repeat and the groups get no legend entries.
inline constexpr int kMeshGridMaxLegendGroups = 8;

// Cell geometry in plot coordinates: GPU `local` of node row `row` spans local ± half_width and
// row ± half_height.
inline constexpr double kMeshCellHalfWidth = 0.42;
inline constexpr double kMeshCellHalfHeight = 0.36;

QString meshDimName(parallel::MeshDim dim);  // "TP", "CP", ... (not translated: standard abbreviations)

class MeshGridChart {
    Q_DECLARE_TR_FUNCTIONS(lse::gui::MeshGridChart)
public:
    // Builds the parts that do not depend on hover (cell colours, tooltips); cheap enough for a
    // 16-node slice of any mesh.
    MeshGridChart(const parallel::DeviceMesh &mesh, parallel::MeshDim colour_by, const QPalette &palette);

    int shownNodes() const { return shown_nodes_; }
    int shownGpus() const { return shown_nodes_ * mesh_.gpus_per_node; }
    // The rank of the cell under plot coordinates (x, y), if any.
    std::optional<int> rankAt(double x, double y) const;
    // The diagram, with the groups of `hovered` outlined (and every other GPU faded).
    ChartData chart(std::optional<int> hovered) const;
    const QVector<ChartRect> &cells() const { return cells_; }

private:
    QString cellTooltip(int rank) const;
    QString membersText(const std::vector<int> &members) const;

    parallel::DeviceMesh mesh_;
    parallel::MeshDim colour_by_;
    QPalette palette_;
    int shown_nodes_ = 0;
    int colour_groups_ = 0;
    QVector<ChartRect> cells_;  // one per shown GPU, in rank order
};

}  // namespace lse::gui
