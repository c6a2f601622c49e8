// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli dist-train --np N [train options]`: starts `mpiexec -np N llm-explorer-cli train ...
// --dp N` itself (issue 19), so a run on this machine needs no mpirun command line: the flags Open MPI
// needs here (--oversubscribe for more ranks than cores, --allow-run-as-root under root as in CI,
// --bind-to none, one OpenMP thread per rank) are added, and the run's output and exit status are
// passed through. With --hostfile F the ranks go where Open MPI's hostfile F puts them (several
// machines): the hostfile's slots then decide, so --oversubscribe is left out.
#include "commands.h"
#include "output.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>

#include <unistd.h>

namespace lse::cli {

int runDistTrain(const QStringList &arguments)
{
    if (arguments.contains(QStringLiteral("--help")) || arguments.contains(QStringLiteral("-h"))) {
        printOut(QStringLiteral(
            "Usage: llm-explorer-cli dist-train --np N [train options, see `train --help`: --config F --data F "
            "[--zero 0|1|2|3] [--bucket-mb B] [--tp N] [--dp D --tp T] [--pp P [--schedule gpipe|1f1b] [--micro-batches M]] "
            "[--json] ...] [--hostfile F]\n\n"
            "Starts mpiexec with N ranks running `train ... --dp N` on this machine (Open MPI: apt-get install "
            "openmpi-bin). --batch stays the global batch, split over the ranks; rank 0 prints. With --tp N (N = --np) "
            "the ranks split the model (tensor parallelism) instead of the batch; with --dp D --tp T (N = D·T) D replicas "
            "of a T-way split, grouped as the Layout page's device mesh; with --pp P (P = N) it runs "
            "`train ... --pp P` instead: pipeline parallelism, one stage per rank.\n\n"
            "--hostfile F  Open MPI hostfile (one line per machine: `node1 slots=4`): the ranks run on those machines. "
            "Every machine needs llm-explorer-cli, the --config and --data files at the same paths (a shared folder, or "
            "copies) and password-less ssh from this one; checkpoints are written by rank 0 alone, on its machine. "
            "Ranks may then not outnumber the hostfile's slots.\n"));
        return kExitOk;
    }
    QStringList rest = arguments;
    const qsizetype at = rest.indexOf(QStringLiteral("--np"));
    if (at < 0 || at + 1 >= rest.size())
        return reportProblems({Problem{"--np", "required", "--np N (the number of ranks) is required"}});
    const std::optional<std::int64_t> ranks = parseCount(rest.at(at + 1));
    if (!ranks || *ranks < 1 || *ranks > 64)
        return reportProblems({Problem{"--np", "range",
                                       "--np '" + rest.at(at + 1).toStdString() + "' must be a rank count from 1 to 64"}});
    rest.remove(at, 2);
    QString hostfile;
    if (const qsizetype h = rest.indexOf(QStringLiteral("--hostfile")); h >= 0) {
        if (h + 1 >= rest.size())
            return reportProblems({Problem{"--hostfile", "required", "--hostfile needs a file: --hostfile F"}});
        hostfile = rest.at(h + 1);
        const QFileInfo info(hostfile);
        if (!info.exists())
            return reportProblems({Problem{"--hostfile", "missing", "--hostfile " + hostfile.toStdString() + ": no such file"}});
        if (!info.isFile() || !info.isReadable())
            return reportProblems({Problem{"--hostfile", "not_regular",
                                           "--hostfile " + hostfile.toStdString() + ": must be a readable regular file"}});
        rest.remove(h, 2);
    }
    const bool model_parallel = rest.contains(QStringLiteral("--tp")) || rest.contains(QStringLiteral("--pp"));
    // --dp alone is --np; with --tp or --pp it is the data-parallel degree of a combined layout
    // (issue 33: --np N --dp D --tp T with N = D·T, which `train` checks against mpirun's ranks).
    if (rest.contains(QStringLiteral("--dp")) && !model_parallel)
        return reportProblems({Problem{"--dp", "conflict", "--dp is set by dist-train from --np; leave it out (or combine it with --tp or --pp)"}});
    QString mpiexec = QStandardPaths::findExecutable(QStringLiteral("mpiexec"));
    if (mpiexec.isEmpty())
        mpiexec = QStandardPaths::findExecutable(QStringLiteral("mpirun"));
    if (mpiexec.isEmpty())
        return reportProblems({Problem{"--np", "unavailable",
                                       "dist-train needs Open MPI's mpiexec on PATH (apt-get install openmpi-bin)"}});
    const QString count = QString::number(*ranks);
    QStringList command{QStringLiteral("-np"), count, QStringLiteral("--bind-to"), QStringLiteral("none"),
                        QStringLiteral("-x"), QStringLiteral("OMP_NUM_THREADS=1")};
    if (hostfile.isEmpty())
        command << QStringLiteral("--oversubscribe");  // this machine alone: ranks may outnumber its cores
    else
        command << QStringLiteral("--hostfile") << QFileInfo(hostfile).absoluteFilePath();
    if (geteuid() == 0)
        command << QStringLiteral("--allow-run-as-root");  // CI and containers run as root
    command << QCoreApplication::applicationFilePath() << QStringLiteral("train") << rest;
    // --tp T and --pp P (issue 33) split the model over the ranks instead of the batch: T or P must
    // equal --np, which `train` checks against mpirun's process count. Every other run is data-parallel.
    if (!model_parallel)
        command << QStringLiteral("--dp") << count;
    QProcess process;
    process.setProcessChannelMode(QProcess::ForwardedChannels);
    process.start(mpiexec, command);
    if (!process.waitForStarted())
        return reportProblems({Problem{"--np", "start", "cannot start " + mpiexec.toStdString()}});
    process.waitForFinished(-1);
    return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : kExitBadInput;
}

}  // namespace lse::cli
