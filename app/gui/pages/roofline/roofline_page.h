// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_data.h"
#include "hardware/machine_roofline.h"
#include "pages/lesson_controls.h"
#include "pages/page.h"
#include "pages/traces/trace_session.h"
#include "reference/op_profiler.h"
#include "reference/trainer.h"
#include "roofline/measured_roofline.h"
#include "roofline/roofline.h"

#include <QMap>

#include <atomic>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSlider;
class QTableWidget;
class QThread;

namespace lse::gui {

// The roofline lab (Williams et al. 2009): the rooflines of catalog accelerators and of this CPU
// on log–log axes, the scenario's operators of one training / prefill / decode step as points, a
// batch slider for decode, the reference transformer's measured operators on the CPU roofline,
// and a sortable table of the operators with CSV export.
class RooflinePage : public Page, public TraceSessionClient {
    Q_OBJECT
public:
    explicit RooflinePage(QWidget *parent = nullptr);
    ~RooflinePage() override;

    // The page's id and title before it exists (the navigator lists pages built on first show).
    static QString pageId();
    static QString pageTitle();
    QString id() const override { return pageId(); }
    QString title() const override { return pageTitle(); }
    QList<ChartView *> charts() const override;
    void retranslate() override;

    // Lesson settings (roofline_lesson_settings.cpp; keys in docs/lesson-pages.md).
    QJsonObject lessonSettings() const override;
    bool applyLessonSettings(const QJsonObject &settings, QString *error) override;

    ChartView *acceleratorChart() const { return accelerator_chart_; }
    ChartView *machineChart() const { return machine_chart_; }
    QTableWidget *operatorTable() const { return table_; }
    // The report the chart and table show (nothing before a valid scenario or on a problem).
    const std::optional<RooflineReport> &report() const { return report_; }
    // Writes one row per operator of report() with the table's columns as raw numbers.
    bool exportTableCsv(const QString &path, QString *error = nullptr) const;
    // This machine's roofline as if loaded from the cache (tests pass a fake; nothing = none).
    void setMachineRoofline(const std::optional<MachineRoofline> &machine);
    // Measured operators as if a reference run had produced them (tests).
    void setMeasuredRun(const reference::TrainConfig &config, const std::vector<reference::OpRecord> &records,
                        int measured_steps);
    bool busy() const { return worker_ != nullptr; }
    // "Your trace" (roofline_trace_overlay.cpp): the window's loaded traces, drawn as points.
    void setTraceSession(TraceSession *session) override;
    QCheckBox *traceCheck() const { return trace_check_; }
    QLabel *tracePointLabel() const { return trace_point_label_; }
    // The name of the overlay's series ("Your trace: …"), empty when it is not drawn.
    QString traceSeriesName() const;
    // Names overlay point `point` (in the series' order) under the chart, as a click on it does.
    void showTracePoint(qsizetype point);
    // Size of the "Measure reference ops" run: measured steps after one warm-up, and threads
    // (0 = all cores). Tests use a short single-threaded run.
    void setReferenceRunSize(int measured_steps, int threads);
    // Sizes of "Measure this machine" (default: the full measurement `llm-explorer-cli machine`
    // makes). Tests use small matrices repeated for a while, so the stages are short but many.
    void setMachineMeasureOptions(const MachineMeasureOptions &options);
    // Stops the running measurement or reference run before its next stage or step; its partial
    // result is dropped (and not cached) and workerFinished() follows.
    void cancelWorker();
    QPushButton *measureMachineButton() const { return measure_machine_button_; }
    QPushButton *cancelButton() const { return cancel_button_; }
    QProgressBar *progressBar() const { return progress_; }

signals:
    // A worker (machine measurement or reference run) has delivered its result.
    void workerFinished();

protected:
    void estimateChanged(const Scenario *previous) override;
    void applyPresentation(bool presentation) override;
    QList<ChartView *> presentationCharts() const override;
    // Takes a measurement another page (the Reference run) cached since this page last looked.
    void showEvent(QShowEvent *event) override;

private:
    void buildControls();
    void bindLessonControls();
    void retranslateUi();
    void refresh();
    void refreshMachineChart();
    void fillTable();
    void updateSummary();
    void updateBatchLabel();
    std::int64_t sliderBatch() const;
    void setSliderBatch(std::int64_t batch);
    StepPhase phase() const;
    std::optional<DType> chosenDtype() const;
    RooflineMachine operatorMachine() const;
    ChartData acceleratorChartData() const;
    ChartData machineChartData() const;
    // roofline_trace_overlay.cpp
    void addTraceOverlay(ChartData &chart, double &low, double &high) const;
    void connectTracePointClicks();
    void startMachineMeasurement();
    void startReferenceRun();
    void finishWorker();

    // Controls.
    QLabel *intro_;
    QLabel *machines_label_;
    QMap<QString, QCheckBox *> machine_checks_;  // catalog id or "this-cpu"
    QLabel *precision_label_;
    QComboBox *precision_box_;
    QLabel *phase_label_;
    QComboBox *phase_box_;
    QCheckBox *flash_check_;
    QCheckBox *fused_check_;
    QCheckBox *trace_check_ = nullptr;
    QLabel *trace_point_label_ = nullptr;
    TraceSession *trace_session_ = nullptr;
    // The kernels behind the overlay's points, in the series' order (indices into the current rank).
    mutable std::vector<std::size_t> trace_point_kernels_;
    QLabel *batch_title_;
    QSlider *batch_slider_;
    QLabel *batch_label_;
    QLabel *crossover_label_;
    ChartView *accelerator_chart_;
    // This machine.
    QLabel *machine_title_;
    QLabel *machine_status_;
    QPushButton *measure_machine_button_;
    QPushButton *measure_ops_button_;
    QPushButton *cancel_button_;
    QProgressBar *progress_;
    ChartView *machine_chart_;
    // Table.
    QLabel *table_title_;
    QTableWidget *table_;
    QPushButton *export_button_;
    QLabel *summary_label_;

    std::int64_t scenario_micro_batch_ = 0;
    bool scenario_flash_attention_ = true;
    std::optional<RooflineReport> report_;
    QString report_problem_;

    std::optional<MachineRoofline> cpu_;
    QString cpu_missing_reason_;
    std::optional<reference::TrainConfig> measured_config_;
    std::vector<reference::OpRecord> measured_records_;
    int measured_steps_ = 0;
    int reference_steps_ = 4;
    int reference_threads_ = 0;
    MachineMeasureOptions machine_options_;
    QString measure_error_;
    bool measure_cancelled_ = false;  // the last measurement was cancelled; nothing was kept
    std::string cache_measured_at_;   // the cached measurement this page last read or wrote

    QThread *worker_ = nullptr;
    std::atomic<bool> cancel_{false};
    LessonControls lesson_controls_;
};

}  // namespace lse::gui
