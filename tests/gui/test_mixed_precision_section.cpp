// SPDX-License-Identifier: GPL-3.0-or-later
// The Numbers page's "Mixed precision" tab offscreen: its figures are the memory engine's for the
// scenario (and each recipe), "Use this recipe" is one scenario edit applying the recipe as the
// editor does, and the chart exports.

#include "charts/chart_view.h"
#include "cost/estimate.h"
#include "pages/numbers/mixed_precision_section.h"
#include "pages/numbers/numbers_page.h"
#include "scenario/scenario_json.h"

#include <QFileInfo>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace lse;
using namespace lse::gui;

namespace {

// The memory engine's model state for every parameter of the scenario, unsharded.
double engineModelState(const Scenario &scenario, double parameters)
{
    return modelStateBytes(parameters, scenario.training, 1, optimizerStateBytesPerParameter(scenario.training.optimizer))
        .total();
}

// A single GPU without ZeRO, so the Memory page's weights + gradients + optimizer states are the
// whole model state.
Scenario singleGpu(Scenario scenario)
{
    scenario.training.parallel = ParallelConfig{};
    scenario.cluster.gpus_per_node = 1;
    scenario.cluster.gpus = 1;
    return scenario;
}

}  // namespace

class TestMixedPrecisionSection : public QObject {
    Q_OBJECT
private slots:
    void numbersPageHasTheTab()
    {
        NumbersPage page;
        bool found = false;
        for (QWidget *child : page.findChildren<PageSection *>())
            found = found || static_cast<PageSection *>(child)->id() == QStringLiteral("mixed-precision");
        QVERIFY(found);
    }

    void figuresAreTheMemoryEngines_data()
    {
        QTest::addColumn<int>("edit");
        QTest::addRow("default scenario") << 0;
        QTest::addRow("fp32 gradients (18 bytes)") << 1;
        QTest::addRow("fp32 accumulation, no master, momentum") << 2;
        QTest::addRow("fp16 recipe, 8-bit Adam") << 3;
    }
    void figuresAreTheMemoryEngines()
    {
        QFETCH(int, edit);
        Scenario scenario = singleGpu(defaultScenario());
        if (edit == 1)
            scenario.training.precision.gradient_dtype = DType::FP32;
        if (edit == 2) {
            scenario.training.precision.fp32_gradient_accumulation = true;
            scenario.training.precision.master_weights = false;
            scenario.training.optimizer = Optimizer::Momentum;
        }
        if (edit == 3) {
            scenario.training.precision = precisionForRecipe(PrecisionRecipe::FP16Mixed);
            scenario.training.optimizer = Optimizer::Adam8bit;
        }
        const Result<Estimate> result = lse::estimate(scenario);
        QVERIFY2(result.ok(), formatProblems(result.problems()).c_str());
        MixedPrecisionSection section;
        section.showEstimate(scenario, *result);
        const double parameters = double(result->params.total);
        const double engine = engineModelState(scenario, parameters);
        QCOMPARE(section.scenarioModelStateBytes(), engine);
        // The Memory page's figures (int64 bytes, truncated per part) on this single GPU.
        const MemoryEstimate &memory = result->memory;
        QCOMPARE(memory.parameters_on_gpu, result->params.total);
        QVERIFY(std::abs(double(memory.params + memory.grads + memory.optimizer) - engine) <= 3.0);
        // Every bar of the chart stacks to the engine's bytes per parameter for its precision.
        const ChartData &chart = section.chart()->data();
        QCOMPARE(chart.categories.size(), qsizetype(5));
        for (int bar = 0; bar < 5; ++bar) {
            double stacked = 0;
            for (const ChartSeries &s : chart.series)
                stacked += s.y[bar];
            Scenario shown = scenario;
            if (bar < 4)
                shown.training.precision = precisionForRecipe(precisionRecipes()[std::size_t(bar)]);
            QCOMPARE(stacked, engineModelState(shown, 1.0));
        }
        // One table per recipe and one for the scenario, one row per tensor.
        QCOMPARE(section.table(4)->rowCount(), int(section.breakdowns().back().tensors.size()));
    }

    void useThisRecipeIsOneEdit()
    {
        Scenario scenario = defaultScenario();
        scenario.training.precision.gradient_dtype = DType::FP32;  // an edited field the recipe resets
        const Result<Estimate> result = lse::estimate(scenario);
        QVERIFY(result.ok());
        MixedPrecisionSection section;
        section.showEstimate(scenario, *result);
        QSignalSpy edits(&section, &PageSection::scenarioEditRequested);
        QList<QPushButton *> buttons;
        for (QPushButton *b : section.findChildren<QPushButton *>())
            if (b->text() == MixedPrecisionSection::tr("Use this recipe"))
                buttons << b;
        QCOMPARE(buttons.size(), qsizetype(4));
        buttons[2]->click();  // FP16 with loss scaling
        QCOMPARE(edits.count(), 1);
        const Scenario edited = edits.at(0).at(0).value<Scenario>();
        QVERIFY(edited.training.precision.recipe == PrecisionRecipe::FP16Mixed);
        QVERIFY(edited.training.precision.gradient_dtype == DType::FP16);
        QVERIFY(edited.training.precision.weight_dtype == DType::FP16);
        QVERIFY(edited.training.tokens == scenario.training.tokens);
        QVERIFY(!edits.at(0).at(1).toString().isEmpty());
    }

    void chartExports()
    {
        const Scenario scenario = defaultScenario();
        const Result<Estimate> result = lse::estimate(scenario);
        QVERIFY(result.ok());
        MixedPrecisionSection section;
        section.showEstimate(scenario, *result);
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("mixed.csv"));
        QVERIFY(section.chart()->exportCsv(csv));
        QVERIFY(QFileInfo(csv).size() > 0);
    }
};

QTEST_MAIN(TestMixedPrecisionSection)
#include "test_mixed_precision_section.moc"
