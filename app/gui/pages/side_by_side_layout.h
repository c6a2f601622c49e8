// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLayout>
#include <QList>

namespace lse::gui {

// Two items (two charts, a table and its explanation) side by side when each gets at least
// kMinSideBySideWidth pixels, one above the other otherwise: beside the scenario editor on a
// 1024-px screen two charts side by side were 250 px wide each, too narrow for their axes and
// legends. `setStacked(true)` always stacks them (presentation mode). Side by side both take the
// row's full height; stacked they share it. An item whose height follows its width (a word-wrapped
// label) is given its height at the width it gets.
class SideBySideLayout : public QLayout {
public:
    static constexpr int kMinSideBySideWidth = 360;

    explicit SideBySideLayout(QWidget *parent = nullptr);
    ~SideBySideLayout() override;

    // Side by side the row's width is shared `first : second`; the items go side by side only when
    // each gets at least its minimum (kMinSideBySideWidth each unless set).
    void setStretch(int first, int second);
    void setSideBySideMinimumWidths(int first, int second);
    void setStacked(bool stacked);
    bool stacked() const { return stacked_; }
    // Whether the items are side by side at `width` (the layout's own width, margins included).
    bool sideBySideAt(int width) const;

    void addItem(QLayoutItem *item) override;
    int count() const override { return int(items_.size()); }
    QLayoutItem *itemAt(int index) const override { return items_.value(index); }
    QLayoutItem *takeAt(int index) override;

    Qt::Orientations expandingDirections() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect &rect) override;

private:
    QList<QLayoutItem *> visibleItems() const;
    int gap() const;
    // The first item's width side by side, in a row `inner` pixels wide.
    int firstWidth(int inner) const;
    // The height the items need at `width`: the taller one side by side, both stacked.
    int heightAt(int width, bool preferred) const;
    // An item's least height at `item_width`.
    static int minimumHeight(const QLayoutItem *item, int item_width);

    QList<QLayoutItem *> items_;
    bool stacked_ = false;
    int stretch_[2] = {1, 1};
    int side_minimum_width_[2] = {kMinSideBySideWidth, kMinSideBySideWidth};
};

}  // namespace lse::gui
