// SPDX-License-Identifier: GPL-3.0-or-later
// The Roofline page's labels (roofline_page_parts.h).
#include "pages/roofline/roofline_page_parts.h"

#include "pages/page_format.h"
#include "pages/roofline/roofline_page.h"

namespace lse::gui::roofline_parts {

QString passName(OpPass pass)
{
    switch (pass) {
    case OpPass::Forward:
        return RooflinePage::tr("forward");
    case OpPass::Backward:
        return RooflinePage::tr("backward");
    case OpPass::Recompute:
        return RooflinePage::tr("recompute");
    case OpPass::Optimizer:
        return RooflinePage::tr("optimizer");
    }
    return {};
}

QString boundName(Bound bound)
{
    return bound == Bound::Compute ? RooflinePage::tr("compute-bound") : RooflinePage::tr("memory-bound");
}

QString intensityText(double intensity) { return format::si(intensity, RooflinePage::tr("FLOP/B")); }

QString shortName(const std::string &name)
{
    QString text = QString::fromStdString(name);
    for (const char *prefix : {"NVIDIA ", "AMD Instinct ", "AMD ", "Google Cloud "})
        if (text.startsWith(QLatin1String(prefix)))
            return text.mid(int(qstrlen(prefix)));
    return text;
}

}  // namespace lse::gui::roofline_parts
