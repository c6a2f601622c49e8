// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "hardware/machine_kernel_factors.h"
#include "reference/decode_benchmark.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

namespace lse::gui {

// What the Serving page's "This CPU" section runs: an untrained reference preset generating at
// each batch (core/reference/decode_benchmark.h), predicted from this CPU's kernel factors.
struct CpuDecodeRequest {
    QString preset = QStringLiteral("cs336-tinystories");  // a bundled TrainConfig (:/reference/NAME.json)
    std::vector<int> batches{1, 8, 32};
    int prompt_tokens = 64;
    int output_tokens = 32;
    // Tests: these factors instead of the cached or measured ones (no measurement, no cache).
    std::optional<CpuKernelFactors> given_kernels;
};

struct CpuDecodeResult {
    std::vector<reference::DecodeBenchmark> rows;  // one per batch run, in the request's order
    int threads = 1;
    QString threads_reason;
    QString kernels_measured_at;
    QString kernels_implausible_because;  // KernelFactorsForRun::implausible_because
    QString error;  // empty: every batch ran; "cancelled" after cancel()
};

// Runs a CpuDecodeRequest off the GUI thread with progress and cancel (as HeldOutRunner): first the
// kernel factors at the run's threads (from the cache, or measured now: a few seconds), then one
// batched generation per batch. Signals arrive on the runner's thread; destroying the runner
// cancels the run and waits for its thread (a cancel takes effect at the next token).
class CpuDecodeRunner : public QObject {
    Q_OBJECT
public:
    explicit CpuDecodeRunner(QObject *parent = nullptr);
    ~CpuDecodeRunner() override;

    void start(const CpuDecodeRequest &request);
    void cancel();
    bool isRunning() const { return running_; }
    // The newest finished run (rows so far when cancelled or failed).
    const std::optional<CpuDecodeResult> &result() const { return result_; }

signals:
    // `step` of `steps`: the kernel-factor stages (`kernel_stage`, core's name; batch 0) when
    // measured, then the batches (`batch` > 0); step == steps at the end.
    void progress(const QString &kernel_stage, int batch, int step, int steps);
    void finished();

private:
    struct Job {
        std::atomic<bool> cancelled{false};
        CpuDecodeResult result;
        std::thread thread;
    };
    void deliver(const std::shared_ptr<Job> &job);

    std::shared_ptr<Job> job_;
    bool running_ = false;
    std::optional<CpuDecodeResult> result_;
};

}  // namespace lse::gui
