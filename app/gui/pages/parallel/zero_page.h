// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_data.h"
#include "pages/page.h"
#include "parallel/zero_sharding.h"

class QComboBox;
class QLabel;
class QSpinBox;

namespace lse::gui {

class StepPlayer;

// ZeRO (Rajbhandari et al. 2020): which slice of the parameters, gradients and optimizer states
// each data-parallel rank holds at stage 0–3 (core's zeroLayout), and what that saves in memory
// per rank against what it costs in communication per step.
class ZeroPage : public Page {
    Q_OBJECT
public:
    explicit ZeroPage(QWidget *parent = nullptr);

    // The page's id and title before it exists (the navigator lists pages built on first show).
    static QString pageId();
    static QString pageTitle();
    QString id() const override { return pageId(); }
    QString title() const override { return pageTitle(); }
    QList<ChartView *> charts() const override;
    void retranslate() override;

    void setStage(int stage);
    int stage() const;
    void setDp(int dp);
    int dp() const;
    // The layouts of stages 0..3 shown (empty when the inputs were rejected).
    const std::vector<parallel::ZeroLayout> &layouts() const;
    ChartView *shardChart() const;
    ChartView *memoryChart() const;
    ChartView *tradeoffChart() const;
    // Step controls (Space, Left, Right as on the Collectives page): one step per ZeRO stage.
    StepPlayer *player() const { return player_; }

    // Lessons (zero_page_lesson.cpp): "stage", "dp", "step" (= the stage the player shows).
    QJsonObject lessonSettings() const override;
    bool applyLessonSettings(const QJsonObject &settings, QString *error) override;
    bool advanceLessonAnimation() override;
    QList<QWidget *> lessonAnimationWidgets() const override;
    bool restartLessonAnimation() override;

protected:
    void estimateChanged(const Scenario *previous) override;
    void applyPresentation(bool presentation) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    void recompute();
    void refresh();
    void retranslateControls();
    ChartData shardData() const;
    ChartData memoryData() const;
    ChartData tradeoffData() const;
    QString inputsText() const;

    QLabel *intro_;
    QLabel *stage_label_;
    QComboBox *stage_box_;
    QLabel *dp_label_;
    QSpinBox *dp_spin_;
    StepPlayer *player_;
    QLabel *summary_label_;
    ChartView *shard_chart_;
    ChartView *memory_chart_;
    ChartView *tradeoff_chart_;

    double parameters_ = 0;
    std::vector<parallel::ZeroLayout> layouts_;
    QString problem_;
};

}  // namespace lse::gui
