// SPDX-License-Identifier: GPL-3.0-or-later
// The Tensors page's "Why layout matters" tab offscreen: a small measurement completes in the
// background and fills the table and charts with core's figures; Cancel stops it and keeps the
// last finished result; the charts export.

#include "background_timeout.h"
#include "charts/chart_view.h"
#include "pages/tensors/access_order_section.h"
#include "pages/tensors/tensors_page.h"

#include <QFileInfo>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace lse;
using namespace lse::gui;

namespace {

AccessTimingRequest smallRequest()
{
    AccessTimingRequest request;
    request.matmul_size = 32;
    request.sweep_rows = 64;
    request.sweep_cols = 48;
    request.repetitions = 2;
    return request;
}

double barsTotal(const ChartData &chart)
{
    double total = 0;
    for (const ChartSeries &s : chart.series)
        for (double y : s.y)
            total += y;
    return total;
}

}  // namespace

class TestAccessOrderSection : public QObject {
    Q_OBJECT
private slots:
    void tensorsPageHasTheTab()
    {
        TensorsPage page;
        bool found = false;
        for (PageSection *section : page.findChildren<PageSection *>())
            found = found || section->id() == QStringLiteral("access-order");
        QVERIFY(found);
    }

    void measureCompletes()
    {
        AccessOrderSection section;
        section.setRequest(smallRequest());
        QCOMPARE(section.request().matmul_size, std::int64_t(32));
        QCOMPARE(section.request().threads, 1);
        // Before measuring: the bytes core declares, no bandwidth yet.
        QCOMPARE(barsTotal(section.bandwidthChart()->data()), 0.0);
        QSignalSpy finished(&section, &AccessOrderSection::finished);
        section.measure();
        QVERIFY(section.isRunning());
        QVERIFY(finished.wait(kBackgroundWorkTimeoutMs));
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QVERIFY(section.result().has_value());
        QCOMPARE(section.result()->variants.size(), std::size_t(6));
        QCOMPARE(section.table()->rowCount(), 6);
        // The table shows core's bytes for each variant.
        for (int row = 0; row < 6; ++row)
            QVERIFY(!section.table()->item(row, 1)->text().isEmpty());
        const ChartData &time = section.timeChart()->data();
        QCOMPARE(time.categories.size(), qsizetype(6));
        QVERIFY(barsTotal(time) > 0);
        QVERIFY(barsTotal(section.bandwidthChart()->data()) > 0);
        double median_ms = 0;
        for (const AccessVariantTiming &v : section.result()->variants)
            median_ms += v.median_seconds * 1e3;
        QCOMPARE(barsTotal(time), median_ms);
        QTemporaryDir dir;
        for (ChartView *chart : section.charts())
            QVERIFY(chart->exportCsv(dir.filePath(chart->objectName() + QStringLiteral(".csv"))));
    }

    void cancelKeepsTheLastResult()
    {
        AccessOrderSection section;
        AccessTimingRequest request = smallRequest();
        request.repetitions = 100;  // long enough to be cancelled before it ends
        request.matmul_size = 256;
        section.setRequest(request);
        QSignalSpy finished(&section, &AccessOrderSection::finished);
        section.measure();
        section.cancel();
        QVERIFY(finished.wait(kBackgroundWorkTimeoutMs));
        QCOMPARE(finished.at(0).at(0).toBool(), true);
        QVERIFY(!section.isRunning());
        QVERIFY(!section.result().has_value());
        QCOMPARE(barsTotal(section.bandwidthChart()->data()), 0.0);
    }
};

QTEST_MAIN(TestAccessOrderSection)
#include "test_access_order_section.moc"
