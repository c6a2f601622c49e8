// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pages/page.h"
#include "pages/traces/trace_session.h"

#include <QPointer>
#include <QStringList>

class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTableWidget;

namespace lse::gui {

class TraceLoadRunner;
class TracePredictionSection;

// The Trace page (core/traces): a PyTorch profiler (Kineto) trace opened or dropped here, one file
// per rank, read and analysed in the background with progress and cancel. It shows the rank's
// timeline (a row per GPU stream, kernels coloured by class, zoomable), the HTA-style breakdown of
// every step (compute, exposed communication, memory copies, idle host-bound and waiting, with the
// communication overlap), the kernel classes, the top kernels and the operators. Every figure is
// analyseRank()'s. The loaded traces go to the window's TraceSession, which the Roofline page's
// "Your trace" overlay reads.
class TracePage : public Page, public TraceSessionClient {
    Q_OBJECT
public:
    explicit TracePage(QWidget *parent = nullptr);
    ~TracePage() override;

    static QString pageId();
    static QString pageTitle();
    QString id() const override { return pageId(); }
    QString title() const override { return pageTitle(); }
    QList<ChartView *> charts() const override;
    void retranslate() override;
    bool isReady() const override;

    // Lesson settings: "tab", "rank", "sample", "accelerator", "compare" (docs/lesson-pages.md).
    QJsonObject lessonSettings() const override;
    bool applyLessonSettings(const QJsonObject &settings, QString *error) override;

    // The window's session (MainWindow::pageAt); without one the page keeps its own.
    void setTraceSession(TraceSession *session) override;
    TraceSession *session() const { return session_; }

    // Starts reading `paths` (one rank each) in the background; the traces shown stay until it
    // succeeds. A load already running is cancelled first.
    void openFiles(const QStringList &paths);
    // Reads the bundled sample trace (AlexNet on an A100, HTA's test data) from the resources.
    void openSample();
    // Asks for files (File ▸ Open Trace…, the Open button).
    void openWithDialog();
    void cancelLoad();
    bool loading() const;

    // Tests.
    ChartView *timelineChart() const { return timeline_chart_; }
    ChartView *breakdownChart() const { return breakdown_chart_; }
    ChartView *classChart() const { return class_chart_; }
    QTableWidget *kernelTable() const { return kernel_table_; }
    QTableWidget *operatorTable() const { return operator_table_; }
    QComboBox *rankBox() const { return rank_box_; }
    // "CPU operators": the timeline's CPU operator rows for a trace with GPU activities (off by
    // default: a GPU trace's many launch-side operators crowd the streams); hidden for CPU-only traces.
    QCheckBox *cpuRowsCheck() const { return cpu_rows_check_; }
    QLabel *statusLabel() const { return status_label_; }
    QLabel *problemLabel() const { return problem_label_; }
    QProgressBar *progressBar() const { return progress_; }
    QPushButton *cancelButton() const { return cancel_button_; }
    QTabWidget *tabs() const { return tabs_; }
    TracePredictionSection *predictionSection() const { return prediction_; }
    // The problems of the last failed load ("file: traceEvents[12].dur: …"), empty after a success.
    QString lastProblems() const { return last_problems_; }

    // The bundled sample trace's resource path.
    static QString samplePath();

signals:
    // A load finished: succeeded, failed (lastProblems()) or cancelled.
    void loadFinished();

protected:
    void estimateChanged(const Scenario *previous) override;
    void applyPresentation(bool presentation) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void buildUi();
    void retranslateUi();
    void finishLoad();
    void refresh();
    void fillRankBox();
    void fillStatus();
    // trace_page_tables.cpp
    void fillKernelTable();
    void fillOperatorTable();

    TraceSession *session_ = nullptr;
    TraceSession *own_session_ = nullptr;
    TraceLoadRunner *runner_ = nullptr;
    QStringList loading_names_;

    QLabel *intro_ = nullptr;
    QPushButton *open_button_ = nullptr;
    QPushButton *sample_button_ = nullptr;
    QLabel *rank_label_ = nullptr;
    QComboBox *rank_box_ = nullptr;
    QCheckBox *cpu_rows_check_ = nullptr;
    QProgressBar *progress_ = nullptr;
    QPushButton *cancel_button_ = nullptr;
    QLabel *status_label_ = nullptr;
    QLabel *problem_label_ = nullptr;
    QTabWidget *tabs_ = nullptr;
    QWidget *empty_filler_ = nullptr;
    ChartView *timeline_chart_ = nullptr;
    ChartView *breakdown_chart_ = nullptr;
    ChartView *class_chart_ = nullptr;
    QLabel *classification_label_ = nullptr;
    QLabel *kernels_title_ = nullptr;
    QTableWidget *kernel_table_ = nullptr;
    QLabel *operators_title_ = nullptr;
    QTableWidget *operator_table_ = nullptr;
    TracePredictionSection *prediction_ = nullptr;
    QString last_problems_;
};

}  // namespace lse::gui
