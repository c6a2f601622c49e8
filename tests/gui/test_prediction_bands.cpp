// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 29 §2 in the GUI: a predicted step time, MFU and training time carry the accelerator's
// error band, "12.3 days (± 9%)", with the interval and its basis in the tooltip, on the Overview
// and Time pages; an accelerator without a band shows its basis sentence instead. Search marks the
// layouts within the band of the best in its table and its scatter. The editor edits the two
// training fields the prediction reads (attention kernel, fused element-wise) as undoable steps.

#include "charts/chart_view.h"
#include "document/scenario_document.h"
#include "editor/scenario_editor.h"
#include "hardware/hardware_catalog.h"
#include "pages/cost/overview_page.h"
#include "pages/cost/time_page.h"
#include "pages/page_format.h"
#include "pages/parallel/layout/search_scatter_chart.h"
#include "pages/parallel/search_page.h"
#include "scenario/scenario_json.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <QUndoStack>

using namespace lse;
using namespace lse::gui;

namespace {

Estimate estimated(const Scenario &scenario)
{
    const Result<Estimate> result = estimate(scenario);
    if (!result)
        qFatal("estimate failed: %s", formatProblems(result.problems()).c_str());
    return *result;
}

// The default scenario on `accelerator_id`, its MFU predicted.
Scenario predictedOn(const char *accelerator_id)
{
    Scenario scenario = defaultScenario();
    const Accelerator *accelerator = builtinHardwareCatalog().find(accelerator_id);
    if (!accelerator)
        qFatal("no accelerator %s", accelerator_id);
    scenario.cluster.accelerator = *accelerator;
    scenario.training.mfu_source = MfuSource::Predicted;
    return scenario;
}

// Every label text and tooltip inside `widget`.
QString textsOf(const QWidget *widget)
{
    QStringList texts{widget->toolTip()};
    for (const QLabel *label : widget->findChildren<QLabel *>())
        texts << label->text() << label->toolTip();
    return texts.join(QLatin1Char('\n'));
}

}  // namespace

class TestPredictionBands : public QObject {
    Q_OBJECT
private slots:
    void overviewShowsTheBandOrTheBasis()
    {
        OverviewPage page;
        // H100 SXM: published runs from seven sources, a band.
        const Scenario h100 = predictedOn("h100-sxm");
        const Estimate e = estimated(h100);
        QVERIFY(e.time.predicted && e.time.predicted->band_fraction > 0);
        page.showEstimate(h100, e);
        const QWidget *days = page.findChild<QWidget *>(QStringLiteral("days-card"));
        QVERIFY(days);
        const QString band = QStringLiteral("(± %1)").arg(format::percent(e.time.predicted->band_fraction, 0));
        QString texts = textsOf(days);
        QVERIFY2(texts.contains(QStringLiteral("%1 days %2").arg(format::days(e.time.days), band)), qPrintable(texts));
        QVERIFY2(texts.contains(QStringLiteral("[t/(1+p), t/(1−p)]")), qPrintable(texts));
        QVERIFY2(texts.contains(format::days(e.time.predicted->training_seconds_high / 86400.0)), qPrintable(texts));
        QVERIFY(page.summaryText().contains(band));

        // H100 PCIe: no published runs, the basis instead of a band.
        const Scenario pcie = predictedOn("h100-pcie");
        const Estimate unknown = estimated(pcie);
        QVERIFY(unknown.time.predicted && unknown.time.predicted->band_fraction == 0);
        page.showEstimate(pcie, unknown);
        texts = textsOf(days);
        QVERIFY2(texts.contains(QStringLiteral("error unknown")), qPrintable(texts));
        QVERIFY2(texts.contains(QString::fromStdString(pcie.cluster.accelerator.accuracy.basis)), qPrintable(texts));
        QVERIFY2(!texts.contains(QStringLiteral("(± ")), qPrintable(texts));

        // A given MFU is an assumption: no band.
        const Scenario given = defaultScenario();
        page.showEstimate(given, estimated(given));
        QVERIFY(!textsOf(days).contains(QStringLiteral("(± ")));
    }

