// SPDX-License-Identifier: GPL-3.0-or-later
// The Collectives page offscreen: step counts of the published algorithms, stepping through the
// transfers, the buffers' values and the time-vs-size chart against the alpha-beta closed form.

#include "charts/chart_view.h"
#include "cost/estimate.h"
#include "pages/parallel/collectives_page.h"
#include "pages/page_format.h"
#include "scenario/scenario_json.h"

#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <tuple>

using namespace lse;
using namespace lse::gui;
using lse::parallel::CollectiveAlgorithm;
using lse::parallel::CollectiveOp;

Q_DECLARE_METATYPE(lse::parallel::CollectiveOp)
Q_DECLARE_METATYPE(lse::parallel::CollectiveAlgorithm)

namespace {

ChartView *chartWithId(const Page &page, const QString &id)
{
    for (ChartView *chart : page.charts())
        if (chart->id() == id)
            return chart;
    return nullptr;
}

}  // namespace

class TestCollectivesPage : public QObject {
    Q_OBJECT
private slots:
    void stepCounts_data()
    {
        QTest::addColumn<CollectiveOp>("op");
        QTest::addColumn<CollectiveAlgorithm>("algorithm");
        QTest::addColumn<int>("ranks");
        QTest::addColumn<int>("steps");
        // Ring: 2(n-1) for all-reduce (Patarasuk & Yuan 2009), n-1 for reduce-scatter / all-gather.
        QTest::addRow("ring all-reduce n=4") << CollectiveOp::AllReduce << CollectiveAlgorithm::Ring << 4 << 6;
        QTest::addRow("ring all-reduce n=8") << CollectiveOp::AllReduce << CollectiveAlgorithm::Ring << 8 << 14;
        QTest::addRow("ring all-gather n=5") << CollectiveOp::AllGather << CollectiveAlgorithm::Ring << 5 << 4;
        // Rabenseifner: log2 n halving + log2 n doubling (Thakur et al. 2005 §4.5).
        QTest::addRow("tree all-reduce n=8") << CollectiveOp::AllReduce << CollectiveAlgorithm::Tree << 8 << 6;
        QTest::addRow("tree broadcast n=8") << CollectiveOp::Broadcast << CollectiveAlgorithm::Tree << 8 << 3;
        QTest::addRow("ring all-to-all n=6") << CollectiveOp::AllToAll << CollectiveAlgorithm::Ring << 6 << 5;
    }

    void stepCounts()
    {
        QFETCH(CollectiveOp, op);
        QFETCH(CollectiveAlgorithm, algorithm);
        QFETCH(int, ranks);
        QFETCH(int, steps);
        CollectivesPage page;
        page.setRanks(ranks == 2 ? 3 : 2);
        QSignalSpy rebuilt(&page, &CollectivesPage::simulationChanged);
        page.setOperation(op);
        page.setAlgorithm(algorithm);
        page.setRanks(ranks);
        QVERIFY(rebuilt.count() >= 1);
        QCOMPARE(page.stepCount(), steps);
        QCOMPARE(page.simulation().ranks, ranks);
        // The diagram has one box per rank.
        page.setCurrentStep(0);
        QCOMPARE(chartWithId(page, "collective-steps")->data().rects.size(), ranks);
        QVERIFY(chartWithId(page, "collective-steps")->data().arrows.isEmpty());
    }

    void steppingMovesTheTransfers()
    {
        CollectivesPage page;
        page.setOperation(CollectiveOp::AllReduce);
        page.setAlgorithm(CollectiveAlgorithm::Ring);
        page.setRanks(4);
        page.setCurrentStep(0);
        QSignalSpy stepped(&page, &CollectivesPage::currentStepChanged);
        page.setCurrentStep(1);
        QCOMPARE(stepped.count(), 1);
        QCOMPARE(stepped.takeFirst().at(0).toInt(), 1);
        ChartView *steps = chartWithId(page, "collective-steps");
        // Ring step: every rank sends one block to its successor.
        const QVector<ChartArrow> first = steps->data().arrows;
        QCOMPARE(first.size(), 4);
        QStringList first_labels;
        for (const ChartArrow &arrow : first)
            first_labels << arrow.tooltip;
        page.stepForward();
        QCOMPARE(page.currentStep(), 2);
        QCOMPARE(stepped.count(), 1);
        QStringList second_labels;
        for (const ChartArrow &arrow : steps->data().arrows)
            second_labels << arrow.tooltip;
        QCOMPARE(second_labels.size(), 4);
        QVERIFY(first_labels != second_labels);  // other blocks move in step 2
        // Keyboard: Left steps back, Right forward, Space plays and pauses.
        QTest::keyClick(&page, Qt::Key_Left);
        QCOMPARE(page.currentStep(), 1);
        QTest::keyClick(&page, Qt::Key_Right);
        QCOMPARE(page.currentStep(), 2);
        QTest::keyClick(&page, Qt::Key_Space);
        QVERIFY(page.isPlaying());
        QTest::keyClick(&page, Qt::Key_Space);
        QVERIFY(!page.isPlaying());
        // Bounds.
        page.setCurrentStep(100);
        QCOMPARE(page.currentStep(), 6);
        page.stepForward();
        QCOMPARE(page.currentStep(), 6);
    }

