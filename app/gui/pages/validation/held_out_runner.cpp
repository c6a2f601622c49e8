// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/validation/held_out_runner.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QMetaObject>
#include <QThread>

#include <mutex>
#include <string>

namespace lse::gui {

namespace {

// The result depends on the runs only (the catalog's factors are compiled in): computed once per
// process, every later Validation page (a new window, a test) shows it at once.
struct Cache {
    std::mutex mutex;
    std::string key;
    std::optional<std::vector<AcceleratorValidation>> value;
};
Cache &cache()
{
    static Cache instance;
    return instance;
}

std::string keyOf(const std::vector<PublishedRun> &runs)
{
    std::string key;
    for (const PublishedRun &run : runs)
        key += run.id + '\n';
    return key;
}

}  // namespace

HeldOutRunner::HeldOutRunner(QObject *parent) : QObject(parent) {}

void HeldOutRunner::clearCache()
{
    std::lock_guard<std::mutex> lock(cache().mutex);
    cache().value.reset();
}

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
    const std::string key = keyOf(runs);
    {
        std::lock_guard<std::mutex> lock(cache().mutex);
        if (cache().value && cache().key == key) {
            job->result = *cache().value;
            job->done = true;
            QMetaObject::invokeMethod(this, [this, job] { deliver(job); }, Qt::QueuedConnection);
            return;
        }
    }
    QObject *self = this;
    job->thread = std::thread([job, runs, self, key] {
        AcceleratorValidationOptions options;
        options.leave_one_source_out = true;
#if defined(__SANITIZE_ADDRESS__)
        // The AddressSanitizer build (a test build) runs the fits about 30 times slower, and a
        // cancel waits for the accelerator in progress: fit with a small budget there. Its figures
        // are then rougher than the release build's; the default build shows the catalog's.
        options.max_evaluations = 40;
#endif
        options.progress = [job, self](int done, int total) {
            QMetaObject::invokeMethod(self, [self, done, total] { emit static_cast<HeldOutRunner *>(self)->progress(done, total); },
                                      Qt::QueuedConnection);
            return !job->cancelled.load();
        };
        job->result = validateByAccelerator(runs, options);
        if (job->result->ok()) {
            std::lock_guard<std::mutex> lock(cache().mutex);
            cache().key = key;
            cache().value = job->result->value();
        }
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
