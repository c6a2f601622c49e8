// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/page_registry.h"

#include "pages/cost/compute_page.h"
#include "pages/cost/memory_page.h"
#include "pages/cost/overview_page.h"
#include "pages/cost/time_page.h"
#include "pages/validation/validation_page.h"
#include "pages/numbers/numbers_page.h"
#include "pages/tensors/tensors_page.h"
#include "pages/hardware/hardware_page.h"
#include "pages/roofline/roofline_page.h"
#include "pages/architecture/architecture_page.h"
#include "pages/reference/reference_run_page.h"
#include "pages/scaling/scaling_page.h"
#include "pages/tokenizer/tokenization_page.h"
#include "pages/parallel/collectives_page.h"
#include "pages/distributed/distributed_run_page.h"
#include "pages/parallel/layout_page.h"
#include "pages/parallel/pipeline_page.h"
#include "pages/parallel/search_page.h"
#include "pages/parallel/zero_page.h"

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
