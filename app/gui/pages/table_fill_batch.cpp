// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/table_fill_batch.h"

#include <QTableWidget>

namespace lse::gui {

TableFillBatch::TableFillBatch(QTableWidget *table) : header_(table->horizontalHeader())
{
    for (int column = 0; column < header_->count(); ++column)
        if (header_->sectionResizeMode(column) == QHeaderView::ResizeToContents) {
            header_->setSectionResizeMode(column, QHeaderView::Interactive);
            sized_to_contents_ << column;
        }
}

void TableFillBatch::finish()
{
    for (const int column : std::as_const(sized_to_contents_))
        if (column < header_->count())
            header_->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    // Now, not on the header's next timer: the caller may read row heights right after the fill.
    if (!sized_to_contents_.isEmpty())
        QMetaObject::invokeMethod(header_, "resizeSections", Qt::DirectConnection);
    sized_to_contents_.clear();
}

}  // namespace lse::gui
