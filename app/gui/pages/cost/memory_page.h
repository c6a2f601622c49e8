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

    // The page's id and title before it exists (the navigator lists pages built on first show).
    static QString pageId();
    static QString pageTitle();
    QString id() const override { return pageId(); }
    QString title() const override { return pageTitle(); }
    QList<ChartView *> charts() const override;
    void retranslate() override;

protected:
    void estimateChanged(const Scenario *previous) override;

private:
    void refresh();
    ChartData zeroStageChart() const;
    ChartData activationChart() const;

    ChartView *stages_chart_;
    ChartView *activation_chart_;
};

}  // namespace lse::gui
