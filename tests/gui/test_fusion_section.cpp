// SPDX-License-Identifier: GPL-3.0-or-later
// The "Kernel fusion" section offscreen, built directly: its bars and roofline points are
// kernels/fusionChain's for several shapes and accelerators, "Measure on this CPU" runs
// reference/measureFusion in the background (the GUI thread stays free; Cancel keeps the last
// result) and shows its figures beside the prediction, lesson settings round-trip, and refused
// inputs name the field. LSE_KERNEL_SECTIONS_SCREENSHOT=/tmp/x.png saves the section at
// 1024×768 as /tmp/x-fusion-*.png for a look.

#include "background_timeout.h"
#include "charts/chart_view.h"
#include "cost/estimate.h"
#include "hardware/hardware_catalog.h"
#include "main_window.h"
#include "pages/kernels/fusion_section.h"
#include "pages/page_format.h"
#include "scenario/scenario_json.h"
#include "theme.h"

#include <QApplication>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace lse;
using namespace lse::gui;

namespace {

Scenario scenarioOn(const std::string &accelerator_id)
{
    Scenario scenario = defaultScenario();
    const Accelerator *accelerator = builtinHardwareCatalog().find(accelerator_id);
    if (!accelerator)
        qFatal("no accelerator %s", accelerator_id.c_str());
    scenario.cluster.accelerator = *accelerator;
    return scenario;
}

void show(FusionSection &section, const Scenario &scenario)
{
    const Result<Estimate> estimate = lse::estimate(scenario);
    if (!estimate.ok())
        qFatal("the scenario does not estimate");
    section.showEstimate(scenario, *estimate);
}

kernels::FusionChainConfig configOf(std::int64_t tokens, std::int64_t width, DType dtype, bool training)
{
    kernels::FusionChainConfig c;
    c.tokens = tokens;
    c.width = width;
    c.dtype = dtype;
    c.training = training;
    return c;
}

const ChartSeries *seriesNamed(const ChartData &data, const QString &name)
{
    for (const ChartSeries &s : data.series)
        if (s.name == name)
            return &s;
    return nullptr;
}

}  // namespace

