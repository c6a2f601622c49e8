// SPDX-License-Identifier: GPL-3.0-or-later
// The app's --screenshot over every page (and every tab of a page made of tabs) it lists, in English
// and in Chinese presentation mode. A test of its own: one process per screenshot is the slowest part
// of the GUI tests under the sanitizers, and it has its own time budget here.

#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class TestScreenshots : public QObject {
    Q_OBJECT
private slots:
    // --screenshot renders every page the app lists, in both languages and in presentation mode.
    void screenshotEveryPage_data()
    {
        QTest::addColumn<QString>("page");
        QTest::addColumn<QString>("lang");
        QTest::addColumn<bool>("presentation");
        QProcess list;
        list.start(QStringLiteral(LSE_GUI_PATH), {"--list-pages"});
        QVERIFY(list.waitForFinished(60000));
        const QStringList pages = QString::fromUtf8(list.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
        QVERIFY(pages.size() >= 4);
        for (const QString &page : pages) {
            QTest::addRow("%s en", qPrintable(page)) << page << "en" << false;
            QTest::addRow("%s zh_CN presentation", qPrintable(page)) << page << "zh_CN" << true;
        }
    }
    void screenshotEveryPage()
    {
        QFETCH(QString, page);
        QFETCH(QString, lang);
        QFETCH(bool, presentation);
        QTemporaryDir dir;
        const QString png = dir.filePath(QString(page).replace('/', '-') + ".png");
        QStringList arguments{"--page", page, "--lang", lang, "--screenshot", png, "--size", "1024x700"};
        if (presentation)
            arguments << "--presentation";
        QProcess app;
        app.start(QStringLiteral(LSE_GUI_PATH), arguments);
        QVERIFY(app.waitForFinished(120000));
        QVERIFY2(app.exitCode() == 0, app.readAllStandardError().constData());
        const QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QSize(1024, 700));
    }
};

QTEST_MAIN(TestScreenshots)
#include "test_screenshots.moc"
