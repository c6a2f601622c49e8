// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kernels/flash_attention_io.h"
#include "kernels/flash_attention_steps.h"
#include "pages/page_section.h"
#include "roofline/roofline_machine.h"

#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;
class QToolButton;

namespace lse::gui {

class FlashAttentionAnimation;
class FlashAttentionCounters;
class SideBySideLayout;
class StepPlayer;

// The "Inside the GPU" page's FlashAttention tab (issue 32): one attention head's forward pass
// step by step, for N, d, M, the element size, the causal mask and the algorithm (standard = Dao et
// al. 2022 Algorithm 0, FlashAttention = Algorithm 1, FlashAttention-2's loop order = Dao 2023
// Algorithm 1), with live HBM counters beside standard attention's totals, and charts of the
// traffic over N and M and of the passes on the scenario accelerator's roofline. Every figure is
// core/kernels'; this class wires inputs to it.
class FlashAttentionSection : public PageSection {
    Q_OBJECT
public:
    explicit FlashAttentionSection(QWidget *parent = nullptr);

    QString id() const override { return QStringLiteral("flash-attention"); }
    QString title() const override;
    void showEstimate(const Scenario &scenario, const Estimate &estimate) override;
    QList<ChartView *> charts() const override;
    void setPresentation(bool presentation) override;
    void retranslate() override;

    // Lessons (flash_attention_lesson.cpp, docs/lesson-pages.md): "sequence_length", "head_dim",
    // "sram_bytes", "element_bytes", "causal", "algorithm", "step".
    QJsonObject lessonSettings() const override;
    bool applyLessonSettings(const QJsonObject &settings, QString *error) override;
    bool advanceLessonAnimation() override;
    bool restartLessonAnimation() override;
    QList<QWidget *> lessonAnimationWidgets() const override;

    // The inputs, as a user sets them (each recomputes).
    void setSequenceLength(int n);
    void setHeadDim(int d);
    void setSramBytes(int bytes);
    void setElementBytes(int bytes);  // 1, 2 or 4
    void setCausal(bool causal);
    void setAlgorithm(kernels::AttentionAlgorithm algorithm);
    kernels::AttentionConfig config() const;
    kernels::AttentionAlgorithm algorithm() const;
    // M from the scenario's accelerator (shared memory per SM), or nothing when the catalog has none.
    std::optional<std::int64_t> acceleratorSramBytes() const { return accelerator_sram_bytes_; }

    // Core's results for the inputs: the closed forms (none when the inputs are refused) and the
    // steps (none when refused or past kMaxAttentionSteps).
    const std::optional<kernels::AttentionIo> &io() const { return io_; }
    const kernels::AttentionSteps *steps() const { return steps_.get(); }
    // Why the inputs are refused, naming the field and the rule; empty when they are valid.
    QString problemText() const;
    // Why there is no animation (the step limit) or no m and ℓ (the example's limits); empty if none.
    QString animationNote() const;

    StepPlayer *player() const { return player_; }
    FlashAttentionAnimation *animation() const { return animation_; }
    FlashAttentionCounters *counters() const { return counters_; }
    ChartView *ioOverSequenceChart() const { return io_over_n_chart_; }
    ChartView *ioOverSramChart() const { return io_over_m_chart_; }
    ChartView *rooflineChart() const { return roofline_chart_; }

signals:
    // The inputs changed and io(), steps() and the charts follow them.
    void computed();

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    void buildControls(QWidget *content);
    void recompute();
    void showStep(int step);
    void refreshTexts();
    void refreshCharts();
    void resetSramToAccelerator();
    QString sramSourceText() const;

    QLabel *intro_;
    QLabel *n_label_;
    QSpinBox *n_spin_;
    QLabel *d_label_;
    QSpinBox *d_spin_;
    QLabel *m_label_;
    QSpinBox *m_spin_;
    QToolButton *m_reset_;
    QLabel *element_label_;
    QComboBox *element_box_;
    QCheckBox *causal_check_;
    QLabel *algorithm_label_;
    QComboBox *algorithm_box_;
    QLabel *sram_note_;
    QLabel *blocks_label_;
    QLabel *problem_label_;
    StepPlayer *player_;
    QLabel *caption_;
    FlashAttentionAnimation *animation_;
    FlashAttentionCounters *counters_;
    QLabel *charts_intro_;
    SideBySideLayout *io_charts_layout_;
    ChartView *io_over_n_chart_;
    ChartView *io_over_m_chart_;
    ChartView *roofline_chart_;

    // The scenario's accelerator: its per-SM shared memory (M's default) and its roofline.
    Accelerator accelerator_;
    std::optional<std::int64_t> accelerator_sram_bytes_;
    std::optional<kernels::AttentionIo> io_;
    std::shared_ptr<const kernels::AttentionSteps> steps_;
    Problems problems_;       // the inputs' (validateAttentionConfig)
    QString animation_note_;  // the step limit
    QString values_note_;     // why there are no m and ℓ (the example's limits)
    bool presentation_ = false;
};

}  // namespace lse::gui
