// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/problem.h"
#include "scenario/scenario.h"

#include <QCommandLineParser>

#include <string>
#include <vector>

// The scenario flags `estimate`, `roofline` and `search` share: --scenario FILE or the course
// example, then --model, --gpu, --gpus, ... applied on top.
namespace lse::cli {

void addScenarioOptions(QCommandLineParser &parser);
// Whether any of the flags addScenarioOptions adds was given, other than those in `except`
// (e.g. {"gpu"}: `trace` reads --gpu alone as the accelerator of its GEMM predictions).
bool anyScenarioFlagSet(const QCommandLineParser &parser, const QStringList &except = {});
// The scenario the flags describe, or one problem per bad flag (field "--flag"). With --model, the
// settings the model rules out (and no flag sets) change to their nearest valid value
// (adaptScenarioToModel); one line on stderr says what changed and why, and `adjustments`, when
// given, receives one sentence per change.
// Problems the core found in the scenario, named after the flags as typed: a problem on a field a
// flag set reads "--peak-tflops (cluster.peak_flops_per_second_override): ... (given as
// --peak-tflops 1e-320)"; one whose related fields a flag set lists those flags and values.
Problems nameScenarioFlags(Problems problems, const QCommandLineParser &parser);
Result<Scenario> scenarioFromOptions(const QCommandLineParser &parser,
                                     std::vector<std::string> *adjustments = nullptr);

}  // namespace lse::cli
