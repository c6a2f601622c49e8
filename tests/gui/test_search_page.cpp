// SPDX-License-Identifier: GPL-3.0-or-later
// The Search page offscreen: the worker fills a table sorted by step time and a scatter of fitting
// and non-fitting layouts; Apply asks for the candidate's layout (and, in the main window, is one
// undoable step); Cancel stops the worker.

#include "charts/chart_view.h"
#include "cost/estimate.h"
#include "document/scenario_document.h"
#include "main_window.h"
#include "pages/parallel/layout/duration_format.h"
#include "pages/parallel/layout/search_scatter_chart.h"
#include "pages/page_format.h"
#include "pages/parallel/search_page.h"
#include "parallel/layout_search.h"
#include "parallel/step_time.h"
#include "scenario/presets.h"
#include "scenario/scenario_json.h"

#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <qcustomplot.h>
#include <QTest>
#include <QUndoStack>

#include <cmath>

using namespace lse;
using namespace lse::gui;

namespace {

// Llama 3 8B on two 8-GPU nodes: small enough to search in a fraction of a second, big enough
// that replicated optimizer states (ZeRO 0 without model parallelism) do not fit in 80 GB.
Scenario smallScenario()
{
    Scenario scenario = defaultScenario();
    scenario.model = findModelPreset("llama-3-8b")->model;
    scenario.cluster.gpus = 16;
    scenario.cluster.gpus_per_node = 8;
    scenario.training.parallel = {};
    scenario.training.parallel.dp = 16;
    scenario.training.global_batch = 64;
    scenario.training.micro_batch = 1;
    scenario.training.seq_len = 4096;
    return scenario;
}

void show(SearchPage &page, const Scenario &scenario)
{
    const Result<Estimate> estimate = lse::estimate(scenario);
    QVERIFY2(estimate.ok(), formatProblems(estimate.problems()).c_str());
    page.showEstimate(scenario, *estimate);
}

}  // namespace

