// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pages/page.h"
#include "scaling/scenario_scaling.h"

#include <optional>

class QLabel;
class QPushButton;

namespace lse::gui {

// How big a model a budget buys (issue 15): the scenario on the Chinchilla law (Hoffmann et al.
// 2022), the compute-optimal model of its family for the same training compute with the engine's
// days, GPU-hours and cost for both, iso-FLOP curves, the loss surface and over-training.
class ScalingPage : public Page {
    Q_OBJECT
public:
    explicit ScalingPage(QWidget *parent = nullptr);

    // The page's id and title before it exists (the navigator lists pages built on first show).
    static QString pageId();
    static QString pageTitle();
    QString id() const override { return pageId(); }
    QString title() const override { return pageTitle(); }
    QList<ChartView *> charts() const override;
    void retranslate() override;

    // What the page shows (empty before the first estimate); for tests.
    const std::optional<scaling::ScenarioScaling> &scaling() const { return scaling_; }
    QLabel *figuresLabel() const { return figures_; }
    // The sentences under the table (cluster, MFU, adjustments, Table 3 row).
    QLabel *notesLabel() const { return notes_; }
    // How many times a label's text was replaced (set only when it changed); for tests.
    int labelTextSets() const { return label_text_sets_; }
    QLabel *approachesLabel() const { return approaches_; }
    QPushButton *useOptimalButton() const { return use_optimal_; }

protected:
    void estimateChanged(const Scenario *previous) override;
    void applyPresentation(bool presentation) override;
    void changeEvent(QEvent *event) override;

private:
    void refresh();
    void useOptimalModel();
    QString figuresText() const;
    QString notesText() const;
    bool setLabelText(QLabel *label, const QString &text);

    QLabel *heading_;
    QLabel *figures_;
    QLabel *notes_;
    QPushButton *use_optimal_;
    QLabel *approaches_;  // Gopher: eq. 4 against Table 3, and why they differ
    ChartView *iso_flop_chart_;
    ChartView *contour_chart_;
    ChartView *over_training_chart_;
    std::optional<scaling::ScenarioScaling> scaling_;
    int label_text_sets_ = 0;
    void nameLessonRegions();
};

}  // namespace lse::gui
