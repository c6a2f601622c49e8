// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/distributed/distributed_run_setup.h"

#include "distributed/tensor_parallel_model.h"
#include "scenario/stage_layers.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace lse::gui {

namespace {

// Core's problems as one line (their messages are the CLI's, in English).
QString joined(const Problems &problems)
{
    QStringList messages;
    for (const Problem &problem : problems)
        messages << QString::fromStdString(problem.message);
    return messages.join(QLatin1Char(' '));
}

// The field that holds a degree: the Ranks field for a single layout, its own for a combined one.
QString tensorField(const DistributedRunSetup &setup)
{
    return isCombinedLayout(setup.parallelism) ? QCoreApplication::translate("lse::gui::DistributedRunSetup", "TP degree") : QCoreApplication::translate("lse::gui::DistributedRunSetup", "Ranks (tp = ranks)");
}

QString pipelineField(const DistributedRunSetup &setup)
{
    return isCombinedLayout(setup.parallelism) ? QCoreApplication::translate("lse::gui::DistributedRunSetup", "PP stages") : QCoreApplication::translate("lse::gui::DistributedRunSetup", "Ranks (pp = ranks)");
}

QString combinedProblem(const DistributedRunSetup &setup)
{
    const bool tensor = usesTensorParallelism(setup.parallelism);
    const int model_degree = tensor ? setup.tp : setup.pp;
    if (setup.dp < 2)
        return QCoreApplication::translate("lse::gui::DistributedRunSetup", "DP degree: %1 must be at least 2 in a combined layout (with dp 1, choose %2 alone).")
            .arg(setup.dp)
            .arg(tensor ? QCoreApplication::translate("lse::gui::DistributedRunSetup", "tensor parallel") : QCoreApplication::translate("lse::gui::DistributedRunSetup", "pipeline parallel"));
    if (model_degree < 2)
        return (tensor ? QCoreApplication::translate("lse::gui::DistributedRunSetup", "TP degree: %1 must be at least 2 in dp × tp (with tp 1, choose data parallel).")
                       : QCoreApplication::translate("lse::gui::DistributedRunSetup", "PP stages: %1 must be at least 2 in dp × pp (with pp 1, choose data parallel)."))
            .arg(model_degree);
    if (setup.ranks != setup.dp * model_degree)
        return (tensor ? QCoreApplication::translate("lse::gui::DistributedRunSetup", "Ranks: %1 must equal dp × tp = %2 × %3 = %4; mpiexec starts one process per rank of the mesh.")
                       : QCoreApplication::translate("lse::gui::DistributedRunSetup", "Ranks: %1 must equal dp × pp = %2 × %3 = %4; mpiexec starts one process per rank of the mesh."))
            .arg(setup.ranks)
            .arg(setup.dp)
            .arg(model_degree)
            .arg(setup.dp * model_degree);
    return {};
}

QString tensorProblem(const DistributedRunSetup &setup)
{
    // The split's rules (tp divides n_heads, n_kv_heads and d_ff; pre-norm; with SP the context):
    // the same check the trainer makes, before any process starts.
    if (const Problems problems = distributed::validateForTensorParallel(setup.config.model, setup.config.options, setup.tp,
                                                                         setup.sequence_parallel);
        !problems.empty())
        return QStringLiteral("%1: %2").arg(tensorField(setup), joined(problems));
    if (setup.global_batch % setup.dp != 0)
        return QCoreApplication::translate("lse::gui::DistributedRunSetup", "Global batch: %1 is not divisible by dp %2; each replica trains on an equal slice of it.")
            .arg(setup.global_batch)
            .arg(setup.dp);
    return {};
}

QString pipelineProblem(const DistributedRunSetup &setup)
{
    // Every stage needs a layer: the engine's placement rule (scenario/stage_layers.h).
    ParallelConfig parallel;
    parallel.pp = setup.pp;
    if (const Problems problems = stageLayerProblems(int(setup.config.model.n_layers), parallel); !problems.empty())
        return QStringLiteral("%1: %2").arg(pipelineField(setup), joined(problems));
    if (setup.micro_batches < 1)
        return QCoreApplication::translate("lse::gui::DistributedRunSetup", "Micro-batches: %1 must be at least 1.").arg(setup.micro_batches);
    // The trainer's rule: each replica's micro-batch holds batch / (dp·m) sequences.
    if (setup.global_batch % (setup.dp * setup.micro_batches) != 0)
        return QCoreApplication::translate("lse::gui::DistributedRunSetup", "Global batch: %1 is not divisible by dp × micro-batches = %2 × %3 = %4; every micro-batch holds "
                  "batch / (dp·m) sequences.")
            .arg(setup.global_batch)
            .arg(setup.dp)
            .arg(setup.micro_batches)
            .arg(setup.dp * setup.micro_batches);
    if (setup.config.model.tied_embeddings)
        return QCoreApplication::translate("lse::gui::DistributedRunSetup", "Model: its embeddings are tied; pipeline stages need untied ones (the first stage's embedding and the "
                  "last stage's LM head would share one matrix).");
    return {};
}

}  // namespace

bool usesTensorParallelism(DistributedParallelism parallelism)
{
    return parallelism == DistributedParallelism::Tensor || parallelism == DistributedParallelism::DataTensor;
}

bool usesPipelineParallelism(DistributedParallelism parallelism)
{
    return parallelism == DistributedParallelism::Pipeline || parallelism == DistributedParallelism::DataPipeline;
}

bool isCombinedLayout(DistributedParallelism parallelism)
{
    return parallelism == DistributedParallelism::DataTensor || parallelism == DistributedParallelism::DataPipeline;
}

