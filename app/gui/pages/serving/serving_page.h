// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "inference/quantisation_savings.h"
#include "inference/serving_model.h"
#include "pages/lesson_controls.h"
#include "pages/page.h"

#include <QList>

#include <optional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QSpinBox;
class QTableWidget;
class QVBoxLayout;

namespace lse::gui {

class CpuMeasurementSection;
class ServingCard;

// The serving lab (core/inference): the scenario's model and GPU price served on its accelerator
// with the page's own layout (GPUs, tp, pp), batch, prompt and output lengths, weight / activation /
// KV-cache formats, FlashAttention, the decode kernel's KV reads and a speculative draft. It shows
// TTFT, TPOT, tokens/s per GPU, the largest batch, the cost per million output tokens and whether
// it fits as cards; the memory per GPU; the latency–throughput curve over the batch with the decode
// crossover; the prefill and decode operators on the roofline; what the formats save in bytes; the
// speculative speedup over the acceptance rate; and the latency's named parts. Every figure is
// serve(), sweepBatch(), quantisationSavings() or speculativeSpeedup()'s. The accelerator is the
// scenario's (changing it here is one undoable scenario edit, as in the editor); the other controls
// are the page's own, like the Roofline page's batch and phase.
class ServingPage : public Page {
    Q_OBJECT
public:
    explicit ServingPage(QWidget *parent = nullptr);

    // The page's id and title before it exists (the navigator lists pages built on first show).
    static QString pageId();
    static QString pageTitle();
    QString id() const override { return pageId(); }
    QString title() const override { return pageTitle(); }
    QList<ChartView *> charts() const override;
    void retranslate() override;

    // Lesson settings (serving_controls.cpp; keys in docs/lesson-pages.md).
    QJsonObject lessonSettings() const override;
    bool applyLessonSettings(const QJsonObject &settings, QString *error) override;

    // What the page shows (tests): the report of the chosen inputs, or the problem that stopped it.
    const std::optional<inference::ServingReport> &report() const { return report_; }
    const std::optional<inference::BatchSweep> &sweep() const { return sweep_; }
    QString problemText() const { return problem_; }
    // The inputs the controls describe, with the problems of the page's own fields (GPU count).
    inference::ServingInputs inputs(QStringList *problems = nullptr) const;
    ServingCard *card(const QString &object_name) const;
    QLabel *statusLabel() const { return status_label_; }
    QTableWidget *breakdownTable() const { return breakdown_table_; }
    QTableWidget *quantisationTable() const { return quantisation_table_; }
    // The "This CPU" section: the reference model measured on this machine beside its prediction.
    CpuMeasurementSection *cpuSection() const { return cpu_section_; }

signals:
    // The page recomputed its figures from the controls and the scenario.
    void servingChanged();

protected:
    void estimateChanged(const Scenario *previous) override;
    void applyPresentation(bool presentation) override;
    QList<ChartView *> presentationCharts() const override;
    void resizeEvent(QResizeEvent *event) override;

private:
    // serving_controls.cpp
    void buildControls(QWidget *content, QVBoxLayout *layout);
    void retranslateControls();
    void bindLessonControls();
    void seedControls(const Scenario *previous);
    void fillAcceleratorBox();
    void chooseAccelerator(int index);
    void fillDraftBox();
    // serving_page.cpp
    void refresh();
    void compute();
    void fillCards();
    void fillStatus();
    void placeCards();
    // serving_tables.cpp
    void fillBreakdownTable();
    void fillQuantisationTable();
    QString caveatText() const;

    // Controls.
    QLabel *intro_ = nullptr;
    QLabel *layout_title_ = nullptr;
    QLabel *accelerator_label_ = nullptr;
    QComboBox *accelerator_box_ = nullptr;
    QLabel *gpus_label_ = nullptr;
    QSpinBox *gpus_spin_ = nullptr;
    QLabel *tp_label_ = nullptr;
    QSpinBox *tp_spin_ = nullptr;
    QLabel *pp_label_ = nullptr;
    QSpinBox *pp_spin_ = nullptr;
    QLabel *batch_label_ = nullptr;
    QSpinBox *batch_spin_ = nullptr;
    QLabel *prompt_label_ = nullptr;
    QSpinBox *prompt_spin_ = nullptr;
    QLabel *output_label_ = nullptr;
    QSpinBox *output_spin_ = nullptr;
    QLabel *weights_label_ = nullptr;
    QComboBox *weights_box_ = nullptr;
    QLabel *activations_label_ = nullptr;
    QComboBox *activations_box_ = nullptr;
    QLabel *kv_label_ = nullptr;
    QComboBox *kv_box_ = nullptr;
    QCheckBox *flash_check_ = nullptr;
    QCheckBox *per_query_head_check_ = nullptr;
    QLabel *draft_label_ = nullptr;
    QComboBox *draft_box_ = nullptr;
    QLabel *gamma_label_ = nullptr;
    QSpinBox *gamma_spin_ = nullptr;
    QLabel *alpha_label_ = nullptr;
    QDoubleSpinBox *alpha_spin_ = nullptr;

    // Figures.
    QLabel *status_label_ = nullptr;
    QGridLayout *card_grid_ = nullptr;
    QList<ServingCard *> cards_;
    int card_columns_ = 0;
    ChartView *memory_chart_ = nullptr;
    ChartView *latency_chart_ = nullptr;
    QLabel *roofline_title_ = nullptr;
    ChartView *prefill_roofline_chart_ = nullptr;
    ChartView *decode_roofline_chart_ = nullptr;
    QLabel *quantisation_title_ = nullptr;
    QTableWidget *quantisation_table_ = nullptr;
    QLabel *caveat_label_ = nullptr;
    QLabel *speculative_title_ = nullptr;
    ChartView *speculative_chart_ = nullptr;
    QLabel *breakdown_title_ = nullptr;
    QTableWidget *breakdown_table_ = nullptr;
    CpuMeasurementSection *cpu_section_ = nullptr;

    // The scenario settings the controls were seeded from: re-seeded only when these change.
    int seeded_tp_ = 0;
    bool seeded_flash_ = true;
    std::string seeded_model_;

    std::optional<inference::ServingReport> report_;
    std::optional<inference::BatchSweep> sweep_;
    std::optional<inference::ServingReport> max_batch_report_;
    std::optional<inference::ServingReport> crossover_report_;
    std::optional<inference::QuantisationSavings> savings_;
    std::optional<inference::ServingReport> speculative_report_;
    QString problem_;
    QString speculative_problem_;
    LessonControls lesson_controls_;
};

}  // namespace lse::gui
