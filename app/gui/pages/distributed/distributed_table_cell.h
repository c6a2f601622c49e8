// SPDX-License-Identifier: GPL-3.0-or-later
// A read-only cell of the Distributed run page's tables: figures right-aligned, labels left.
#pragma once

#include <QTableWidgetItem>

namespace lse::gui {

inline QTableWidgetItem *distributedTableCell(const QString &text,
                                              Qt::Alignment alignment = Qt::AlignRight | Qt::AlignVCenter)
{
    auto *item = new QTableWidgetItem(text);
    item->setTextAlignment(alignment);
    return item;
}

}  // namespace lse::gui
