// SPDX-License-Identifier: GPL-3.0-or-later
// The commands by the name `llm-explorer-cli NAME` runs them under (main.cpp and the Python module).
#include "commands.h"
#include "output_capture.h"

#include <map>

namespace lse::cli {

std::function<int(const QStringList &)> commandNamed(const QString &name)
{
    static const std::map<QString, int (*)(const QStringList &)> commands = {
        {QStringLiteral("estimate"), &runEstimate},
        {QStringLiteral("presets"), &runPresets},
        {QStringLiteral("hardware"), &runHardware},
        {QStringLiteral("published-runs"), &runPublishedRuns},
        {QStringLiteral("dist-train"), &runDistTrain},
        {QStringLiteral("lessons"), &runLessons},
        {QStringLiteral("validate"), &runValidate},
        {QStringLiteral("tokenize"), &runTokenize},
        {QStringLiteral("train-bpe"), &runTrainBpe},
        {QStringLiteral("prepare-data"), &runPrepareData},
        {QStringLiteral("bench-tokenizer"), &runBenchTokenizer},
        {QStringLiteral("machine"), &runMachine},
        {QStringLiteral("links"), &runLinks},
        {QStringLiteral("roofline"), &runRoofline},
        {QStringLiteral("attention"), &runAttention},
        {QStringLiteral("gemm-waves"), &runGemmWaves},
        {QStringLiteral("fusion"), &runFusion},
        {QStringLiteral("trace"), &runTrace},
        {QStringLiteral("infer"), &runInfer},
        {QStringLiteral("train"), &runTrain},
        {QStringLiteral("generate"), &runGenerate},
        {QStringLiteral("tensor"), &runTensor},
        {QStringLiteral("ablate"), &runAblate},
        {QStringLiteral("collective"), &runCollective},
        {QStringLiteral("pipeline"), &runPipeline},
        {QStringLiteral("search"), &runSearch},
        {QStringLiteral("mesh"), &runMesh},
        {QStringLiteral("scaling"), &runScaling},
        {QStringLiteral("numbers"), &runNumbers},
    };
    const auto found = commands.find(name);
    if (found == commands.end())
        return {};
    return found->second;
}

}  // namespace lse::cli
