// SPDX-License-Identifier: GPL-3.0-or-later
// training.mfu_source (issue 17, "MFU: predicted | given"): Given keeps every figure a scenario
// without the field had; Predicted takes the MFU performance::predictStep predicts and derives the
// time from it; the field survives a JSON round trip and a bad value names the field and the
// choices; predicted MFUs stay ≤ 1 on the presets and the published runs; and for a fixed per-GPU
// batch more data-parallel GPUs never predict a faster step.
#include "cost/estimate.h"
#include "performance/step_prediction.h"
#include "roofline/roofline.h"
#include "roofline/roofline_machine.h"
#include "scenario/presets.h"
#include "scenario/scenario_adjust.h"
#include "scenario/scenario_json.h"
#include "validation/published_runs.h"

#include "test_models.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

using namespace lse;

namespace {

Estimate estimated(const Scenario &scenario)
{
    const Result<Estimate> result = estimate(scenario);
    if (!result)
        qFatal("estimate failed: %s", formatProblems(result.problems()).c_str());
    return *result;
}

performance::StepPrediction predicted(const Scenario &scenario)
{
    const Result<performance::StepPrediction> result = performance::predictStep(scenario);
    if (!result)
        qFatal("predictStep failed: %s", formatProblems(result.problems()).c_str());
    return *result;
}

QString nameOf(MfuSource source) { return QString::fromLatin1(toString(source).data()); }

Scenario withSource(Scenario scenario, MfuSource source)
{
    scenario.training.mfu_source = source;
    return scenario;
}

// The default scenario's JSON without the mfu_source key, as files written before the field were.
QByteArray jsonWithoutMfuSource(const Scenario &scenario)
{
    QJsonObject root = QJsonDocument::fromJson(scenarioToJson(scenario)).object();
    QJsonObject training = root["training"].toObject();
    training.remove("mfu_source");
    root["training"] = training;
    return QJsonDocument(root).toJson();
}

// Every built-in model preset on the default cluster, fitted the way the editor's preset picker does.
std::vector<Scenario> presetScenarios()
{
    std::vector<Scenario> scenarios;
    for (const ModelPreset &preset : builtinModelPresets())
        scenarios.push_back(adaptScenarioToModel(defaultScenario(), preset.model).scenario);
    return scenarios;
}

}  // namespace

class TestMfuSource : public QObject {
    Q_OBJECT
private slots:
    void givenIsTheDefault()
    {
        QCOMPARE(nameOf(TrainingConfig{}.mfu_source), nameOf(MfuSource::Given));
        QCOMPARE(nameOf(defaultScenario().training.mfu_source), nameOf(MfuSource::Given));
    }

    // A file without the field reads as Given, and its estimate is the typed-MFU estimate to the bit.
    void givenKeepsTodaysNumbers()
    {
        const Scenario base = defaultScenario();
        const Result<Scenario> old_file = scenarioFromJson(jsonWithoutMfuSource(base));
        QVERIFY2(old_file.ok(), formatProblems(old_file.problems()).c_str());
        QCOMPARE(nameOf(old_file->training.mfu_source), nameOf(MfuSource::Given));
        const Estimate a = estimated(*old_file);
        const Estimate b = estimated(withSource(base, MfuSource::Given));
        QCOMPARE(a.time.mfu, base.training.mfu);
        QCOMPARE(b.time.mfu, base.training.mfu);
        QCOMPARE(a.time.seconds, b.time.seconds);
        QCOMPARE(a.time.days, b.time.days);
        QCOMPARE(a.time.gpu_hours, b.time.gpu_hours);
        QCOMPARE(a.time.cost, b.time.cost);
        QCOMPARE(a.time.tokens_per_second, b.time.tokens_per_second);
        QCOMPARE(a.time.step_seconds, b.time.step_seconds);
        QCOMPARE(a.time.hfu, b.time.hfu);
        QCOMPARE(nameOf(b.time.mfu_source), nameOf(MfuSource::Given));
        QVERIFY(!b.time.predicted.has_value());
        // days = C / (N_gpu · peak · MFU) / 86,400 s with the typed MFU
        QCOMPARE(b.time.days,
                 b.flops.time_basis / (base.cluster.gpus * b.time.peak_flops_per_gpu * base.training.mfu) / 86400.0);
    }

