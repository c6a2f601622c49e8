// SPDX-License-Identifier: GPL-3.0-or-later
// The Roofline page offscreen: one roofline per checked machine, the phase, FlashAttention and
// batch controls, the decode crossover, the operator table and its CSV export, and this machine's
// chart from a fake measurement (no real CPU measurement runs here).

#include "../cpu_kernel_fixture.h"
#include "background_timeout.h"
#include "charts/chart_view.h"
#include "cost/estimate.h"
#include "hardware/machine_kernel_factors.h"
#include "pages/roofline/roofline_page.h"
#include "reference/step_time_comparison.h"
#include "scenario/presets.h"
#include "scenario/scenario_json.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <memory>
#include <set>

using namespace lse;
using namespace lse::gui;

namespace {

int lineCount(const ChartData &chart)
{
    int lines = 0;
    for (const ChartSeries &series : chart.series)
        lines += series.kind == ChartSeries::Kind::Line ? 1 : 0;
    return lines;
}

const ChartSeries *seriesNamed(const ChartData &chart, const QString &name)
{
    for (const ChartSeries &series : chart.series)
        if (series.name == name)
            return &series;
    return nullptr;
}

// A machine like a small laptop: 100 GFLOP/s, 20 GB/s -> ridge 5 FLOP/B.
MachineRoofline fakeCpu()
{
    MachineRoofline cpu;
    cpu.cpu_model = "Test CPU";
    cpu.logical_cores = 4;
    cpu.threads_used = 4;
    cpu.peak_flops_per_s_all_cores = 100e9;
    cpu.peak_flops_per_s_one_core = 30e9;
    cpu.bandwidth_bytes_per_s_all_cores = 20e9;
    cpu.bandwidth_bytes_per_s_one_core = 10e9;
    cpu.sgemm_n = 2048;
    cpu.measured_at = "2026-11-29T00:00:00Z";
    return cpu;
}

double attentionBytes(const RooflineReport &report)
{
    double bytes = 0;
    for (const RooflineOp &op : report.ops)
        if (op.component == Component::AttentionScores)
            bytes += op.bytes();
    return bytes;
}

}  // namespace

