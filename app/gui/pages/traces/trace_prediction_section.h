// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_data.h"
#include "pages/traces/trace_session.h"
#include "scenario/scenario.h"
#include "traces/trace_vs_prediction.h"

#include <QWidget>

#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QTableWidget;

namespace lse::gui {

class ChartView;

// The Trace page's "Measured vs predicted" tab (core/traces/trace_vs_prediction.h): every GEMM call
// of the trace beside the engine's kernel time on an accelerator (the trace's device when the
// catalog has it, or one picked here), and with "Compare with the current scenario" the trace's
// steps beside the scenario's predicted step: per class, per operator, MFU and where the measured
// step's time went (MissingTime). Every figure is predictTraceGemms' or compareWithPrediction's.
class TracePredictionSection : public QWidget {
    Q_OBJECT
public:
    explicit TracePredictionSection(QWidget *parent = nullptr);

    // The rank shown (null: none) and the document's scenario; recomputes what is shown.
    void setTrace(const LoadedTrace *trace);
    void setScenario(const Scenario &scenario);
    void retranslate();
    // Charts with data (for export).
    QList<ChartView *> charts() const;
    QList<ChartView *> allCharts() const;

    // "trace" (the trace's device) or a catalog id.
    QString acceleratorChoice() const;
    bool chooseAccelerator(const QString &choice);
    bool comparing() const;
    void setComparing(bool on);

    // Tests.
    const std::optional<traces::GemmPredictionSummary> &gemms() const { return gemms_; }
    const std::optional<traces::TraceVsPrediction> &comparison() const { return comparison_; }
    QString gemmProblem() const { return gemm_problem_; }
    QString comparisonProblem() const { return comparison_problem_; }
    QTableWidget *gemmTable() const { return gemm_table_; }
    QTableWidget *operatorTable() const { return operator_table_; }
    ChartView *missingTimeChart() const { return missing_chart_; }
    ChartView *classChart() const { return class_chart_; }
    ChartView *gemmChart() const { return gemm_chart_; }

    // The names of MissingTime's parts in chart order (tests and the docs).
    static QStringList missingTimePartNames();

signals:
    // The GEMM predictions changed (the Roofline overlay names a point's predicted counterpart).
    void gemmsChanged();

private:
    void fillAcceleratorBox();
    void recompute();
    void fillGemms();
    void fillComparison();
    ChartData gemmChartData() const;
    ChartData classChartData() const;
    ChartData missingChartData() const;

    const LoadedTrace *trace_ = nullptr;
    Scenario scenario_;
    bool has_scenario_ = false;

    QLabel *accelerator_label_ = nullptr;
    QComboBox *accelerator_box_ = nullptr;
    QCheckBox *compare_check_ = nullptr;
    QLabel *gemm_summary_ = nullptr;
    ChartView *gemm_chart_ = nullptr;
    QTableWidget *gemm_table_ = nullptr;
    QLabel *comparison_summary_ = nullptr;
    ChartView *class_chart_ = nullptr;
    ChartView *missing_chart_ = nullptr;
    QTableWidget *operator_table_ = nullptr;

    std::optional<traces::GemmPredictionSummary> gemms_;
    QString gemm_problem_;
    std::optional<traces::TraceVsPrediction> comparison_;
    QString comparison_problem_;
};

}  // namespace lse::gui
