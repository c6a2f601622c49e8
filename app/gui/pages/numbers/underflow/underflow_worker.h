// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs the Underflow section's training jobs in a worker thread so the window stays responsive:
// collecting the reference transformer's gradients (numbers::collectReferenceGradients) or the
// dynamic loss-scaling simulation (numbers::simulateLossScaling). The core callbacks store the
// progress under a mutex, a timer on the GUI thread polls it, Cancel sets the core's flag (honoured
// between steps), and the result is delivered on the GUI thread.

#include "numbers/gradient_histogram.h"
#include "numbers/loss_scaling.h"

#include <QObject>

#include <memory>
#include <optional>

class QTimer;

namespace lse::gui {

class UnderflowWorker : public QObject {
    Q_OBJECT
public:
    enum class Kind { Gradients, Simulation };
    struct Progress {
        Kind kind = Kind::Gradients;
        int step = 0;   // steps done
        int steps = 0;  // steps asked for
        std::vector<numbers::LossScalingStep> simulated;  // Simulation: the steps so far
    };

    explicit UnderflowWorker(QObject *parent = nullptr);
    // Cancels a job still going and waits for its thread.
    ~UnderflowWorker() override;

    void startGradients(const numbers::GradientSnapshotOptions &options);
    void startSimulation(const numbers::LossScalingOptions &options);
    void cancel();
    bool isRunning() const;
    Progress progress() const;
    // The last finished job of each kind (its result or the problems that stopped it).
    const std::optional<Result<numbers::GradientSnapshot>> &gradients() const { return gradients_; }
    const std::optional<Result<numbers::LossScalingRun>> &simulation() const { return simulation_; }

signals:
    void progressed();
    void finished(lse::gui::UnderflowWorker::Kind kind);

private:
    struct Job;
    void start(const std::shared_ptr<Job> &job);
    void deliver(const std::shared_ptr<Job> &job);

    std::shared_ptr<Job> job_;
    QTimer *poll_;
    std::optional<Result<numbers::GradientSnapshot>> gradients_;
    std::optional<Result<numbers::LossScalingRun>> simulation_;
};

}  // namespace lse::gui