class TestRooflinePage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        // No cached measurement of the real machine: each test decides what the page sees.
        QVERIFY(cache_.isValid());
        qputenv("LSE_CACHE_DIR", cache_.path().toUtf8());
    }
    void init()
    {
        page_ = std::make_unique<RooflinePage>();
        page_->resize(1280, 900);
        scenario_ = defaultScenario();
        page_->showEstimate(scenario_, *estimate(scenario_));
        QVERIFY(page_->report().has_value());
    }
    void cleanup() { page_.reset(); }

    void oneRooflinePerCheckedMachine()
    {
        for (QCheckBox *check : page_->findChildren<QCheckBox *>())
            if (check->objectName().startsWith(QLatin1String("machine-")))
                check->setChecked(false);
        // The scenario's accelerator (H100 SXM) is always drawn: its operators sit on it.
        QCOMPARE(lineCount(page_->acceleratorChart()->data()), 1);
        page_->findChild<QCheckBox *>(QStringLiteral("machine-a100-sxm-80gb"))->setChecked(true);
        page_->findChild<QCheckBox *>(QStringLiteral("machine-mi300x"))->setChecked(true);
        QCOMPARE(lineCount(page_->acceleratorChart()->data()), 3);
        // Checking the scenario's own accelerator adds no second H100 line.
        page_->findChild<QCheckBox *>(QStringLiteral("machine-h100-sxm"))->setChecked(true);
        QCOMPARE(lineCount(page_->acceleratorChart()->data()), 3);
        // This CPU appears once a measurement exists.
        page_->findChild<QCheckBox *>(QStringLiteral("machine-this-cpu"))->setChecked(true);
        QCOMPARE(lineCount(page_->acceleratorChart()->data()), 3);
        page_->setMachineRoofline(fakeCpu());
        const ChartData &chart = page_->acceleratorChart()->data();
        QCOMPARE(lineCount(chart), 4);
        QVERIFY(chart.log_x && chart.log_y);
        // One ridge marker per roofline, at peak / bandwidth: H100 bf16 989.4e12 / 3.35e12 = 295 FLOP/B.
        const ChartSeries *ridges = seriesNamed(chart, RooflinePage::tr("Ridge points"));
        QVERIFY(ridges != nullptr);
        QCOMPARE(ridges->x.size(), 4);
        QVERIFY(std::abs(ridges->x.front() - 989.4e12 / 3.35e12) < 1e-6);
        QVERIFY(ridges->x.contains(5.0));  // the fake CPU: 100 GFLOP/s / 20 GB/s
        // A roof is min(peak, I · bandwidth): flat at the peak far right, I · bandwidth far left.
        const ChartSeries &h100 = chart.series.front();
        QVERIFY(std::abs(h100.y.back() - 989.4e12) < 1);
        QVERIFY(std::abs(h100.y.front() / h100.x.front() - 3.35e12) < 1e3);
    }

    void precisionSelectsThePeak()
    {
        // FP8 on H100 SXM: 1,978.9 TFLOPS dense (H100 whitepaper); A100 has no FP8 and is left out.
        auto *precision = page_->findChild<QComboBox *>(QStringLiteral("precisionBox"));
        precision->setCurrentIndex(precision->findData(int(DType::FP8)));
        QCOMPARE(page_->report()->machine.peak_flops_per_second, 1978.9e12);
        const ChartData &chart = page_->acceleratorChart()->data();
        for (const ChartSeries &series : chart.series)
            QVERIFY2(!series.name.contains(QLatin1String("A100")), qPrintable(series.name));
        QVERIFY(chart.formula.inputs.contains(QLatin1String("A100")));  // says why it is missing
    }

    void decodeChangesTheOperatorPoints()
    {
        auto points = [this] {
            std::set<std::pair<double, double>> xy;
            for (const ChartSeries &series : page_->acceleratorChart()->data().series)
                if (series.kind == ChartSeries::Kind::Marker && series.name != RooflinePage::tr("Ridge points"))
                    for (int i = 0; i < series.x.size(); ++i)
                        xy.insert({series.x[i], series.y[i]});
            return xy;
        };
        const auto train = points();
        QVERIFY(!train.empty());
        auto *phase = page_->findChild<QComboBox *>(QStringLiteral("phaseBox"));
        phase->setCurrentIndex(phase->findData(int(StepPhase::Decode)));
        QVERIFY(page_->report()->options.phase == StepPhase::Decode);
        QCOMPARE(page_->report()->tokens, page_->report()->batch);  // one new token per sequence
        QVERIFY(points() != train);
        QCOMPARE(page_->operatorTable()->rowCount(), int(page_->report()->ops.size()));
    }

    void batchSliderCrossesTheRidge()
    {
        auto *phase = page_->findChild<QComboBox *>(QStringLiteral("phaseBox"));
        phase->setCurrentIndex(phase->findData(int(StepPhase::Decode)));
        const std::int64_t crossover = page_->report()->decode_crossover_batch;
        // A decode weight matmul (B×k)·(k×n) at 2 bytes has intensity 2Bkn / (2kn + 2B(k+n)) ≈ B for
        // B << k, n, so the crossover lies just above the ridge point (295 FLOP/B on H100 bf16).
        const double ridge = page_->report()->ridge_point_flop_per_byte;
        QVERIFY2(double(crossover) > ridge && double(crossover) < 1.5 * ridge, qPrintable(QString::number(crossover)));
        QVERIFY(crossover <= 1024);
        // Exactly: I(B) = B·k·n / (k·n + B·(k + n)) reaches the ridge r at B = r / (1 − r·(k + n)/(k·n)); the
        // least intense weight matmul of Llama 2 70B is the output projection, k = n = 8192.
        const double k = 8192, n = 8192;
        QCOMPARE(crossover, std::int64_t(std::ceil(ridge / (1 - ridge * (k + n) / (k * n)))));
        QCOMPARE(crossover, std::int64_t(319));

        auto *slider = page_->findChild<QSlider *>(QStringLiteral("batchSlider"));
        auto boundsOfWeightMatmuls = [this] {
            // From the table: the name column carries the report's row index.
            std::set<int> bounds;
            QTableWidget *table = page_->operatorTable();
            for (int row = 0; row < table->rowCount(); ++row) {
                const int index = table->item(row, 0)->data(Qt::UserRole).toInt();
                const RooflineOp &op = page_->report()->ops.at(std::size_t(index));
                if (op.weight_matmul)
                    bounds.insert(table->item(row, 8)->data(Qt::UserRole).toInt());
            }
            return bounds;
        };
        int below = 0;
        while ((std::int64_t(1) << (below + 1)) < crossover)
            ++below;
        slider->setValue(below);
        QCOMPARE(page_->report()->batch, std::int64_t(1) << below);
        QCOMPARE(boundsOfWeightMatmuls(), (std::set<int>{int(Bound::Memory)}));
        slider->setValue(below + 1);
        QVERIFY((std::int64_t(1) << (below + 1)) >= crossover);
        QCOMPARE(boundsOfWeightMatmuls(), (std::set<int>{int(Bound::Compute)}));
        // The chart agrees: the compute-bound series now holds points.
        const ChartSeries *compute =
            seriesNamed(page_->acceleratorChart()->data(), RooflinePage::tr("Compute-bound operators"));
        QVERIFY(compute != nullptr && !compute->x.isEmpty());
        QVERIFY(page_->findChild<QLabel *>(QStringLiteral("crossoverLabel"))->text().contains(QString::number(crossover)));
    }

    void flashAttentionReducesAttentionBytes()
    {
        auto *flash = page_->findChild<QCheckBox *>(QStringLiteral("flashCheck"));
        flash->setChecked(false);
        const double naive = attentionBytes(*page_->report());
        flash->setChecked(true);
        const double tiled = attentionBytes(*page_->report());
        QVERIFY(naive > 0);
        QVERIFY2(tiled < naive, qPrintable(QStringLiteral("%1 vs %2").arg(tiled).arg(naive)));
        // The s×s scores (2 bytes each, 64 heads, seq 4096, 80 layers) dominate the naive bytes.
        QVERIFY(naive > 80.0 * 64 * 4096.0 * 4096 * 2);
    }

    void csvExportMatchesTheOperators()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("ops.csv"));
        QString error;
        QVERIFY2(page_->exportTableCsv(path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
        const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        const std::vector<RooflineOp> &ops = page_->report()->ops;
        QCOMPARE(lines.size(), int(ops.size()) + 1);
        QVERIFY(lines.front().startsWith(QLatin1String("name,pass,count,shape,flops,bytes")));
        for (std::size_t i = 0; i < ops.size(); ++i) {
            const QString &line = lines[int(i) + 1];
            QVERIFY2(line.startsWith(QString::fromStdString(ops[i].name) + QLatin1Char(',')), qPrintable(line));
            // Raw seconds at full precision are the last-but-one field.
            const QStringList fields = line.split(QLatin1Char(','));
            QCOMPARE(fields.at(fields.size() - 2).toDouble(), ops[i].seconds);
        }
        // The shares add up to the whole step.
        double share = 0;
        for (const RooflineOp &op : ops)
            share += op.share_of_step;
        QVERIFY(std::abs(share - 1) < 1e-9);
    }

    void thisMachineChart()
    {
        // Without a measurement the chart is left out of charts() and the page says so.
        QCOMPARE(page_->charts().size(), 1);
        QVERIFY(page_->findChild<QLabel *>(QStringLiteral("machineStatus"))->text().contains(QLatin1String("not")));
        QVERIFY(page_->findChild<QPushButton *>(QStringLiteral("measureMachineButton"))->isEnabled());

        page_->setMachineRoofline(fakeCpu());
        QCOMPARE(page_->charts().size(), 2);
        QCOMPARE(lineCount(page_->machineChart()->data()), 2);  // all cores, one core

        // Fake profiler records of the tiny preset: one forward matmul at 50 GFLOP/s.
        QFile file(QStringLiteral(":/reference/tiny.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const Result<reference::TrainConfig> config = reference::trainConfigFromJson(file.readAll(), "tiny.json");
        QVERIFY(config.ok());
        reference::OpRecord record;
        record.name = "mlp_up";
        record.phase = reference::OpPhase::Forward;
        record.matmul = true;
        record.flops = 5e9;
        record.seconds = 0.1;
        record.calls = 8;
        page_->setMeasuredRun(*config, {record}, 4);
        const ChartSeries *forward =
            seriesNamed(page_->machineChart()->data(), RooflinePage::tr("Measured forward operators"));
        QVERIFY(forward != nullptr);
        QCOMPARE(forward->y.size(), 1);
        QCOMPARE(forward->y.front(), 50e9);
        QVERIFY(forward->x.front() > 0);
        QVERIFY(!seriesNamed(page_->machineChart()->data(), RooflinePage::tr("Predicted operators (kernel factors)")));

        // Issue 29, section 3: with this CPU's kernel factors cached for the run's threads the same
        // operator is drawn where the step predictor puts it: same intensity, FLOPs per step / its
        // predicted time, as a ring.
        const CpuKernelFactors kernels = lse::test::givenCpuKernelFactors(1, 20e9, 20e9, 2e9, "2026-12-04T10:00:00Z");
        QVERIFY(saveCpuKernelFactors(kernels).ok());
        page_->setMeasuredRun(*config, {record}, 4);
        const ChartSeries *predicted =
            seriesNamed(page_->machineChart()->data(), RooflinePage::tr("Predicted operators (kernel factors)"));
        QVERIFY(predicted != nullptr);
        QVERIFY(predicted->hollow);
        QCOMPARE(predicted->y.size(), 1);
        const ChartSeries *measured =
            seriesNamed(page_->machineChart()->data(), RooflinePage::tr("Measured forward operators"));
        QCOMPARE(predicted->x.front(), measured->x.front());
        reference::TrainConfig run = *config;
        run.threads = 1;
        const Result<reference::ReferenceStepPrediction> expected = reference::predictReferenceStep(run, kernels);
        QVERIFY(expected.ok());
        double seconds = 0;
        for (const performance::OperatorTime &op : expected->step.operators)
            if (op.name == "mlp_up" && op.pass == "forward")
                seconds += op.seconds;
        QVERIFY(seconds > 0);
        QVERIFY(std::abs(predicted->y.front() - 5e9 / 4 / seconds) <= 1e-9 * predicted->y.front());
        QFile::remove(QString::fromStdString(cpuKernelFactorsCachePath()));
    }

    void measureReferenceOpsInTheBackground()
    {
        // The real worker on the tiny preset (a few steps of a 2-layer d=128 model, well under a second).
        auto *button = page_->findChild<QPushButton *>(QStringLiteral("measureOpsButton"));
        QSignalSpy finished(page_.get(), &RooflinePage::workerFinished);
        // One thread: OpenMP teams spinning against other test processes slow every step down.
        page_->setReferenceRunSize(2, 1);
        button->click();
        QVERIFY(page_->busy());
        QVERIFY(!button->isEnabled());
        QVERIFY(finished.wait(kBackgroundWorkTimeoutMs));
        QVERIFY(!page_->busy());
        QVERIFY(button->isEnabled());
        int points = 0;
        for (const ChartSeries &series : page_->machineChart()->data().series)
            if (series.kind == ChartSeries::Kind::Marker)
                points += int(series.x.size());
        QVERIFY2(points >= 8, qPrintable(page_->machineChart()->data().title));

        // README screenshots on request: LSE_SCREENSHOT_DIR=/some/dir test_roofline_page.
        const QString shots = qEnvironmentVariable("LSE_SCREENSHOT_DIR");
        if (shots.isEmpty())
            return;
        // The predicted rings beside the measured discs (given factors: a flat 20 GFLOP/s table).
        CpuKernelFactors kernels = lse::test::givenCpuKernelFactors(1, 20e9, 10e9, 3e9, "2026-12-04T10:00:00Z");
        QVERIFY(saveCpuKernelFactors(kernels).ok());
        page_->setMachineRoofline(fakeCpu());
        auto *phase = page_->findChild<QComboBox *>(QStringLiteral("phaseBox"));
        phase->setCurrentIndex(phase->findData(int(StepPhase::Decode)));
        page_->findChild<QSlider *>(QStringLiteral("batchSlider"))->setValue(6);
        page_->resize(1100, 900);
        page_->show();
        QVERIFY(page_->acceleratorChart()->grab().save(shots + QStringLiteral("/roofline-decode.png")));
        QVERIFY(page_->machineChart()->grab().save(shots + QStringLiteral("/roofline-this-machine.png")));
    }

    void presentationAndRender()
    {
        page_->setPresentation(true);
        QVERIFY(page_->acceleratorChart()->presentation());
        page_->setPresentation(false);
        page_->retranslate();
        QImage image(page_->size(), QImage::Format_ARGB32);
        page_->render(&image);
        QVERIFY(!image.isNull());
    }

private:
    QTemporaryDir cache_;
    Scenario scenario_;
    std::unique_ptr<RooflinePage> page_;
};

QTEST_MAIN(TestRooflinePage)
#include "test_roofline_page.moc"
