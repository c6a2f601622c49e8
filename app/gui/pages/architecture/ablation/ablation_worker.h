// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs reference::runAblation in a worker thread so the window stays responsive: the runner's
// progress callback stores a snapshot (variant, step, loss and the curves so far) under a mutex,
// a timer on the GUI thread polls it, Cancel sets the runner's flag (honoured between steps), and
// the finished result is delivered on the GUI thread.

#include "reference/ablation/ablation_runner.h"

#include <QObject>

#include <memory>
#include <optional>
#include <vector>

class QTimer;

namespace lse::gui {

class AblationWorker : public QObject {
    Q_OBJECT
public:
    // What the run has done so far, copied out of the worker thread.
    struct Snapshot {
        reference::AblationProgress::Phase phase = reference::AblationProgress::Phase::Tokenizing;
        int variant = 0;
        int variant_count = 0;
        QString variant_name;
        int step = 0;
        int steps = 0;
        double loss = 0;
        std::vector<reference::AblationResult> variants;  // finished ones and the one training
    };

    explicit AblationWorker(QObject *parent = nullptr);
    // Cancels a run still going and waits for its thread.
    ~AblationWorker() override;

    void start(const reference::AblationSpec &spec);
    void cancel();
    bool isRunning() const;
    Snapshot snapshot() const;
    // The last finished run (results or the problems that stopped it).
    const std::optional<Result<reference::AblationResults>> &result() const { return result_; }

signals:
    void progress();
    void finished();

private:
    struct Job;
    void deliver(const std::shared_ptr<Job> &job);

    std::shared_ptr<Job> job_;
    QTimer *poll_;
    std::optional<Result<reference::AblationResults>> result_;
};

}  // namespace lse::gui
