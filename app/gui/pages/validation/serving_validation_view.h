// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "validation/serving_validation.h"

#include <QWidget>

#include <atomic>
#include <memory>
#include <optional>
#include <thread>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace lse::gui {

class ChartView;

// The Validation page's "Serving" tab: the serving model (core/inference) against the published
// inference measurements (core/validation/serving_validation.h): predicted vs published per figure
// (scatter and table), the mean and worst |error| overall and per accelerator and precision with the
// catalog's serving factors, and beside them the leave-one-source-out errors. Those refit the
// factors once per source (about a second each), so they run off the GUI thread with progress and
// Cancel, as the training tab's held-out errors do (HeldOutRunner), and start the first time the
// tab is shown; destroying the view cancels the run and waits for the fit in progress.
class ServingValidationView : public QWidget {
    Q_OBJECT
public:
    explicit ServingValidationView(QWidget *parent = nullptr);
    ~ServingValidationView() override;

    ChartView *scatterChart() const { return scatter_chart_; }
    QTableWidget *table() const { return table_; }
    QLabel *summaryLabel() const { return summary_label_; }
    // Computes the comparisons with the catalog's factors unless done (milliseconds).
    void ensureComputed();
    void startHeldOut();
    void cancelHeldOut();
    bool heldOutRunning() const { return job_ != nullptr && running_; }
    // Blocks up to `timeout_ms` for the held-out run; on success heldOutFinished() has been emitted.
    bool waitForHeldOut(int timeout_ms);
    const std::optional<ServingValidation> &validation() const { return validation_; }
    const std::optional<ServingValidation> &heldOut() const { return held_out_; }
    void retranslate();

signals:
    void heldOutProgress(int done_sources, int total_sources);
    void heldOutFinished();

protected:
    // The held-out fits start when the tab is first shown.
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    struct Job {
        std::atomic<bool> cancelled{false};
        std::atomic<bool> done{false};
        std::optional<Result<ServingValidation>> result;
        std::thread thread;
    };
    void deliver(const std::shared_ptr<Job> &job);
    void refresh();
    void fillTable();

    QLabel *intro_;
    QLabel *summary_label_;
    QLabel *accelerator_label_;
    QProgressBar *progress_;
    QPushButton *held_out_button_;
    ChartView *scatter_chart_;
    QTableWidget *table_;

    std::optional<ServingValidation> validation_;  // the catalog's factors
    std::optional<ServingValidation> held_out_;    // leave one source out
    QString error_;
    QString held_out_error_;
    bool held_out_started_ = false;
    bool running_ = false;
    std::shared_ptr<Job> job_;
};

}  // namespace lse::gui
