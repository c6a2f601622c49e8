// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "validation/accelerator_validation.h"

#include <QObject>

#include <atomic>
#include <memory>
#include <optional>
#include <thread>

namespace lse::gui {

// Runs the per-accelerator validation with leave-one-source-out (validateByAccelerator: a fit per
// source, a few seconds) off the GUI thread, with progress and cancel. Signals arrive on the
// runner's thread. A finished result is kept for the process: the same runs again are delivered
// at once (still through finished(), on the next event loop pass).
class HeldOutRunner : public QObject {
    Q_OBJECT
public:
    explicit HeldOutRunner(QObject *parent = nullptr);
    // Cancels a run still going and waits for its thread.
    ~HeldOutRunner() override;

    void start(const std::vector<PublishedRun> &runs);
    void cancel();
    bool isRunning() const { return running_; }
    // Forgets the kept result (tests of the computation itself).
    static void clearCache();
    // Blocks up to `timeout_ms` for the current run; on success finished() has been emitted.
    bool waitForFinished(int timeout_ms);
    // The newest finished run (problems include the rule "cancelled" after cancel()).
    const std::optional<Result<std::vector<AcceleratorValidation>>> &result() const { return result_; }

signals:
    void progress(int done_runs, int total_runs);
    void finished();

private:
    struct Job {
        std::atomic<bool> cancelled{false};
        std::atomic<bool> done{false};
        std::optional<Result<std::vector<AcceleratorValidation>>> result;
        std::thread thread;
    };
    void deliver(const std::shared_ptr<Job> &job);

    std::shared_ptr<Job> job_;
    bool running_ = false;
    std::optional<Result<std::vector<AcceleratorValidation>>> result_;
};

}  // namespace lse::gui
