// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pages/page_registry.h"

#include <QTreeWidget>

namespace lse::gui {

// The page list beside the page area: pages grouped under their domain (Cost, Hardware,
// Parallelism, Model), groups collapsible. Pages are numbered 0..n-1 in navigation order across
// groups. Keyboard: Up/Down move through the visible entries; Left/Right (or Enter/Space on a
// group) collapse and expand; selecting a page in a collapsed group (Ctrl+PgDn, Go menu, --page)
// expands it. A group header is never the current page: the page shown stays.
class PageNavigator : public QTreeWidget {
    Q_OBJECT
public:
    explicit PageNavigator(QWidget *parent = nullptr);

    // One group entry per PageGroup and one child per page.
    void setGroups(const QList<PageGroup> &groups);

    int pageCount() const { return int(page_items_.size()); }
    int currentPage() const { return current_page_; }
    void setCurrentPage(int index);
    // The group entry of `domain` (nullptr when absent), e.g. for tests and collapse state.
    QTreeWidgetItem *groupItem(PageDomain domain) const;
    QTreeWidgetItem *pageItem(int index) const { return page_items_.value(index); }

    // Translated group names and page titles (titles in page order).
    void retranslate(const QStringList &page_titles);
    // Width that fits the longest entry at the current font (presentation mode).
    int fittingWidth() const;

    static QString groupTitle(PageDomain domain);

signals:
    void currentPageChanged(int index);

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    void onCurrentItemChanged(QTreeWidgetItem *current);

    QList<QTreeWidgetItem *> group_items_;
    QList<PageDomain> group_domains_;
    QList<QTreeWidgetItem *> page_items_;
    int current_page_ = -1;
};

}  // namespace lse::gui
