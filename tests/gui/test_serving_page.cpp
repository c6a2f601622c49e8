// SPDX-License-Identifier: GPL-3.0-or-later
// The Serving page offscreen: its cards show core/inference's serve() for the default scenario
// (inputs built here, not read back from the page), a batch change recomputes them, a change of
// the accelerator is one undoable scenario edit, every chart exports, and bad or extreme inputs
// (a batch beyond memory, a model that does not fit, a tp that does not divide the heads, a GPU
// count that is no multiple of tp × pp, fp8 on a GPU without FP8) show a message instead of crashing.
// The "This CPU" section runs the reference model in the background: one table row per batch with
// measured and predicted figures, its charts listed for export once they have data, Cancel stops
// it, and destroying the page mid-run does not crash.

#include "../cpu_kernel_fixture.h"
#include "charts/chart_view.h"
#include "document/scenario_document.h"
#include "hardware/hardware_catalog.h"
#include "inference/serving_model.h"
#include "main_window.h"
#include "pages/page_format.h"
#include "pages/parallel/layout/duration_format.h"
#include "pages/serving/cpu_measurement_section.h"
#include "pages/serving/serving_card.h"
#include "pages/serving/serving_page.h"
#include "scenario/presets.h"
#include "scenario/scenario_json.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QJsonObject>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <memory>

using namespace lse;
using namespace lse::gui;
using namespace lse::inference;

namespace {

std::unique_ptr<ServingPage> shownPage(const Scenario &scenario = defaultScenario())
{
    auto page = std::make_unique<ServingPage>();
    page->resize(1280, 900);
    const Result<Estimate> estimate = lse::estimate(scenario);
    if (!estimate)
        qFatal("the test scenario is invalid");
    page->showEstimate(scenario, *estimate);
    return page;
}

// The page's defaults for a scenario, spelled out: one replica of the scenario's tp, pp 1, batch 1,
// 512 prompt and 128 output tokens, the scenario's formats (bf16 for the default), FlashAttention.
ServingInputs defaultInputs(const Scenario &scenario)
{
    ServingInputs inputs;
    inputs.scenario = scenario;
    inputs.tp = scenario.training.parallel.tp;
    inputs.pp = 1;
    inputs.replicas = 1;
    inputs.batch = 1;
    inputs.prompt_tokens = 512;
    inputs.output_tokens = 128;
    inputs.weights = inputs.activations = inputs.kv_cache = ServingFormat::BF16;
    inputs.flash_attention = true;
    return inputs;
}

template <typename Widget>
Widget *child(QWidget &parent, const char *name)
{
    Widget *widget = parent.findChild<Widget *>(QLatin1String(name));
    if (widget == nullptr)
        qFatal("no %s", name);
    return widget;
}

// A short run of the tiny preset with given kernel factors (no measurement of this CPU, no cache).
void useShortCpuRun(CpuMeasurementSection &section, std::vector<int> batches, int output_tokens)
{
    section.request().batches = std::move(batches);
    section.request().prompt_tokens = 8;
    section.request().output_tokens = output_tokens;
    section.request().given_kernels = test::givenCpuKernelFactors(1, 20e9, 4e9, 2e9, "2026-12-01T10:00:00Z");
    section.presetBox()->setCurrentIndex(section.presetBox()->findData(QStringLiteral("tiny")));
}

bool listsChart(const ServingPage &page, const char *id)
{
    for (ChartView *chart : page.charts())
        if (chart->id() == QLatin1String(id))
            return true;
    return false;
}

}  // namespace

class TestServingPage : public QObject {
    Q_OBJECT
private slots:
    void defaultScenarioShowsCoresFigures()
    {
        const Scenario scenario = defaultScenario();
        const Result<ServingReport> expected = serve(defaultInputs(scenario));
        QVERIFY(expected.ok());
        auto page = shownPage(scenario);
        QVERIFY(page->report().has_value());
        QCOMPARE(page->report()->ttft_seconds, expected->ttft_seconds);
        QCOMPARE(page->report()->tpot_seconds, expected->tpot_seconds);
        QCOMPARE(page->report()->max_batch, expected->max_batch);
        QCOMPARE(page->card("serving.ttft")->value(), format::duration(expected->ttft_seconds));
        QCOMPARE(page->card("serving.tpot")->value(), format::duration(expected->tpot_seconds));
        QCOMPARE(page->card("serving.maxBatch")->value(), format::integer(expected->max_batch));
        QCOMPARE(page->card("serving.fits")->value(), QStringLiteral("fits"));
        // Llama 2 70B in bf16 over tp 8: 17.25 GB of weights per GPU leave room for hundreds of
        // sequences of 640 tokens on an 80 GB H100 (CLI: infer --tp 8 --sweep batch).
        QVERIFY(expected->max_batch > 100);
        // The breakdown lists core's non-zero parts and their sum, the end-to-end time.
        int parts = 0;
        for (const ServingPart &part : expected->breakdown)
            parts += part.seconds > 0 ? 1 : 0;
        QCOMPARE(page->breakdownTable()->rowCount(), parts + 1);
        QVERIFY(!page->breakdownTable()->item(0, 0)->toolTip().isEmpty());
        QCOMPARE(page->quantisationTable()->rowCount(), 3);
    }

