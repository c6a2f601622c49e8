// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_data.h"
#include "pages/page.h"

namespace lse::gui {

// Where a GPU's memory goes: model states per ZeRO stage next to inference (weights + KV cache),
// and activation memory against sequence length for each recomputation setting.
class MemoryPage : public Page {
    Q_OBJECT
public:
    explicit MemoryPage(QWidget *parent = nullptr);

    QString id() const override;
    QString title() const override;
    void showEstimate(const Scenario &scenario, const Estimate &estimate) override;
    QList<ChartView *> charts() const override;
    void setPresentation(bool presentation) override;
    void retranslate() override;

protected:
    void changeEvent(QEvent *event) override;

private:
    void refresh();
    ChartData zeroStageChart() const;
    ChartData activationChart() const;

    ChartView *stages_chart_;
    ChartView *activation_chart_;
    bool has_estimate_ = false;
    Scenario scenario_;
    Estimate estimate_;
};

}  // namespace lse::gui
