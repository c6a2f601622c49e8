// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>

class QTableView;

namespace lse::gui {

// The columns a reader looks for first in a table: a run's predicted step and its error, a
// layout's step time and MFU. setKeyColumns() shows them first, in the given order, in the header's
// visual order only: the model keeps its column indices, so code, sorting and CSV exports are
// unchanged. The other columns follow and scroll sideways when the table is narrower than all of
// them, so at 1024×768 the key figures are never the ones cut off (issue 28 item 22). Every table
// on a page names its key columns; test_table_key_columns checks they are shown whole.
void setKeyColumns(QTableView *table, const QList<int> &logical_columns);
// The key columns a table was given (empty: none yet).
QList<int> keyColumns(const QTableView *table);

// A key column of long names (the Validation page's run ids) that gives way to the other key
// columns: it is as wide as its contents when the table has the room, else the room left beside
// the other key columns but never under `minimum_characters` average characters, its text elided
// in the middle (the whole text is in each cell's tooltip). It is refitted whenever the table's
// viewport changes size and by fitElidedKeyColumn() after its contents change.
void setElidedKeyColumn(QTableView *table, int logical_column, int minimum_characters);
// The elided key column (−1: none) and its minimum width in pixels.
int elidedKeyColumn(const QTableView *table, int *minimum_pixels = nullptr);
void fitElidedKeyColumn(QTableView *table);

}  // namespace lse::gui
