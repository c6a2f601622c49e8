// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/page_section.h"

#include "charts/chart_view.h"

#include <QEvent>

namespace lse::gui {

void PageSection::setPresentation(bool presentation)
{
    for (ChartView *chart : charts())
        chart->setPresentation(presentation);
}

void PageSection::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
}

bool PageSection::applyLessonSettings(const QJsonObject &settings, QString *error)
{
    if (settings.isEmpty())
        return true;
    if (error)
        *error = tr("%1: this page has no settings a lesson can set").arg(settings.keys().constFirst());
    return false;
}

}  // namespace lse::gui
