// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/page.h"

#include "charts/chart_view.h"
#include "lessons/lesson_targets.h"

#include <QEvent>

#include <optional>

namespace lse::gui {

void Page::showEstimate(const Scenario &scenario, const Estimate &estimate)
{
    // Copies, not moves: a page may pass its own scenario() and estimate() back in (the layout
    // search re-running with new options).
    std::optional<Scenario> previous;
    if (has_estimate_)
        previous = scenario_;
    scenario_ = scenario;
    estimate_ = estimate;
    has_estimate_ = true;
    estimateChanged(previous ? &*previous : nullptr);
    emit estimateShown();
}

void Page::estimateChanged(const Scenario * /*previous*/) {}

void Page::setPresentation(bool presentation)
{
    presentation_ = presentation;
    for (ChartView *chart : presentationCharts()) {
        chart->setPresentation(presentation);
        if (chart_minimum_height_px_ > 0)
            chart->setMinimumHeight(presentation ? presentation_chart_minimum_height_px_ : chart_minimum_height_px_);
    }
    applyPresentation(presentation);
    emit presentationApplied(presentation);
}

void Page::setChartMinimumHeights(int normal_px, int presentation_px)
{
    chart_minimum_height_px_ = normal_px;
    presentation_chart_minimum_height_px_ = presentation_px;
}

void Page::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        emit retranslated();
    }
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