    void batchChangeUpdatesTheCards()
    {
        auto page = shownPage();
        QSignalSpy changed(page.get(), &ServingPage::servingChanged);
        const QString before = page->card("serving.ttft")->value();
        child<QSpinBox>(*page, "serving.batch")->setValue(16);
        QCOMPARE(changed.count(), 1);
        ServingInputs inputs = defaultInputs(defaultScenario());
        inputs.batch = 16;
        const Result<ServingReport> expected = serve(inputs);
        QVERIFY(expected.ok());
        QCOMPARE(page->card("serving.ttft")->value(), format::duration(expected->ttft_seconds));
        QVERIFY(page->card("serving.ttft")->value() != before);
        QCOMPARE(page->report()->output_tokens_per_second_per_gpu, expected->output_tokens_per_second_per_gpu);
    }

    void acceleratorChangeIsOneUndoStep()
    {
        MainWindow window(false);
        QVERIFY(window.selectPage(QStringLiteral("serving")));
        auto *page = qobject_cast<ServingPage *>(window.page(QStringLiteral("serving")));
        QVERIFY(page);
        QUndoStack *stack = window.document()->undoStack();
        const int steps = stack->count();
        auto *box = child<QComboBox>(*page, "serving.accelerator");
        QCOMPARE(box->currentData().toString(), QStringLiteral("h100-sxm"));
        const double h100_tpot = page->report()->tpot_seconds;
        const int a100 = box->findData(QStringLiteral("a100-sxm-80gb"));
        QVERIFY(a100 >= 0);
        box->setCurrentIndex(a100);
        emit box->activated(a100);
        QCOMPARE(stack->count(), steps + 1);
        QCOMPARE(window.document()->scenario().cluster.accelerator.id, std::string("a100-sxm-80gb"));
        QCOMPARE(page->report()->inputs.scenario.cluster.accelerator.id, std::string("a100-sxm-80gb"));
        QVERIFY(page->report()->tpot_seconds > h100_tpot);  // 2.04 TB/s instead of 3.35 TB/s
        stack->undo();
        QCOMPARE(window.document()->scenario().cluster.accelerator.id, std::string("h100-sxm"));
        QCOMPARE(box->currentData().toString(), QStringLiteral("h100-sxm"));
        QCOMPARE(page->report()->tpot_seconds, h100_tpot);
    }

    void chartsExport()
    {
        auto page = shownPage();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QCOMPARE(page->charts().size(), 5);
        for (ChartView *chart : page->charts()) {
            QVERIFY2(!chart->data().series.isEmpty(), qPrintable(chart->id()));
            QString error;
            QVERIFY2(chart->exportAll(dir.path(), &error), qPrintable(error));
            for (const char *extension : {".png", ".pdf", ".svg", ".csv"})
                QVERIFY2(QFileInfo(dir.filePath(chart->id() + QLatin1String(extension))).size() > 0,
                         qPrintable(chart->id() + QLatin1String(extension)));
        }
    }

    void batchBeyondMemoryIsReported()
    {
        auto page = shownPage();
        const std::int64_t max_batch = page->report()->max_batch;
        child<QSpinBox>(*page, "serving.batch")->setValue(int(max_batch + 1));
        QVERIFY(page->report().has_value());
        QVERIFY(!page->report()->memory.fits);
        QCOMPARE(page->card("serving.fits")->value(), QStringLiteral("does not fit"));
        QVERIFY2(page->statusLabel()->text().contains(QStringLiteral("does not fit")), qPrintable(page->statusLabel()->text()));
        QVERIFY(page->statusLabel()->text().contains(format::integer(max_batch)));
    }

