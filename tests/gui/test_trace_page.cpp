// SPDX-License-Identifier: GPL-3.0-or-later
// The Trace page offscreen: a committed HTA trace read through the page's background runner shows
// core's analyseRank figures (breakdown bars, tables) and every kernel on the timeline; several
// files give a rank selector; Cancel keeps the trace shown before; a broken file names its event and
// field and keeps the previous trace; the bundled sample opens; the charts export; lesson settings
// refuse bad keys. The Roofline page's "Your trace" overlay has one point per kernel with FLOPs
// and bytes, names a clicked point, and hides with its check box.

#include "charts/chart_view.h"
#include "pages/roofline/roofline_page.h"
#include "pages/traces/trace_charts.h"
#include "pages/traces/trace_page.h"
#include "pages/traces/trace_prediction_section.h"
#include "pages/traces/trace_session.h"
#include "pages/traces/trace_timeline.h"
#include "traces/trace_analysis.h"
#include "traces/trace_loader.h"
#include "traces/trace_vs_prediction.h"
#include "hardware/hardware_catalog.h"
#include "scenario/scenario_json.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QScrollArea>
#include <QElapsedTimer>
#include <QTabWidget>

#include <memory>

using namespace lse;
using namespace lse::gui;

namespace {

QString tracePath(const char *name) { return QStringLiteral(LSE_SOURCE_DIR "/tests/data/traces/hta/") + QLatin1String(name); }

bool waitForLoad(TracePage &page)
{
    if (!page.loading())
        return true;
    QSignalSpy spy(&page, &TracePage::loadFinished);
    return spy.wait(60000);
}

std::unique_ptr<TracePage> pageWith(const QStringList &paths)
{
    auto page = std::make_unique<TracePage>();
    page->resize(1280, 800);
    page->openFiles(paths);
    if (!waitForLoad(*page))
        qFatal("the trace did not load");
    return page;
}

}  // namespace

class TestTracePage : public QObject {
    Q_OBJECT
private slots:
    void emptyStateExplainsAndHasNoCharts()
    {
        TracePage page;
        QVERIFY(page.session()->isEmpty());
        QVERIFY(page.charts().isEmpty());
        QVERIFY(page.isReady());
        QVERIFY(page.findChild<QWidget *>(QStringLiteral("trace.sample")));
    }

    void loadsThroughTheRunnerAndShowsCoreFigures()
    {
        const QString path = tracePath("sampled_rank-0.json.gz");
        auto page = std::make_unique<TracePage>();
        page->resize(1280, 800);
        QSignalSpy ready(page.get(), &Page::ready);
        page->openFiles({path});
        QVERIFY(page->loading());
        QVERIFY(!page->isReady());  // export and screenshots wait
        QVERIFY(waitForLoad(*page));
        QCOMPARE(ready.count(), 1);
        QVERIFY2(page->lastProblems().isEmpty(), qPrintable(page->lastProblems()));

        const Result<traces::TraceRank> rank = traces::loadTrace(path.toStdString());
        QVERIFY(rank.ok());
        const traces::TraceRankAnalysis expected = traces::analyseRank(*rank);
        const LoadedTrace *shown = page->session()->current();
        QVERIFY(shown);
        QCOMPARE(shown->rank.kernels.size(), rank->kernels.size());

        // Timeline: every GPU activity, one row per stream plus the ProfilerStep row.
        const auto *layer = dynamic_cast<const TraceTimelineLayer *>(page->timelineChart()->data().layer.get());
        QVERIFY(layer);
        QCOMPARE(layer->kernelCount(), rank->kernels.size());
        QVERIFY(layer->rowLabels().size() >= 2);
        QCOMPARE(page->timelineChart()->toCsv().count(QLatin1Char('\n')), qsizetype(rank->kernels.size()) + 1);

        // Breakdown bars: analyseRank's seconds per step, in ms.
        const ChartData &bars = page->breakdownChart()->data();
        QCOMPARE(bars.series.size(), qsizetype(5));
        QCOMPARE(bars.categories.size(), qsizetype(expected.steps.size()));
        for (std::size_t s = 0; s < expected.steps.size(); ++s) {
            const traces::TraceTimeBreakdown &b = expected.steps[s].breakdown;
            const double want[] = {b.compute_seconds, b.communication_seconds, b.memcpy_seconds,
                                   b.idle_host_bound_seconds, b.idle_waiting_seconds};
            double sum = 0;
            for (int i = 0; i < 5; ++i) {
                QCOMPARE(bars.series[i].y[qsizetype(s)], want[i] * 1e3);
                sum += bars.series[i].y[qsizetype(s)];
            }
            QVERIFY(std::abs(sum - b.window_seconds * 1e3) < 1e-6 * std::max(1.0, b.window_seconds * 1e3));
        }
        // Tables: the top kernels and the operators, as core lists them.
        QCOMPARE(page->kernelTable()->rowCount(), int(expected.top_kernels.size()));
        QCOMPARE(page->operatorTable()->rowCount(), int(expected.operators.size()));
        QCOMPARE(page->kernelTable()->item(0, 0)->text(), QString::fromStdString(expected.top_kernels.front().name));
        QCOMPARE(page->charts().size(), qsizetype(3));
    }

