// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMetaObject>
#include <QObject>
#include <QThread>

#include <atomic>
#include <functional>
#include <memory>
#include <type_traits>

namespace lse::gui {

// One core measurement at a time off the GUI thread (the norm timing, the access-order timing):
// `work(cancel, progress)` runs on a worker thread; progress(done, total) and the result reach
// `receiver`'s thread as queued calls. Destroying it cancels and joins, so a widget that owns one
// may be destroyed mid-run: the pending calls die with the receiver.
class BackgroundMeasurement {
public:
    using ProgressFn = std::function<void(int done, int total)>;

    BackgroundMeasurement() = default;
    BackgroundMeasurement(const BackgroundMeasurement &) = delete;
    BackgroundMeasurement &operator=(const BackgroundMeasurement &) = delete;
    ~BackgroundMeasurement()
    {
        cancel();
        join();
    }

    bool isRunning() const { return thread_ != nullptr; }
    void cancel() { cancel_ = true; }

    // Starts `work` unless a run is under way (then false). `on_finish(result)` is called once the
    // thread has been joined, so isRunning() is false inside it.
    template <typename Work, typename OnProgress, typename OnFinish>
    bool start(QObject *receiver, Work work, OnProgress on_progress, OnFinish on_finish)
    {
        if (thread_)
            return false;
        cancel_ = false;
        thread_ = QThread::create([this, receiver, work = std::move(work), on_progress, on_finish] {
            const ProgressFn report = [receiver, on_progress](int done, int total) {
                QMetaObject::invokeMethod(receiver, [on_progress, done, total] { on_progress(done, total); },
                                          Qt::QueuedConnection);
            };
            using Result = std::decay_t<decltype(work(cancel_, report))>;
            auto result = std::make_shared<Result>(work(cancel_, report));
            QMetaObject::invokeMethod(
                receiver,
                [this, result, on_finish] {
                    join();
                    on_finish(*result);
                },
                Qt::QueuedConnection);
        });
        thread_->start(QThread::LowPriority);
        return true;
    }

private:
    void join()
    {
        if (!thread_)
            return;
        thread_->wait();  // the queued result may arrive a moment before run() has fully returned
        delete thread_;
        thread_ = nullptr;
    }

    QThread *thread_ = nullptr;
    std::atomic<bool> cancel_{false};
};

}  // namespace lse::gui
