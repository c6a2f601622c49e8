// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/page.h"

#include "charts/chart_view.h"
#include "lessons/lesson_targets.h"

namespace lse::gui {

void Page::setPresentation(bool presentation)
{
    for (ChartView *chart : charts())
        chart->setPresentation(presentation);
}

bool Page::applyLessonSettings(const QJsonObject &settings, QString *error)
{
    if (settings.isEmpty())
        return true;
    if (error)
        *error = tr("%1: this page has no settings a lesson can set").arg(settings.keys().constFirst());
    return false;
}

QStringList Page::lessonTargets(HighlightKind kind) const
{
    return genericLessonTargets(this, kind);
}

QRect Page::lessonTargetRect(HighlightKind kind, const QString &target) const
{
    return genericLessonTargetRect(this, kind, target);
}

}  // namespace lse::gui
