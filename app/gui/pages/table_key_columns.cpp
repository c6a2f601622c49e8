// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/table_key_columns.h"

#include <QHeaderView>
#include <QTableView>
#include <QVariant>

namespace lse::gui {

namespace {

constexpr char kProperty[] = "lse_key_columns";

void moveKeyColumnsFirst(QTableView *table)
{
    QHeaderView *header = table->horizontalHeader();
    int position = 0;
    for (const int column : keyColumns(table)) {
        if (column < 0 || column >= header->count())
            continue;
        const int visual = header->visualIndex(column);
        if (visual != position)
            header->moveSection(visual, position);
        ++position;
    }
}

}  // namespace

void setKeyColumns(QTableView *table, const QList<int> &logical_columns)
{
    QVariantList columns;
    for (const int column : logical_columns)
        columns << column;
    const bool first_time = !table->property(kProperty).isValid();
    table->setProperty(kProperty, columns);
    moveKeyColumnsFirst(table);
    // A QTableWidget may get its columns later (setColumnCount when it is filled): place them then.
    if (first_time)
        QObject::connect(table->horizontalHeader(), &QHeaderView::sectionCountChanged, table,
                         [table](int, int) { moveKeyColumnsFirst(table); });
}

QList<int> keyColumns(const QTableView *table)
{
    QList<int> columns;
    for (const QVariant &column : table->property(kProperty).toList())
        columns << column.toInt();
    return columns;
}

}  // namespace lse::gui
