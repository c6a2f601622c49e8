// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/kernels/gemm_tile_grid.h"

#include "charts/chart_palette.h"
#include "pages/page_format.h"

#include <QEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace lse::gui {

namespace {

// Full waves cycle through these palette entries; orange and vermillion are left out, so that the
// partial last wave's highlight (chartReferenceColor, vermillion or coral) stands alone.
int waveColorIndex(std::int64_t wave, bool dark)
{
    static constexpr int kLight[] = {0, 2, 4, 5};
    static constexpr int kDark[] = {0, 2, 4, 3};  // sky blue, green, purple, yellow
    const auto i = std::size_t(wave % 4);
    return dark ? kDark[i] : kLight[i];
}

}  // namespace

GemmTileGrid::GemmTileGrid(QWidget *parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    setObjectName(QStringLiteral("gemm-waves-grid"));
}

void GemmTileGrid::setWaves(const std::optional<kernels::GemmWaves> &waves)
{
    waves_ = waves;
    updateGeometry();
    update();
}

void GemmTileGrid::setPresentation(bool presentation)
{
    presentation_ = presentation;
    updateGeometry();
    update();
}

bool GemmTileGrid::lastWaveIsPartial() const { return waves_ && waves_->last_wave_tiles < waves_->sm_count; }

QColor GemmTileGrid::waveColor(std::int64_t wave) const
{
    if (waves_ && lastWaveIsPartial() && wave == waves_->waves - 1)
        return chartReferenceColor(palette());
    return chartSeriesColor(waveColorIndex(wave, isDarkPalette(palette())), palette());
}

QColor GemmTileGrid::tileColor(std::int64_t tile) const { return waveColor(waves_ ? waves_->waveOfTile(tile) : 0); }

int GemmTileGrid::legendHeight() const { return fontMetrics().height() * 2 + 10; }

int GemmTileGrid::smStripHeight() const { return fontMetrics().height() + (presentation_ ? 26 : 20); }

QSize GemmTileGrid::sizeHint() const { return {480, heightForWidth(480)}; }

QSize GemmTileGrid::minimumSizeHint() const { return {260, 160 + smStripHeight() + legendHeight()}; }

int GemmTileGrid::heightForWidth(int width) const
{
    double aspect = 1;  // grid height / width
    if (waves_ && waves_->column_tiles > 0)
        aspect = double(waves_->row_tiles * waves_->tile_rows) / double(waves_->column_tiles * waves_->tile_columns);
    const int grid = int(std::clamp(double(width) * aspect, 120.0, presentation_ ? 300.0 : 340.0));
    return grid + smStripHeight() + legendHeight() + 8;
}

GemmTileGrid::Geometry GemmTileGrid::geometry() const
{
    Geometry g;
    if (!waves_ || waves_->tiles <= 0)
        return g;
    const kernels::GemmWaves &w = *waves_;
    const QRectF area = QRectF(rect()).adjusted(2, 2, -2, -2);
    const double legend = legendHeight();
    const double strip = smStripHeight();
    const double grid_height_max = std::max(20.0, area.height() - legend - strip - 6);
    // C's tile grid keeps the proportions of the padded product (whole tiles), so a skinny
    // product looks skinny; it is fitted into the space left by the strip and the legend.
    const double extent_w = double(w.column_tiles * w.tile_columns);
    const double extent_h = double(w.row_tiles * w.tile_rows);
    double gw = area.width();
    double gh = gw * extent_h / extent_w;
    if (gh > grid_height_max) {
        gh = grid_height_max;
        gw = gh * extent_w / extent_h;
    }
    gh = std::max(gh, 6.0);
    g.grid = QRectF(area.left(), area.top(), gw, gh);
    g.cell_w = gw / double(w.column_tiles);
    g.cell_h = gh / double(w.row_tiles);
    g.drawn = w.tiles <= kMaxDrawnTiles;
    g.sm_strip = QRectF(area.left(), g.grid.bottom() + 4 + fontMetrics().height(), area.width(), strip - fontMetrics().height() - 4);
    g.sm_w = area.width() / double(std::max<std::int64_t>(1, w.sm_count));
    g.legend = QRectF(area.left(), g.sm_strip.bottom() + 4, area.width(), legend);
    return g;
}

