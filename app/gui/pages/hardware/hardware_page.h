// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_data.h"
#include "hardware/accelerator.h"
#include "hardware/memory_hierarchy.h"
#include "pages/lesson_controls.h"
#include "pages/page.h"

#include <optional>

class QComboBox;
class QLabel;
class QTableWidget;

namespace lse::gui {

class SideBySideLayout;

// The accelerator's anatomy (SMs, matrix units, on-chip memory, links) and the memory hierarchy
// one GPU sees, from registers to the network, as capacity and bandwidth on log scales with the
// course's kitchen analogy; a second accelerator can be compared side by side.
class HardwarePage : public Page {
    Q_OBJECT
public:
    explicit HardwarePage(QWidget *parent = nullptr);

    // The page's id and title before it exists (the navigator lists pages built on first show).
    static QString pageId();
    static QString pageTitle();
    QString id() const override { return pageId(); }
    QString title() const override { return pageTitle(); }
    // Lesson settings and regions: docs/lesson-pages.md.
    QJsonObject lessonSettings() const override;
    bool applyLessonSettings(const QJsonObject &settings, QString *error) override;
    QList<ChartView *> charts() const override;
    void retranslate() override;

    ChartView *hierarchyChart() const { return hierarchy_chart_; }
    QTableWidget *anatomyTable() const { return anatomy_table_; }
    // The accelerators shown: the first (the scenario's unless another is chosen) and the compared one.
    const Accelerator &shownAccelerator() const { return first_; }
    const std::optional<Accelerator> &comparedAccelerator() const { return second_; }

    // Translated display name and kitchen analogy of a level.
    static QString levelName(MemoryLevelKind kind);
    static QString levelAnalogy(MemoryLevelKind kind);

protected:
    void estimateChanged(const Scenario *previous) override;
    void applyPresentation(bool presentation) override;

private:
    void retranslateUi();
    void fillAcceleratorBoxes();
    void selectionChanged();
    void refresh();
    void fillAnatomy();
    ChartData hierarchyChartData() const;
    ChartData levelChartData(bool bandwidth) const;

    QLabel *intro_;
    QLabel *first_label_;
    QComboBox *first_box_;
    QLabel *second_label_;
    QComboBox *second_box_;
    QTableWidget *anatomy_table_;
    QLabel *kitchen_label_;
    SideBySideLayout *anatomy_row_;  // the table and the kitchen text
    ChartView *hierarchy_chart_;
    ChartView *capacity_chart_;
    ChartView *bandwidth_chart_;

    Accelerator scenario_accelerator_;
    Accelerator first_;
    std::optional<Accelerator> second_;
    void bindLessonControls();
    LessonControls lesson_controls_;
};

}  // namespace lse::gui