    void modelThatDoesNotFitIsReported()
    {
        auto page = shownPage();
        // 70B parameters in bf16 are 138 GB: one 80 GB GPU cannot hold them.
        child<QSpinBox>(*page, "serving.tp")->setValue(1);
        QCOMPARE(child<QSpinBox>(*page, "serving.gpus")->value(), 8);  // still a multiple of tp × pp
        child<QSpinBox>(*page, "serving.gpus")->setValue(1);
        QVERIFY(page->report().has_value());
        QCOMPARE(page->report()->max_batch, std::int64_t(0));
        QCOMPARE(page->card("serving.maxBatch")->value(), QStringLiteral("none"));
        QVERIFY2(page->statusLabel()->text().contains(QStringLiteral("does not fit even at batch 1")),
                 qPrintable(page->statusLabel()->text()));
        // The charts without data are left out of export-all; the memory bars and rooflines stay.
        QCOMPARE(page->charts().size(), 4);
        for (ChartView *chart : page->findChildren<ChartView *>())
            QVERIFY(!chart->data().title.isEmpty());
    }

    void badInputsShowAMessage_data()
    {
        QTest::addColumn<QString>("control");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("tp does not divide the heads") << "serving.tp" << "3" << "attention heads";
        QTest::newRow("GPUs no multiple of tp x pp") << "serving.gpus" << "12" << "not a multiple of tp × pp";
        QTest::newRow("pp beyond the layers") << "serving.pp" << "81" << "layers";
        QTest::newRow("fp8 activations on an A100") << "serving.activations" << "fp8" << "FP8";
    }
    void badInputsShowAMessage()
    {
        QFETCH(QString, control);
        QFETCH(QString, value);
        QFETCH(QString, message);
        Scenario scenario = defaultScenario();
        if (value == QLatin1String("fp8"))
            scenario.cluster.accelerator = *builtinHardwareCatalog().find("a100-sxm-80gb");
        auto page = shownPage(scenario);
        if (auto *spin = page->findChild<QSpinBox *>(control))
            spin->setValue(value.toInt());
        else
            child<QComboBox>(*page, qPrintable(control))->setCurrentIndex(
                child<QComboBox>(*page, qPrintable(control))->findData(value));
        QVERIFY(!page->report().has_value());
        QVERIFY2(page->problemText().contains(message), qPrintable(page->problemText()));
        QVERIFY(page->statusLabel()->text().contains(QStringLiteral("Cannot serve this")));
        QCOMPARE(page->card("serving.ttft")->value(), QStringLiteral("–"));
        QVERIFY(page->charts().isEmpty());  // nothing to export
        for (ChartView *chart : page->findChildren<ChartView *>())
            QVERIFY2(!chart->data().title.isEmpty(), qPrintable(chart->id()));
    }

    void lessonSettingsRoundTripAndRefuseBadValues()
    {
        auto page = shownPage();
        QString error;
        const QJsonObject settings{{"batch", 32},           {"prompt_tokens", 1024}, {"weights", "int4"},
                                   {"kv_cache", "fp8"},     {"decode_attention", "per-query-head"},
                                   {"draft_model", "none"}, {"acceptance", 0.6}};
        QVERIFY2(page->applyLessonSettings(settings, &error), qPrintable(error));
        const QJsonObject read = page->lessonSettings();
        for (auto it = settings.begin(); it != settings.end(); ++it)
            QCOMPARE(read.value(it.key()), it.value());
        QVERIFY(page->report()->inputs.weights == ServingFormat::INT4);
        QVERIFY(page->report()->inputs.kv_cache_read_per_query_head);
        QVERIFY(!page->applyLessonSettings(QJsonObject{{"weights", "int3"}}, &error));
        QVERIFY2(error.contains(QStringLiteral("weights")), qPrintable(error));
        QVERIFY(!page->applyLessonSettings(QJsonObject{{"decode_attention", "sometimes"}}, &error));
        QVERIFY(!page->applyLessonSettings(QJsonObject{{"colour", "red"}}, &error));
        QCOMPARE(page->lessonSettings().value("weights").toString(), QStringLiteral("int4"));
    }

    void speculativeSpeedupComesFromTheDraft()
    {
        auto page = shownPage();
        // The default draft of Llama 2 70B: the smallest preset with its 32,000-token vocabulary.
        QCOMPARE(child<QComboBox>(*page, "serving.draftModel")->currentData().toString(), QStringLiteral("llama-2-7b"));
        ServingInputs inputs = defaultInputs(defaultScenario());
        inputs.speculative = SpeculativeInputs{findModelPreset("llama-2-7b")->model, 4, 0.8};
        const Result<ServingReport> expected = serve(inputs);
        QVERIFY(expected.ok() && expected->speculative);
        ChartView *chart = nullptr;
        for (ChartView *view : page->charts())
            if (view->id() == QLatin1String("serving-speculative-speedup"))
                chart = view;
        QVERIFY(chart);
        const ChartSeries &chosen = chart->data().series.back();
        QCOMPARE(chosen.x.front(), 0.8);
        QCOMPARE(chosen.y.front(), expected->speculative->speedup);
        QVERIFY(page->card("serving.tpot")->detail().contains(format::duration(expected->speculative->tpot_seconds)));
    }

