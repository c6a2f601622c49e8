// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLayout>
#include <QList>
#include <QStyle>

namespace lse::gui {

// Lays its items out left to right at their preferred sizes and starts a new line when the next
// one does not fit, like words in a paragraph. A row of controls in one (a label and its field, a
// few check boxes, a few buttons) then fits a page beside the scenario editor on a 1024-pixel
// screen, where a QHBoxLayout made the page scroll sideways (test_narrow_window). Its minimum
// width is its widest item's; its height follows its width (heightForWidth).
//
// addLayout() adds a group that stays on one line, such as a label and its field.
class FlowLayout : public QLayout {
public:
    // Negative spacings take the style's layout spacing.
    explicit FlowLayout(QWidget *parent = nullptr, int horizontal_spacing = -1, int vertical_spacing = -1);
    ~FlowLayout() override;

    void addItem(QLayoutItem *item) override;
    // Takes ownership of `layout`, which is laid out as one item.
    void addLayout(QLayout *layout);
    // A label and its field, kept on one line.
    void addLabelled(QWidget *label, QWidget *field);
    int count() const override { return int(items_.size()); }
    QLayoutItem *itemAt(int index) const override { return items_.value(index); }
    QLayoutItem *takeAt(int index) override;

    Qt::Orientations expandingDirections() const override { return {}; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect &rect) override;

private:
    // `spacing` when it was given (>= 0), else the style's layout spacing `metric`.
    int spacingOrStyle(int spacing, QStyle::PixelMetric metric) const;
    int horizontalSpacing() const;
    int verticalSpacing() const;
    // Places the items in `rect` (when `apply`) and returns the height they take, margins included.
    int arrange(const QRect &rect, bool apply) const;

    QList<QLayoutItem *> items_;
    int horizontal_spacing_;
    int vertical_spacing_;
};

}  // namespace lse::gui
