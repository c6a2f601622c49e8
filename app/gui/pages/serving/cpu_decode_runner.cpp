// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/serving/cpu_decode_runner.h"

#include "reference/kernel_benchmark.h"
#include "reference/thread_choice.h"

#include <QFile>
#include <QMetaObject>

#include <utility>

namespace lse::gui {

namespace {

Result<reference::TrainConfig> presetConfig(const QString &preset)
{
    QFile file(QStringLiteral(":/reference/%1.json").arg(preset));
    if (!file.open(QIODevice::ReadOnly))
        return Result<reference::TrainConfig>::failure("preset", "unknown",
                                                       "no bundled reference preset '" + preset.toStdString() + "'.");
    return reference::trainConfigFromJson(file.readAll(), preset.toStdString());
}

// Kernel-factor stages shown before the batches: the measurement reports its own count; a cached
// load is one step.
constexpr int kKernelSteps = 1;

}  // namespace

CpuDecodeRunner::CpuDecodeRunner(QObject *parent) : QObject(parent) {}

CpuDecodeRunner::~CpuDecodeRunner()
{
    if (job_) {
        job_->cancelled = true;
        if (job_->thread.joinable())
            job_->thread.join();
    }
}

void CpuDecodeRunner::start(const CpuDecodeRequest &request)
{
    cancel();
    if (job_ && job_->thread.joinable())
        job_->thread.join();  // stops at its next token
    auto job = std::make_shared<Job>();
    job_ = job;
    running_ = true;
    QObject *self = this;
    job->thread = std::thread([job, request, self] {
        const auto report = [self](const QString &stage, int batch, int step, int steps) {
            QMetaObject::invokeMethod(
                self,
                [self, stage, batch, step, steps] { emit static_cast<CpuDecodeRunner *>(self)->progress(stage, batch, step, steps); },
                Qt::QueuedConnection);
        };
        const auto done = [self, job] {
            QMetaObject::invokeMethod(self, [self, job] { static_cast<CpuDecodeRunner *>(self)->deliver(job); },
                                      Qt::QueuedConnection);
        };
        CpuDecodeResult &out = job->result;
        const int batches = int(request.batches.size());
        const Result<reference::TrainConfig> config = presetConfig(request.preset);
        if (!config) {
            out.error = QString::fromStdString(formatProblemsOnOneLine(config.problems()));
            return done();
        }
        // The cores other processes leave idle (as generate and train choose them).
        const reference::ThreadChoice threads = reference::chooseThreads(0);
        reference::useThreads(threads.threads);
        out.threads = threads.threads;
        out.threads_reason = QString::fromStdString(threads.reason());

        std::optional<CpuKernelFactors> kernels = request.given_kernels;
        int kernelSteps = kKernelSteps;
        if (!kernels) {
            report(QString(), 0, 0, kKernelSteps + batches);
            const std::optional<reference::KernelFactorsForRun> run = reference::kernelFactorsForRun(
                threads.threads,
                [&](std::string_view stage, int index, int count) {
                    kernelSteps = count;
                    report(QString::fromUtf8(stage.data(), qsizetype(stage.size())), 0, index, count + batches);
                },
                &job->cancelled);
            if (job->cancelled.load()) {
                out.error = QStringLiteral("cancelled");
                return done();
            }
            if (run) {
                kernels = run->kernels;
                out.kernels_implausible_because = QString::fromStdString(run->implausible_because);
            }
        }
        if (kernels) {
            out.kernels_measured_at = QString::fromStdString(kernels->measured_at);
            // The kernels split their loops at the thresholds the prediction assumes.
            reference::useThreads(threads.threads, *kernels);
        }
        for (int i = 0; i < batches; ++i) {
            report(QString(), request.batches[std::size_t(i)], kernelSteps + i, kernelSteps + batches);
            Result<reference::DecodeBenchmark> row =
                reference::benchmarkUntrainedDecode(config.value(), request.batches[std::size_t(i)], request.prompt_tokens,
                                                    request.output_tokens, kernels ? &*kernels : nullptr, &job->cancelled);
            if (!row) {
                out.error = row.problems().front().rule == "cancelled"
                                ? QStringLiteral("cancelled")
                                : QString::fromStdString(formatProblemsOnOneLine(row.problems()));
                return done();
            }
            out.rows.push_back(std::move(row.value()));
        }
        report(QString(), 0, kernelSteps + batches, kernelSteps + batches);
        done();
    });
}

void CpuDecodeRunner::cancel()
{
    if (job_)
        job_->cancelled = true;
}

void CpuDecodeRunner::deliver(const std::shared_ptr<Job> &job)
{
    if (job != job_ || !running_)
        return;  // an older run
    if (job->thread.joinable())
        job->thread.join();
    running_ = false;
    result_ = std::move(job->result);
    emit finished();
}

}  // namespace lse::gui
