// SPDX-License-Identifier: GPL-3.0-or-later
#include "page_navigator.h"

#include "pages/page.h"

#include <QApplication>
#include <QHeaderView>
#include <QStyle>
#include <QKeyEvent>

namespace lse::gui {

namespace {
constexpr int kPageIndexRole = Qt::UserRole;  // page index on page entries; -1 on groups
constexpr int kPageIdRole = Qt::UserRole + 1;
}  // namespace

PageNavigator::PageNavigator(QWidget *parent)
    : QTreeWidget(parent)
{
    setObjectName(QStringLiteral("navigation"));
    setHeaderHidden(true);
    setColumnCount(1);
    setRootIsDecorated(true);
    setIndentation(12);
    setUniformRowHeights(false);
    setFrameShape(QFrame::NoFrame);
    setExpandsOnDoubleClick(false);  // one click toggles a group (itemClicked below)
    setSelectionMode(QAbstractItemView::SingleSelection);
    header()->setSectionResizeMode(QHeaderView::Stretch);
    connect(this, &QTreeWidget::currentItemChanged, this,
            [this](QTreeWidgetItem *current, QTreeWidgetItem *) { onCurrentItemChanged(current); });
    connect(this, &QTreeWidget::itemClicked, this, [](QTreeWidgetItem *item) {
        if (item->data(0, kPageIndexRole).toInt() < 0)
            item->setExpanded(!item->isExpanded());
    });


}

QString PageNavigator::groupTitle(PageDomain domain)
{
    switch (domain) {
    case PageDomain::Cost:
        return tr("Cost");
    case PageDomain::Hardware:
        return tr("Hardware");
    case PageDomain::Parallelism:
        return tr("Parallelism");
    case PageDomain::Model:
        return tr("Model");
    case PageDomain::Foundations:
        return tr("Foundations");
    }
    return {};
}

void PageNavigator::setGroups(const QList<PageGroup> &groups)
{
    clear();
    group_items_.clear();
    group_domains_.clear();
    page_items_.clear();
    current_page_ = -1;
    for (const PageGroup &group : groups) {
        auto *group_item = new QTreeWidgetItem(this, {groupTitle(group.domain)});
        group_item->setData(0, kPageIndexRole, -1);
        group_item->setFlags(Qt::ItemIsEnabled);  // not selectable: never "the current page"
        QFont font = group_item->font(0);
        font.setBold(true);
        group_item->setFont(0, font);
        group_items_.append(group_item);
        group_domains_.append(group.domain);
        for (const PageEntry &page : group.pages) {
            auto *item = new QTreeWidgetItem(group_item, {page.title()});
            item->setData(0, kPageIndexRole, int(page_items_.size()));
            item->setData(0, kPageIdRole, page.id);
            item->setSizeHint(0, QSize(120, 30));
            page_items_.append(item);
        }
    }
    expandAll();
}

QTreeWidgetItem *PageNavigator::groupItem(PageDomain domain) const
{
    const int index = int(group_domains_.indexOf(domain));
    return index < 0 ? nullptr : group_items_.at(index);
}

void PageNavigator::setCurrentPage(int index)
{
    if (index < 0 || index >= page_items_.size())
        return;
    QTreeWidgetItem *item = page_items_.at(index);
    if (item->parent() && !item->parent()->isExpanded())
        item->parent()->setExpanded(true);
    setCurrentItem(item);
}

void PageNavigator::onCurrentItemChanged(QTreeWidgetItem *current)
{
    if (!current)
        return;
    const int index = current->data(0, kPageIndexRole).toInt();
    if (index < 0) {
        // A group header got the keyboard focus: keep showing (and marking) the current page.
        if (current_page_ >= 0)
            page_items_.at(current_page_)->setSelected(true);
        return;
    }
    if (index == current_page_)
        return;
    current_page_ = index;
    emit currentPageChanged(index);
}

void PageNavigator::keyPressEvent(QKeyEvent *event)
{
    QTreeWidgetItem *item = currentItem();
    const bool on_group = item && item->data(0, kPageIndexRole).toInt() < 0;
    if (on_group && (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter || event->key() == Qt::Key_Space)) {
        item->setExpanded(!item->isExpanded());
        event->accept();
        return;
    }
    QTreeWidget::keyPressEvent(event);
}

void PageNavigator::retranslate(const QStringList &page_titles)
{
    for (int i = 0; i < group_items_.size(); ++i)
        group_items_[i]->setText(0, groupTitle(group_domains_.at(i)));
    for (int i = 0; i < page_items_.size() && i < page_titles.size(); ++i)
        page_items_[i]->setText(0, page_titles.at(i));
}

int PageNavigator::fittingWidth() const
{
    // The application font, not font(): presentation mode changes it just before asking, and the
    // widget learns of the change only when its font-change event is delivered.
    QFont page_font = QApplication::font(this);
    QFont group_font = page_font;
    group_font.setBold(true);
    const QFontMetrics page_metrics(page_font);
    const QFontMetrics group_metrics(group_font);
    int widest = 0;
    // Groups sit one indentation in (the expand arrow), pages two.
    for (QTreeWidgetItem *item : group_items_)
        widest = std::max(widest, indentation() + group_metrics.horizontalAdvance(item->text(0)));
    for (QTreeWidgetItem *item : page_items_)
        widest = std::max(widest, 2 * indentation() + page_metrics.horizontalAdvance(item->text(0)));
    return widest + 2 * frameWidth() + 2 * style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, this) + 16;
}

}  // namespace lse::gui
