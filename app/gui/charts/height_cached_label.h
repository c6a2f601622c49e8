// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QEvent>
#include <QFont>
#include <QLabel>
#include <QResizeEvent>

#include <array>
#include <utility>

namespace lse::gui {

// A word-wrapped label that remembers its height for the last few widths it was asked about, until
// its text or font changes. QLabel lays its (rich) text out again on every heightForWidth() call,
// and one layout pass asks several times for the same width (minimum, preferred, geometry, the
// scroll area's size hint): on the Scaling page that was about 40 % of an edit (issue 20,
// docs/benchmarks-gui.md). QLabel::setText is not virtual, so the text is part of the cache key.
//
// Its size hints are cheap too. QLabel's lay a wrapped text out at width 0 (to find its widest
// word), at unlimited width (one line) and at widths chosen by golden-ratio search, about five
// layouts on every text change, which was a third of an edit on the Scaling page. Here the minimum
// is kMinimumWidthChars average characters wide and one line high, and the preferred size is
// kPreferredWidthChars wide at its height for its current width (cached like any other). These
// labels hold sentences and small tables in a vertical layout, where the page gives the width.
class HeightCachedLabel : public QLabel {
public:
    using QLabel::QLabel;

    static constexpr int kMinimumWidthChars = 16;
    static constexpr int kPreferredWidthChars = 60;

    QSize minimumSizeHint() const override
    {
        if (!wordWrap())
            return QLabel::minimumSizeHint();
        const QMargins margins = contentsMargins();
        const int line = fontMetrics().height() + 2 * margin() + margins.top() + margins.bottom();
        return {kMinimumWidthChars * fontMetrics().averageCharWidth() + 2 * margin() + margins.left() + margins.right(),
                text().isEmpty() ? 0 : line};
    }

    QSize sizeHint() const override
    {
        if (!wordWrap())
            return QLabel::sizeHint();
        const int width = kPreferredWidthChars * fontMetrics().averageCharWidth() + 2 * margin()
                          + contentsMargins().left() + contentsMargins().right();
        // The height at the width the label has (once laid out): the layout asks heightForWidth()
        // for that width anyway. (Taking that width as the preferred width too fed back into the
        // scroll area's layout and doubled the Scaling page's edit time.)
        return {width, text().isEmpty() ? 0 : heightForWidth(this->width() > 0 ? this->width() : width)};
    }

    int heightForWidth(int width) const override
    {
        ++height_queries_;
        if (text() != cached_text_ || font() != cached_font_) {
            cached_text_ = text();
            cached_font_ = font();
            cache_.fill({-1, 0});
        }
        for (const auto &[cached_width, height] : cache_)
            if (cached_width == width)
                return height;
        const int height = QLabel::heightForWidth(width);
        ++height_layouts_;
        cache_[next_] = {width, height};
        next_ = (next_ + 1) % cache_.size();
        return height;
    }

    // heightForWidth() calls, and those that laid the text out; for tests.
    int heightQueries() const { return height_queries_; }
    int heightLayouts() const { return height_layouts_; }

protected:
    // Its preferred height is its height at its own width (sizeHint): at another width the layout
    // must ask again, or a live resize leaves it at the old width's height, its last lines cut
    // (issue 28 item 17: "Source:" missing under the charts after a resize to 1024x768).
    void resizeEvent(QResizeEvent *event) override
    {
        QLabel::resizeEvent(event);
        if (wordWrap() && event->oldSize().width() != event->size().width())
            updateGeometry();
    }

    void changeEvent(QEvent *event) override
    {
        cache_.fill({-1, 0});  // style, palette-dependent metrics, margins: measure again
        QLabel::changeEvent(event);
    }

private:
    mutable std::array<std::pair<int, int>, 4> cache_{{{-1, 0}, {-1, 0}, {-1, 0}, {-1, 0}}};
    mutable std::size_t next_ = 0;
    mutable QString cached_text_;
    mutable QFont cached_font_;
    mutable int height_queries_ = 0;
    mutable int height_layouts_ = 0;
};

}  // namespace lse::gui
