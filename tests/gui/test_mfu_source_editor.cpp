// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 17, "MFU: predicted | given" in the GUI: the editor's combo next to the MFU switches the
// scenario's mfu_source as one undoable edit; with "predicted" the MFU box is read-only, shows the
// engine's predicted MFU and says where it comes from; the Time and Overview pages label the MFU
// "predicted" or "given" beside the figure.

#include "charts/chart_view.h"
#include "document/scenario_document.h"
#include "editor/scenario_editor.h"
#include "pages/cost/overview_page.h"
#include "pages/cost/time_page.h"
#include "pages/page_format.h"
#include "scenario/scenario_json.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

using namespace lse;
using namespace lse::gui;

namespace {

Estimate estimated(const Scenario &scenario)
{
    const Result<Estimate> result = estimate(scenario);
    if (!result)
        qFatal("estimate failed: %s", formatProblems(result.problems()).c_str());
    return *result;
}

Scenario predictedScenario()
{
    Scenario scenario = defaultScenario();
    scenario.training.mfu_source = MfuSource::Predicted;
    return scenario;
}

}  // namespace

class TestMfuSourceEditor : public QObject {
    Q_OBJECT
private slots:
    void theComboSwitchesTheSourceAsOneUndoStep()
    {
        ScenarioDocument document;
        ScenarioEditor editor(&document);
        auto *combo = qobject_cast<QComboBox *>(editor.fieldWidget(QStringLiteral("training.mfu_source")));
        auto *mfu = qobject_cast<QDoubleSpinBox *>(editor.fieldWidget(QStringLiteral("training.mfu")));
        QVERIFY(combo && mfu);
        QCOMPARE(combo->count(), 2);
        QCOMPARE(combo->currentIndex(), 0);  // given, the default
        QVERIFY(mfu->isEnabled());
        QCOMPARE(mfu->value(), 0.3);  // the default scenario's typed MFU

        QSignalSpy changed(&document, &ScenarioDocument::scenarioChanged);
        const int steps = document.undoStack()->count();
        emit combo->activated(1);
        QVERIFY(changed.count() >= 1);
        QCOMPARE(document.undoStack()->count(), steps + 1);
        QVERIFY(document.scenario().training.mfu_source == MfuSource::Predicted);
        QCOMPARE(document.scenario().training.mfu, 0.3);  // the typed value is kept for "given"

        // Read-only, showing the engine's predicted MFU, with a tooltip naming the model.
        QVERIFY(document.estimate().time.predicted.has_value());
        QVERIFY(!mfu->isEnabled());
        QCOMPARE(mfu->value(), std::round(document.estimate().time.mfu * 1000) / 1000);
        QVERIFY(std::abs(mfu->value() - 0.3) > 1e-3);
        QVERIFY2(mfu->toolTip().contains(QStringLiteral("Validation page")), qPrintable(mfu->toolTip()));
        QVERIFY2(mfu->toolTip().contains(QStringLiteral("exposed communication")), qPrintable(mfu->toolTip()));

        // Undo restores the given MFU and an editable box.
        document.undoStack()->undo();
        QVERIFY(document.scenario().training.mfu_source == MfuSource::Given);
        QCOMPARE(combo->currentIndex(), 0);
        QVERIFY(mfu->isEnabled());
        QCOMPARE(mfu->value(), 0.3);
    }

    void theTimePageLabelsTheMfu()
    {
        TimePage page;
        const Scenario given = defaultScenario();
        page.showEstimate(given, estimated(given));
        QVERIFY2(page.charts().front()->data().formula.inputs.contains(QStringLiteral("(given)")),
                 qPrintable(page.charts().front()->data().formula.inputs));
        const Scenario predicted = predictedScenario();
        const Estimate e = estimated(predicted);
        page.showEstimate(predicted, e);
        const QString inputs = page.charts().front()->data().formula.inputs;
        QVERIFY2(inputs.contains(QStringLiteral("MFU = %1 (predicted)").arg(format::percent(e.time.mfu))), qPrintable(inputs));
        QVERIFY(page.charts().front()->data().formula.formula.contains(QStringLiteral("predicted at each GPU count")));
        // The days-vs-MFU marker sits at the predicted MFU.
        const ChartData &mfu_chart = page.charts().at(1)->data();
        QCOMPARE(mfu_chart.series.last().x.front(), e.time.mfu);
        QVERIFY(mfu_chart.series.last().point_tooltips.front().contains(QStringLiteral("predicted")));
    }

    void theOverviewLabelsTheMfu()
    {
        OverviewPage page;
        const Scenario given = defaultScenario();
        page.showEstimate(given, estimated(given));
        QVERIFY2(page.summaryText().contains(QStringLiteral("assumed")), qPrintable(page.summaryText()));
        const Scenario predicted = predictedScenario();
        const Estimate e = estimated(predicted);
        page.showEstimate(predicted, e);
        QVERIFY2(page.summaryText().contains(QStringLiteral("predicted %1 MFU").arg(format::percent(e.time.mfu))),
                 qPrintable(page.summaryText()));
    }
};

QTEST_MAIN(TestMfuSourceEditor)
#include "test_mfu_source_editor.moc"
