// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "background_measurement.h"
#include "charts/chart_data.h"
#include "hardware/accelerator.h"
#include "kernels/fusion_chain.h"
#include "pages/lesson_controls.h"
#include "pages/page_section.h"
#include "reference/fusion_measurement.h"
#include "roofline/roofline_machine.h"

#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace lse::gui {

// "Kernel fusion" (issue 32): the element-wise chain after an MLP matmul — bias, GeLU, dropout,
// residual — as four kernels that each read and write HBM vs one fused kernel, on the scenario's
// accelerator (kernels/fusion_chain.h): bytes and predicted time per operator, the chain's points
// on the roofline, the speedup. "Measure on this CPU" runs the same chain in float32 here
// (reference/fusion_measurement.h) off the GUI thread and shows the measured times, the model's
// bytes, GB/s and speedup beside the prediction.
class FusionSection : public PageSection {
    Q_OBJECT
public:
    explicit FusionSection(QWidget *parent = nullptr);
    ~FusionSection() override;

    QString id() const override { return QStringLiteral("fusion"); }
    QString title() const override;
    void showEstimate(const Scenario &scenario, const Estimate &estimate) override;
    QList<ChartView *> charts() const override;
    void setPresentation(bool presentation) override;
    void retranslate() override;
    bool isReady() const override { return !measurement_.isRunning(); }
    // Keys tokens, width, dtype, training, repeats (docs/lesson-pages.md).
    QJsonObject lessonSettings() const override;
    bool applyLessonSettings(const QJsonObject &settings, QString *error) override;

    void setConfig(const kernels::FusionChainConfig &config);
    kernels::FusionChainConfig config() const;
    void setRepeats(int repeats);
    const Accelerator &accelerator() const { return accelerator_; }
    const std::optional<kernels::FusionChain> &chain() const { return chain_; }
    // The refused inputs, naming the field ("tokens: …"); empty when the figures are shown.
    QString message() const;
    QString summaryText() const;

    void measure();
    void cancel();
    bool isRunning() const { return measurement_.isRunning(); }
    // The last finished measurement; cleared when the inputs change (it was for other sizes).
    const std::optional<reference::FusionMeasurement> &measured() const { return measured_; }
    QString measureStatus() const;
    QTableWidget *measuredTable() const { return measured_table_; }
    ChartView *bytesChart() const { return bytes_chart_; }
    ChartView *timeChart() const { return time_chart_; }
    ChartView *rooflineChart() const { return roofline_chart_; }
    RooflineMachine rooflineMachineShown() const;

signals:
    void measurementFinished(bool cancelled);

private:
    void recompute();
    void refreshMeasured();
    void finish(const Result<reference::FusionMeasurement> &result);
    ChartData bytesData() const;
    ChartData timeData() const;
    ChartData rooflineData() const;
    QStringList categoryNames() const;

    QLabel *intro_;
    QLabel *tokens_label_, *width_label_, *dtype_label_, *repeats_label_;
    QSpinBox *tokens_spin_, *width_spin_, *repeats_spin_;
    QComboBox *dtype_box_;
    QCheckBox *training_box_;
    QLabel *accelerator_label_;
    QLabel *message_label_;
    QLabel *summary_;
    ChartView *bytes_chart_;
    ChartView *time_chart_;
    ChartView *roofline_chart_;
    QLabel *measure_intro_;
    QPushButton *measure_button_;
    QPushButton *cancel_button_;
    QProgressBar *progress_;
    QLabel *measure_status_;
    QTableWidget *measured_table_;
    QLabel *measured_summary_;
    QLabel *sources_;

    Accelerator accelerator_;
    std::optional<kernels::FusionChain> chain_;
    std::string problem_text_;
    BackgroundMeasurement measurement_;
    std::optional<reference::FusionMeasurement> measured_;
    QString measure_message_;
    LessonControls lesson_controls_;
};

}  // namespace lse::gui
