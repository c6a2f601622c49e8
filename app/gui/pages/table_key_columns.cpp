// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/table_key_columns.h"

#include <QEvent>
#include <QHeaderView>
#include <QTableView>
#include <QVariant>

#include <algorithm>

namespace lse::gui {

namespace {

constexpr char kProperty[] = "lse_key_columns";
constexpr char kElidedProperty[] = "lse_elided_key_column";
constexpr char kElidedMinimumProperty[] = "lse_elided_key_column_characters";

// Refits the elided key column when the viewport's width changes. A child of the viewport, and it
// never asks the table for its viewport: while the table is destroyed its viewport still receives
// events (AddressSanitizer caught table_->viewport() on a half-destroyed table).
class ViewportWatcher : public QObject {
public:
    explicit ViewportWatcher(QTableView *table) : QObject(table->viewport()), table_(table), viewport_(table->viewport()) {}
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Resize && watched == viewport_)
            fitElidedKeyColumn(table_);
        return false;
    }

private:
    QTableView *table_;
    QObject *viewport_;
};

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

void setElidedKeyColumn(QTableView *table, int logical_column, int minimum_characters)
{
    const bool first_time = !table->property(kElidedProperty).isValid();
    table->setProperty(kElidedProperty, logical_column);
    table->setProperty(kElidedMinimumProperty, minimum_characters);
    table->setTextElideMode(Qt::ElideMiddle);
    if (first_time)
        table->viewport()->installEventFilter(new ViewportWatcher(table));
    fitElidedKeyColumn(table);
}

int elidedKeyColumn(const QTableView *table, int *minimum_pixels)
{
    const QVariant column = table->property(kElidedProperty);
    if (minimum_pixels)
        *minimum_pixels = table->fontMetrics().averageCharWidth() * table->property(kElidedMinimumProperty).toInt();
    return column.isValid() ? column.toInt() : -1;
}

void fitElidedKeyColumn(QTableView *table)
{
    int minimum = 0;
    const int column = elidedKeyColumn(table, &minimum);
    QHeaderView *header = table->horizontalHeader();
    if (column < 0 || column >= header->count() || !table->model() || table->model()->rowCount() == 0)
        return;
    int others = 0;
    for (const int key : keyColumns(table))
        if (key != column && key >= 0 && key < header->count())
            others += header->sectionSize(key);
    const int wanted = std::max(header->sectionSizeHint(column), static_cast<const QAbstractItemView *>(table)->sizeHintForColumn(column));
    const int width = std::max(minimum, std::min(wanted, table->viewport()->width() - others - 1));
    if (header->sectionSize(column) != width)
        header->resizeSection(column, width);
}

QList<int> keyColumns(const QTableView *table)
{
    QList<int> columns;
    for (const QVariant &column : table->property(kProperty).toList())
        columns << column.toInt();
    return columns;
}

}  // namespace lse::gui
