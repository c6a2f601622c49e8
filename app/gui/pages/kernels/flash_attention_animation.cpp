// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/kernels/flash_attention_animation.h"

#include "charts/chart_palette.h"
#include "pages/kernels/flash_attention_text.h"
#include "pages/page_format.h"

#include <QEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace lse::gui {

namespace {

using kernels::AttentionAlgorithm;
using kernels::AttentionStep;
using kernels::AttentionStepKind;
using kernels::AttentionSteps;

// The matrices HBM holds, in the order they are drawn.
enum class Matrix { Q, K, V, S, P, O, RowSum, RowMax, LogSumExp };

// How many columns a matrix has, for its drawn width: d, N or one.
enum class Width { HeadDim, Sequence, Vector };

struct MatrixInfo {
    Matrix matrix;
    QString name;
    Width width;
    int color;  // chart series colour index
};

QList<MatrixInfo> hbmMatrices(AttentionAlgorithm algorithm)
{
    QList<MatrixInfo> list{{Matrix::Q, QStringLiteral("Q"), Width::HeadDim, 0},
                           {Matrix::K, QStringLiteral("K"), Width::HeadDim, 2},
                           {Matrix::V, QStringLiteral("V"), Width::HeadDim, 2}};
    switch (algorithm) {
    case AttentionAlgorithm::Standard:
        list << MatrixInfo{Matrix::S, QStringLiteral("S"), Width::Sequence, 4}
             << MatrixInfo{Matrix::P, QStringLiteral("P"), Width::Sequence, 4}
             << MatrixInfo{Matrix::O, QStringLiteral("O"), Width::HeadDim, 0};
        break;
    case AttentionAlgorithm::Flash:
        list << MatrixInfo{Matrix::O, QStringLiteral("O"), Width::HeadDim, 0}
             << MatrixInfo{Matrix::RowSum, QStringLiteral("ℓ"), Width::Vector, 1}
             << MatrixInfo{Matrix::RowMax, QStringLiteral("m"), Width::Vector, 1};
        break;
    case AttentionAlgorithm::Flash2:
        list << MatrixInfo{Matrix::O, QStringLiteral("O"), Width::HeadDim, 0}
             << MatrixInfo{Matrix::LogSumExp, QStringLiteral("L"), Width::Vector, 1};
        break;
    }
    return list;
}

// Rows [begin, end) of a matrix that a step moves between HBM and SRAM (moved) or that sit in SRAM
// after it (resident), from the algorithms' lines (Dao et al. 2022 Algorithms 0 and 1, Dao 2023
// Algorithm 1).
struct RowSpan {
    Matrix matrix;
    std::int64_t begin = 0;
    std::int64_t end = 0;
    bool moved = false;
};

QList<RowSpan> rowSpans(const AttentionSteps &steps, const AttentionStep &step)
{
    const kernels::AttentionConfig &config = steps.config;
    const std::int64_t n = config.sequence_length;
    const auto queries = [&](std::int64_t i) {
        const std::int64_t begin = i * steps.blocks.block_rows;
        return std::pair{begin, begin + kernels::rowsInBlock(config, steps.blocks, i)};
    };
    const auto keys = [&](std::int64_t j) {
        const std::int64_t begin = j * steps.blocks.block_columns;
        return std::pair{begin, begin + kernels::columnsInBlock(config, steps.blocks, j)};
    };
    QList<RowSpan> spans;
    const auto add = [&](Matrix matrix, std::pair<std::int64_t, std::int64_t> rows, bool moved) {
        spans << RowSpan{matrix, rows.first, rows.second, moved};
    };
    const std::pair<std::int64_t, std::int64_t> all{0, n};
    const bool flash2 = steps.algorithm == AttentionAlgorithm::Flash2;
    switch (step.kind) {
    case AttentionStepKind::ComputeScores:
        add(Matrix::Q, all, true), add(Matrix::K, all, true), add(Matrix::S, all, true);
        break;
    case AttentionStepKind::ComputeSoftmax:
        add(Matrix::S, all, true), add(Matrix::P, all, true);
        break;
    case AttentionStepKind::ComputeOutput:
        add(Matrix::P, all, true), add(Matrix::V, all, true), add(Matrix::O, all, true);
        break;
    case AttentionStepKind::Initialise:
        add(Matrix::O, all, true), add(Matrix::RowSum, all, true), add(Matrix::RowMax, all, true);
        break;
    case AttentionStepKind::LoadKeyValueBlock:
        add(Matrix::K, keys(step.column_block), true), add(Matrix::V, keys(step.column_block), true);
        break;
    case AttentionStepKind::ComputeBlock:
        if (flash2) {
            add(Matrix::Q, queries(step.row_block), false);
            add(Matrix::K, keys(step.column_block), true), add(Matrix::V, keys(step.column_block), true);
        } else {
            add(Matrix::K, keys(step.column_block), false), add(Matrix::V, keys(step.column_block), false);
            for (Matrix m : {Matrix::Q, Matrix::O, Matrix::RowSum, Matrix::RowMax})
                add(m, queries(step.row_block), true);
        }
        break;
    case AttentionStepKind::SkipBlock:
        if (step.sram_key_value_block >= 0)
            add(Matrix::K, keys(step.sram_key_value_block), false), add(Matrix::V, keys(step.sram_key_value_block), false);
        if (step.sram_query_block >= 0)
            add(Matrix::Q, queries(step.sram_query_block), false);
        break;
    case AttentionStepKind::LoadQueryBlock:
        add(Matrix::Q, queries(step.row_block), true);
        break;
    case AttentionStepKind::WriteOutputBlock:
        add(Matrix::Q, queries(step.row_block), false);
        add(Matrix::O, queries(step.row_block), true), add(Matrix::LogSumExp, queries(step.row_block), true);
        break;
    }
    return spans;
}

// The tiles resident in SRAM after a step, with their shapes (rows × columns, in elements).
struct Tile {
    QString name;  // one tile or a pair of the same shape ("Q₂, O₂")
    std::int64_t rows = 0;
    std::int64_t columns = 0;  // 1 for the row statistics ℓ and m
    int color = 0;
    int count = 1;
};

QList<Tile> sramTiles(const AttentionSteps &steps, const AttentionStep &step)
{
    QList<Tile> tiles;
    const kernels::AttentionConfig &config = steps.config;
    const std::int64_t d = config.head_dim;
    const std::int64_t i = step.sram_query_block, j = step.sram_key_value_block;
    const std::int64_t r = i >= 0 ? kernels::rowsInBlock(config, steps.blocks, i) : 0;
    const std::int64_t c = j >= 0 ? kernels::columnsInBlock(config, steps.blocks, j) : 0;
    const QString si = FlashAttentionText::subscript(i), sj = FlashAttentionText::subscript(j);
    if (i >= 0) {
        tiles << Tile{QStringLiteral("Q") + si + QStringLiteral(", O") + si, r, d, 0, 2}
              << Tile{QStringLiteral("ℓ") + si + QStringLiteral(", m") + si, r, 1, 1, 2};
    }
    if (j >= 0)
        tiles << Tile{QStringLiteral("K") + sj + QStringLiteral(", V") + sj, c, d, 2, 2};
    if (step.kind == AttentionStepKind::ComputeBlock)
        tiles << Tile{QStringLiteral("S") + si + QStringLiteral(",") + sj, r, c, 4, 1};
    return tiles;
}

// A rounded frame with a bold title; returns the rectangle below the title.
QRectF drawPanel(QPainter &p, const QRectF &rect, const QString &title, const QPalette &palette)
{
    p.save();
    p.setPen(QPen(blendColors(palette.color(QPalette::Window), palette.color(QPalette::WindowText), 0.35), 1));
    p.setBrush(palette.color(QPalette::Base));
    p.drawRoundedRect(rect.adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
    QFont bold = p.font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(palette.color(QPalette::Text));
    const QFontMetricsF fm(bold);
    const double pad = fm.height() * 0.4;
    const QRectF title_rect(rect.left() + pad, rect.top() + pad * 0.5, rect.width() - 2 * pad, fm.height());
    p.drawText(title_rect, Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(title, Qt::ElideRight, title_rect.width()));
    p.restore();
    return QRectF(rect.left() + pad, title_rect.bottom() + pad * 0.5, rect.width() - 2 * pad,
                  rect.bottom() - title_rect.bottom() - pad * 1.5);
}

void drawArrow(QPainter &p, QPointF from, QPointF to, const QColor &color, double width)
{
    p.save();
    p.setPen(QPen(color, width, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(from, to);
    const QPointF direction = to - from;
    const double length = std::hypot(direction.x(), direction.y());
    if (length > 0) {
        const QPointF unit = direction / length;
        const QPointF normal(-unit.y(), unit.x());
        const double head = width * 3.5;
        QPainterPath path;
        path.moveTo(to);
        path.lineTo(to - unit * head + normal * head * 0.6);
        path.lineTo(to - unit * head - normal * head * 0.6);
        path.closeSubpath();
        p.setPen(Qt::NoPen);
        p.setBrush(color);
        p.drawPath(path);
    }
    p.restore();
}

}  // namespace

FlashAttentionAnimation::FlashAttentionAnimation(QWidget *parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    setAttribute(Qt::WA_OpaquePaintEvent, false);
}

void FlashAttentionAnimation::setSteps(std::shared_ptr<const AttentionSteps> steps)
{
    steps_ = std::move(steps);
    step_ = 0;
    updateBlockStates();
    update();
}

void FlashAttentionAnimation::setStep(int step)
{
    const int count = steps_ ? int(steps_->steps.size()) : 0;
    step_ = std::clamp(step, 0, count);
    updateBlockStates();
    update();
}

void FlashAttentionAnimation::updateBlockStates()
{
    block_states_.clear();
    if (!steps_)
        return;
    // Standard attention computes the whole N×N matrix in its first step (and masks it whole): one
    // state for every block, kept in standardState() (its T_r × T_c can be past any animation's).
    if (steps_->algorithm == AttentionAlgorithm::Standard)
        return;
    const std::int64_t rows = steps_->blocks.row_blocks, columns = steps_->blocks.column_blocks;
    block_states_.assign(std::size_t(rows * columns), BlockState::Pending);
    for (int k = 0; k < step_; ++k) {
        const AttentionStep &step = steps_->steps[std::size_t(k)];
        if (step.kind != AttentionStepKind::ComputeBlock && step.kind != AttentionStepKind::SkipBlock)
            continue;
        BlockState &state = block_states_[std::size_t(step.row_block * columns + step.column_block)];
        if (step.kind == AttentionStepKind::SkipBlock)
            state = BlockState::Skipped;
        else
            state = k == step_ - 1 ? BlockState::Current : BlockState::Computed;
    }
}

FlashAttentionAnimation::BlockState FlashAttentionAnimation::blockState(std::int64_t i, std::int64_t j) const
{
    if (!steps_ || i < 0 || j < 0 || i >= steps_->blocks.row_blocks || j >= steps_->blocks.column_blocks)
        return BlockState::Pending;
    if (steps_->algorithm == AttentionAlgorithm::Standard)
        return standardState();
    return block_states_[std::size_t(i * steps_->blocks.column_blocks + j)];
}

FlashAttentionAnimation::BlockState FlashAttentionAnimation::standardState() const
{
    return step_ == 0 ? BlockState::Pending : step_ == 1 ? BlockState::Current : BlockState::Computed;
}

int FlashAttentionAnimation::blockCount(BlockState state) const
{
    if (steps_ && steps_->algorithm == AttentionAlgorithm::Standard)
        return standardState() == state ? int(steps_->blocks.row_blocks * steps_->blocks.column_blocks) : 0;
    return int(std::count(block_states_.begin(), block_states_.end(), state));
}

bool FlashAttentionAnimation::wideAt(int width) const
{
    return width >= 52 * fontMetrics().lineSpacing();
}

int FlashAttentionAnimation::heightForWidth(int width) const
{
    const int line = fontMetrics().lineSpacing();
    // Narrow: HBM, the traffic band and SRAM beside the blocks, one above the other; presentation
    // mode's font makes this about 540 px, so the player, the caption and the picture fit a
    // 1024×768 projector together.
    return wideAt(width) ? 15 * line : 21 * line;
}

QSize FlashAttentionAnimation::sizeHint() const
{
    const int line = fontMetrics().lineSpacing();
    return {60 * line, 15 * line};
}

QSize FlashAttentionAnimation::minimumSizeHint() const
{
    const int line = fontMetrics().lineSpacing();
    return {18 * line, 15 * line};
}

void FlashAttentionAnimation::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange) {
        updateGeometry();
        update();
    }
}

void FlashAttentionAnimation::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::Text);
    const QColor base = pal.color(QPalette::Base);
    const QFontMetricsF fm(font());
    const double line = fm.lineSpacing();
    const double gap = line * 0.5;
    const QRectF all = QRectF(rect()).adjusted(1, 1, -1, -1);

    if (!steps_) {
        p.setPen(text);
        p.drawText(all, Qt::AlignCenter | Qt::TextWordWrap,
                   tr("No animation for these inputs (see the message above)."));
        return;
    }
    const AttentionSteps &steps = *steps_;
    const AttentionStep *step = step_ > 0 ? &steps.steps[std::size_t(step_ - 1)] : nullptr;
    const kernels::AttentionConfig &config = steps.config;
    const double n = double(config.sequence_length);

    // Panels.
    QRectF hbm, traffic, sram, grid;
    const bool wide = wideAt(width());
    if (wide) {
        const double w = all.width();
        hbm = QRectF(all.left(), all.top(), w * 0.40, all.height());
        traffic = QRectF(hbm.right(), all.top(), w * 0.12, all.height());
        sram = QRectF(traffic.right(), all.top(), w * 0.22, all.height());
        grid = QRectF(sram.right() + gap, all.top(), all.right() - sram.right() - gap, all.height());
    } else {
        const double top_height = all.height() * 0.40;
        hbm = QRectF(all.left(), all.top(), all.width(), top_height);
        traffic = QRectF(all.left(), hbm.bottom(), all.width(), line * 2.2);
        const double lower = all.bottom() - traffic.bottom();
        sram = QRectF(all.left(), traffic.bottom(), all.width() * 0.46, lower);
        grid = QRectF(sram.right() + gap, traffic.bottom(), all.right() - sram.right() - gap, lower);
    }

    // --- HBM: the matrices, with the tiles this step moves (full colour) or keeps on chip (tint).
    const QRectF hbm_inner = drawPanel(p, hbm, tr("HBM (off-chip memory)"), pal);
    const QList<MatrixInfo> matrices = hbmMatrices(steps.algorithm);
    const QList<RowSpan> spans = step ? rowSpans(steps, *step) : QList<RowSpan>();
    {
        const double label_height = line * 1.1;
        double height = std::max(line * 2, hbm_inner.height() - 2 * label_height);
        const double min_width = fm.horizontalAdvance(QStringLiteral("MM"));
        const double d = double(config.head_dim);
        auto widthOf = [&](const MatrixInfo &info, double h) {
            switch (info.width) {
            case Width::HeadDim: return std::clamp(h * d / n, min_width, std::max(min_width, h * 0.5));
            case Width::Sequence: return h;
            case Width::Vector: return std::max(line * 0.6, fm.horizontalAdvance(QStringLiteral("m")) + 4);
            }
            return min_width;
        };
        auto totalWidth = [&](double h) {
            double total = 0;
            for (const MatrixInfo &info : matrices)
                total += widthOf(info, h) + gap;
            return total - gap;
        };
        for (int pass = 0; pass < 3 && totalWidth(height) > hbm_inner.width(); ++pass)
            height *= hbm_inner.width() / totalWidth(height);
        double x = hbm_inner.left() + std::max(0.0, (hbm_inner.width() - totalWidth(height)) / 2);
        const double top = hbm_inner.top() + label_height;
        for (const MatrixInfo &info : matrices) {
            const double w = widthOf(info, height);
            const QRectF box(x, top, w, height);
            const QColor color = chartSeriesColor(info.color, pal);
            // S and P exist in HBM once standard attention has written them.
            bool exists = true;
            if (info.matrix == Matrix::S || info.matrix == Matrix::P)
                exists = step_ >= (info.matrix == Matrix::S ? 1 : 2);
            p.setPen(QPen(blendColors(base, text, 0.55), 1, exists ? Qt::SolidLine : Qt::DashLine));
            p.setBrush(exists ? blendColors(base, color, 0.12) : base);
            p.drawRect(box);
            for (const RowSpan &span : spans) {
                if (span.matrix != info.matrix && !(info.matrix == Matrix::LogSumExp && span.matrix == Matrix::RowSum))
                    continue;
                const double y0 = top + height * double(span.begin) / n;
                const double y1 = top + height * double(span.end) / n;
                const QRectF band(box.left(), y0, box.width(), std::max(2.0, y1 - y0));
                p.setPen(Qt::NoPen);
                p.setBrush(span.moved ? color : blendColors(base, color, 0.35));
                p.drawRect(band);
            }
            p.setPen(text);
            p.drawText(QRectF(x - gap / 2, hbm_inner.top(), w + gap, label_height), Qt::AlignCenter, info.name);
            x += w + gap;
        }
        // The shapes, once, under the matrices.
        const QString n_text = format::integer(config.sequence_length);
        QString shapes = tr("Q, K, V, O: %1 × %2").arg(n_text, format::integer(config.head_dim));
        if (steps.algorithm == AttentionAlgorithm::Standard)
            shapes += tr("; S, P: %1 × %1").arg(n_text);
        else
            shapes += (steps.algorithm == AttentionAlgorithm::Flash ? tr("; ℓ, m: %1") : tr("; L: %1")).arg(n_text);
        p.drawText(QRectF(hbm_inner.left(), top + height, hbm_inner.width(), label_height), Qt::AlignCenter,
                   fm.elidedText(shapes, Qt::ElideRight, hbm_inner.width()));
    }

    // --- Traffic of this step: read HBM → SRAM, written SRAM → HBM (step.step, core's counts).
    {
        const QColor read_color = chartSeriesColor(0, pal);
        const QColor write_color = chartReferenceColor(pal);
        const QColor idle = blendColors(base, text, 0.25);
        const std::int64_t read = step ? step->step.read_bytes : 0;
        const std::int64_t written = step ? step->step.written_bytes : 0;
        const QString read_text = tr("read %1").arg(format::bytes(double(read)));
        const QString write_text = tr("written %1").arg(format::bytes(double(written)));
        const double pen = std::max(2.0, line * 0.16);
        p.setPen(text);
        if (wide) {
            const double mid = traffic.center().y();
            const QRectF read_label(traffic.left(), mid - 2.4 * line, traffic.width(), line);
            const QRectF write_label(traffic.left(), mid + 0.4 * line, traffic.width(), line);
            p.drawText(read_label, Qt::AlignCenter, fm.elidedText(read_text, Qt::ElideRight, traffic.width()));
            drawArrow(p, {traffic.left() + gap, mid - 1.1 * line}, {traffic.right() - gap, mid - 1.1 * line},
                      read > 0 ? read_color : idle, pen);
            p.setPen(text);
            p.drawText(write_label, Qt::AlignCenter, fm.elidedText(write_text, Qt::ElideRight, traffic.width()));
            drawArrow(p, {traffic.right() - gap, mid + 1.7 * line}, {traffic.left() + gap, mid + 1.7 * line},
                      written > 0 ? write_color : idle, pen);
        } else {
            const double quarter = traffic.width() / 4;
            drawArrow(p, {traffic.left() + quarter, traffic.top() + 0.3 * line},
                      {traffic.left() + quarter, traffic.bottom() - 0.3 * line}, read > 0 ? read_color : idle, pen);
            drawArrow(p, {traffic.left() + 3 * quarter, traffic.bottom() - 0.3 * line},
                      {traffic.left() + 3 * quarter, traffic.top() + 0.3 * line}, written > 0 ? write_color : idle, pen);
            p.setPen(text);
            p.drawText(QRectF(traffic.left() + quarter + gap, traffic.top(), 2 * quarter - 2 * gap, traffic.height()),
                       Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(read_text, Qt::ElideRight, 2 * quarter - 2 * gap));
            const double write_width = fm.horizontalAdvance(write_text);
            p.drawText(QRectF(traffic.left() + 3 * quarter - gap - write_width, traffic.top(), write_width, traffic.height()),
                       Qt::AlignRight | Qt::AlignVCenter, write_text);
        }
    }

    // --- SRAM of one SM: its capacity M, the bytes in use (core's sram_bytes_in_use) and the tiles.
    {
        const QRectF inner = drawPanel(p, sram, tr("SRAM of one SM"), pal);
        p.setPen(text);
        const QString capacity = tr("M = %1").arg(FlashAttentionText::kibibytes(config.sram_bytes));
        QRectF row(inner.left(), inner.top(), inner.width(), line);
        p.drawText(row, Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(capacity, Qt::ElideRight, row.width()));
        const std::int64_t in_use = step ? step->sram_bytes_in_use : 0;
        const double fraction = config.sram_bytes > 0 ? double(in_use) / double(config.sram_bytes) : 0.0;
        const QRectF bar(inner.left(), row.bottom() + 0.2 * line, inner.width(), line);
        p.setPen(QPen(blendColors(base, text, 0.55), 1));
        p.setBrush(base);
        p.drawRect(bar);
        const QList<Tile> tiles = step ? sramTiles(steps, *step) : QList<Tile>();
        double elements = 0;
        for (const Tile &tile : tiles)
            elements += double(tile.count) * double(tile.rows) * double(tile.columns);
        // The tiles share the filled part of the bar in proportion to their elements.
        double x = bar.left();
        const double filled = bar.width() * std::min(1.0, fraction);
        for (const Tile &tile : tiles) {
            const double w = elements > 0 ? filled * double(tile.count) * double(tile.rows) * double(tile.columns) / elements : 0;
            p.setPen(QPen(base, 1));
            p.setBrush(chartSeriesColor(tile.color, pal));
            p.drawRect(QRectF(x, bar.top(), w, bar.height()));
            x += w;
        }
        // Algorithm 1's block sizes (B_c = ⌈M/4dE⌉, B_r = min(B_c, d)) fill M with the Q, K, V and O
        // tiles alone; the statistics and the score block come on top (the paper's bound is O(M), and
        // a real kernel holds the score block in registers). Not a fault of the inputs: said plainly.
        const bool over = fraction > 1.0;
        p.setPen(text);
        row = QRectF(inner.left(), bar.bottom() + 0.2 * line, inner.width(), line);
        const QString use = over ? tr("in use %1 (%2 of M: Algorithm 1's Q, K, V, O tiles alone fill M)")
                                       .arg(format::bytes(double(in_use)), format::percent(fraction))
                                 : tr("in use %1 (%2 of M)").arg(format::bytes(double(in_use)), format::percent(fraction));
        p.drawText(row, Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(use, Qt::ElideRight, row.width()));
        double y = row.bottom() + 0.3 * line;
        p.setPen(text);
        if (tiles.isEmpty()) {
            const QString empty = steps.algorithm == AttentionAlgorithm::Standard
                ? tr("Standard attention keeps nothing on chip between its steps: S and P go to HBM and back.")
                : tr("Nothing resident.");
            p.drawText(QRectF(inner.left(), y, inner.width(), inner.bottom() - y), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                       empty);
        }
        for (const Tile &tile : tiles) {
            if (y + line > inner.bottom() + 1)
                break;
            const double swatch = line * 0.6;
            p.setPen(Qt::NoPen);
            p.setBrush(chartSeriesColor(tile.color, pal));
            p.drawRect(QRectF(inner.left(), y + (line - swatch) / 2, swatch, swatch));
            p.setPen(text);
            const QString shape = tile.columns == 1 ? tr("%1: %2 each").arg(tile.name).arg(tile.rows)
                                                    : tr("%1: %2 × %3").arg(tile.name).arg(tile.rows).arg(tile.columns);
            const QRectF label(inner.left() + swatch * 1.6, y, inner.width() - swatch * 1.6, line);
            p.drawText(label, Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(shape, Qt::ElideRight, label.width()));
            y += line;
        }
    }

    // --- The score matrix block by block: computed, this step, skipped by the causal mask, to come.
    {
        const kernels::AttentionBlocks &blocks = steps.blocks;
        const QString title = steps.algorithm == AttentionAlgorithm::Standard
            ? tr("Score matrix S (N × N)")
            : tr("Score blocks: %1 × %2").arg(blocks.row_blocks).arg(blocks.column_blocks);
        const QRectF inner = drawPanel(p, grid, title, pal);
        const QColor computed = blendColors(base, chartSeriesColor(0, pal), 0.45);
        const QColor current = chartSeriesColor(1, pal);
        const QColor skipped = blendColors(base, text, 0.12);
        const QStringList legend{tr("computed"), tr("this step"), tr("skipped (causal)"), tr("to come")};
        const QList<QColor> legend_colors{computed, current, skipped, base};
        // The legend's two lines under the square.
        const double legend_height = 2 * line;
        const double side = std::max(line, std::min(inner.width(), inner.height() - legend_height - 0.3 * line));
        const QRectF square(inner.left() + (inner.width() - side) / 2, inner.top(), side, side);
        p.setPen(Qt::NoPen);
        p.setBrush(base);
        p.drawRect(square);
        const std::int64_t rows = blocks.row_blocks, columns = blocks.column_blocks;
        // Cell edges only while the smallest block is a few pixels wide.
        const bool outlines = side * double(std::min(blocks.block_rows, blocks.block_columns)) / n >= 4;
        QRectF current_rect;
        if (steps.algorithm == AttentionAlgorithm::Standard) {
            const BlockState state = standardState();
            p.setPen(Qt::NoPen);
            p.setBrush(state == BlockState::Pending ? base : state == BlockState::Current ? current : computed);
            p.drawRect(square);
            if (state == BlockState::Current)
                current_rect = square;
        }
        for (std::int64_t i = 0; i < rows && !block_states_.empty(); ++i) {
            const double y0 = square.top() + side * double(i * blocks.block_rows) / n;
            const double y1 = square.top() + side * double(std::min((i + 1) * blocks.block_rows, config.sequence_length)) / n;
            for (std::int64_t j = 0; j < columns; ++j) {
                const BlockState state = block_states_[std::size_t(i * columns + j)];
                if (state == BlockState::Pending && !outlines)
                    continue;
                const double x0 = square.left() + side * double(j * blocks.block_columns) / n;
                const double x1 = square.left() + side * double(std::min((j + 1) * blocks.block_columns, config.sequence_length)) / n;
                const QRectF cell(x0, y0, x1 - x0, y1 - y0);
                p.setPen(outlines ? QPen(blendColors(base, text, 0.5), 1) : Qt::NoPen);
                switch (state) {
                case BlockState::Pending: p.setBrush(base); break;
                case BlockState::Computed: p.setBrush(computed); break;
                case BlockState::Current: p.setBrush(current); current_rect = current_rect.united(cell); break;
                case BlockState::Skipped: p.setBrush(skipped); break;
                }
                p.drawRect(cell);
                if (state == BlockState::Skipped && outlines) {
                    p.setBrush(QBrush(blendColors(base, text, 0.35), Qt::BDiagPattern));
                    p.drawRect(cell);
                }
            }
        }
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(blendColors(base, text, 0.55), 1));
        p.drawRect(square);
        if (config.causal) {
            p.setPen(QPen(chartReferenceColor(pal), 1.2, Qt::DashLine));
            p.drawLine(square.topLeft(), square.bottomRight());
        }
        if (!current_rect.isNull()) {
            p.setPen(QPen(text, 2));
            p.drawRect(current_rect);
        }
        // Legend: swatches and words, wrapped onto a second line when needed.
        double lx = inner.left(), ly = square.bottom() + 0.3 * line;
        const double swatch = line * 0.6;
        for (int k = 0; k < legend.size(); ++k) {
            if (k == 2 && !config.causal)
                continue;
            const double item = swatch * 1.5 + fm.horizontalAdvance(legend[k]) + line * 0.6;
            if (lx > inner.left() && lx + item > inner.right()) {
                lx = inner.left();
                ly += line;
            }
            p.setPen(QPen(blendColors(base, text, 0.5), 0.8));
            p.setBrush(legend_colors[k]);
            p.drawRect(QRectF(lx, ly + (line - swatch) / 2, swatch, swatch));
            p.setPen(text);
            p.drawText(QRectF(lx + swatch * 1.5, ly, item, line), Qt::AlignLeft | Qt::AlignVCenter, legend[k]);
            lx += item;
        }
    }
}

}  // namespace lse::gui
