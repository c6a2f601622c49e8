// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline_parallel_train.h"

#include "commands.h"
#include "count_option.h"
#include "mpi_ranks.h"
#include "output.h"

#include "distributed/mesh_communicators.h"
#include "distributed/text_gather.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#ifdef LSE_WITH_MPI
#include "mpi_communicator.h"
#endif

namespace lse::cli {

#ifdef LSE_WITH_MPI
namespace {

// This rank's traffic of one step, one entry per kind (its rank beside it).
QJsonArray communicationJson(const distributed::PipelineStepReport &report, int rank)
{
    QJsonArray entries;
    for (const distributed::PipelineCommunicationEntry &entry : report.communication) {
        const bool pp = entry.purpose == "pp_send" || entry.purpose == "pp_recv";
        QJsonObject object{{"rank", rank},
                           {"collective", QString::fromStdString(entry.collective)},
                           {"purpose", QString::fromStdString(entry.purpose)},
                           {"count", entry.count},
                           {"bytes_per_rank", entry.bytes_per_rank},
                           // The engine's bytes: pp traffic and (dp x pp) the stage gradients' all-reduce.
                           {"predicted_bytes_per_rank", pp || entry.purpose == "dp_gradients"
                                                            ? QJsonValue(entry.predicted_bytes_per_rank)
                                                            : QJsonValue()},
                           {"seconds", entry.seconds}};
        if (pp) {
            object.insert("peer", entry.peer);
            object.insert("what", QString::fromStdString(entry.what));
        }
        entries.append(object);
    }
    return entries;
}

QJsonObject memoryJson(const distributed::PipelineStageMemory &memory)
{
    return QJsonObject{{"params", memory.params},
                       {"grads", memory.grads},
                       {"optimizer_states", memory.optimizer_states},
                       {"activations", memory.activations}};
}

// This rank's memory beside the engine's for its stage (gathered to rank 0 with the traffic).
QJsonObject rankMemoryJson(const distributed::PipelineStepReport &report, int rank)
{
    return QJsonObject{{"rank", rank},
                       {"stage", report.stage},
                       {"measured", memoryJson(report.memory)},
                       {"predicted", memoryJson(report.predicted_memory)}};
}

QJsonObject stepJson(const distributed::PipelineStepReport &report, const QJsonArray &communication,
                     const QJsonArray &bytes_per_rank, const QJsonArray &memory_per_rank)
{
    QJsonArray schedule;
    for (const distributed::PipelinePass &pass : report.schedule)
        schedule.append(QJsonObject{{"rank", pass.rank},
                                    {"micro_batch", pass.micro_batch},
                                    {"pass", QString::fromStdString(pass.pass)},
                                    {"start_seconds", pass.start_seconds},
                                    {"end_seconds", pass.end_seconds}});
    QJsonArray per_rank;
    for (double idle : report.bubble.per_rank)
        per_rank.append(idle);
    return QJsonObject{{"step", report.step},
                       {"loss", report.loss},
                       {"learning_rate", report.learning_rate},
                       {"grad_norm", report.grad_norm},
                       {"seconds", report.seconds},
                       {"communication", communication},
                       {"sent_bytes_per_rank", bytes_per_rank},
                       {"predicted_bytes_per_rank", report.predicted_bytes_per_rank},
                       {"dp_measured_bytes_per_rank", report.dp_measured_bytes_per_rank},
                       {"dp_predicted_bytes_per_rank", report.dp_predicted_bytes_per_rank},
                       {"memory_per_rank", memory_per_rank},
                       {"schedule", schedule},
                       {"bubble_fraction", QJsonObject{{"measured", report.bubble.measured},
                                                       {"formula", report.bubble.formula},
                                                       {"makespan_seconds", report.bubble.makespan_seconds},
                                                       {"per_rank", per_rank}}}};
}

}  // namespace
#endif  // LSE_WITH_MPI

void readPipelineOptions(const QCommandLineParser &parser, const QCommandLineOption &pp,
                         const QCommandLineOption &schedule, const QCommandLineOption &micro_batches,
                         const reference::TrainConfig &config, PipelineParallelRun &run, Problems &problems)
{
    const std::size_t before = problems.size();
    intOption(parser, pp.names().front(), 1, run.stages, problems);
    run.options.micro_batches = run.stages;
    intOption(parser, micro_batches.names().front(), 1, run.options.micro_batches, problems);
    if (parser.isSet(schedule)) {
        const std::optional<parallel::PipelineScheduleKind> kind =
            parallel::pipelineScheduleFromString(parser.value(schedule).toStdString());
        if (kind && (*kind == parallel::PipelineScheduleKind::GPipe || *kind == parallel::PipelineScheduleKind::OneFOneB))
            run.options.schedule = *kind;
        else
            problems.push_back(Problem{"--schedule", "choice",
                                       "--schedule '" + parser.value(schedule).toStdString()
                                           + "' must be gpipe or 1f1b (the schedules pipeline training runs)."});
    }
    if (problems.size() != before)
        return;
    if (run.stages > config.model.n_layers)
        problems.push_back(Problem{"--pp", "layers-per-stage",
                                   "--pp " + std::to_string(run.stages) + " must be at most model.n_layers ("
                                       + std::to_string(config.model.n_layers) + "): every stage needs a layer."});
    if (config.batch_size % run.options.micro_batches != 0)
        problems.push_back(Problem{"--micro-batches", "divisible",
                                   "--batch " + std::to_string(config.batch_size) + " (training.batch_size) must be divisible by "
                                       "--micro-batches " + std::to_string(run.options.micro_batches)
                                       + ": every micro-batch holds batch / M sequences."});
    if (run.stages > 1 && config.model.tied_embeddings)
        problems.push_back(Problem{"--pp", "tied-embeddings",
                                   "--pp " + std::to_string(run.stages)
                                       + " needs untied embeddings (model.tied_embeddings is true): the first stage's "
                                         "embedding and the last stage's LM head would share one matrix."});
}

int runPipelineParallelTraining(const reference::TrainConfig &config, const PipelineParallelRun &run)
{
    int exit_status = kExitOk;
    std::unique_ptr<distributed::Communicator> world =
        run.dp > 1 ? mpiWorldForLayout({{"--dp", run.dp}, {"--pp", run.stages}}, &exit_status)
                   : mpiWorldFor("--pp", run.stages, &exit_status);
    if (!world)
        return exit_status;
#ifdef LSE_WITH_MPI
    const bool printer = world->rank() == 0;  // stage 0 of replica 0
    // dp x pp: the groups of the Layout page's mesh (DP inside PP), this rank's pipeline and its dp
    // group; pp alone runs on the world itself.
    distributed::MeshCommunicators groups;
    distributed::Communicator *communicator = world.get();
    if (run.dp > 1) {
        const Result<parallel::DeviceMesh> mesh = distributed::localMesh(run.dp, 1, run.stages);
        if (!mesh)
            return printer ? reportProblems(mesh.problems()) : kExitBadInput;
        groups = distributed::splitByMesh(*world, mesh.value());
        communicator = groups.pp.get();
    }
    const int rank = communicator->rank();  // the stage
    Result<std::unique_ptr<distributed::PipelineParallelTrainer>> created = distributed::PipelineParallelTrainer::create(
        config, run.options, *communicator, groups.dp.get());
    if (!created) {
        Problems problems = created.problems();
        for (Problem &problem : problems)  // name the flags the user typed
            if (problem.field == "micro_batches")
                problem.field = "--micro-batches";
            else if (problem.field == "schedule")
                problem.field = "--schedule";
            else if (problem.field == "model.n_layers")
                problem.field = "--pp (model.n_layers)";
        return printer ? reportProblems(problems) : kExitBadInput;
    }
    distributed::PipelineParallelTrainer &trainer = *created.value();
    if (printer) {
        QStringList layers;
        for (int count : trainer.stageLayers())
            layers << QString::number(count);
        printError(QStringLiteral("pipeline-parallel training: %1 stages (layers %2), schedule %3, %4 micro-batches of %5 "
                                  "sequences%6\n")
                       .arg(run.stages)
                       .arg(layers.join(QLatin1Char(',')))
                       .arg(QString::fromUtf8(parallel::toString(run.options.schedule).data()))
                       .arg(run.options.micro_batches)
                       .arg(config.batch_size / (run.options.micro_batches * run.dp))
                       .arg(run.dp > 1 ? QStringLiteral(", %1 pipeline replicas (%2 ranks, mesh of the Layout page)")
                                             .arg(run.dp)
                                             .arg(run.dp * run.stages)
                                       : QString()));
    }
    QJsonArray steps;
    std::optional<double> final_loss;
    while (trainer.currentStep() < config.steps) {
        Result<distributed::PipelineStepReport> report = trainer.step();
        if (!report) {
            if (printer)
                printError(QStringLiteral("error: %1").arg(QString::fromStdString(formatProblems(report.problems()))));
            return report.problems().front().rule == reference::kDivergedRule ? kExitDiverged : kExitBadInput;
        }
        final_loss = report->loss;
        // Every rank's traffic to rank 0 (outside the step's records).
        const QJsonArray own = communicationJson(*report, rank);
        const std::vector<std::string> texts = distributed::allGatherText(
            *communicator, QJsonDocument(QJsonObject{{"entries", own},
                                                     {"sent", report->measured_bytes_per_rank},
                                                     {"memory", rankMemoryJson(*report, rank)}})
                               .toJson(QJsonDocument::Compact)
                               .toStdString());
        communicator->takeRecords();
        if (!printer)
            continue;
        QJsonArray communication, sent, memory;
        for (const std::string &text : texts) {
            const QJsonObject object = QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
            for (const QJsonValue &entry : object.value("entries").toArray())
                communication.append(entry);
            sent.append(object.value("sent"));
            memory.append(object.value("memory"));
        }
        printError(QStringLiteral("step %1/%2  loss %3  grad %4  %5 ms  bubble %6 (formula %7)  stage 0 sent %8 "
                                  "(engine per interior stage %9)%10\n")
                       .arg(report->step)
                       .arg(config.steps)
                       .arg(report->loss, 0, 'f', 4)
                       .arg(report->grad_norm, 0, 'f', 3)
                       .arg(report->seconds * 1e3, 0, 'f', 1)
                       .arg(report->bubble.measured, 0, 'f', 3)
                       .arg(report->bubble.formula, 0, 'f', 3)
                       .arg(formatBytes(report->measured_bytes_per_rank), formatBytes(report->predicted_bytes_per_rank))
                       .arg(run.dp > 1 ? QStringLiteral("  DP sent %1 (engine %2)")
                                             .arg(formatBytes(report->dp_measured_bytes_per_rank),
                                                  formatBytes(report->dp_predicted_bytes_per_rank))
                                       : QString()));
        steps.append(stepJson(*report, communication, sent, memory));
    }
    if (printer && run.json) {
        QJsonArray layers;
        for (int count : trainer.stageLayers())
            layers.append(count);
        printJson(QJsonObject{{"ranks", run.stages * run.dp},
                              {"pp", run.stages},
                              {"dp", run.dp},
                              {"schedule", QString::fromUtf8(parallel::toString(run.options.schedule).data())},
                              {"micro_batches", run.options.micro_batches},
                              {"stage_layers", layers},
                              {"global_batch", config.batch_size},
                              {"final_step", trainer.currentStep()},
                              {"final_loss", final_loss ? QJsonValue(*final_loss) : QJsonValue()},
                              {"steps", steps}});
    }
    return kExitOk;
#else
    (void)config;  // without MPI, mpiWorldFor reported it and returned no communicator
    return exit_status;
#endif
}

}  // namespace lse::cli
