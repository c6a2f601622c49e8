// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/tensors/tensors_page.h"

#include "pages/tensors/access_order_section.h"
#include "pages/tensors/tensor_views_section.h"

namespace lse::gui {

TensorsPage::TensorsPage(QWidget *parent)
    : SectionedPage(parent)
{
    // Sections, in tab order (each adds one line here):
    addSection(new TensorViewsSection(this));
    addSection(new AccessOrderSection(this));
}

QString TensorsPage::pageId()
{
    return QStringLiteral("tensors");
}

QString TensorsPage::pageTitle()
{
    return tr("Tensors");
}

}  // namespace lse::gui
