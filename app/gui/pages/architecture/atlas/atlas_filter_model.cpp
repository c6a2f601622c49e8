// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/architecture/atlas/atlas_filter_model.h"

#include "pages/architecture/atlas/atlas_table_model.h"
#include "pages/page_format.h"

namespace lse::gui {

AtlasFilterModel::AtlasFilterModel(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(AtlasTableModel::kSortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void AtlasFilterModel::setText(const QString &text)
{
    text_ = text.trimmed();
    invalidateRowsFilter();
}

void AtlasFilterModel::setFamily(const QString &family)
{
    family_ = family;
    invalidateRowsFilter();
}

void AtlasFilterModel::setYearRange(int first, int last)
{
    first_year_ = first;
    last_year_ = last;
    invalidateRowsFilter();
}

bool AtlasFilterModel::filterAcceptsRow(int source_row, const QModelIndex &source_parent) const
{
    const auto *atlas = qobject_cast<const AtlasTableModel *>(sourceModel());
    if (!atlas || source_parent.isValid() || source_row < 0 || source_row >= atlas->rowCount())
        return false;
    const AtlasEntry &entry = atlas->entry(source_row);
    if (entry.year < first_year_ || entry.year > last_year_)
        return false;
    if (!family_.isEmpty() && format::fromStd(entry.family) != family_)
        return false;
    if (text_.isEmpty())
        return true;
    for (const std::string *field : {&entry.model.name, &entry.organisation, &entry.family, &entry.id})
        if (format::fromStd(*field).contains(text_, Qt::CaseInsensitive))
            return true;
    return false;
}

bool AtlasFilterModel::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const QVariant a = left.data(sortRole());
    const QVariant b = right.data(sortRole());
    // Empty cells last in either order: the view reverses lessThan for descending sorts.
    if (!a.isValid() || !b.isValid()) {
        const bool descending = sortOrder() == Qt::DescendingOrder;
        return descending ? !a.isValid() && b.isValid() : a.isValid() && !b.isValid();
    }
    if (a.typeId() == QMetaType::QString && b.typeId() == QMetaType::QString)
        return QString::localeAwareCompare(a.toString(), b.toString()) < 0;
    return QVariant::compare(a, b) == QPartialOrdering::Less;
}

}  // namespace lse::gui
