// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHeaderView>
#include <QList>

class QTableWidget;

namespace lse::gui {

// Fills a QTableWidget whose columns size to their contents (QHeaderView::ResizeToContents) in one
// pass. Each QTableWidget::setItem() on a visible table asks for the new cell's rectangle, and the
// header answers by measuring every cell of the column again: a fill of r rows costs O(r² × columns)
// size hints (Qt 6.4; 150 ms for the Layout page's events table on every edit, bench_gui_footprint).
// While a batch lives those columns keep their width; when it ends they resize once.
class TableFillBatch {
public:
    explicit TableFillBatch(QTableWidget *table);
    ~TableFillBatch() { finish(); }
    // Ends the batch before the destructor would: before reading row heights or column widths.
    void finish();
    TableFillBatch(const TableFillBatch &) = delete;
    TableFillBatch &operator=(const TableFillBatch &) = delete;

private:
    QHeaderView *header_;
    QList<int> sized_to_contents_;  // the columns switched to Interactive for the batch
};

}  // namespace lse::gui
