// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 28, item 17: presentation mode switched off and on (F11) and the window resized while shown
// (a projector's 1024x768): what the screen shows is what the pages draw now (no stale paint of the
// page shown before), and every chart's formula panel is as high as its text at the new width.
#include "charts/chart_view.h"
#include "main_window.h"
#include "pages/page.h"

#include <QLabel>
#include <QScreen>
#include <QTest>
#include <QWindow>

using namespace lse;
using namespace lse::gui;

namespace {

void settle()
{
    for (int pass = 0; pass < 6; ++pass) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::processEvents();
    }
}

// What the window's backing store holds (the offscreen platform's screen) against what the window
// draws afresh: the share of pixels that differ.
double staleShare(MainWindow &window)
{
    const QImage on_screen = window.screen()->grabWindow(window.winId()).toImage().convertToFormat(QImage::Format_RGB32);
    const QImage drawn = window.grab().toImage().convertToFormat(QImage::Format_RGB32);
    if (on_screen.size() != drawn.size())
        return 1.0;
    qint64 differing = 0;
    for (int y = 0; y < drawn.height(); ++y) {
        const auto *a = reinterpret_cast<const QRgb *>(on_screen.constScanLine(y));
        const auto *b = reinterpret_cast<const QRgb *>(drawn.constScanLine(y));
        for (int x = 0; x < drawn.width(); ++x)
            differing += a[x] != b[x] ? 1 : 0;
    }
    return double(differing) / double(drawn.width() * drawn.height());
}

// Formula panels lower than their text at their width, on the page shown now.
QStringList cutFormulas(const Page *page)
{
    QStringList cut;
    for (const QLabel *label : page->findChildren<QLabel *>(QStringLiteral("chartFormula")))
        if (label->isVisible() && label->height() < label->heightForWidth(label->width()))
            cut << QStringLiteral("%1: %2 px for %3 px").arg(page->id()).arg(label->height()).arg(label->heightForWidth(label->width()));
    return cut;
}

}  // namespace

class TestLiveResize : public QObject {
    Q_OBJECT
private slots:
    void presentationToggledThenResized_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::newRow("time -> validation") << QStringLiteral("time") << QStringLiteral("validation");
        QTest::newRow("tokenization -> reference run") << QStringLiteral("tokenization") << QStringLiteral("reference_run");
        QTest::newRow("compute") << QStringLiteral("compute") << QStringLiteral("memory");
    }

    void presentationToggledThenResized()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        MainWindow window(false);
        window.resize(1920, 1080);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.selectPage(from));
        settle();
        // F11 on, off and on again; a window manager makes the window full screen and back (the
        // offscreen platform has none: the test resizes it as one would).
        const QSize screen = window.screen()->size();
        window.setPresentation(true);
        window.resize(screen);
        settle();
        window.setPresentation(false);
        window.resize(1920, 1080);
        settle();
        window.setPresentation(true);
        window.resize(screen);
        settle();
        window.resize(1024, 768);  // the window resized while shown
        settle();
        QVERIFY(window.selectPage(to));
        // Background work the page starts when shown (Validation's held-out errors) repaints it when
        // it ends: wait for it, so what is compared is the resize, not a result arriving mid-check.
        QTRY_VERIFY_WITH_TIMEOUT(window.currentPage()->isReady(), 120000);
        settle();
        QVERIFY2(cutFormulas(window.currentPage()).isEmpty(), qPrintable(cutFormulas(window.currentPage()).join(QLatin1Char('\n'))));
        const double stale = staleShare(window);
        QVERIFY2(stale < 0.01, qPrintable(QStringLiteral("%1 % of the window shows what it no longer draws").arg(stale * 100, 0, 'f', 1)));
        window.setPresentation(false);
        settle();
        window.resize(1280, 800);
        settle();
        QVERIFY2(cutFormulas(window.currentPage()).isEmpty(), qPrintable(cutFormulas(window.currentPage()).join(QLatin1Char('\n'))));
        QVERIFY(window.selectPage(from));
        settle();
        QVERIFY2(cutFormulas(window.currentPage()).isEmpty(), qPrintable(cutFormulas(window.currentPage()).join(QLatin1Char('\n'))));
        QVERIFY2(staleShare(window) < 0.01, qPrintable(QString::number(staleShare(window))));
    }
};

QTEST_MAIN(TestLiveResize)
#include "test_live_resize.moc"
