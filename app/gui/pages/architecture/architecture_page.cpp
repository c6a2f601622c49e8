// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/architecture/architecture_page.h"

#include "pages/architecture/ablation_section.h"
#include "pages/architecture/atlas_section.h"
#include "pages/architecture/design_choices_section.h"
#include "pages/architecture/positional_encoding_section.h"

namespace lse::gui {

ArchitecturePage::ArchitecturePage(QWidget *parent)
    : SectionedPage(parent)
{
    // Sections, in tab order (each adds one line here):
    addSection(new AtlasSection(this));
    addSection(new DesignChoicesSection(this));
    addSection(new PositionalEncodingSection(this));
    addSection(new AblationSection(this));
}

QString ArchitecturePage::pageId()
{
    return QStringLiteral("architecture");
}

QString ArchitecturePage::pageTitle()
{
    return tr("Architecture");
}

}  // namespace lse::gui
