// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/numbers/numbers_page.h"

#include "pages/numbers/mixed_precision_section.h"
#include "pages/numbers/number_formats_section.h"
#include "pages/numbers/underflow_section.h"

namespace lse::gui {

NumbersPage::NumbersPage(QWidget *parent)
    : SectionedPage(parent)
{
    // Sections, in tab order (each adds one line here):
    addSection(new NumberFormatsSection(this));
    addSection(new MixedPrecisionSection(this));
    addSection(new UnderflowSection(this));
}

QString NumbersPage::pageId()
{
    return QStringLiteral("numbers");
}

QString NumbersPage::pageTitle()
{
    return tr("Numbers");
}

}  // namespace lse::gui