class TestFusionSection : public QObject {
    Q_OBJECT
private slots:
    void figuresAreCores_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<qint64>("tokens");
        QTest::addColumn<qint64>("width");
        QTest::addColumn<int>("dtype");
        QTest::addColumn<bool>("training");
        QTest::newRow("H100 bf16 8192x4096") << "h100-sxm" << qint64(8192) << qint64(4096) << int(DType::BF16) << false;
        QTest::newRow("H100 fp32 training") << "h100-sxm" << qint64(2048) << qint64(16384) << int(DType::FP32) << true;
        QTest::newRow("A100 fp16 small") << "a100-sxm-80gb" << qint64(7) << qint64(300) << int(DType::FP16) << false;
    }
    void figuresAreCores()
    {
        QFETCH(QString, gpu);
        QFETCH(qint64, tokens);
        QFETCH(qint64, width);
        QFETCH(int, dtype);
        QFETCH(bool, training);
        FusionSection section;
        const Scenario scenario = scenarioOn(gpu.toStdString());
        show(section, scenario);
        const kernels::FusionChainConfig config = configOf(tokens, width, DType(dtype), training);
        section.setConfig(config);
        const Result<kernels::FusionChain> expected = kernels::fusionChain(config, scenario.cluster.accelerator);
        QVERIFY(expected.ok());
        QVERIFY(section.chain().has_value());
        const kernels::FusionChain &f = *section.chain();
        QCOMPARE(f.unfused_bytes, expected->unfused_bytes);
        QCOMPARE(f.fused_bytes, expected->fused_bytes);
        QCOMPARE(f.fused_time.seconds, expected->fused_time.seconds);
        QVERIFY2(section.summaryText().contains(format::decimal(expected->speedup(), 2) + QStringLiteral("×")),
                 qPrintable(section.summaryText()));
        QVERIFY(section.summaryText().contains(format::bytes(expected->fused_bytes)));

        // Bytes bars: per operator, then the unfused total and the fused kernel (read + written stacked).
        const ChartData &bytes = section.bytesChart()->data();
        QCOMPARE(bytes.categories.size(), qsizetype(6));
        const ChartSeries *read = seriesNamed(bytes, QStringLiteral("read"));
        const ChartSeries *written = seriesNamed(bytes, QStringLiteral("written"));
        QVERIFY(read && written);
        for (std::size_t i = 0; i < expected->ops.size(); ++i) {
            QCOMPARE(read->y[qsizetype(i)], expected->ops[i].bytes_read / 1e6);
            QCOMPARE(written->y[qsizetype(i)], expected->ops[i].bytes_written / 1e6);
        }
        QCOMPARE(read->y[4] + written->y[4], expected->unfused_bytes / 1e6);
        QVERIFY(std::abs(read->y[5] + written->y[5] - expected->fused_bytes / 1e6) < 1e-9 * expected->fused_bytes);

        // Time bars: each operator's kernel, then the two totals.
        const ChartData &time = section.timeChart()->data();
        const ChartSeries *ops = seriesNamed(time, QStringLiteral("one operator's kernel"));
        const ChartSeries *totals = seriesNamed(time, QStringLiteral("whole chain"));
        QVERIFY(ops && totals);
        for (std::size_t i = 0; i < expected->ops.size(); ++i)
            QCOMPARE(ops->y[qsizetype(i)], expected->ops[i].unfused_time.seconds * 1e6);
        QCOMPARE(totals->y[0], expected->unfused_seconds * 1e6);
        QCOMPARE(totals->y[1], expected->fused_time.seconds * 1e6);

        // Roofline: the unfused and fused chain at FLOPs / bytes, on the roof.
        const ChartData &roof = section.rooflineChart()->data();
        const ChartSeries *unfused = seriesNamed(roof, QStringLiteral("unfused chain"));
        const ChartSeries *fused = seriesNamed(roof, QStringLiteral("fused kernel"));
        QVERIFY(unfused && fused);
        QVERIFY(std::abs(unfused->x[0] - expected->unfusedIntensity()) < 1e-6 * expected->unfusedIntensity());
        QVERIFY(std::abs(fused->x[0] - expected->fusedIntensity()) < 1e-6 * expected->fusedIntensity());
        const RooflineMachine machine = section.rooflineMachineShown();
        QVERIFY(machine.valid());
        QCOMPARE(fused->y[0], attainableFlopsPerSecond(machine, fused->x[0]) / 1e12);
        QVERIFY(fused->y[0] > unfused->y[0]);  // memory bound: fewer bytes, higher on the slope
    }

    void refusedInputNamesTheField()
    {
        FusionSection section;
        show(section, scenarioOn("a100-sxm-80gb"));
        section.setConfig(configOf(1024, 1024, DType::FP8, false));  // A100: no FP8 peak
        QVERIFY(!section.chain().has_value());
        QVERIFY2(section.message().startsWith(QStringLiteral("dtype")), qPrintable(section.message()));
        QVERIFY(section.bytesChart()->data().series.isEmpty());
        section.setConfig(configOf(1 << 24, 1 << 20, DType::BF16, false));  // 2^44 elements
        QVERIFY(!section.chain().has_value());
        QVERIFY2(section.message().startsWith(QStringLiteral("tokens")), qPrintable(section.message()));
        // The CPU run is bounded lower (2^28 elements): refused before anything runs, naming tokens.
        section.setConfig(configOf(1 << 20, 1024, DType::BF16, false));
        QVERIFY(section.chain().has_value());
        section.measure();
        QVERIFY(!section.isRunning());
        QVERIFY2(section.measureStatus().startsWith(QStringLiteral("tokens")), qPrintable(section.measureStatus()));
    }

    void measureRunsInTheBackgroundAndCancels()
    {
        FusionSection section;
        show(section, scenarioOn("h100-sxm"));
        section.setConfig(configOf(16, 96, DType::BF16, true));
        section.setRepeats(3);
        QSignalSpy finished(&section, &FusionSection::measurementFinished);
        section.measure();
        QVERIFY(section.isRunning() || finished.count() == 1);
        QVERIFY(finished.count() == 1 || finished.wait(kBackgroundWorkTimeoutMs));
        QCOMPARE(finished.takeFirst().value(0).toBool(), false);
        QVERIFY(section.measured().has_value());
        const reference::FusionMeasurement m = *section.measured();
        QVERIFY(m.outputs_bitwise_equal);
        QCOMPARE(m.request.tokens, std::int64_t(16));
        QCOMPARE(m.request.training, true);
        // The model's bytes at 4 bytes per element (fp32), training: 9 and 4 tensors.
        QCOMPARE(m.unfused.bytes, 9 * 4.0 * 16 * 96);
        QCOMPARE(m.fused.bytes, 4 * 4.0 * 16 * 96);
        QTableWidget *table = section.measuredTable();
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->item(0, 3)->text(), format::bytes(m.unfused.bytes));
        QCOMPARE(table->item(1, 3)->text(), format::bytes(m.fused.bytes));
        QCOMPARE(table->item(1, 4)->text(), format::decimal(m.fused.bytes_per_second / 1e9, 2));
        QCOMPARE(table->item(1, 1)->text(), format::decimal(section.chain()->fused_time.seconds * 1e6, 1) + QStringLiteral(" µs"));
        const QString summary = section.findChild<QLabel *>(QStringLiteral("fusion-measured-summary"))->text();
        QVERIFY2(summary.contains(format::decimal(m.speedup(), 2)) && summary.contains(QStringLiteral("bitwise equal")),
                 qPrintable(summary));

        // A long run cancelled at once: finished(cancelled), the earlier result kept.
        section.setConfig(configOf(2048, 2048, DType::BF16, false));
        section.setRepeats(101);
        section.measure();
        QVERIFY(section.isRunning());
        QVERIFY(!section.isReady());
        section.cancel();
        QVERIFY(finished.wait(kBackgroundWorkTimeoutMs));
        QCOMPARE(finished.takeFirst().value(0).toBool(), true);
        QCOMPARE(section.measured()->request.tokens, std::int64_t(16));
        QVERIFY(section.isReady());
    }

    void lessonSettingsRoundTrip()
    {
        FusionSection section;
        QJsonObject settings = section.lessonSettings();
        QCOMPARE(settings.keys(), (QStringList{"dtype", "repeats", "tokens", "training", "width"}));
        settings["tokens"] = 1024;
        settings["width"] = 768;
        settings["dtype"] = QStringLiteral("fp32");
        settings["training"] = true;
        settings["repeats"] = 9;
        QString error;
        QVERIFY2(section.applyLessonSettings(settings, &error), qPrintable(error));
        QCOMPARE(section.lessonSettings(), settings);
        QCOMPARE(section.config().width, std::int64_t(768));
        QVERIFY(section.config().training);
        QVERIFY(!section.applyLessonSettings(QJsonObject{{"width", 0}}, &error));
        QVERIFY2(error.startsWith(QStringLiteral("width")), qPrintable(error));
        QVERIFY(!section.applyLessonSettings(QJsonObject{{"dtype", "int8"}}, &error));
        QVERIFY2(error.startsWith(QStringLiteral("dtype")), qPrintable(error));
        QCOMPARE(section.lessonSettings(), settings);
    }

    void chartsExport()
    {
        FusionSection section;
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString error;
        for (ChartView *chart : section.charts())
            QVERIFY2(chart->exportAll(dir.path(), &error), qPrintable(error));
        QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("fusion-roofline.csv"))));
    }

    // Not a check: with LSE_KERNEL_SECTIONS_SCREENSHOT=/tmp/x.png, the section at 1024×768 (after a
    // small measurement) in the light theme, presentation mode, and Chinese on the dark palette.
    void screenshots()
    {
        const QString path = qEnvironmentVariable("LSE_KERNEL_SECTIONS_SCREENSHOT");
        if (path.isEmpty())
            QSKIP("set LSE_KERNEL_SECTIONS_SCREENSHOT to save screenshots");
        const QString stem = QFileInfo(path).path() + QLatin1Char('/') + QFileInfo(path).completeBaseName();
        struct Variant {
            const char *name;
            bool presentation;
            const char *language;
            bool dark;
        };
        for (const Variant &v : {Variant{"light", false, "en", false}, Variant{"presentation", true, "en", false},
                                 Variant{"zh-dark-presentation", true, "zh_CN", true}, Variant{"zh-dark", false, "zh_CN", true}}) {
            QVERIFY(MainWindow::installLanguage(QString::fromLatin1(v.language)));
            QApplication::setPalette(v.dark ? darkPalette() : lightPalette());
            FusionSection section;
            show(section, scenarioOn("h100-sxm"));
            section.setPresentation(v.presentation);
            section.setConfig(configOf(1024, 1024, DType::BF16, false));
            section.setRepeats(3);
            QSignalSpy finished(&section, &FusionSection::measurementFinished);
            section.measure();
            QVERIFY(finished.wait(kBackgroundWorkTimeoutMs));
            section.resize(1024, 768);
            section.show();
            QVERIFY(QTest::qWaitForWindowExposed(&section));
            QTest::qWait(50);
            section.grab().save(stem + QStringLiteral("-fusion-%1.png").arg(QString::fromLatin1(v.name)));
            QWidget *content = section.findChild<QWidget *>(QStringLiteral("fusion-intro"))->parentWidget();
            content->grab().save(stem + QStringLiteral("-fusion-%1-full.png").arg(QString::fromLatin1(v.name)));
        }
        MainWindow::installLanguage(QStringLiteral("en"));
        QApplication::setPalette(lightPalette());
    }
};

QTEST_MAIN(TestFusionSection)
#include "test_fusion_section.moc"
