// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pages/serving/cpu_decode_runner.h"

#include <QList>
#include <QWidget>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace lse::gui {

class ChartView;
class LessonControls;

// The Serving page's "This CPU" section (issue 30, "Measured on this CPU"): an untrained reference
// preset generates at batches 1, 8 and 32 on this machine (CpuDecodeRunner, in the background,
// with progress and Cancel), beside the prediction from this CPU's kernel factors: decode tokens/s
// and prefill time against the batch as charts, and a table of measured, predicted and their ratio
// per batch. Every figure is core/reference/decode_benchmark's.
class CpuMeasurementSection : public QWidget {
    Q_OBJECT
public:
    explicit CpuMeasurementSection(QWidget *parent = nullptr);

    void retranslate();
    // Lesson key `cpu_preset` (docs/lesson-pages.md).
    void bindLessonControls(LessonControls &controls);
    // The charts that show a run's data (export-all), and all of them (presentation mode).
    QList<ChartView *> chartsWithData() const;
    QList<ChartView *> allCharts() const;
    void setPresentation(bool presentation);

    // Tests: the batches and lengths a Start runs, and kernel factors instead of this CPU's.
    CpuDecodeRequest &request() { return request_; }
    CpuDecodeRunner *runner() const { return runner_; }
    QComboBox *presetBox() const { return preset_box_; }
    QPushButton *startButton() const { return start_button_; }
    QPushButton *cancelButton() const { return cancel_button_; }
    QProgressBar *progressBar() const { return progress_bar_; }
    QLabel *statusLabel() const { return status_label_; }
    QTableWidget *table() const { return table_; }

    void start();
    void cancel();

private:
    void showProgress(const QString &kernel_stage, int batch, int step, int steps);
    void showResult();
    void fillCharts();
    void fillTable();
    void fillStatus();
    void updateButtons();

    CpuDecodeRequest request_;
    CpuDecodeRunner *runner_ = nullptr;
    QLabel *title_ = nullptr;
    QLabel *explanation_ = nullptr;
    QLabel *preset_label_ = nullptr;
    QComboBox *preset_box_ = nullptr;
    QPushButton *start_button_ = nullptr;
    QPushButton *cancel_button_ = nullptr;
    QProgressBar *progress_bar_ = nullptr;
    QLabel *status_label_ = nullptr;
    ChartView *decode_chart_ = nullptr;
    ChartView *prefill_chart_ = nullptr;
    QTableWidget *table_ = nullptr;
    QString progress_stage_;  // the kernel-factor stage being measured
    int progress_batch_ = 0;  // the batch generating (0: none yet)
};

}  // namespace lse::gui
