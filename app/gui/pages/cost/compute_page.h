// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_data.h"
#include "cost/sweeps.h"
#include "pages/page.h"

#include <optional>


namespace lse::gui {

class SideBySideLayout;

// Where the FLOPs go: forward FLOPs per token by component for the current model, and how the
// attention-score share shrinks as models widen and grows with the context.
class ComputePage : public Page {
    Q_OBJECT
public:
    explicit ComputePage(QWidget *parent = nullptr);

    // The page's id and title before it exists (the navigator lists pages built on first show).
    static QString pageId();
    static QString pageTitle();
    QString id() const override { return pageId(); }
    QString title() const override { return pageTitle(); }
    QList<ChartView *> charts() const override;
    void retranslate() override;

protected:
    void estimateChanged(const Scenario *previous) override;
    void applyPresentation(bool presentation) override;

private:
    void refresh();
    ChartData componentChart() const;
    ChartData acrossModelsChart();
    ChartData seqLenChart() const;

    SideBySideLayout *pair_;  // the component and sequence-length charts
    ChartView *component_chart_;
    ChartView *models_chart_;
    ChartView *seq_len_chart_;
    // The preset sweep depends only on the sequence length and the attention convention, which
    // most edits leave alone: it is kept between updates.
    struct ModelsCache {
        std::int64_t seq_len = 0;
        AttentionFlops attention_flops = AttentionFlops::Full;
        ModelComputeShareSweep sweep;
    };
    std::optional<ModelsCache> models_cache_;
};

}  // namespace lse::gui
