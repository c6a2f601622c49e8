// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

// Each subcommand takes its own arguments (without the program and subcommand names) and returns
// the process exit status: 0 success, 2 bad input (problems on stderr, nothing on stdout), 3 training
// diverged (`train`: a non-finite loss stopped the run; no checkpoint of that state was written).
namespace lse::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitDiverged = 3;

int runEstimate(const QStringList &arguments);
int runPresets(const QStringList &arguments);
int runHardware(const QStringList &arguments);
int runPublishedRuns(const QStringList &arguments);
int runValidate(const QStringList &arguments);
int runLessons(const QStringList &arguments);
int runDistTrain(const QStringList &arguments);
int runTokenize(const QStringList &arguments);
int runTrainBpe(const QStringList &arguments);
int runPrepareData(const QStringList &arguments);
int runBenchTokenizer(const QStringList &arguments);
int runMachine(const QStringList &arguments);
int runLinks(const QStringList &arguments);
int runTrain(const QStringList &arguments);
int runGenerate(const QStringList &arguments);
int runRoofline(const QStringList &arguments);
int runInfer(const QStringList &arguments);
int runCollective(const QStringList &arguments);
int runPipeline(const QStringList &arguments);
int runSearch(const QStringList &arguments);
int runMesh(const QStringList &arguments);
int runScaling(const QStringList &arguments);
int runAblate(const QStringList &arguments);
int runNumbers(const QStringList &arguments);
int runTensor(const QStringList &arguments);
int runTrace(const QStringList &arguments);
int runAttention(const QStringList &arguments);
int runGemmWaves(const QStringList &arguments);
int runFusion(const QStringList &arguments);

}  // namespace lse::cli
