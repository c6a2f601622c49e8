// SPDX-License-Identifier: GPL-3.0-or-later
// The edit→repaint and start-up fixes found with bench_gui_footprint (issue 20): work that an edit
// or the start used to repeat. Each test counts the repeated work itself (size hints measured,
// charts rebuilt, styles replaced), never time.

#include "charts/chart_view.h"
#include "charts/height_cached_label.h"
#include "cost/estimate.h"
#include "editor/scenario_editor.h"
#include "main_window.h"
#include "pages/page.h"
#include "pages/architecture/positional_encoding_section.h"
#include "pages/scaling/scaling_page.h"
#include "pages/tokenizer/tokenization_page.h"
#include "pages/table_fill_batch.h"
#include "scenario/scenario_json.h"

#include <QApplication>
#include <QHeaderView>
#include <QLabel>
#include <QSignalSpy>
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

    // The GPT-2 tokenizer (a fifth of the start-up CPU when the Tokenization page loaded it in its
    // constructor) is not read before the window's first paint; it loads, once, in the background
    // when the page is first shown.
    void gpt2TokenizerLoadsOnlyWhenItsPageIsShown()
    {
        MainWindow window(false);
        window.resize(1280, 800);
        auto *tokenization = qobject_cast<TokenizationPage *>(window.page(QStringLiteral("tokenization")));
        QVERIFY(tokenization);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCoreApplication::processEvents();
        QCOMPARE(tokenization->courseTokenizerLoads(), 0);
        QSignalSpy loaded(tokenization, &TokenizationPage::tokenizerLoaded);
        QVERIFY(window.selectPage(QStringLiteral("tokenization")));
        QVERIFY(loaded.wait(10000));
        QCOMPARE(loaded.at(0).at(0).toBool(), true);
        QCOMPARE(tokenization->courseTokenizerLoads(), 1);
        QVERIFY(window.selectPage(QStringLiteral("overview")));
        QVERIFY(window.selectPage(QStringLiteral("tokenization")));
        QCoreApplication::processEvents();
        QCOMPARE(tokenization->courseTokenizerLoads(), 1);
    }

    // A layers edit on the Scaling page replaces the figures table's text and nothing else (the
    // heading, the Gopher paragraph and the notes were set again on every edit), and the page's
    // word-wrapped labels and the charts' formula panels lay a text out once per width however
    // often a layout pass asks (each heightForWidth() call laid it out again).
    void scalingEditSetsOnlyTheChangedLabel()
    {
        MainWindow window(false);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.selectPage(QStringLiteral("scaling")));
        auto *scaling = qobject_cast<ScalingPage *>(window.currentPage());
        QVERIFY(scaling);
        QList<const HeightCachedLabel *> labels;
        for (QLabel *label : scaling->findChildren<QLabel *>())
            if (const auto *cached = dynamic_cast<const HeightCachedLabel *>(label); cached && label->isVisible())
                labels << cached;
        // Heading, figures, notes, approaches and the first chart's formula panel; the charts below
        // the fold are built when they are scrolled to (ChartView::setData).
        QVERIFY(labels.size() >= 5);
        const auto totals = [&labels] {
            std::pair<int, int> queries_layouts{0, 0};
            for (const HeightCachedLabel *label : labels) {
                queries_layouts.first += label->heightQueries();
                queries_layouts.second += label->heightLayouts();
            }
            return queries_layouts;
        };
        auto *layers = qobject_cast<QSpinBox *>(window.editor()->fieldWidget(QStringLiteral("model.n_layers")));
        QVERIFY(layers);
        layers->stepBy(1);
        QCoreApplication::processEvents();
        const QString notes = scaling->notesLabel()->text();
        QVERIFY(!notes.isEmpty());
        const auto before = totals();
        for (int edit = 0; edit < 4; ++edit) {
            const QString figures = scaling->figuresLabel()->text();
            const int sets = scaling->labelTextSets();
            layers->stepBy(edit % 2 == 0 ? -1 : 1);
            QCoreApplication::processEvents();
            QVERIFY(scaling->figuresLabel()->text() != figures);
            QCOMPARE(scaling->labelTextSets() - sets, 1);
            QCOMPARE(scaling->notesLabel()->text(), notes);
        }
        const auto after = totals();
        const int queries = after.first - before.first;
        const int layouts = after.second - before.second;
        // Four edits change the figures table and the visible formula panel: a few layouts each.
        qInfo("%d layouts for %d queries", layouts, queries);
        QVERIFY2(layouts <= 4 * 2 * 3, qPrintable(QStringLiteral("%1 layouts for %2 queries").arg(layouts).arg(queries)));
        QVERIFY2(layouts < queries, qPrintable(QStringLiteral("%1 layouts for %2 queries").arg(layouts).arg(queries)));
    }

    // The cache answers the same width again without a layout, and lays the text out again when
    // the text or the font changed.
    void heightCachedLabelMeasuresOncePerWidthAndText()
    {
        HeightCachedLabel label;
        label.setWordWrap(true);
        label.setText(QStringLiteral("<b>Formula:</b> a rich text long enough to wrap at two hundred pixels"));
        const int height = label.heightForWidth(200);
        QCOMPARE(label.heightForWidth(200), height);
        QCOMPARE(label.heightLayouts(), 1);
        QVERIFY(label.heightForWidth(100) > height);
        QCOMPARE(label.heightLayouts(), 2);
        label.setText(label.text() + QStringLiteral(" and more words, so one more line"));
        QVERIFY(label.heightForWidth(200) > height);
        QCOMPARE(label.heightLayouts(), 3);
        QFont big = label.font();
        big.setPointSizeF(big.pointSizeF() * 2);
        label.setFont(big);
        QVERIFY(label.heightForWidth(200) > height);
        QCOMPARE(label.heightLayouts(), 4);
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
