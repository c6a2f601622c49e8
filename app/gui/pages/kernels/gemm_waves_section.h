// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_data.h"
#include "hardware/accelerator.h"
#include "kernels/gemm_waves.h"
#include "pages/lesson_controls.h"
#include "pages/page_section.h"

#include <QMap>

#include <optional>
#include <vector>

class QComboBox;
class QGridLayout;
class QLabel;
class QSpinBox;

namespace lse::gui {

class GemmTileGrid;
class SideBySideLayout;

// "GEMM tiles and waves" (issue 32, "why 30%"): for an M × N × K product on the scenario's
// accelerator, C cut into the step-time model's thread-block tiles, the tiles coloured by the wave
// of one tile per SM they run in, the last partial wave and its idle SMs; the model's tile, wave,
// depth and total efficiency, predicted time and achieved TFLOP/s (kernels/gemm_waves.h); and the
// saw-tooth of achieved TFLOP/s over N (gemmWaveSweep), on which a click picks N.
class GemmWavesSection : public PageSection {
    Q_OBJECT
public:
    explicit GemmWavesSection(QWidget *parent = nullptr);

    QString id() const override { return QStringLiteral("gemm-waves"); }
    QString title() const override;
    void showEstimate(const Scenario &scenario, const Estimate &estimate) override;
    QList<ChartView *> charts() const override;
    void setPresentation(bool presentation) override;
    void retranslate() override;
    // Keys m, n, k, dtype (docs/lesson-pages.md).
    QJsonObject lessonSettings() const override;
    bool applyLessonSettings(const QJsonObject &settings, QString *error) override;

    void setProblem(const kernels::GemmProblem &problem);
    kernels::GemmProblem problem() const;
    const Accelerator &accelerator() const { return accelerator_; }
    // The figures shown (empty while the inputs are refused; message() then names the field).
    const std::optional<kernels::GemmWaves> &waves() const { return waves_; }
    const std::vector<kernels::GemmSweepPoint> &sweep() const { return sweep_; }
    QString message() const;
    // The shown text of one figure, by key: accelerator, tile, tiles, waves, last_wave,
    // tile_efficiency, wave_efficiency, depth_efficiency, total_efficiency, time, achieved, peak.
    QString figureText(const QString &key) const;
    GemmTileGrid *grid() const { return grid_; }
    ChartView *sweepChart() const { return sweep_chart_; }
    // What a click on the saw-tooth at x = `n` does: N becomes the nearest sweep point's N.
    void pickN(double n);
    // The sweep's range for the current N: from n_step to about 2·N, n_step a fraction of the tile
    // width so the saw-tooth's teeth show.
    struct SweepRange {
        std::int64_t first = 0, last = 0, step = 1;
    };
    SweepRange sweepRange() const;

private:
    void recompute();
    void refreshFigures();
    ChartData sweepData() const;
    void addFigure(const QString &key);

    QLabel *intro_;
    QLabel *m_label_, *n_label_, *k_label_, *dtype_label_;
    QSpinBox *m_spin_, *n_spin_, *k_spin_;
    QComboBox *dtype_box_;
    QLabel *accelerator_label_;
    QLabel *message_label_;
    SideBySideLayout *picture_row_;
    GemmTileGrid *grid_;
    QGridLayout *figures_;
    QMap<QString, QLabel *> figure_names_;
    QMap<QString, QLabel *> figure_values_;
    ChartView *sweep_chart_;
    QLabel *sources_;

    Accelerator accelerator_;
    std::optional<kernels::GemmWaves> waves_;
    std::vector<kernels::GemmSweepPoint> sweep_;
    std::string problem_text_;  // formatProblems of the refused inputs
    LessonControls lesson_controls_;
};

}  // namespace lse::gui
