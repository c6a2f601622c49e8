// SPDX-License-Identifier: GPL-3.0-or-later
// The "GEMM tiles and waves" section offscreen, built directly (it belongs to the Inside the GPU
// page, which it does not need): the figures shown are kernels/gemmWaves' for several shapes and
// accelerators (a partial last wave, one tile, a skinny product), the picture paints tile t in the
// colour of wave waveOfTile(t) and the last wave's idle SMs hollow, the saw-tooth chart is
// gemmWaveSweep's and a pick on it sets N, lesson settings round-trip, and refused inputs name
// the field. LSE_KERNEL_SECTIONS_SCREENSHOT=/tmp/x.png saves the section at 1024×768 (light,
// presentation, zh_CN dark) as /tmp/x-gemm-*.png for a look.

#include "charts/chart_palette.h"
#include "charts/chart_view.h"
#include "cost/estimate.h"
#include "hardware/hardware_catalog.h"
#include "main_window.h"
#include "pages/kernels/gemm_tile_grid.h"
#include "pages/kernels/gemm_waves_section.h"
#include "pages/page_format.h"
#include "scenario/scenario_json.h"
#include "theme.h"

#include <QApplication>
#include <qcustomplot.h>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
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

void show(GemmWavesSection &section, const Scenario &scenario)
{
    const Result<Estimate> estimate = lse::estimate(scenario);
    if (!estimate.ok())
        qFatal("the scenario does not estimate");
    section.showEstimate(scenario, *estimate);
}

kernels::GemmProblem problemOf(std::int64_t m, std::int64_t n, std::int64_t k, DType dtype = DType::BF16)
{
    kernels::GemmProblem p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.dtype = dtype;
    return p;
}

}  // namespace

