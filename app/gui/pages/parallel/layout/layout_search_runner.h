// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs parallel::searchLayouts in a worker thread so the window never freezes: progress is polled
// from the search's callback, Cancel makes the callback return false, and a newer start() makes
// any older run's result be dropped.

#include "parallel/layout_search.h"

#include <QObject>

#include <memory>
#include <optional>
#include <vector>

class QTimer;

namespace lse::gui {

class LayoutSearchRunner : public QObject {
    Q_OBJECT
public:
    explicit LayoutSearchRunner(QObject *parent = nullptr);
    // Cancels every run still going and waits for their threads.
    ~LayoutSearchRunner() override;

    // Starts a search of `base` (any run still going is cancelled and its result dropped).
    void start(const Scenario &base, const parallel::SearchOptions &options);
    void cancel();
    bool isRunning() const;
    // Blocks up to `timeout_ms` for the current run; on success finished() has been emitted.
    bool waitForFinished(int timeout_ms);

    // The newest finished run: the result or the problems that prevented it.
    const std::optional<Result<parallel::SearchResult>> &result() const { return result_; }
    const Scenario &resultScenario() const { return result_scenario_; }
    const parallel::SearchOptions &resultOptions() const { return result_options_; }

signals:
    void started();
    void progress(qint64 evaluated, qint64 total);
    void finished();

private:
    struct Job;
    void deliver(const std::shared_ptr<Job> &job);
    void pollProgress();

    std::vector<std::shared_ptr<Job>> jobs_;  // every thread not yet joined, newest last
    std::shared_ptr<Job> current_;
    QTimer *progress_timer_;
    std::optional<Result<parallel::SearchResult>> result_;
    Scenario result_scenario_;
    parallel::SearchOptions result_options_;
};

}  // namespace lse::gui
