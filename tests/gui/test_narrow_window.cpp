// SPDX-License-Identifier: GPL-3.0-or-later
// A 1024×768 screen with the scenario editor open (the normal mode, not presentation): every page
// and every tab fits the room left beside the editor and the page list, so nothing scrolls sideways
// or is cut off at the right edge, in English and in Chinese; and inside every chart the plot and
// its formula panel do not overlap, there, at 1920×1080 and in presentation mode (which hides the
// editor; test_main_window's presentationPagesFitProjectors checks its widths at more sizes).

#include "charts/chart_view.h"
#include "main_window.h"
#include "pages/page.h"

#include <QApplication>
#include <QDockWidget>
#include <QScrollArea>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>

using namespace lse::gui;

namespace {

QString rectText(const QRect &rect)
{
    return QString("(%1,%2 %3×%4)").arg(rect.x()).arg(rect.y()).arg(rect.width()).arg(rect.height());
}

// The page's own scroll area (addScrollingContent), or the one of the tab shown in a page of tabs.
QList<const QScrollArea *> shownScrollAreas(const Page *page)
{
    QList<const QScrollArea *> areas;
    for (const QScrollArea *area : page->findChildren<QScrollArea *>()) {
        if (!area->isVisibleTo(page) || !area->widget())
            continue;
        // Only the outermost: a chart's own scroll area inside a page is not the page's width.
        bool nested = false;
        for (const QWidget *parent = area->parentWidget(); parent && parent != page; parent = parent->parentWidget())
            if (qobject_cast<const QScrollArea *>(parent))
                nested = true;
        if (!nested)
            areas << area;
    }
    return areas;
}

}  // namespace

class TestNarrowWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void pagesFitTheirRoom_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("presentation");
        QTest::addRow("1024x768 en") << "en" << QSize(1024, 768) << false;
        QTest::addRow("1024x768 zh_CN") << "zh_CN" << QSize(1024, 768) << false;
        QTest::addRow("1920x1080 en") << "en" << QSize(1920, 1080) << false;
        // Presentation mode hides the editor and enlarges fonts and charts.
        QTest::addRow("1024x768 zh_CN presentation") << "zh_CN" << QSize(1024, 768) << true;
        QTest::addRow("1920x1080 en presentation") << "en" << QSize(1920, 1080) << true;
    }
    void pagesFitTheirRoom()
    {
        QFETCH(QString, lang);
        QFETCH(QSize, size);
        QFETCH(bool, presentation);
        QVERIFY(MainWindow::installLanguage(lang));
        MainWindow window(false);
        const auto restore = qScopeGuard([&window] {
            window.setPresentation(false);
            MainWindow::installLanguage("en");
        });
        window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const auto *editor = window.findChild<QDockWidget *>();
        QVERIFY(editor && editor->isVisible());
        window.setPresentation(presentation);

        QStringList too_wide;
        QStringList overlapping;
        for (const QString &id : window.pageAndSectionIds()) {
            QVERIFY(window.selectPage(id));
            for (int i = 0; i < 3; ++i)
                QCoreApplication::processEvents();
            const Page *page = window.currentPage();
            QVERIFY(page);
            for (const QScrollArea *area : shownScrollAreas(page)) {
                const int needed = area->widget()->minimumSizeHint().width();
                const int room = area->viewport()->width();
                if (needed > room)
                    too_wide << QString("%1 needs %2 px, has %3").arg(id).arg(needed).arg(room);
            }
            // Inside each chart the plot, its toolbar and its formula panel never overlap.
            for (const ChartView *chart : page->findChildren<ChartView *>()) {
                if (!chart->isVisibleTo(page))
                    continue;
                QList<const QWidget *> parts;
                for (const QWidget *part : chart->findChildren<QWidget *>(QString(), Qt::FindDirectChildrenOnly))
                    if (part->isVisibleTo(chart) && !part->isWindow())
                        parts << part;
                for (int a = 0; a < parts.size(); ++a)
                    for (int b = a + 1; b < parts.size(); ++b) {
                        if (parts[a]->geometry().intersects(parts[b]->geometry()))
                            overlapping << QString("%1: %2 %3 and %4 %5 in %6 (%7 px high)")
                                               .arg(id, parts[a]->objectName(), rectText(parts[a]->geometry()),
                                                    parts[b]->objectName(), rectText(parts[b]->geometry()),
                                                    chart->objectName())
                                               .arg(chart->height());
                    }
            }
        }
        QVERIFY2(too_wide.isEmpty(), qPrintable(too_wide.join("; ")));
        QVERIFY2(overlapping.isEmpty(), qPrintable(overlapping.join("; ")));
    }

    // The editor dock takes only the width its fields need (ScenarioEditor::sizeHint), and at that
    // width none of its tabs scrolls sideways either.
    void editorFitsItsDock_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::addRow("1024x768 en") << "en";
        QTest::addRow("1024x768 zh_CN") << "zh_CN";
    }
    void editorFitsItsDock()
    {
        QFETCH(QString, lang);
        QVERIFY(MainWindow::installLanguage(lang));
        const auto restore = qScopeGuard([] { MainWindow::installLanguage("en"); });
        MainWindow window(false);
        window.resize(1024, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const auto *editor = window.findChild<QDockWidget *>();
        QVERIFY(editor && editor->isVisible());
        QCOMPARE(editor->width(), editor->minimumSizeHint().width());
        auto *tabs = editor->findChild<QTabWidget *>();
        QVERIFY(tabs);
        for (int tab = 0; tab < tabs->count(); ++tab) {
            tabs->setCurrentIndex(tab);
            QCoreApplication::processEvents();
            const auto *area = qobject_cast<const QScrollArea *>(tabs->widget(tab));
            QVERIFY(area && area->widget());
            QVERIFY2(area->widget()->minimumSizeHint().width() <= area->viewport()->width(),
                     qPrintable(QString("%1: %2 px needed, %3 px wide")
                                    .arg(tabs->tabText(tab))
                                    .arg(area->widget()->minimumSizeHint().width())
                                    .arg(area->viewport()->width())));
        }
    }
};

QTEST_MAIN(TestNarrowWindow)
#include "test_narrow_window.moc"
