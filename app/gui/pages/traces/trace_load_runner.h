// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/problem.h"
#include "pages/traces/trace_session.h"

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

namespace lse::gui {

// What a load produced: the ranks with their analysis, or the problems of every file that failed.
struct TraceLoadResult {
    std::vector<LoadedTrace> traces;
    Problems problems;       // empty: every file was read
    bool cancelled = false;
};

// Reads trace files (core's loadTraces) or bytes (parseTraceRanks, for the bundled sample under :/),
// a file of rank processes (`train --dp N --trace`) as one rank each,
// off the GUI thread and analyses every rank there too (analyseRank over 100k kernels is not free),
// with progress and cancel, as CpuDecodeRunner and HeldOutRunner do. Signals arrive on the runner's
// thread; destroying the runner cancels the load and waits for its thread.
class TraceLoadRunner : public QObject {
    Q_OBJECT
public:
    explicit TraceLoadRunner(QObject *parent = nullptr);
    ~TraceLoadRunner() override;

    // Files on disk, one rank each, in this order.
    void startFiles(const QStringList &paths);
    // One trace already in memory; `name` names it in problems and as the rank's source.
    void startBytes(const QByteArray &bytes, const QString &name);
    void cancel();
    bool isRunning() const { return running_; }
    // The newest finished load.
    const std::optional<TraceLoadResult> &result() const { return result_; }

signals:
    // Bytes read so far of all files and their total.
    void progress(qint64 bytes_read, qint64 bytes_total);
    void finished();

private:
    struct Job {
        std::atomic<bool> cancelled{false};
        TraceLoadResult result;
        std::thread thread;
    };
    void start(const QStringList &paths, const QByteArray &bytes, const QString &name);
    void deliver(const std::shared_ptr<Job> &job);

    std::shared_ptr<Job> job_;
    bool running_ = false;
    std::optional<TraceLoadResult> result_;
};

}  // namespace lse::gui
