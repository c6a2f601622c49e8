// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_data.h"
#include "pages/page.h"
#include "parallel/collectives.h"

class QComboBox;
class QLabel;
class QSpinBox;

namespace lse::gui {

class CollectivesMeasurementSection;
class StepPlayer;

// A collective operation step by step: the chunks each rank sends in every step of the ring or
// tree algorithm (core's simulateCollective), the values in every rank's buffer before and after,
// and the alpha-beta time against message size over the cluster's intra- and inter-node links.
class CollectivesPage : public Page {
    Q_OBJECT
public:
    explicit CollectivesPage(QWidget *parent = nullptr);

    // The page's id and title before it exists (the navigator lists pages built on first show).
    static QString pageId();
    static QString pageTitle();
    QString id() const override { return pageId(); }
    QString title() const override { return pageTitle(); }
    QList<ChartView *> charts() const override;
    void retranslate() override;

    void setOperation(parallel::CollectiveOp op);
    void setAlgorithm(parallel::CollectiveAlgorithm algorithm);
    void setRanks(int ranks);
    // The simulation shown (empty steps when the inputs were rejected).
    const parallel::CollectiveSimulation &simulation() const;
    CollectivesMeasurementSection *measurementSection() const { return measurement_; }
    int stepCount() const;
    // 0 = the buffers before the collective; k = 1..stepCount() = the transfers of step k.
    int currentStep() const;
    void setCurrentStep(int step);
    void stepForward();
    void stepBack();
    bool isPlaying() const;
    void setPlaying(bool playing);

    // Lessons (collectives_page_lesson.cpp): "collective", "algorithm", "ranks", "bytes", "link",
    // "step" (docs/lesson-pages-parallelism.md); the animation is the player's steps.
    QJsonObject lessonSettings() const override;
    bool applyLessonSettings(const QJsonObject &settings, QString *error) override;
    bool advanceLessonAnimation() override;
    QList<QWidget *> lessonAnimationWidgets() const override;
    bool restartLessonAnimation() override;

signals:
    void currentStepChanged(int step);
    void simulationChanged();

protected:
    void estimateChanged(const Scenario *previous) override;
    void applyPresentation(bool presentation) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    void simulate();
    void refreshStep();
    void refreshSizeChart();
    void retranslateControls();
    parallel::LinkModel currentLink() const;
    ChartData stepChart() const;
    ChartData bufferChart() const;
    ChartData sizeChart() const;
    QString summaryText() const;
    QString stepText() const;
    QString timeFormulaText() const;

    QLabel *intro_;
    QLabel *op_label_;
    QComboBox *op_box_;
    QLabel *algorithm_label_;
    QComboBox *algorithm_box_;
    QLabel *ranks_label_;
    QSpinBox *ranks_spin_;
    QLabel *size_label_;
    QComboBox *size_box_;
    QLabel *link_label_;
    QComboBox *link_box_;
    StepPlayer *player_;
    QLabel *step_label_;
    QLabel *summary_label_;
    ChartView *step_chart_;
    ChartView *buffer_chart_;
    ChartView *size_chart_;
    CollectivesMeasurementSection *measurement_;  // "Measure on this machine" and its chart

    parallel::CollectiveSimulation simulation_;
    QString problem_;
};

}  // namespace lse::gui
