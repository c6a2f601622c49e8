// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/page_registry.h"

#include "pages/cost/compute_page.h"
#include "pages/cost/memory_page.h"
#include "pages/cost/overview_page.h"
#include "pages/cost/time_page.h"
#include "pages/serving/serving_page.h"
#include "pages/validation/validation_page.h"
#include "pages/numbers/numbers_page.h"
#include "pages/tensors/tensors_page.h"
#include "pages/hardware/hardware_page.h"
#include "pages/kernels/kernels_page.h"
#include "pages/roofline/roofline_page.h"
#include "pages/traces/trace_page.h"
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

namespace {

template <typename PageType>
PageEntry entry()
{
    return {PageType::pageId(), &PageType::pageTitle, [](QWidget *parent) -> Page * { return new PageType(parent); }};
}

}  // namespace

QList<PageGroup> pageCatalog()
{
    return {
        {PageDomain::Cost,
         {entry<OverviewPage>(), entry<MemoryPage>(), entry<ComputePage>(), entry<TimePage>(), entry<ServingPage>(),
          entry<ValidationPage>()}},
        {PageDomain::Hardware, {entry<HardwarePage>(), entry<RooflinePage>(), entry<KernelsPage>(), entry<TracePage>()}},
        {PageDomain::Parallelism,
         {entry<LayoutPage>(), entry<CollectivesPage>(), entry<ZeroPage>(), entry<PipelinePage>(), entry<SearchPage>(),
          entry<DistributedRunPage>()}},
        {PageDomain::Model,
         {entry<ArchitecturePage>(), entry<ScalingPage>(), entry<TokenizationPage>(), entry<ReferenceRunPage>()}},
        // The course's first lectures: number formats and tensor storage.
        {PageDomain::Foundations, {entry<NumbersPage>(), entry<TensorsPage>()}},
    };
}

QList<Page *> createPages(QWidget *parent)
{
    QList<Page *> pages;
    for (const PageGroup &group : pageCatalog())
        for (const PageEntry &page : group.pages)
            pages += page.create(parent);
    return pages;
}

}  // namespace lse::gui