    void timePageShowsTheBandOrTheBasis()
    {
        TimePage page;
        const Scenario h100 = predictedOn("h100-sxm");
        const Estimate e = estimated(h100);
        page.showEstimate(h100, e);
        const QString band = QStringLiteral("(± %1)").arg(format::percent(e.time.predicted->band_fraction, 0));
        for (ChartView *chart : page.charts()) {
            const ChartData &data = chart->data();
            QVERIFY2(data.title.contains(band), qPrintable(data.title));
            const QString marker = data.series.last().point_tooltips.front();
            QVERIFY2(marker.contains(band) && marker.contains(QStringLiteral("90th-percentile")), qPrintable(marker));
        }
        const Scenario pcie = predictedOn("h100-pcie");
        page.showEstimate(pcie, estimated(pcie));
        const QString title = page.charts().front()->data().title;
        QVERIFY2(title.contains(QStringLiteral("(error unknown)")), qPrintable(title));
        QVERIFY(!title.contains(QStringLiteral("(± ")));
        const QString inputs = page.charts().front()->data().formula.inputs;
        QVERIFY2(inputs.contains(QString::fromStdString(pcie.cluster.accelerator.accuracy.basis)), qPrintable(inputs));
    }

    // The table marks the best "best" and each layout within the band "≈ best", as core's
    // within_band_of_best says; the step carries the band; the scatter rings the same layouts.
    void searchMarksLayoutsWithinTheBand()
    {
        SearchPage page;
        const Scenario h100 = predictedOn("h100-sxm");
        page.showEstimate(h100, estimated(h100));
        QVERIFY(page.waitForSearch(120000));
        QCoreApplication::processEvents();
        const parallel::SearchResult *result = page.result();
        QVERIFY(result && !result->top.empty());
        QCOMPARE(result->band_fraction, h100.cluster.accelerator.accuracy.held_out_p90_error);
        auto *table = page.findChild<QTableWidget *>(QStringLiteral("search-results"));
        QVERIFY(table);
        QCOMPARE(table->rowCount(), int(result->top.size()));
        const QString band = QStringLiteral("(± %1)").arg(format::percent(result->band_fraction, 0));
        int within = 0;
        for (int row = 0; row < table->rowCount(); ++row) {
            const int rank = table->item(row, SearchPage::RankColumn)->data(Qt::UserRole).toInt();
            const parallel::LayoutCandidate &candidate = result->top[std::size_t(rank - 1)];
            const QString mark = table->item(row, SearchPage::BandColumn)->text();
            QCOMPARE(mark.isEmpty(), !candidate.within_band_of_best);
            if (rank == 1)
                QCOMPARE(mark, QStringLiteral("best"));
            within += candidate.within_band_of_best ? 1 : 0;
            QVERIFY2(table->item(row, SearchPage::StepColumn)->text().endsWith(band),
                     qPrintable(table->item(row, SearchPage::StepColumn)->text()));
        }
        QVERIFY(within >= 1);
        const ChartData &scatter = page.charts().front()->data();
        const ChartSeries &ring = scatter.series.at(SearchScatterChart::WithinBand);
        QCOMPARE(int(ring.x.size()), within);
        QVERIFY(ring.marker_size > scatter.series.at(SearchScatterChart::Top).marker_size);
        QVERIFY(ring.name.contains(format::percent(result->band_fraction, 0)));
        QVERIFY(ring.point_tooltips.front().contains(QStringLiteral("Within the band of the best")));
    }

    void editorEditsAttentionKernelAndFusion()
    {
        ScenarioDocument document;
        ScenarioEditor editor(&document);
        auto *kernel = qobject_cast<QComboBox *>(editor.fieldWidget(QStringLiteral("training.attention_kernel")));
        auto *fused = qobject_cast<QCheckBox *>(editor.fieldWidget(QStringLiteral("training.fused_elementwise")));
        QVERIFY(kernel && fused);
        QVERIFY(!kernel->toolTip().isEmpty() && !fused->toolTip().isEmpty());
        QCOMPARE(kernel->count(), 2);
        QCOMPARE(kernel->currentIndex(), 0);
        QVERIFY(fused->isChecked());

        const int steps = document.undoStack()->count();
        emit kernel->activated(1);
        QCOMPARE(document.undoStack()->count(), steps + 1);
        QVERIFY(document.scenario().training.attention_kernel == AttentionKernel::FlashAttention3);
        fused->setChecked(false);
        QCOMPARE(document.undoStack()->count(), steps + 2);
        QVERIFY(!document.scenario().training.fused_elementwise);

        document.undoStack()->undo();
        QVERIFY(document.scenario().training.fused_elementwise);
        QVERIFY(fused->isChecked());
        document.undoStack()->undo();
        QVERIFY(document.scenario().training.attention_kernel == AttentionKernel::FlashAttention2);
        QCOMPARE(kernel->currentIndex(), 0);
    }
};

QTEST_MAIN(TestPredictionBands)
#include "test_prediction_bands.moc"
