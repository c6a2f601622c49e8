// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/model/architecture_page.h"

namespace lse::gui {

ArchitecturePage::ArchitecturePage(QWidget *parent)
    : SectionedPage(parent)
{
    // Sections, in tab order (each adds one line here):
}

QString ArchitecturePage::id() const
{
    return QStringLiteral("architecture");
}

QString ArchitecturePage::title() const
{
    return tr("Architecture");
}

}  // namespace lse::gui