    void cpuRunFillsOneRowPerBatch()
    {
        auto page = shownPage();
        CpuMeasurementSection *section = page->cpuSection();
        QVERIFY(section->statusLabel()->text().contains(QStringLiteral("Press Start")));
        QVERIFY(!listsChart(*page, "serving-cpu-decode"));  // no data yet: not exported
        QString error;
        QVERIFY2(page->applyLessonSettings(QJsonObject{{"cpu_preset", "small"}}, &error), qPrintable(error));
        QCOMPARE(section->presetBox()->currentData().toString(), QStringLiteral("small"));
        QVERIFY(!page->applyLessonSettings(QJsonObject{{"cpu_preset", "huge"}}, &error));
        useShortCpuRun(*section, {1, 2, 4}, 4);
        section->startButton()->click();
        QVERIFY(section->runner()->isRunning());
        QVERIFY(!section->startButton()->isEnabled());
        QVERIFY(section->cancelButton()->isEnabled());
        QVERIFY(section->progressBar()->isVisibleTo(page.get()));
        QTRY_VERIFY_WITH_TIMEOUT(!section->runner()->isRunning(), 60000);
        QVERIFY(section->runner()->result());
        QVERIFY2(section->runner()->result()->error.isEmpty(), qPrintable(section->runner()->result()->error));
        QTableWidget *table = section->table();
        QCOMPARE(table->rowCount(), 3);
        const std::vector<reference::DecodeBenchmark> &rows = section->runner()->result()->rows;
        for (int r = 0; r < 3; ++r) {
            const reference::DecodeBenchmark &b = rows[std::size_t(r)];
            QCOMPARE(table->item(r, 0)->text(), QString::number(b.batch));
            QVERIFY(b.measured_prefill_seconds > 0);
            QVERIFY(b.measured_decode_tokens_per_second > 0);
            QVERIFY(b.prediction && b.prediction->prefill_seconds > 0 && b.prediction->decode_tokens_per_second > 0);
            for (int c = 1; c < table->columnCount(); ++c)
                QVERIFY2(table->item(r, c)->text() != QStringLiteral("–"), qPrintable(table->item(r, c)->text()));
            QCOMPARE(table->item(r, 1)->text(), format::decimal(b.measured_decode_tokens_per_second, 1));
        }
        QCOMPARE(rows[1].batch, 2);
        QVERIFY2(section->statusLabel()->text().contains(QStringLiteral("From batch 1 to 4")),
                 qPrintable(section->statusLabel()->text()));
        QVERIFY(!section->progressBar()->isVisibleTo(page.get()));
        QVERIFY(section->startButton()->isEnabled());
        QVERIFY(listsChart(*page, "serving-cpu-decode"));
        QVERIFY(listsChart(*page, "serving-cpu-prefill"));
        QTemporaryDir dir;
        for (ChartView *chart : page->charts())
            if (chart->id().startsWith(QLatin1String("serving-cpu-"))) {
                QCOMPARE(chart->data().series.size(), 2);  // measured and predicted
                QCOMPARE(chart->data().series.front().x.size(), 3);
                QVERIFY(chart->data().log_x);
                QString exportError;
                QVERIFY2(chart->exportAll(dir.path(), &exportError), qPrintable(exportError));
            }
    }

    void cpuRunCancelsAndSurvivesThePage()
    {
        auto page = shownPage();
        CpuMeasurementSection *section = page->cpuSection();
        useShortCpuRun(*section, {1, 8, 32}, 100);
        section->startButton()->click();
        section->cancelButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!section->runner()->isRunning(), 30000);
        QCOMPARE(section->runner()->result()->error, QStringLiteral("cancelled"));
        QVERIFY(section->table()->rowCount() < 3);
        QVERIFY(section->statusLabel()->text().contains(QStringLiteral("Cancelled")));
        QVERIFY(section->startButton()->isEnabled());

        // Destroying the page mid-run cancels the run and waits for its thread.
        QSignalSpy progress(section->runner(), &CpuDecodeRunner::progress);
        section->startButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!progress.isEmpty(), 10000);  // the first batch is generating
        QVERIFY(section->runner()->isRunning());
        page.reset();
    }
};

QTEST_MAIN(TestServingPage)
#include "test_serving_page.moc"
