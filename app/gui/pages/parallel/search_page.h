// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_data.h"
#include "pages/page.h"
#include "parallel/layout_search.h"

#include <QByteArray>

#include <optional>

class QCheckBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTimer;

namespace lse::gui {

class LayoutSearchRunner;

// Every parallel layout of the scenario's GPUs ranked by step time: a sortable table of the fastest
// fitting layouts and a memory-vs-throughput scatter of all of them. The search runs in a worker
// thread with progress and Cancel; Apply (or a double-click) makes a layout the scenario's in one
// undoable step.
class SearchPage : public Page {
    Q_OBJECT
public:
    explicit SearchPage(QWidget *parent = nullptr);
    ~SearchPage() override;

    // The page's id and title before it exists (the navigator lists pages built on first show).
    static QString pageId();
    static QString pageTitle();
    QString id() const override { return pageId(); }
    QString title() const override { return pageTitle(); }
    QList<ChartView *> charts() const override;
    void retranslate() override;
    // Not ready while a search runs; ready() follows its end (finished or cancelled).
    bool isReady() const override;

    // The table's columns (sortable; the rank column keeps the search's order).
    enum Column {
        RankColumn, DpColumn, TpColumn, PpColumn, CpColumn, EpColumn, VColumn, SpColumn, ZeroColumn,
        MicroBatchColumn, RecomputeColumn, MemoryColumn, StepColumn, TokensColumn, MfuColumn,
        BandColumn,  // "best" / "≈ best": within the error band of the best (issue 29 §2)
        ColumnCount
    };

    // Starts (or restarts) the search of the current scenario with the options of the widgets.
    void runSearch();
    void cancelSearch();
    bool isSearching() const;
    // Blocks up to `timeout_ms` for a running search (tests, screenshots); true when none runs.
    bool waitForSearch(int timeout_ms);
    // The newest finished search, or null.
    const parallel::SearchResult *result() const;
    // The result was computed for another scenario or other options than the current ones.
    bool isStale() const;
    // The options the widgets hold / set the widgets.
    parallel::SearchOptions searchOptions() const;
    void setSearchOptions(const parallel::SearchOptions &options);
    // The candidate in a table row (any sort order), or null.
    const parallel::LayoutCandidate *candidateAtRow(int row) const;
    // Asks for the scenario with that row's layout (scenarioEditRequested); false if none.
    bool applyRow(int row);

    QTableWidget *resultsTable() const { return table_; }
    ChartView *scatterChart() const { return scatter_; }

    // Lessons (search_page_lesson.cpp): the search options "top", "zero_stages", "recomputations".
    // Setting them re-runs a fast search as editing them does (in the worker thread).
    QJsonObject lessonSettings() const override;
    bool applyLessonSettings(const QJsonObject &settings, QString *error) override;
    QPushButton *applyButton() const { return apply_button_; }

protected:
    void estimateChanged(const Scenario *previous) override;
    void applyPresentation(bool presentation) override;
    void changeEvent(QEvent *event) override;

private:
    void retranslateControls();
    void onSearchFinished();
    void onProgress(qint64 evaluated, qint64 total);
    void optionsChanged();
    void fillTable();
    void markCurrentRow();  // bold, "(current)": the row whose layout the scenario has
    void refreshChart();
    void updateStatus();
    void updateButtons();
    QByteArray searchKey(const Scenario &scenario, const parallel::SearchOptions &options) const;

    // Options
    QGroupBox *options_box_;
    QLabel *top_label_;
    QSpinBox *top_spin_;
    QLabel *ranking_label_;  // what the ranking is: the predicted step time (no typed efficiency)
    QLabel *zero_label_;
    QCheckBox *zero_checks_[4];
    QLabel *recompute_label_;
    QCheckBox *recompute_checks_[3];
    QPushButton *run_button_;
    QPushButton *cancel_button_;
    QProgressBar *progress_;
    QLabel *status_label_;
    QLabel *stale_label_;
    QLabel *current_label_;
    QTableWidget *table_;
    QPushButton *apply_button_;
    ChartView *scatter_;

    LayoutSearchRunner *runner_;
    std::optional<parallel::LayoutCandidate> current_;  // the scenario's own layout, timed by core
    std::optional<Estimate> predicted_run_;  // the scenario with its MFU predicted (mfu_source Predicted)
    QString current_problem_;
    QByteArray result_key_;  // searchKey() of the newest finished search
    double last_search_seconds_ = -1;
    QTimer *chart_deadline_ = nullptr;  // see kChartWaitSeconds
};

}  // namespace lse::gui