    void timelineTooltipNamesTheKernelUnderTheCursor()
    {
        auto page = pageWith({tracePath("sampled_rank-0.json.gz")});
        page->show();
        ChartView *chart = page->timelineChart();
        QCustomPlot *plot = chart->plot();
        plot->replot();
        const auto *layer = dynamic_cast<const TraceTimelineLayer *>(chart->data().layer.get());
        QVERIFY(layer);
        const traces::TraceRank &rank = page->session()->current()->rank;
        // The longest kernel: wide enough to hit at the home view.
        std::size_t longest = 0;
        for (std::size_t i = 0; i < rank.kernels.size(); ++i)
            if (rank.kernels[i].duration_us > rank.kernels[longest].duration_us)
                longest = i;
        const traces::TraceKernel &k = rank.kernels[longest];
        const QPointF pixel(plot->xAxis->coordToPixel((k.start_us + k.duration_us / 2) / 1000.0),
                            plot->yAxis->coordToPixel(layer->rowOfKernel(longest)));
        const QString tip = chart->toolTipAt(pixel);
        QVERIFY2(tip.contains(QString::fromStdString(rank.text(k.name)).left(40).toHtmlEscaped()), qPrintable(tip));
    }

    // A CPU-only trace (the committed PyTorch CPU profile of the reference architecture): no GPU
    // rows, but per thread a row of the top-level operators (parent -1) and one of those one level
    // in; every top-level operator is a bar there, hovering one names it, the CSV lists them.
    void cpuOnlyTraceShowsItsOperatorsPerThread()
    {
        auto page = pageWith({QStringLiteral(LSE_SOURCE_DIR "/tests/data/traces/torch-cpu/reference_tiny_cpu.json.gz")});
        page->show();
        const traces::TraceRank &rank = page->session()->current()->rank;
        QVERIFY(!rank.hasGpu());
        ChartView *chart = page->timelineChart();
        QCustomPlot *plot = chart->plot();
        plot->replot();
        const auto *layer = dynamic_cast<const TraceTimelineLayer *>(chart->data().layer.get());
        QVERIFY(layer);
        const int top_row = int(layer->rowLabels().indexOf(QStringLiteral("CPU thread 1 · top level")));
        const int inner_row = int(layer->rowLabels().indexOf(QStringLiteral("CPU thread 1 · one level in")));
        QVERIFY2(top_row >= 0 && inner_row >= 0, qPrintable(layer->rowLabels().join('|')));
        std::size_t top = 0, inner = 0, longest = 0;
        for (std::size_t i = 0; i < rank.cpu_ops.size(); ++i) {
            const traces::TraceCpuOp &op = rank.cpu_ops[i];
            const bool is_top = op.parent < 0;
            const bool is_inner = !is_top && rank.cpu_ops[std::size_t(op.parent)].parent < 0;
            QCOMPARE(layer->rowOfCpuOp(i), is_top ? top_row : (is_inner ? inner_row : -1));
            top += is_top;
            inner += is_inner;
            if (is_top && op.duration_us > rank.cpu_ops[longest].duration_us)
                longest = i;
        }
        QVERIFY(top > 100);
        QCOMPARE(layer->cpuOpCount(), top + inner);
        QVERIFY(chart->data().title.contains(QStringLiteral("CPU only")));

        const traces::TraceCpuOp &op = rank.cpu_ops[longest];
        const QPointF pixel(plot->xAxis->coordToPixel((op.start_us + op.duration_us / 2) / 1000.0),
                            plot->yAxis->coordToPixel(top_row));
        QCOMPARE(layer->cpuOpAt(plot, pixel), std::ptrdiff_t(longest));
        const QString tip = chart->toolTipAt(pixel);
        QVERIFY2(tip.contains(QString::fromStdString(rank.text(op.name)).left(40).toHtmlEscaped()), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("class: ")) && tip.contains(QStringLiteral("CPU thread 1")), qPrintable(tip));

