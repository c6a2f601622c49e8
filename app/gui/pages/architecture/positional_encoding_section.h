// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_data.h"
#include "pages/lesson_controls.h"
#include "pages/page_section.h"

class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace lse::gui {

// The positional encodings drawn from core/architecture/positional_encodings.h: the sinusoidal
// table as a heat map (position × dimension), RoPE's rotation frequency per dimension pair and the
// angle of a few pairs against position, and ALiBi's bias per head against distance. d_model,
// head_dim and heads follow the scenario's model until the user changes them.
class PositionalEncodingSection : public PageSection {
    Q_OBJECT
public:
    explicit PositionalEncodingSection(QWidget *parent = nullptr);

    QString id() const override { return QStringLiteral("positional-encodings"); }
    QString title() const override;
    // Lesson settings and regions: docs/lesson-pages.md.
    QJsonObject lessonSettings() const override;
    bool applyLessonSettings(const QJsonObject &settings, QString *error) override;
    void showEstimate(const Scenario &scenario, const Estimate &estimate) override;
    QList<ChartView *> charts() const override;
    void setPresentation(bool presentation) override;
    void retranslate() override;

    void setDModel(int d_model);
    void setHeadDim(int head_dim);
    void setHeads(int heads);
    void setRopeBase(double base);
    void setPositions(int positions);
    ChartView *sinusoidalChart() const { return sinusoidal_chart_; }
    ChartView *ropeFrequencyChart() const { return rope_frequency_chart_; }
    ChartView *ropeAngleChart() const { return rope_angle_chart_; }
    ChartView *alibiChart() const { return alibi_chart_; }
    // Dimension columns drawn in the heat map (every pair when d_model ≤ 64, else a stride).
    std::vector<int> heatMapDimensions() const;
    // Pairs drawn in the angle chart.
    std::vector<int> anglePairs() const;
    // Heads drawn in the ALiBi chart (all up to 16, else 8 spread over them).
    std::vector<int> alibiHeads() const;

private:
    void refresh();
    void retranslateControls();
    ChartData sinusoidalData() const;
    ChartData ropeFrequencyData() const;
    ChartData ropeAngleData() const;
    ChartData alibiData() const;

    QLabel *intro_;
    QLabel *d_label_;
    QSpinBox *d_spin_;
    QLabel *head_dim_label_;
    QSpinBox *head_dim_spin_;
    QLabel *heads_label_;
    QSpinBox *heads_spin_;
    QLabel *base_label_;
    QDoubleSpinBox *base_spin_;
    QLabel *positions_label_;
    QSpinBox *positions_spin_;
    ChartView *sinusoidal_chart_;
    ChartView *rope_frequency_chart_;
    ChartView *rope_angle_chart_;
    ChartView *alibi_chart_;
    bool updating_ = false;
    void bindLessonControls();
    LessonControls lesson_controls_;
};

}  // namespace lse::gui
