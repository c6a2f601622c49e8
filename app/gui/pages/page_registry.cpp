// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/page_registry.h"

#include "pages/collectives_page.h"
#include "pages/compute_page.h"
#include "pages/hardware_page.h"
#include "pages/layout_page.h"
#include "pages/memory_page.h"
#include "pages/model/architecture_page.h"
#include "pages/model/scaling_page.h"
#include "pages/overview_page.h"
#include "pages/pipeline_page.h"
#include "pages/reference_run_page.h"
#include "pages/roofline_page.h"
#include "pages/search_page.h"
#include "pages/time_page.h"
#include "pages/tokenization_page.h"
#include "pages/zero_page.h"

namespace lse::gui {

QList<Page *> createPages(QWidget *parent)
{
    return {
        new OverviewPage(parent),
        new MemoryPage(parent),
        new ComputePage(parent),
        new TimePage(parent),
        new HardwarePage(parent),
        new RooflinePage(parent),
        new LayoutPage(parent),
        new CollectivesPage(parent),
        new ZeroPage(parent),
        new PipelinePage(parent),
        new SearchPage(parent),
        new ArchitecturePage(parent),
        new ScalingPage(parent),
        new TokenizationPage(parent),
        new ReferenceRunPage(parent),
    };
}

}  // namespace lse::gui
