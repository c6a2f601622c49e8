// SPDX-License-Identifier: GPL-3.0-or-later
#include "data_parallel_train.h"

#include "commands.h"
#include "file_arguments.h"
#include "mpi_ranks.h"
#include "output.h"

#include "common/folder_lock.h"
#include "distributed/data_parallel_prediction.h"
#include "distributed/link_profile.h"
#include "distributed/text_gather.h"
#include "reference/chrome_trace_writer.h"
#include "reference/op_trace.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>

#ifdef LSE_WITH_MPI
#include "mpi_communicator.h"
#endif

namespace lse::cli {

// Only a build with MPI runs data-parallel training; without it these would be unused.
#ifdef LSE_WITH_MPI
namespace {

QJsonObject memoryJson(const distributed::DataParallelMemory &memory)
{
    return QJsonObject{{"params", memory.params},
                       {"grads", memory.grads},
                       {"optimizer_states", memory.optimizer_states},
                       {"gradient_arena", memory.gradient_arena},
                       {"gathered_params_peak", memory.gathered_params_peak},
                       {"full_grads_peak", memory.full_grads_peak},
                       {"model_state_peak", memory.model_state_peak},
                       {"resident_model_state_peak", memory.resident_model_state_peak}};
}

// The alpha-beta time of an entry on this machine's measured link; nothing without a profile.
std::optional<double> predictedSeconds(const distributed::CommunicationEntry &entry, int ranks,
                                       const std::optional<distributed::LinkProfile> &profile)
{
    if (!profile)
        return std::nullopt;
    return distributed::predictedCollectiveSeconds(entry.collective, entry.bytes_per_rank, ranks, profile->link());
}

QJsonObject stepJson(const distributed::DataParallelStepReport &report, int ranks,
                     const std::optional<distributed::LinkProfile> &profile)
{
    QJsonArray communication;
    for (const distributed::CommunicationEntry &entry : report.communication) {
        const std::optional<double> predicted = predictedSeconds(entry, ranks, profile);
        communication.append(QJsonObject{{"collective", QString::fromStdString(entry.collective)},
                                         {"purpose", QString::fromStdString(entry.purpose)},
                                         {"bytes_per_rank", entry.bytes_per_rank},
                                         {"seconds", entry.seconds},
                                         {"predicted_seconds", predicted ? QJsonValue(*predicted) : QJsonValue()},
                                         {"exposed_seconds", entry.exposed_seconds}});
    }
    return QJsonObject{{"step", report.step},
                       {"loss", report.loss},
                       {"learning_rate", report.learning_rate},
                       {"grad_norm", report.grad_norm},
                       {"seconds", report.seconds},
                       {"communication", communication},
                       {"measured_bytes_per_rank", report.measured_bytes_per_rank},
                       {"predicted_bytes_per_rank", report.predicted_bytes_per_rank},
                       {"predicted_dp_bytes_per_rank", report.predicted_dp_bytes_per_rank},
                       {"ratio_to_dp", report.predicted_dp_bytes_per_rank > 0
                                           ? QJsonValue(report.measured_bytes_per_rank / report.predicted_dp_bytes_per_rank)
                                           : QJsonValue()},
                       {"memory_per_rank", QJsonObject{{"measured", memoryJson(report.memory)},
                                                       {"predicted", memoryJson(report.predicted_memory)}}},
                       {"memory_bytes", memoryJson(report.memory)},
                       {"predicted_memory_bytes", memoryJson(report.predicted_memory)},
                       {"validation_loss", report.validation_loss ? QJsonValue(*report.validation_loss) : QJsonValue()}};
}

// step_NNNNNN.safetensors, the single-process run's name (train_command.cpp).
QString checkpointPath(const QString &dir, int step)
{
    return QDir(dir).filePath(QStringLiteral("step_%1.safetensors").arg(step, 6, 10, QLatin1Char('0')));
}

// Which measured link the predictions use: the profile's path, α, β and date, or null.
QJsonValue linkProfileJson(const distributed::LinkProfileLookup &lookup)
{
    if (!lookup.profile)
        return QJsonValue();
    return QJsonObject{{"path", QString::fromStdString(lookup.path)},
                       {"ranks", lookup.profile->ranks},
                       {"alpha_seconds", lookup.profile->alpha_seconds},
                       {"beta_bytes_per_second", lookup.profile->beta_bytes_per_second},
                       {"measured_at", QString::fromStdString(lookup.profile->measured_at)}};
}

}  // namespace
#endif  // LSE_WITH_MPI

int runDataParallelTraining(const reference::TrainConfig &config, const DataParallelRun &run)
{
    int exit_status = kExitOk;
    std::unique_ptr<distributed::Communicator> communicator = mpiWorldFor("--dp", run.ranks, &exit_status);
    if (!communicator)
        return exit_status;
#ifdef LSE_WITH_MPI
    const bool printer = communicator->rank() == 0;
    Result<std::unique_ptr<distributed::DataParallelTrainer>> created =
        run.resume_path.isEmpty()
            ? distributed::DataParallelTrainer::create(config, run.options, *communicator)
            : distributed::DataParallelTrainer::resume(run.resume_path.toStdString(), config, run.options, *communicator);
    if (!created)
        return printer ? reportProblems(run.resume_path.isEmpty() ? created.problems()
                                                                   : namedAfterFlag(created.problems(), "--resume", run.resume_path))
                       : kExitBadInput;
    distributed::DataParallelTrainer &trainer = *created.value();
    // Only rank 0 writes checkpoints, so only it creates the folder; it tells the others whether it
    // could, so that none of them trains on waiting for a rank that has stopped.
    // Rank 0 also holds the folder's lock for the whole run: a second run into the same folder
    // would interleave its step files with ours (common/folder_lock.h).
    FolderLock checkpoint_lock;
    if (!run.checkpoint_dir.isEmpty()) {
        Problems folder_problems;
        if (printer) {
            if (!QDir().mkpath(run.checkpoint_dir)) {
                folder_problems.push_back(Problem{"--checkpoint-dir", "unwritable",
                                                  "--checkpoint-dir " + run.checkpoint_dir.toStdString() +
                                                      ": cannot create the folder (is it a file, or read-only?)."});
            } else if (Result<FolderLock> lock = FolderLock::acquire(QFile::encodeName(run.checkpoint_dir).toStdString(),
                                                                     "--checkpoint-dir", "llm-explorer-cli train --dp");
                       lock) {
                checkpoint_lock = std::move(lock.value());
            } else {
                folder_problems = lock.problems();
            }
        }
        float folder_ready = printer && folder_problems.empty() ? 1.0f : 0.0f;
        communicator->broadcast(&folder_ready, 1, 0);
        communicator->takeRecords();  // not a training step's communication
        if (folder_ready != 1.0f)
            return printer ? reportProblems(folder_problems) : kExitBadInput;
    }
    if (printer)
        printError(QStringLiteral("data-parallel training: %1 ranks, mode %2, global batch %3 (%4 per rank)\n")
                       .arg(run.ranks)
                       .arg(QString::fromUtf8(distributed::toString(run.options.mode).data()))
                       .arg(config.batch_size)
                       .arg(config.batch_size / run.ranks));
    // Only rank 0 reports, so only rank 0 reads the measured link (a broken file is a warning, not an error).
    distributed::LinkProfileLookup link;
    if (printer) {
        link = distributed::loadLinkProfile(run.ranks);
        for (const Problem &problem : link.problems)
            printError(QStringLiteral("warning: %1\n").arg(QString::fromStdString(problem.message)));
        if (link.profile)
            printError(QStringLiteral("predicted communication: alpha %1 us, beta %2 GB/s from %3 (measured %4)\n")
                           .arg(link.profile->alpha_seconds * 1e6, 0, 'f', 2)
                           .arg(link.profile->beta_bytes_per_second / 1e9, 0, 'f', 3)
                           .arg(QString::fromStdString(link.path), QString::fromStdString(link.profile->measured_at)));
        else
            printError(QStringLiteral("no link profile for %1 ranks: run mpirun -np %1 llm-explorer-cli links to predict "
                                      "communication times\n")
                           .arg(run.ranks));
        if (!run.resume_path.isEmpty())
            printError(QStringLiteral("resumed %1 at step %2\n").arg(run.resume_path).arg(trainer.currentStep()));
    }
    // --trace: every rank records the same steps against a common origin, the moment each leaves a
    // barrier (ranks on one machine share the monotonic clock; across machines this aligns them to
    // within the barrier's exit skew, microseconds on one host). Set once, before the first step.
    const reference::TraceWindow trace_window =
        reference::traceWindow(config.steps - trainer.currentStep(), run.trace.requested() ? run.trace.steps : 0);
    std::optional<reference::OpTraceLog> trace_log;
    if (run.trace.requested()) {
        trace_log.emplace(reference::traceCapacityForSteps(config.model.n_layers, trace_window.count));
        communicator->barrier();
        trace_log->setOrigin(reference::OpTraceLog::Clock::now());
        communicator->takeRecords();  // not a training step's communication
    }
    int taken = 0;
    QJsonArray steps;
    std::optional<double> final_loss, validation_loss;
    while (trainer.currentStep() < config.steps) {
        // The data-parallel trainer runs its model unprofiled; a traced step turns the profiler on.
        const bool traced = trace_log && trace_window.covers(taken);
        trainer.model().profiler().setEnabled(traced);
        trainer.model().profiler().setTrace(traced ? &*trace_log : nullptr);
        Result<distributed::DataParallelStepReport> report = trainer.step();
        trainer.model().profiler().setTrace(nullptr);
        trainer.model().profiler().setEnabled(false);
        ++taken;
        if (!report) {
            if (printer)
                printError(QStringLiteral("error: %1").arg(QString::fromStdString(formatProblems(report.problems()))));
            return report.problems().front().rule == reference::kDivergedRule ? kExitDiverged : kExitBadInput;
        }
        final_loss = report->loss;
        if (report->validation_loss)
            validation_loss = report->validation_loss;
        if (printer) {
            double exposed = 0, measured = 0, predicted = 0;
            bool all_predicted = link.profile.has_value();
            for (const distributed::CommunicationEntry &entry : report->communication) {
                exposed += entry.exposed_seconds;
                measured += entry.seconds;
                const std::optional<double> entry_predicted = predictedSeconds(entry, run.ranks, link.profile);
                all_predicted = all_predicted && entry_predicted.has_value();
                predicted += entry_predicted.value_or(0);
            }
            printError(QStringLiteral("step %1/%2  loss %3  grad %4  %5 ms  sent %6 (engine %7)  comm %8 ms (alpha-beta %9)  "
                                      "exposed %10 ms%11\n")
                           .arg(report->step)
                           .arg(config.steps)
                           .arg(report->loss, 0, 'f', 4)
                           .arg(report->grad_norm, 0, 'f', 3)
                           .arg(report->seconds * 1e3, 0, 'f', 1)
                           .arg(formatBytes(report->measured_bytes_per_rank), formatBytes(report->predicted_bytes_per_rank))
                           .arg(measured * 1e3, 0, 'f', 2)
                           .arg(all_predicted ? QStringLiteral("%1 ms").arg(predicted * 1e3, 0, 'f', 2) : QStringLiteral("n/a"))
                           .arg(exposed * 1e3, 0, 'f', 2)
                           .arg(report->validation_loss ? QStringLiteral("  val %1").arg(*report->validation_loss, 0, 'f', 4)
                                                        : QString()));
            steps.append(stepJson(*report, run.ranks, link.profile));
        }
        const bool last_step = trainer.currentStep() == config.steps;
        if (!run.checkpoint_dir.isEmpty() &&
            ((run.checkpoint_every > 0 && report->step % run.checkpoint_every == 0) || last_step)) {
            // Every rank takes part (ZeRO gathers the moments); rank 0 writes.
            const QString path = checkpointPath(run.checkpoint_dir, report->step);
            if (Result<bool> saved = trainer.saveCheckpoint(path.toStdString()); !saved) {
                if (!printer)
                    return kExitBadInput;
                if (saved.problems().front().rule == "non-finite") {
                    printError(QString::fromStdString(formatProblems(saved.problems())));
                    return kExitDiverged;
                }
                return reportProblems(namedAfterFlag(saved.problems(), "--checkpoint-dir", path));
            }
            if (printer)
                printError(QStringLiteral("checkpoint %1\n").arg(path));
        }
    }
    if (trace_log) {
        // Every rank's events to every rank (the communicator's collectives), rank 0 writes.
        const std::vector<std::string> ranks_events = distributed::allGatherText(
            *communicator, reference::chromeTraceProcessEvents(*trace_log, communicator->rank(),
                                                               "rank " + std::to_string(communicator->rank())));
        if (printer) {
            const std::string document = reference::chromeTraceDocument(
                ranks_events, {{"producer", "llm-explorer-cli train --dp"},
                               {"model", config.model.name},
                               {"ranks", std::to_string(run.ranks)},
                               {"mode", std::string(distributed::toString(run.options.mode))},
                               {"global_batch", std::to_string(config.batch_size)},
                               {"context", std::to_string(config.model.max_seq_len)},
                               {"steps_traced", std::to_string(trace_window.count)},
                               {"clock", "each rank's steady clock from its exit of a barrier before the first step"},
                               {"dropped_events_rank_0", std::to_string(trace_log->dropped())}});
            if (Problems failed = writeTraceFile(run.trace.path, document); !failed.empty())
                return reportProblems(failed);
            printError(QStringLiteral("trace %1 (%2 ranks, %3 step(s))\n").arg(run.trace.path).arg(run.ranks).arg(trace_window.count));
        }
    }
    if (printer && run.json)
        printJson(QJsonObject{{"ranks", run.ranks},
                              {"mode", QString::fromUtf8(distributed::toString(run.options.mode).data())},
                              {"zero_stage", distributed::zeroStage(run.options.mode)},
                              {"bucket_bytes", double(run.options.bucket_bytes)},
                              {"global_batch", config.batch_size},
                              {"link_profile", linkProfileJson(link)},
                              {"final_step", trainer.currentStep()},
                              {"final_loss", final_loss ? QJsonValue(*final_loss) : QJsonValue()},
                              {"validation_loss", validation_loss ? QJsonValue(*validation_loss) : QJsonValue()},
                              {"steps", steps}});
    return kExitOk;
#else
    (void)config;  // without MPI, mpiWorldFor reported it and returned no communicator
    return exit_status;
#endif
}

}  // namespace lse::cli
