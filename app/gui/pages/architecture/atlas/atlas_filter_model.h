// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSortFilterProxyModel>

namespace lse::gui {

// Filters an AtlasTableModel by free text (over model name, organisation, family and id), one
// family and a range of years, and sorts by AtlasTableModel::kSortRole: numbers numerically, and
// empty cells (no published count, a dense model's expert width) after all others either way.
class AtlasFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit AtlasFilterModel(QObject *parent = nullptr);

    void setText(const QString &text);
    // Empty: every family.
    void setFamily(const QString &family);
    void setYearRange(int first, int last);

protected:
    bool filterAcceptsRow(int source_row, const QModelIndex &source_parent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    QString text_;
    QString family_;
    int first_year_ = 0;
    int last_year_ = 9999;
};

}  // namespace lse::gui
