// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_data.h"
#include "pages/page.h"
#include "parallel/device_mesh.h"

#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QSpinBox;
class QTableWidget;

namespace lse::gui {

class MeshGridChart;

// Where every rank of the parallel layout sits: the GPU grid by node coloured by one dimension's
// groups (hover a GPU to outline all its groups), warnings when a latency-critical group crosses
// nodes, the memory of the most loaded GPU and every collective of one step by dimension.
class LayoutPage : public Page {
    Q_OBJECT
public:
    explicit LayoutPage(QWidget *parent = nullptr);
    ~LayoutPage() override;

    // The page's id and title before it exists (the navigator lists pages built on first show).
    static QString pageId();
    static QString pageTitle();
    QString id() const override { return pageId(); }
    QString title() const override { return pageTitle(); }
    QList<ChartView *> charts() const override;
    void retranslate() override;

    // For tests and keyboard users: colour by this dimension / outline the groups of this rank
    // (as hovering it does); std::nullopt clears the outlines.
    void setColourDimension(parallel::MeshDim dim);
    void setHoveredRank(std::optional<int> rank);
    std::optional<int> hoveredRank() const { return hovered_; }
    QStringList warningTexts() const;
    QTableWidget *communicationTable() const { return events_table_; }

    // Lessons (layout_page_lesson.cpp): "colour_by" (a mesh dimension) and "rank" (-1 = none).
    QJsonObject lessonSettings() const override;
    bool applyLessonSettings(const QJsonObject &settings, QString *error) override;

protected:
    void estimateChanged(const Scenario *previous) override;
    void applyPresentation(bool presentation) override;
    void changeEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void retranslateControls();
    void refresh();
    void refreshGrid();
    void setGridData(const ChartData &chart);
    void fillWarnings(const parallel::DeviceMesh &mesh);
    void fillEvents(const parallel::DeviceMesh &mesh);
    ChartData memoryChart() const;
    void onPlotMouseMove(const QPointF &pos);

    QLabel *colour_label_;
    QComboBox *colour_combo_;
    QLabel *rank_label_;
    QSpinBox *rank_spin_;  // keyboard alternative to hovering: -1 = none
    QLabel *summary_label_;
    QLabel *warnings_label_;
    ChartView *grid_chart_;
    ChartView *memory_chart_;
    QLabel *events_label_;
    QTableWidget *events_table_;

    std::optional<parallel::DeviceMesh> mesh_;
    QString mesh_problem_;
    std::unique_ptr<MeshGridChart> grid_;
    std::optional<int> hovered_;
    QStringList warnings_;
};

}  // namespace lse::gui
