// SPDX-License-Identifier: GPL-3.0-or-later
// The ZeRO page's lesson settings and animation (Page's lesson interface).
#include "pages/parallel/zero_page.h"

#include "charts/chart_view.h"
#include "pages/lesson_settings_reader.h"
#include "pages/parallel/step_player.h"

#include <QComboBox>
#include <QSpinBox>

namespace lse::gui {

// The player's step is the stage, so "step" is the same setting as "stage"; lessonSettings()
// reports "stage" only.
QJsonObject ZeroPage::lessonSettings() const
{
    return {{QStringLiteral("stage"), stage()}, {QStringLiteral("dp"), dp()}};
}

bool ZeroPage::applyLessonSettings(const QJsonObject &settings, QString *error)
{
    LessonSettingsReader reader(settings);
    reader.acceptAnimate();
    const int last_stage = stage_box_->count() - 1;
    const auto stage = reader.integer(QStringLiteral("stage"), 0, last_stage);
    const auto step = reader.integer(QStringLiteral("step"), 0, last_stage);
    const auto dp = reader.integer(QStringLiteral("dp"), dp_spin_->minimum(), dp_spin_->maximum());
    if (stage && step && *stage != *step)
        reader.fail(QStringLiteral("step"), tr("is the ZeRO stage here and must equal stage (%1), got %2")
                                                .arg(*stage)
                                                .arg(*step));
    if (!reader.finish(error))
        return false;
    if (dp)
        dp_spin_->setValue(*dp);
    if (const auto shown = stage ? stage : step)
        setStage(*shown);
    return true;
}

bool ZeroPage::advanceLessonAnimation() { return player_->advance(); }

// Each rank's share of the states, stage by stage.
QList<QWidget *> ZeroPage::lessonAnimationWidgets() const { return {shard_chart_}; }

bool ZeroPage::restartLessonAnimation()
{
    player_->restart();
    return true;
}

}  // namespace lse::gui
