// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/numbers/underflow/underflow_worker.h"

#include <QThread>
#include <QTimer>

#include <atomic>
#include <mutex>

namespace lse::gui {

namespace {
constexpr int kPollIntervalMs = 100;
}

struct UnderflowWorker::Job {
    Kind kind = Kind::Gradients;
    numbers::GradientSnapshotOptions gradient_options;
    numbers::LossScalingOptions simulation_options;
    std::atomic<bool> cancel{false};
    mutable std::mutex mutex;
    Progress progress;  // guarded by mutex
    // Written by the worker before it ends.
    std::optional<Result<numbers::GradientSnapshot>> gradients;
    std::optional<Result<numbers::LossScalingRun>> simulation;
    QThread *thread = nullptr;
    bool delivered = false;

    void run()
    {
        if (kind == Kind::Gradients) {
            gradients = numbers::collectReferenceGradients(
                gradient_options,
                [this](int step, int steps, double) {
                    std::lock_guard lock(mutex);
                    progress.step = step;
                    progress.steps = steps;
                },
                &cancel);
        } else {
            simulation = numbers::simulateLossScaling(
                simulation_options,
                [this](const numbers::LossScalingStep &s, int steps) {
                    std::lock_guard lock(mutex);
                    progress.step = s.step;
                    progress.steps = steps;
                    progress.simulated.push_back(s);
                },
                &cancel);
        }
    }
};

UnderflowWorker::UnderflowWorker(QObject *parent) : QObject(parent), poll_(new QTimer(this))
{
    poll_->setInterval(kPollIntervalMs);
    connect(poll_, &QTimer::timeout, this, [this] {
        if (isRunning())
            emit progressed();
    });
}

UnderflowWorker::~UnderflowWorker()
{
    if (job_ && !job_->delivered) {
        job_->cancel = true;
        job_->thread->wait();
        delete job_->thread;
    }
}

void UnderflowWorker::startGradients(const numbers::GradientSnapshotOptions &options)
{
    auto job = std::make_shared<Job>();
    job->kind = Kind::Gradients;
    job->gradient_options = options;
    job->progress.kind = Kind::Gradients;
    job->progress.steps = options.steps;
    start(job);
}

void UnderflowWorker::startSimulation(const numbers::LossScalingOptions &options)
{
    auto job = std::make_shared<Job>();
    job->kind = Kind::Simulation;
    job->simulation_options = options;
    job->progress.kind = Kind::Simulation;
    job->progress.steps = options.steps;
    start(job);
}

void UnderflowWorker::start(const std::shared_ptr<Job> &job)
{
    if (isRunning())
        return;
    Job *raw = job.get();  // the thread never outlives the job: deliver() and the destructor join it
    job->thread = QThread::create([raw] { raw->run(); });
    connect(job->thread, &QThread::finished, this, [this, job] { deliver(job); });
    job_ = job;
    job->thread->start(QThread::LowPriority);
    poll_->start();
}

void UnderflowWorker::cancel()
{
    if (job_)
        job_->cancel = true;
}

bool UnderflowWorker::isRunning() const { return job_ && !job_->delivered; }

UnderflowWorker::Progress UnderflowWorker::progress() const
{
    if (!job_)
        return {};
    std::lock_guard lock(job_->mutex);
    return job_->progress;
}

void UnderflowWorker::deliver(const std::shared_ptr<Job> &job)
{
    if (job->delivered)
        return;
    job->delivered = true;
    job->thread->wait();  // finished() may arrive a moment before run() has fully returned
    job->thread->deleteLater();
    poll_->stop();
    if (job->kind == Kind::Gradients)
        gradients_ = std::move(job->gradients);
    else
        simulation_ = std::move(job->simulation);
    emit finished(job->kind);
}

}  // namespace lse::gui
