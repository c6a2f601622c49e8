// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "hardware/machine_kernel_factors.h"
#include "hardware/machine_roofline.h"
#include "pages/page.h"
#include "reference/op_trace.h"
#include "reference/trainer.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QGridLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace lse::gui {

class ChartView;

// The CPU reference transformer (issue 5) trained in the app: pick a small preset and a text, a
// byte-level BPE is trained on the text and encodes it, and a worker thread trains the model with
// live loss and validation curves, tokens/s, step time and MFU. A table sets the cost engine's
// prediction for the same model, batch and sequence length beside what the run measures (FLOPs
// per step, memory per category, step time); a bar chart splits a step's time per op; a generation
// box samples from the model as it learns. Independent of the scenario.
//
// Threads: one worker owns the tokenizer and the Trainer and does everything slow (tokenization,
// steps, generation, measuring the machine). The UI thread only sends requests under a mutex and
// receives copies through queued invocations; it waits for the worker only when the page is
// destroyed (after setting the quit flag, so at most the current step or measurement finishes).
class ReferenceRunPage : public Page {
    Q_OBJECT
public:
    enum class State { Idle, Preparing, Training, Paused, Finished, Stopped, Failed };
    Q_ENUM(State)

    explicit ReferenceRunPage(QWidget *parent = nullptr);
    ~ReferenceRunPage() override;

    // The page's id and title before it exists (the navigator lists pages built on first show).
    static QString pageId();
    static QString pageTitle();
    QString id() const override { return pageId(); }
    QString title() const override { return pageTitle(); }
    QList<ChartView *> charts() const override;
    void retranslate() override;

    // Presets: the compiled-in :/reference/*.json, or built-in tiny configurations when none exist.
    QStringList presetNames() const;
    QComboBox *presetBox() const { return preset_box_; }
    // The selected preset's configuration (data_path and vocab_size are set at Start).
    reference::TrainConfig selectedConfig() const;
    // Replaces the selected preset's configuration (tests use a tiny one).
    void setPresetConfig(const reference::TrainConfig &config);
    // Text sources: the bundled :/samples/*.txt (or a built-in sample) and files the user chose.
    QComboBox *textBox() const { return text_box_; }
    // Adds a text file as a source and selects it.
    void addTextFile(const QString &path);
    // Uses `text` itself as the training text (tests).
    void setCustomText(const QString &text);
    void setVocabSize(int vocab);
    void setSteps(int steps);

    // Start trains a BPE on the text, writes the token file and creates the Trainer, then trains.
    bool start();
    void pause();
    void resume();
    void stop();
    // Samples from the current model (between steps, or when paused, finished or stopped).
    bool generate(const QString &prompt, int max_tokens = 60, double temperature = 0.8, int top_k = 20);
    // Measures this machine's SGEMM peak and bandwidth in the worker and caches it.
    void measureMachine();

    State state() const { return state_; }
    int lastStep() const { return last_report_ ? last_report_->step : 0; }
    std::optional<reference::StepReport> lastReport() const { return last_report_; }
    bool isGenerating() const { return generating_; }
    QString generatedText() const;
    ChartView *lossChart() const { return loss_chart_; }
    ChartView *opsChart() const { return ops_chart_; }
    QTableWidget *comparisonTable() const { return table_; }
    // Each operator's predicted and measured time in the last step, largest differences first.
    QTableWidget *operatorsTable() const { return operators_table_; }
    QString statusText() const;
    double peakFlopsPerSecond() const { return peak_flops_; }
    // The configuration of the current run as the trainer uses it (vocabulary from the BPE).
    std::optional<reference::TrainConfig> runConfig() const;
    // The line about this machine's measured roofline: peak, when measured, warnings.
    QString machineText() const;
    QString statsText() const;  // the line under the controls: step, loss, tokens/s, MFU, threads
    QPushButton *measureButton() const { return measure_button_; }

    // The run's trace (issue 31): every run records kTraceSteps steps as Chrome-trace JSON
    // (core/reference/chrome_trace_writer.h), those after the first (cold caches) unless the run is
    // that short; "Save trace…" writes them once they are taken.
    static constexpr int kTraceSteps = 3;
    bool hasTrace() const { return !trace_document_.isEmpty(); }
    const QByteArray &traceDocument() const { return trace_document_; }
    // Writes the recorded trace through the GUI's output path (output/output_file.h: atomic, never a
    // device or a file this window reads); `error` gets the reason when it cannot.
    bool saveTrace(const QString &path, QString *error);
    QPushButton *traceButton() const { return trace_button_; }

    // Lessons (reference_run_lesson_settings.cpp): the run's setup ("preset", "text", "vocab_size",
    // "steps") and the generation controls ("prompt", "max_tokens", "temperature", "top_k"). A
    // lesson never starts a run; the setup is refused while one is in progress.
    QJsonObject lessonSettings() const override;
    bool applyLessonSettings(const QJsonObject &settings, QString *error) override;

signals:
    void stateChanged(lse::gui::ReferenceRunPage::State state);
    void stepReported(int step);
    void generationFinished(bool ok);
    void machineMeasured(bool ok);
    void traceRecorded();

protected:
    void applyPresentation(bool presentation) override;
    QList<ChartView *> presentationCharts() const override;
    void changeEvent(QEvent *event) override;
    // Takes a measurement another page (the Roofline) cached since this page last looked.
    void showEvent(QShowEvent *event) override;

private:
    struct Preset {
        QString name;
        reference::TrainConfig config;
    };
    struct Setup {
        int id = 0;  // run_id_ of the Start that asked for it
        reference::TrainConfig config;
        std::string text;
        int vocab = 0;
        std::optional<MachineRoofline> roofline;  // this machine at Start: MFU peak and step-time prediction
    };
    struct GenerateRequest {
        std::string prompt;
        reference::GenerateOptions options;
    };
    // Facts of the created run, posted once by the worker.
    struct RunInfo {
        reference::TrainConfig config;
        std::int64_t text_bytes = 0;
        std::int64_t tokens = 0;
        std::int64_t parameters = 0;
        reference::ReferenceMemory memory;
        double optimizer_bytes = 0;
        double bpe_seconds = 0;
        reference::ThreadChoice threads;
        std::optional<MachineRoofline> roofline;
        // This CPU's kernel factors at the run's threads (the step-time predictor's), and why they
        // were measured again or are missing.
        std::optional<CpuKernelFactors> kernels;
        QString kernels_note;
    };
    // What the last training step (without validation) counted, per op.
    struct StepProfile {
        std::vector<reference::OpRecord> ops;
        double matmul_flops = 0;
        double total_flops = 0;
    };

