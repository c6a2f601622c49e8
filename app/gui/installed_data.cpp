// SPDX-License-Identifier: GPL-3.0-or-later
#include "installed_data.h"

#include <QCoreApplication>
#include <QDir>

namespace lse::gui {

QString installedDataDir()
{
    // LSE_DATA_DIR_FROM_BINDIR: the install data folder relative to the install bin folder (CMake).
    return QDir::cleanPath(QCoreApplication::applicationDirPath() + QLatin1Char('/')
                           + QStringLiteral(LSE_DATA_DIR_FROM_BINDIR));
}

}  // namespace lse::gui
