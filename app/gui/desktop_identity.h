// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QIcon>
#include <QString>

namespace lse::gui {

// The reverse-DNS id shared by the installed .desktop file, the AppStream component and the icon
// (resources/desktop/, LSE_DESKTOP_ID in CMakeLists.txt).
QString desktopId();

// The app's icon: the icon theme's (installed to share/icons/hicolor) when there is one, otherwise
// the SVG compiled into the resources.
QIcon appIcon();

// Ties the running app to its .desktop file: the desktop file name (Wayland's app_id, which docks
// and task bars match to the entry) and the window icon. Call once after QApplication exists.
void applyDesktopIdentity();

}  // namespace lse::gui