    void shortcutsStepOnceAndSpareSpinBoxes()
    {
        CollectivesPage page;
        page.resize(1000, 800);
        page.show();
        page.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&page));
        page.setCurrentStep(1);
        auto *slider = page.findChild<QSlider *>();
        QVERIFY(slider);
        slider->setFocus();
        QTest::keyClick(slider, Qt::Key_Right);
        QCOMPARE(page.currentStep(), 2);  // one step, not the shortcut and the slider both
        QTest::keyClick(slider, Qt::Key_Left);
        QCOMPARE(page.currentStep(), 1);
        // In the ranks spin box the arrow keys move the text cursor.
        auto *ranks = page.findChild<QSpinBox *>();
        QVERIFY(ranks);
        ranks->setFocus();
        QTest::keyClick(ranks, Qt::Key_Left);
        QCOMPARE(page.currentStep(), 1);
        page.setPlaying(false);
    }

    void playingAdvancesWithoutBlocking()
    {
        CollectivesPage page;
        page.setRanks(2);  // ring all-reduce n = 2: two steps
        QCOMPARE(page.stepCount(), 2);
        page.setCurrentStep(0);
        page.setPlaying(true);
        QTRY_COMPARE_WITH_TIMEOUT(page.currentStep(), 2, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(!page.isPlaying(), 3000);
    }

    void buffersShowTheSums()
    {
        CollectivesPage page;
        page.setOperation(CollectiveOp::AllReduce);
        page.setAlgorithm(CollectiveAlgorithm::Ring);
        const int n = 4;
        page.setRanks(n);
        const ChartData &buffers = chartWithId(page, "collective-buffers")->data();
        // Three panels (before, this step, after) of n x n cells.
        QCOMPARE(buffers.rects.size(), 3 * n * n);
        // After all-reduce every rank's block i is sum_r ((r+1)·1000 + i) = 1000·n(n+1)/2 + n·i.
        for (int i = 0; i < n; ++i) {
            const QString expected = QString::number(1000 * n * (n + 1) / 2 + n * i);
            int found = 0;
            for (const ChartRect &rect : buffers.rects)
                found += rect.label == expected ? 1 : 0;
            QVERIFY2(found >= n, qPrintable(expected));
        }
    }

    void timeVsSizeHasIntraAndInterNode()
    {
        CollectivesPage page;
        const Scenario scenario = defaultScenario();
        const Result<Estimate> estimate = lse::estimate(scenario);
        QVERIFY(estimate.ok());
        page.showEstimate(scenario, *estimate);
        page.setOperation(CollectiveOp::AllReduce);
        page.setAlgorithm(CollectiveAlgorithm::Ring);
        const int n = 8;
        page.setRanks(n);
        const ChartData &data = chartWithId(page, "collective-time-vs-message-size")->data();
        QVERIFY(data.log_x && data.log_y);
        QVERIFY(data.series.size() >= 2);
        const ChartSeries &intra = data.series.at(0);
        const ChartSeries &inter = data.series.at(1);
        QVERIFY(intra.name.contains("intra"));
        QVERIFY(inter.name.contains("inter"));
        QCOMPARE(intra.x.front(), 1e3);
        QCOMPARE(inter.x.back(), 1e10);
        QCOMPARE(intra.x.size(), inter.x.size());
        // Ring all-reduce: t = 2(n-1)·α + 2(n-1)/n·S/β with β = bandwidth × efficiency.
        const ClusterConfig &cluster = scenario.cluster;
        const double beta_intra = cluster.accelerator.intra_node_bandwidth_bytes_per_second * cluster.link_efficiency;
        const double beta_inter = cluster.accelerator.inter_node_bandwidth_bytes_per_second * cluster.link_efficiency;
        for (int i = 0; i < intra.x.size(); ++i) {
            const double S = intra.x.at(i);
            const double expected_intra = 2.0 * (n - 1) * cluster.intra_node_latency_seconds + 2.0 * (n - 1) / n * S / beta_intra;
            const double expected_inter = 2.0 * (n - 1) * cluster.inter_node_latency_seconds + 2.0 * (n - 1) / n * S / beta_inter;
            QVERIFY(std::abs(intra.y.at(i) / expected_intra - 1) < 1e-9);
            QVERIFY(std::abs(inter.y.at(i) / expected_inter - 1) < 1e-9);
            QVERIFY(inter.y.at(i) > intra.y.at(i));  // the network is slower than NVLink
        }
        QVERIFY(!data.formula.formula.isEmpty());
        QVERIFY(!data.formula.source.isEmpty());
    }

    // A scenario's own network bandwidth drives the inter-node curve and is the figure the formula
    // panel states (it used to state the catalog's while the curve used the link model).
    void scenarioLinkOverrideIsUsedAndShown()
    {
        CollectivesPage page;
        Scenario scenario = defaultScenario();
        scenario.cluster.inter_node_gbps_per_gpu = 100;  // 12.5 GB/s, a quarter of the H100's NDR
        const Result<Estimate> estimate = lse::estimate(scenario);
        QVERIFY(estimate.ok());
        page.showEstimate(scenario, *estimate);
        page.setOperation(CollectiveOp::AllReduce);
        page.setAlgorithm(CollectiveAlgorithm::Ring);
        const int n = 8;
        page.setRanks(n);
        const ChartData &data = chartWithId(page, "collective-time-vs-message-size")->data();
        const ChartSeries &inter = data.series.at(1);
        const ClusterConfig &cluster = scenario.cluster;
        const double beta_inter = 12.5e9 * cluster.link_efficiency;
        const double S = inter.x.back();
        const double expected = 2.0 * (n - 1) * cluster.inter_node_latency_seconds + 2.0 * (n - 1) / n * S / beta_inter;
        QVERIFY(std::abs(inter.y.back() / expected - 1) < 1e-9);
        QVERIFY2(data.formula.inputs.contains(format::bytes(12.5e9)), qPrintable(data.formula.inputs));
        QVERIFY2(!data.formula.inputs.contains(format::bytes(cluster.accelerator.inter_node_bandwidth_bytes_per_second)),
                 qPrintable(data.formula.inputs));
    }

    // Set LSE_SCREENSHOT_DIR to keep the PNGs for a look.
    void exportsTreeAndAllToAll()
    {
        QTemporaryDir temporary;
        const QString folder = qEnvironmentVariableIsSet("LSE_SCREENSHOT_DIR") ? qEnvironmentVariable("LSE_SCREENSHOT_DIR")
                                                                                : temporary.path();
        CollectivesPage page;
        const std::tuple<CollectiveOp, CollectiveAlgorithm, int, int, const char *> cases[] = {
            {CollectiveOp::AllReduce, CollectiveAlgorithm::Tree, 8, 2, "tree-allreduce"},
            {CollectiveOp::AllToAll, CollectiveAlgorithm::Ring, 4, 1, "ring-alltoall"},
            {CollectiveOp::Broadcast, CollectiveAlgorithm::Ring, 6, 3, "ring-broadcast"},
            {CollectiveOp::AllReduce, CollectiveAlgorithm::Tree, 6, 1, "tree-allreduce-6"},
            {CollectiveOp::ReduceScatter, CollectiveAlgorithm::Ring, 16, 2, "ring-reducescatter-16"}};
        for (const auto &[op, algorithm, ranks, step, name] : cases) {
            page.setOperation(op);
            page.setAlgorithm(algorithm);
            page.setRanks(ranks);
            page.setCurrentStep(step);
            for (ChartView *chart : page.charts()) {
                const QString path = folder + QStringLiteral("/%1-%2.png").arg(QLatin1String(name), chart->id());
                QString error;
                QVERIFY2(chart->exportPng(path, 1.0, &error), qPrintable(error));
            }
        }
    }

    // Every operation and algorithm on awkward rank counts: one box per rank, the step count of
    // the closed form, and the final step leaves the values core computed.
    void everyCombination()
    {
        CollectivesPage page;
        const CollectiveOp ops[] = {CollectiveOp::AllReduce, CollectiveOp::ReduceScatter, CollectiveOp::AllGather,
                                    CollectiveOp::Broadcast, CollectiveOp::Reduce, CollectiveOp::AllToAll};
        for (CollectiveOp op : ops) {
            for (CollectiveAlgorithm algorithm : {CollectiveAlgorithm::Ring, CollectiveAlgorithm::Tree}) {
                for (int ranks : {2, 3, 7, 16}) {
                    page.setOperation(op);
                    page.setAlgorithm(algorithm);
                    page.setRanks(ranks);
                    QCOMPARE(page.stepCount(), parallel::collectiveStepCount(op, algorithm, ranks));
                    page.setCurrentStep(page.stepCount());
                    const ChartData &steps = chartWithId(page, "collective-steps")->data();
                    QCOMPARE(steps.rects.size(), ranks);
                    QCOMPARE(steps.arrows.size(),
                             qsizetype(page.simulation().steps.back().transfers.size()));
                    const ChartData &buffers = chartWithId(page, "collective-buffers")->data();
                    QCOMPARE(buffers.rects.size(), qsizetype(3 * ranks * page.simulation().chunks));
                }
            }
        }
    }

    void presentationAndCsv()
    {
        CollectivesPage page;
        page.setPresentation(true);
        for (ChartView *chart : page.charts())
            QVERIFY(chart->presentation());
        page.setCurrentStep(1);
        const QString csv = chartWithId(page, "collective-steps")->toCsv();
        QVERIFY2(csv.contains("x_from"), qPrintable(csv));  // the transfers are exported
    }
};

QTEST_MAIN(TestCollectivesPage)
#include "test_collectives_page.moc"
