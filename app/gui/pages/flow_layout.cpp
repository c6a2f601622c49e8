// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/flow_layout.h"

#include <QHBoxLayout>
#include <QWidget>

#include <algorithm>

namespace lse::gui {

namespace {

// An item's width on its line: its preferred width, never below its minimum nor above the line.
QSize placedSize(const QLayoutItem *item, int line_width)
{
    QSize size = item->sizeHint().expandedTo(item->minimumSize()).boundedTo(item->maximumSize());
    size.setWidth(std::min(size.width(), line_width));
    return size;
}

}  // namespace

FlowLayout::FlowLayout(QWidget *parent, int horizontal_spacing, int vertical_spacing)
    : QLayout(parent), horizontal_spacing_(horizontal_spacing), vertical_spacing_(vertical_spacing)
{
}

FlowLayout::~FlowLayout()
{
    while (QLayoutItem *item = takeAt(0))
        delete item;
}

void FlowLayout::addItem(QLayoutItem *item) { items_.append(item); }

void FlowLayout::addLayout(QLayout *layout)
{
    addChildLayout(layout);
    addItem(layout);
}

void FlowLayout::addLabelled(QWidget *label, QWidget *field)
{
    auto *pair = new QHBoxLayout;
    pair->setContentsMargins(0, 0, 0, 0);
    pair->addWidget(label);
    pair->addWidget(field);
    addLayout(pair);
}

QLayoutItem *FlowLayout::takeAt(int index)
{
    if (index < 0 || index >= items_.size())
        return nullptr;
    return items_.takeAt(index);
}

int FlowLayout::spacingOrStyle(int spacing, QStyle::PixelMetric metric) const
{
    if (spacing >= 0)
        return spacing;
    const QWidget *widget = parentWidget();
    const QStyle *style = widget ? widget->style() : nullptr;
    return style ? style->pixelMetric(metric, nullptr, widget) : 6;
}

int FlowLayout::horizontalSpacing() const
{
    return spacingOrStyle(horizontal_spacing_, QStyle::PM_LayoutHorizontalSpacing);
}

int FlowLayout::verticalSpacing() const { return spacingOrStyle(vertical_spacing_, QStyle::PM_LayoutVerticalSpacing); }

int FlowLayout::heightForWidth(int width) const { return arrange(QRect(0, 0, width, 0), false); }

QSize FlowLayout::minimumSize() const
{
    // The widest item on a line of its own, and one line high (heightForWidth gives the rest).
    QSize size(0, 0);
    for (const QLayoutItem *item : items_)
        if (!item->isEmpty())
            size = size.expandedTo(item->minimumSize());
    const QMargins margins = contentsMargins();
    return size + QSize(margins.left() + margins.right(), margins.top() + margins.bottom());
}

QSize FlowLayout::sizeHint() const
{
    // Everything on one line.
    int width = 0;
    int height = 0;
    int visible = 0;
    for (const QLayoutItem *item : items_) {
        if (item->isEmpty())
            continue;
        const QSize hint = item->sizeHint().expandedTo(item->minimumSize());
        width += hint.width();
        height = std::max(height, hint.height());
        ++visible;
    }
    if (visible > 1)
        width += (visible - 1) * horizontalSpacing();
    const QMargins margins = contentsMargins();
    return {width + margins.left() + margins.right(), height + margins.top() + margins.bottom()};
}

void FlowLayout::setGeometry(const QRect &rect)
{
    QLayout::setGeometry(rect);
    arrange(rect, true);
}

int FlowLayout::arrange(const QRect &rect, bool apply) const
{
    const QRect area = rect.marginsRemoved(contentsMargins());
    const int line_width = std::max(area.width(), 1);
    const int h_spacing = horizontalSpacing();
    const int v_spacing = verticalSpacing();

    // Lines are filled first, then placed, so the items of a line share its vertical centre (a
    // label beside a taller combo box).
    struct Placed {
        QLayoutItem *item;
        QSize size;
    };
    QList<Placed> line;
    int line_used = 0;
    int y = area.top();
    bool any_line = false;
    const auto finishLine = [&] {
        if (line.isEmpty())
            return;
        int line_height = 0;
        for (const Placed &placed : line)
            line_height = std::max(line_height, placed.size.height());
        if (any_line)
            y += v_spacing;
        if (apply) {
            int x = area.left();
            for (const Placed &placed : line) {
                const int top = y + (line_height - placed.size.height()) / 2;
                placed.item->setGeometry(QRect(QPoint(x, top), placed.size));
                x += placed.size.width() + h_spacing;
            }
        }
        y += line_height;
        any_line = true;
        line.clear();
        line_used = 0;
    };

    for (QLayoutItem *item : items_) {
        if (item->isEmpty())
            continue;
        const QSize size = placedSize(item, line_width);
        const int needed = line.isEmpty() ? size.width() : line_used + h_spacing + size.width();
        if (!line.isEmpty() && needed > line_width)
            finishLine();
        line_used = line.isEmpty() ? size.width() : line_used + h_spacing + size.width();
        line.append({item, size});
    }
    finishLine();
    const QMargins margins = contentsMargins();
    return y - area.top() + margins.top() + margins.bottom();
}

}  // namespace lse::gui
