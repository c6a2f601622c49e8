// SPDX-License-Identifier: GPL-3.0-or-later
// The Reference run page's worker thread: text, BPE, model set-up, training steps, generation
// and the machine measurement, posting results to the UI thread.
#include "pages/reference/reference_run_page.h"

#include "reference/engine_scenario.h"
#include "reference/peak_utilisation.h"
#include "reference/kernel_benchmark.h"
#include "reference/training_text.h"

#include "charts/chart_view.h"
#include "common/file_bytes.h"
#include "cost/estimate.h"
#include "cost/parameters.h"
#include "pages/page_format.h"
#include "pages/roofline/machine_warnings.h"
#include "reference/token_data.h"
#include "tokenizer/bpe_tokenizer.h"
#include "tokenizer/bpe_trainer.h"

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QApplication>
#include <QFontMetrics>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QVBoxLayout>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

namespace lse::gui {

using reference::OpRecord;
using reference::StepReport;
using reference::TrainConfig;

namespace {

const char *const kEndOfText = "<|endoftext|>";

}  // namespace

void ReferenceRunPage::workerLoop()
{
    // Owned by this thread only.
    std::unique_ptr<reference::Trainer> trainer;
    std::optional<BpeTokenizer> tokenizer;
    std::unique_ptr<QTemporaryDir> temp;
    std::vector<OpRecord> before;
    int run_id = 0;  // the Setup id of `trainer`
    // The run's trace: its room is reserved when the run is made, and it is attached to the
    // profiler for the steps of the window only (op_trace.h), so the other steps run as before.
    std::unique_ptr<reference::OpTraceLog> trace;
    reference::TraceWindow trace_window;
    int steps_taken = 0;
    bool trace_posted = false;

    for (;;) {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] {
            return quit_ || setup_request_ || generate_request_ || measure_request_ || (trainer && train_ && !paused_);
        });
        if (quit_)
            return;

