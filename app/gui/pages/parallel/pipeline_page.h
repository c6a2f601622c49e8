// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_data.h"
#include "pages/page.h"
#include "parallel/pipeline_schedule.h"

class QComboBox;
class QLabel;
class QSpinBox;

namespace lse::gui {

class PipelineMeasuredPanel;
class StepPlayer;

// Pipeline parallelism: the Gantt chart of a schedule (GPipe, 1F1B, interleaved 1F1B, ZB-H1) from
// core's simulatePipeline, its measured bubble next to the analytic one, and the micro-batches
// each stage keeps in flight (what sets its activation memory).
class PipelinePage : public Page {
    Q_OBJECT
public:
    explicit PipelinePage(QWidget *parent = nullptr);

    // The page's id and title before it exists (the navigator lists pages built on first show).
    static QString pageId();
    static QString pageTitle();
    QString id() const override { return pageId(); }
    QString title() const override { return pageTitle(); }
    QList<ChartView *> charts() const override;
    void retranslate() override;

    void setSchedule(parallel::PipelineScheduleKind schedule);
    void setStages(int stages);
    void setMicroBatches(int micro_batches);
    void setChunks(int chunks);
    // The timeline shown; its tasks are empty when the inputs were rejected (see problemText()).
    const parallel::PipelineTimeline &timeline() const;
    QString problemText() const;
    // The "bubble" line under the controls.
    QString bubbleText() const;
    ChartView *ganttChart() const;
    ChartView *inFlightChart() const;
    // A measured run of `train --pp P --json` beside the simulation (issue 33); loading one sets the
    // schedule, p and m above to the run's.
    PipelineMeasuredPanel *measuredPanel() const { return measured_; }
    // Step controls (Space, Left, Right as on the Collectives page): step k of stepCount() shows
    // the timeline up to the k-th time at which a task starts or ends; the last step (the default
    // after every change) shows the whole step.
    StepPlayer *player() const { return player_; }
    // The time up to which the Gantt chart is drawn (the makespan at the last step).
    double cursorSeconds() const;

    // Lessons (pipeline_page_lesson.cpp): "schedule", "stages", "microbatches", "chunks", "step".
    QJsonObject lessonSettings() const override;
    bool applyLessonSettings(const QJsonObject &settings, QString *error) override;
    bool advanceLessonAnimation() override;
    QList<QWidget *> lessonAnimationWidgets() const override;
    bool restartLessonAnimation() override;

signals:
    void timelineChanged();

protected:
    void estimateChanged(const Scenario *previous) override;
    void applyPresentation(bool presentation) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    void simulate();
    void refresh();
    void retranslateControls();
    ChartData ganttData() const;
    ChartData inFlightData() const;
    QString inputsText() const;
    QString analyticFormula() const;

    QLabel *intro_;
    QLabel *schedule_label_;
    QComboBox *schedule_box_;
    QLabel *stages_label_;
    QSpinBox *stages_spin_;
    QLabel *micro_label_;
    QSpinBox *micro_spin_;
    QLabel *chunks_label_;
    QSpinBox *chunks_spin_;
    QLabel *bubble_label_;
    StepPlayer *player_;
    ChartView *gantt_chart_;
    ChartView *in_flight_chart_;
    PipelineMeasuredPanel *measured_;

    double activation_bytes_per_layer_ = 0;
    parallel::PipelineTimeline timeline_;
    std::vector<double> event_seconds_;  // distinct task start and end times, ascending (the steps)
    QString problem_;
};

}  // namespace lse::gui
