// SPDX-License-Identifier: GPL-3.0-or-later
// The Tokenization page's BPE training (in a worker thread, with progress and cancel) and its
// merge-by-merge replay.
#include "pages/tokenizer/tokenization_page.h"

#include "common/problem.h"
#include "pages/tokenizer/bpe_merge_parents.h"
#include "pages/tokenizer/token_span_view.h"
#include "pages/tokenizer/tokenizer_picker_keys.h"
#include "pages/page_format.h"

#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>

namespace lse::gui {

namespace {

QString printableBytes(const std::string &bytes) { return TokenSpanView::displayBytes(bytes, true); }

}  // namespace

void TokenizationPage::startTraining(int vocab_size, const QStringList &files)
{
    if (worker_.joinable())
        return;  // one training at a time
    cancel_ = false;
    last_percent_ = -1;
    setTraining(true);
    BpeTrainOptions options;
    options.vocabSize = static_cast<std::size_t>(vocab_size);
    const std::string special = special_edit_->text().toStdString();
    if (!special.empty())
        options.specialTokens.push_back(special);
    trained_specials_ = options.specialTokens;
    options.cancel = &cancel_;
    options.progress = [this](std::size_t done, std::size_t wanted) {
        const int percent = wanted > 0 ? static_cast<int>(done * 100 / wanted) : 100;
        if (percent == last_percent_.exchange(percent))
            return;
        QMetaObject::invokeMethod(
            this,
            [this, done, wanted] {
                progress_->setRange(0, static_cast<int>(wanted));
                progress_->setValue(static_cast<int>(done));
            },
            Qt::QueuedConnection);
    };
    std::vector<std::string> paths;
    for (const QString &file : files)
        paths.push_back(QFile::encodeName(file).toStdString());
    std::string text = text_edit_->toPlainText().toStdString();
    training_inputs_ = files.isEmpty() ? trainingInputs() : QString();
    worker_ = std::thread([this, options = std::move(options), paths = std::move(paths), text = std::move(text)] {
        auto result = std::make_shared<Result<BpeTrainResult>>(paths.empty() ? trainBpe(text, options)
                                                                             : trainBpeFiles(paths, options));
        QMetaObject::invokeMethod(this, [this, result] { onTrainingDone(result); }, Qt::QueuedConnection);
    });
}

QString TokenizationPage::trainingInputs() const
{
    return QStringLiteral("%1\n%2\n%3").arg(vocab_spin_->value()).arg(special_edit_->text(), text_edit_->toPlainText());
}

bool TokenizationPage::trainedOnTheseInputs() const
{
    return trained_ && train_state_ == TrainState::Finished && training_inputs_ == trainingInputs();
}

void TokenizationPage::trainForLesson()
{
    // A lesson trains on its step's paragraph to the end before the step shows (milliseconds), so
    // the merge list, the replay and the tokenizer choice that follow it are the same whether the
    // step was walked to or jumped to; a later step that picks another tokenizer is not overridden
    // by a training that finishes after it. Trained already on the same inputs: shown as a new
    // training would show it (the whole replay, the trained tokenizer), without training again.
    if (trainedOnTheseInputs()) {
        replay_slider_->setValue(replay_slider_->maximum());
        selectTokenizer(0, Kind::Trained);
        return;
    }
    BpeTrainOptions options;
    options.vocabSize = static_cast<std::size_t>(vocab_spin_->value());
    if (!special_edit_->text().isEmpty())
        options.specialTokens.push_back(special_edit_->text().toStdString());
    trained_specials_ = options.specialTokens;
    training_inputs_ = trainingInputs();
    onTrainingDone(std::make_shared<Result<BpeTrainResult>>(trainBpe(text_edit_->toPlainText().toStdString(), options)));
}

void TokenizationPage::forgetTraining()
{
    // A lesson step from before its training: the page as it was before any training.
    if (!trained_ && train_state_ == TrainState::Idle)
        return;
    trained_.reset();
    training_inputs_.clear();
    train_state_ = TrainState::Idle;
    train_message_.clear();
    merge_list_->clear();
    replay_view_->setTokens({});
    replay_view_->setVisible(false);
    {
        const QSignalBlocker block(replay_slider_);
        replay_slider_->setRange(0, 0);
        replay_slider_->setValue(0);
        replay_slider_->setEnabled(false);
    }
    progress_->setRange(0, 1);
    progress_->setValue(0);
    for (int side = 0; side < 2; ++side)
        if (selected_[side] == tokenizer_keys::kTrained)
            selectTokenizer(side, Kind::Bytes);
    for (QComboBox *picker : {picker_a_, picker_b_})
        fillPicker(picker);
    rebuildReplay();
    retranslateUi();
}

void TokenizationPage::cancelTraining()
{
    if (train_state_ == TrainState::Running)
        cancel_ = true;
}

void TokenizationPage::setTraining(bool running)
{
    train_button_->setEnabled(!running);
    train_files_button_->setEnabled(!running);
    cancel_button_->setEnabled(running);
    vocab_spin_->setEnabled(!running);
    special_edit_->setEnabled(!running);
    if (running) {
        train_state_ = TrainState::Running;
        progress_->setRange(0, 0);  // busy until the first merge (pre-tokenization)
        train_status_->setText(tr("Training…"));
    }
}

void TokenizationPage::onTrainingDone(std::shared_ptr<Result<BpeTrainResult>> result)
{
    if (worker_.joinable())
        worker_.join();
    setTraining(false);
    if (!result->ok()) {
        const bool cancelled = cancel_.load();
        train_state_ = cancelled ? TrainState::Cancelled : TrainState::Failed;
        train_message_ = QString::fromStdString(formatProblems(result->problems()));
        progress_->setRange(0, 1);
        progress_->setValue(0);
        retranslateUi();
        emit trainingFinished(false);
        return;
    }
    trained_ = std::move(result->value());
    trained_slot_.parents = bpeMergeParents(trained_->merges, trained_slot_.rank);
    trained_slot_.vocab = trained_->vocab.size();
    train_state_ = TrainState::Finished;
    train_message_ = tr("Trained %1 merges (vocabulary %2) in %3 s pre-tokenization + %4 s merging.")
                         .arg(format::integer(static_cast<std::int64_t>(trained_->merges.size())),
                              format::integer(static_cast<std::int64_t>(trained_->vocab.size())),
                              format::decimal(trained_->pretokenizeSeconds, 3),
                              format::decimal(trained_->mergeSeconds, 3));
    progress_->setRange(0, 1);
    progress_->setValue(1);

    QStringList items;
    items.reserve(static_cast<qsizetype>(trained_->merges.size()));
    for (std::size_t k = 0; k < trained_->merges.size(); ++k) {
        const auto &[l, r] = trained_->merges[k];
        items << QStringLiteral("%1: %2 + %3 → %4").arg(k + 1).arg(printableBytes(l), printableBytes(r), printableBytes(l + r));
    }
    merge_list_->clear();
    merge_list_->addItems(items);
    {
        const QSignalBlocker block(replay_slider_);
        replay_slider_->setRange(0, static_cast<int>(trained_->merges.size()));
        replay_slider_->setValue(replay_slider_->maximum());
        replay_slider_->setEnabled(true);
    }
    rebuildReplay();
    for (QComboBox *picker : {picker_a_, picker_b_})
        fillPicker(picker);
    selectTokenizer(0, Kind::Trained);
    retranslateUi();
    emit trainingFinished(true);
}

void TokenizationPage::rebuildReplay()
{
    if (!trained_)
        return;
    const auto k = static_cast<std::size_t>(std::max(0, replay_slider_->value()));
    const std::vector<std::pair<std::string, std::string>> merges(
        trained_->merges.begin(), trained_->merges.begin() + static_cast<std::ptrdiff_t>(std::min(k, trained_->merges.size())));
    Result<BpeTokenizer> tokenizer = BpeTokenizer::create(trained_->vocab, merges, trained_specials_);
    if (tokenizer)
        trained_slot_.tokenizer = std::move(tokenizer.value());
    replay_label_->setText(tr("Replay: segmentation after the first %1 of %2 merges")
                               .arg(format::integer(static_cast<std::int64_t>(merges.size())),
                                    format::integer(static_cast<std::int64_t>(trained_->merges.size()))));
    if (static_cast<int>(k) > 0 && k <= trained_->merges.size())
        merge_list_->setCurrentRow(static_cast<int>(k) - 1);
    else
        merge_list_->setCurrentRow(-1);  // no merge applied yet: none is marked
    showReplaySpans();
}

void TokenizationPage::showReplaySpans()
{
    replay_view_->setVisible(trained_.has_value());
    if (!trained_)
        return;
    // A pasted book is replayed on its beginning: each merge re-encodes what is shown.
    constexpr std::size_t kMaxReplayBytes = 64 * 1024;
    const std::string text = text_edit_->toPlainText().toStdString().substr(0, kMaxReplayBytes);
    const Segmented segmented = segment(Kind::Trained, &trained_slot_, text);
    std::vector<TokenSpan> spans;
    spans.reserve(segmented.bytes.size());
    for (std::size_t i = 0; i < segmented.bytes.size(); ++i)
        spans.push_back({segmented.bytes[i], segmented.ids[i], segmented.special[i],
                         tooltipFor(&trained_slot_, i, segmented.bytes[i], segmented.ids[i], segmented.special[i])});
    replay_view_->setTokens(std::move(spans));
}

}  // namespace lse::gui
