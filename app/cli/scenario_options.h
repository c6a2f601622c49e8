// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/problem.h"
#include "scenario/scenario.h"

#include <QCommandLineParser>

// The scenario flags `estimate`, `roofline` and `search` share: --scenario FILE or the course
// example, then --model, --gpu, --gpus, ... applied on top.
namespace lse::cli {

void addScenarioOptions(QCommandLineParser &parser);
// The scenario the flags describe, or one problem per bad flag (field "--flag").
Result<Scenario> scenarioFromOptions(const QCommandLineParser &parser);

}  // namespace lse::cli
