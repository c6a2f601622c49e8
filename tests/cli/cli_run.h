// SPDX-License-Identifier: GPL-3.0-or-later
// Runs the command-line tool for the CLI test suites and captures its exit code and both streams.
#pragma once

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>

#include <cstdio>
#include <cstdlib>

namespace lse::test {

struct Run {
    int exit_code = -1;  // -1 when the process crashed
    QByteArray out;
    QByteArray err;
};

// Waits up to two minutes: under AddressSanitizer on a loaded 2-core machine a training run is slow.
inline Run runCli(const QStringList &arguments)
{
    QProcess process;
    process.start(QStringLiteral(LSE_CLI_PATH), arguments);
    if (!process.waitForFinished(120000)) {
        std::fprintf(stderr, "llm-explorer-cli did not finish\n");
        std::abort();
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1, process.readAllStandardOutput(),
            process.readAllStandardError()};
}

#ifdef LSE_MPIEXEC
// `mpiexec -np ranks llm-explorer-cli arguments` (issue 19), one OpenMP thread per rank. CI runs as
// root on 2 cores: Open MPI needs --allow-run-as-root and, beyond 2 ranks, --oversubscribe.
inline Run runMpi(int ranks, const QStringList &arguments)
{
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("1"));
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(LSE_MPIEXEC),
                  QStringList{QStringLiteral("-np"), QString::number(ranks), QStringLiteral("--oversubscribe"),
                              QStringLiteral("--allow-run-as-root"), QStringLiteral("--bind-to"), QStringLiteral("none"),
                              QStringLiteral(LSE_CLI_PATH)}
                      + arguments);
    if (!process.waitForFinished(240000)) {
        std::fprintf(stderr, "mpiexec did not finish\n");
        std::abort();
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1, process.readAllStandardOutput(),
            process.readAllStandardError()};
}
#endif

// `estimate --json` with `flags`; a failing run stops the test with its message.
inline QJsonObject estimateJson(const QStringList &flags)
{
    const Run run = runCli(QStringList{"estimate", "--json"} + flags);
    if (run.exit_code != 0)
        qFatal("estimate failed: %s", run.err.constData());
    return QJsonDocument::fromJson(run.out).object();
}

}  // namespace lse::test
