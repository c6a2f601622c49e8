// SPDX-License-Identifier: GPL-3.0-or-later
// The Hardware page offscreen: the scenario's accelerator, the comparison, and the memory
// hierarchy chart (one point per level on log axes).

#include "charts/chart_view.h"
#include "cost/estimate.h"
#include "hardware/hardware_catalog.h"
#include "pages/hardware/hardware_page.h"
#include "scenario/presets.h"
#include "scenario/scenario_json.h"

#include <QComboBox>
#include <QTableWidget>
#include <QTest>

#include <memory>

using namespace lse;
using namespace lse::gui;

class TestHardwarePage : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        page_ = std::make_unique<HardwarePage>();
        page_->resize(1280, 900);
    }
    void cleanup() { page_.reset(); }

    void showsTheScenariosAccelerator()
    {
        Scenario scenario = defaultScenario();
        scenario.cluster.accelerator = *builtinHardwareCatalog().find("mi300x");
        page_->showEstimate(scenario, *estimate(scenario));
        QCOMPARE(page_->shownAccelerator().id, std::string("mi300x"));
        QTableWidget *table = page_->anatomyTable();
        QVERIFY(table->horizontalHeaderItem(0)->text().contains(QLatin1String("MI300X")));
        // AMD CDNA3: 304 CUs with 4 matrix cores each = 1,216 (MI300X data sheet).
        QVERIFY(table->item(0, 0)->text().contains(QLatin1String("304")));
        QVERIFY(table->item(1, 0)->text().contains(QLatin1String("216")));
        QVERIFY(page_->hierarchyChart()->data().title.contains(QLatin1String("MI300X")));
    }

    void comparingTwoAcceleratorsChangesTheCharts()
    {
        const Scenario scenario = defaultScenario();
        page_->showEstimate(scenario, *estimate(scenario));
        auto *second = page_->findChild<QComboBox *>(QStringLiteral("secondAccelerator"));
        second->setCurrentIndex(second->findData(QStringLiteral("-")));
        QVERIFY(!page_->comparedAccelerator());
        QCOMPARE(page_->hierarchyChart()->data().series.size(), 1);
        QCOMPARE(page_->anatomyTable()->columnCount(), 1);
        const ChartData alone = page_->hierarchyChart()->data();

        second->setCurrentIndex(second->findData(QStringLiteral("b200")));
        QVERIFY(page_->comparedAccelerator());
        const ChartData compared = page_->hierarchyChart()->data();
        QCOMPARE(compared.series.size(), 2);
        QCOMPARE(page_->anatomyTable()->columnCount(), 2);
        QVERIFY(compared.title != alone.title);
        // B200's HBM: 180 GB at 8 TB/s (catalog, HGX B200).
        const ChartSeries &b200 = compared.series.at(1);
        bool hbm = false;
        for (int i = 0; i < b200.x.size(); ++i)
            hbm = hbm || (b200.x[i] == 180e9 && b200.y[i] == 8e12);
        QVERIFY(hbm);
        // Every bar chart gains the second accelerator too.
        for (ChartView *chart : page_->charts())
            QCOMPARE(chart->data().series.size(), 2);
    }

    void hierarchyChartHasOnePointPerLevel()
    {
        const Scenario scenario = defaultScenario();  // H100 SXM
        page_->showEstimate(scenario, *estimate(scenario));
        const ChartData &chart = page_->hierarchyChart()->data();
        QVERIFY(chart.log_x);
        QVERIFY(chart.log_y);
        // Registers, SRAM, L2, HBM, host RAM, NVMe; the network (a link) is a line, not a point.
        const ChartSeries &h100 = chart.series.front();
        QCOMPARE(h100.x.size(), 6);
        QCOMPARE(h100.point_labels.size(), 6);
        QCOMPARE(h100.point_tooltips.size(), 6);
        QCOMPARE(h100.x.at(3), 80e9);      // HBM: 80 GB (datasheet)
        QCOMPARE(h100.y.at(3), 3.35e12);  // 3.35 TB/s
        QCOMPARE(h100.x.at(2), 50.0 * 1024 * 1024);  // L2: 50 MiB (whitepaper)
        QVERIFY(h100.point_labels.at(2).contains(QLatin1String("spice rack")));
        // The network per GPU: one 400 Gb/s NIC = 50 GB/s (DGX H100).
        bool network = false;
        for (const ReferenceLine &line : chart.reference_lines)
            network = network || line.y == 50e9;
        QVERIFY(network);
        // Bandwidth falls from the registers to NVMe.
        for (int i = 1; i < h100.y.size(); ++i)
            QVERIFY(h100.y[i] < h100.y[i - 1]);
    }

    void presentationAndRender()
    {
        const Scenario scenario = defaultScenario();
        page_->showEstimate(scenario, *estimate(scenario));
        page_->setPresentation(true);
        for (ChartView *chart : page_->charts())
            QVERIFY(chart->presentation());
        page_->setPresentation(false);
        page_->retranslate();
        QImage image(page_->size(), QImage::Format_ARGB32);
        page_->render(&image);
        QVERIFY(!image.isNull());
    }

private:
    std::unique_ptr<HardwarePage> page_;
};

QTEST_MAIN(TestHardwarePage)
#include "test_hardware_page.moc"