QRectF GemmTileGrid::tileRect(std::int64_t tile) const
{
    const Geometry g = geometry();
    if (!g.drawn || tile < 0 || tile >= waves_->tiles)
        return {};
    const std::int64_t row = tile / waves_->column_tiles;
    const std::int64_t column = tile % waves_->column_tiles;
    return QRectF(g.grid.left() + double(column) * g.cell_w, g.grid.top() + double(row) * g.cell_h, g.cell_w, g.cell_h);
}

QRectF GemmTileGrid::smRect(std::int64_t sm) const
{
    const Geometry g = geometry();
    if (!waves_ || sm < 0 || sm >= waves_->sm_count)
        return {};
    return QRectF(g.sm_strip.left() + double(sm) * g.sm_w, g.sm_strip.top(), g.sm_w, g.sm_strip.height());
}

void GemmTileGrid::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        update();
}

void GemmTileGrid::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QColor text = palette().color(QPalette::Text);
    const QColor base = palette().color(QPalette::Base);
    p.fillRect(rect(), base);
    if (!waves_ || waves_->tiles <= 0) {
        p.setPen(text);
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, tr("No tiles to draw: see the message above."));
        return;
    }
    const kernels::GemmWaves &w = *waves_;
    const Geometry g = geometry();
    if (g.drawn) {
        for (std::int64_t tile = 0; tile < w.tiles; ++tile)
            p.fillRect(tileRect(tile), tileColor(tile));
        // Tile borders while they are wide enough to see; the wave number inside big tiles.
        if (g.cell_w >= 5 && g.cell_h >= 5) {
            p.setPen(QPen(base, g.cell_w >= 14 ? 1.5 : 0.8));
            for (std::int64_t c = 1; c < w.column_tiles; ++c)
                p.drawLine(QPointF(g.grid.left() + double(c) * g.cell_w, g.grid.top()),
                           QPointF(g.grid.left() + double(c) * g.cell_w, g.grid.bottom()));
            for (std::int64_t r = 1; r < w.row_tiles; ++r)
                p.drawLine(QPointF(g.grid.left(), g.grid.top() + double(r) * g.cell_h),
                           QPointF(g.grid.right(), g.grid.top() + double(r) * g.cell_h));
        }
        const QString widest = QString::number(w.waves);
        if (g.cell_w >= fontMetrics().horizontalAdvance(widest) + 6 && g.cell_h >= fontMetrics().height() + 2) {
            p.setPen(Qt::white);
            for (std::int64_t tile = 0; tile < w.tiles; ++tile)
                p.drawText(tileRect(tile), Qt::AlignCenter, QString::number(w.waveOfTile(tile) + 1));
        }
    } else {
        p.fillRect(g.grid, blendColors(base, text, 0.12));
        p.setPen(text);
        p.drawText(g.grid.adjusted(6, 6, -6, -6), Qt::AlignCenter | Qt::TextWordWrap,
                   tr("%1 tiles: too many to draw one by one (up to %2 are drawn). The figures beside are exact.")
                       .arg(format::integer(w.tiles), format::integer(kMaxDrawnTiles)));
    }
    // Tile quantisation: the part of the edge tiles beyond C's M × N is computed and thrown away.
    const double c_w = g.grid.width() * double(w.problem.n) / double(w.column_tiles * w.tile_columns);
    const double c_h = g.grid.height() * double(w.problem.m) / double(w.row_tiles * w.tile_rows);
    const QRectF c_rect(g.grid.topLeft(), QSizeF(c_w, c_h));
    QPainterPath padding;
    padding.addRect(g.grid);
    QPainterPath inside;
    inside.addRect(c_rect);
    padding = padding.subtracted(inside);
    if (!padding.isEmpty()) {
        QColor veil = base;
        veil.setAlphaF(0.55f);
        p.fillPath(padding, veil);
        p.fillPath(padding, QBrush(text, Qt::BDiagPattern));
    }
    p.setPen(QPen(text, presentation_ ? 2.5 : 2));
    p.setBrush(Qt::NoBrush);
    p.drawRect(c_rect);

    // The last wave, one cell per SM: busy ones in the wave's colour, idle ones hollow.
    const std::int64_t last_wave = w.waves - 1;
    const std::int64_t busy = w.last_wave_tiles;
    p.setPen(text);
    p.drawText(QRectF(g.sm_strip.left(), g.sm_strip.top() - fontMetrics().height() - 2, g.sm_strip.width(), fontMetrics().height()),
               Qt::AlignLeft | Qt::AlignVCenter,
               tr("Wave %1 of %2 on the %3 SMs: %4 busy, %5 idle")
                   .arg(format::integer(last_wave + 1), format::integer(w.waves), format::integer(w.sm_count),
                        format::integer(busy), format::integer(w.sm_count - busy)));
    const QColor idle_pen = blendColors(base, text, 0.45);
    for (std::int64_t sm = 0; sm < w.sm_count; ++sm) {
        const QRectF cell = smRect(sm).adjusted(0, 0, g.sm_w >= 3 ? -1 : 0, 0);
        if (sm < busy) {
            p.fillRect(cell, waveColor(last_wave));
        } else {
            p.fillRect(cell, blendColors(base, text, 0.08));
            if (g.sm_w >= 3) {
                p.setPen(QPen(idle_pen, 0.8));
                p.drawLine(cell.bottomLeft(), cell.topRight());
            }
        }
    }

    // Legend: the first waves' colours, the partial last wave, idle SMs, the padding.
    QFont legend_font = font();
    p.setFont(legend_font);
    const double sw = fontMetrics().height() * 0.9;
    double x = g.legend.left();
    double y = g.legend.top() + 2;
    const auto entry = [&](const QColor &fill, Qt::BrushStyle style, const QString &label) {
        const double needed = sw + 6 + fontMetrics().horizontalAdvance(label) + 14;
        if (x + needed > g.legend.right() && x > g.legend.left()) {
            x = g.legend.left();
            y += fontMetrics().height() + 4;
        }
        const QRectF swatch(x, y + (fontMetrics().height() - sw) / 2, sw, sw);
        p.fillRect(swatch, style == Qt::SolidPattern ? fill : base);
        if (style != Qt::SolidPattern)
            p.fillRect(swatch, QBrush(fill, style));
        p.setPen(QPen(text, 0.6));
        p.drawRect(swatch);
        p.drawText(QRectF(x + sw + 5, y, needed, fontMetrics().height()), Qt::AlignLeft | Qt::AlignVCenter, label);
        x += needed;
    };
    const std::int64_t full_shown = std::min<std::int64_t>(lastWaveIsPartial() ? w.waves - 1 : w.waves, kLegendWaves);
    for (std::int64_t wave = 0; wave < full_shown; ++wave)
        entry(waveColor(wave), Qt::SolidPattern, tr("wave %1").arg(wave + 1));
    const std::int64_t full_waves_total = lastWaveIsPartial() ? w.waves - 1 : w.waves;
    if (full_waves_total > full_shown)
        entry(blendColors(base, text, 0.3), Qt::Dense4Pattern,
              full_waves_total == full_shown + 1 ? tr("wave %1: colours repeat").arg(full_waves_total)
                                                 : tr("waves %1–%2: colours repeat").arg(full_shown + 1).arg(full_waves_total));
    if (lastWaveIsPartial())
        entry(waveColor(last_wave), Qt::SolidPattern, tr("wave %1: partial").arg(w.waves));
    entry(idle_pen, Qt::BDiagPattern, tr("idle SM / padding outside C"));
}

}  // namespace lse::gui
