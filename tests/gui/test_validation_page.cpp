// SPDX-License-Identifier: GPL-3.0-or-later
// The Validation page, offscreen: every published run in the table, sorting, the summary, a
// selected row drives the breakdown and the scatter's ring, "Load this run" asks for that run's
// scenario, and the charts carry data to export. Per accelerator (issue 29 §4): the scatter has one
// coloured series per accelerator in its legend, the held-out (leave-one-source-out) error sits
// beside each run's error and in the summary, computed in the background and cancellable.

#include "charts/chart_view.h"
#include "pages/page_format.h"
#include "pages/validation/held_out_runner.h"
#include "pages/validation/serving_validation_view.h"
#include "pages/validation/validation_page.h"
#include "pages/validation/validation_runs_model.h"
#include "scenario/scenario_json.h"
#include "validation/published_runs.h"
#include "validation/serving_validation.h"

#include <memory>

#include <QLabel>
#include <QJsonObject>
#include <QPushButton>
#include <QTabWidget>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace lse;
using namespace lse::gui;

namespace {

template <typename T>
T *child(QWidget &parent, const char *name)
{
    T *widget = parent.findChild<T *>(QString::fromLatin1(name));
    if (!widget)
        qFatal("no child %s", name);
    return widget;
}

// The view row showing run `id`, or -1.
int viewRowOf(ValidationPage &page, const std::string &id)
{
    QAbstractItemModel *view_model = page.table()->model();
    for (int row = 0; row < view_model->rowCount(); ++row)
        if (view_model->index(row, ValidationRunsModel::Run).data().toString() == QString::fromStdString(id))
            return row;
    return -1;
}

const ValidationRow &rowOf(ValidationPage &page, const std::string &id)
{
    const std::vector<ValidationRow> &rows = page.runsModel()->table().rows;
    return *std::find_if(rows.begin(), rows.end(), [&](const ValidationRow &row) { return row.id == id; });
}

double barTotal(const ChartData &chart)
{
    double total = 0;
    for (const ChartSeries &series : chart.series)
        for (double y : series.y)
            total += y;
    return total;
}

}  // namespace

