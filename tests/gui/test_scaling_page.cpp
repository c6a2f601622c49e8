// SPDX-License-Identifier: GPL-3.0-or-later
// The Scaling page offscreen: its figures are core/scaling's (scenario, compute-optimal model and
// the engine's days for both), its charts are non-empty and export, the "Use the compute-optimal
// model" button asks for one scenario edit, and retranslation / presentation keep it whole.

#include "charts/chart_view.h"
#include "cost/estimate.h"
#include "pages/scaling/scaling_charts.h"
#include "pages/scaling/scaling_page.h"
#include "pages/page_format.h"
#include "scaling/chinchilla_law.h"
#include "scaling/model_family.h"
#include "scenario/presets.h"
#include "scenario/scenario_adjust.h"
#include "scenario/scenario_json.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

#include <cmath>

using namespace lse;
using namespace lse::gui;

Q_DECLARE_METATYPE(lse::Scenario)

namespace {

// Wraps every string of the page and its charts in « », so a test sees which text went through tr().
class MarkingTranslator : public QTranslator {
public:
    bool isEmpty() const override { return false; }
    QString translate(const char *context, const char *source, const char *, int) const override
    {
        const QLatin1String name(context);
        if (name != QLatin1String("lse::gui::ScalingPage") && name != QLatin1String("lse::gui::ScalingCharts"))
            return QString();
        return QStringLiteral("«") + QString::fromUtf8(source) + QStringLiteral("»");
    }
};

}  // namespace

