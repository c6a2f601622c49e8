// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QEvent>
#include <QFont>
#include <QLabel>

#include <array>
#include <utility>

namespace lse::gui {

// A word-wrapped label that remembers its height for the last few widths it was asked about, until
// its text or font changes. QLabel lays its (rich) text out again on every heightForWidth() call,
// and one layout pass asks several times for the same width (minimum, preferred, geometry, the
// scroll area's size hint): on the Scaling page that was about 40 % of an edit (issue 20,
// docs/benchmarks-gui.md). QLabel::setText is not virtual, so the text is part of the cache key.
class HeightCachedLabel : public QLabel {
public:
    using QLabel::QLabel;

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
