// SPDX-License-Identifier: GPL-3.0-or-later
// --stage-layers: `estimate --json` reports the layers of every pipeline stage and the most loaded
// one (automatic or given), a given list moves the memory to its most loaded stage, auto restores
// the automatic split, the text report lists the stages, and bad lists exit 2 naming the flag
// and the rule.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "cli_run.h"

using lse::test::Run;
using lse::test::estimateJson;
using lse::test::runCli;

namespace {


QJsonObject memory(const QJsonObject &estimate) { return estimate["memory_per_gpu"].toObject(); }

QList<int> stageLayers(const QJsonObject &estimate)
{
    QList<int> layers;
    for (const QJsonValue &value : memory(estimate)["stage_layers"].toArray())
        layers << value.toInt();
    return layers;
}

// Llama 3.1 405B (126 layers) on 16 stages, as Meta trained it: tp 8, pp 16, dp 128.
const QStringList kLlama405b{"--model", "llama-3.1-405b", "--gpus", "16384", "--tp", "8", "--pp", "16",
                             "--global-batch", "2048", "--recompute", "full"};

}  // namespace

class TestCliStageLayers : public QObject {
    Q_OBJECT
private slots:
    void automaticSplitIsReported()
    {
        const QJsonObject estimate = estimateJson(kLlama405b);
        QList<int> expected{7};
        for (int i = 0; i < 14; ++i)
            expected << 8;
        expected << 7;
        QCOMPARE(stageLayers(estimate), expected);
        QCOMPARE(memory(estimate)["most_loaded_stage"].toInt(), 1);
    }

    void modelWithUnevenLayersKeepsItsPipeline()
    {
        // 126 layers on the default 4 stages: no "pp 4 → 2" adaptation any more.
        const Run run = runCli({"estimate", "--model", "llama-3.1-405b", "--json"});
        QCOMPARE(run.exit_code, 0);
        QVERIFY2(!run.err.contains("pp 4"), run.err.constData());
        QCOMPARE(stageLayers(QJsonDocument::fromJson(run.out).object()), (QList<int>{31, 32, 32, 31}));
    }

    void givenListMovesTheMemory()
    {
        const QJsonObject automatic = estimateJson(kLlama405b);
        // Two layers moved from the first and last stage onto stage 5.
        const QJsonObject given = estimateJson(kLlama405b + QStringList{"--stage-layers", "6,8,8,8,8,10,8,8,8,8,8,8,8,8,8,6"});
        QCOMPARE(stageLayers(given).at(5), 10);
        QCOMPARE(memory(given)["most_loaded_stage"].toInt(), 5);
        QCOMPARE(memory(given)["pipeline_stage"].toInt(), 5);
        QCOMPARE(memory(given)["pipeline_stage_layers"].toInt(), 10);
        QVERIFY(memory(given)["total"].toDouble() > memory(automatic)["total"].toDouble());
        QVERIFY(given["communication_per_step"]["tp"]["bytes"].toDouble()
                > automatic["communication_per_step"]["tp"]["bytes"].toDouble());
        // auto goes back to the automatic split.
        const QJsonObject back = estimateJson(kLlama405b + QStringList{"--stage-layers", "auto"});
        QCOMPARE(stageLayers(back), stageLayers(automatic));
    }

    void textReportListsTheStages()
    {
        const Run run = runCli(QStringList{"estimate"} + kLlama405b + QStringList{"--stage-layers", "6,8,8,8,8,10,8,8,8,8,8,8,8,8,8,6"});
        QCOMPARE(run.exit_code, 0);
        QVERIFY2(run.out.contains("layers per stage:            6,8,8,8,8,10,8,8,8,8,8,8,8,8,8,6 (given; most loaded: stage 5)"),
                 run.out.left(800).constData());
        const Run automatic = runCli(QStringList{"estimate"} + kLlama405b);
        QVERIFY2(automatic.out.contains("7,8,8,8,8,8,8,8,8,8,8,8,8,8,8,7 (automatic; most loaded: stage 1)"),
                 automatic.out.left(800).constData());
    }

    void badListsExitTwoNamingTheFlag_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("rule");
        QTest::addRow("not numbers") << "8,eight" << "[list]";
        QTest::addRow("empty entry") << "8,,8" << "[list]";
        QTest::addRow("negative") << "8,-8" << "[list]";
        QTest::addRow("too few stages") << "63,63" << "one per pipeline stage";
        QTest::addRow("wrong sum") << "8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8" << "must sum to model.n_layers 126";
        QTest::addRow("empty stage") << "0,8,8,8,8,8,8,8,8,8,8,8,8,8,8,14" << "at least 1 layer";
    }
    void badListsExitTwoNamingTheFlag()
    {
        QFETCH(QString, value);
        QFETCH(QString, rule);
        const Run run = runCli(QStringList{"estimate"} + kLlama405b + QStringList{"--stage-layers", value});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("--stage-layers"), run.err.constData());
        QVERIFY2(run.err.contains(rule.toUtf8()), run.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliStageLayers)
#include "test_cli_stage_layers.moc"
