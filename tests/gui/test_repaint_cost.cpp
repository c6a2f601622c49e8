// SPDX-License-Identifier: GPL-3.0-or-later
// The edit→repaint and start-up fixes found with bench_gui_footprint (issue 20): work that an edit
// or the start used to repeat. Each test counts the repeated work itself (size hints measured,
// charts rebuilt, styles replaced), never time.

#include "charts/chart_view.h"
#include "cost/estimate.h"
#include "editor/scenario_editor.h"
#include "main_window.h"
#include "pages/page.h"
#include "pages/architecture/positional_encoding_section.h"
#include "pages/table_fill_batch.h"
#include "scenario/scenario_json.h"

#include <QApplication>
#include <QHeaderView>
#include <QSpinBox>
#include <QStyle>
#include <QStyledItemDelegate>
#include <QTableWidget>
#include <QTest>

using namespace lse;
using namespace lse::gui;

namespace {

// Counts the cell measurements a view makes.
class CountingDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        ++calls;
        return QStyledItemDelegate::sizeHint(option, index);
    }
    mutable int calls = 0;
};

constexpr int kRows = 40;
constexpr int kColumns = 4;

void fill(QTableWidget *table, int generation)
{
    table->setRowCount(kRows);
    for (int row = 0; row < kRows; ++row)
        for (int column = 0; column < kColumns; ++column)
            table->setItem(row, column,
                           new QTableWidgetItem(QString(column + row % 7 + generation, QLatin1Char('x'))));
}

std::unique_ptr<QTableWidget> shownTable()
{
    auto table = std::make_unique<QTableWidget>(0, kColumns);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->resize(600, 400);
    table->show();
    return table;
}

}  // namespace

class TestRepaintCost : public QObject {
    Q_OBJECT
private slots:
    // A batch measures each cell a bounded number of times (without it each setItem() measured the
    // whole table again: 25600 size hints for these 160 cells), and the columns end as wide as their
    // contents, exactly as without the batch.
    void tableFillBatchMeasuresEachCellOnce()
    {
        // The second fill of a table that keeps its rows is the one that measured every column
        // again per cell (the first is laid out once, after it).
        const auto batched = shownTable();
        QVERIFY(QTest::qWaitForWindowExposed(batched.get()));
        fill(batched.get(), 1);
        QTest::qWait(200);  // the view's delayed layout and column resize run
        auto *counter = new CountingDelegate(batched.get());
        batched->setItemDelegate(counter);
        QTest::qWait(200);  // setItemDelegate() schedules a layout, which would hide the cost
        counter->calls = 0;
        {
            const TableFillBatch batch(batched.get());
            fill(batched.get(), 3);
        }
        QVERIFY2(counter->calls <= 2 * kRows * kColumns, qPrintable(QString::number(counter->calls)));
        QCOMPARE(batched->horizontalHeader()->sectionResizeMode(0), QHeaderView::ResizeToContents);

        const auto unbatched = shownTable();
        QVERIFY(QTest::qWaitForWindowExposed(unbatched.get()));
        fill(unbatched.get(), 1);
        QTest::qWait(200);
        fill(unbatched.get(), 3);
        QCoreApplication::processEvents();
        for (int column = 0; column < kColumns; ++column)
            QCOMPARE(batched->columnWidth(column), unbatched->columnWidth(column));
    }

    // The Layout page refills its communication-events table on every estimate: an edit in the
    // window (as bench_gui_footprint makes it) measures each cell a bounded number of times.
    void layoutEventsTableFillsInOneBatch()
    {
        MainWindow window(false);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.selectPage(QStringLiteral("layout")));
        QCoreApplication::processEvents();
        auto *layers = qobject_cast<QSpinBox *>(window.editor()->fieldWidget(QStringLiteral("model.n_layers")));
        QVERIFY(layers);
        layers->stepBy(1);  // the first edit fills the table with its rows
        QTest::qWait(200);  // the views' delayed layouts run, as they do between a user's edits
        int cells = 0;
        QList<CountingDelegate *> counters;
        for (QTableWidget *table : window.currentPage()->findChildren<QTableWidget *>()) {
            counters << new CountingDelegate(table);
            table->setItemDelegate(counters.back());
            cells += table->rowCount() * table->columnCount();
        }
        QVERIFY(cells > 0);
        QTest::qWait(200);  // setItemDelegate() schedules a layout, which would hide the cost
        for (CountingDelegate *counter : counters)
            counter->calls = 0;
        layers->stepBy(-1);
        QCoreApplication::processEvents();
        int calls = 0;
        for (const CountingDelegate *counter : counters)
            calls += counter->calls;
        // Measuring and sizing rows reads each cell a few times (204 for its 108 cells); the fill
        // without a batch measured the table again per cell (10476).
        QVERIFY2(calls <= 4 * cells, qPrintable(QStringLiteral("%1 size hints for %2 cells").arg(calls).arg(cells)));
    }

    // An estimate that leaves d_model, head_dim and heads as they are (a layers or batch edit)
    // does not rebuild the four charts; one that changes them does.
    void positionalChartsRedrawOnlyWhenTheirInputsChange()
    {
        Scenario scenario = defaultScenario();
        const Result<Estimate> estimate = lse::estimate(scenario);
        QVERIFY(estimate.ok());
        PositionalEncodingSection section;
        section.showEstimate(scenario, *estimate);
        const auto storage = [&section] {
            QList<const void *> pointers;
            for (const ChartView *chart : section.charts())
                pointers << (chart->data().rects.isEmpty() ? static_cast<const void *>(chart->data().series.constData())
                                                           : static_cast<const void *>(chart->data().rects.constData()));
            return pointers;
        };
        const QList<const void *> before = storage();
        scenario.model.n_layers += 1;
        section.showEstimate(scenario, *estimate);
        QCOMPARE(storage(), before);

        scenario.model.d_model = 256;
        section.showEstimate(scenario, *estimate);
        const QList<const void *> after = storage();
        QVERIFY(after[0] != before[0]);  // the sinusoid heat map follows d_model
        QVERIFY(section.sinusoidalChart()->data().formula.inputs.contains(QStringLiteral("d_model = 256")));
    }

    // Setting a theme when the style is Fusion already keeps the style object: replacing it
    // re-polished every widget of every page at start-up.
    void themeKeepsAFusionStyle()
    {
        MainWindow window(false);
        window.setTheme(Theme::Light);
        const QStyle *style = QApplication::style();
        QCOMPARE(style->name().toLower(), QStringLiteral("fusion"));
        window.setTheme(Theme::Dark);
        QCOMPARE(QApplication::style(), style);
        window.setTheme(Theme::System);
        QCOMPARE(QApplication::style(), style);
    }
};

QTEST_MAIN(TestRepaintCost)
#include "test_repaint_cost.moc"
