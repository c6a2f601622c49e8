// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_data.h"
#include "pages/page.h"

class QPushButton;

namespace lse::gui {

// How long the run takes: training days against the GPU count (data parallelism scaled, model
// parallelism kept) and against MFU, with the current scenario marked.
class TimePage : public Page {
    Q_OBJECT
public:
    explicit TimePage(QWidget *parent = nullptr);

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
    ChartData gpuCountChart() const;
    // " — current: step 4.36 s (± 6%), 12.3 days (± 6%)" when the MFU is predicted, else empty.
    QString currentBandText() const;
    // "; error band ± 15.1 % (basis)" or "; <basis>" for the charts' inputs when the MFU is predicted.
    QString bandInputsText() const;
    ChartData mfuChart() const;
    QString formulaText() const;
    QString gpuCountFormulaText() const;  // the formula, saying when each count's MFU is predicted
    QString sourceText() const;

    ChartView *gpu_chart_;
    ChartView *mfu_chart_;
    QPushButton *calibrate_button_;  // opens the CalibrationDialog for the current scenario
};

}  // namespace lse::gui