        const QString csv = chart->toCsv();
        QCOMPARE(csv.count(QLatin1Char('\n')), qsizetype(top + inner) + 1);
        QCOMPARE(csv.count(QStringLiteral("\"CPU thread 1 · top level\",")), qsizetype(top));
    }

    // Our own distributed export's shape: operators with a recorded class and FLOPs on thread 1,
    // the collectives on thread 2. The communication thread's row says so and its bars are
    // communication; a matmul's hover gives its FLOPs and achieved rate.
    void cpuTraceColoursOurCommunicationThread()
    {
        const QByteArray json = R"({"traceEvents":[
 {"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":0,"tid":1,"ts":0,"dur":1000},
 {"ph":"X","cat":"user_annotation","name":"forward","pid":0,"tid":1,"ts":0,"dur":600},
 {"ph":"X","cat":"cpu_op","name":"mlp_up","pid":0,"tid":1,"ts":10,"dur":400,
  "args":{"class":"matmul","shape":"[256, 128] x [128, 768]","flops":50331648,"bytes":1000}},
 {"ph":"X","cat":"cpu_op","name":"all_reduce","pid":0,"tid":2,"ts":600,"dur":300,
  "args":{"class":"communication","bytes":4096}}]})";
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("ours.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(json);
        file.close();
        auto page = pageWith({path});
        page->show();
        ChartView *chart = page->timelineChart();
        QCustomPlot *plot = chart->plot();
        plot->replot();
        const auto *layer = dynamic_cast<const TraceTimelineLayer *>(chart->data().layer.get());
        QVERIFY(layer);
        QCOMPARE(layer->rowLabels(), (QStringList{QStringLiteral("CPU: ProfilerStep"), QStringLiteral("CPU thread 1 · top level"),
                                                  QStringLiteral("CPU thread 1 · one level in"),
                                                  QStringLiteral("CPU thread 2 · communication")}));
        QCOMPARE(layer->cpuOpCount(), std::size_t(3));
        QString legend;
        for (int i = 0; i < plot->plottableCount(); ++i)
            legend += plot->plottable(i)->name() + QLatin1Char('|');
        QVERIFY2(legend.contains(QStringLiteral("communication|")) && legend.contains(QStringLiteral("GEMM|")), qPrintable(legend));
        const QString tip = chart->toolTipAt(QPointF(plot->xAxis->coordToPixel(0.2), plot->yAxis->coordToPixel(2)));
        QVERIFY2(tip.contains(QStringLiteral("mlp_up")) && tip.contains(QStringLiteral("GFLOP/s")), qPrintable(tip));
        const QString comm = chart->toolTipAt(QPointF(plot->xAxis->coordToPixel(0.75), plot->yAxis->coordToPixel(3)));
        QVERIFY2(comm.contains(QStringLiteral("all_reduce")) && comm.contains(QStringLiteral("communication")), qPrintable(comm));
        QVERIFY(chart->toCsv().contains(QStringLiteral("\"CPU thread 2 · communication\",\"all_reduce\",communication,")));
    }

    // A GPU trace draws its CPU operator rows only when asked (the "CPU operators" check box): they
    // come above the streams, and the kernels keep their bars and tooltips.
    void gpuTraceShowsCpuRowsWhenAsked()
    {
        auto page = pageWith({tracePath("sampled_rank-0.json.gz")});
        page->show();
        QVERIFY(!page->cpuRowsCheck()->isHidden());
        QVERIFY(!page->cpuRowsCheck()->isChecked());
        ChartView *chart = page->timelineChart();
        QCOMPARE(dynamic_cast<const TraceTimelineLayer *>(chart->data().layer.get())->cpuOpCount(), std::size_t(0));
        page->cpuRowsCheck()->setChecked(true);
        const auto *layer = dynamic_cast<const TraceTimelineLayer *>(chart->data().layer.get());
        QVERIFY(layer);
        const traces::TraceRank &rank = page->session()->current()->rank;
        QVERIFY(layer->cpuOpCount() > 0);
        QCOMPARE(layer->kernelCount(), rank.kernels.size());
        QCOMPARE(chart->toCsv().count(QLatin1Char('\n')), qsizetype(rank.kernels.size() + layer->cpuOpCount()) + 1);
        QCustomPlot *plot = chart->plot();
        plot->replot();
        std::size_t longest = 0;
        for (std::size_t i = 0; i < rank.kernels.size(); ++i)
            if (rank.kernels[i].duration_us > rank.kernels[longest].duration_us)
                longest = i;
        const traces::TraceKernel &k = rank.kernels[longest];
        const QPointF pixel(plot->xAxis->coordToPixel((k.start_us + k.duration_us / 2) / 1000.0),
                            plot->yAxis->coordToPixel(layer->rowOfKernel(longest)));
        QVERIFY(chart->toolTipAt(pixel).contains(QString::fromStdString(rank.text(k.name)).left(40).toHtmlEscaped()));
        // A CPU-only trace has no such choice: its CPU rows are its timeline.
        page->openFiles({QStringLiteral(LSE_SOURCE_DIR "/tests/data/traces/torch-cpu/reference_tiny_cpu.json.gz")});
        QVERIFY(waitForLoad(*page));
        QVERIFY(page->cpuRowsCheck()->isHidden());
    }

    void severalFilesGiveARankSelector()
    {
        auto page = pageWith({tracePath("sampled_rank-0.json.gz"), tracePath("sampled_rank-1.json.gz")});
        QCOMPARE(page->session()->rankCount(), 2);
        QCOMPARE(page->rankBox()->count(), 2);
        page->rankBox()->setCurrentIndex(1);
        QCOMPARE(page->session()->currentRank(), 1);
        QCOMPARE(page->session()->current()->rank.rank, 1);
        QCOMPARE(page->lessonSettings().value(QStringLiteral("rank")).toInt(), 1);
    }

    void cancelKeepsThePreviousTrace()
    {
        auto page = pageWith({tracePath("alexnet_a100.json.gz")});
        const LoadedTraces before = page->session()->traces();
        page->openFiles({tracePath("nccl_data_a100.json.gz")});
        page->cancelLoad();
        QVERIFY(waitForLoad(*page));
        QCOMPARE(page->session()->traces(), before);
        QVERIFY2(page->lastProblems().contains(QStringLiteral("cancelled")), qPrintable(page->lastProblems()));
        QVERIFY(!page->problemLabel()->isHidden());
    }

    void brokenFileNamesEventAndFieldAndKeepsThePreviousTrace()
    {
        auto page = pageWith({tracePath("alexnet_a100.json.gz")});
        const LoadedTraces before = page->session()->traces();
        QTemporaryDir dir;
        const QString broken = dir.filePath(QStringLiteral("broken.json"));
        QFile file(broken);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"traceEvents":[{"ph":"X","cat":"kernel","name":"k","ts":1,"dur":5,"pid":0,"tid":7},)"
                   R"({"ph":"X","cat":"kernel","name":"k2","ts":10,"dur":"long","pid":0,"tid":7}]})");
        file.close();
        page->openFiles({broken});
        QVERIFY(waitForLoad(*page));
        QCOMPARE(page->session()->traces(), before);
        QVERIFY2(page->lastProblems().contains(QStringLiteral("broken.json")), qPrintable(page->lastProblems()));
        QVERIFY2(page->lastProblems().contains(QStringLiteral("traceEvents[1]")), qPrintable(page->lastProblems()));
        QVERIFY2(page->lastProblems().contains(QStringLiteral("dur")), qPrintable(page->lastProblems()));
        // A missing file is a problem too, not a crash.
        page->openFiles({dir.filePath(QStringLiteral("absent.json"))});
        QVERIFY(waitForLoad(*page));
        QCOMPARE(page->session()->traces(), before);
        QVERIFY(page->lastProblems().contains(QStringLiteral("absent.json")));
    }

    void sampleOpensFromTheResources()
    {
        TracePage page;
        page.openSample();
        QVERIFY(waitForLoad(page));
        QVERIFY2(page.lastProblems().isEmpty(), qPrintable(page.lastProblems()));
        QVERIFY(!page.session()->isEmpty());
        QVERIFY(page.session()->current()->rank.hasGpu());
        QVERIFY(page.lessonSettings().value(QStringLiteral("sample")).toBool());
    }

    void chartsExport()
    {
        auto page = pageWith({tracePath("sampled_rank-0.json.gz")});
        QTemporaryDir dir;
        for (ChartView *chart : page->charts()) {
            QString error;
            QVERIFY2(chart->exportAll(dir.path(), &error), qPrintable(error));
            QVERIFY(QFile::exists(dir.filePath(chart->id() + QStringLiteral(".csv"))));
            QVERIFY(QFile::exists(dir.filePath(chart->id() + QStringLiteral(".png"))));
        }
    }

    void lessonSettingsRefuseBadValues()
    {
        TracePage page;
        QString error;
        QVERIFY(!page.applyLessonSettings({{QStringLiteral("zoom"), 2}}, &error));
        QVERIFY(error.startsWith(QStringLiteral("zoom")));
        QVERIFY(!page.applyLessonSettings({{QStringLiteral("tab"), QStringLiteral("flames")}}, &error));
        QVERIFY(error.startsWith(QStringLiteral("tab")));
        QVERIFY(!page.applyLessonSettings({{QStringLiteral("rank"), -1}}, &error));
        QVERIFY(page.applyLessonSettings({{QStringLiteral("tab"), QStringLiteral("kernels")}}, &error));
        QCOMPARE(page.lessonSettings().value(QStringLiteral("tab")).toString(), QStringLiteral("kernels"));
    }

    // The Qwen1.5-0.5B forward pass on an H100 (TraceLens's trace) beside its scenario: the GEMM
    // calls on the trace's own device and the step's comparison are core's, the MissingTime bars sum
    // to the measured step, and the Roofline overlay names a GEMM point's predicted counterpart.
    void measuredVsPredictedIsCoresComparison()
    {
        const QString dir = QStringLiteral(LSE_SOURCE_DIR "/tests/data/traces/tracelens-h100/");
        const QString trace_path = dir + QStringLiteral("qwen1.5-0.5b_h100_forward.json.gz");
        const Result<Scenario> scenario =
            loadScenarioFile((dir + QStringLiteral("qwen1.5-0.5b_h100_forward.scenario.json")).toStdString());
        QVERIFY(scenario.ok());
        const Result<Estimate> estimate = lse::estimate(*scenario);
        QVERIFY(estimate.ok());
        auto page = pageWith({trace_path});
        page->showEstimate(*scenario, *estimate);
        TracePredictionSection *section = page->predictionSection();
        QCOMPARE(section->acceleratorChoice(), QStringLiteral("trace"));
        QVERIFY2(section->gemms().has_value(), qPrintable(section->gemmProblem()));

        const traces::TraceRank &rank = page->session()->current()->rank;
        const Accelerator *h100 = traces::acceleratorForDeviceName(rank.device_name, builtinHardwareCatalog());
        QVERIFY(h100);
        const Result<traces::GemmPredictionSummary> gemms = traces::predictTraceGemms(rank, *h100);
        QVERIFY(gemms.ok());
        QCOMPARE(section->gemms()->calls, gemms->calls);
        QCOMPARE(section->gemms()->median_ratio, gemms->median_ratio);
        QCOMPARE(section->gemmTable()->rowCount(), int(gemms->rows.size()));
        QVERIFY(page->session()->gemmPrediction());

        QVERIFY(!section->comparison());
        QString error;
        QVERIFY(page->applyLessonSettings({{QStringLiteral("tab"), QStringLiteral("prediction")},
                                           {QStringLiteral("compare"), true}},
                                          &error));
        QVERIFY2(section->comparison().has_value(), qPrintable(section->comparisonProblem()));
        const Result<traces::TraceVsPrediction> compared = traces::compareWithPrediction(
            rank, page->session()->current()->analysis, *scenario, traces::detectComparedPass(rank));
        QVERIFY(compared.ok());
        QCOMPARE(section->comparison()->measured_step_seconds, compared->measured_step_seconds);
        QCOMPARE(section->comparison()->predicted_step_seconds, compared->predicted_step_seconds);
        const ChartData &missing = section->missingTimeChart()->data();
        QCOMPARE(missing.series.size(), qsizetype(1));
        double sum = 0;
        for (double y : missing.series.front().y)
            sum += y;
        QVERIFY(std::abs(sum - compared->missing_time.measured_step_seconds * 1e3) <
                1e-6 * compared->missing_time.measured_step_seconds * 1e3);
        QCOMPARE(section->operatorTable()->rowCount(),
                 int(compared->operators.size() + compared->missing_in_trace.size()));
        QCOMPARE(page->charts().size(), qsizetype(6));
        QVERIFY(!page->applyLessonSettings({{QStringLiteral("accelerator"), QStringLiteral("tpu-v9")}}, &error));
        QVERIFY(error.startsWith(QStringLiteral("accelerator")));

        // The overlay's GEMM points name their predicted call.
        RooflinePage roofline;
        roofline.showEstimate(*scenario, *estimate);
        roofline.setTraceSession(page->session());
        bool named = false;
        for (qsizetype i = 0; i < 2000 && !named; ++i) {
            roofline.showTracePoint(i);
            named = roofline.tracePointLabel()->text().contains(QStringLiteral("µs per call"));
        }
        QVERIFY(named);

        if (const QByteArray shot = qgetenv("LSE_TRACE_PAGE_SCREENSHOT"); !shot.isEmpty()) {
            // A look at every tab (the app's --page shows the first): SHOT, SHOT-0.png … SHOT-3.png.
            page->resize(1100, 1000);
            page->show();
            QTest::qWait(200);
            page->grab().save(QString::fromLocal8Bit(shot));
            for (int tab = 0; tab < page->tabs()->count(); ++tab) {
                page->tabs()->setCurrentIndex(tab);
                QTest::qWait(100);
                page->grab().save(QString::fromLocal8Bit(shot) + QStringLiteral("-%1.png").arg(tab));
            }
            if (auto *area = section->findChild<QScrollArea *>())
                area->widget()->grab().save(QString::fromLocal8Bit(shot) + QStringLiteral("-prediction-all.png"));
        }
    }

    // 100k kernels: read, drawn and hovered without per-kernel items (one plottable per class draws
    // the visible bars, merged below a pixel). The bound is loose: it catches a per-kernel QCPItem
    // or a quadratic search, not a slow machine.
    void hundredThousandKernelsStayFast()
    {
        QByteArray json = "{\"traceEvents\":[";
        const char *names[] = {"ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_tn", "vectorized_elementwise_kernel",
                               "ncclKernel_AllReduce_RING_LL_Sum_float", "reduce_kernel"};
        double t = 1000;
        for (int i = 0; i < 100000; ++i) {
            const double d = 2 + (i * 7919 % 37);
            json += QStringLiteral("%1{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"%2\",\"pid\":0,\"tid\":%3,"
                                   "\"ts\":%4,\"dur\":%5,\"args\":{\"device\":0,\"stream\":%3}}")
                        .arg(i ? QStringLiteral(",") : QString(), QLatin1String(names[i % 4]))
                        .arg(7 + i % 4)
                        .arg(t, 0, 'f', 3)
                        .arg(d, 0, 'f', 3)
                        .toLatin1();
            t += d * 0.3;
        }
        json += "]}";
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(json);
        file.close();

        auto page = pageWith({path});
        QCOMPARE(page->session()->current()->rank.kernels.size(), std::size_t(100000));
        page->show();
        ChartView *chart = page->timelineChart();
        QCustomPlot *plot = chart->plot();
        QElapsedTimer timer;
        timer.start();
        for (int i = 0; i < 5; ++i) {
            plot->xAxis->scaleRange(0.5);  // zoom in, as the wheel does
            plot->replot(QCustomPlot::rpImmediateRefresh);
        }
        chart->toolTipAt(QPointF(plot->axisRect()->center()));
        // A rate, not a limit (speed targets are benchmarks): printed for the record.
        qInfo("5 zooms and a tooltip over 100,000 kernels: %lld ms", timer.elapsed());
        QCOMPARE(plot->plottableCount(), 4);  // one per class present: GEMM, element-wise, NCCL, reduction
    }

    void rooflineOverlayHasOnePointPerKernelWithFlops()
    {
        auto trace_page = pageWith({tracePath("sampled_rank-0.json.gz")});
        RooflinePage roofline;
        roofline.resize(1280, 900);
        const Scenario scenario = defaultScenario();
        const Result<Estimate> estimate = lse::estimate(scenario);
        QVERIFY(estimate.ok());
        roofline.showEstimate(scenario, *estimate);
        QVERIFY(roofline.traceSeriesName().isEmpty());
        roofline.setTraceSession(trace_page->session());
        QVERIFY(!roofline.traceCheck()->isHidden());

        const traces::TraceRank &rank = trace_page->session()->current()->rank;
        qsizetype expected = 0;
        for (const traces::TraceKernel &k : rank.kernels)
            if (k.flops > 0 && k.bytes > 0 && k.duration_us > 0)
                ++expected;
        QVERIFY(expected > 0);
        const QString name = roofline.traceSeriesName();
        QVERIFY(!name.isEmpty());
        const ChartSeries *series = nullptr;
        for (const ChartSeries &s : roofline.acceleratorChart()->data().series)
            if (s.name == name)
                series = &s;
        QVERIFY(series);
        QCOMPARE(series->x.size(), expected);
        QVERIFY(series->point_tooltip);
        QVERIFY(!series->point_tooltip(0).isEmpty());

        roofline.showTracePoint(0);
        QVERIFY(roofline.tracePointLabel()->text().contains(QStringLiteral("Your trace")));

        roofline.traceCheck()->setChecked(false);
        QVERIFY(roofline.traceSeriesName().isEmpty());
        QVERIFY(roofline.tracePointLabel()->text().isEmpty());
        roofline.traceCheck()->setChecked(true);
        // A new load replaces the points; a trace without shapes has none.
        trace_page->openFiles({tracePath("alexnet_a100.json.gz")});
        QVERIFY(waitForLoad(*trace_page));
        const QString after = roofline.traceSeriesName();
        for (const ChartSeries &s : roofline.acceleratorChart()->data().series)
            QVERIFY(s.name != name);
        Q_UNUSED(after);
    }
};

QTEST_MAIN(TestTracePage)
#include "test_trace_page.moc"
