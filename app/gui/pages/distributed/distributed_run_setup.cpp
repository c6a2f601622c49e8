// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/distributed/distributed_run_setup.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace lse::gui {

QString distributedSetupProblem(const DistributedRunSetup &setup)
{
    if (setup.ranks < kMinRanks || setup.ranks > kMaxRanks)
        return QCoreApplication::translate("lse::gui::DistributedRunSetup", "Ranks: %1 is outside %2–%3.").arg(setup.ranks).arg(kMinRanks).arg(kMaxRanks);
    if (setup.steps < 1)
        return QCoreApplication::translate("lse::gui::DistributedRunSetup", "Steps: %1 must be at least 1.").arg(setup.steps);
    if (setup.global_batch < 1)
        return QCoreApplication::translate("lse::gui::DistributedRunSetup", "Global batch: %1 must be at least 1.").arg(setup.global_batch);
    // Each rank trains on an equal slice of the global batch (the CLI's --batch rule).
    if (setup.global_batch % setup.ranks != 0)
        return QCoreApplication::translate("lse::gui::DistributedRunSetup", "Global batch: %1 is not divisible by %2 ranks; each rank trains on an equal slice of it.")
            .arg(setup.global_batch)
            .arg(setup.ranks);
    if (setup.mode == distributed::DataParallelMode::Bucketed && setup.bucket_mib < 1)
        return QCoreApplication::translate("lse::gui::DistributedRunSetup", "Bucket size: %1 MiB must be at least 1 in the bucketed mode.").arg(setup.bucket_mib);
    return {};
}

QStringList mpiexecArguments(const DistributedRunSetup &setup, const QString &cli_path, const QString &config_path,
                             const QString &tokens_path)
{
    const QString ranks = QString::number(setup.ranks);
    QStringList arguments{QStringLiteral("-np"), ranks, QStringLiteral("--oversubscribe"), QStringLiteral("--allow-run-as-root"),
                          QStringLiteral("--bind-to"), QStringLiteral("none"), cli_path, QStringLiteral("train"),
                          QStringLiteral("--config"), config_path, QStringLiteral("--data"), tokens_path, QStringLiteral("--dp"),
                          ranks, QStringLiteral("--json")};
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
