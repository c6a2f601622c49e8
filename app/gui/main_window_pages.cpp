// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's pages: built on first need, found by id, selected with their tab.
#include "main_window.h"

#include "page_navigator.h"
#include "pages/page.h"
#include "pages/sectioned_page.h"
#include "pages/traces/trace_page.h"
#include "pages/traces/trace_session.h"

#include <QStackedWidget>
#include <QTabWidget>

namespace lse::gui {

Page *MainWindow::pageAt(int index) const
{
    if (index < 0 || index >= page_slots_.size())
        return nullptr;
    PageSlot &slot = page_slots_[index];
    if (slot.page)
        return slot.page;
    // The page takes its placeholder's index in the stack; the stack's current index stays on the
    // widget that was current (the placeholder itself when this page is being shown).
    Page *page = slot.entry.create(nullptr);
    slot.page = page;
    QWidget *placeholder = stack_->widget(index);
    const bool placeholder_current = stack_->currentWidget() == placeholder;
    stack_->insertWidget(index, page);
    if (placeholder_current)
        stack_->setCurrentIndex(index);
    stack_->removeWidget(placeholder);
    delete placeholder;
    // The window's state that every built page has already received.
    auto *window = const_cast<MainWindow *>(this);
    window->stale_.insert(page, true);
    connect(page, &Page::scenarioEditRequested, window, &MainWindow::applyPageEdit);
    if (auto *client = dynamic_cast<TraceSessionClient *>(page))
        client->setTraceSession(trace_session_);
    if (presentation_)
        page->setPresentation(true);
    // A page first built inside a lesson goes back to the settings it was built with when the
    // lesson ends, as the pages built before it do.
    if (inLesson() && !page_settings_before_lesson_.contains(page->id()))
        window->page_settings_before_lesson_.insert(page->id(), page->lessonSettings());
    return page;
}

QList<Page *> MainWindow::builtPages() const
{
    QList<Page *> pages;
    for (const PageSlot &slot : page_slots_)
        if (slot.page)
            pages.append(slot.page);
    return pages;
}

QStringList MainWindow::pageIds() const
{
    QStringList ids;
    for (const PageSlot &slot : page_slots_)
        ids << slot.entry.id;
    return ids;
}

bool MainWindow::openTraces(const QStringList &paths)
{
    auto *trace = qobject_cast<TracePage *>(page(TracePage::pageId()));
    if (paths.isEmpty() || !trace)
        return false;
    selectPage(TracePage::pageId());
    trace->openFiles(paths);
    return true;
}

Page *MainWindow::page(const QString &id) const { return pageAt(int(pageIds().indexOf(id))); }

Page *MainWindow::currentPage() const { return qobject_cast<Page *>(stack_->currentWidget()); }

QString MainWindow::currentPageAndSection() const
{
    QString id = currentPage() ? currentPage()->id() : QString();
    if (const auto *sectioned = qobject_cast<const SectionedPage *>(currentPage()))
        if (!sectioned->sectionIds().isEmpty())
            id += QLatin1Char('/') + sectioned->sectionIds().value(sectioned->tabs()->currentIndex());
    return id;
}

QStringList MainWindow::pageAndSectionIds() const
{
    // A page's tabs are known once it is built: --list-pages builds them all.
    QStringList ids;
    for (int index = 0; index < page_slots_.size(); ++index) {
        const Page *page = pageAt(index);
        const auto *sectioned = qobject_cast<const SectionedPage *>(page);
        if (!sectioned || sectioned->sectionIds().isEmpty()) {
            ids << page->id();
            continue;
        }
        for (const QString &section : sectioned->sectionIds())
            ids << page->id() + QLatin1Char('/') + section;
    }
    return ids;
}

bool MainWindow::selectPage(const QString &page_and_section)
{
    const QString id = page_and_section.section(QLatin1Char('/'), 0, 0);
    const QString section = page_and_section.section(QLatin1Char('/'), 1);
    const int index = int(pageIds().indexOf(id));
    if (index < 0)
        return false;
    if (!section.isEmpty()) {
        auto *sectioned = qobject_cast<SectionedPage *>(pageAt(index));
        if (!sectioned || !sectioned->selectSection(section))
            return false;
    }
    navigation_->setCurrentPage(index);
    return true;
}

}  // namespace lse::gui