class TestSearchPage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void searchFillsTableAndScatter()
    {
        SearchPage page;
        parallel::SearchOptions options;
        options.top = 10;
        page.setSearchOptions(options);
        show(page, smallScenario());  // the first show starts the search
        QVERIFY(page.isSearching() || page.result() != nullptr);
        QVERIFY(page.waitForSearch(20000));
        const parallel::SearchResult *result = page.result();
        QVERIFY(result);
        QVERIFY(!result->cancelled);
        QVERIFY(result->fitting > 10);
        QVERIFY(result->valid > result->fitting);

        QTableWidget *table = page.resultsTable();
        QCOMPARE(table->rowCount(), 10);
        double previous = 0;
        for (int row = 0; row < table->rowCount(); ++row) {
            const double step = table->item(row, SearchPage::StepColumn)->data(Qt::UserRole).toDouble();
            QVERIFY(step >= previous);
            previous = step;
            QCOMPARE(table->item(row, SearchPage::RankColumn)->text(), QString::number(row + 1));
            // Every listed layout uses the 16 GPUs.
            const ParallelConfig &p = page.candidateAtRow(row)->parallel;
            QCOMPARE(p.dp * p.tp * p.pp * p.cp, 16);
            QVERIFY(page.candidateAtRow(row)->breakdown.fits);
        }
        // Sorting by another column keeps each row's candidate.
        table->sortItems(SearchPage::MemoryColumn, Qt::AscendingOrder);
        for (int row = 0; row < table->rowCount(); ++row)
            QCOMPARE(table->item(row, SearchPage::MemoryColumn)->data(Qt::UserRole).toDouble(),
                     page.candidateAtRow(row)->breakdown.memory_bytes_per_gpu);

        const ChartData &scatter = page.scatterChart()->data();
        QCOMPARE(scatter.series.size(), int(SearchScatterChart::SeriesCount));
        const ChartSeries &fitting = scatter.series.at(SearchScatterChart::Fitting);
        const ChartSeries &not_fitting = scatter.series.at(SearchScatterChart::NotFitting);
        QVERIFY(!fitting.x.isEmpty());
        QVERIFY(!not_fitting.x.isEmpty());
        const double capacity = scatter.reference_lines.front().y;
        for (double memory : fitting.y)
            QVERIFY(memory <= capacity);
        for (double memory : not_fitting.y)
            QVERIFY(memory > capacity);
        QCOMPARE(scatter.series.at(SearchScatterChart::Top).x.size(), 10);
        QCOMPARE(scatter.series.at(SearchScatterChart::Top).point_labels.front(), QStringLiteral("#1"));
        QCOMPARE(scatter.series.at(SearchScatterChart::Current).x.size(), 1);
        QVERIFY(!page.isStale());
    }

    void optionsRestrictTheSearch()
    {
        SearchPage page;
        parallel::SearchOptions options;
        options.top = 50;
        options.zero_stages = {0, 1};
        options.recomputations = {Recomputation::Full};
        page.setSearchOptions(options);
        const parallel::SearchOptions read = page.searchOptions();
        QCOMPARE(read.zero_stages, (std::vector<int>{0, 1}));
        QCOMPARE(read.recomputations.size(), std::size_t(1));
        show(page, smallScenario());
        QVERIFY(page.waitForSearch(20000));
        QVERIFY(page.resultsTable()->rowCount() > 0);
        for (int row = 0; row < page.resultsTable()->rowCount(); ++row) {
            QVERIFY(page.candidateAtRow(row)->parallel.zero_stage <= 1);
            QVERIFY(page.candidateAtRow(row)->recomputation == Recomputation::Full);
        }
        // Changing an option makes the shown result stale until the (fast) search re-runs.
        QVERIFY(!page.findChild<QDoubleSpinBox *>());  // no typed compute efficiency: the ranking is predicted
        auto *top = page.findChild<QSpinBox *>();
        QVERIFY(top);
        top->setValue(30);
        QVERIFY(page.isStale() || page.isSearching());
        if (!page.isSearching())  // a loaded machine may take longer than the auto-run limit
            page.runSearch();
        QVERIFY(page.waitForSearch(20000));
        QVERIFY(!page.isStale());
        QCOMPARE(page.searchOptions().top, 30);
        QCOMPARE(page.resultsTable()->rowCount(), 30);
    }

    void applyEmitsTheCandidate()
    {
        SearchPage page;
        show(page, smallScenario());
        QVERIFY(page.waitForSearch(20000));
        QSignalSpy spy(&page, &Page::scenarioEditRequested);
        page.resultsTable()->selectRow(2);
        QVERIFY(page.applyButton()->isEnabled());
        page.applyButton()->click();
        QCOMPARE(spy.count(), 1);
        const auto scenario = spy.front().at(0).value<Scenario>();
        const parallel::LayoutCandidate *candidate = page.candidateAtRow(2);
        QVERIFY(candidate);
        const ParallelConfig &p = scenario.training.parallel;
        QCOMPARE(p.dp, candidate->parallel.dp);
        QCOMPARE(p.tp, candidate->parallel.tp);
        QCOMPARE(p.pp, candidate->parallel.pp);
        QCOMPARE(p.cp, candidate->parallel.cp);
        QCOMPARE(p.zero_stage, candidate->parallel.zero_stage);
        QCOMPARE(scenario.training.micro_batch, candidate->micro_batch);
        QVERIFY(spy.front().at(1).toString().contains(QStringLiteral("tp %1").arg(candidate->parallel.tp)));
        // The rest of the scenario is kept.
        QCOMPARE(scenario.model.d_model, smallScenario().model.d_model);

        // A double-click applies too.
        emit page.resultsTable()->cellDoubleClicked(0, 0);
        QCOMPARE(spy.count(), 2);

        // Showing the applied scenario changes only the layout: the result is not stale, and the
        // applied row is marked as the current layout.
        show(page, scenario);
        QVERIFY(!page.isStale());
        QVERIFY(!page.isSearching());
        int marked = 0;
        for (int row = 0; row < page.resultsTable()->rowCount(); ++row)
            if (page.resultsTable()->item(row, SearchPage::RankColumn)->font().bold()) {
                ++marked;
                QCOMPARE(page.candidateAtRow(row), candidate);
            }
        QCOMPARE(marked, 1);
        // Another sequence length makes it stale (or re-runs it when the search is fast).
        Scenario longer = scenario;
        longer.training.seq_len = 8192;
        show(page, longer);
        QVERIFY(page.isStale() || page.isSearching());
    }

    // Issue 13 item 8 with issue 17: the page ranks by the predicted step and the Overview uses
    // the scenario's MFU, typed or predicted; after Apply the page names both, with the predicted
    // MFU beside the given one, and the current layout's step is the search's predicted one.
    void namesBothTimeModelsAfterApply()
    {
        SearchPage page;
        Scenario scenario = smallScenario();
        scenario.training.mfu = 0.3;
        show(page, scenario);
        QVERIFY(page.waitForSearch(20000));
        QSignalSpy spy(&page, &Page::scenarioEditRequested);
        QVERIFY(page.applyRow(0));
        QCOMPARE(spy.count(), 1);
        const auto applied = spy.front().at(0).value<Scenario>();
        show(page, applied);
        Scenario predicted = applied;
        predicted.training.mfu_source = MfuSource::Predicted;
        const Result<Estimate> run = estimate(predicted);
        const Result<Estimate> given = estimate(applied);
        QVERIFY(run.ok() && given.ok());
        QVERIFY(std::abs(run->time.mfu - given->time.mfu) > 0.001);
        auto *label = page.findChild<QLabel *>(QStringLiteral("currentLayout"));
        QVERIFY(label != nullptr);
        const QString text = label->text();
        QVERIFY2(text.contains(format::percent(run->time.mfu)), qPrintable(text));
        QVERIFY2(text.contains(format::percent(0.3)), qPrintable(text));
        QVERIFY2(text.contains(format::days(run->time.days)), qPrintable(text));
        QVERIFY2(text.contains(format::days(given->time.days)), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("given")), qPrintable(text));
        QVERIFY2(text.contains(format::duration(page.candidateAtRow(0)->breakdown.total_seconds)), qPrintable(text));
    }

    // Issue 17: the page says what it ranks by.
    void explainsTheRanking()
    {
        SearchPage page;
        auto *note = page.findChild<QLabel *>(QStringLiteral("rankingNote"));
        QVERIFY(note);
        QVERIFY2(note->text().contains(QStringLiteral("predicted step time")), qPrintable(note->text()));
        QVERIFY2(note->text().contains(QStringLiteral("Validation page")), qPrintable(note->text()));
    }

    void defaultScenarioSearchIsFastEnoughToAutoRun()
    {
        // Informational: the whole path (worker search, table, scatter) for 1024 GPUs. Issue 7
        // allows re-running on every edit below 0.3 s; the page decides from the core's figure.
        SearchPage page;
        QElapsedTimer timer;
        timer.start();
        show(page, defaultScenario());
        // Generous: under AddressSanitizer the 22,000 predicted layouts take over 20 s.
        QVERIFY(page.waitForSearch(120000));
        qInfo("1024-GPU default: %lld layouts, core %.3f s, page %.3f s", qint64(page.result()->valid),
              page.result()->seconds, double(timer.nsecsElapsed()) * 1e-9);
        QVERIFY(page.resultsTable()->rowCount() > 0);
    }

    void cancelStopsTheWorker()
    {
        SearchPage page;
        show(page, defaultScenario());  // 1024 GPUs: tens of thousands of layouts
        QVERIFY(page.isSearching());
        page.cancelSearch();
        QVERIFY(page.waitForSearch(5000));
        QVERIFY(!page.isSearching());
        QVERIFY(page.result());
        QVERIFY(page.result()->cancelled);
        QVERIFY(page.result()->evaluated < page.result()->valid);
    }

    void applyInTheMainWindowIsOneUndoStep()
    {
        MainWindow window(false);
        QVERIFY(window.selectPage(QStringLiteral("search")));
        auto *page = qobject_cast<SearchPage *>(window.page(QStringLiteral("search")));
        QVERIFY(page);
        page->cancelSearch();  // the 1024-GPU default is searched on first show; use a small one
        QVERIFY(page->waitForSearch(5000));
        window.document()->replaceScenario(smallScenario(), QStringLiteral("small"));
        if (page->isStale() && !page->isSearching())
            page->runSearch();
        QVERIFY(page->waitForSearch(20000));
        QVERIFY(!page->isStale());
        const QByteArray before = scenarioToJson(window.document()->scenario());
        const int steps = window.document()->undoStack()->count();

        // A row whose layout differs from the current dp 16.
        int row = 0;
        while (row < page->resultsTable()->rowCount() && page->candidateAtRow(row)->parallel.dp == 16)
            ++row;
        QVERIFY(row < page->resultsTable()->rowCount());
        const ParallelConfig wanted = page->candidateAtRow(row)->parallel;
        QVERIFY(page->applyRow(row));
        QCOMPARE(window.document()->undoStack()->count(), steps + 1);
        QCOMPARE(window.document()->scenario().training.parallel.dp, wanted.dp);
        QCOMPARE(window.document()->scenario().training.parallel.tp, wanted.tp);
        QCOMPARE(window.document()->scenario().training.parallel.pp, wanted.pp);
        window.document()->undoStack()->undo();
        QCOMPARE(scenarioToJson(window.document()->scenario()), before);
    }

    // An edit whose search is quick redraws the scatter once, when the new results are in (it was
    // drawn at the edit with the old results too: twice per edit, bench_gui_footprint); and once
    // there are results the stale note keeps its place while hidden, so an edit that shows it and
    // the next that hides it do not move the chart.
    void quickSearchRedrawsTheScatterOnce()
    {
        SearchPage page;
        page.resize(1000, 900);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        auto *stale_note = page.findChild<QLabel *>(QStringLiteral("staleNote"));
        QVERIFY(stale_note);
        show(page, smallScenario());
        QVERIFY(page.waitForSearch(20000));
        QTRY_VERIFY(!page.isSearching());
        QVERIFY(stale_note->sizePolicy().retainSizeWhenHidden());
        for (int i = 0; i < 5; ++i)
            QCoreApplication::processEvents();
        ChartView *scatter = page.charts().front();
        QSignalSpy replots(scatter->plot(), &QCustomPlot::afterReplot);
        const double first_search_s = page.result()->seconds;
        Scenario edited = smallScenario();
        edited.model.n_layers += 1;
        QElapsedTimer elapsed;
        elapsed.start();
        show(page, edited);
        if (first_search_s >= 0.3) {
            // A slow build (sanitizers): the search does not re-run by itself; the chart is redrawn
            // at the edit, with the old results beside the new current layout.
            QTRY_VERIFY(replots.count() >= 1);
            QVERIFY(page.waitForSearch(60000));
            return;
        }
        QVERIFY(page.isSearching());
        QVERIFY(page.waitForSearch(20000));
        const double search_ms = double(elapsed.nsecsElapsed()) * 1e-6;
        for (int i = 0; i < 10; ++i)
            QCoreApplication::processEvents();
        QTRY_VERIFY(replots.count() >= 1);
        // The chart waits up to 300 ms for the results; a search that ends later draws the old
        // results at the deadline and the new ones when they come.
        if (search_ms < 250)
            QCOMPARE(replots.count(), 1);
        else
            QVERIFY(replots.count() <= 2);
        QVERIFY(!page.isStale());
    }
};

QTEST_MAIN(TestSearchPage)
#include "test_search_page.moc"
