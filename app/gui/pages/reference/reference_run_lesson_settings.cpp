// SPDX-License-Identifier: GPL-3.0-or-later
// The Reference run page's lesson settings and highlight regions (Page's lesson interface); the
// page does not animate, and a lesson never starts a run.
#include "pages/reference/reference_run_page.h"

#include "pages/lesson_settings_reader.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>

namespace lse::gui {

namespace {

constexpr int kMaxPromptCharacters = 1000;

}  // namespace

void ReferenceRunPage::nameLessonRegions()
{
    // Highlight regions and table of lessons (docs/lesson-pages-parallelism.md).
    setup_box_->setObjectName(QStringLiteral("run-setup"));
    preset_box_->setObjectName(QStringLiteral("model-preset"));
    shape_label_->setObjectName(QStringLiteral("model-shape"));
    progress_->setObjectName(QStringLiteral("run-progress"));
    trace_button_->setObjectName(QStringLiteral("save-trace"));
    status_label_->setObjectName(QStringLiteral("run-status"));
    peak_label_->setObjectName(QStringLiteral("machine-peak"));
    stats_label_->setObjectName(QStringLiteral("run-stats"));
    table_->setObjectName(QStringLiteral("predicted-vs-measured"));
    gen_box_->setObjectName(QStringLiteral("generation"));
    output_edit_->setObjectName(QStringLiteral("generated-text"));
}

// A training text's lesson identifier: a bundled sample by its base name
// ("tiny_stories_generated"), the built-in fallback as "builtin", a file the user added by its path.
QString ReferenceRunPage::lessonTextId(int index) const
{
    const QString path = text_box_->itemData(index).toString();
    if (path.isEmpty())
        return QStringLiteral("builtin");
    if (path.startsWith(QStringLiteral(":/")))
        return QFileInfo(path).completeBaseName();
    return path;
}

QJsonObject ReferenceRunPage::lessonSettings() const
{
    return {
        {QStringLiteral("preset"), preset_box_->currentText()},
        {QStringLiteral("text"), lessonTextId(text_box_->currentIndex())},
        {QStringLiteral("vocab_size"), vocab_spin_->value()},
        {QStringLiteral("steps"), steps_spin_->value()},
        {QStringLiteral("prompt"), prompt_edit_->text()},
        {QStringLiteral("max_tokens"), max_tokens_spin_->value()},
        {QStringLiteral("temperature"), temperature_spin_->value()},
        {QStringLiteral("top_k"), top_k_spin_->value()},
    };
}

bool ReferenceRunPage::applyLessonSettings(const QJsonObject &settings, QString *error)
{
    QStringList texts;
    for (int i = 0; i < text_box_->count(); ++i)
        texts << lessonTextId(i);

    LessonSettingsReader reader(settings);
    reader.acceptAnimate();
    const auto preset = reader.choice(QStringLiteral("preset"), presetNames());
    const auto text = reader.choice(QStringLiteral("text"), texts);
    const auto vocab = reader.integer(QStringLiteral("vocab_size"), vocab_spin_->minimum(), vocab_spin_->maximum());
    const auto steps = reader.integer(QStringLiteral("steps"), steps_spin_->minimum(), steps_spin_->maximum());
    const auto prompt = reader.text(QStringLiteral("prompt"), kMaxPromptCharacters);
    const auto max_tokens =
        reader.integer(QStringLiteral("max_tokens"), max_tokens_spin_->minimum(), max_tokens_spin_->maximum());
    const auto temperature =
        reader.number(QStringLiteral("temperature"), temperature_spin_->minimum(), temperature_spin_->maximum());
    const auto top_k = reader.integer(QStringLiteral("top_k"), top_k_spin_->minimum(), top_k_spin_->maximum());
    // The setup controls are disabled during a run; a lesson cannot change them either.
    const bool running = state_ == State::Preparing || state_ == State::Training || state_ == State::Paused;
    for (const char *key : {"preset", "text", "vocab_size", "steps"})
        if (running && reader.has(QLatin1String(key)))
            reader.fail(QLatin1String(key), tr("cannot change while a run is in progress (stop it first)"));
    if (!reader.finish(error))
        return false;

    // As a user would: the preset first (it resets steps and vocabulary), then the rest.
    if (preset && *preset != preset_box_->currentText())
        preset_box_->setCurrentIndex(int(presetNames().indexOf(*preset)));
    if (text)
        text_box_->setCurrentIndex(int(texts.indexOf(*text)));
    if (vocab)
        vocab_spin_->setValue(*vocab);
    if (steps)
        steps_spin_->setValue(*steps);
    if (prompt)
        prompt_edit_->setText(*prompt);
    if (max_tokens)
        max_tokens_spin_->setValue(*max_tokens);
    if (temperature)
        temperature_spin_->setValue(*temperature);
    if (top_k)
        top_k_spin_->setValue(*top_k);
    return true;
}

}  // namespace lse::gui
