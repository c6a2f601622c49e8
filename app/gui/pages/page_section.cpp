// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/page_section.h"

#include "charts/chart_view.h"

namespace lse::gui {

void PageSection::setPresentation(bool presentation)
{
    for (ChartView *chart : charts())
        chart->setPresentation(presentation);
}

}  // namespace lse::gui
