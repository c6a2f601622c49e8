// SPDX-License-Identifier: GPL-3.0-or-later
// The Distributed run page's lesson settings: the setup controls, never the run itself.
#include "pages/distributed/distributed_run_page.h"

#include <QCheckBox>
#include <QComboBox>
#include <QSpinBox>

namespace lse::gui {

void DistributedRunPage::bindLessonControls()
{
    // DistributedParallelism's order; the names are the JSON's layouts.
    lesson_controls_.addChoice(QStringLiteral("parallelism"), parallelism_box_,
                               {QStringLiteral("dp"), QStringLiteral("tp"), QStringLiteral("pp"), QStringLiteral("dp_tp"),
                                QStringLiteral("dp_pp")});
    lesson_controls_.addInt(QStringLiteral("ranks"), ranks_spin_);
    lesson_controls_.addChoice(QStringLiteral("mode"), mode_box_,
                               {QStringLiteral("naive"), QStringLiteral("bucketed"), QStringLiteral("zero1"), QStringLiteral("zero2"),
                                QStringLiteral("zero3")});
    lesson_controls_.addInt(QStringLiteral("bucket_mib"), bucket_spin_);
    lesson_controls_.addInt(QStringLiteral("dp"), dp_spin_);
    lesson_controls_.addInt(QStringLiteral("tp"), tp_spin_);
    lesson_controls_.addInt(QStringLiteral("pp"), pp_spin_);
    lesson_controls_.addFlag(QStringLiteral("sequence_parallel"), sp_check_);
    lesson_controls_.addChoice(QStringLiteral("schedule"), schedule_box_, {QStringLiteral("gpipe"), QStringLiteral("1f1b")});
    lesson_controls_.addInt(QStringLiteral("micro_batches"), micro_spin_);
    lesson_controls_.addInt(QStringLiteral("steps"), steps_spin_);
    lesson_controls_.addInt(QStringLiteral("global_batch"), batch_spin_);
    QStringList presets;
    for (const Preset &preset : presets_)
        presets << preset.name;
    lesson_controls_.addChoice(QStringLiteral("preset"), preset_box_, presets);
    lesson_controls_.addChoice(QStringLiteral("tokenizer"), tokenizer_box_, {QStringLiteral("bytes"), QStringLiteral("bpe")});
}

QJsonObject DistributedRunPage::lessonSettings() const { return lesson_controls_.settings(); }

bool DistributedRunPage::applyLessonSettings(const QJsonObject &settings, QString *error)
{
    if (!isReady() && !settings.isEmpty()) {
        if (error)
            *error = tr("%1: the setup cannot change while a run is going").arg(settings.keys().constFirst());
        return false;
    }
    return lesson_controls_.apply(settings, error);
}

}  // namespace lse::gui
