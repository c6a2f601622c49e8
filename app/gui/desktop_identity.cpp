// SPDX-License-Identifier: GPL-3.0-or-later
#include "desktop_identity.h"

#include <QGuiApplication>

namespace lse::gui {

QString desktopId()
{
    return QStringLiteral(LSE_DESKTOP_ID);
}

QIcon appIcon()
{
    return QIcon::fromTheme(desktopId(), QIcon(QStringLiteral(":/icons/%1.svg").arg(desktopId())));
}

void applyDesktopIdentity()
{
    QGuiApplication::setDesktopFileName(desktopId());
    QGuiApplication::setWindowIcon(appIcon());
}

}  // namespace lse::gui
