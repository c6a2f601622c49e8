// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/tensors/tensor_layout_chart.h"

#include "charts/chart_palette.h"

#include <algorithm>
#include <map>

namespace lse::gui {

namespace {

using tensors::Sizes;
using tensors::TensorView;

constexpr double kSliceGap = 1.0;       // empty columns between slices
constexpr double kCaptionHeight = 1.0;  // a row above each slice row for its "[i, j, :, :]" caption
constexpr double kSectionGap = 1.5;     // between the logical array and a storage strip
constexpr std::int64_t kMaxStorageRow = 32;

QString sizesString(const Sizes &sizes) { return QString::fromStdString(tensors::sizesText(sizes)); }

// One hue per original element, so an element has the same colour in the array and in every storage.
QColor valueColor(std::int64_t value, std::int64_t values, const QPalette &palette)
{
    const double hue = 0.8 * double(value) / double(std::max<std::int64_t>(values - 1, 1));
    return isDarkPalette(palette) ? QColor::fromHsvF(float(hue), 0.55f, 0.6f) : QColor::fromHsvF(float(hue), 0.35f, 0.98f);
}

QColor unusedColor(const QPalette &palette)
{
    return blendColors(palette.color(QPalette::Base), palette.color(QPalette::Text), 0.15);
}

Sizes unravel(std::int64_t flat, const Sizes &shape)
{
    Sizes indices(shape.size(), 0);
    for (int d = int(shape.size()) - 1; d >= 0; --d) {
        indices[std::size_t(d)] = flat % shape[std::size_t(d)];
        flat /= shape[std::size_t(d)];
    }
    return indices;
}

QString indexText(const Sizes &indices)
{
    QStringList parts;
    for (std::int64_t i : indices)
        parts << QString::number(i);
    return QStringLiteral("x[%1]").arg(parts.join(QStringLiteral(", ")));
}

// Where the slices go: the last two dimensions form a slice (rows × columns); a 3-D tensor's slices
// stand in one row, a 4-D (or more) tensor's in a grid of dimension n-4… (rows) by n-3 (columns).
struct SliceGrid {
    std::int64_t rows = 1, cols = 1;              // cells of one slice
    std::int64_t grid_rows = 1, grid_cols = 1;    // slices
    double width() const { return double(grid_cols * cols) + kSliceGap * double(grid_cols - 1); }
    double height() const { return double(grid_rows) * (double(rows) + kCaptionHeight); }
};

SliceGrid sliceGrid(const Sizes &shape)
{
    SliceGrid grid;
    const int n = int(shape.size());
    if (n >= 1)
        grid.cols = shape[std::size_t(n - 1)];
    if (n >= 2)
        grid.rows = shape[std::size_t(n - 2)];
    if (n >= 3)
        grid.grid_cols = shape[std::size_t(n - 3)];
    for (int d = 0; d < n - 3; ++d)
        grid.grid_rows *= shape[std::size_t(d)];
    return grid;
}

}  // namespace

const TensorView &TensorLayoutChart::viewAt(const tensors::TensorChain &chain, int step)
{
    for (int k = std::min(step, int(chain.steps.size())); k >= 1; --k)
        if (chain.steps[std::size_t(k - 1)].ok())
            return *chain.steps[std::size_t(k - 1)].view;
    return chain.start;
}

const std::vector<std::int64_t> &TensorLayoutChart::valuesAt(const tensors::TensorChain &chain, int step)
{
    for (int k = std::min(step, int(chain.steps.size())); k >= 1; --k)
        if (chain.steps[std::size_t(k - 1)].ok())
            return chain.steps[std::size_t(k - 1)].storage_values;
    return chain.start_values;
}

QString TensorLayoutChart::addressText(const TensorView &view, const Sizes &indices)
{
    QStringList terms{QString::number(view.offset)};
    for (std::size_t d = 0; d < indices.size(); ++d)
        terms << QStringLiteral("%1·%2").arg(indices[d]).arg(view.strides[d]);
    return tr("%1 → storage index = offset + Σ i·stride = %2 = %3")
        .arg(indexText(indices), terms.join(QStringLiteral(" + ")))
        .arg(view.storageIndex(indices));
}

ChartData TensorLayoutChart::build(const tensors::TensorChain &chain, int step, const QPalette &palette)
{
    const TensorView &view = viewAt(chain, step);
    const std::vector<std::int64_t> &values = valuesAt(chain, step);
    const std::int64_t originals = std::max<std::int64_t>(chain.start.storage_size, 1);
    ChartData chart;
    chart.show_axes = false;
    chart.y_reversed = true;
    chart.x_unit = QStringLiteral("cell");
    chart.y_unit = QStringLiteral("row");
    const QColor text_color = palette.color(QPalette::Text);
    if (view.numel() > kMaxDrawnElements || view.storage_size > kMaxDrawnElements || values.empty()) {
        chart.texts << ChartText{0, 0, tr("%1 elements over a storage of %2: too large to draw (the table lists every step)")
                                           .arg(view.numel())
                                           .arg(view.storage_size),
                                 text_color, Qt::AlignLeft | Qt::AlignVCenter, false, false};
        return chart;
    }

    // The logical array.
    const SliceGrid grid = sliceGrid(view.shape);
    const double left_align = 0;
    chart.texts << ChartText{left_align, -1.2,
                             tr("logical view: shape %1, strides %2, offset %3")
                                 .arg(sizesString(view.shape), sizesString(view.strides))
                                 .arg(view.offset),
                             text_color, Qt::AlignLeft | Qt::AlignVCenter, true, false};
    std::map<std::int64_t, QStringList> users;  // storage index → the elements that read it
    const std::int64_t per_slice = grid.rows * grid.cols;
    for (std::int64_t flat = 0; flat < view.numel(); ++flat) {
        const Sizes indices = unravel(flat, view.shape);
        const std::int64_t slice = per_slice > 0 ? flat / per_slice : 0;
        const std::int64_t within = per_slice > 0 ? flat % per_slice : 0;
        const double x = double((slice % grid.grid_cols) * grid.cols) + kSliceGap * double(slice % grid.grid_cols)
            + double(within % grid.cols);
        const double y = double(slice / grid.grid_cols) * (double(grid.rows) + kCaptionHeight) + kCaptionHeight
            + double(within / grid.cols);
        const std::int64_t address = view.storageIndex(indices);
        const std::int64_t value = values[std::size_t(address)];
        users[address] << indexText(indices);
        ChartRect cell;
        cell.x0 = x;
        cell.x1 = x + 1;
        cell.y0 = y;
        cell.y1 = y + 1;
        cell.color = valueColor(value, originals, palette);
        cell.label = QString::number(value);
        cell.tooltip = addressText(view, indices) + QStringLiteral("<br>") + tr("value %1").arg(value);
        cell.group = tr("element of the view");
        chart.rects << cell;
        // A caption above each slice of a tensor with more than two dimensions: "[i, j, :, :]".
        if (within == 0 && view.dims() > 2) {
            QStringList parts;
            for (int d = 0; d < view.dims(); ++d)
                parts << (d < view.dims() - 2 ? QString::number(indices[std::size_t(d)]) : QStringLiteral(":"));
            chart.texts << ChartText{x, y - 0.5, QStringLiteral("[%1]").arg(parts.join(QStringLiteral(", "))), text_color,
                                     Qt::AlignLeft | Qt::AlignVCenter, false, false};
        }
    }

    // The storage strips: the original one when the view no longer uses it, then the view's own.
    const double width = std::max(grid.width(), 8.0);
    double top = grid.height() + kSectionGap;
    auto strip = [&](const std::vector<std::int64_t> &contents, bool used_by_view, const QString &caption) {
        const std::int64_t row_length = std::clamp<std::int64_t>(std::int64_t(width), 8, kMaxStorageRow);
        chart.texts << ChartText{left_align, top, caption, text_color, Qt::AlignLeft | Qt::AlignVCenter, true, false};
        top += kCaptionHeight;
        for (std::size_t k = 0; k < contents.size(); ++k) {
            const auto index = std::int64_t(k);
            const bool used = used_by_view && users.count(index) > 0;
            ChartRect cell;
            cell.x0 = double(index % row_length);
            cell.x1 = cell.x0 + 1;
            cell.y0 = top + double(index / row_length);
            cell.y1 = cell.y0 + 1;
            cell.color = used ? valueColor(contents[k], originals, palette) : unusedColor(palette);
            cell.label = QString::number(contents[k]);
            cell.tooltip = used ? tr("storage[%1] = %2, read by %3").arg(index).arg(contents[k]).arg(users[index].join(QStringLiteral(", ")))
                                : tr("storage[%1] = %2, not used by this view").arg(index).arg(contents[k]);
            cell.group = used ? tr("storage used by the view") : tr("storage not used by the view");
            chart.rects << cell;
        }
        top += double((std::int64_t(contents.size()) + row_length - 1) / row_length) + kSectionGap;
    };
    if (view.storage_id != chain.start.storage_id) {
        strip(chain.start_values, false, tr("original storage (%n element(s)): no longer used, the view reads a copy", nullptr,
                                            int(chain.start.storage_size)));
        strip(values, true, tr("storage of copy #%1 (%n element(s)), contiguous", nullptr, int(view.storage_size))
                                .arg(view.storage_id));
    } else {
        strip(values, true, tr("storage (%n element(s)), shared with the original tensor", nullptr, int(view.storage_size)));
    }
    return chart;
}

}  // namespace lse::gui