        if (setup_request_) {
            Setup setup = std::move(*setup_request_);
            setup_request_.reset();
            run_id = setup.id;
            cancel_ = false;
            lock.unlock();
            trainer.reset();
            tokenizer.reset();
            auto fail = [this, run_id](const QString &message) {
                QMetaObject::invokeMethod(this, [this, run_id, message] { onRunFailed(run_id, message); },
                                          Qt::QueuedConnection);
            };
            // 1. A byte-level BPE on the text.
            const auto t0 = std::chrono::steady_clock::now();
            BpeTrainOptions options;
            options.vocabSize = std::size_t(setup.vocab);
            options.specialTokens = {kEndOfText};
            options.cancel = &cancel_;
            Result<BpeTrainResult> trained = trainBpe(setup.text, options);
            if (!trained) {
                fail(QString::fromStdString(formatProblems(trained.problems())).trimmed());
                continue;
            }
            Result<BpeTokenizer> made = BpeTokenizer::fromTraining(trained.value());
            if (!made) {
                fail(QString::fromStdString(formatProblems(made.problems())).trimmed());
                continue;
            }
            tokenizer = std::move(made.value());
            const double bpe_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            // 2. Encode and write the token file, <|endoftext|> as its one id (training_text.h).
            const std::vector<std::uint32_t> ids = reference::encodeTrainingText(*tokenizer, setup.text);
            temp = std::make_unique<QTemporaryDir>();
            if (!temp->isValid()) {
                fail(tr("Cannot create a temporary folder: %1").arg(temp->errorString()));
                continue;
            }
            const TokenDtype dtype = tokenizer->vocabSize() <= 65536 ? TokenDtype::U16 : TokenDtype::U32;
            const std::string path = QFile::encodeName(temp->filePath(QStringLiteral("tokens.bin"))).toStdString();
            Result<bool> written = writeTokenFile(path, ids, dtype);
            if (!written) {
                fail(QString::fromStdString(formatProblems(written.problems())).trimmed());
                continue;
            }
            // 3. The model.
            TrainConfig config = setup.config;
            config.data_path = path;
            config.data_dtype = dtype;
            config.validation_path.clear();
            config.model.vocab_size = std::int64_t(tokenizer->vocabSize());
            Result<std::unique_ptr<reference::Trainer>> created = reference::Trainer::create(config);
            if (!created) {
                fail(QString::fromStdString(formatProblems(created.problems())).trimmed());
                continue;
            }
            trainer = std::move(created.value());
            trainer->setInterrupt(&interrupt_step_);
            trace_window = reference::traceWindow(trainer->config().steps, kTraceSteps);
            trace = std::make_unique<reference::OpTraceLog>(
                reference::traceCapacityForSteps(trainer->config().model.n_layers, trace_window.count));
            steps_taken = 0;
            trace_posted = false;
            // MFU against the peak of the thread count the trainer chose (one core or all cores).
            if (setup.roofline)
                trainer->setPeakFlopsPerSecond(trainer->threadChoice().threads == 1 ? setup.roofline->peak_flops_per_s_one_core
                                                                                   : setup.roofline->peak_flops_per_s_all_cores);
            auto info = std::make_shared<RunInfo>();
            info->config = trainer->config();
            info->text_bytes = std::int64_t(setup.text.size());
            info->tokens = std::int64_t(ids.size());
            info->parameters = trainer->model().parameterCount();
            info->memory = trainer->memory();
            info->optimizer_bytes = trainer->optimizerStateBytes();
            info->bpe_seconds = bpe_seconds;
            info->threads = trainer->threadChoice();
            info->roofline = setup.roofline;
            // The step-time predictor's kernel factors at this run's threads: cached, or measured
            // now when the cache lacks them, predates the program or was taken under load.
            if (setup.roofline) {
                std::optional<reference::KernelFactorsForRun> kernels = reference::kernelFactorsForRun(
                    info->threads.threads,
                    [this](std::string_view stage, int index, int count) {
                        postStatus(tr("Measuring this CPU's kernel factors (%1 of %2): %3")
                                       .arg(index + 1)
                                       .arg(count)
                                       .arg(QString::fromUtf8(stage.data(), qsizetype(stage.size()))));
                    },
                    &cancel_);
                if (kernels) {
                    info->kernels = kernels->kernels;
                    if (!kernels->remeasured_because.empty())
                        info->kernels_note = tr("Kernel factors measured again: %1").arg(QString::fromStdString(kernels->remeasured_because));
                    if (!kernels->implausible_because.empty())
                        info->kernels_note += (info->kernels_note.isEmpty() ? QString() : QStringLiteral(" ")) +
                                              tr("Warning: %1. The prediction is too slow; the next run measures them again.")
                                                  .arg(QString::fromStdString(kernels->implausible_because));
                }
            }
            lock.lock();
            const bool cancelled = cancel_ || quit_;
            if (!cancelled)
                train_ = true;
            lock.unlock();
            if (!cancelled)
                QMetaObject::invokeMethod(this, [this, run_id, info] { onRunReady(run_id, info); }, Qt::QueuedConnection);
            continue;
        }

        if (generate_request_) {
            GenerateRequest request = std::move(*generate_request_);
            generate_request_.reset();
            cancel_ = false;
            lock.unlock();
            if (!trainer || !tokenizer) {
                QMetaObject::invokeMethod(this, [this] { onGenerated(QString(), true, false); }, Qt::QueuedConnection);
                continue;
            }
            // The BPE is trained with <|endoftext|> as a special token, so it has an id.
            const std::optional<std::uint32_t> eot_id = reference::endOfTextId(*tokenizer);
            const std::int32_t eot = std::int32_t(eot_id.value_or(0));
            std::vector<std::int32_t> prompt;
            for (std::uint32_t id : tokenizer->encode(request.prompt))
                prompt.push_back(std::int32_t(id));
            if (prompt.empty())
                prompt.push_back(eot);
            // The KV cache holds the model's context: keep the prompt's end and what fits after it.
            const int context = trainer->model().context();
            if (int(prompt.size()) >= context)
                prompt.erase(prompt.begin(), prompt.end() - (context - 1));
            request.options.max_new_tokens = std::max(0, std::min(request.options.max_new_tokens, context - int(prompt.size())));
            if (eot_id)
                request.options.stop_token = eot;
            std::vector<std::uint32_t> produced;
            const std::string prompt_text = request.prompt;
            auto last_post = std::chrono::steady_clock::now() - std::chrono::seconds(1);
            auto on_token = [&](std::int32_t id) {
                if (id != eot)
                    produced.push_back(std::uint32_t(id));
                const auto now = std::chrono::steady_clock::now();
                if (now - last_post > std::chrono::milliseconds(30)) {
                    last_post = now;
                    const QString text = QString::fromStdString(prompt_text + tokenizer->decode(produced));
                    QMetaObject::invokeMethod(this, [this, text] { onGenerated(text, false, true); },
                                              Qt::QueuedConnection);
                }
                return !cancel_.load();
            };
            Result<std::vector<std::int32_t>> out =
                request.options.max_new_tokens > 0
                    ? reference::generate(trainer->model(), prompt, request.options, on_token)
                    : Result<std::vector<std::int32_t>>(std::vector<std::int32_t>{});
            const bool ok = out.ok();
            const QString text = ok ? QString::fromStdString(prompt_text + tokenizer->decode(produced))
                                    : QString::fromStdString(formatProblems(out.problems())).trimmed();
            QMetaObject::invokeMethod(this, [this, text, ok] { onGenerated(text, true, ok); }, Qt::QueuedConnection);
            continue;
        }

