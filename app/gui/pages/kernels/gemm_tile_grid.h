// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kernels/gemm_waves.h"

#include <QColor>
#include <QRectF>
#include <QWidget>

#include <optional>

namespace lse::gui {

// C = A·B cut into the thread-block tiles of kernels/gemm_waves (the step-time model's tiling),
// each tile coloured by the wave it runs in (tile t → wave ⌊t / SMs⌋, row-major), the last wave
// drawn in a highlight colour when it is partial, the padding of edge tiles beyond C's M × N
// hatched (tile quantisation), and below the grid one cell per SM for the last wave: busy or idle
// (wave quantisation). A legend names the colours. Only paints what GemmWaves holds.
class GemmTileGrid : public QWidget {
    Q_OBJECT
public:
    // Past this many tiles the grid is not drawn cell by cell (a 1M × 1M product has 67M tiles);
    // the picture says so and shows the figures only.
    static constexpr std::int64_t kMaxDrawnTiles = 1 << 16;

    explicit GemmTileGrid(QWidget *parent = nullptr);

    void setWaves(const std::optional<kernels::GemmWaves> &waves);
    const std::optional<kernels::GemmWaves> &waves() const { return waves_; }
    void setPresentation(bool presentation);

    // The colour of wave w (0-based): waves cycle through the chart palette's colours; a partial
    // last wave gets the highlight colour (the palette's reference colour) whatever its index.
    QColor waveColor(std::int64_t wave) const;
    // The colour tile t is painted in: waveColor(waves.waveOfTile(t)).
    QColor tileColor(std::int64_t tile) const;
    // Where tile t is painted (widget coordinates); empty when the grid is not drawn.
    QRectF tileRect(std::int64_t tile) const;
    // Where the last wave's SM cell `sm` is painted; empty when there is no grid.
    QRectF smRect(std::int64_t sm) const;
    bool lastWaveIsPartial() const;
    // How many waves the legend lists one by one: the four colours full waves cycle through.
    static constexpr int kLegendWaves = 4;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    struct Geometry {
        QRectF grid;        // the tile grid (row_tiles × column_tiles cells)
        double cell_w = 0;
        double cell_h = 0;
        QRectF sm_strip;    // the last wave's SMs
        double sm_w = 0;
        QRectF legend;
        bool drawn = false;
    };
    Geometry geometry() const;
    int legendHeight() const;
    int smStripHeight() const;

    std::optional<kernels::GemmWaves> waves_;
    bool presentation_ = false;
};

}  // namespace lse::gui
