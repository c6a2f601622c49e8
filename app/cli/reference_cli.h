// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers the CPU reference transformer's commands share (`train`, `generate`; train_command.cpp).
#pragma once

#include "common/problem.h"
#include "reference/trainer.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <string>

namespace lse::cli {

Problem problem(const std::string &field, const std::string &rule, const std::string &message);

// Parses `arguments` for `command`: the exit status when it is done already (--help, a syntax
// error, an unexpected positional argument), nothing when the command should run.
std::optional<int> parseArguments(QCommandLineParser &parser, const QString &command, const QString &synopsis,
                                  const QString &description, const QList<QCommandLineOption> &options,
                                  const QStringList &arguments);

// A number flag >= minimum: `out` unchanged when absent; a problem naming --name when not such a number.
void numberOption(const QCommandLineParser &parser, const QString &name, double minimum, double &out, Problems &problems);

// A config file, or the name of a bundled preset (tiny, small, cs336-tinystories).
Result<lse::reference::TrainConfig> loadConfig(const QString &path);

}  // namespace lse::cli
