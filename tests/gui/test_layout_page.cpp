// SPDX-License-Identifier: GPL-3.0-or-later
// The Layout page offscreen: the GPU grid by node, colouring by group, hover outlines, the
// node-crossing warning, the memory bar and the collectives table.

#include "charts/chart_view.h"
#include "main_window.h"
#include "cost/estimate.h"
#include "pages/parallel/collective_where_text.h"
#include "pages/parallel/layout_page.h"
#include "parallel/model_parallel_communication.h"
#include "scenario/presets.h"
#include "scenario/scenario_json.h"

#include <QLabel>
#include <QSet>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>

using namespace lse;
using namespace lse::gui;
using lse::parallel::MeshDim;

namespace {

// 16 GPUs on two 8-GPU nodes.
Scenario sixteenGpus(int dp, int tp, int pp)
{
    Scenario scenario = defaultScenario();
    scenario.model = findModelPreset("llama-2-7b")->model;
    scenario.cluster.gpus = 16;
    scenario.cluster.gpus_per_node = 8;
    scenario.training.parallel = {};
    scenario.training.parallel.dp = dp;
    scenario.training.parallel.tp = tp;
    scenario.training.parallel.pp = pp;
    scenario.training.global_batch = 64;
    scenario.training.micro_batch = 1;
    scenario.training.seq_len = 4096;
    return scenario;
}

void show(LayoutPage &page, const Scenario &scenario)
{
    const Result<Estimate> estimate = lse::estimate(scenario);
    QVERIFY2(estimate.ok(), formatProblems(estimate.problems()).c_str());
    page.showEstimate(scenario, *estimate);
}

// The GPU cells of the grid: rectangles whose tooltip names a rank (outlines come before them).
QVector<ChartRect> cells(const ChartData &data)
{
    QVector<ChartRect> result;
    for (const ChartRect &rect : data.rects)
        if (!rect.label.isEmpty())
            result << rect;
    return result;
}

}  // namespace

class TestLayoutPage : public QObject {
    Q_OBJECT
private slots:
    // Issue 28 item 25: a one-node layout said "on 1 nodes of 8 GPUs".
    void oneNodeIsSingular()
    {
        QVERIFY(MainWindow::installLanguage("en"));  // the English plural forms
        Scenario scenario = sixteenGpus(2, 4, 1);
        scenario.cluster.gpus = 8;
        scenario.training.parallel.dp = 2;
        scenario.training.parallel.tp = 4;
        LayoutPage page;
        show(page, scenario);
        QStringList texts;
        for (const QLabel *label : page.findChildren<QLabel *>())
            texts << label->text();
        QVERIFY2(texts.join('\n').contains(QLatin1String("on 1 node of 8 GPUs")), qPrintable(texts.join('\n')));
        QVERIFY(page.charts().front()->data().title.contains(QLatin1String("on 1 node of 8")));
    }

    // Issue 28 item 23: the table's "where" column is the core's English text; the page translates
    // every one the core writes (TP with and without SP, recomputation, MoE, PP, every ZeRO stage,
    // DP with and without overlap), so a zh_CN page shows none untranslated.
    void everyCollectiveWhereIsTranslatable()
    {
        QSet<QString> seen;
        const auto collect = [&](const Scenario &scenario) {
            const Result<parallel::DeviceMesh> mesh = parallel::makeDeviceMesh(scenario.cluster, scenario.training.parallel);
            QVERIFY(mesh.ok());
            for (const parallel::CommunicationEvent &event : parallel::communicationEvents(scenario, *mesh)) {
                QVERIFY2(isKnownCollectiveWhere(event.where), event.where.c_str());
                seen.insert(QString::fromStdString(event.where));
            }
        };
        for (const bool sp : {true, false})
            for (const Recomputation recompute : {Recomputation::None, Recomputation::Selective, Recomputation::Full})
                for (const int zero : {0, 1, 2, 3})
                    for (const bool overlap : {true, false}) {
                        Scenario scenario = sixteenGpus(2, 4, 2);
                        scenario.training.parallel.sequence_parallel = sp;
                        scenario.training.recomputation = recompute;
                        scenario.training.parallel.zero_stage = zero;
                        scenario.training.parallel.dp_overlap = overlap;
                        collect(scenario);
                    }
        Scenario moe = sixteenGpus(4, 2, 2);
        moe.model = findModelPreset("mixtral-8x7b")->model;
        moe.training.parallel.ep = 4;
        collect(moe);
        QVERIFY(seen.size() >= 20);
    }

    void sixteenGpusOnTwoNodes()
    {
        LayoutPage page;
        show(page, sixteenGpus(4, 2, 2));
        const ChartData &grid = page.charts().front()->data();
        const QVector<ChartRect> gpus = cells(grid);
        QCOMPARE(gpus.size(), 16);
        QCOMPARE(grid.y_categories.size(), 2);
        QCOMPARE(grid.categories.size(), 8);
        // Rank r sits on node r / 8 at column r % 8.
        for (int rank = 0; rank < 16; ++rank) {
            const ChartRect &cell = gpus.at(rank);
            QCOMPARE(cell.label, QString::number(rank));
            QCOMPARE(std::lround((cell.y0 + cell.y1) / 2), long(rank / 8));
            QCOMPARE(std::lround((cell.x0 + cell.x1) / 2), long(rank % 8));
            QVERIFY(cell.tooltip.contains(QStringLiteral("Rank %1").arg(rank)));
        }
        QVERIFY(page.warningTexts().isEmpty());
    }