    void predictedUsesThePredictionsMfu()
    {
        const Scenario scenario = withSource(defaultScenario(), MfuSource::Predicted);
        const Estimate e = estimated(scenario);
        const performance::StepPrediction p = predicted(withSource(scenario, MfuSource::Given));
        QCOMPARE(nameOf(e.time.mfu_source), nameOf(MfuSource::Predicted));
        QCOMPARE(e.time.mfu, p.mfu);
        QVERIFY(e.time.mfu != scenario.training.mfu);  // the typed 0.3 is not used
        QVERIFY(e.time.predicted.has_value());
        QCOMPARE(e.time.predicted->mfu, p.mfu);
        QCOMPARE(e.time.predicted->hfu, p.hfu);
        QCOMPARE(e.time.predicted->step_seconds, p.total_seconds);
        // The breakdown is stepParts, in order, adding up to the predicted step.
        const std::vector<performance::StepPart> parts = performance::stepParts(p);
        QCOMPARE(e.time.predicted->step_breakdown.size(), parts.size());
        double sum = 0;
        for (std::size_t i = 0; i < parts.size(); ++i) {
            QCOMPARE(e.time.predicted->step_breakdown[i].id, parts[i].id);
            QCOMPARE(e.time.predicted->step_breakdown[i].seconds, parts[i].seconds);
            sum += parts[i].seconds;
        }
        QVERIFY(std::fabs(sum - p.total_seconds) <= 1e-9 * p.total_seconds);
        // days = C / (N_gpu · peak · predicted MFU) / 86,400 s = tokens / (tokens/s) / 86,400 s
        const double seconds = e.flops.time_basis / (scenario.cluster.gpus * e.time.peak_flops_per_gpu * p.mfu);
        QVERIFY(std::fabs(e.time.seconds - seconds) <= 1e-12 * seconds);
        QVERIFY(std::fabs(e.time.days - double(scenario.training.tokens) / e.time.tokens_per_second / 86400.0)
                <= 1e-9 * e.time.days);
        // With the exact FLOP count as the basis, a training step takes the predicted step time.
        QVERIFY(std::fabs(e.time.step_seconds - p.total_seconds) <= 1e-6 * p.total_seconds);
        QVERIFY(std::fabs(e.time.hfu - p.hfu) <= 1e-9 * p.hfu);
    }

    // Memory, FLOPs and communication do not depend on where the MFU comes from.
    void predictedChangesOnlyTheTime()
    {
        const Estimate given = estimated(defaultScenario());
        const Estimate pred = estimated(withSource(defaultScenario(), MfuSource::Predicted));
        QCOMPARE(pred.memory.total, given.memory.total);
        QCOMPARE(pred.flops.total_train, given.flops.total_train);
        QCOMPARE(pred.communication.total_seconds, given.communication.total_seconds);
        QCOMPARE(pred.time.steps, given.time.steps);
    }

    // The roofline's "MFU-based time" is the engine's: with the MFU predicted it uses the prediction.
    void rooflineUsesTheMfuTheEngineUses()
    {
        for (MfuSource source : {MfuSource::Given, MfuSource::Predicted}) {
            const Scenario scenario = withSource(defaultScenario(), source);
            const Result<RooflineReport> report =
                rooflineReport(scenario, rooflineOptionsFor(scenario), rooflineMachine(scenario));
            QVERIFY2(report.ok(), formatProblems(report.problems()).c_str());
            QCOMPARE(report->mfu, estimated(scenario).time.mfu);
            QCOMPARE(report->mfu_step_seconds, report->model_flops / (rooflineMachine(scenario).peak_flops_per_second * report->mfu));
        }
    }

