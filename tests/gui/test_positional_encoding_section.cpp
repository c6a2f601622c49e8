// SPDX-License-Identifier: GPL-3.0-or-later
// The Architecture page's "Positional encodings" tab offscreen: every drawn value is core's
// (core/architecture/positional_encodings.h), the sizes follow the scenario, and the charts export.

#include "architecture/positional_encodings.h"
#include "charts/chart_view.h"
#include "cost/estimate.h"
#include "pages/architecture/positional_encoding_section.h"
#include "pages/page_format.h"
#include "scenario/scenario_json.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace lse;
using namespace lse::gui;

class TestPositionalEncodingSection : public QObject {
    Q_OBJECT
private slots:
    void heatMapIsTheSinusoids()
    {
        PositionalEncodingSection section;
        section.setDModel(8);
        section.setPositions(4);
        const ChartData &chart = section.sinusoidalChart()->data();
        QCOMPARE(section.heatMapDimensions(), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
        QCOMPARE(chart.rects.size(), 4 * 8);
        for (const ChartRect &cell : chart.rects) {
            const int pos = int(cell.x0), column = int(cell.y0);
            QVERIFY(cell.tooltip.contains(format::decimal(sinusoidalEncoding(pos, column, 8), 4)));
        }
        // A wide model is sampled: 64 columns, the first and last pair included.
        section.setDModel(4096);
        const std::vector<int> dims = section.heatMapDimensions();
        QCOMPARE(dims.size(), std::size_t(64));
        QCOMPARE(dims.front(), 0);
        QCOMPARE(dims.back(), 4095);
    }

    void ropeChartsAreCores()
    {
        PositionalEncodingSection section;
        section.setHeadDim(128);
        section.setRopeBase(500000);
        section.setPositions(32);
        const ChartData &freq = section.ropeFrequencyChart()->data();
        QVERIFY(freq.log_y);
        const std::vector<double> theta = ropeFrequencies(128, 500000);
        QCOMPARE(freq.series.size(), 1);
        QCOMPARE(freq.series[0].y.size(), qsizetype(64));
        for (std::size_t i = 0; i < theta.size(); ++i)
            QCOMPARE(freq.series[0].y[qsizetype(i)], theta[i]);
        const ChartData &angles = section.ropeAngleChart()->data();
        const std::vector<int> pairs = section.anglePairs();
        QCOMPARE(angles.series.size(), qsizetype(pairs.size()));
        QCOMPARE(pairs.front(), 0);
        QCOMPARE(pairs.back(), 63);
        QVERIFY(angles.log_x && angles.log_y);
        for (qsizetype s = 0; s < angles.series.size(); ++s) {
            QCOMPARE(angles.series[s].y.size(), qsizetype(31));  // positions 1..31 on a log axis
            for (int pos = 1; pos < 32; ++pos)
                QCOMPARE(angles.series[s].y[pos - 1], ropeAngle(pos, pairs[std::size_t(s)], 128, 500000));
        }
    }

    void alibiChartIsCores()
    {
        PositionalEncodingSection section;
        section.setHeads(8);
        section.setPositions(16);
        const ChartData &chart = section.alibiChart()->data();
        QCOMPARE(chart.series.size(), 8);
        const std::vector<double> slopes = alibiSlopes(8);
        for (int h = 0; h < 8; ++h)
            for (int d = 0; d < 16; ++d)
                QCOMPARE(chart.series[h].y[d], alibiBias(slopes[std::size_t(h)], d, 0));
        QCOMPARE(chart.series[0].y[2], -1.0);  // slope 1/2 at distance 2
        section.setHeads(64);
        QCOMPARE(section.alibiChart()->data().series.size(), 8);  // a spread of 8 of them
    }

    void sizesFollowTheScenario()
    {
        const Scenario scenario = defaultScenario();
        const Result<Estimate> estimate = lse::estimate(scenario);
        QVERIFY(estimate.ok());
        PositionalEncodingSection section;
        section.showEstimate(scenario, *estimate);
        const ChartData &freq = section.ropeFrequencyChart()->data();
        QCOMPARE(freq.series[0].y.size(), qsizetype(scenario.model.head_dim / 2));
        QCOMPARE(section.alibiHeads().size(), std::size_t(std::min(scenario.model.n_heads, scenario.model.n_heads <= 16 ? 16 : 8)));
    }

    void chartsExport()
    {
        PositionalEncodingSection section;
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QCOMPARE(section.charts().size(), 4);
        for (ChartView *chart : section.charts()) {
            QVERIFY(!chart->data().series.isEmpty() || !chart->data().rects.isEmpty());
            QString error;
            QVERIFY2(chart->exportAll(dir.path(), &error), qPrintable(error));
            QVERIFY(QFileInfo(dir.filePath(chart->id() + QStringLiteral(".png"))).size() > 0);
        }
        section.setPresentation(true);
        QVERIFY(section.alibiChart()->presentation());
    }
};

QTEST_MAIN(TestPositionalEncodingSection)
#include "test_positional_encoding_section.moc"
