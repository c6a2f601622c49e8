// SPDX-License-Identifier: GPL-3.0-or-later
// The page list grouped by domain (issue 15, "Navigation"): groups in the order, collapsible,
// keyboard navigation across groups, and selecting a page inside a collapsed group expands it.

#include "main_window.h"
#include "page_navigator.h"
#include "pages/page.h"

#include <QMenuBar>
#include <QSignalSpy>
#include <QTest>

using namespace lse::gui;

namespace {

QStringList childIds(QTreeWidgetItem *group)
{
    QStringList ids;
    for (int i = 0; i < group->childCount(); ++i)
        ids << group->child(i)->data(0, Qt::UserRole + 1).toString();
    return ids;
}

}  // namespace

class TestPageNavigator : public QObject {
    Q_OBJECT
private slots:
    void groupsFollowTheDomains()
    {
        MainWindow window(false);
        auto *navigator = window.findChild<PageNavigator *>(QStringLiteral("navigation"));
        QVERIFY(navigator);
        QCOMPARE(navigator->topLevelItemCount(), 5);
        QCOMPARE(childIds(navigator->groupItem(PageDomain::Cost)),
                 (QStringList{"overview", "memory", "compute", "time", "serving", "validation"}));
        QCOMPARE(childIds(navigator->groupItem(PageDomain::Hardware)), (QStringList{"hardware", "roofline", "kernels", "trace"}));
        QCOMPARE(childIds(navigator->groupItem(PageDomain::Parallelism)),
                 (QStringList{"layout", "collectives", "zero", "pipeline", "search", "distributed_run"}));
        const QStringList model = childIds(navigator->groupItem(PageDomain::Model));
        QVERIFY(model.contains("architecture") && model.contains("tokenization") && model.contains("reference_run"));
        QCOMPARE(childIds(navigator->groupItem(PageDomain::Foundations)), (QStringList{"numbers", "tensors"}));
        // Navigation order is the groups' order, and a page's index is its place in it.
        QStringList all;
        for (int g = 0; g < navigator->topLevelItemCount(); ++g)
            all += childIds(navigator->topLevelItem(g));
        QCOMPARE(all, window.pageIds());
        QCOMPARE(navigator->pageCount(), int(window.pageIds().size()));
    }

    // Up/Down walk the visible entries across groups; a group header never replaces the page
    // shown; Left collapses a group, Right and Enter expand it.
    void keyboardCrossesGroups()
    {
        MainWindow window(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *navigator = window.findChild<PageNavigator *>(QStringLiteral("navigation"));
        QSignalSpy changed(navigator, &PageNavigator::currentPageChanged);
        QVERIFY(window.selectPage("validation"));  // the last page of Cost
        navigator->setFocus();
        QTest::keyClick(navigator, Qt::Key_Down);  // onto the Hardware header
        QCOMPARE(window.currentPage()->id(), QString("validation"));
        QCOMPARE(navigator->currentItem(), navigator->groupItem(PageDomain::Hardware));
        QTest::keyClick(navigator, Qt::Key_Left);  // collapse Hardware
        QVERIFY(!navigator->groupItem(PageDomain::Hardware)->isExpanded());
        QTest::keyClick(navigator, Qt::Key_Down);  // past the collapsed group: onto Parallelism
        QCOMPARE(navigator->currentItem(), navigator->groupItem(PageDomain::Parallelism));
        QTest::keyClick(navigator, Qt::Key_Down);
        QCOMPARE(window.currentPage()->id(), QString("layout"));
        QTest::keyClick(navigator, Qt::Key_Up);
        QTest::keyClick(navigator, Qt::Key_Up);  // back onto the collapsed Hardware header
        QCOMPARE(navigator->currentItem(), navigator->groupItem(PageDomain::Hardware));
        QTest::keyClick(navigator, Qt::Key_Return);
        QVERIFY(navigator->groupItem(PageDomain::Hardware)->isExpanded());
        QTest::keyClick(navigator, Qt::Key_Down);
        QCOMPARE(window.currentPage()->id(), QString("hardware"));
        QCOMPARE(changed.size(), 3);  // validation, layout, hardware; headers changed nothing
    }

    // One click on a group header opens or closes it (a sidebar's habit); the page stays.
    void clickTogglesAGroup()
    {
        MainWindow window(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *navigator = window.findChild<PageNavigator *>(QStringLiteral("navigation"));
        QTreeWidgetItem *cost = navigator->groupItem(PageDomain::Cost);
        const QPoint at = navigator->visualItemRect(cost).center();
        QTest::mouseClick(navigator->viewport(), Qt::LeftButton, {}, at);
        QVERIFY(!cost->isExpanded());
        QCOMPARE(window.currentPage()->id(), QString("overview"));
        QTest::mouseClick(navigator->viewport(), Qt::LeftButton, {}, at);
        QVERIFY(cost->isExpanded());
    }

    // Ctrl+PgDn, the Go menu and --page reach a page inside a collapsed group and open the group.
    void selectingAPageExpandsItsGroup()
    {
        MainWindow window(false);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        auto *navigator = window.findChild<PageNavigator *>(QStringLiteral("navigation"));
        QVERIFY(window.selectPage("validation"));  // the last page of Cost
        navigator->groupItem(PageDomain::Hardware)->setExpanded(false);
        QTest::keyClick(&window, Qt::Key_PageDown, Qt::ControlModifier);
        QCOMPARE(window.currentPage()->id(), QString("hardware"));
        QVERIFY(navigator->groupItem(PageDomain::Hardware)->isExpanded());
        QVERIFY(navigator->pageItem(navigator->currentPage())->isSelected());

        navigator->groupItem(PageDomain::Model)->setExpanded(false);
        QVERIFY(window.selectPage("tokenization"));
        QVERIFY(navigator->groupItem(PageDomain::Model)->isExpanded());
        QCOMPARE(window.currentPage()->id(), QString("tokenization"));
    }

    // The Go menu names the groups as sections above their pages.
    void goMenuHasGroupSections()
    {
        MainWindow window(false);
        QMenu *go = nullptr;
        for (QAction *action : window.menuBar()->actions())
            if (action->menu() && action->text().remove('&') == QLatin1String("Go"))
                go = action->menu();
        QVERIFY(go);
        QStringList sections;
        for (QAction *action : go->actions())
            if (action->isSeparator() && !action->text().isEmpty())
                sections << action->text();
        QCOMPARE(sections, (QStringList{"Cost", "Hardware", "Parallelism", "Model", "Foundations"}));
    }
};

QTEST_MAIN(TestPageNavigator)
#include "test_page_navigator.moc"
