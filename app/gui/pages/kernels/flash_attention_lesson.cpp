// SPDX-License-Identifier: GPL-3.0-or-later
// The FlashAttention tab's lesson settings and animation (PageSection's lesson interface; keys in
// docs/lesson-pages.md, "kernels/flash-attention"). Every key is read and checked before anything
// changes; "step" is checked against the steps the other settings produce.
#include "pages/kernels/flash_attention_section.h"

#include "pages/kernels/flash_attention_animation.h"
#include "pages/kernels/flash_attention_counters.h"
#include "pages/lesson_settings_reader.h"
#include "pages/parallel/step_player.h"

#include <QCheckBox>
#include <QComboBox>
#include <QSpinBox>

namespace lse::gui {

namespace {

using kernels::AttentionAlgorithm;

// Lesson identifiers of the algorithms: core's spelling (toString), as the CLI's --steps takes them.
const QStringList kAlgorithms = {QStringLiteral("standard"), QStringLiteral("flash"), QStringLiteral("flash2")};
const AttentionAlgorithm kAlgorithmValues[] = {AttentionAlgorithm::Standard, AttentionAlgorithm::Flash,
                                               AttentionAlgorithm::Flash2};

QString algorithmKey(AttentionAlgorithm algorithm) { return QString::fromLatin1(kernels::toString(algorithm)); }

}  // namespace

QJsonObject FlashAttentionSection::lessonSettings() const
{
    return {
        {QStringLiteral("sequence_length"), n_spin_->value()},
        {QStringLiteral("head_dim"), d_spin_->value()},
        {QStringLiteral("sram_bytes"), m_spin_->value()},
        {QStringLiteral("element_bytes"), element_box_->currentData().toInt()},
        {QStringLiteral("causal"), causal_check_->isChecked()},
        {QStringLiteral("algorithm"), algorithmKey(algorithm())},
        {QStringLiteral("step"), player_->currentStep()},
    };
}

bool FlashAttentionSection::applyLessonSettings(const QJsonObject &settings, QString *error)
{
    LessonSettingsReader reader(settings);
    reader.acceptAnimate();
    const auto n = reader.integer(QStringLiteral("sequence_length"), n_spin_->minimum(), n_spin_->maximum());
    const auto d = reader.integer(QStringLiteral("head_dim"), d_spin_->minimum(), d_spin_->maximum());
    const auto m = reader.integer(QStringLiteral("sram_bytes"), m_spin_->minimum(), m_spin_->maximum());
    const auto element = reader.integer(QStringLiteral("element_bytes"), 1, 4);
    if (element && element_box_->findData(*element) < 0)
        reader.fail(QStringLiteral("element_bytes"), tr("expected 1 (fp8), 2 (fp16/bf16) or 4 (fp32)"));
    const auto causal = reader.boolean(QStringLiteral("causal"));
    const auto algorithm_key = reader.choice(QStringLiteral("algorithm"), kAlgorithms);
    const auto step = reader.integer(QStringLiteral("step"), 0, int(kernels::kMaxAttentionSteps));
    if (!reader.finish(error))
        return false;

    // The inputs' own rules (M must hold a row each of Q, K, V, O) and the steps they produce are
    // known only once they are set: a refused combination puts the previous settings back.
    const QJsonObject before = lessonSettings();
    if (n)
        n_spin_->setValue(*n);
    if (d)
        d_spin_->setValue(*d);
    if (m)
        m_spin_->setValue(*m);
    if (element)
        setElementBytes(*element);
    if (causal)
        causal_check_->setChecked(*causal);
    if (algorithm_key)
        setAlgorithm(kAlgorithmValues[kAlgorithms.indexOf(*algorithm_key)]);
    QString problem;
    QString key;
    if (!problems_.empty()) {
        const std::string &field = problems_.front().field;
        key = field == "sequence_length" || field == "head_dim" || field == "sram_bytes" || field == "element_bytes"
            ? QString::fromStdString(field)
            : QStringLiteral("sram_bytes");
        problem = problemText();
    } else if (step && *step > player_->stepCount()) {
        key = QStringLiteral("step");
        problem = steps_ ? tr("expected an integer in 0..%1 for these inputs, got %2").arg(player_->stepCount()).arg(*step)
                         : tr("these inputs have no animation (%1)").arg(animation_note_);
    }
    if (!problem.isEmpty()) {
        applyLessonSettings(before, nullptr);
        if (error)
            *error = key + QStringLiteral(": ") + problem;
        return false;
    }
    if (step)
        player_->setCurrentStep(*step);
    return true;
}

bool FlashAttentionSection::advanceLessonAnimation() { return player_->advance(); }

bool FlashAttentionSection::restartLessonAnimation()
{
    player_->restart();
    return true;
}

// The tiles moving and the counters adding up.
// The painted animation only: it carries each step's bytes read and written; the counters table
// below it does not fit beside it on a 1024×768 projector in presentation mode.
QList<QWidget *> FlashAttentionSection::lessonAnimationWidgets() const { return {animation_}; }

}  // namespace lse::gui
