// SPDX-License-Identifier: GPL-3.0-or-later
// core/lessons/lesson_scenario.h: a step's scenario changes go through the scenario file's own
// reader (so the same rules and messages apply), accumulate from step to step after each preset,
// and are reported with the step and change that is wrong. scenarioDifference is their inverse.
#include "problem_matchers.h"
#include "hardware/hardware_catalog.h"
#include "lessons/lesson.h"
#include "lessons/lesson_scenario.h"
#include "scenario/presets.h"
#include "scenario/scenario_json.h"

#include <QTest>

using namespace lse;
using lse::test::hasProblem;

namespace {

LessonStep step(std::string page, std::vector<ScenarioChange> changes, std::optional<std::string> preset = {})
{
    LessonStep result;
    result.page = std::move(page);
    result.scenario_changes = std::move(changes);
    result.preset = std::move(preset);
    result.text.en = "text";
    return result;
}

}  // namespace

class TestLessonScenario : public QObject {
    Q_OBJECT
private slots:
    void changesSetNestedFields()
    {
        const Result<Scenario> changed = applyScenarioChanges(
            defaultScenario(), {{"training.parallel.tp", 4}, {"cluster.gpus", 512}, {"model.n_layers", 40}});
        QVERIFY(changed.ok());
        QCOMPARE(changed->training.parallel.tp, 4);
        QCOMPARE(changed->cluster.gpus, 512);
        QCOMPARE(changed->model.n_layers, 40);
        // The editor's name of a parallel degree works as well.
        QCOMPARE(applyScenarioChanges(defaultScenario(), {{"training.zero_stage", 3}})->training.parallel.zero_stage, 3);
        // Everything else is the start's.
        QCOMPARE(changed->training.tokens, defaultScenario().training.tokens);
    }

    void acceleratorByCatalogId()
    {
        const Result<Scenario> changed = applyScenarioChanges(defaultScenario(), {{"cluster.accelerator", "a100-sxm-80gb"}});
        QVERIFY(changed.ok());
        QCOMPARE(changed->cluster.accelerator.id, std::string("a100-sxm-80gb"));
        const Result<Scenario> unknown = applyScenarioChanges(defaultScenario(), {{"cluster.accelerator", "tpu-v9"}});
        QVERIFY(!unknown.ok());
        QVERIFY(hasProblem(unknown.problems(), "scenario_changes[0].value", "unknown_accelerator"));
    }

    void unknownFieldNamesTheChange()
    {
        const Result<Scenario> changed =
            applyScenarioChanges(defaultScenario(), {{"cluster.gpus", 8}, {"training.tensor_parallel", 2}}, "steps[2].scenario_changes");
        QVERIFY(!changed.ok());
        QVERIFY(hasProblem(changed.problems(), "steps[2].scenario_changes[1].field", "unknown_field"));
        QCOMPARE(changed.problems().size(), std::size_t(1));
        // A path through a leaf is not a field either, nor the file's bookkeeping.
        QVERIFY(!applyScenarioChanges(defaultScenario(), {{"cluster.gpus.count", 8}}).ok());
        QVERIFY(!applyScenarioChanges(defaultScenario(), {{"version", 2}}).ok());
    }

    void wrongValueUsesTheScenarioRules()
    {
        const Result<Scenario> changed = applyScenarioChanges(defaultScenario(), {{"cluster.gpus", 8}, {"model.activation", "swish"}});
        QVERIFY(!changed.ok());
        QVERIFY(hasProblem(changed.problems(), "scenario_changes[1].value", "enum"));
        const Result<Scenario> fraction = applyScenarioChanges(defaultScenario(), {{"cluster.gpus", 8.5}});
        QVERIFY(!fraction.ok());
        QVERIFY(hasProblem(fraction.problems(), "scenario_changes[0].value", "integer"));
    }

    void stepsAccumulateAfterPresets()
    {
        Lesson lesson;
        lesson.id = "l";
        lesson.steps = {step("overview", {{"cluster.gpus", 512}}),
                        step("memory", {{"training.parallel.zero_stage", 3}}),
                        step("time", {}, "llama-2-7b")};
        const Result<std::vector<Scenario>> scenarios = lessonScenarios(lesson);
        QVERIFY2(scenarios.ok(), scenarios.ok() ? "" : formatProblems(scenarios.problems()).c_str());
        QCOMPARE(scenarios->size(), std::size_t(3));
        QCOMPARE((*scenarios)[0].cluster.gpus, 512);
        // dp follows the GPU count (the fitter); the step's own field stays as given.
        QCOMPARE((*scenarios)[0].training.parallel.dp, defaultScenario().training.parallel.dp / 2);
        QCOMPARE((*scenarios)[0].training.parallel.zero_stage, defaultScenario().training.parallel.zero_stage);
        QCOMPARE((*scenarios)[1].cluster.gpus, 512);  // kept from step 1
        QCOMPARE((*scenarios)[1].training.parallel.zero_stage, 3);
        // The preset replaces the model and adapts the rest, as the preset picker does.
        QCOMPARE((*scenarios)[2].model.name, findModelPreset("llama-2-7b")->model.name);
        QCOMPARE((*scenarios)[2].training.parallel.zero_stage, 3);
        QVERIFY(validate((*scenarios)[2]).empty());
    }

    void invalidStepScenarioNamesTheStep()
    {
        Lesson lesson;
        lesson.id = "l";
        // tp 3 divides neither the heads nor the GPUs; pinned, the fitter may not move it.
        lesson.steps = {step("overview", {}), step("memory", {{"training.parallel.tp", 3}})};
        const Result<std::vector<Scenario>> scenarios = lessonScenarios(lesson);
        QVERIFY(!scenarios.ok());
        QVERIFY(hasProblem(scenarios.problems(), "steps[1].scenario_changes", "invalid_scenario"));
        QVERIFY(formatProblems(scenarios.problems()).find("training.parallel.tp") != std::string::npos ||
                formatProblems(scenarios.problems()).find("tp") != std::string::npos);
    }

    void differenceIsTheInverseOfApplying()
    {
        Scenario to = defaultScenario();
        to.cluster.gpus = 256;
        to.training.parallel.dp = 8;
        to.training.mfu = 0.45;
        to.model.name = "Changed";
        to.cluster.accelerator = *builtinHardwareCatalog().find("a100-sxm-80gb");
        const std::vector<ScenarioChange> changes = scenarioDifference(defaultScenario(), to);
        QCOMPARE(changes.size(), std::size_t(5));
        bool accelerator_by_id = false;
        for (const ScenarioChange &change : changes)
            if (change.field == "cluster.accelerator")
                accelerator_by_id = change.value.toString() == "a100-sxm-80gb";
        QVERIFY(accelerator_by_id);
        const Result<Scenario> applied = applyScenarioChanges(defaultScenario(), changes);
        QVERIFY(applied.ok());
        QCOMPARE(scenarioToJson(*applied), scenarioToJson(to));
        QVERIFY(scenarioDifference(to, to).empty());
    }
};

QTEST_APPLESS_MAIN(TestLessonScenario)
#include "test_lesson_scenario.moc"
