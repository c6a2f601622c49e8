// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>

class QWidget;

namespace lse::gui {

class Page;

// The groups the navigator shows pages in. (The folders under app/gui/pages/ follow core's domains
// instead: pages/roofline/, pages/parallel/, pages/tokenizer/, ...)
enum class PageDomain { Cost, Hardware, Parallelism, Model, Foundations };

struct PageGroup {
    PageDomain domain;
    QList<Page *> pages;
};

// Every page of the app grouped by domain, in navigation order, parented to `parent`. Later
// issues add their pages to the group of their domain.
QList<PageGroup> createPageGroups(QWidget *parent);
// The same pages as one list in navigation order.
QList<Page *> createPages(QWidget *parent);

}  // namespace lse::gui
