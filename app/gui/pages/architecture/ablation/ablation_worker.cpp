// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/architecture/ablation/ablation_worker.h"

#include <QThread>
#include <QTimer>

#include <atomic>
#include <mutex>

namespace lse::gui {

namespace {
constexpr int kPollIntervalMs = 150;
}

struct AblationWorker::Job {
    reference::AblationSpec spec;
    std::atomic<bool> cancel{false};
    mutable std::mutex mutex;
    Snapshot snapshot;  // guarded by mutex
    std::optional<Result<reference::AblationResults>> result;  // written by the worker before it ends
    QThread *thread = nullptr;
    bool delivered = false;
};

AblationWorker::AblationWorker(QObject *parent) : QObject(parent), poll_(new QTimer(this))
{
    poll_->setInterval(kPollIntervalMs);
    connect(poll_, &QTimer::timeout, this, [this] {
        if (isRunning())
            emit progress();
    });
}

AblationWorker::~AblationWorker()
{
    if (job_ && !job_->delivered) {
        job_->cancel = true;
        job_->thread->wait();
        delete job_->thread;
    }
}

void AblationWorker::start(const reference::AblationSpec &spec)
{
    if (isRunning())
        return;
    auto job = std::make_shared<Job>();
    job->spec = spec;
    Job *raw = job.get();  // the thread never outlives the job: deliver() and the destructor join it
    job->thread = QThread::create([raw] {
        Result<reference::AblationResults> run = reference::runAblation(
            raw->spec,
            [raw](const reference::AblationProgress &p) {
                std::lock_guard lock(raw->mutex);
                Snapshot &s = raw->snapshot;
                s.phase = p.phase;
                s.variant = p.variant;
                s.variant_count = p.variant_count;
                s.variant_name = QString::fromStdString(p.variant_name);
                s.step = p.step;
                s.steps = p.steps;
                s.loss = p.loss;
                if (p.result) {
                    if (s.variants.size() <= std::size_t(p.variant))
                        s.variants.resize(std::size_t(p.variant) + 1);
                    s.variants[std::size_t(p.variant)] = *p.result;
                }
            },
            &raw->cancel);
        raw->result = std::move(run);
    });
    connect(job->thread, &QThread::finished, this, [this, job] { deliver(job); });
    job_ = job;
    job->thread->start(QThread::LowPriority);
    poll_->start();
}

void AblationWorker::cancel()
{
    if (job_)
        job_->cancel = true;
}

bool AblationWorker::isRunning() const { return job_ && !job_->delivered; }

AblationWorker::Snapshot AblationWorker::snapshot() const
{
    if (!job_)
        return {};
    std::lock_guard lock(job_->mutex);
    return job_->snapshot;
}

void AblationWorker::deliver(const std::shared_ptr<Job> &job)
{
    if (job->delivered)
        return;
    job->delivered = true;
    job->thread->wait();  // finished() may arrive a moment before run() has fully returned
    job->thread->deleteLater();
    poll_->stop();
    result_ = std::move(job->result);
    emit finished();
}

}  // namespace lse::gui
