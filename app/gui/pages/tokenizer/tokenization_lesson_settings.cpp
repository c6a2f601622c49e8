// SPDX-License-Identifier: GPL-3.0-or-later
// The Tokenization page's lesson settings, highlight regions and merge-replay animation (Page's
// lesson interface).
#include "pages/tokenizer/tokenization_page.h"

#include "pages/tokenizer/token_span_view.h"
#include "pages/tokenizer/tokenizer_picker_keys.h"
#include "pages/lesson_settings_reader.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSlider>
#include <QSpinBox>
#include <QTableWidget>

#include <utility>

namespace lse::gui {

namespace {

// Lesson identifiers of the built-in tokenizers and their picker keys. A loaded file or Hugging
// Face snapshot is named by its picker key (machine-specific; lessons should not rely on one).
const std::pair<QString, QString> kLessonTokenizers[] = {
    {QStringLiteral("gpt2"), tokenizer_keys::kCourse},
    {QStringLiteral("bytes"), tokenizer_keys::kBytes},
    {QStringLiteral("characters"), tokenizer_keys::kCharacters},
    {QStringLiteral("words"), tokenizer_keys::kWords},
    {QStringLiteral("trained"), tokenizer_keys::kTrained},
};

QString lessonIdOfKey(const QString &key)
{
    for (const auto &[id, picker_key] : kLessonTokenizers)
        if (picker_key == key)
            return id;
    return key;
}

QString keyOfLessonId(const QString &id)
{
    for (const auto &[lesson_id, picker_key] : kLessonTokenizers)
        if (lesson_id == id)
            return picker_key;
    return id;
}

constexpr int kMaxLessonTextCharacters = 200000;  // a lesson's text is a paragraph, not a corpus
constexpr int kMaxLessonReplayStep = 1 << 20;      // beyond any vocabulary the spin box allows
constexpr int kMaxSpecialTokenCharacters = 100;

}  // namespace

void TokenizationPage::nameLessonRegions()
{
    // Highlight regions of lessons (docs/lesson-pages-parallelism.md).
    text_edit_->setObjectName(QStringLiteral("tokenizer-text"));
    picker_a_->setObjectName(QStringLiteral("tokenizer-a"));
    picker_b_->setObjectName(QStringLiteral("tokenizer-b"));
    span_view_->setObjectName(QStringLiteral("token-view"));
    span_view_b_->setObjectName(QStringLiteral("token-view-b"));
    stats_table_->setObjectName(QStringLiteral("token-stats"));
    attention_label_->setObjectName(QStringLiteral("attention-cost"));
    train_box_->setObjectName(QStringLiteral("bpe-training"));
    replay_label_->setObjectName(QStringLiteral("merge-replay-text"));
    replay_slider_->setObjectName(QStringLiteral("merge-replay"));
    replay_view_->setObjectName(QStringLiteral("merge-replay-view"));
    merge_list_->setObjectName(QStringLiteral("merges-table"));
}

// The tokenizers side 0 or 1 can show at once: enabled picker entries that need no loading (the
// bundled GPT-2 files only when they could be copied, "trained" only after a training).
QStringList TokenizationPage::lessonTokenizerIds(int side) const
{
    QStringList ids;
    const QComboBox *box = side == 0 ? picker_a_ : picker_b_;
    for (int i = 0; i < box->count(); ++i) {
        const QString key = box->itemData(i).toString();
        const Source *source = sourceOf(key);
        // GPT-2 counts although it loads lazily: selectKey() loads it when a step asks for it.
        const bool unloaded = source && !source->slot && source->origin != Source::Origin::Course;
        if (!(box->model()->flags(box->model()->index(i, 0)) & Qt::ItemIsEnabled) || unloaded)
            continue;
        ids << lessonIdOfKey(key);
    }
    return ids;
}

QJsonObject TokenizationPage::lessonSettings() const
{
    QJsonObject settings = {
        {QStringLiteral("text"), text()},
        {QStringLiteral("tokenizer"), lessonIdOfKey(selected_[0])},
        {QStringLiteral("compare"), compare_},
        {QStringLiteral("compare_with"), lessonIdOfKey(selected_[1])},
        {QStringLiteral("show_whitespace"), show_whitespace_->isChecked()},
        {QStringLiteral("vocab_size"), vocab_spin_->value()},
        {QStringLiteral("special_token"), special_edit_->text()},
    };
    // Whether a tokenizer trained on these inputs is shown: a step recorded after a training trains
    // when it is shown, and a step before the training forgets it.
    settings.insert(QStringLiteral("train"), trainedOnTheseInputs());
    if (trained_)
        settings.insert(QStringLiteral("step"), replay_slider_->value());
    return settings;
}

bool TokenizationPage::applyLessonSettings(const QJsonObject &settings, QString *error)
{
    QStringList ids_a = lessonTokenizerIds(0);
    QStringList ids_b = lessonTokenizerIds(1);
    // A step that trains may show the tokenizer it trains.
    const bool trains = settings.value(QStringLiteral("train")).toBool(false);
    const QString trained_id = lessonIdOfKey(tokenizer_keys::kTrained);
    for (QStringList *ids : {&ids_a, &ids_b})
        if (trains && !ids->contains(trained_id))
            ids->append(trained_id);
    LessonSettingsReader reader(settings);
    reader.acceptAnimate();
    const auto text = reader.text(QStringLiteral("text"), kMaxLessonTextCharacters);
    const auto tokenizer = reader.choice(QStringLiteral("tokenizer"), ids_a);
    const auto compare = reader.boolean(QStringLiteral("compare"));
    const auto compare_with = reader.choice(QStringLiteral("compare_with"), ids_b);
    const auto whitespace = reader.boolean(QStringLiteral("show_whitespace"));
    const auto vocab = reader.integer(QStringLiteral("vocab_size"), vocab_spin_->minimum(), vocab_spin_->maximum());
    const auto special = reader.text(QStringLiteral("special_token"), kMaxSpecialTokenCharacters);
    const auto train = reader.boolean(QStringLiteral("train"));
    std::optional<int> step;
    if (reader.has(QStringLiteral("step")) && !trained_ && !trains) {
        reader.fail(QStringLiteral("step"), tr("the merge replay needs a trained tokenizer (\"train\": true in an "
                                               "earlier step)"));
    } else {
        // Checked against the replay of the training this step may start, below.
        step = reader.integer(QStringLiteral("step"), 0, kMaxLessonReplayStep);
    }
    if (train && trainState() == TrainState::Running)
        reader.fail(QStringLiteral("train"), tr("a training is already running"));
    if (!reader.finish(error))
        return false;

    // As a user would, in the order of the page: the text, the tokenizers, the training controls.
    if (text && *text != this->text())
        setText(*text);
    if (whitespace)
        show_whitespace_->setChecked(*whitespace);
    if (compare && *compare != compare_)
        setCompare(*compare);
    // The tokenizers before the training, which then shows its own as Train does (a step that
    // trains and picks "bytes" shows bytes first, the trained tokenizer once trained); a step that
    // picks the tokenizer it trains gets it after the training.
    if (tokenizer)
        tokenizer_a_chosen_ = true;  // also when it is the current one: GPT-2's lazy load keeps it
    const auto select = [this](int side, const std::optional<QString> &id) {
        if (id && keyOfLessonId(*id) != selected_[side])
            selectKey(side, keyOfLessonId(*id));
    };
    const bool after_training_a = tokenizer && *tokenizer == trained_id && !trained_;
    const bool after_training_b = compare_with && *compare_with == trained_id && !trained_;
    if (!after_training_a)
        select(0, tokenizer);
    if (!after_training_b)
        select(1, compare_with);
    if (vocab)
        vocab_spin_->setValue(*vocab);
    if (special)
        special_edit_->setText(*special);
    if (train && *train)
        trainForLesson();
    else if (train)
        forgetTraining();
    if (after_training_a)
        select(0, tokenizer);
    if (after_training_b)
        select(1, compare_with);
    if (step && trained_)
        replay_slider_->setValue(std::min(*step, replay_slider_->maximum()));
    return true;
}

// The text re-segmented after each merge, beside the merge list.
QList<QWidget *> TokenizationPage::lessonAnimationWidgets() const { return {replay_view_}; }

bool TokenizationPage::advanceLessonAnimation()
{
    if (!trained_ || replay_slider_->value() >= replay_slider_->maximum())
        return false;
    replay_slider_->setValue(replay_slider_->value() + 1);
    return true;
}

bool TokenizationPage::restartLessonAnimation()
{
    if (!trained_)
        return false;
    replay_slider_->setValue(0);
    return true;
}

}  // namespace lse::gui