class TestGemmWavesSection : public QObject {
    Q_OBJECT
private slots:
    void figuresAreCores_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<qint64>("m");
        QTest::addColumn<qint64>("n");
        QTest::addColumn<qint64>("k");
        QTest::addColumn<bool>("partial");
        // 32 × 32 = 1024 tiles on 132 SMs: 7 full waves and 100 tiles in the eighth.
        QTest::newRow("H100 4096³, partial last wave") << "h100-sxm" << qint64(4096) << qint64(4096) << qint64(4096) << true;
        QTest::newRow("H100 one tile") << "h100-sxm" << qint64(128) << qint64(128) << qint64(64) << true;
        // 12 × 11 = 132 tiles: exactly one full wave.
        QTest::newRow("H100 one full wave") << "h100-sxm" << qint64(1536) << qint64(1408) << qint64(1024) << false;
        QTest::newRow("A100 ragged edges") << "a100-sxm-80gb" << qint64(1000) << qint64(3000) << qint64(512) << true;
        QTest::newRow("A100 skinny") << "a100-sxm-80gb" << qint64(16) << qint64(8192) << qint64(4096) << true;
    }
    void figuresAreCores()
    {
        QFETCH(QString, gpu);
        QFETCH(qint64, m);
        QFETCH(qint64, n);
        QFETCH(qint64, k);
        QFETCH(bool, partial);
        GemmWavesSection section;
        const Scenario scenario = scenarioOn(gpu.toStdString());
        show(section, scenario);
        section.setProblem(problemOf(m, n, k));
        const Result<kernels::GemmWaves> expected = kernels::gemmWaves(problemOf(m, n, k), scenario.cluster.accelerator);
        QVERIFY(expected.ok());
        QVERIFY(section.waves().has_value());
        const kernels::GemmWaves &w = *section.waves();
        QCOMPARE(w.tiles, expected->tiles);
        QCOMPARE(w.waves, expected->waves);
        QCOMPARE(w.last_wave_tiles, expected->last_wave_tiles);
        QCOMPARE(w.sm_count, std::int64_t(scenario.cluster.accelerator.sm_count));
        QCOMPARE(w.time.seconds, expected->time.seconds);
        QCOMPARE(section.grid()->lastWaveIsPartial(), partial);

        QCOMPARE(section.figureText("tiles"), QStringLiteral("%1 × %2 = %3")
                                                  .arg(format::integer(expected->row_tiles), format::integer(expected->column_tiles),
                                                       format::integer(expected->tiles)));
        QVERIFY(section.figureText("waves").startsWith(format::integer(expected->waves)));
        QVERIFY(section.figureText("last_wave").startsWith(format::integer(expected->last_wave_tiles)));
        QVERIFY(section.figureText("last_wave").contains(format::integer(expected->sm_count - expected->last_wave_tiles)));
        QCOMPARE(section.figureText("tile_efficiency"), format::percent(expected->efficiency.tile_quantisation));
        QCOMPARE(section.figureText("wave_efficiency"), format::percent(expected->efficiency.wave_quantisation));
        QCOMPARE(section.figureText("depth_efficiency"), format::percent(expected->efficiency.depth));
        QCOMPARE(section.figureText("total_efficiency"), format::percent(expected->efficiency.total));
        QVERIFY(section.figureText("time").startsWith(format::decimal(expected->time.seconds * 1e6, 1)));
        QVERIFY(section.figureText("achieved").startsWith(format::decimal(expected->achieved_flops_per_second / 1e12, 1)));
        QVERIFY(section.figureText("accelerator").contains(format::integer(scenario.cluster.accelerator.sm_count)));
        // Tooltips carry the formula and the source.
        const QString tip = section.findChild<QLabel *>(QStringLiteral("gemm-waves-wave_efficiency"))->toolTip();
        QVERIFY2(tip.contains(QStringLiteral("waves · SMs")) && tip.contains(QStringLiteral("Matrix Multiplication Background")),
                 qPrintable(tip));
    }

    // The picture: the pixel inside tile t has waveColor(waveOfTile(t)); a partial last wave has
    // the highlight colour; the last wave's SM cells are busy up to last_wave_tiles, idle after.
    void pictureColoursTilesByWave_data()
    {
        QTest::addColumn<qint64>("m");
        QTest::addColumn<qint64>("n");
        QTest::newRow("1024 tiles, 8 waves") << qint64(4096) << qint64(4096);
        QTest::newRow("ragged, 3 waves") << qint64(2000) << qint64(2500);
    }
    void pictureColoursTilesByWave()
    {
        QFETCH(qint64, m);
        QFETCH(qint64, n);
        GemmWavesSection section;
        show(section, scenarioOn("h100-sxm"));
        section.setProblem(problemOf(m, n, 1024));
        GemmTileGrid *grid = section.grid();
        grid->resize(900, grid->heightForWidth(900));
        const QImage image = grid->grab().toImage();
        const kernels::GemmWaves &w = *section.waves();
        QVERIFY(w.tiles <= GemmTileGrid::kMaxDrawnTiles);
        for (std::int64_t tile = 0; tile < w.tiles; ++tile) {
            const QColor expected = grid->waveColor(w.waveOfTile(tile));
            QCOMPARE(grid->tileColor(tile), expected);
            const QRectF cell = grid->tileRect(tile);
            QVERIFY(cell.width() >= 6 && cell.height() >= 6);
            const QPoint inside = (cell.topLeft() + QPointF(2.5, 2.5)).toPoint();
            QVERIFY2(image.pixelColor(inside).rgb() == expected.rgb(),
                     qPrintable(QStringLiteral("tile %1 (wave %2) painted %3, expected %4")
                                    .arg(tile).arg(w.waveOfTile(tile)).arg(image.pixelColor(inside).name(), expected.name())));
        }
        // Neighbouring waves differ; the partial last wave is the highlight colour.
        for (std::int64_t wave = 1; wave < w.waves; ++wave)
            QVERIFY(grid->waveColor(wave) != grid->waveColor(wave - 1));
        QVERIFY(grid->lastWaveIsPartial());
        QCOMPARE(grid->waveColor(w.waves - 1), chartReferenceColor(grid->palette()));
        for (std::int64_t sm = 0; sm < w.sm_count; ++sm) {
            const QRectF cell = grid->smRect(sm);
            const QPoint at(int(cell.left()) + 1, int(cell.center().y()));
            const bool busy = image.pixelColor(at).rgb() == grid->waveColor(w.waves - 1).rgb();
            QVERIFY2(busy == (sm < w.last_wave_tiles),
                     qPrintable(QStringLiteral("SM %1 at %2,%3 of %4x%5: %6").arg(sm).arg(at.x()).arg(at.y()).arg(image.width())
                                    .arg(image.height()).arg(image.pixelColor(at).name())));
        }
    }

    void sawToothIsTheSweep()
    {
        GemmWavesSection section;
        const Scenario scenario = scenarioOn("h100-sxm");
        show(section, scenario);
        section.setProblem(problemOf(8192, 3000, 8192));
        const GemmWavesSection::SweepRange range = section.sweepRange();
        QVERIFY(range.first >= 1 && range.last >= 6000 && range.step >= 1);
        const auto sweep = kernels::gemmWaveSweep(problemOf(8192, 3000, 8192), range.first, range.last, range.step,
                                                  scenario.cluster.accelerator);
        QVERIFY(sweep.ok());
        const ChartData &data = section.sweepChart()->data();
        QVERIFY(data.series.size() >= 2);
        const ChartSeries &line = data.series[0];
        QCOMPARE(line.x.size(), qsizetype(sweep->size()));
        for (std::size_t i = 0; i < sweep->size(); ++i) {
            QCOMPARE(line.x[qsizetype(i)], double((*sweep)[i].n));
            QCOMPARE(line.y[qsizetype(i)], (*sweep)[i].achieved_flops_per_second / 1e12);
        }
        // The teeth: achieved TFLOP/s is not monotonic in N.
        int drops = 0;
        for (qsizetype i = 1; i < line.y.size(); ++i)
            drops += line.y[i] < line.y[i - 1];
        QVERIFY(drops > 5);
        const ChartSeries &current = data.series[1];
        QCOMPARE(current.x.value(0), 3000.0);
        QCOMPARE(current.y.value(0), section.waves()->achieved_flops_per_second / 1e12);
        QVERIFY(!data.formula.source.isEmpty());

        // A pick at x picks the nearest sweep point's N and recomputes.
        section.pickN(double(range.first + 10 * range.step) + 0.3);
        QCOMPARE(section.problem().n, range.first + 10 * range.step);
        QCOMPARE(section.waves()->problem.n, range.first + 10 * range.step);
        // ... also by a click on the plot.
        ChartView *chart = section.sweepChart();
        section.resize(1024, 1600);
        section.show();
        QVERIFY(QTest::qWaitForWindowExposed(&section));
        QCustomPlot *plot = chart->plot();
        plot->replot();
        const std::int64_t target = section.sweepRange().first + 40 * section.sweepRange().step;
        const QPoint at(int(plot->xAxis->coordToPixel(double(target))), plot->axisRect()->rect().center().y());
        QTest::mouseClick(plot, Qt::LeftButton, {}, at);
        QVERIFY2(std::abs(section.problem().n - target) <= 2 * section.sweepRange().step,
                 qPrintable(QStringLiteral("clicked at N ≈ %1, picked %2").arg(target).arg(section.problem().n)));
    }

    void lessonSettingsRoundTrip()
    {
        GemmWavesSection section;
        QJsonObject settings = section.lessonSettings();
        QCOMPARE(settings.keys(), (QStringList{"dtype", "k", "m", "n"}));
        settings["m"] = 2048;
        settings["n"] = 1000;
        settings["k"] = 512;
        settings["dtype"] = QStringLiteral("fp16");
        QString error;
        QVERIFY2(section.applyLessonSettings(settings, &error), qPrintable(error));
        QCOMPARE(section.lessonSettings(), settings);
        QCOMPARE(section.waves()->problem.n, std::int64_t(1000));
        QVERIFY(section.waves()->problem.dtype == DType::FP16);
        QVERIFY(!section.applyLessonSettings(QJsonObject{{"m", 0}}, &error));
        QVERIFY2(error.startsWith(QStringLiteral("m")), qPrintable(error));
        QVERIFY(!section.applyLessonSettings(QJsonObject{{"dtype", "int4"}}, &error));
        QVERIFY2(error.startsWith(QStringLiteral("dtype")), qPrintable(error));
        QVERIFY(!section.applyLessonSettings(QJsonObject{{"colour", 1}}, &error));
        QCOMPARE(section.lessonSettings(), settings);  // nothing changed
    }

    void refusedInputNamesTheField()
    {
        GemmWavesSection section;
        show(section, scenarioOn("a100-sxm-80gb"));  // no FP8 peak
        section.setProblem(problemOf(4096, 4096, 4096, DType::FP8));
        QVERIFY(!section.waves().has_value());
        QVERIFY2(section.message().startsWith(QStringLiteral("dtype")), qPrintable(section.message()));
        QCOMPARE(section.figureText("tiles"), QStringLiteral("—"));
        QVERIFY(section.sweepChart()->data().series.isEmpty());
        section.setProblem(problemOf(4096, 4096, 4096, DType::BF16));
        QVERIFY(section.waves().has_value());
        QVERIFY(section.message().isEmpty());
    }

    void chartExports()
    {
        GemmWavesSection section;
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString error;
        QVERIFY2(section.sweepChart()->exportAll(dir.path(), &error), qPrintable(error));
        QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("gemm-waves-sawtooth.csv"))));
    }

    // Not a check: with LSE_KERNEL_SECTIONS_SCREENSHOT=/tmp/x.png, the section at 1024×768 in the
    // light theme, in presentation mode, and in Chinese presentation mode on the dark palette.
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
            GemmWavesSection section;
            show(section, scenarioOn("h100-sxm"));
            section.setPresentation(v.presentation);
            section.resize(1024, 768);
            section.show();
            QVERIFY(QTest::qWaitForWindowExposed(&section));
            QTest::qWait(50);
            section.grab().save(stem + QStringLiteral("-gemm-%1.png").arg(QString::fromLatin1(v.name)));
            QWidget *content = section.findChild<QWidget *>(QStringLiteral("gemm-waves-figures"))->parentWidget();
            content->grab().save(stem + QStringLiteral("-gemm-%1-full.png").arg(QString::fromLatin1(v.name)));
        }
        MainWindow::installLanguage(QStringLiteral("en"));
        QApplication::setPalette(lightPalette());
    }
};

QTEST_MAIN(TestGemmWavesSection)
#include "test_gemm_waves_section.moc"
