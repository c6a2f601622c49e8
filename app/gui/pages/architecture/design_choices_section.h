// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "architecture/design_choices.h"
#include "charts/chart_data.h"
#include "pages/lesson_controls.h"
#include "pages/page_section.h"

#include <optional>

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace lse::gui {

class NormTimingPanel;

// "Choice by choice": one design axis at a time, the scenario against the same scenario with each
// alternative applied (core's compareDesignChoice), as a table with changes and a bar chart
// normalised to the scenario; for attention the KV cache and decode time against context through
// the roofline; for the norm type the LayerNorm/RMSNorm timing on this CPU. Any alternative can be
// applied to the scenario (one undo step).
class DesignChoicesSection : public PageSection {
    Q_OBJECT
public:
    explicit DesignChoicesSection(QWidget *parent = nullptr);

    QString id() const override { return QStringLiteral("choices"); }
    QString title() const override;
    // Lesson settings and regions: docs/lesson-pages.md.
    QJsonObject lessonSettings() const override;
    bool applyLessonSettings(const QJsonObject &settings, QString *error) override;
    void showEstimate(const Scenario &scenario, const Estimate &estimate) override;
    QList<ChartView *> charts() const override;
    void setPresentation(bool presentation) override;
    void retranslate() override;

    void setAxis(DesignAxis axis);
    DesignAxis axis() const;
    // The comparison shown (empty before a valid scenario or when the scenario cannot be estimated).
    const std::optional<DesignComparison> &comparison() const { return comparison_; }
    const std::vector<DecodeCurve> &decodeCurves() const { return decode_curves_; }
    // Emits scenarioEditRequested with variant `index` of comparison() applied; false if there is
    // no such variant, it is the scenario's own choice, or it cannot be estimated.
    bool applyVariant(int index);
    void setDecodeBatch(int batch);
    NormTimingPanel *normTiming() const { return norm_timing_; }
    ChartView *figuresChart() const { return figures_chart_; }
    ChartView *kvChart() const { return kv_chart_; }
    ChartView *decodeChart() const { return decode_chart_; }

protected:
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void recompute();
    void refresh();
    void retranslateControls();
    void fillTable();
    void fillApplyChoices();
    QString parallelBlockText() const;
    ChartData figuresData() const;
    ChartData kvData() const;
    ChartData decodeData() const;
    std::vector<std::int64_t> decodeContexts() const;

    QLabel *intro_;
    QLabel *axis_label_;
    QComboBox *axis_box_;
    QLabel *explanation_;
    QLabel *problems_;
    QTableWidget *table_;
    QLabel *parallel_text_;
    QLabel *apply_label_;
    QComboBox *apply_box_;
    QPushButton *apply_button_;
    ChartView *figures_chart_;
    QWidget *decode_box_;
    QLabel *batch_label_;
    QSpinBox *batch_spin_;
    ChartView *kv_chart_;
    ChartView *decode_chart_;
    NormTimingPanel *norm_timing_;
    bool has_estimate_ = false;
    Scenario scenario_;
    std::optional<DesignComparison> comparison_;
    Problems comparison_problems_;
    std::vector<DecodeCurve> decode_curves_;
    void bindLessonControls();
    LessonControls lesson_controls_;
};

}  // namespace lse::gui
