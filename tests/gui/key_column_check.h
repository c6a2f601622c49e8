// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Shared by test_table_key_columns and the pages whose tables fill only after a run.

#include "pages/table_key_columns.h"

#include <QAbstractItemModel>
#include <QHeaderView>
#include <QStringList>
#include <QTableView>

#include <algorithm>

namespace lse::gui::test {

// What is wrong with one table's key columns; empty when they are shown first and whole.
inline QStringList keyColumnProblems(const QString &where, const QTableView *table)
{
    const QList<int> keys = keyColumns(table);
    if (keys.isEmpty())
        return {QString("%1: table %2 names no key columns").arg(where, table->objectName())};
    const QHeaderView *header = table->horizontalHeader();
    const QAbstractItemModel *model = table->model();
    QStringList problems;
    for (int k = 0; k < keys.size(); ++k) {
        const int column = keys[k];
        const QString name = QString("%1: %2 column '%3'")
                                 .arg(where, table->objectName(),
                                      model->headerData(column, Qt::Horizontal).toString());
        if (header->visualIndex(column) != k)
            problems << name + QString(" is at position %1, not %2").arg(header->visualIndex(column)).arg(k);
        if (header->isSectionHidden(column))
            problems << name + " is hidden";
        // With the table scrolled to its left end, the column lies inside the viewport...
        const int left = header->sectionPosition(column);
        const int right = left + header->sectionSize(column);
        if (right > table->viewport()->width() + 1)
            problems << name + QString(" ends at %1 px, the table shows %2").arg(right).arg(table->viewport()->width());
        // ... and is wide enough for its header and its widest cell (nothing elided), except the
        // column declared to give way (setElidedKeyColumn): at least its minimum width, elided in
        // the middle, and each elided cell's whole text in its tooltip.
        const int needed = std::max(header->sectionSizeHint(column),
                                    static_cast<const QAbstractItemView *>(table)->sizeHintForColumn(column));
        int minimum = 0;
        if (elidedKeyColumn(table, &minimum) == column) {
            if (header->sectionSize(column) + 1 < std::min(needed, minimum))
                problems << name + QString(" is %1 px wide, below its minimum %2").arg(header->sectionSize(column)).arg(minimum);
            if (table->textElideMode() != Qt::ElideMiddle)
                problems << name + " gives way but does not elide in the middle";
            for (int row = 0; row < model->rowCount(); ++row) {
                const QModelIndex index = model->index(row, column);
                if (!index.data(Qt::ToolTipRole).toString().contains(index.data().toString().toHtmlEscaped()))
                    problems << name + QString(" row %1's tooltip lacks its whole text").arg(row);
            }
            continue;
        }
        if (header->sectionSize(column) + 1 < needed)
            problems << name + QString(" is %1 px wide, needs %2").arg(header->sectionSize(column)).arg(needed);
    }
    return problems;
}

}  // namespace lse::gui::test
