// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/traces/trace_load_runner.h"

#include "traces/trace_loader.h"

#include <QMetaObject>

#include <chrono>
#include <utility>

namespace lse::gui {

TraceLoadRunner::TraceLoadRunner(QObject *parent) : QObject(parent) {}

TraceLoadRunner::~TraceLoadRunner()
{
    if (job_) {
        job_->cancelled = true;
        if (job_->thread.joinable())
            job_->thread.join();
    }
}

void TraceLoadRunner::startFiles(const QStringList &paths) { start(paths, {}, {}); }

void TraceLoadRunner::startBytes(const QByteArray &bytes, const QString &name) { start({}, bytes, name); }

void TraceLoadRunner::start(const QStringList &paths, const QByteArray &bytes, const QString &name)
{
    cancel();
    if (job_ && job_->thread.joinable())
        job_->thread.join();  // stops at its next progress call
    auto job = std::make_shared<Job>();
    job_ = job;
    running_ = true;
    std::vector<std::string> files;
    for (const QString &path : paths)
        files.push_back(path.toStdString());
    QObject *self = this;
    job->thread = std::thread([job, files, bytes, name = name.toStdString(), self] {
        // At most ~20 progress signals a second: a 1 GB trace calls back thousands of times.
        auto last = std::chrono::steady_clock::now() - std::chrono::seconds(1);
        const traces::TraceLoadProgress progress = [&](std::int64_t read, std::int64_t total) {
            const auto now = std::chrono::steady_clock::now();
            if (now - last > std::chrono::milliseconds(50) || read == total) {
                last = now;
                QMetaObject::invokeMethod(
                    self, [self, read, total] { emit static_cast<TraceLoadRunner *>(self)->progress(read, total); },
                    Qt::QueuedConnection);
            }
            return !job->cancelled.load();
        };
        TraceLoadResult &out = job->result;
        Result<std::vector<traces::TraceRank>> ranks = [&]() -> Result<std::vector<traces::TraceRank>> {
            // A file of rank processes (`train --dp N --trace`) gives one rank each, as in the CLI.
            if (!files.empty())
                return traces::loadTraces(files, {}, progress);
            return traces::parseTraceRanks(std::string_view(bytes.constData(), std::size_t(bytes.size())), name, {},
                                           progress);
        }();
        if (job->cancelled.load()) {
            out.cancelled = true;
        } else if (!ranks) {
            out.problems = ranks.problems();
        } else {
            for (traces::TraceRank &rank : ranks.value()) {
                if (job->cancelled.load()) {
                    out.cancelled = true;
                    out.traces.clear();
                    break;
                }
                LoadedTrace loaded;
                loaded.analysis = traces::analyseRank(rank);
                loaded.rank = std::move(rank);
                out.traces.push_back(std::move(loaded));
            }
        }
        QMetaObject::invokeMethod(self, [self, job] { static_cast<TraceLoadRunner *>(self)->deliver(job); },
                                  Qt::QueuedConnection);
    });
}

void TraceLoadRunner::cancel()
{
    if (job_)
        job_->cancelled = true;
}

void TraceLoadRunner::deliver(const std::shared_ptr<Job> &job)
{
    if (job != job_ || !running_)
        return;  // an older load
    if (job->thread.joinable())
        job->thread.join();
    running_ = false;
    result_ = std::move(job->result);
    emit finished();
}

}  // namespace lse::gui
