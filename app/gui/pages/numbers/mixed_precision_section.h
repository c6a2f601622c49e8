// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_data.h"
#include "numbers/mixed_precision.h"
#include "pages/page_section.h"

#include <vector>

class QGridLayout;
class QGroupBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace lse::gui {

// The Numbers page's "Mixed precision" tab: for the four recipes and the scenario's own precision
// settings, which tensor lives in which format and its bytes per parameter, all from
// core/numbers/mixed_precision.h (itself read from the memory engine, so this tab and the Memory
// page agree). A stacked bar chart compares the model state per parameter; "Use this recipe"
// applies a recipe exactly as the scenario editor's recipe field does (precisionForRecipe).
class MixedPrecisionSection : public PageSection {
    Q_OBJECT
public:
    explicit MixedPrecisionSection(QWidget *parent = nullptr);

    QString id() const override { return QStringLiteral("mixed-precision"); }
    QString title() const override;
    void showEstimate(const Scenario &scenario, const Estimate &estimate) override;
    QList<ChartView *> charts() const override;
    void setPresentation(bool presentation) override;
    void retranslate() override;

    // The four recipes (precisionRecipes() order) and, last, the scenario's own settings.
    const std::vector<MixedPrecisionBreakdown> &breakdowns() const { return breakdowns_; }
    // Model-state bytes of all the scenario's parameters with its own settings (no sharding).
    double scenarioModelStateBytes() const;
    double scenarioParameters() const { return parameters_; }
    ChartView *chart() const { return chart_; }
    QTableWidget *table(int index) const { return tables_.at(std::size_t(index)); }
    // As pressing a recipe's "Use this recipe" button.
    void useRecipe(PrecisionRecipe recipe);

private:
    void refresh();
    void fillTable(QTableWidget *table, const MixedPrecisionBreakdown &breakdown) const;
    QString breakdownTitle(int index) const;
    ChartData chartData() const;

    QLabel *intro_;
    QLabel *summary_;
    ChartView *chart_;
    std::vector<QGroupBox *> boxes_;
    std::vector<QLabel *> headings_;
    std::vector<QTableWidget *> tables_;
    std::vector<QPushButton *> use_buttons_;  // one per recipe (not for the scenario's own box)
    std::vector<MixedPrecisionBreakdown> breakdowns_;
    Scenario scenario_;
    double parameters_ = 0;
    bool has_scenario_ = false;
    void nameLessonRegions();
};

}  // namespace lse::gui
