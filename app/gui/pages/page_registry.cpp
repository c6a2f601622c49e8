// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/page_registry.h"

#include "pages/cost/compute_page.h"
#include "pages/cost/memory_page.h"
#include "pages/cost/overview_page.h"
#include "pages/cost/time_page.h"
#include "pages/cost/validation_page.h"
#include "pages/foundations/numbers_page.h"
#include "pages/foundations/tensors_page.h"
#include "pages/hardware/hardware_page.h"
#include "pages/hardware/roofline_page.h"
#include "pages/model/architecture_page.h"
#include "pages/model/reference_run_page.h"
#include "pages/model/scaling_page.h"
#include "pages/model/tokenization_page.h"
#include "pages/parallelism/collectives_page.h"
#include "pages/parallelism/distributed_run_page.h"
#include "pages/parallelism/layout_page.h"
#include "pages/parallelism/pipeline_page.h"
#include "pages/parallelism/search_page.h"
#include "pages/parallelism/zero_page.h"

namespace lse::gui {

QList<PageGroup> createPageGroups(QWidget *parent)
{
    return {
        {PageDomain::Cost,
         {new OverviewPage(parent), new MemoryPage(parent), new ComputePage(parent), new TimePage(parent),
          new ValidationPage(parent)}},
        {PageDomain::Hardware, {new HardwarePage(parent), new RooflinePage(parent)}},
        {PageDomain::Parallelism,
         {new LayoutPage(parent), new CollectivesPage(parent), new ZeroPage(parent), new PipelinePage(parent),
          new SearchPage(parent), new DistributedRunPage(parent)}},
        {PageDomain::Model,
         {new ArchitecturePage(parent), new ScalingPage(parent), new TokenizationPage(parent), new ReferenceRunPage(parent)}},
        // The course's first lectures: number formats and tensor storage.
        {PageDomain::Foundations, {new NumbersPage(parent), new TensorsPage(parent)}},
    };
}

QList<Page *> createPages(QWidget *parent)
{
    QList<Page *> pages;
    for (const PageGroup &group : createPageGroups(parent))
        pages += group.pages;
    return pages;
}

}  // namespace lse::gui
