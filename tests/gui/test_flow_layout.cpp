// SPDX-License-Identifier: GPL-3.0-or-later
// FlowLayout (app/gui/pages/flow_layout.h): items at their preferred sizes, left to right, wrapped
// to the width; groups added with addLayout/addLabelled stay on one line; hidden items take no room.

#include "pages/flow_layout.h"

#include <QLabel>
#include <QTest>
#include <QWidget>

using namespace lse::gui;

namespace {

QWidget *box(QWidget *parent, int width, int height)
{
    auto *widget = new QWidget(parent);
    widget->setFixedSize(width, height);
    return widget;
}

}  // namespace

class TestFlowLayout : public QObject {
    Q_OBJECT

private slots:
    // Three 100-px items with 10-px spacing: one line from 320 px, two lines below it, three
    // below 210 px; the minimum width is the widest item.
    void wrapsToTheWidth_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("lines");
        QTest::addRow("one line") << 320 << 1;
        QTest::addRow("two lines, just") << 319 << 2;
        QTest::addRow("two lines") << 210 << 2;
        QTest::addRow("three lines") << 209 << 3;
        QTest::addRow("narrower than an item") << 50 << 3;
    }
    void wrapsToTheWidth()
    {
        QFETCH(int, width);
        QFETCH(int, lines);
        QWidget parent;
        auto *flow = new FlowLayout(&parent, 10, 5);
        flow->setContentsMargins(0, 0, 0, 0);
        QList<QWidget *> items;
        for (int i = 0; i < 3; ++i) {
            items << box(&parent, 100, 20);
            flow->addWidget(items.back());
        }
        QCOMPARE(flow->minimumSize().width(), 100);
        QCOMPARE(flow->sizeHint(), QSize(320, 20));
        QVERIFY(flow->hasHeightForWidth());
        QCOMPARE(flow->heightForWidth(width), lines * 20 + (lines - 1) * 5);

        flow->setGeometry(QRect(0, 0, width, flow->heightForWidth(width)));
        QCOMPARE(items[0]->pos(), QPoint(0, 0));
        if (lines == 1) {
            QCOMPARE(items[1]->pos(), QPoint(110, 0));
            QCOMPARE(items[2]->pos(), QPoint(220, 0));
        } else if (lines == 2) {
            QCOMPARE(items[1]->pos(), QPoint(110, 0));
            QCOMPARE(items[2]->pos(), QPoint(0, 25));
        } else {
            QCOMPARE(items[1]->pos(), QPoint(0, 25));
            QCOMPARE(items[2]->pos(), QPoint(0, 50));
        }
    }

    // A label and its field move to the next line together, and the shorter of the two is
    // centred on the line.
    void labelledPairStaysTogether()
    {
        QWidget parent;
        auto *flow = new FlowLayout(&parent, 10, 5);
        flow->setContentsMargins(0, 0, 0, 0);
        QWidget *first = box(&parent, 150, 30);
        flow->addWidget(first);
        QWidget *label = box(&parent, 40, 10);
        QWidget *field = box(&parent, 80, 30);
        flow->addLabelled(label, field);
        // 150 + 10 + the pair (40 + spacing + 80) does not fit 250 px: the pair wraps whole.
        flow->setGeometry(QRect(0, 0, 250, flow->heightForWidth(250)));
        QCOMPARE(first->pos(), QPoint(0, 0));
        QCOMPARE(label->y(), 35 + 10);  // centred on the 30-px line below
        QCOMPARE(field->y(), 35);
        QCOMPARE(label->x(), 0);
        QVERIFY(field->x() > label->x() + label->width() - 1);
    }

    // A hidden item takes neither room nor spacing.
    void hiddenItemsTakeNoRoom()
    {
        QWidget parent;
        auto *flow = new FlowLayout(&parent, 10, 5);
        flow->setContentsMargins(0, 0, 0, 0);
        QWidget *a = box(&parent, 100, 20);
        QWidget *hidden = box(&parent, 100, 20);
        QWidget *c = box(&parent, 100, 20);
        flow->addWidget(a);
        flow->addWidget(hidden);
        flow->addWidget(c);
        hidden->hide();
        QCOMPARE(flow->sizeHint(), QSize(210, 20));
        QCOMPARE(flow->heightForWidth(210), 20);
        flow->setGeometry(QRect(0, 0, 210, 20));
        QCOMPARE(c->pos(), QPoint(110, 0));
    }

    // In a window, a word-wrapped label above the row and the row itself share the width: the
    // window's minimum width is the widest item, not the row's length.
    void windowMinimumIsTheWidestItem()
    {
        QWidget window;
        auto *flow = new FlowLayout(&window, 10, 5);
        flow->setContentsMargins(0, 0, 0, 0);
        for (int i = 0; i < 6; ++i)
            flow->addWidget(box(&window, 90, 20));
        QCOMPARE(window.minimumSizeHint().width(), 90);
        QCOMPARE(window.sizeHint().width(), 6 * 90 + 5 * 10);
    }
};

QTEST_MAIN(TestFlowLayout)
#include "test_flow_layout.moc"