QString distributedSetupProblem(const DistributedRunSetup &setup)
{
    if (setup.ranks < kMinRanks || setup.ranks > kMaxRanks)
        return QCoreApplication::translate("lse::gui::DistributedRunSetup", "Ranks: %1 is outside %2–%3.").arg(setup.ranks).arg(kMinRanks).arg(kMaxRanks);
    if (setup.steps < 1)
        return QCoreApplication::translate("lse::gui::DistributedRunSetup", "Steps: %1 must be at least 1.").arg(setup.steps);
    if (setup.global_batch < 1)
        return QCoreApplication::translate("lse::gui::DistributedRunSetup", "Global batch: %1 must be at least 1.").arg(setup.global_batch);
    if (isCombinedLayout(setup.parallelism))
        if (const QString problem = combinedProblem(setup); !problem.isEmpty())
            return problem;
    switch (setup.parallelism) {
    case DistributedParallelism::Data:
        // Each rank trains on an equal slice of the global batch (the CLI's --batch rule).
        if (setup.global_batch % setup.ranks != 0)
            return QCoreApplication::translate("lse::gui::DistributedRunSetup", "Global batch: %1 is not divisible by %2 ranks; each rank trains on an equal slice of it.")
                .arg(setup.global_batch)
                .arg(setup.ranks);
        // The trainer's rule (data_parallel_trainer.cpp), checked before any process starts.
        if (setup.mode == distributed::DataParallelMode::Zero3 && setup.config.model.tied_embeddings)
            return QCoreApplication::translate("lse::gui::DistributedRunSetup",
                                               "Mode: ZeRO-3 needs a model with untied embeddings; it gathers one layer at a "
                                               "time, and a tied LM head reads the embedding's matrix inside its own layer.");
        if (setup.mode == distributed::DataParallelMode::Bucketed && setup.bucket_mib < 1)
            return QCoreApplication::translate("lse::gui::DistributedRunSetup", "Bucket size: %1 MiB must be at least 1 in the bucketed mode.").arg(setup.bucket_mib);
        return {};
    case DistributedParallelism::Tensor:
    case DistributedParallelism::DataTensor:
        return tensorProblem(setup);
    case DistributedParallelism::Pipeline:
    case DistributedParallelism::DataPipeline:
        return pipelineProblem(setup);
    }
    return {};
}

QStringList mpiexecArguments(const DistributedRunSetup &setup, const QString &cli_path, const QString &config_path,
                             const QString &tokens_path)
{
    const QString ranks = QString::number(setup.ranks);
    QStringList arguments{QStringLiteral("-np"), ranks, QStringLiteral("--oversubscribe"), QStringLiteral("--allow-run-as-root"),
                          QStringLiteral("--bind-to"), QStringLiteral("none"), cli_path, QStringLiteral("train"),
                          QStringLiteral("--config"), config_path, QStringLiteral("--data"), tokens_path};
    const auto tensorFlags = [&] {
        arguments << QStringLiteral("--tp") << QString::number(setup.tp);
        if (setup.sequence_parallel)
            arguments << QStringLiteral("--sp") << QStringLiteral("on");
    };
    const auto pipelineFlags = [&] {
        arguments << QStringLiteral("--pp") << QString::number(setup.pp) << QStringLiteral("--schedule")
                  << QString::fromUtf8(parallel::toString(setup.schedule).data()) << QStringLiteral("--micro-batches")
                  << QString::number(setup.micro_batches);
    };
    switch (setup.parallelism) {
    case DistributedParallelism::Data:
        arguments << QStringLiteral("--dp") << ranks;
        switch (setup.mode) {
        case distributed::DataParallelMode::Naive:
            arguments << QStringLiteral("--bucket-mb") << QStringLiteral("0");
            break;
        case distributed::DataParallelMode::Bucketed:
            arguments << QStringLiteral("--bucket-mb") << QString::number(setup.bucket_mib);
            break;
        case distributed::DataParallelMode::Zero1:
            arguments << QStringLiteral("--zero") << QStringLiteral("1");
            break;
        case distributed::DataParallelMode::Zero2:
            arguments << QStringLiteral("--zero") << QStringLiteral("2");
            break;
        case distributed::DataParallelMode::Zero3:
            arguments << QStringLiteral("--zero") << QStringLiteral("3");
            break;
        }
        break;
    case DistributedParallelism::Tensor:
        tensorFlags();
        break;
    case DistributedParallelism::Pipeline:
        pipelineFlags();
        break;
    // Combined layouts: the replicas all-reduce their gradients once after backward (no ZeRO,
    // no buckets: the CLI refuses them there).
    case DistributedParallelism::DataTensor:
        arguments << QStringLiteral("--dp") << QString::number(setup.dp);
        tensorFlags();
        break;
    case DistributedParallelism::DataPipeline:
        arguments << QStringLiteral("--dp") << QString::number(setup.dp);
        pipelineFlags();
        break;
    }
    arguments << QStringLiteral("--json");
    return arguments;
}

QString findMpiexec()
{
    for (const QString &name : {QStringLiteral("mpiexec"), QStringLiteral("mpirun")})
        if (const QString path = QStandardPaths::findExecutable(name); !path.isEmpty())
            return path;
    return {};
}

QString findExplorerCli()
{
    const QDir app(QCoreApplication::applicationDirPath());
    for (const QString &candidate : {app.filePath(QStringLiteral("../cli/llm-explorer-cli")), app.filePath(QStringLiteral("llm-explorer-cli"))})
        if (QFileInfo(candidate).isExecutable())
            return QFileInfo(candidate).canonicalFilePath();
    return QStandardPaths::findExecutable(QStringLiteral("llm-explorer-cli"));
}

}  // namespace lse::gui
