// SPDX-License-Identifier: GPL-3.0-or-later
// The highlight targets every page offers by default (app/gui/lessons/lesson_targets.h): named
// regions, chart series and points, table rows, and where each one is on the page.

#include "charts/chart_view.h"
#include "main_window.h"
#include "pages/page.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QProcess>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTest>
#include <QVBoxLayout>

using namespace lse;
using namespace lse::gui;

namespace {

// A page with one of each kind of generic target.
class SamplePage : public Page {
public:
    SamplePage()
    {
        auto *layout = new QVBoxLayout(this);
        note = new QLabel(QStringLiteral("note"));
        note->setObjectName(QStringLiteral("note"));
        hidden = new QLabel(QStringLiteral("hidden"));
        hidden->setObjectName(QStringLiteral("hidden-note"));
        hidden->hide();
        chart = new ChartView(QStringLiteral("sample-chart"));
        chart->setMinimumHeight(250);
        ChartData chart_data;
        ChartSeries line;
        line.name = QStringLiteral("alpha");
        line.x = {1, 2, 3, 4};
        line.y = {10, 20, 15, 30};
        chart_data.series = {line};
        chart->setData(chart_data);
        table = new QTableWidget(2, 2);
        table->setObjectName(QStringLiteral("sample-table"));
        table->setItem(0, 0, new QTableWidgetItem(QStringLiteral("first")));
        table->setItem(1, 0, new QTableWidgetItem(QStringLiteral("second")));
        for (QWidget *widget : {static_cast<QWidget *>(note), static_cast<QWidget *>(hidden),
                                static_cast<QWidget *>(chart), static_cast<QWidget *>(table)})
            layout->addWidget(widget);
    }
    QString id() const override { return QStringLiteral("sample"); }
    QString title() const override { return QStringLiteral("Sample"); }
    QList<ChartView *> charts() const override { return {chart}; }

    QLabel *note;
    QLabel *hidden;
    ChartView *chart;
    QTableWidget *table;
};

void settle()
{
    for (int pass = 0; pass < 4; ++pass) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::processEvents();
    }
}

}  // namespace

class TestLessonTargets : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void samplePageOffersEachKind()
    {
        SamplePage page;
        page.resize(700, 600);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        settle();
        page.chart->plot()->replot();

        QVERIFY(page.lessonTargets(HighlightKind::Region).contains(QStringLiteral("note")));
        QVERIFY(page.lessonTargets(HighlightKind::Region).contains(QStringLiteral("hidden-note")));
        QCOMPARE(page.lessonTargets(HighlightKind::ChartSeries), QStringList{QStringLiteral("sample-chart/alpha")});
        QCOMPARE(page.lessonTargets(HighlightKind::ChartPoint).size(), 4);
        QCOMPARE(page.lessonTargets(HighlightKind::TableRow),
                 (QStringList{QStringLiteral("sample-table/first"), QStringLiteral("sample-table/second")}));
        QVERIFY(page.lessonTargets(HighlightKind::Field).isEmpty());

        QCOMPARE(page.lessonTargetRect(HighlightKind::Region, QStringLiteral("note")), page.note->geometry());
        QVERIFY(page.lessonTargetRect(HighlightKind::Region, QStringLiteral("hidden-note")).isNull());
        QVERIFY(page.lessonTargetRect(HighlightKind::Region, QStringLiteral("no-such")).isNull());

        const QRect series = page.lessonTargetRect(HighlightKind::ChartSeries, QStringLiteral("sample-chart/alpha"));
        QVERIFY(!series.isEmpty());
        QVERIFY(page.chart->geometry().contains(series));
        const QRect point = page.lessonTargetRect(HighlightKind::ChartPoint, QStringLiteral("sample-chart/alpha/3"));
        QVERIFY(!point.isEmpty());
        QVERIFY(series.intersects(point));
        // The last point is the rightmost: its square lies right of the first point's.
        const QRect first = page.lessonTargetRect(HighlightKind::ChartPoint, QStringLiteral("sample-chart/alpha/0"));
        QVERIFY(point.center().x() > first.center().x());
        QVERIFY(page.lessonTargetRect(HighlightKind::ChartPoint, QStringLiteral("sample-chart/alpha/9")).isNull());

        const QRect row = page.lessonTargetRect(HighlightKind::TableRow, QStringLiteral("sample-table/second"));
        QVERIFY(!row.isEmpty());
        QVERIFY(page.table->geometry().contains(row));
        QVERIFY(page.lessonTargetRect(HighlightKind::TableRow, QStringLiteral("sample-table/third")).isNull());
    }

    void memoryPageOffersItsChartSeries()
    {
        MainWindow window(false);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.selectPage("memory"));
        settle();
        Page *page = window.currentPage();
        const QStringList targets = page->lessonTargets(HighlightKind::ChartSeries);
        for (ChartView *chart : page->charts())
            for (const ChartSeries &series : chart->data().series)
                if (!series.name.isEmpty())
                    QVERIFY2(targets.contains(chart->id() + '/' + series.name), qPrintable(series.name));
        QVERIFY(!targets.isEmpty());
        const QRect rect = page->lessonTargetRect(HighlightKind::ChartSeries, targets.first());
        QVERIFY(!rect.isEmpty());
        QVERIFY2(page->rect().contains(rect), qPrintable(QStringLiteral("%1,%2 %3x%4").arg(rect.x()).arg(rect.y()).arg(rect.width()).arg(rect.height())));
    }

    // Lessons name series in English; in Chinese the chart shows the translation and the target
    // must still resolve.
    void englishSeriesNamesResolveInChinese()
    {
        QVERIFY(MainWindow::installLanguage(QStringLiteral("zh_CN")));
        const auto restore = qScopeGuard([] { MainWindow::installLanguage(QStringLiteral("en")); });
        MainWindow window(false);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.selectPage("memory"));
        settle();
        Page *page = window.currentPage();
        QVERIFY(!page->lessonTargets(HighlightKind::ChartSeries).contains(QStringLiteral("memory-per-gpu/Weights")));
        QVERIFY(!page->lessonTargetRect(HighlightKind::ChartSeries, QStringLiteral("memory-per-gpu/Weights")).isEmpty());
    }

    // --list-lesson-targets PAGE: "kind<TAB>target" lines for lesson authors; a bad page exits 2.
    void commandLineListsAPagesTargets()
    {
        QProcess process;
        process.start(QStringLiteral(LSE_GUI_PATH), {"--list-lesson-targets", "memory"});
        QVERIFY(process.waitForFinished(120000));
        QCOMPARE(process.exitCode(), 0);
        const QStringList lines = QString::fromUtf8(process.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
        QVERIFY(lines.contains(QStringLiteral("chart_series\tmemory-per-gpu/Weights")));
        for (const QString &line : lines)
            QVERIFY2(line.count('\t') == 1, qPrintable(line));

        process.start(QStringLiteral(LSE_GUI_PATH), {"--list-lesson-targets", "no-such-page"});
        QVERIFY(process.waitForFinished(120000));
        QCOMPARE(process.exitCode(), 2);
        QVERIFY(QString::fromUtf8(process.readAllStandardError()).contains(QLatin1String("--list-lesson-targets")));
    }
};

QTEST_MAIN(TestLessonTargets)
#include "test_lesson_targets.moc"