        if (measure_request_) {
            measure_request_ = false;
            lock.unlock();
            auto roofline = std::make_shared<MachineRoofline>(machineRoofline(
                true, [this](std::string_view stage, int index, int count) {
                    const QString text = tr("Measuring this machine (%1 of %2): %3")
                                             .arg(index + 1)
                                             .arg(count)
                                             .arg(QString::fromUtf8(stage.data(), qsizetype(stage.size())));
                    postStatus(text);
                }));
            QMetaObject::invokeMethod(this, [this, roofline] { onMeasured(roofline); }, Qt::QueuedConnection);
            continue;
        }

        // One training step.
        interrupt_step_ = false;
        lock.unlock();
        before = trainer->profiler().records();
        const std::size_t trace_events_before = trace->events().size();
        trainer->model().profiler().setTrace(trace_window.covers(steps_taken) ? trace.get() : nullptr);
        Result<StepReport> report = trainer->step();
        trainer->model().profiler().setTrace(nullptr);
        if (report && report->interrupted) {
            trace->truncate(trace_events_before);  // the step did not happen; neither do its calls
            continue;  // stopped mid-step: nothing changed, nothing to show
        }
        if (report)
            ++steps_taken;
        if (report && !trace_posted && trace_window.count > 0 && steps_taken == trace_window.first + trace_window.count) {
            trace_posted = true;
            const QByteArray document = traceDocumentOf(*trace, trainer->config(), trainer->threadChoice().threads);
            const int first = report->step - trace_window.count + 1, last = report->step;
            QMetaObject::invokeMethod(
                this, [this, run_id, document, first, last] { onTraceRecorded(run_id, document, first, last); },
                Qt::QueuedConnection);
        }
        if (!report) {
            const QString message = QString::fromStdString(formatProblems(report.problems())).trimmed();
            lock.lock();
            train_ = false;
            lock.unlock();
            QMetaObject::invokeMethod(this, [this, run_id, message] { onRunFailed(run_id, message); },
                                      Qt::QueuedConnection);
            continue;
        }
        // What this step alone counted: the profiler accumulates over steps (validation runs with it
        // off), so subtract the records taken before the step.
        auto profile = std::make_shared<StepProfile>();
        {
            const std::vector<OpRecord> &after = trainer->profiler().records();
            bool reset = after.size() < before.size();
            for (std::size_t i = 0; i < after.size() && !reset; ++i) {
                OpRecord r = after[i];
                if (i < before.size()) {
                    if (r.calls < before[i].calls || r.name != before[i].name) {
                        reset = true;
                        break;
                    }
                    r.flops -= before[i].flops;
                    r.seconds -= before[i].seconds;
                    r.calls -= before[i].calls;
                }
                if (r.calls > 0)
                    profile->ops.push_back(r);
            }
            if (reset)  // the profiler was reset during the step: its records are this step's
                profile->ops = after;
            for (const OpRecord &r : profile->ops) {
                profile->total_flops += r.flops;
                if (r.matmul)
                    profile->matmul_flops += r.flops;
            }
        }
        const bool finished = trainer->currentStep() >= trainer->config().steps;
        if (finished) {
            lock.lock();
            train_ = false;
            lock.unlock();
        }
        lock.lock();
        pending_steps_.push_back({run_id, report.value(), std::move(profile), finished});
        const bool post = !drain_posted_;
        drain_posted_ = true;
        lock.unlock();
        if (post)
            QMetaObject::invokeMethod(this, [this] { drainSteps(); }, Qt::QueuedConnection);
    }
}

}  // namespace lse::gui
