// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/parallel/layout/layout_search_runner.h"

#include <QThread>
#include <QTimer>

#include <algorithm>
#include <atomic>

namespace lse::gui {

namespace {
constexpr int kProgressIntervalMs = 100;
}

struct LayoutSearchRunner::Job {
    Scenario base;
    parallel::SearchOptions options;
    std::atomic<bool> cancel{false};
    std::atomic<std::int64_t> evaluated{0};
    std::atomic<std::int64_t> total{0};
    std::optional<Result<parallel::SearchResult>> result;  // written by the worker before it ends
    QThread *thread = nullptr;
    bool delivered = false;
};

LayoutSearchRunner::LayoutSearchRunner(QObject *parent) : QObject(parent), progress_timer_(new QTimer(this))
{
    progress_timer_->setInterval(kProgressIntervalMs);
    connect(progress_timer_, &QTimer::timeout, this, &LayoutSearchRunner::pollProgress);
}

LayoutSearchRunner::~LayoutSearchRunner()
{
    for (const std::shared_ptr<Job> &job : jobs_)
        job->cancel = true;
    for (const std::shared_ptr<Job> &job : jobs_) {
        job->thread->wait();
        delete job->thread;
    }
}

void LayoutSearchRunner::start(const Scenario &base, const parallel::SearchOptions &options)
{
    cancel();
    auto job = std::make_shared<Job>();
    job->base = base;
    job->options = options;
    Job *raw = job.get();  // the thread never outlives the job: the runner joins it
    job->thread = QThread::create([raw] {
        raw->result = parallel::searchLayouts(raw->base, raw->options, [raw](std::int64_t evaluated, std::int64_t total) {
            raw->evaluated = evaluated;
            raw->total = total;
            return !raw->cancel.load();
        });
    });
    connect(job->thread, &QThread::finished, this, [this, job] { deliver(job); });
    jobs_.push_back(job);
    current_ = job;
    job->thread->start(QThread::LowPriority);
    progress_timer_->start();
    emit started();
}

void LayoutSearchRunner::cancel()
{
    if (current_)
        current_->cancel = true;
}

bool LayoutSearchRunner::isRunning() const { return current_ && !current_->delivered; }

bool LayoutSearchRunner::waitForFinished(int timeout_ms)
{
    if (!isRunning())
        return true;
    const std::shared_ptr<Job> job = current_;
    if (!job->thread->wait(QDeadlineTimer(timeout_ms)))
        return false;
    deliver(job);
    return true;
}

void LayoutSearchRunner::deliver(const std::shared_ptr<Job> &job)
{
    if (job->delivered)
        return;
    job->delivered = true;
    jobs_.erase(std::remove(jobs_.begin(), jobs_.end(), job), jobs_.end());
    job->thread->wait();  // finished() may arrive a moment before run() has fully returned
    job->thread->deleteLater();
    if (job != current_)
        return;  // superseded by a newer start()
    progress_timer_->stop();
    result_ = std::move(job->result);
    result_scenario_ = job->base;
    result_options_ = job->options;
    current_.reset();
    emit finished();
}

void LayoutSearchRunner::pollProgress()
{
    if (current_ && !current_->delivered)
        emit progress(current_->evaluated.load(), current_->total.load());
}

}  // namespace lse::gui
