// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli published-runs`: the whole validation table with layouts, sources and the
// published iteration time of each run (as core computes it), each run a valid scenario; bad
// flags exit 2 and name the flag.
#include "scenario/scenario.h"
#include "scenario/scenario_json.h"
#include "validation/published_runs.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "cli_run.h"

using lse::test::Run;
using lse::test::runCli;

class TestCliPublishedRuns : public QObject {
    Q_OBJECT

private slots:
    void jsonListsEveryRunAsCoreHasIt()
    {
        const Run run = runCli({"published-runs", "--json"});
        QCOMPARE(run.exit_code, 0);
        QVERIFY(run.err.isEmpty());
        const QJsonArray rows = QJsonDocument::fromJson(run.out).object().value("runs").toArray();
        const std::vector<lse::PublishedRun> &runs = lse::builtinPublishedRuns();
        QCOMPARE(std::size_t(rows.size()), runs.size());
        for (int i = 0; i < rows.size(); ++i) {
            const QJsonObject row = rows.at(i).toObject();
            const lse::PublishedRun &expected = runs[std::size_t(i)];
            QCOMPARE(row.value("id").toString().toStdString(), expected.id);
            QVERIFY(!row.value("source").toString().isEmpty());
            QCOMPARE(row.value("published_iteration_seconds").toDouble(), expected.publishedIterationSeconds());
            if (row.value("iteration_time_printed").toBool())
                QCOMPARE(row.value("published_iteration_seconds").toDouble(),
                         row.value("published").toObject().value("iteration_time_seconds").toDouble());
            // The printed layout reads back as a scenario that validates.
            const lse::Result<lse::ModelConfig> model = lse::modelFromJson(row.value("model").toObject());
            const lse::Result<lse::ClusterConfig> cluster = lse::clusterFromJson(row.value("cluster").toObject());
            const lse::Result<lse::TrainingConfig> training = lse::trainingFromJson(row.value("training").toObject());
            QVERIFY(model.ok() && cluster.ok() && training.ok());
            const lse::Scenario scenario{*model, *cluster, *training};
            QVERIFY2(lse::validate(scenario).empty(), expected.id.c_str());
            QCOMPARE(scenario.training.parallel.tp, expected.scenario.training.parallel.tp);
            QCOMPARE(scenario.training.parallel.pp, expected.scenario.training.parallel.pp);
        }
    }

    void textListsEveryRun()
    {
        const Run run = runCli({"published-runs"});
        QCOMPARE(run.exit_code, 0);
        for (const lse::PublishedRun &expected : lse::builtinPublishedRuns())
            QVERIFY2(run.out.contains(QByteArray::fromStdString(expected.id)), expected.id.c_str());
        QVERIFY(run.out.contains("printed") && run.out.contains("narayanan-eq3"));
    }

    void badArgumentsExitTwoNamingTheFlag()
    {
        const Run unknown = runCli({"published-runs", "--tp", "8"});
        QCOMPARE(unknown.exit_code, 2);
        QVERIFY(unknown.out.isEmpty());
        QVERIFY2(unknown.err.contains("tp"), unknown.err.constData());
        const Run positional = runCli({"published-runs", "extra"});
        QCOMPARE(positional.exit_code, 2);
        QVERIFY2(positional.err.contains("extra"), positional.err.constData());
        const Run help = runCli({"published-runs", "--help"});
        QCOMPARE(help.exit_code, 0);
        QVERIFY(help.out.contains("Usage: llm-explorer-cli published-runs"));
    }
};

QTEST_GUILESS_MAIN(TestCliPublishedRuns)
#include "test_cli_published_runs.moc"
