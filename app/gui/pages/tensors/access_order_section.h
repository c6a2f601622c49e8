// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "background_measurement.h"
#include "charts/chart_data.h"
#include "pages/lesson_controls.h"
#include "pages/page_section.h"
#include "tensors/access_timing.h"

#include <atomic>
#include <optional>

class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace lse::gui {

// The Tensors page's "Why layout matters" tab: the same work in two access orders timed on this CPU
// (core/tensors/access_timing.h) off the GUI thread, as NormTimingPanel does: an Eigen product on a
// contiguous vs a transposed operand, a loop reading a matrix by rows vs by columns, and the copy
// that makes the strided view contiguous, with the bytes each reads, ms, GB/s and GFLOP/s.
class AccessOrderSection : public PageSection {
    Q_OBJECT
public:
    explicit AccessOrderSection(QWidget *parent = nullptr);
    ~AccessOrderSection() override;

    QString id() const override { return QStringLiteral("access-order"); }
    QString title() const override;
    // Lesson settings and regions: docs/lesson-pages.md.
    QJsonObject lessonSettings() const override;
    bool applyLessonSettings(const QJsonObject &settings, QString *error) override;
    void showEstimate(const Scenario &scenario, const Estimate &estimate) override;
    QList<ChartView *> charts() const override;
    void setPresentation(bool presentation) override;
    void retranslate() override;
    bool isReady() const override { return !measurement_.isRunning(); }

    // The sizes to time (the spin boxes show them); Measure uses them.
    void setRequest(const AccessTimingRequest &request);
    AccessTimingRequest request() const;
    void measure();
    void cancel();
    bool isRunning() const { return measurement_.isRunning(); }
    // The last finished measurement (kept when a later one is cancelled).
    const std::optional<AccessTiming> &result() const { return result_; }
    ChartView *timeChart() const { return time_chart_; }
    ChartView *bandwidthChart() const { return bandwidth_chart_; }
    QTableWidget *table() const { return table_; }

signals:
    void finished(bool cancelled);

private:
    void finish(const Result<AccessTiming> &timing);
    void refresh();
    QString verdict() const;
    ChartData timeData() const;
    ChartData bandwidthData() const;
    std::vector<AccessVariantTiming> shownVariants() const;

    QLabel *intro_;
    QLabel *matmul_label_;
    QSpinBox *matmul_spin_;
    QLabel *rows_label_;
    QSpinBox *rows_spin_;
    QLabel *cols_label_;
    QSpinBox *cols_spin_;
    QLabel *repetitions_label_;
    QSpinBox *repetitions_spin_;
    QPushButton *measure_button_;
    QPushButton *cancel_button_;
    QProgressBar *progress_;
    QLabel *status_;
    QTableWidget *table_;
    QLabel *verdict_;
    ChartView *time_chart_;
    ChartView *bandwidth_chart_;
    QLabel *sources_;
    BackgroundMeasurement measurement_;
    std::optional<AccessTiming> result_;
    QString message_;
    void bindLessonControls();
    LessonControls lesson_controls_;
};

}  // namespace lse::gui
