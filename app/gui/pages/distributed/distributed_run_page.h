// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pages/lesson_controls.h"
#include "pages/page.h"
#include "pages/distributed/distributed_run_process.h"
#include "pages/distributed/distributed_run_results.h"
#include "pages/distributed/distributed_run_setup.h"

#include <QString>

#include <atomic>
#include <memory>
#include <optional>
#include <thread>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTemporaryDir;

namespace lse::gui {

class ChartView;
class PipelineMeasuredPanel;
struct DistributedRunFiles;

// Issue 19's "Distributed run": the reference transformer trained by N processes on this machine
// (mpiexec starting `llm-explorer-cli train`). The parallelism (issue 33) is data parallel (naive or
// bucketed DP, ZeRO-1/2), tensor parallel (with or without sequence parallelism), pipeline parallel
// (GPipe or 1F1B over micro-batches), or dp × tp / dp × pp. The setup (layout and degrees, ranks,
// mode, bucket, schedule, micro-batches, steps, global batch, preset, text and tokenizer) is checked
// before anything starts; a worker thread tokenizes the text and writes the token file and config to
// a temporary folder, then mpiexec runs the ranks with progress from rank 0's step lines. The
// results set each step's measured bytes per rank and memory beside the engine's prediction, every
// purpose's traffic beside the engine's bytes for it; a timeline shows rank 0's compute, exposed
// communication and each collective of a data-parallel run, and a pipeline run's last step is drawn
// as the Pipeline page's measured Gantt chart with its bubble. Independent of the scenario.
class DistributedRunPage : public Page {
    Q_OBJECT
public:
    enum class State { Idle, Preparing, Running, Finished, Cancelled, Failed };
    Q_ENUM(State)

    explicit DistributedRunPage(QWidget *parent = nullptr);
    ~DistributedRunPage() override;

    // The page's id and title before it exists (the navigator lists pages built on first show).
    static QString pageId();
    static QString pageTitle();
    QString id() const override { return pageId(); }
    QString title() const override { return pageTitle(); }
    QList<ChartView *> charts() const override;
    void retranslate() override;
    bool isReady() const override;

    // The setup as the controls show it.
    DistributedRunSetup setup() const;
    // Replaces the selected preset's configuration (tests use a smaller model).
    void setPresetConfig(const reference::TrainConfig &config);
    // Uses `text` itself as the training text (tests).
    void setCustomText(const QString &text);
    // The programs the run uses (found on PATH and next to the app by default); an empty mpiexec
    // disables Start.
    void setLaunchers(const QString &mpiexec, const QString &cli);

    // Checks the setup and starts the run; false (with the reason in the status) when it cannot.
    bool start();
    void cancel();

    State state() const { return state_; }
    QString statusText() const;
    QString summaryText() const;  // the results' first line: the layout, and the steps equal to the engine
    const std::optional<DistributedRunResults> &results() const { return results_; }
    // The mpiexec of the current run (0 when none runs).
    qint64 launcherProcessId() const;
    QTableWidget *stepTable() const { return step_table_; }
    QTableWidget *memoryTable() const { return memory_table_; }
    ChartView *timelineChart() const { return timeline_chart_; }
    QPushButton *startButton() const { return start_button_; }
    QPushButton *cancelButton() const { return cancel_button_; }
    QSpinBox *ranksSpin() const { return ranks_spin_; }
    QSpinBox *batchSpin() const { return batch_spin_; }
    QComboBox *textBox() const { return text_box_; }  // the training texts: bundled samples, chosen files
    QSpinBox *stepsSpin() const { return steps_spin_; }
    QComboBox *modeBox() const { return mode_box_; }
    QComboBox *parallelismBox() const { return parallelism_box_; }  // in DistributedParallelism's order
    QSpinBox *dpSpin() const { return dp_spin_; }
    QSpinBox *tpSpin() const { return tp_spin_; }
    QSpinBox *ppSpin() const { return pp_spin_; }
    QCheckBox *sequenceParallelCheck() const { return sp_check_; }
    QComboBox *scheduleBox() const { return schedule_box_; }  // GPipe, 1F1B
    QSpinBox *microBatchesSpin() const { return micro_spin_; }
    QSpinBox *bucketSpin() const { return bucket_spin_; }
    QTableWidget *trafficTable() const { return traffic_table_; }
    PipelineMeasuredPanel *pipelinePanel() const { return pipeline_panel_; }

