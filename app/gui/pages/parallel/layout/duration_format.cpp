// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/parallel/layout/duration_format.h"

#include "pages/page_format.h"

#include <QCoreApplication>

#include <cmath>

namespace lse::gui::format {

QString duration(double seconds)
{
    if (!std::isfinite(seconds))
        return QStringLiteral("–");
    const double magnitude = std::fabs(seconds);
    const auto scaled = [](double value, const char *unit) {
        const int decimals = value >= 100 ? 0 : value >= 10 ? 1 : 2;
        return QStringLiteral("%1 %2").arg(decimal(value, decimals), QCoreApplication::translate("lse::gui::format", unit));
    };
    if (magnitude == 0)
        return scaled(0, "s");
    if (magnitude < 1e-3)
        return scaled(seconds * 1e6, "µs");
    if (magnitude < 1)
        return scaled(seconds * 1e3, "ms");
    return scaled(seconds, "s");
}

}  // namespace lse::gui::format