class TestScalingPage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        qRegisterMetaType<lse::Scenario>();
        scenario_ = defaultScenario();
        const Result<Estimate> result = lse::estimate(scenario_);
        QVERIFY(result.ok());
        estimate_ = *result;
    }

    void beforeAnEstimateTheButtonIsOff()
    {
        ScalingPage page;
        QCOMPARE(page.id(), QStringLiteral("scaling"));
        QVERIFY(!page.scaling());
        QVERIFY(!page.useOptimalButton()->isEnabled());
        QCOMPARE(page.charts().size(), 3);
    }

    // The figures panel shows core's numbers: the scenario's N, D, C and loss, the closed-form
    // optimum for the same C, and the engine's days, GPU-hours and cost of both models.
    void figuresMatchCore()
    {
        ScalingPage page;
        page.showEstimate(scenario_, estimate_);
        QVERIFY(page.scaling());
        const scaling::ScenarioScaling &s = *page.scaling();
        QCOMPARE(s.params, double(estimate_.params.active));
        QCOMPARE(s.compute, scaling::trainingFlops(s.params, double(scenario_.training.tokens)));
        QCOMPARE(s.optimum.params, scaling::computeOptimum(s.compute).params);
        QVERIFY(s.optimal_estimate);
        const QString text = page.figuresLabel()->text();
        for (const QString &figure :
             {format::count(s.params), format::count(s.tokens), format::decimal(s.loss, 4), format::scientific(s.compute),
              format::count(s.optimum.params), format::count(s.optimum.tokens), format::decimal(s.optimum.loss, 4),
              format::days(estimate_.time.days), format::count(estimate_.time.gpu_hours),
              format::money(estimate_.time.cost), format::days(s.optimal_estimate->time.days),
              format::count(s.optimal_estimate->time.gpu_hours), format::money(s.optimal_estimate->time.cost)})
            QVERIFY2(text.contains(figure), qPrintable(figure));
        // Gopher: the closed form beside Table 3, and why they differ.
        const QString approaches = page.approachesLabel()->text();
        const scaling::ComputeOptimum gopher = scaling::computeOptimum(5.76e23);
        QVERIFY2(approaches.contains(format::count(gopher.params)), qPrintable(approaches));
        QVERIFY(approaches.contains(format::count(67e9)));
        QVERIFY(approaches.contains(format::count(1.5e12)));
        QVERIFY(approaches.contains(QStringLiteral("Table 2")));
        // The formula panel of the iso-FLOP chart carries the same explanation and the sources.
        const FormulaInfo &formula = page.charts().front()->data().formula;
        QVERIFY(formula.formula.contains(ScalingCharts::approachDifference()));
        QVERIFY(formula.source.contains(QStringLiteral("Hoffmann et al. 2022")));
    }

    void chartsAreNonEmptyAndExport_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<qint64>("tokens");  // 0: the scenario's own
        QTest::addRow("course example") << QString() << qint64(0);
        QTest::addRow("tinystories") << "cs336-tinystories" << qint64(0);
        QTest::addRow("mixtral") << "mixtral-8x7b" << qint64(0);
        QTest::addRow("gpt2-small on one token") << "gpt2-small" << qint64(1);
        QTest::addRow("llama-3.1-405b on 2^52 tokens") << "llama-3.1-405b" << (qint64(1) << 52);
    }
    void chartsAreNonEmptyAndExport()
    {
        QFETCH(QString, preset);
        QFETCH(qint64, tokens);
        Scenario scenario = scenario_;
        if (!preset.isEmpty())
            scenario = adaptScenarioToModel(scenario, findModelPreset(preset.toStdString())->model).scenario;
        if (tokens > 0)
            scenario.training.tokens = tokens;
        const Result<Estimate> estimated = lse::estimate(scenario);
        QVERIFY2(estimated.ok(), formatProblems(estimated.problems()).c_str());
        ScalingPage page;
        page.showEstimate(scenario, *estimated);
        // The button is on exactly when there is a compute-optimal scenario to apply.
        QCOMPARE(page.useOptimalButton()->isEnabled(), page.scaling()->optimal_scenario.has_value());
        const scaling::ScenarioScaling &s = *page.scaling();
        QTemporaryDir dir;
        for (ChartView *chart : page.charts()) {
            const ChartData &data = chart->data();
            QVERIFY2(data.series.size() >= 3, qPrintable(chart->id()));
            for (const ChartSeries &series : data.series) {
                QVERIFY2(!series.x.isEmpty(), qPrintable(chart->id() + ": " + series.name));
                // Every point has a tooltip: listed, or made when hovered (long curves).
                if (series.point_tooltip) {
                    QVERIFY(series.point_tooltips.isEmpty());
                    for (qsizetype i : {qsizetype(0), series.x.size() - 1})
                        QVERIFY2(series.point_tooltip(i).contains(QLatin1Char('=')), qPrintable(series.name));
                } else {
                    QCOMPARE(series.point_tooltips.size(), series.x.size());
                }
                for (int i = 0; i < series.x.size(); ++i)
                    QVERIFY(std::isfinite(series.x[i]) && std::isfinite(series.y[i]));
            }
            QString error;
            QVERIFY2(chart->exportAll(dir.path(), &error), qPrintable(error));
            for (const char *suffix : {".png", ".pdf", ".svg", ".csv"})
                QVERIFY(QFileInfo(dir.filePath(chart->id() + suffix)).size() > 0);
        }
        // The iso-FLOP chart: one curve per budget, the scenario's among them, its point marked.
        const ChartData &iso = page.charts()[0]->data();
        const QVector<double> budgets = ScalingCharts::isoFlopBudgets(s.compute);
        QCOMPARE(iso.series.size(), budgets.size() + ScalingCharts::IsoFlopMarkerCount);
        QVERIFY(budgets.contains(s.compute));
        const ChartSeries &scenario_point = iso.series[budgets.size() + ScalingCharts::ScenarioMarker];
        QCOMPARE(scenario_point.x.front(), s.params);
        QCOMPARE(scenario_point.y.front(), s.loss);
        const ChartSeries &optima = iso.series[budgets.size() + ScalingCharts::OptimaMarkers];
        QCOMPARE(optima.x.size(), budgets.size());
        for (int i = 0; i < budgets.size(); ++i)
            QCOMPARE(optima.x[i], scaling::computeOptimum(budgets[i]).params);
        // Every contour line of the loss surface lies on its level.
        const ChartData &surface = page.charts()[1]->data();
        int contours = 0;
        for (const ChartSeries &series : surface.series) {
            if (!series.name.startsWith(QStringLiteral("L = ")))
                continue;
            ++contours;
            const double level = scaling::loss(series.x.front(), series.y.front());
            for (int i = 0; i < series.x.size(); ++i)
                QVERIFY(std::abs(scaling::loss(series.x[i], series.y[i]) - level) < 1e-9);
        }
        QVERIFY(contours >= 3);
    }

    // One request carrying the compute-optimal model of the scenario's family and its tokens.
    void buttonRequestsTheComputeOptimalScenario()
    {
        ScalingPage page;
        page.showEstimate(scenario_, estimate_);
        QSignalSpy requested(&page, &Page::scenarioEditRequested);
        QVERIFY(page.useOptimalButton()->isEnabled());
        QTest::mouseClick(page.useOptimalButton(), Qt::LeftButton);
        QCOMPARE(requested.count(), 1);
        const Scenario edited = requested.front().at(0).value<Scenario>();
        QVERIFY(validate(edited).empty());
        const scaling::ScenarioScaling &s = *page.scaling();
        QCOMPARE(edited.model, s.optimal_scenario->model);
        QVERIFY(std::abs(scaling::lawParameters(edited.model) / s.optimum.params - 1) < 0.05);
        QVERIFY(std::abs(6 * scaling::lawParameters(edited.model) * double(edited.training.tokens) / s.compute - 1)
                < 1e-9);
        QCOMPARE(edited.cluster.gpus, scenario_.cluster.gpus);
        QVERIFY(!requested.front().at(1).toString().isEmpty());
    }

    void retranslateAndPresentationKeepThePageWhole()
    {
        ScalingPage page;
        page.showEstimate(scenario_, estimate_);
        page.resize(1024, 768);
        page.show();
        MarkingTranslator marking;
        QCoreApplication::installTranslator(&marking);
        page.retranslate();
        QCOMPARE(page.title(), QStringLiteral("«Scaling»"));
        QVERIFY(page.useOptimalButton()->text().startsWith(QStringLiteral("«")));
        QVERIFY(page.charts()[0]->data().title.startsWith(QStringLiteral("«")));
        QVERIFY(page.charts()[2]->data().title.startsWith(QStringLiteral("«")));
        QCoreApplication::removeTranslator(&marking);
        page.retranslate();
        QCOMPARE(page.title(), QStringLiteral("Scaling"));
        page.setPresentation(true);
        for (ChartView *chart : page.charts())
            QVERIFY(chart->presentation());
        page.setPresentation(false);
        for (ChartView *chart : page.charts())
            QVERIFY(!chart->presentation());
        QVERIFY(!page.charts()[1]->data().series.isEmpty());
    }

private:
    Scenario scenario_;
    Estimate estimate_;
};

QTEST_MAIN(TestScalingPage)
#include "test_scaling_page.moc"