    void colouringByGroup_data()
    {
        // Megatron order tp-cp-dp-pp, innermost first: TP groups are consecutive pairs, DP groups
        // stride tp = 2, PP groups stride tp·dp = 8.
        QTest::addColumn<int>("dim");
        QTest::addColumn<int>("groups");
        QTest::addColumn<int>("partner");  // a rank that shares rank 0's group
        QTest::addColumn<int>("stranger");  // a rank that does not
        QTest::addRow("tp") << int(MeshDim::TP) << 8 << 1 << 2;
        QTest::addRow("dp") << int(MeshDim::DP) << 4 << 6 << 1;
        QTest::addRow("pp") << int(MeshDim::PP) << 8 << 8 << 1;
    }
    void colouringByGroup()
    {
        QFETCH(int, dim);
        QFETCH(int, groups);
        QFETCH(int, partner);
        QFETCH(int, stranger);
        LayoutPage page;
        show(page, sixteenGpus(4, 2, 2));
        page.setColourDimension(MeshDim(dim));
        const QVector<ChartRect> gpus = cells(page.charts().front()->data());
        QSet<QString> names;
        QSet<QRgb> colours;
        for (const ChartRect &cell : gpus) {
            names.insert(cell.group);
            colours.insert(cell.color.rgba());
        }
        QCOMPARE(names.size(), groups);
        QCOMPARE(colours.size(), groups);  // eight palette colours: one per group up to eight groups
        QCOMPARE(gpus.at(partner).group, gpus.at(0).group);
        QCOMPARE(gpus.at(partner).color, gpus.at(0).color);
        QVERIFY(gpus.at(stranger).group != gpus.at(0).group);
    }

    void hoverOutlinesEveryGroup()
    {
        LayoutPage page;
        show(page, sixteenGpus(4, 2, 2));
        page.setHoveredRank(5);
        const ChartData &grid = page.charts().front()->data();
        // Rank 5 = (tp 1, dp 2, pp 0): TP partner 4, DP partners 1, 3, 7, PP partner 13, plus
        // itself: six outlines under the sixteen cells.
        QCOMPARE(grid.rects.size(), 16 + 6);
        QSet<int> outlined;
        for (const ChartRect &rect : grid.rects)
            if (rect.label.isEmpty())
                outlined.insert(int(std::lround((rect.x0 + rect.x1) / 2)) + 8 * int(std::lround((rect.y0 + rect.y1) / 2)));
        QCOMPARE(outlined, (QSet<int>{1, 3, 4, 5, 7, 13}));
        QVERIFY(cells(grid).at(5).tooltip.contains(QStringLiteral("1, 3, 5, 7")));  // the DP group listed
        page.setHoveredRank(std::nullopt);
        QCOMPARE(page.charts().front()->data().rects.size(), 16);

        // The keyboard alternative: the rank spin box outlines the same groups.
        auto *spin = page.findChild<QSpinBox *>();
        QVERIFY(spin);
        QCOMPARE(spin->maximum(), 15);
        spin->setValue(5);
        QCOMPARE(page.hoveredRank(), std::optional<int>(5));
        QCOMPARE(page.charts().front()->data().rects.size(), 16 + 6);
        spin->setValue(spin->minimum());
        QVERIFY(!page.hoveredRank());
    }

    void tensorParallelAcrossNodesIsWarned()
    {
        LayoutPage page;
        show(page, sixteenGpus(1, 16, 1));
        QCOMPARE(page.warningTexts().size(), 1);
        QVERIFY(page.warningTexts().front().contains(QStringLiteral("TP = 16")));
        QVERIFY(page.warningTexts().front().contains(QStringLiteral("2 nodes")));
        // The TP all-reduces are marked as crossing nodes in the collectives table.
        QTableWidget *table = page.communicationTable();
        bool tp_crossing = false;
        for (int row = 0; row < table->rowCount(); ++row)
            tp_crossing = tp_crossing || (table->item(row, 0)->text() == QLatin1String("TP")
                                          && table->item(row, 4)->text() == QLatin1String("yes"));  // crosses nodes
        QVERIFY(tp_crossing);
    }

    void bigMeshIsCapped()
    {
        LayoutPage page;
        const Scenario scenario = defaultScenario();  // 1024 GPUs, 128 nodes
        show(page, scenario);
        const ChartData &grid = page.charts().front()->data();
        QCOMPARE(cells(grid).size(), 16 * 8);
        QCOMPARE(grid.y_categories.size(), 16);
        QVERIFY(grid.title.contains(QStringLiteral("16 of 128")));
        QVERIFY(page.communicationTable()->rowCount() > 0);

        // The memory bar stacks the engine's parts of the most loaded GPU.
        const Estimate estimate = *lse::estimate(scenario);
        const ChartData &memory = page.charts().at(1)->data();
        double total = 0;
        for (const ChartSeries &series : memory.series)
            total += series.y.front();
        QCOMPARE(total, double(estimate.memory.total));
        QCOMPARE(memory.reference_lines.front().y, double(estimate.memory.capacity));

        page.setPresentation(true);
        page.setPresentation(false);
        page.retranslate();
    }
};

QTEST_MAIN(TestLayoutPage)
#include "test_layout_page.moc"
