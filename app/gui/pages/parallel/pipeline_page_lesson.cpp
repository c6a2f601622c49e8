// SPDX-License-Identifier: GPL-3.0-or-later
// The Pipeline page's lesson settings and animation (Page's lesson interface).
#include "pages/parallel/pipeline_page.h"

#include "charts/chart_view.h"
#include "pages/lesson_settings_reader.h"
#include "pages/parallel/step_player.h"

#include <QComboBox>
#include <QSpinBox>

namespace lse::gui {

namespace {

using parallel::PipelineScheduleKind;

// Lesson identifiers of the schedules (core's toString says "zb" for ZB-H1; lessons name the
// variant the page draws).
QString scheduleKey(PipelineScheduleKind schedule)
{
    switch (schedule) {
    case PipelineScheduleKind::GPipe: return QStringLiteral("gpipe");
    case PipelineScheduleKind::OneFOneB: return QStringLiteral("1f1b");
    case PipelineScheduleKind::Interleaved: return QStringLiteral("interleaved");
    case PipelineScheduleKind::ZeroBubble: return QStringLiteral("zb_h1");
    }
    return {};
}

}  // namespace

QJsonObject PipelinePage::lessonSettings() const
{
    return {
        {QStringLiteral("schedule"), scheduleKey(PipelineScheduleKind(schedule_box_->currentData().toInt()))},
        {QStringLiteral("stages"), stages_spin_->value()},
        {QStringLiteral("microbatches"), micro_spin_->value()},
        {QStringLiteral("chunks"), chunks_spin_->value()},
        {QStringLiteral("step"), player_->currentStep()},
    };
}

bool PipelinePage::applyLessonSettings(const QJsonObject &settings, QString *error)
{
    QStringList schedules;
    for (int i = 0; i < schedule_box_->count(); ++i)
        schedules << scheduleKey(PipelineScheduleKind(schedule_box_->itemData(i).toInt()));

    LessonSettingsReader reader(settings);
    reader.acceptAnimate();
    const auto schedule = reader.choice(QStringLiteral("schedule"), schedules);
    const auto stages = reader.integer(QStringLiteral("stages"), stages_spin_->minimum(), stages_spin_->maximum());
    const auto micro = reader.integer(QStringLiteral("microbatches"), micro_spin_->minimum(), micro_spin_->maximum());
    const auto chunks = reader.integer(QStringLiteral("chunks"), chunks_spin_->minimum(), chunks_spin_->maximum());
    const auto step = reader.integer(QStringLiteral("step"), 0, 1 << 20);
    if (!reader.finish(error))
        return false;

    // The number of steps follows from the schedule, so "step" is checked against the timeline
    // the other settings produce; a step past its end puts the previous settings back.
    const QJsonObject before = lessonSettings();
    if (schedule)
        schedule_box_->setCurrentIndex(int(schedules.indexOf(*schedule)));
    if (stages)
        stages_spin_->setValue(*stages);
    if (micro)
        micro_spin_->setValue(*micro);
    if (chunks)
        chunks_spin_->setValue(*chunks);
    if (!step)
        return true;
    if (*step > player_->stepCount()) {
        const int last = player_->stepCount();
        applyLessonSettings(before, nullptr);
        if (error)
            *error = QStringLiteral("step: ") + tr("expected an integer in 0..%1 for this schedule, got %2").arg(last).arg(*step);
        return false;
    }
    player_->setCurrentStep(*step);
    return true;
}

bool PipelinePage::advanceLessonAnimation() { return player_->advance(); }

// The timeline filling in.
QList<QWidget *> PipelinePage::lessonAnimationWidgets() const { return {gantt_chart_}; }

bool PipelinePage::restartLessonAnimation()
{
    player_->restart();
    return true;
}

}  // namespace lse::gui
