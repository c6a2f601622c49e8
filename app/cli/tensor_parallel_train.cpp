// SPDX-License-Identifier: GPL-3.0-or-later
#include "tensor_parallel_train.h"

#include "commands.h"
#include "count_option.h"
#include "mpi_ranks.h"
#include "output.h"

#include "distributed/mesh_communicators.h"
#include "distributed/tensor_parallel_trainer.h"

#include <QJsonArray>
#include <QJsonObject>

#ifdef LSE_WITH_MPI
#include "mpi_communicator.h"
#endif

namespace lse::cli {

#ifdef LSE_WITH_MPI
namespace {

QJsonObject memoryJson(const distributed::TensorParallelMemory &memory)
{
    return QJsonObject{{"params", memory.params},
                       {"grads", memory.grads},
                       {"optimizer_states", memory.optimizer_states},
                       {"activations", memory.activations}};
}

QJsonObject stepJson(const distributed::TensorParallelStepReport &report)
{
    QJsonArray communication;
    for (const distributed::TensorParallelCommunication &entry : report.communication)
        communication.append(QJsonObject{
            {"collective", QString::fromStdString(entry.collective)},
            {"purpose", QString::fromStdString(entry.purpose)},
            {"where", QString::fromStdString(entry.where)},
            {"bytes_per_rank", entry.bytes_per_rank},
            // The engine's bytes for the same event; null for what the engine does not count (grad_norm).
            {"predicted_bytes_per_rank", entry.where.empty() ? QJsonValue() : QJsonValue(entry.predicted_bytes_per_rank)},
            {"seconds", entry.seconds}});
    return QJsonObject{{"step", report.step},
                       {"loss", report.loss},
                       {"learning_rate", report.learning_rate},
                       {"grad_norm", report.grad_norm},
                       {"seconds", report.seconds},
                       {"communication", communication},
                       {"measured_bytes_per_rank", report.measured_bytes_per_rank},
                       {"predicted_bytes_per_rank", report.predicted_bytes_per_rank},
                       {"dp_measured_bytes_per_rank", report.dp_measured_bytes_per_rank},
                       {"dp_predicted_bytes_per_rank", report.dp_predicted_bytes_per_rank},
                       {"memory_bytes", memoryJson(report.memory)},
                       {"predicted_memory_bytes", memoryJson(report.predicted_memory)},
                       {"validation_loss", report.validation_loss ? QJsonValue(*report.validation_loss) : QJsonValue()}};
}

}  // namespace
#endif  // LSE_WITH_MPI

void checkTensorParallelFlags(const QCommandLineParser &parser, const QCommandLineOption &tp,
                              const QCommandLineOption &sp, const reference::TrainConfig &config,
                              std::initializer_list<const QCommandLineOption *> unsupported, TensorParallelRun &run,
                              Problems &problems)
{
    const std::size_t before = problems.size();
    intOption(parser, tp.names().front(), 1, run.ranks, problems);
    if (parser.isSet(sp)) {
        const QString value = parser.value(sp);
        if (value == QLatin1String("on") || value == QLatin1String("off"))
            run.sequence_parallel = value == QLatin1String("on");
        else
            problems.push_back(Problem{"--sp", "choice", "--sp must be on or off, got '" + value.toStdString() + "'."});
    }
    if (problems.size() == before)
        for (Problem p : distributed::validateForTensorParallel(config.model, config.options, run.ranks,
                                                                run.sequence_parallel)) {
            if (p.field == "distributed.tp")
                p.field = "--tp";
            p.message = "--tp " + std::to_string(run.ranks) + ": " + p.message;
            problems.push_back(std::move(p));
        }
    for (const QCommandLineOption *option : unsupported)
        if (parser.isSet(*option)) {
            const std::string flag = "--" + option->names().front().toStdString();
            problems.push_back(Problem{flag, "conflict",
                                       flag + " does not combine with --tp yet (tensor-parallel runs have no "
                                              "checkpoints, traces or ZeRO sharding; --dp D --tp T runs on D·T mpirun ranks)."});
        }
}

int runTensorParallelTraining(const reference::TrainConfig &config, const TensorParallelRun &run)
{
    int exit_status = kExitOk;
    std::unique_ptr<distributed::Communicator> communicator =
        run.dp > 1 ? mpiWorldForLayout({{"--dp", run.dp}, {"--tp", run.ranks}}, &exit_status)
                   : mpiWorldFor("--tp", run.ranks, &exit_status, " (with --dp D, mpirun starts D·T ranks)");
    if (!communicator)
        return exit_status;
#ifdef LSE_WITH_MPI
    const bool printer = communicator->rank() == 0;
    // dp x tp: the groups of the Layout page's mesh (TP innermost), this rank's tp group and its
    // dp group; tp alone runs on the world itself.
    distributed::MeshCommunicators groups;
    distributed::Communicator *tensor_group = communicator.get();
    if (run.dp > 1) {
        const Result<parallel::DeviceMesh> mesh = distributed::localMesh(run.dp, run.ranks, 1);
        if (!mesh)
            return printer ? reportProblems(mesh.problems()) : kExitBadInput;
        groups = distributed::splitByMesh(*communicator, mesh.value());
        tensor_group = groups.tp.get();
    }
    Result<std::unique_ptr<distributed::TensorParallelTrainer>> created =
        distributed::TensorParallelTrainer::create(config, *tensor_group, run.sequence_parallel, groups.dp.get());
    if (!created) {
        if (!printer)
            return kExitBadInput;
        Problems problems = created.problems();
        for (Problem &p : problems)
            if (p.field == "distributed.tp")
                p.field = "--tp";
        return reportProblems(problems);
    }
    distributed::TensorParallelTrainer &trainer = *created.value();
    if (printer)
        printError(QStringLiteral("tensor-parallel training%5: %1 ranks, %2 heads and %3 of d_ff per rank, global batch %4 "
                                  "%6\n")
                       .arg(run.ranks)
                       .arg(config.model.n_heads / run.ranks)
                       .arg(config.model.d_ff / run.ranks)
                       .arg(config.batch_size)
                       .arg(run.sequence_parallel ? QStringLiteral(" with sequence parallelism") : QString())
                       .arg(run.dp > 1 ? QStringLiteral("split over %1 data-parallel replicas (%2 ranks in all, mesh of the Layout page)")
                                             .arg(run.dp)
                                             .arg(run.dp * run.ranks)
                                       : QStringLiteral("on every rank")));
    QJsonArray steps;
    std::optional<double> final_loss, validation_loss;
    while (trainer.currentStep() < config.steps) {
        Result<distributed::TensorParallelStepReport> report = trainer.step();
        if (!report) {
            if (printer)
                printError(QStringLiteral("error: %1").arg(QString::fromStdString(formatProblems(report.problems()))));
            return report.problems().front().rule == reference::kDivergedRule ? kExitDiverged : kExitBadInput;
        }
        final_loss = report->loss;
        if (report->validation_loss)
            validation_loss = report->validation_loss;
        if (printer) {
            printError(QStringLiteral("step %1/%2  loss %3  grad %4  %5 ms  TP sent %6 (engine %7)%8\n")
                           .arg(report->step)
                           .arg(config.steps)
                           .arg(report->loss, 0, 'f', 4)
                           .arg(report->grad_norm, 0, 'f', 3)
                           .arg(report->seconds * 1e3, 0, 'f', 1)
                           .arg(formatBytes(report->measured_bytes_per_rank), formatBytes(report->predicted_bytes_per_rank))
                           .arg((run.dp > 1 ? QStringLiteral("  DP sent %1 (engine %2)")
                                                  .arg(formatBytes(report->dp_measured_bytes_per_rank),
                                                       formatBytes(report->dp_predicted_bytes_per_rank))
                                            : QString())
                                + (report->validation_loss ? QStringLiteral("  val %1").arg(*report->validation_loss, 0, 'f', 4)
                                                        : QString())));
            steps.append(stepJson(*report));
        }
    }
    if (printer && run.json)
        printJson(QJsonObject{{"ranks", run.ranks * run.dp},
                              {"tp", run.ranks},
                              {"dp", run.dp},
                              {"sequence_parallel", run.sequence_parallel},
                              {"global_batch", config.batch_size},
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
