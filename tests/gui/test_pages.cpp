// SPDX-License-Identifier: GPL-3.0-or-later
// The cost pages offscreen: each fills its charts from the engine for any valid scenario.

#include "charts/chart_view.h"
#include "cost/estimate.h"
#include "cost/sweeps.h"
#include "pages/cost/overview_page.h"
#include "pages/page.h"
#include "pages/page_format.h"
#include "pages/page_registry.h"
#include "hardware/hardware_catalog.h"
#include "scenario/presets.h"
#include "scenario/scenario_json.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QSet>
#include <QTest>

#include <memory>

using namespace lse;
using namespace lse::gui;

namespace {

ChartView *chartById(const QList<Page *> &pages, const QString &id)
{
    for (Page *page : pages)
        for (ChartView *chart : page->charts())
            if (chart->id() == id)
                return chart;
    return nullptr;
}

// A preset alone on one GPU: the smallest layout every model admits.
Scenario onOneGpu(const char *preset_id, std::int64_t seq_len)
{
    Scenario scenario = defaultScenario();
    scenario.model = findModelPreset(preset_id)->model;
    scenario.cluster.gpus = 1;
    scenario.cluster.gpus_per_node = 1;
    scenario.training.parallel = {};
    scenario.training.seq_len = seq_len;
    scenario.training.global_batch = 8;
    scenario.training.micro_batch = 1;
    scenario.training.tokens = 1'000'000'000;
    return scenario;
}

void verifyChartsFilled(const QList<Page *> &pages)
{
    for (Page *page : pages) {
        for (ChartView *chart : page->charts()) {
            const ChartData &data = chart->data();
            // A diagram (Gantt chart, device grid, collective step) draws rectangles or arrows.
            const bool diagram = !data.rects.isEmpty() || !data.arrows.isEmpty();
            QVERIFY2(!data.series.isEmpty() || diagram, qPrintable(chart->id() + ": " + data.title));
            bool has_points = diagram;
            for (const ChartSeries &series : data.series) {
                QCOMPARE(series.x.size(), series.y.size());
                QVERIFY2(series.point_tooltips.isEmpty() || series.point_tooltips.size() == series.x.size(),
                         qPrintable(chart->id() + " / " + series.name));
                for (double y : series.y)
                    QVERIFY2(std::isfinite(y), qPrintable(chart->id() + " / " + series.name));
                has_points = has_points || !series.x.isEmpty();
            }
            QVERIFY2(has_points, qPrintable(chart->id()));
            QVERIFY2(!data.title.isEmpty(), qPrintable(chart->id()));
            QVERIFY2(!data.formula.formula.isEmpty() && !data.formula.source.isEmpty(), qPrintable(chart->id()));
        }
    }
}

}  // namespace