    // Lessons (distributed_run_lesson.cpp): "parallelism" (dp, tp, pp, dp_tp, dp_pp), "ranks", "mode",
    // "bucket_mib", "dp", "tp", "pp", "sequence_parallel", "schedule" (gpipe, 1f1b), "micro_batches",
    // "steps", "global_batch", "preset", "tokenizer". A lesson never starts a run; settings are refused while one runs.
    QJsonObject lessonSettings() const override;
    bool applyLessonSettings(const QJsonObject &settings, QString *error) override;

signals:
    void stateChanged(lse::gui::DistributedRunPage::State state);
    void stepProgress(int step, int steps);
    // The run ended: finished, cancelled or failed (state() says which).
    void runEnded();

protected:
    void applyPresentation(bool presentation) override;
    QList<ChartView *> presentationCharts() const override;
    void changeEvent(QEvent *event) override;

private:
    struct Preset {
        QString name;
        reference::TrainConfig config;
    };

    void loadPresets();
    void loadTexts();
    void bindLessonControls();
    void retranslateUi();
    void applyFonts();
    void updateControls();
    // distributed_run_layout.cpp: the layout controls' state and their tooltips (why a control does
    // not apply, the rule of one that does).
    DistributedParallelism parallelism() const;
    void updateLayoutControls(bool idle);
    void retranslateLayoutControls();
    // distributed_run_traffic.cpp
    void fillTrafficTable();
    void refreshPipelinePanel();
    void setState(State state);
    void fail(const QString &message);
    QString selectedText(QString *error) const;
    void joinPreparation();
    void onFilesWritten(int run_id, std::shared_ptr<DistributedRunFiles> files, const QString &error);
    void onProcessFinished(DistributedRunProcess::Outcome outcome);
    // distributed_run_views.cpp
    void fillStepTable();
    void fillMemoryTable();
    void refreshResults();

    // Setup.
    QWidget *content_;
    QLabel *intro_;
    QGroupBox *setup_box_;
    QLabel *parallelism_label_;
    QComboBox *parallelism_box_;
    QLabel *ranks_label_;
    QSpinBox *ranks_spin_;
    QLabel *dp_label_;
    QSpinBox *dp_spin_;
    QLabel *tp_label_;
    QSpinBox *tp_spin_;
    QCheckBox *sp_check_;
    QLabel *pp_label_;
    QSpinBox *pp_spin_;
    QLabel *schedule_label_;
    QComboBox *schedule_box_;
    QLabel *micro_label_;
    QSpinBox *micro_spin_;
    QLabel *mode_label_;
    QComboBox *mode_box_;
    QLabel *bucket_label_;
    QSpinBox *bucket_spin_;
    QLabel *steps_label_;
    QSpinBox *steps_spin_;
    QLabel *batch_label_;
    QSpinBox *batch_spin_;
    QLabel *preset_label_;
    QComboBox *preset_box_;
    QLabel *text_label_;
    QComboBox *text_box_;
    QPushButton *file_button_;
    QLabel *tokenizer_label_;
    QComboBox *tokenizer_box_;
    QPushButton *start_button_;
    QPushButton *cancel_button_;
    QLabel *launcher_label_;
    QProgressBar *progress_;
    QLabel *status_label_;
    // Results.
    QLabel *summary_label_;
    QLabel *steps_table_label_;
    QTableWidget *step_table_;
    QLabel *memory_table_label_;
    QTableWidget *memory_table_;
    QLabel *traffic_table_label_;
    QTableWidget *traffic_table_;
    ChartView *timeline_chart_;
    PipelineMeasuredPanel *pipeline_panel_;

    std::vector<Preset> presets_;
    QString custom_text_;
    QString mpiexec_;
    QString cli_;
    State state_ = State::Idle;
    QString message_;  // the status line's detail: the error, or the run's facts
    int run_id_ = 0;   // files written for an older (cancelled) Start are dropped
    int steps_done_ = 0;
    int steps_total_ = 0;
    DistributedRunSetup running_setup_;
    std::optional<DistributedRunResults> results_;
    std::unique_ptr<QTemporaryDir> folder_;
    DistributedRunProcess *process_;
    LessonControls lesson_controls_;
    // The tokenizing thread; cancel_ stops its BPE training (Cancel, or the page going away).
    std::thread preparation_;
    std::atomic<bool> cancel_preparation_{false};
};

}  // namespace lse::gui
