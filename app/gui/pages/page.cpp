// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/page.h"

#include "charts/chart_view.h"

namespace lse::gui {

void Page::setPresentation(bool presentation)
{
    for (ChartView *chart : charts())
        chart->setPresentation(presentation);
}

}  // namespace lse::gui