class TestPages : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        parent_ = std::make_unique<QWidget>();
        parent_->resize(1280, 800);
        pages_ = createPages(parent_.get());
    }
    void cleanup()
    {
        pages_.clear();
        parent_.reset();
    }

    void fourPagesWithDistinctIds()
    {
        // The cost pages come first, in this order; later labs append theirs.
        const QStringList expected = {"overview", "memory", "compute", "time"};
        QVERIFY(pages_.size() >= expected.size());
        QSet<QString> ids;
        for (qsizetype i = 0; i < pages_.size(); ++i) {
            if (i < expected.size())
                QCOMPARE(pages_[i]->id(), expected[i]);
            QVERIFY(!pages_[i]->title().isEmpty());
            ids.insert(pages_[i]->id());
            QCOMPARE(pages_[i]->parentWidget(), parent_.get());
        }
        QCOMPARE(ids.size(), pages_.size());
        QSet<QString> chart_ids;
        int charts = 0;
        int cost_charts = 0;
        for (Page *page : pages_)
            for (ChartView *chart : page->charts()) {
                chart_ids.insert(chart->id());
                ++charts;
                cost_charts += expected.contains(page->id()) ? 1 : 0;
            }
        QCOMPARE(chart_ids.size(), charts);
        QCOMPARE(cost_charts, 7);
    }

    void defaultScenarioFillsEveryChart()
    {
        const Scenario scenario = defaultScenario();
        const Result<Estimate> estimate = lse::estimate(scenario);
        QVERIFY(estimate.ok());
        for (Page *page : pages_)
            page->showEstimate(scenario, *estimate);
        verifyChartsFilled(pages_);

        const ChartData &memory = chartById(pages_, "memory-per-gpu")->data();
        QCOMPARE(memory.categories.size(), 5);  // ZeRO 0–3 and inference
        QCOMPARE(memory.series.size(), 6);      // weights, gradients, optimizer, activations, KV cache, reserve
        QCOMPARE(memory.reference_lines.size(), 1);
        QCOMPARE(memory.reference_lines.front().y, double(estimate->memory.capacity));
        QCOMPARE(memory.y_display_scale, 1e-9);
        // The bars of the current stage add up to the estimate's total.
        const int stage = scenario.training.parallel.zero_stage;
        double total = 0;
        for (const ChartSeries &series : memory.series)
            total += series.y.at(stage);
        QCOMPARE(total, double(estimate->memory.total));
        // Training bars hold no KV cache; the inference bar holds weights + KV cache.
        const ChartSeries &kv = memory.series.at(4);
        for (int i = 0; i < 4; ++i)
            QCOMPARE(kv.y.at(i), 0.0);
        QCOMPARE(kv.y.at(4), double(estimate->inference.kv_cache_bytes_per_gpu));
        QCOMPARE(memory.series.at(0).y.at(4), double(estimate->inference.weights_bytes_per_gpu));

        const ChartData &activations = chartById(pages_, "activation-memory-vs-seq-len")->data();
        QCOMPARE(activations.reference_lines.size(), 1);
        bool marker = false;
        for (const ChartSeries &series : activations.series)
            if (series.kind == ChartSeries::Kind::Marker) {
                marker = true;
                QCOMPARE(series.x.front(), double(scenario.training.seq_len));
            }
        QVERIFY(marker);
        QVERIFY(activations.log_x);

        const ChartData &components = chartById(pages_, "flops-per-token-by-component")->data();
        QVERIFY(components.categories.size() >= 4);  // projections, scores, MLP, head
        const ChartData &models = chartById(pages_, "attention-vs-mlp-share-across-models")->data();
        QCOMPARE(models.series.front().x.size(), qsizetype(builtinModelPresets().size()));
        QVERIFY(chartById(pages_, "attention-share-vs-seq-len") != nullptr);
        const ChartData &days = chartById(pages_, "days-vs-gpu-count")->data();
        QVERIFY(days.series.front().x.contains(1024.0));
        QVERIFY(!chartById(pages_, "days-vs-mfu")->data().series.isEmpty());

        auto *overview = qobject_cast<OverviewPage *>(pages_.front());
        QVERIFY(overview != nullptr);
        QVERIFY(overview->summaryText().contains(QStringLiteral("Llama")));
        QVERIFY(overview->showsFits());
        QVERIFY(overview->peakNoteText().contains(QStringLiteral("119")));
        QVERIFY(overview->findChild<QLabel *>(QStringLiteral("fitBadge"))->isVisibleTo(overview));
    }

    // Issue 13 item 9: the overview gives 6ND at the dense peak (the lecture's formula) beside the
    // exact count and the sparse headline.
    void overviewGivesSixNdAtTheDensePeak()
    {
        const Scenario scenario = defaultScenario();
        for (Page *page : pages_)
            page->showEstimate(scenario, *lse::estimate(scenario));
        auto *overview = qobject_cast<OverviewPage *>(pages_.front());
        const Result<PeakComparison> peaks = comparePeaks(scenario);
        QVERIFY(peaks.ok());
        const QString note = overview->peakNoteText();
        QVERIFY2(note.contains(format::days(peaks->dense_days_six_nd)), qPrintable(note));
        QVERIFY2(note.contains(format::days(peaks->sparse_days_six_nd)), qPrintable(note));
        QVERIFY2(note.contains(format::days(peaks->dense_days)), qPrintable(note));

        // A TPU has no sparse headline; the dense 6ND figure is still given.
        Scenario tpu = scenario;
        tpu.cluster.accelerator = *builtinHardwareCatalog().find("tpu-v5p");
        const Result<Estimate> tpu_estimate = lse::estimate(tpu);
        QVERIFY(tpu_estimate.ok());
        overview->showEstimate(tpu, *tpu_estimate);
        QVERIFY(overview->peakNoteText().contains(format::days(comparePeaks(tpu)->dense_days_six_nd)));
    }

    // Issue 13 item 7: the activation chart's curve for the scenario's recomputation passes through
    // the scenario's own figure (FlashAttention on), and the curve names say which setting they use.
    void activationCurvesUseTheScenariosFlashAttention()
    {
        Scenario scenario = defaultScenario();
        scenario.training.seq_len = 131072;
        scenario.training.recomputation = Recomputation::Full;
        QVERIFY(scenario.training.flash_attention);
        const Result<Estimate> estimate = lse::estimate(scenario);
        QVERIFY(estimate.ok());
        pages_.at(1)->showEstimate(scenario, *estimate);
        const ChartData &chart = chartById(pages_, "activation-memory-vs-seq-len")->data();
        const ChartSeries *full = nullptr;
        for (const ChartSeries &series : chart.series)
            if (series.name.startsWith(QStringLiteral("Full recomputation")))
                full = &series;
        QVERIFY(full != nullptr);
        QVERIFY2(full->name.contains(QStringLiteral("FlashAttention on")), qPrintable(full->name));
        const qsizetype at = full->x.indexOf(131072.0);
        QVERIFY(at >= 0);
        QCOMPARE(full->y.at(at), double(estimate->memory.activations));
    }

    // Issue 28 item 19: the memory breakdown shows the default framework reserve on every bar, and
    // its tooltip names the three parts and their sources.
    void memoryChartShowsTheFrameworkReserve()
    {
        const Scenario scenario = defaultScenario();
        QCOMPARE(scenario.training.framework_reserve_bytes, kDefaultFrameworkReserveBytes);
        pages_.at(1)->showEstimate(scenario, *lse::estimate(scenario));
        const ChartData &chart = chartById(pages_, "memory-per-gpu")->data();
        const ChartSeries *reserve = nullptr;
        for (const ChartSeries &series : chart.series)
            if (series.name == QStringLiteral("Framework reserve"))
                reserve = &series;
        QVERIFY(reserve);
        QCOMPARE(reserve->y.size(), chart.categories.size());
        for (qsizetype i = 0; i < reserve->y.size(); ++i) {
            QCOMPARE(reserve->y.at(i), double(kDefaultFrameworkReserveBytes));
            QVERIFY2(reserve->point_tooltips.at(i).contains(QStringLiteral("CUDA context 1.40 GB"))
                         && reserve->point_tooltips.at(i).contains(QStringLiteral("nccl #964")),
                     qPrintable(reserve->point_tooltips.at(i)));
        }
        QVERIFY(chart.formula.formula.contains(QStringLiteral("framework reserve R = 4.10 GB")));
    }

    // Issue 28 item 24: days ∝ 1/MFU is sampled finely enough to look like a curve (the 5 % steps
    // of before made a polygon below 20 %): neighbouring MFUs differ by at most 6 %.
    void daysVsMfuIsSampledFinely()
    {
        const Scenario scenario = defaultScenario();
        pages_.at(3)->showEstimate(scenario, *lse::estimate(scenario));
        const ChartData &chart = chartById(pages_, "days-vs-mfu")->data();
        const ChartSeries &line = chart.series.front();
        QVERIFY(line.x.size() >= 50);
        QCOMPARE(line.x.front(), 0.05);
        QCOMPARE(line.x.back(), 1.0);
        for (qsizetype i = 1; i < line.x.size(); ++i)
            QVERIFY2(line.x.at(i) / line.x.at(i - 1) <= 1.06, qPrintable(QString::number(line.x.at(i))));
    }

    // Issue 28 item 24: with FlashAttention, "No recomputation" and "Selective" store the same bytes:
    // the later line is dashed so the earlier shows through, and each tooltip names the other.
    void coincidentLinesAreDrawnDistinguishably()
    {
        const Scenario scenario = defaultScenario();
        QVERIFY(scenario.training.flash_attention);
        pages_.at(1)->showEstimate(scenario, *lse::estimate(scenario));
        ChartView *view = chartById(pages_, "activation-memory-vs-seq-len");
        QCustomPlot *plot = view->plot();
        QCPGraph *none = nullptr;
        QCPGraph *selective = nullptr;
        for (int i = 0; i < plot->graphCount(); ++i) {
            if (plot->graph(i)->name() == QStringLiteral("No recomputation, FlashAttention on"))
                none = plot->graph(i);
            if (plot->graph(i)->name() == QStringLiteral("Selective recomputation, FlashAttention on"))
                selective = plot->graph(i);
        }
        QVERIFY(none && selective);
        QCOMPARE(none->pen().style(), Qt::SolidLine);
        QCOMPARE(selective->pen().style(), Qt::CustomDashLine);
        QVERIFY(selective->scatterStyle().shape() == QCPScatterStyle::ssCircle);
        view->resize(900, 600);
        plot->replot(QCustomPlot::rpImmediateRefresh);
        const auto point = none->data()->at(2);
        const QPointF at(none->keyAxis()->coordToPixel(point->key), none->valueAxis()->coordToPixel(point->value));
        const QString tip = view->toolTipAt(at);
        QVERIFY2(tip.contains(QStringLiteral("Drawn on the same points as")), qPrintable(tip));
    }

    // Issue 13 item 15: the presets of "share across models" are separate models, so they are
    // labelled points, not a line sorted by size that zigzags between families.
    void shareAcrossModelsIsLabelledPoints()
    {
        const Scenario scenario = defaultScenario();
        for (Page *page : pages_)
            page->showEstimate(scenario, *lse::estimate(scenario));
        const ChartData &chart = chartById(pages_, "attention-vs-mlp-share-across-models")->data();
        int labelled = 0;
        for (const ChartSeries &series : chart.series) {
            QVERIFY2(series.kind != ChartSeries::Kind::Line, qPrintable(series.name));
            if (!series.point_labels.isEmpty()) {
                QCOMPARE(series.point_labels.size(), series.x.size());
                ++labelled;
            }
        }
        QVERIFY(labelled >= 1);
    }

    void zeroStageChangesTheMemoryChart()
    {
        Scenario scenario = defaultScenario();
        Page *memory_page = pages_.at(1);
        memory_page->showEstimate(scenario, *estimate(scenario));
        const ChartData before = chartById(pages_, "memory-per-gpu")->data();
        scenario.training.parallel.zero_stage = 3;
        memory_page->showEstimate(scenario, *estimate(scenario));
        const ChartData after = chartById(pages_, "memory-per-gpu")->data();
        QVERIFY(before.categories != after.categories);  // the current stage is marked
        QVERIFY(after.categories.at(3).contains(QStringLiteral("3")));
        QVERIFY(before.formula.inputs != after.formula.inputs || before.categories != after.categories);
    }

    void moeAndTinyModelsOnOneGpu_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<qint64>("seq_len");
        QTest::addRow("mixtral-8x7b") << QStringLiteral("mixtral-8x7b") << qint64(4096);
        QTest::addRow("cs336-tinystories") << QStringLiteral("cs336-tinystories") << qint64(256);
        QTest::addRow("gpt2-small (learned positions)") << QStringLiteral("gpt2-small") << qint64(1024);
    }
    void moeAndTinyModelsOnOneGpu()
    {
        QFETCH(QString, preset);
        QFETCH(qint64, seq_len);
        const Scenario scenario = onOneGpu(preset.toUtf8().constData(), seq_len);
        const Result<Estimate> estimate = lse::estimate(scenario);
        QVERIFY2(estimate.ok(), formatProblems(estimate.problems()).c_str());
        for (Page *page : pages_)
            page->showEstimate(scenario, *estimate);
        verifyChartsFilled(pages_);
        const ChartData &components = chartById(pages_, "flops-per-token-by-component")->data();
        if (preset == QLatin1String("mixtral-8x7b"))
            QVERIFY(components.categories.join(' ').contains(QStringLiteral("Experts")));
        // One GPU: the GPU sweep starts at one GPU and the current point is on it.
        const ChartData &days = chartById(pages_, "days-vs-gpu-count")->data();
        QCOMPARE(days.series.front().x.front(), 1.0);
        for (Page *page : pages_) {
            page->setPresentation(true);
            page->setPresentation(false);
            page->retranslate();
        }
    }

    void pagesBeforeAnyEstimate()
    {
        // Charts exist and say there is nothing to show yet; nothing crashes.
        for (Page *page : pages_)
            for (ChartView *chart : page->charts())
                QVERIFY(!chart->data().title.isEmpty());
        auto *overview = qobject_cast<OverviewPage *>(pages_.front());
        QVERIFY(!overview->showsFits());
    }

    // The Overview beside the editor in a 1024-pixel window (~490 pixels of page): the cards take
    // fewer columns instead of running off the right edge; a wide page keeps three.
    void overviewCardsFitTheWidth()
    {
        const Scenario scenario = defaultScenario();
        OverviewPage overview;
        overview.showEstimate(scenario, *lse::estimate(scenario));
        // The headline cards are the page's styled panels; their distinct x positions are the columns.
        auto cards = [&overview] {
            QList<QFrame *> found;
            for (QFrame *frame : overview.findChildren<QFrame *>())
                if (frame->frameShape() == QFrame::StyledPanel && frame->isVisible())
                    found << frame;
            return found;
        };
        auto columns = [&] {
            QSet<int> xs;
            for (QFrame *card : cards())
                xs.insert(card->mapTo(&overview, QPoint(0, 0)).x());
            return int(xs.size());
        };
        auto rightmostEdge = [&] {
            int right = 0;
            for (QFrame *card : cards())
                right = std::max(right, card->mapTo(&overview, QPoint(card->width(), 0)).x());
            return right;
        };
        overview.resize(490, 700);
        overview.show();
        QVERIFY(QTest::qWaitForWindowExposed(&overview));
        QTRY_VERIFY(rightmostEdge() > 0);
        QVERIFY2(rightmostEdge() <= overview.width(), qPrintable(QString::number(rightmostEdge())));
        QVERIFY(columns() < 3);
        overview.resize(1500, 700);
        QTRY_COMPARE(columns(), 3);
        QVERIFY(rightmostEdge() <= overview.width());
    }

    void renderAtWindowSize()
    {
        const Scenario scenario = defaultScenario();
        const Estimate estimate = *lse::estimate(scenario);
        for (Page *page : pages_) {
            page->showEstimate(scenario, estimate);
            page->resize(1000, 700);
            QImage image(page->size(), QImage::Format_ARGB32);
            page->render(&image);
            QVERIFY(!image.isNull());
        }
    }

private:
    std::unique_ptr<QWidget> parent_;
    QList<Page *> pages_;
};

QTEST_MAIN(TestPages)
#include "test_pages.moc"
