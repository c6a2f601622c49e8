// SPDX-License-Identifier: GPL-3.0-or-later
// The calibration dialog, offscreen, with the user's hardware file in a test-mode AppDataLocation:
// a measured step time (or TFLOP/s) is fitted, saved as a new catalog entry and applied to the
// scenario; bad input names the field and neither saves nor asks for anything; a broken user file
// is refused and left as it was.

#include "cost/estimate.h"
#include "document/scenario_document.h"
#include "editor/scenario_editor.h"
#include "hardware/user_hardware_catalog.h"
#include "pages/validation/calibration_dialog.h"
#include "pages/cost/time_page.h"
#include "pages/validation/validation_page.h"
#include "performance/step_prediction.h"
#include "scenario/scenario_json.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <cmath>
#include <memory>

using namespace lse;
using namespace lse::gui;

namespace {

QString catalogPath() { return QString::fromStdString(userHardwareCatalogPath()); }

QByteArray fileBytes(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

double predictedSeconds(const Scenario &scenario)
{
    const Result<performance::StepPrediction> prediction = performance::predictStep(scenario);
    return prediction ? prediction->total_seconds : 0;
}

}  // namespace

class TestCalibrationDialog : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(predictedSeconds(defaultScenario()) > 0);
    }
    void init() { QFile::remove(catalogPath()); }
    void cleanupTestCase() { QFile::remove(catalogPath()); }

    void measuredStepTimeIsFittedSavedAndApplied()
    {
        const Scenario scenario = defaultScenario();
        const double before = predictedSeconds(scenario);
        // A run 20 % slower than predicted: the GEMMs are slower than the catalog says.
        const double measured = before * 1.2;
        CalibrationDialog dialog(scenario);
        QSignalSpy spy(&dialog, &CalibrationDialog::scenarioEditRequested);
        dialog.setMeasurement(CalibrationDialog::Measurement::StepSeconds, QString::number(measured, 'g', 10));
        QVERIFY2(dialog.fit(), qPrintable(dialog.message()));
        QVERIFY(dialog.result().has_value());
        const EfficiencyFactors fitted = dialog.result()->factors;
        QVERIFY(fitted.gemm_peak_fraction < scenario.cluster.accelerator.efficiency.gemm_peak_fraction);
        // Only the GEMM peak fraction moves with one measurement.
        QCOMPARE(fitted.memory_bandwidth_fraction, scenario.cluster.accelerator.efficiency.memory_bandwidth_fraction);
        QCOMPARE(fitted.gemm_fixed_cost_depth, scenario.cluster.accelerator.efficiency.gemm_fixed_cost_depth);

        QVERIFY(!QFileInfo::exists(catalogPath()));
        QVERIFY2(dialog.save(), qPrintable(dialog.message()));
        QCOMPARE(spy.count(), 1);
        const Scenario requested = spy.at(0).at(0).value<Scenario>();
        const std::string expected_id = scenario.cluster.accelerator.id + "-calibrated-1";
        QCOMPARE(requested.cluster.accelerator.id, expected_id);
        QCOMPARE(requested.cluster.accelerator.efficiency.gemm_peak_fraction, fitted.gemm_peak_fraction);
        QCOMPARE(requested.cluster.accelerator.name, scenario.cluster.accelerator.name + " (calibrated)");
        // Nothing else of the scenario changes.
        Scenario restored = requested;
        restored.cluster.accelerator = scenario.cluster.accelerator;
        QCOMPARE(scenarioToJson(restored), scenarioToJson(scenario));

        // The file holds the entry, in the catalog's format.
        const Result<HardwareCatalog> saved = loadUserHardwareCatalog(catalogPath().toStdString());
        QVERIFY2(saved.ok(), formatProblems(saved.problems()).c_str());
        QCOMPARE(saved->accelerators.size(), std::size_t(1));
        const Accelerator &entry = saved->accelerators.front();
        QCOMPARE(entry.id, expected_id);
        QCOMPARE(entry.efficiency.gemm_peak_fraction, fitted.gemm_peak_fraction);
        QVERIFY2(entry.source.find(scenario.cluster.accelerator.id) != std::string::npos, entry.source.c_str());
        QVERIFY(entry.efficiency.source.find("gemm_peak_fraction fitted") != std::string::npos);

        // The new entry predicts the measured step (the fit's own residual aside).
        const double after = predictedSeconds(requested);
        QVERIFY2(std::abs(after - measured) < std::abs(before - measured),
                 qPrintable(QStringLiteral("%1 → %2, measured %3").arg(before).arg(after).arg(measured)));

        // A second calibration appends with the next number and keeps the first.
        CalibrationDialog again(scenario);
        again.setMeasurement(CalibrationDialog::Measurement::StepSeconds, QString::number(before * 1.1, 'g', 10));
        QVERIFY(again.fit());
        QVERIFY2(again.save(), qPrintable(again.message()));
        const Result<HardwareCatalog> both = loadUserHardwareCatalog(catalogPath().toStdString());
        QVERIFY(both.ok());
        QCOMPARE(both->accelerators.size(), std::size_t(2));
        QCOMPARE(both->accelerators.back().id, scenario.cluster.accelerator.id + "-calibrated-2");
    }

    void measuredTflopsAreConvertedToAStepTime()
    {
        const Scenario scenario = defaultScenario();
        const double tflops = 150;
        const Result<double> seconds = performance::stepSecondsFromModelTflops(scenario, tflops);
        QVERIFY(seconds.ok());
        CalibrationDialog dialog(scenario);
        dialog.setMeasurement(CalibrationDialog::Measurement::ModelTflopsPerGpu, QStringLiteral("150"));
        QVERIFY2(dialog.fit(), qPrintable(dialog.message()));
        // The fit is the one a step time of the converted seconds gives.
        CalibrationDialog direct(scenario);
        direct.setMeasurement(CalibrationDialog::Measurement::StepSeconds, QString::number(*seconds, 'g', 17));
        QVERIFY(direct.fit());
        QCOMPARE(dialog.result()->factors.gemm_peak_fraction, direct.result()->factors.gemm_peak_fraction);
    }

    void invalidInputNamesTheFieldAndWritesNothing_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("field");
        const int seconds = int(CalibrationDialog::Measurement::StepSeconds);
        const int tflops = int(CalibrationDialog::Measurement::ModelTflopsPerGpu);
        QTest::newRow("empty") << seconds << QString() << QStringLiteral("Measured step time (s)");
        QTest::newRow("blank") << seconds << QStringLiteral("   ") << QStringLiteral("Measured step time (s)");
        QTest::newRow("zero") << seconds << QStringLiteral("0") << QStringLiteral("Measured step time (s)");
        QTest::newRow("negative") << seconds << QStringLiteral("-4.5") << QStringLiteral("Measured step time (s)");
        QTest::newRow("text") << seconds << QStringLiteral("fast") << QStringLiteral("Measured step time (s)");
        QTest::newRow("nan") << seconds << QStringLiteral("nan") << QStringLiteral("Measured step time (s)");
        QTest::newRow("inf") << seconds << QStringLiteral("inf") << QStringLiteral("Measured step time (s)");
        QTest::newRow("tflops zero") << tflops << QStringLiteral("0") << QStringLiteral("Measured model TFLOP/s per GPU");
        QTest::newRow("tflops text") << tflops << QStringLiteral("12a") << QStringLiteral("Measured model TFLOP/s per GPU");
    }

    void invalidInputNamesTheFieldAndWritesNothing()
    {
        QFETCH(int, kind);
        QFETCH(QString, value);
        QFETCH(QString, field);
        CalibrationDialog dialog(defaultScenario());
        QSignalSpy spy(&dialog, &CalibrationDialog::scenarioEditRequested);
        dialog.setMeasurement(CalibrationDialog::Measurement(kind), value);
        QVERIFY(!dialog.fit());
        QVERIFY2(dialog.message().startsWith(field + QStringLiteral(":")), qPrintable(dialog.message()));
        QVERIFY(!dialog.result().has_value());
        QVERIFY(!dialog.findChild<QPushButton *>(QStringLiteral("calibration.save"))->isEnabled());
        QVERIFY(!dialog.save());
        QCOMPARE(spy.count(), 0);
        QVERIFY(!QFileInfo::exists(catalogPath()));
    }

    void emptyNameIsRefused()
    {
        CalibrationDialog dialog(defaultScenario());
        QSignalSpy spy(&dialog, &CalibrationDialog::scenarioEditRequested);
        dialog.setMeasurement(CalibrationDialog::Measurement::StepSeconds, QStringLiteral("10"));
        QVERIFY(dialog.fit());
        dialog.findChild<QLineEdit *>(QStringLiteral("calibration.name"))->setText(QStringLiteral("  "));
        QVERIFY(!dialog.save());
        QVERIFY2(dialog.message().startsWith(QStringLiteral("Name of the new entry:")), qPrintable(dialog.message()));
        QCOMPARE(spy.count(), 0);
        QVERIFY(!QFileInfo::exists(catalogPath()));
    }

    // Both pages' "Calibrate" buttons open the dialog on the current scenario, and its request
    // reaches the main window through the page (one undo step there).
    void pagesOpenTheDialogAndForwardItsRequest_data()
    {
        QTest::addColumn<QString>("button");
        QTest::newRow("time") << QStringLiteral("time.calibrate");
        QTest::newRow("validation") << QStringLiteral("validation.calibrate");
    }

    void pagesOpenTheDialogAndForwardItsRequest()
    {
        QFETCH(QString, button);
        std::unique_ptr<Page> page;
        if (button.startsWith(QStringLiteral("time")))
            page = std::make_unique<TimePage>();
        else
            page = std::make_unique<ValidationPage>();
        Scenario scenario = defaultScenario();
        scenario.cluster.gpus /= 2;  // not the default: the dialog calibrates the scenario the page shows
        scenario.training.parallel.dp /= 2;
        const Result<Estimate> estimate = lse::estimate(scenario);
        QVERIFY(estimate.ok());
        auto *calibrate = page->findChild<QPushButton *>(button);
        QVERIFY(calibrate);
        page->showEstimate(scenario, *estimate);
        QVERIFY(calibrate->isEnabled());
        QSignalSpy spy(page.get(), &Page::scenarioEditRequested);
        QTest::mouseClick(calibrate, Qt::LeftButton);
        auto *dialog = page->findChild<CalibrationDialog *>();
        QVERIFY(dialog);
        dialog->setMeasurement(CalibrationDialog::Measurement::StepSeconds,
                               QString::number(predictedSeconds(scenario) * 1.15, 'g', 10));
        QVERIFY2(dialog->fit(), qPrintable(dialog->message()));
        QVERIFY2(dialog->save(), qPrintable(dialog->message()));
        QCOMPARE(spy.count(), 1);
        const Scenario requested = spy.at(0).at(0).value<Scenario>();
        QCOMPARE(requested.cluster.accelerator.id, scenario.cluster.accelerator.id + "-calibrated-1");
        QCOMPARE(requested.cluster.gpus, scenario.cluster.gpus);
    }

    // The editor's GPU list shows saved entries after the built-in ones, and choosing one puts it
    // in the scenario; an entry saved while the editor is open appears when the scenario uses it.
    void editorListsSavedEntries()
    {
        ScenarioDocument document;
        ScenarioEditor editor(&document);
        QComboBox *picker = editor.gpuPicker();
        const int before = picker->count();
        const std::string id = document.scenario().cluster.accelerator.id + "-calibrated-1";
        QCOMPARE(picker->findData(QString::fromStdString(id)), -1);

        CalibrationDialog dialog(document.scenario());
        QSignalSpy spy(&dialog, &CalibrationDialog::scenarioEditRequested);
        dialog.setMeasurement(CalibrationDialog::Measurement::StepSeconds,
                              QString::number(predictedSeconds(document.scenario()) * 1.3, 'g', 10));
        QVERIFY(dialog.fit());
        QVERIFY(dialog.save());
        QCOMPARE(spy.count(), 1);
        document.replaceScenario(spy.at(0).at(0).value<Scenario>(), QStringLiteral("calibrated"));
        const int index = picker->findData(QString::fromStdString(id));
        QVERIFY(index >= 0);
        QCOMPARE(picker->count(), before + 1);
        QCOMPARE(picker->currentIndex(), index);
        QCOMPARE(picker->itemData(picker->count() - 1).toString(), QStringLiteral("custom"));  // still last

        // A new editor lists it from the start; choosing it applies the saved entry.
        ScenarioDocument other;
        ScenarioEditor fresh(&other);
        const int listed = fresh.gpuPicker()->findData(QString::fromStdString(id));
        QVERIFY(listed >= 0);
        fresh.gpuPicker()->setCurrentIndex(listed);
        emit fresh.gpuPicker()->activated(listed);
        QCOMPARE(other.scenario().cluster.accelerator.id, id);
        QCOMPARE(other.scenario().cluster.accelerator.efficiency.gemm_peak_fraction,
                 dialog.result()->factors.gemm_peak_fraction);
    }

    void brokenCatalogFileIsRefusedAndLeftUntouched()
    {
        QVERIFY(QDir().mkpath(QFileInfo(catalogPath()).absolutePath()));
        const QByteArray broken("{\"format\": \"llm-explorer-hardware\", \"version\": 1, \"accelerators\": [");
        {
            QFile file(catalogPath());
            QVERIFY(file.open(QIODevice::WriteOnly));
            QCOMPARE(file.write(broken), broken.size());
        }
        CalibrationDialog dialog(defaultScenario());
        QSignalSpy spy(&dialog, &CalibrationDialog::scenarioEditRequested);
        dialog.setMeasurement(CalibrationDialog::Measurement::StepSeconds, QStringLiteral("10"));
        QVERIFY(dialog.fit());
        QVERIFY(!dialog.save());
        QVERIFY2(dialog.message().contains(catalogPath()), qPrintable(dialog.message()));
        QCOMPARE(spy.count(), 0);
        QCOMPARE(fileBytes(catalogPath()), broken);
    }
};

QTEST_MAIN(TestCalibrationDialog)
#include "test_calibration_dialog.moc"
