// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/validation/calibration_dialog.h"

#include "hardware/user_hardware_catalog.h"
#include "pages/page.h"
#include "pages/page_format.h"
#include "performance/step_prediction.h"

#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

#include <cmath>

namespace lse::gui {

namespace {

QString problemsText(const Problems &problems)
{
    QStringList lines;
    for (const Problem &problem : problems)
        lines << format::fromStd(problem.message);
    return lines.join(QLatin1Char('\n'));
}

// The user's locale first ("12,5" in German), then the C locale ("12.5" everywhere).
std::optional<double> parseNumber(const QString &text)
{
    bool ok = false;
    double value = QLocale().toDouble(text, &ok);
    if (!ok)
        value = QLocale::c().toDouble(text, &ok);
    if (!ok || !std::isfinite(value))
        return std::nullopt;
    return value;
}

}  // namespace

CalibrationDialog::CalibrationDialog(const Scenario &scenario, QWidget *parent) : QDialog(parent), scenario_(scenario)
{
    setWindowTitle(tr("Calibrate %1").arg(format::fromStd(scenario.cluster.accelerator.name)));
    setObjectName(QStringLiteral("calibration"));

    kind_ = new QComboBox;
    kind_->setObjectName(QStringLiteral("calibration.kind"));
    kind_->addItem(tr("Measured step time (s)"), int(Measurement::StepSeconds));
    kind_->addItem(tr("Measured model TFLOP/s per GPU"), int(Measurement::ModelTflopsPerGpu));
    kind_->setToolTip(tr("Model TFLOP/s count matmul FLOPs without recomputation, as this app's MFU does"));
    value_ = new QLineEdit;
    value_->setObjectName(QStringLiteral("calibration.measured"));
    value_label_ = new QLabel;
    before_label_ = new QLabel;
    before_label_->setWordWrap(true);
    fit_button_ = new QPushButton(tr("Fit"));
    fit_button_->setObjectName(QStringLiteral("calibration.fit"));
    result_label_ = new QLabel;
    result_label_->setObjectName(QStringLiteral("calibration.result"));
    result_label_->setWordWrap(true);
    name_ = new QLineEdit(tr("%1 (calibrated)").arg(format::fromStd(scenario.cluster.accelerator.name)));
    name_->setObjectName(QStringLiteral("calibration.name"));
    save_button_ = new QPushButton(tr("Save as new hardware entry"));
    save_button_->setObjectName(QStringLiteral("calibration.save"));
    save_button_->setEnabled(false);
    save_button_->setToolTip(tr("Appends the accelerator with the fitted factor to %1 and uses it in the scenario")
                                 .arg(format::fromStd(userHardwareCatalogPath())));
    message_label_ = new QLabel;
    message_label_->setObjectName(QStringLiteral("calibration.message"));
    message_label_->setWordWrap(true);
    message_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *form = new QFormLayout;
    form->addRow(tr("Measurement"), kind_);
    form->addRow(value_label_, value_);
    form->addRow(QString(), fit_button_);
    form->addRow(tr("Name of the new entry"), name_);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->addButton(save_button_, QDialogButtonBox::ActionRole);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(before_label_);
    layout->addLayout(form);
    layout->addWidget(result_label_);
    layout->addWidget(message_label_);
    layout->addStretch(1);
    layout->addWidget(buttons);

    const Result<performance::StepPrediction> before = performance::predictStep(scenario_);
    if (before) {
        predicted_before_seconds_ = before->total_seconds;
        const QString factors_source = before->efficiency.source.empty()
                                           ? tr("catalog default")
                                           : format::fromStd(before->efficiency.source);
        before_label_->setText(tr("Current scenario on %1 (%n GPU(s)): predicted step %2 s, MFU %3, with GEMM peak "
                                  "fraction %4 (%5).",
                                  nullptr, scenario_.cluster.gpus)
                                   .arg(format::fromStd(scenario_.cluster.accelerator.name),
                                        format::decimal(before->total_seconds, 3), format::percent(before->mfu, 1),
                                        format::decimal(before->efficiency.gemm_peak_fraction, 3), factors_source));
    } else {
        before_label_->setText(tr("The current scenario cannot be predicted:\n%1").arg(problemsText(before.problems())));
        fit_button_->setEnabled(false);
    }
    value_label_->setText(measurementFieldName());

    connect(kind_, &QComboBox::currentIndexChanged, this, [this] {
        value_label_->setText(measurementFieldName());
        invalidateFit();
    });
    connect(value_, &QLineEdit::textEdited, this, &CalibrationDialog::invalidateFit);
    connect(value_, &QLineEdit::returnPressed, this, &CalibrationDialog::fit);
    connect(fit_button_, &QPushButton::clicked, this, &CalibrationDialog::fit);
    connect(save_button_, &QPushButton::clicked, this, &CalibrationDialog::save);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

void CalibrationDialog::openFor(const Scenario &scenario, Page *page)
{
    auto *dialog = new CalibrationDialog(scenario, page);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &CalibrationDialog::scenarioEditRequested, page, &Page::scenarioEditRequested);
    dialog->open();
}

void CalibrationDialog::setMeasurement(Measurement kind, const QString &value)
{
    kind_->setCurrentIndex(kind_->findData(int(kind)));
    value_->setText(value);
    invalidateFit();
}

QString CalibrationDialog::measurementFieldName() const
{
    return kind_->currentText();
}

QString CalibrationDialog::message() const
{
    return message_label_->text();
}

void CalibrationDialog::invalidateFit()
{
    result_.reset();
    save_button_->setEnabled(false);
    result_label_->clear();
}

void CalibrationDialog::showMessage(const QString &text, bool error)
{
    message_label_->setText(text);
    message_label_->setStyleSheet(error ? QStringLiteral("color: #d62728;") : QString());
}

bool CalibrationDialog::fit()
{
    invalidateFit();
    const QString field = measurementFieldName();
    const QString text = value_->text().trimmed();
    if (text.isEmpty()) {
        showMessage(tr("%1: enter a value").arg(field), true);
        return false;
    }
    const std::optional<double> value = parseNumber(text);
    if (!value) {
        showMessage(tr("%1: '%2' is not a number").arg(field, text), true);
        return false;
    }
    if (*value <= 0) {
        showMessage(tr("%1: must be greater than 0 (got %2)").arg(field, text), true);
        return false;
    }
    const bool tflops = Measurement(kind_->currentData().toInt()) == Measurement::ModelTflopsPerGpu;
    double measured_seconds = *value;
    if (tflops) {
        const Result<double> converted = performance::stepSecondsFromModelTflops(scenario_, *value);
        if (!converted) {
            showMessage(tr("%1: %2").arg(field, problemsText(converted.problems())), true);
            return false;
        }
        measured_seconds = *converted;
    }
    performance::CalibrationOptions options;
    options.parameters = {EfficiencyParameter::GemmPeakFraction};  // one measurement determines one parameter
    const Result<performance::CalibrationResult> fitted = performance::calibrateEfficiency(
        {performance::CalibrationPoint{"measured", scenario_, measured_seconds}}, scenario_.cluster.accelerator.efficiency,
        options);
    if (!fitted) {
        showMessage(tr("%1: the fit failed:\n%2").arg(field, problemsText(fitted.problems())), true);
        return false;
    }
    const Result<performance::StepPrediction> after = performance::predictStep(scenario_, fitted->factors);
    if (!after) {
        showMessage(tr("The fitted factor cannot be used:\n%1").arg(problemsText(after.problems())), true);
        return false;
    }
    result_ = *fitted;
    measured_step_seconds_ = measured_seconds;
    measured_text_ = tflops ? tr("%1 model TFLOP/s per GPU (a step of %2 s)").arg(text, format::decimal(measured_seconds, 3))
                            : tr("a step of %1 s").arg(text);
    result_label_->setText(tr("Measured step %1 s. Fitted GEMM peak fraction %2 (was %3); predicted step %4 s (was %5 s), "
                              "MFU %6; remaining error %7.")
                               .arg(format::decimal(measured_seconds, 3), format::decimal(fitted->factors.gemm_peak_fraction, 4),
                                    format::decimal(scenario_.cluster.accelerator.efficiency.gemm_peak_fraction, 4),
                                    format::decimal(after->total_seconds, 3), format::decimal(predicted_before_seconds_, 3),
                                    format::percent(after->mfu, 1), format::percent(fitted->worst_absolute_error, 2)));
    showMessage(QString(), false);
    save_button_->setEnabled(true);
    return true;
}

Accelerator CalibrationDialog::calibratedAccelerator(const std::string &id) const
{
    const Accelerator &original = scenario_.cluster.accelerator;
    Accelerator calibrated = original;
    calibrated.id = id;
    calibrated.name = name_->text().trimmed().toStdString();
    calibrated.efficiency = result_->factors;
    const std::string when = QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
    const std::string what = measured_text_.toStdString();
    calibrated.efficiency.source = "gemm_peak_fraction fitted to " + what + " measured by the user (" + when
                                   + "); other factors from " + original.id + ": " + original.efficiency.source;
    calibrated.source = "calibrated from " + original.id + " to " + what + " (" + when + "); figures from: " + original.source;
    return calibrated;
}

bool CalibrationDialog::save()
{
    if (!result_) {
        showMessage(tr("Fit first: enter a measurement and press Fit"), true);
        return false;
    }
    if (name_->text().trimmed().isEmpty()) {
        showMessage(tr("Name of the new entry: enter a name"), true);
        return false;
    }
    const std::string path = userHardwareCatalogPath();
    const Result<HardwareCatalog> existing = loadUserHardwareCatalog(path);
    if (!existing) {
        showMessage(tr("Not saved; the hardware file was left as it is:\n%1").arg(problemsText(existing.problems())), true);
        return false;
    }
    const Accelerator calibrated =
        calibratedAccelerator(nextCalibratedAcceleratorId(scenario_.cluster.accelerator.id, *existing));
    const Result<HardwareCatalog> saved = appendToUserHardwareCatalog(path, calibrated);
    if (!saved) {
        showMessage(tr("Not saved:\n%1").arg(problemsText(saved.problems())), true);
        return false;
    }
    Scenario changed = scenario_;
    changed.cluster.accelerator = calibrated;
    showMessage(tr("Saved as %1 in %2").arg(format::fromStd(calibrated.id), format::fromStd(path)), false);
    emit scenarioEditRequested(changed, tr("Use calibrated accelerator %1").arg(format::fromStd(calibrated.name)));
    accept();
    return true;
}

}  // namespace lse::gui
