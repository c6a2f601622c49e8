// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pages/lesson_controls.h"
#include "pages/page.h"
#include "validation/accelerator_validation.h"
#include "validation/validation_table.h"

#include <map>
#include <string>
#include <vector>

class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QTableWidget;
class QTabWidget;

namespace lse::gui {

class HeldOutRunner;
class ServingValidationView;
class ValidationRunsModel;

// How well the step-time prediction matches published runs: predicted against published step time
// per run (scatter with y = x and ±10 %), the runs as a sortable table with the error of each, the
// mean and worst error, and the predicted step of the selected run split into its parts with its
// slowest operators. Per accelerator (issue 29 §4): the scatter is coloured by accelerator, and a
// summary gives each accelerator's runs, sources, error with the catalog factors (fitted to these
// runs) and, always beside it, the leave-one-source-out (held-out) mean, worst and 90th percentile,
// also per run in the table. A run can be loaded as the scenario; "Calibrate…" fits the current
// scenario's accelerator to a measured run (CalibrationDialog). The table does not depend on the
// document: it is computed once (57 predictions, milliseconds), at the first estimate or when
// first shown; the held-out errors (a fit per source, seconds) then run in the background
// (HeldOutRunner) with progress and Cancel.
class ValidationPage : public Page {
    Q_OBJECT
public:
    explicit ValidationPage(QWidget *parent = nullptr);

    // The page's id and title before it exists (the navigator lists pages built on first show).
    static QString pageId();
    static QString pageTitle();
    QString id() const override { return pageId(); }
    QString title() const override { return pageTitle(); }
    // Lesson settings and regions: docs/lesson-pages.md.
    QJsonObject lessonSettings() const override;
    bool applyLessonSettings(const QJsonObject &settings, QString *error) override;
    QList<ChartView *> charts() const override;
    void retranslate() override;

    // Computes the validation table unless it was computed already (showing the page does this).
    void ensureTable();
    QTableView *table() const { return table_; }
    ValidationRunsModel *runsModel() const { return runs_model_; }
    QTableWidget *operatorTable() const { return operator_table_; }
    QLabel *acceleratorSummary() const { return accelerator_label_; }
    QTabWidget *tabs() const { return tabs_; }
    ServingValidationView *servingView() const { return serving_view_; }
    // The held-out errors: running, done (isReady) and the per-accelerator result once done.
    bool isReady() const override;
    bool waitForHeldOut(int timeout_ms);
    const std::vector<AcceleratorValidation> &acceleratorValidation() const { return accelerators_; }
    // Starts the held-out errors again after a cancel (the "Compute" button).
    void startHeldOut();
    void cancelHeldOut();
    // The id of the run the breakdown shows; empty before the table is computed.
    std::string selectedRunId() const { return selected_id_; }
    // Asks for the scenario of the table's row `view_row` (in view order), one undo step. False
    // for a bad row.
    bool loadRun(int view_row);

signals:
    // The breakdown now shows this run.
    void selectedRunChanged(const QString &run_id);

protected:
    void estimateChanged(const Scenario *previous) override;
    void showEvent(QShowEvent *event) override;
    // A font change (presentation mode, zoom) sizes the tables' columns to the new text again.
    void changeEvent(QEvent *event) override;

private:
    void selectRun(int model_row);
    void onSelectionChanged();
    void refresh();
    void refreshSummary();
    void refreshOperators();
    void refreshAcceleratorSummary();
    void fitColumns();
    void onHeldOutFinished();
    std::vector<QString> rowAccelerators() const;
    std::map<std::string, double> heldOutById() const;
    void openCalibration();
    QString factorsToolTip() const;

    QTabWidget *tabs_;                     // "training" (the rest below) and "serving"
    ServingValidationView *serving_view_;  // the serving model against published inference figures
    QLabel *summary_label_;
    QLabel *accelerator_label_;
    QProgressBar *held_out_progress_;
    QPushButton *held_out_button_;
    HeldOutRunner *held_out_runner_;
    std::vector<AcceleratorValidation> accelerators_;
    QString held_out_error_;
    QPushButton *calibrate_button_;
    QPushButton *load_button_;
    QLabel *hint_label_;
    QLabel *operators_label_;
    ChartView *scatter_chart_;
    ChartView *breakdown_chart_;
    QTableView *table_;
    QTableWidget *operator_table_;
    ValidationRunsModel *runs_model_;
    QSortFilterProxyModel *sorted_model_;
    bool computed_ = false;
    QString table_error_;  // the problems when the table could not be computed
    std::string selected_id_;
    void bindLessonControls();
    LessonControls lesson_controls_;
};

}  // namespace lse::gui
