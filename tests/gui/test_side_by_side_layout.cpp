// SPDX-License-Identifier: GPL-3.0-or-later
// SideBySideLayout (app/gui/pages/side_by_side_layout.h): two charts side by side when each gets
// kMinSideBySideWidth pixels, stacked below that and always in presentation (setStacked).

#include "pages/side_by_side_layout.h"

#include <QLabel>
#include <QTest>
#include <QWidget>

using namespace lse::gui;

class TestSideBySideLayout : public QObject {
    Q_OBJECT

private slots:
    void sideBySideOrStacked_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<bool>("stacked_mode");
        QTest::addColumn<bool>("side_by_side");
        const int boundary = 2 * SideBySideLayout::kMinSideBySideWidth + 10;
        QTest::addRow("wide") << 1400 << false << true;
        QTest::addRow("exactly two minimum widths") << boundary << false << true;
        QTest::addRow("one pixel less") << boundary - 1 << false << false;
        QTest::addRow("beside the editor at 1024 px") << 508 << false << false;
        QTest::addRow("wide, presentation") << 1400 << true << false;
    }
    void sideBySideOrStacked()
    {
        QFETCH(int, width);
        QFETCH(bool, stacked_mode);
        QFETCH(bool, side_by_side);
        QWidget parent;
        auto *pair = new SideBySideLayout(&parent);
        pair->setContentsMargins(0, 0, 0, 0);
        pair->setSpacing(10);
        auto *first = new QWidget(&parent);
        auto *second = new QWidget(&parent);
        first->setMinimumSize(240, 200);
        second->setMinimumSize(240, 300);
        pair->addWidget(first);
        pair->addWidget(second);
        pair->setStacked(stacked_mode);

        QCOMPARE(pair->sideBySideAt(width), side_by_side);
        QCOMPARE(pair->minimumSize().width(), 240);
        const int height = pair->heightForWidth(width);
        QCOMPARE(height, side_by_side ? 300 : 200 + 10 + 300);
        pair->setGeometry(QRect(0, 0, width, height + 90));
        if (side_by_side) {
            QCOMPARE(first->geometry(), QRect(0, 0, (width - 10) / 2, height + 90));
            QCOMPARE(second->x(), (width - 10) / 2 + 10);
            QCOMPARE(second->y(), 0);
        } else {
            // Each its minimum plus half of the 90 spare pixels, full width, one above the other.
            QCOMPARE(first->geometry(), QRect(0, 0, width, 245));
            QCOMPARE(second->geometry(), QRect(0, 255, width, 345));
        }
    }

    // A word-wrapped text below a table gets its height at the full width, not its one-line minimum.
    void wrappedTextGetsItsHeightAtItsWidth()
    {
        QWidget parent;
        auto *pair = new SideBySideLayout(&parent);
        pair->setContentsMargins(0, 0, 0, 0);
        pair->setSpacing(0);
        auto *table = new QWidget(&parent);
        table->setMinimumSize(240, 100);
        auto *text = new QLabel(QString("word ").repeated(200), &parent);
        text->setWordWrap(true);
        pair->addWidget(table);
        pair->addWidget(text);
        const int width = 400;  // stacked
        QVERIFY(!pair->sideBySideAt(width));
        const int text_height = text->heightForWidth(width);
        QVERIFY(text_height > 3 * text->fontMetrics().height());
        QCOMPARE(pair->heightForWidth(width), 100 + text_height);
        pair->setGeometry(QRect(0, 0, width, pair->heightForWidth(width)));
        QCOMPARE(text->geometry(), QRect(0, 100, width, text_height));
    }

    // A table and its text at 2 : 1, side by side only when the table gets 460 px and the text 240.
    void stretchAndMinimumWidths_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<bool>("side_by_side");
        QTest::addColumn<int>("first_width");
        // The table gets ⌊(width − 10) · 2/3⌋ ≥ 460 from width 700, but the text's remaining third
        // reaches 240 px only from 728 (718 → 478 + 240; 717 → 478 + 239).
        QTest::addRow("1280-px window") << 780 << true << 513;
        QTest::addRow("just wide enough") << 728 << true << 478;
        QTest::addRow("text too narrow") << 727 << false << 0;
        QTest::addRow("1024-px window") << 508 << false << 0;
    }
    void stretchAndMinimumWidths()
    {
        QFETCH(int, width);
        QFETCH(bool, side_by_side);
        QFETCH(int, first_width);
        QWidget parent;
        auto *pair = new SideBySideLayout(&parent);
        pair->setContentsMargins(0, 0, 0, 0);
        pair->setSpacing(10);
        pair->setStretch(2, 1);
        pair->setSideBySideMinimumWidths(460, 240);
        auto *table = new QWidget(&parent);
        auto *text = new QWidget(&parent);
        table->setMinimumSize(200, 100);
        text->setMinimumSize(100, 50);
        pair->addWidget(table);
        pair->addWidget(text);
        QCOMPARE(pair->sideBySideAt(width), side_by_side);
        pair->setGeometry(QRect(0, 0, width, pair->heightForWidth(width)));
        if (side_by_side) {
            QCOMPARE(table->width(), first_width);
            QCOMPARE(text->x(), first_width + 10);
            QCOMPARE(text->width(), width - first_width - 10);
        } else {
            QCOMPARE(table->width(), width);
            QCOMPARE(text->y(), 110);
        }
    }

    // With one chart hidden the other takes the whole row.
    void oneVisibleItemTakesTheRow()
    {
        QWidget parent;
        auto *pair = new SideBySideLayout(&parent);
        pair->setContentsMargins(0, 0, 0, 0);
        auto *first = new QWidget(&parent);
        auto *second = new QWidget(&parent);
        first->setMinimumSize(240, 200);
        pair->addWidget(first);
        pair->addWidget(second);
        second->hide();
        QVERIFY(!pair->sideBySideAt(1400));
        pair->setGeometry(QRect(0, 0, 1400, 260));
        QCOMPARE(first->geometry(), QRect(0, 0, 1400, 260));
    }
};

QTEST_MAIN(TestSideBySideLayout)
#include "test_side_by_side_layout.moc"
