// SPDX-License-Identifier: GPL-3.0-or-later
// Running one of the CLI's commands inside this process with what it would print captured instead:
// its standard output, its error text and the problems it reported. The Python module (app/python)
// calls the commands this way, so a notebook gets the figures `llm-explorer-cli <command> --json`
// prints, from the same code.
#pragma once

#include "common/problem.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <functional>

namespace lse::cli {

struct CapturedRun {
    int exit_status = 0;
    QByteArray out;     // what the command printed on standard output (UTF-8)
    QString err;        // what it printed on standard error
    Problems problems;  // what reportProblems was given (bad input: exit status 2)
};

// Runs `command(arguments)` on this thread with printOut, printError and reportProblems writing
// into the result instead of the process's streams. Other threads still print as usual.
CapturedRun runCaptured(const std::function<int(const QStringList &)> &command, const QStringList &arguments);

// The command of the name `llm-explorer-cli NAME` runs ("estimate", "search", ...); null for
// another name.
std::function<int(const QStringList &)> commandNamed(const QString &name);

}  // namespace lse::cli
