// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>

#include <functional>

class QWidget;

namespace lse::gui {

class Page;

// The groups the navigator shows pages in. (The folders under app/gui/pages/ follow core's domains
// instead: pages/roofline/, pages/parallel/, pages/tokenizer/, ...)
enum class PageDomain { Cost, Hardware, Parallelism, Model, Foundations };

// A page before it exists. The main window builds a page the first time it is shown or asked for
// (start-up builds only the first page: building all nineteen took 150–190 ms of a 450 ms start,
// bench_gui_footprint), so the navigator and the Go menu list pages by these.
struct PageEntry {
    QString id;                                    // Page::id()
    std::function<QString()> title;                // Page::title(), translated when called
    std::function<Page *(QWidget *parent)> create;  // a new page parented to `parent`
};

struct PageGroup {
    PageDomain domain;
    QList<PageEntry> pages;
};

// Every page of the app grouped by domain, in navigation order. Later issues add their pages to
// the group of their domain.
QList<PageGroup> pageCatalog();
// Every page built, as one list in navigation order, parented to `parent` (tests).
QList<Page *> createPages(QWidget *parent);

}  // namespace lse::gui
