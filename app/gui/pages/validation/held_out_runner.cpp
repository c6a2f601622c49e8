// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/validation/held_out_runner.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QMetaObject>
#include <QThread>

namespace lse::gui {

HeldOutRunner::HeldOutRunner(QObject *parent) : QObject(parent) {}

HeldOutRunner::~HeldOutRunner()
{
    if (job_) {
        job_->cancelled = true;
        if (job_->thread.joinable())
            job_->thread.join();
    }
}

void HeldOutRunner::start(const std::vector<PublishedRun> &runs)
{
    cancel();
    if (job_ && job_->thread.joinable())
        job_->thread.join();  // stops at the next accelerator
    auto job = std::make_shared<Job>();
    job_ = job;
    running_ = true;
    QObject *self = this;
    job->thread = std::thread([job, runs, self] {
        AcceleratorValidationOptions options;
        options.leave_one_source_out = true;
        options.progress = [job, self](int done, int total) {
            QMetaObject::invokeMethod(self, [self, done, total] { emit static_cast<HeldOutRunner *>(self)->progress(done, total); },
                                      Qt::QueuedConnection);
            return !job->cancelled.load();
        };
        job->result = validateByAccelerator(runs, options);
        job->done = true;
        QMetaObject::invokeMethod(self, [self, job] { static_cast<HeldOutRunner *>(self)->deliver(job); },
                                  Qt::QueuedConnection);
    });
}

void HeldOutRunner::cancel()
{
    if (job_)
        job_->cancelled = true;
}

void HeldOutRunner::deliver(const std::shared_ptr<Job> &job)
{
    if (job != job_ || !running_)
        return;  // an older run, or delivered already by waitForFinished
    if (job->thread.joinable())
        job->thread.join();
    running_ = false;
    result_ = std::move(job->result);
    emit finished();
}

bool HeldOutRunner::waitForFinished(int timeout_ms)
{
    if (!running_)
        return true;
    QDeadlineTimer deadline(timeout_ms);
    const std::shared_ptr<Job> job = job_;
    while (!job->done.load()) {
        if (deadline.hasExpired())
            return false;
        QThread::msleep(5);
    }
    deliver(job);
    return true;
}

}  // namespace lse::gui
