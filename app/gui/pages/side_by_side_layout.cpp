// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/side_by_side_layout.h"

#include <algorithm>

namespace lse::gui {

SideBySideLayout::SideBySideLayout(QWidget *parent) : QLayout(parent) {}

SideBySideLayout::~SideBySideLayout()
{
    while (QLayoutItem *item = takeAt(0))
        delete item;
}

void SideBySideLayout::setStacked(bool stacked)
{
    if (stacked_ == stacked)
        return;
    stacked_ = stacked;
    invalidate();
}

void SideBySideLayout::setStretch(int first, int second)
{
    stretch_[0] = std::max(1, first);
    stretch_[1] = std::max(1, second);
    invalidate();
}

void SideBySideLayout::setSideBySideMinimumWidths(int first, int second)
{
    side_minimum_width_[0] = first;
    side_minimum_width_[1] = second;
    invalidate();
}

int SideBySideLayout::firstWidth(int inner) const
{
    return (inner - gap()) * stretch_[0] / (stretch_[0] + stretch_[1]);
}

bool SideBySideLayout::sideBySideAt(int width) const
{
    if (stacked_ || visibleItems().size() != 2)
        return false;
    const QMargins margins = contentsMargins();
    const int inner = width - margins.left() - margins.right();
    const int first = firstWidth(inner);
    return first >= side_minimum_width_[0] && inner - gap() - first >= side_minimum_width_[1];
}

int SideBySideLayout::gap() const { return std::max(0, spacing()); }

void SideBySideLayout::addItem(QLayoutItem *item) { items_.append(item); }

QLayoutItem *SideBySideLayout::takeAt(int index)
{
    if (index < 0 || index >= items_.size())
        return nullptr;
    return items_.takeAt(index);
}

QList<QLayoutItem *> SideBySideLayout::visibleItems() const
{
    QList<QLayoutItem *> visible;
    for (QLayoutItem *item : items_)
        if (!item->isEmpty())
            visible << item;
    return visible;
}

Qt::Orientations SideBySideLayout::expandingDirections() const
{
    Qt::Orientations directions;
    for (const QLayoutItem *item : visibleItems())
        directions |= item->expandingDirections();
    return directions;
}

int SideBySideLayout::minimumHeight(const QLayoutItem *item, int item_width)
{
    const int minimum = item->minimumSize().height();
    return item->hasHeightForWidth() ? std::max(minimum, item->heightForWidth(item_width)) : minimum;
}

int SideBySideLayout::heightAt(int width, bool preferred) const
{
    const QList<QLayoutItem *> items = visibleItems();
    const QMargins margins = contentsMargins();
    const int inner = std::max(1, width - margins.left() - margins.right());
    const bool side = sideBySideAt(width);
    const auto itemHeight = [preferred](const QLayoutItem *item, int item_width) {
        const int least = minimumHeight(item, item_width);
        return preferred ? std::max(least, item->sizeHint().height()) : least;
    };
    int height = 0;
    if (side) {
        const int first = firstWidth(inner);
        height = std::max(itemHeight(items[0], first), itemHeight(items[1], inner - gap() - first));
    } else {
        for (const QLayoutItem *item : items)
            height += itemHeight(item, inner);
        height += std::max(0, int(items.size()) - 1) * gap();
    }
    return height + margins.top() + margins.bottom();
}

int SideBySideLayout::heightForWidth(int width) const { return heightAt(width, false); }

QSize SideBySideLayout::minimumSize() const
{
    // The narrowest is stacked: the wider item's minimum. The height is the side-by-side one (the
    // lower bound); heightForWidth gives the height at the actual width.
    int width = 0;
    int height = 0;
    for (const QLayoutItem *item : visibleItems()) {
        width = std::max(width, item->minimumSize().width());
        height = std::max(height, item->minimumSize().height());
    }
    const QMargins margins = contentsMargins();
    return {width + margins.left() + margins.right(), height + margins.top() + margins.bottom()};
}

QSize SideBySideLayout::sizeHint() const
{
    int width = 0;
    const QList<QLayoutItem *> items = visibleItems();
    for (const QLayoutItem *item : items)
        width += item->sizeHint().width();
    width += std::max(0, int(items.size()) - 1) * gap();
    const QMargins margins = contentsMargins();
    width += margins.left() + margins.right();
    return {width, heightAt(width, true)};
}

void SideBySideLayout::setGeometry(const QRect &rect)
{
    QLayout::setGeometry(rect);
    const QRect area = rect.marginsRemoved(contentsMargins());
    const QList<QLayoutItem *> items = visibleItems();
    if (items.isEmpty())
        return;
    const int gap = this->gap();
    if (sideBySideAt(rect.width())) {
        const int first_width = firstWidth(area.width());
        items[0]->setGeometry(QRect(area.left(), area.top(), first_width, area.height()));
        items[1]->setGeometry(QRect(area.left() + first_width + gap, area.top(), area.width() - first_width - gap,
                                    area.height()));
        return;
    }
    // Stacked: each gets its least height at the full width, and the rest is shared equally.
    QList<int> heights;
    int needed = 0;
    for (const QLayoutItem *item : items) {
        heights << minimumHeight(item, area.width());
        needed += heights.back();
    }
    const int count = int(items.size());
    const int spare = std::max(0, area.height() - needed - (count - 1) * gap);
    int y = area.top();
    for (int i = 0; i < count; ++i) {
        const int height = heights[i] + spare / count + (i < spare % count ? 1 : 0);
        items[i]->setGeometry(QRect(area.left(), y, area.width(), height));
        y += height + gap;
    }
}

}  // namespace lse::gui

