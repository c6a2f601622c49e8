// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 13 item 3: while the scenario is invalid the pages show the last valid results, and a banner
// above them says so with the number of problems; it hides again once the scenario is valid.

#include "document/scenario_document.h"
#include "editor/scenario_editor.h"
#include "main_window.h"
#include "stale_banner.h"

#include <QSignalSpy>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTest>
#include <QUndoStack>

using namespace lse::gui;

class TestStaleBanner : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void bannerFollowsValidity()
    {
        MainWindow window(false);
        window.resize(1280, 800);
        window.show();
        auto *banner = window.findChild<StaleBanner *>();
        QVERIFY(banner != nullptr);
        QVERIFY(!banner->isVisible());
        QSignalSpy stale_changed(banner, &StaleBanner::staleChanged);

        auto *tp = qobject_cast<QSpinBox *>(window.editor()->fieldWidget("training.tp"));
        QVERIFY(tp != nullptr);
        tp->setValue(3);
        QVERIFY(!window.document()->isValid());
        const int problems = int(window.document()->problems().size());
        QVERIFY(problems >= 1);
        QCOMPARE(stale_changed.count(), 1);
        QCOMPARE(stale_changed.takeFirst().at(0).toBool(), true);
        QVERIFY(banner->isVisible());
        QCOMPARE(banner->problemCount(), problems);
        QVERIFY2(banner->text().contains(QStringLiteral("last valid scenario")), qPrintable(banner->text()));
        QVERIFY2(banner->text().contains(QString::number(problems)), qPrintable(banner->text()));
        // It sits above the pages, not over them.
        auto *stack = window.findChild<QStackedWidget *>();
        QVERIFY(stack != nullptr);
        const QRect banner_rect(banner->mapTo(&window, QPoint(0, 0)), banner->size());
        const QRect stack_rect(stack->mapTo(&window, QPoint(0, 0)), stack->size());
        QVERIFY(!banner_rect.intersects(stack_rect));
        QVERIFY(banner_rect.bottom() <= stack_rect.top());

        window.document()->undoStack()->undo();
        QVERIFY(window.document()->isValid());
        QCOMPARE(stale_changed.count(), 1);
        QCOMPARE(stale_changed.takeFirst().at(0).toBool(), false);
        QVERIFY(!banner->isVisible());
    }

    // The count is a %n plural, so "1 problem" and "2 problems" both read right once translated.
    void countIsAPluralArgument()
    {
        StaleBanner banner;
        banner.setProblems(2, true);
        QVERIFY(banner.isStale());
        QVERIFY(banner.text().contains(QStringLiteral("2 problem")));
        QVERIFY(!banner.text().contains(QStringLiteral("%n")));
        banner.setProblems(0, true);
        QVERIFY(!banner.isStale());
        QVERIFY(banner.isHidden());
        banner.setProblems(1, false);
        QVERIFY(banner.text().contains(QStringLiteral("No valid scenario yet")));
    }
};

QTEST_MAIN(TestStaleBanner)
#include "test_stale_banner.moc"
