// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "performance/calibration.h"
#include "scenario/scenario.h"

#include <QDialog>

#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace lse::gui {

class Page;

// Fits the current scenario's accelerator to one measured run of the user's: a step time in
// seconds or a model TFLOP/s per GPU (converted by performance::stepSecondsFromModelTflops). With
// one measurement only the GEMM peak fraction is fitted (calibrateEfficiency). "Save as new
// hardware entry" appends the accelerator with the fitted factors to the user's hardware catalog
// (core/hardware/user_hardware_catalog.h) and asks for the scenario with it (one undo step).
// Bad input names the field in the message and neither fits nor saves anything.
class CalibrationDialog : public QDialog {
    Q_OBJECT
public:
    enum class Measurement { StepSeconds, ModelTflopsPerGpu };

    explicit CalibrationDialog(const Scenario &scenario, QWidget *parent = nullptr);

    // Opens a dialog for `scenario` whose scenario edit `page` forwards to the main window.
    static void openFor(const Scenario &scenario, Page *page);

    void setMeasurement(Measurement kind, const QString &value);
    // Fits to the entered measurement; false (and the message names the field) on bad input or a
    // failed fit.
    bool fit();
    // Saves the fitted accelerator under the entered name and emits scenarioEditRequested; false
    // (message shown, nothing written or requested) without a fit, without a name, or when the
    // catalog file cannot be read or written.
    bool save();

    const std::optional<performance::CalibrationResult> &result() const { return result_; }
    QString message() const;

signals:
    void scenarioEditRequested(const lse::Scenario &scenario, const QString &description);

private:
    QString measurementFieldName() const;
    void invalidateFit();
    void showMessage(const QString &text, bool error);
    Accelerator calibratedAccelerator(const std::string &id) const;

    Scenario scenario_;
    double predicted_before_seconds_ = 0;  // 0: the scenario cannot be predicted
    double measured_step_seconds_ = 0;     // of the last successful fit
    QString measured_text_;                // what the user entered, for the entry's source
    std::optional<performance::CalibrationResult> result_;

    QComboBox *kind_;
    QLineEdit *value_;
    QLabel *value_label_;
    QLabel *before_label_;
    QPushButton *fit_button_;
    QLabel *result_label_;
    QLineEdit *name_;
    QPushButton *save_button_;
    QLabel *message_label_;
};

}  // namespace lse::gui
