// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "background_measurement.h"
#include "architecture/norm_timing.h"
#include "charts/chart_data.h"

#include <QString>
#include <QWidget>

#include <atomic>
#include <optional>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace lse::gui {

class ChartView;

// LayerNorm vs RMSNorm measured on this CPU (core's timeNorms) off the GUI thread, as the Roofline
// page runs the reference ops: Measure starts a worker thread, the progress bar follows each timed
// call, Cancel stops it between calls. Results: ms, GB/s and GFLOP/s against the operator list's
// FLOPs and bytes, in a table and a chart.
class NormTimingPanel : public QWidget {
    Q_OBJECT
public:
    explicit NormTimingPanel(QWidget *parent = nullptr);
    ~NormTimingPanel() override;

    // The (N, D) to time; shown until Measure is pressed.
    void setRequest(const NormTimingRequest &request);
    const NormTimingRequest &request() const { return request_; }
    // The norms' share of the scenario's layer (FLOPs, bytes, roofline time), shown above the
    // measurement; nothing for a scenario the engine refuses.
    void setShare(const std::optional<NormShare> &share);
    void measure();
    void cancel();
    bool isRunning() const { return measurement_.isRunning(); }
    // The last finished measurement (empty before the first, kept when a later one is cancelled).
    const std::optional<NormTiming> &result() const { return result_; }
    ChartView *chart() const { return chart_; }
    void retranslate();

signals:
    void finished(bool cancelled);

private:
    void finish(const Result<NormTiming> &timing);
    void refresh();
    ChartData chartData() const;

    QLabel *intro_;
    QLabel *share_label_;
    std::optional<NormShare> share_;
    QPushButton *measure_button_;
    QPushButton *cancel_button_;
    QProgressBar *progress_;
    QLabel *status_;
    QTableWidget *table_;
    ChartView *chart_;
    BackgroundMeasurement measurement_;
    NormTimingRequest request_;
    std::optional<NormTiming> result_;
    QString message_;
};

}  // namespace lse::gui