    // The measured step time is the median of this many latest steps: recent enough to follow a
    // change of load, enough for one stalled step not to matter.
    static constexpr std::size_t kTimedSteps = 256;

    void loadPresets();
    void loadSamples();
    void retranslateUi();
    void applyFonts();
    void nameLessonRegions();
    QString lessonTextId(int index) const;
    void updateShape();
    void updateButtons();
    void setState(State state);
    void ensureWorker();
    void workerLoop();
    void postStatus(const QString &text);
    void onRunReady(int id, std::shared_ptr<RunInfo> info);
    void onRunFailed(int id, const QString &error);
    // Takes every step report the worker queued since the last call and redraws once.
    void drainSteps();
    void onGenerated(const QString &text, bool done, bool ok);
    void onMeasured(std::shared_ptr<MachineRoofline> roofline);
    void refreshLossChart();
    void refreshTable();
    void refreshOperatorsTable();
    void refreshOpsChart();
    void refreshStats();
    // reference_run_trace.cpp: the document of the steps the worker recorded, made in the worker.
    static QByteArray traceDocumentOf(const reference::OpTraceLog &log, const reference::TrainConfig &config, int threads);
    void onTraceRecorded(int id, const QByteArray &document, int first_step, int last_step);
    void chooseTraceFile();
    void retranslateTrace();
    QString selectedText(QString *error) const;

    // Widgets.
    QWidget *content_;
    QLabel *intro_;
    QGroupBox *setup_box_;
    QLabel *preset_label_;
    QComboBox *preset_box_;
    QLabel *shape_label_;
    QLabel *text_label_;
    QComboBox *text_box_;
    QPushButton *file_button_;
    QLabel *vocab_label_;
    QSpinBox *vocab_spin_;
    QLabel *steps_label_;
    QSpinBox *steps_spin_;
    QPushButton *start_button_;
    QPushButton *pause_button_;
    QPushButton *stop_button_;
    QPushButton *measure_button_;
    QPushButton *trace_button_;
    QProgressBar *progress_;
    QLabel *status_label_;
    QLabel *peak_label_;
    QLabel *stats_label_;
    ChartView *loss_chart_;
    QLabel *table_label_;
    QTableWidget *table_;
    QLabel *operators_label_;
    QTableWidget *operators_table_;
    ChartView *ops_chart_;
    QGroupBox *gen_box_;
    QLabel *prompt_label_;
    QLineEdit *prompt_edit_;
    QLabel *max_tokens_label_;
    QSpinBox *max_tokens_spin_;
    QLabel *temperature_label_;
    QDoubleSpinBox *temperature_spin_;
    QLabel *top_k_label_;
    QSpinBox *top_k_spin_;
    QPushButton *generate_button_;
    QPlainTextEdit *output_edit_;

    // UI-thread state.
    std::vector<Preset> presets_;
    QString custom_text_;
    State state_ = State::Idle;
    int run_id_ = 0;  // results of an older run (stopped, then started again) are ignored
    QString status_;
    QString error_;
    std::optional<RunInfo> run_;
    std::optional<reference::StepReport> last_report_;
    std::shared_ptr<StepProfile> last_profile_;
    QVector<double> loss_x_, loss_y_, val_x_, val_y_;
    double peak_flops_ = 0;
    std::optional<MachineRoofline> cpu_;  // the cached measurement of this machine
    std::string cache_measured_at_;       // the cached measurement this page last read or wrote
    std::vector<double> step_seconds_;  // wall time of each step of this run, for typicalStepSeconds

    QByteArray trace_document_;  // the current run's recorded steps; empty until they are taken
    int trace_first_step_ = 0;
    int trace_last_step_ = 0;

    bool measuring_ = false;
    bool generating_ = false;
    QString generated_;

    // Shared with the worker (under mutex_).
    std::mutex mutex_;
    std::condition_variable wake_;
    bool quit_ = false;
    std::optional<Setup> setup_request_;
    std::optional<GenerateRequest> generate_request_;
    bool measure_request_ = false;
    struct PendingStep {
        int id = 0;
        reference::StepReport report;
        std::shared_ptr<StepProfile> profile;
        bool finished = false;
    };
    // Reports wait here and one queued drainSteps() takes them all, so a fast model cannot flood the
    // event queue with more redraws than the UI thread can do.
    std::vector<PendingStep> pending_steps_;
    bool drain_posted_ = false;
    bool train_ = false;   // steps wanted
    bool paused_ = false;
    std::atomic<bool> cancel_{false};  // quit or a new setup: ends BPE training and generation
    // Stop, quit or a new setup: ends the training step under way at its next layer boundary (a
    // step of a larger model lasts seconds, minutes in a sanitizer build). Cleared, under mutex_,
    // before each step.
    std::atomic<bool> interrupt_step_{false};
    std::thread worker_;
};

}  // namespace lse::gui