class TestValidationPage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void showingThePageFillsTheTable()
    {
        ValidationPage page;
        QCOMPARE(page.id(), QStringLiteral("validation"));
        QCOMPARE(page.runsModel()->rowCount(), 0);  // nothing computed before it is needed
        page.resize(1024, 768);
        page.show();
        const std::vector<PublishedRun> &runs = builtinPublishedRuns();
        // The shipped runs (issue 29): 18 A100 and 39 H100-class.
        QCOMPARE(runs.size(), std::size_t(57));
        QCOMPARE(page.table()->model()->rowCount(), 57);
        for (const PublishedRun &run : runs)
            QVERIFY2(viewRowOf(page, run.id) >= 0, run.id.c_str());
        // Layout and batch columns come from the run's scenario.
        const PublishedRun &first = runs.front();
        const int row = viewRowOf(page, first.id);
        QCOMPARE(page.table()->model()->index(row, ValidationRunsModel::Gpus).data(ValidationRunsModel::kSortRole).toInt(),
                 first.scenario.cluster.gpus);

        // The headline names the mean and the worst run; its tooltip says the factors are per accelerator.
        const ValidationTable &table = page.runsModel()->table();
        auto *summary = child<QLabel>(page, "validation.summary");
        QVERIFY2(summary->text().contains(QString::fromStdString(table.worst_id)), qPrintable(summary->text()));
        QVERIFY(summary->toolTip().contains(QStringLiteral("not fitted per run")));
        // The worst run is selected first.
        QCOMPARE(page.selectedRunId(), table.worst_id);
        // The fitted error is never shown without the held-out one beside it: computing, then figures.
        QVERIFY2(summary->text().contains(QStringLiteral("held out")), qPrintable(summary->text()));
        QVERIFY(page.waitForHeldOut(120000));
        QVERIFY2(summary->text().contains(QStringLiteral("held out (leave one source out")), qPrintable(summary->text()));
    }

    // One series per accelerator, each with its own colour and a legend name naming the
    // accelerator; every run is in the series of its accelerator.
    void scatterIsColouredByAccelerator()
    {
        ValidationPage page;
        page.ensureTable();
        std::map<std::string, std::string> accelerator_of_run;
        std::set<std::string> names;
        for (const PublishedRun &run : builtinPublishedRuns()) {
            accelerator_of_run[run.id] = run.scenario.cluster.accelerator.name;
            names.insert(run.scenario.cluster.accelerator.name);
        }
        QVERIFY(names.size() >= 2);
        QList<QColor> colours;
        int series_count = 0;
        for (const ChartSeries &series : page.charts().at(0)->data().series) {
            if (series.kind != ChartSeries::Kind::Marker || series.marker_size != 0)
                continue;
            ++series_count;
            QVERIFY(series.color.isValid());
            QVERIFY2(!colours.contains(series.color), qPrintable(series.name));
            colours << series.color;
            const auto named = std::find_if(names.begin(), names.end(), [&](const std::string &name) {
                return series.name.startsWith(QString::fromStdString(name));
            });
            QVERIFY2(named != names.end(), qPrintable(series.name));
            // Each point's tooltip names a run of that accelerator.
            for (const QString &tooltip : series.point_tooltips) {
                const QString id = tooltip.section(QStringLiteral("</b>"), 0, 0).remove(QStringLiteral("<b>"));
                QCOMPARE(accelerator_of_run.at(id.toStdString()), *named);
            }
        }
        QCOMPARE(series_count, int(names.size()));
    }

    // The held-out column: every run of an accelerator with two or more sources has the error
    // leave-one-source-out gives it (as `validate --leave-one-paper-out` prints), the others "–".
    void heldOutColumnBesideTheError()
    {
        ValidationPage page;
        page.ensureTable();
        QCOMPARE(page.runsModel()->heldOutState(), ValidationRunsModel::HeldOutState::Computing);
        QVERIFY(!page.isReady());
        QSignalSpy ready(&page, &Page::ready);
        QVERIFY(page.waitForHeldOut(120000));
        QCOMPARE(ready.count(), 1);
        QVERIFY(page.isReady());
        std::map<std::string, double> expected;
        for (const AcceleratorValidation &accelerator : page.acceleratorValidation()) {
            QCOMPARE(accelerator.held_out_errors.size(),
                     accelerator.sources.size() >= 2 ? accelerator.catalog.rows.size() : std::size_t(0));
            for (std::size_t i = 0; i < accelerator.held_out_errors.size(); ++i)
                expected[accelerator.catalog.rows[i].id] = accelerator.held_out_errors[i];
        }
        QCOMPARE(int(expected.size()), 52);  // the A100's 18 and the H100 SXM's 34 runs
        QAbstractItemModel *model = page.table()->model();
        for (int row = 0; row < model->rowCount(); ++row) {
            const std::string id = model->index(row, ValidationRunsModel::Run).data().toString().toStdString();
            const QString text = model->index(row, ValidationRunsModel::HeldOut).data().toString();
            const auto found = expected.find(id);
            if (found == expected.end()) {
                QCOMPARE(text, QStringLiteral("–"));
                continue;
            }
            QVERIFY2(text.contains(QString::number(std::abs(found->second) * 100, 'f', 1)), qPrintable(text));
            QCOMPARE(model->index(row, ValidationRunsModel::HeldOut).data(ValidationRunsModel::kSortRole).toDouble(),
                     std::abs(found->second));
        }
        // The summary per accelerator gives the held-out 90th percentile (the band) beside the fitted error.
        auto *accelerators = child<QLabel>(page, "validation.accelerators");
        QVERIFY(accelerators->isVisibleTo(&page));
        for (const AcceleratorValidation &accelerator : page.acceleratorValidation())
            QVERIFY2(accelerators->text().contains(QString::fromStdString(accelerator.accelerator_name).toHtmlEscaped()),
                     accelerator.accelerator_name.c_str());
    }

    void heldOutCanBeCancelledAndRestarted()
    {
        HeldOutRunner::clearCache();  // computed, not the result kept by an earlier test
        ValidationPage page;
        page.ensureTable();
        auto *button = child<QPushButton>(page, "validation.heldOutButton");
        QVERIFY(!page.isReady());
        page.cancelHeldOut();
        QVERIFY(page.waitForHeldOut(120000));
        // Cancelled at the next accelerator at the latest (the fits take seconds): the column is
        // empty, the summary says so and offers to compute again.
        QVERIFY(page.acceleratorValidation().empty());
        QCOMPARE(page.runsModel()->heldOutState(), ValidationRunsModel::HeldOutState::Failed);
        QVERIFY(child<QLabel>(page, "validation.summary")->text().contains(QStringLiteral("cancelled")));
        QVERIFY(button->isVisibleTo(&page));
        page.startHeldOut();
        QVERIFY(page.waitForHeldOut(120000));
        QCOMPARE(page.runsModel()->heldOutState(), ValidationRunsModel::HeldOutState::Computed);
        QVERIFY(!page.acceleratorValidation().empty());
    }

    void errorsAboveTenPercentAreMarkedAndSortByMagnitude()
    {
        ValidationPage page;
        page.ensureTable();
        QAbstractItemModel *model = page.table()->model();
        for (int row = 0; row < model->rowCount(); ++row) {
            const QModelIndex error = model->index(row, ValidationRunsModel::Error);
            const double magnitude = error.data(ValidationRunsModel::kSortRole).toDouble();
            QCOMPARE(error.data(Qt::BackgroundRole).isValid(), magnitude > ValidationRunsModel::kErrorHighlight);
        }
        page.table()->sortByColumn(ValidationRunsModel::Error, Qt::AscendingOrder);
        for (int row = 1; row < model->rowCount(); ++row)
            QVERIFY(model->index(row - 1, ValidationRunsModel::Error).data(ValidationRunsModel::kSortRole).toDouble()
                    <= model->index(row, ValidationRunsModel::Error).data(ValidationRunsModel::kSortRole).toDouble());
        page.table()->sortByColumn(ValidationRunsModel::Published, Qt::DescendingOrder);
        for (int row = 1; row < model->rowCount(); ++row)
            QVERIFY(model->index(row - 1, ValidationRunsModel::Published).data(ValidationRunsModel::kSortRole).toDouble()
                    >= model->index(row, ValidationRunsModel::Published).data(ValidationRunsModel::kSortRole).toDouble());
    }

    void selectingARowChangesTheBreakdown()
    {
        ValidationPage page;
        page.ensureTable();
        ChartView *breakdown = page.charts().at(1);
        const ChartData before = breakdown->data();
        const std::string first = page.selectedRunId();
        // Another run than the one shown: the first in the data file that is not selected.
        std::string other;
        for (const PublishedRun &run : builtinPublishedRuns())
            if (run.id != first && other.empty())
                other = run.id;
        QSignalSpy spy(&page, &ValidationPage::selectedRunChanged);
        page.table()->selectRow(viewRowOf(page, other));
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toString(), QString::fromStdString(other));
        QCOMPARE(page.selectedRunId(), other);

        const ChartData &after = breakdown->data();
        QVERIFY(after.title != before.title);
        QVERIFY(after.title.contains(QString::fromStdString(other)));
        // The parts add up to the run's predicted step.
        const ValidationRow &row = rowOf(page, other);
        QVERIFY2(std::abs(barTotal(after) - row.predicted_seconds) <= 1e-9 * row.predicted_seconds,
                 qPrintable(QStringLiteral("%1 vs %2").arg(barTotal(after)).arg(row.predicted_seconds)));
        // The scatter rings the selected run.
        const ChartData &scatter = page.charts().at(0)->data();
        QVERIFY(!scatter.series.isEmpty());
        const auto ring_series = std::find_if(scatter.series.begin(), scatter.series.end(),
                                              [](const ChartSeries &series) { return series.marker_size > 0; });
        QVERIFY(ring_series != scatter.series.end());
        const ChartSeries &ring = *ring_series;
        QCOMPARE(ring.x.size(), 1);
        QCOMPARE(ring.x.front(), row.published_seconds);
        QCOMPARE(ring.y.front(), row.predicted_seconds);
        // The operator table lists the run's slowest operators, slowest first.
        QTableWidget *operators = page.operatorTable();
        QCOMPARE(operators->rowCount(), std::min<int>(10, int(row.prediction.operators.size())));
        QVERIFY(operators->rowCount() > 0);
        const auto slowest = std::max_element(
            row.prediction.operators.begin(), row.prediction.operators.end(),
            [](const performance::OperatorTime &a, const performance::OperatorTime &b) { return a.seconds < b.seconds; });
        QCOMPARE(operators->item(0, 0)->text(), QString::fromStdString(slowest->name));
        // Re-selecting the same run does not signal again.
        page.table()->selectRow(viewRowOf(page, other));
        QCOMPARE(spy.count(), 1);
    }

    void loadThisRunRequestsItsScenario()
    {
        ValidationPage page;
        page.ensureTable();
        QSignalSpy spy(&page, &Page::scenarioEditRequested);
        auto *load = child<QPushButton>(page, "validation.load");
        const PublishedRun &run = builtinPublishedRuns().back();
        page.table()->selectRow(viewRowOf(page, run.id));
        QVERIFY(load->isEnabled());
        QTest::mouseClick(load, Qt::LeftButton);
        QCOMPARE(spy.count(), 1);
        const Scenario requested = spy.at(0).at(0).value<Scenario>();
        QCOMPARE(scenarioToJson(requested), scenarioToJson(run.scenario));
        QVERIFY(spy.at(0).at(1).toString().contains(QString::fromStdString(run.id)));
        QVERIFY(!page.loadRun(-1));
        QVERIFY(!page.loadRun(page.table()->model()->rowCount()));
        QCOMPARE(spy.count(), 1);
    }

    // A larger font (presentation mode) sizes the columns again: none is cut ("+1…").
    void largerFontKeepsColumnsWhole()
    {
        ValidationPage page;
        page.resize(1920, 1080);
        page.ensureTable();
        QFont font = page.font();
        font.setPointSizeF(font.pointSizeF() * 1.6);
        page.setFont(font);
        QCoreApplication::processEvents();
        const QAbstractItemView *view = page.table();
        for (int column = ValidationRunsModel::Accelerator; column < ValidationRunsModel::ColumnCount; ++column)
            QVERIFY2(page.table()->columnWidth(column) + 1 >= view->sizeHintForColumn(column),
                     qPrintable(QStringLiteral("column %1: %2 < %3")
                                    .arg(column)
                                    .arg(page.table()->columnWidth(column))
                                    .arg(view->sizeHintForColumn(column))));
    }

    void chartsCarryDataForExport()
    {
        ValidationPage page;
        page.ensureTable();
        const QList<ChartView *> charts = page.charts();
        QCOMPARE(charts.size(), 3);  // training scatter and breakdown, serving scatter
        int scatter_points = 0;
        for (const ChartSeries &series : charts.at(0)->data().series)
            if (series.kind == ChartSeries::Kind::Marker && series.marker_size == 0)
                scatter_points += int(series.x.size());
        QCOMPARE(scatter_points, int(builtinPublishedRuns().size()));
        for (ChartView *chart : charts) {
            QVERIFY2(!chart->data().series.isEmpty(), qPrintable(chart->id()));
            QVERIFY(!chart->data().formula.formula.isEmpty());
            QVERIFY(!chart->data().formula.source.isEmpty());
            QVERIFY2(chart->toCsv().count(QLatin1Char('\n')) > 1, qPrintable(chart->id()));
        }
    }

    // The Serving tab: core's comparisons with the catalog's factors, one point and one table row
    // per published figure, the mean in the summary; the held-out fits start when the tab is shown,
    // run in the background and stop on Cancel or when the page goes away.
    void servingTabShowsCoresComparisons()
    {
        const Result<ServingValidation> expected = validateServing(false);
        QVERIFY(expected.ok());
        ValidationPage page;
        page.ensureTable();
        ServingValidationView *view = page.servingView();
        QVERIFY(!view->heldOutRunning());  // not before the tab is shown
        int points = 0;
        for (const ChartSeries &series : view->scatterChart()->data().series)
            if (series.kind == ChartSeries::Kind::Marker)
                points += int(series.x.size());
        QCOMPARE(points, int(expected->comparisons.size()));
        QCOMPARE(view->table()->rowCount(), int(expected->comparisons.size()));
        QVERIFY2(view->summaryLabel()->text().contains(format::percent(expected->overall.mean_abs_error, 1)),
                 qPrintable(view->summaryLabel()->text()));
        QString error;
        QVERIFY(page.applyLessonSettings(QJsonObject{{"tab", "serving"}}, &error));
        QCOMPARE(page.tabs()->currentWidget(), view);
    }

    void servingHeldOutRunsInTheBackgroundAndCancels()
    {
        auto page = std::make_unique<ValidationPage>();
        page->resize(1280, 900);
        page->show();
        page->tabs()->setCurrentWidget(page->servingView());
        ServingValidationView *view = page->servingView();
        QVERIFY(view->heldOutRunning());
        QVERIFY(!page->isReady());  // export and screenshots wait for it
        QSignalSpy finished(view, &ServingValidationView::heldOutFinished);
        view->cancelHeldOut();
        QVERIFY(view->waitForHeldOut(120000));
        QCOMPARE(finished.count(), 1);
        QVERIFY(!view->heldOut().has_value());
        QVERIFY(!view->heldOutRunning());
        QVERIFY2(view->summaryLabel()->text().contains(QStringLiteral("cancelled")), qPrintable(view->summaryLabel()->text()));
        // Started again and the page destroyed mid-run: the destructor cancels and waits.
        view->startHeldOut();
        QVERIFY(view->heldOutRunning());
        page.reset();
    }

    // One whole run (about 12 s of fits): the held-out errors reach the summary and every row.
    void servingHeldOutIsShown()
    {
#if defined(__SANITIZE_ADDRESS__)
        QSKIP("the leave-one-source-out fits take minutes under AddressSanitizer; the release build runs this");
#endif
        ValidationPage page;
        page.ensureTable();
        ServingValidationView *view = page.servingView();
        view->startHeldOut();
        QVERIFY(view->waitForHeldOut(300000));
        QVERIFY(view->heldOut().has_value());
        const ServingErrorSummary &held = view->heldOut()->held_out_overall;
        QCOMPARE(held.comparisons, int(view->validation()->comparisons.size()));
        QVERIFY(held.mean_abs_error > view->validation()->overall.mean_abs_error);  // fitted without the source
        QVERIFY(view->summaryLabel()->text().contains(format::percent(held.mean_abs_error, 1)));
        for (int row = 0; row < view->table()->rowCount(); ++row)
            QVERIFY(view->table()->item(row, view->table()->columnCount() - 1)->text().contains(QLatin1Char('%')));
    }
};

QTEST_MAIN(TestValidationPage)
#include "test_validation_page.moc"
