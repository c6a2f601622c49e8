// SPDX-License-Identifier: GPL-3.0-or-later
// The running app names the installed .desktop entry and shows its icon (issue 20, "Desktop and
// ecosystem"); the installed layout itself is checked by tests/install.

#include "desktop_identity.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QSettings>
#include <QtTest>

class TestDesktopIdentity : public QObject {
    Q_OBJECT

private slots:
    void desktopFileNameIsTheInstalledEntrysId()
    {
        QVERIFY(QGuiApplication::desktopFileName().isEmpty());
        lse::gui::applyDesktopIdentity();
        QCOMPARE(QGuiApplication::desktopFileName(), lse::gui::desktopId());
        // The entry, its metadata and its icon are the files named by that id.
        const QString desktop_dir = QStringLiteral(LSE_SOURCE_DIR "/resources/desktop/");
        QVERIFY(QFile::exists(desktop_dir + lse::gui::desktopId() + QStringLiteral(".desktop")));
        QVERIFY(QFile::exists(desktop_dir + lse::gui::desktopId() + QStringLiteral(".metainfo.xml.in")));
        QVERIFY(QFile::exists(desktop_dir + lse::gui::desktopId() + QStringLiteral(".svg")));
    }

    void desktopEntryNamesTheIdAsIcon()
    {
        QSettings entry(QStringLiteral(LSE_SOURCE_DIR "/resources/desktop/") + lse::gui::desktopId()
                            + QStringLiteral(".desktop"),
                        QSettings::IniFormat);
        entry.beginGroup(QStringLiteral("Desktop Entry"));
        QCOMPARE(entry.value(QStringLiteral("Icon")).toString(), lse::gui::desktopId());
        QCOMPARE(entry.value(QStringLiteral("Exec")).toString(), QStringLiteral("llm-explorer"));
    }

    void windowIconIsTheAppIcon()
    {
        lse::gui::applyDesktopIdentity();
        const QIcon icon = QGuiApplication::windowIcon();
        QVERIFY(!icon.isNull());
        const QImage image = icon.pixmap(QSize(48, 48)).toImage();
        QVERIFY(!image.isNull());
        // Drawn, not an empty placeholder: the centre of the icon is opaque.
        QCOMPARE(qAlpha(image.pixel(image.width() / 2, image.height() / 2)), 255);
    }

};

QTEST_MAIN(TestDesktopIdentity)
#include "test_desktop_identity.moc"