    void jsonRoundTrip_data()
    {
        QTest::addColumn<int>("source");
        QTest::newRow("given") << int(MfuSource::Given);
        QTest::newRow("predicted") << int(MfuSource::Predicted);
    }
    void jsonRoundTrip()
    {
        QFETCH(int, source);
        const Scenario scenario = withSource(defaultScenario(), MfuSource(source));
        const QByteArray json = scenarioToJson(scenario);
        const QJsonObject training = QJsonDocument::fromJson(json).object()["training"].toObject();
        QCOMPARE(training["mfu_source"].toString(), QString::fromLatin1(toString(MfuSource(source)).data()));
        const Result<Scenario> back = scenarioFromJson(json);
        QVERIFY2(back.ok(), formatProblems(back.problems()).c_str());
        QCOMPARE(nameOf(back->training.mfu_source), nameOf(MfuSource(source)));
        QCOMPARE(back->training.mfu, scenario.training.mfu);
    }

    void aBadValueNamesTheFieldAndTheChoices()
    {
        QJsonObject root = QJsonDocument::fromJson(scenarioToJson(defaultScenario())).object();
        QJsonObject training = root["training"].toObject();
        training["mfu_source"] = "measured";
        root["training"] = training;
        const Result<Scenario> read = scenarioFromJson(QJsonDocument(root).toJson());
        QVERIFY(!read.ok());
        bool named = false;
        for (const Problem &problem : read.problems())
            if (problem.field == "training.mfu_source") {
                named = true;
                QVERIFY2(problem.message.find("given") != std::string::npos
                             && problem.message.find("predicted") != std::string::npos,
                         problem.message.c_str());
            }
        QVERIFY2(named, formatProblems(read.problems()).c_str());
    }

    void predictedMfuIsAtMostOneOnThePresets()
    {
        const std::vector<Scenario> scenarios = presetScenarios();
        std::size_t checked = 0;
        for (const Scenario &scenario : scenarios) {
            const Result<Estimate> e = estimate(withSource(scenario, MfuSource::Predicted));
            if (!e)
                continue;  // a preset the default cluster cannot run has no prediction to check
            QVERIFY2(e->time.mfu > 0 && e->time.mfu <= 1.0, scenario.model.name.c_str());
            QVERIFY2(e->time.predicted->hfu <= 1.0, scenario.model.name.c_str());
            ++checked;
        }
        QVERIFY2(checked * 2 >= scenarios.size(), qPrintable(QStringLiteral("%1 of %2").arg(checked).arg(scenarios.size())));
    }

    void predictedMfuIsAtMostOneOnThePublishedRuns()
    {
        QVERIFY(!builtinPublishedRuns().empty());
        for (const PublishedRun &run : builtinPublishedRuns()) {
            const Estimate e = estimated(withSource(run.scenario, MfuSource::Predicted));
            QVERIFY2(e.time.mfu > 0 && e.time.mfu <= 1.0, run.id.c_str());
            QVERIFY2(e.time.predicted->hfu <= 1.0, run.id.c_str());
        }
    }

    // Pure data parallelism with a fixed per-GPU micro-batch and micro-batch count: each GPU does
    // the same work at every dp; what grows is the gradient all-reduce (2(n−1)/n of the gradients,
    // and across nodes from dp 16 on 8-GPU nodes). Nothing may make the step faster.
    void moreDataParallelGpusNeverPredictAFasterStep()
    {
        const ModelConfig model = test::gptModel(24, 2048, 16, 51200, 2048);
        const auto atDp = [&model](int dp) {
            Scenario scenario = test::scenarioFor(model, dp);
            scenario.training.micro_batch = 2;
            scenario.training.global_batch = std::int64_t(dp) * 2 * 4;  // 4 micro-batches per step
            return predicted(scenario);
        };
        const performance::StepPrediction one = atDp(1);
        double previous = 0;
        int previous_dp = 0;
        for (int dp = 1; dp <= 1024; dp *= 2) {
            const performance::StepPrediction p = atDp(dp);
            QVERIFY2(p.total_seconds >= previous,
                     qPrintable(QStringLiteral("dp %1: %2 s < dp %3: %4 s")
                                    .arg(dp).arg(p.total_seconds).arg(previous_dp).arg(previous)));
            // The work per GPU is the same at every dp, so the compute part is too.
            QVERIFY(std::fabs(p.compute_seconds - one.compute_seconds) <= 1e-12 * one.compute_seconds);
            previous = p.total_seconds;
            previous_dp = dp;
        }
    }
};

QTEST_GUILESS_MAIN(TestMfuSource)
#include "test_mfu_source.moc"
