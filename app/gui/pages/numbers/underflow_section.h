// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "numbers/gradient_histogram.h"
#include "numbers/loss_scaling.h"
#include "pages/lesson_controls.h"
#include "pages/page_section.h"

#include <vector>

class QLabel;
class QProgressBar;
class QPushButton;
class QSlider;
class QSpinBox;

namespace lse::gui {

class UnderflowWorker;

// The "Underflow and loss scaling" tab of the Numbers page (issue 16): the reference transformer is
// trained in FP32 for a few steps in the background, its real gradients are histogrammed in log2
// buckets against the FP16 and BF16 ranges, a loss-scale slider shows live (no retraining) what a
// scale moves out of FP16's flush-to-zero zone and into overflow, and a dynamic loss-scaling
// simulation over a longer run shows the scale, its overflow steps and the loss. The gradients of a
// short default run are computed the first time the page is shown (well under a second).
class UnderflowSection : public PageSection {
    Q_OBJECT
public:
    explicit UnderflowSection(QWidget *parent = nullptr);
    ~UnderflowSection() override;

    QString id() const override { return QStringLiteral("underflow"); }
    QString title() const override;
    // Lesson settings and regions: docs/lesson-pages.md.
    QJsonObject lessonSettings() const override;
    bool applyLessonSettings(const QJsonObject &settings, QString *error) override;
    void showEstimate(const Scenario &scenario, const Estimate &estimate) override;
    // The histogram, and the three simulation charts once a simulation has steps.
    QList<ChartView *> charts() const override;
    void setPresentation(bool presentation) override;
    void retranslate() override;
    bool isReady() const override;  // false while training runs

    // The controls and results, for tests and keyboard users alike.
    QPushButton *runButton() const { return run_button_; }
    QPushButton *simulateButton() const { return simulate_button_; }
    QPushButton *cancelButton() const { return cancel_button_; }
    QSlider *scaleSlider() const { return scale_slider_; }  // log2 of the loss scale, 0..24
    QSpinBox *initialScaleSpin() const { return initial_scale_spin_; }  // log2 of the initial scale
    QSpinBox *growthIntervalSpin() const { return growth_spin_; }
    QSpinBox *simulationStepsSpin() const { return sim_steps_spin_; }
    QLabel *statusLabel() const { return status_; }
    ChartView *histogramChart() const { return histogram_chart_; }
    ChartView *scaleChart() const { return scale_chart_; }
    // The gradients shown (empty before the first run finishes) and their FP16 cast at the slider's scale.
    const numbers::GradientSnapshot &snapshot() const { return snapshot_; }
    const numbers::CastStatistics &scaledCast() const { return scaled_cast_; }
    const numbers::LossScalingRun &simulation() const { return simulation_; }
    double lossScale() const;

    void startRun();
    void startSimulation();
    void cancelRun();

signals:
    void runFinished();
    void simulationFinished();

protected:
    void changeEvent(QEvent *event) override;

private:
    QList<ChartView *> allCharts() const;
    void onProgress();
    void onFinished(int kind);
    void updateScale();
    void refreshHistogramChart();
    void refreshSimulationCharts();
    void refreshSummary();
    void updateControls();

    numbers::GradientSnapshot snapshot_;
    numbers::CastStatistics unscaled_cast_;
    numbers::CastStatistics unscaled_bf16_cast_;
    numbers::CastStatistics scaled_cast_;
    numbers::Log2Histogram scaled_histogram_;
    numbers::LossScalingRun simulation_;
    bool started_ = false;  // the default run was started (the first time the page was shown)
    QString problem_;       // of the last run, shown in the status line

    QLabel *intro_;
    QPushButton *run_button_;
    QPushButton *cancel_button_;
    QProgressBar *progress_;
    QLabel *status_;
    QLabel *scale_label_;
    QSlider *scale_slider_;
    QLabel *scale_value_;
    QLabel *summary_;
    ChartView *histogram_chart_;
    QLabel *simulation_intro_;
    QLabel *initial_scale_label_;
    QSpinBox *initial_scale_spin_;
    QLabel *growth_label_;
    QSpinBox *growth_spin_;
    QLabel *sim_steps_label_;
    QSpinBox *sim_steps_spin_;
    QPushButton *simulate_button_;
    QLabel *simulation_summary_;
    ChartView *scale_chart_;
    ChartView *loss_chart_;
    ChartView *flushed_chart_;
    UnderflowWorker *worker_;
    void bindLessonControls();
    LessonControls lesson_controls_;
};

}  // namespace lse::gui
