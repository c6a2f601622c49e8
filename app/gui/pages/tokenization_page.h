// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pages/page.h"
#include "tokenizer/bpe_tokenizer.h"
#include "tokenizer/bpe_trainer.h"

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

class QCheckBox;
class QComboBox;
class QGridLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSlider;
class QSpinBox;
class QTableWidget;

namespace lse::gui {

class TokenSpanView;

// How text becomes tokens: a bilingual text box, its tokens as coloured spans (hover for id, bytes
// and the merge that formed a token), two tokenizers compared side by side, a byte-level BPE
// trained in the app (worker thread, progress, cancel) with a merge-by-merge replay, and what the
// token count means for the n² attention score matrix. Independent of the scenario.
class TokenizationPage : public Page {
    Q_OBJECT
public:
    enum class Kind { Trained, Loaded, Bytes, Characters, Words };
    enum class TrainState { Idle, Running, Finished, Cancelled, Failed };

    explicit TokenizationPage(QWidget *parent = nullptr);
    ~TokenizationPage() override;

    QString id() const override;
    QString title() const override;
    void showEstimate(const Scenario &scenario, const Estimate &estimate) override;
    void setPresentation(bool presentation) override;
    void retranslate() override;

    // For tests and scripting.
    QString text() const;
    void setText(const QString &text);
    // Loads vocab.json + merges.txt (or gpt2_vocab.json + gpt2_merges.txt) from a folder and
    // selects it as tokenizer A.
    bool loadTokenizerDirectory(const QString &path, QString *error = nullptr);
    // Selects a tokenizer for side 0 (A, shown as spans) or 1 (B); false when not available.
    bool selectTokenizer(int side, Kind kind);
    // Trains on the text box (or the files) in a worker thread; trainingFinished() follows.
    void startTraining(int vocab_size, const QStringList &files = {});
    void cancelTraining();
    TrainState trainState() const { return train_state_; }
    const BpeTrainResult *trainedResult() const { return trained_ ? &*trained_ : nullptr; }
    QSlider *replaySlider() const { return replay_slider_; }
    QListWidget *mergeList() const { return merge_list_; }
    TokenSpanView *spanView() const { return span_view_; }
    // Ids of tokenizer A's tokens for the current text (-1 where the tokenizer has no ids).
    std::vector<std::int64_t> currentIds() const;
    // Labels of the tokens the span view shows (the first 20,000).
    QStringList tokenLabels() const;
    // Token count and bytes per token of side 0 or 1.
    std::pair<std::size_t, double> stats(int side) const;

signals:
    void trainingFinished(bool ok);

protected:
    void changeEvent(QEvent *event) override;

private:
    struct Segmented {
        std::vector<std::string> bytes;
        std::vector<std::int64_t> ids;
        std::vector<bool> special;
    };
    struct BpeSlot {
        std::optional<BpeTokenizer> tokenizer;
        // merged bytes → (left, right): the merge that formed a token, for tooltips.
        std::map<std::string, std::pair<std::string, std::string>> parents;
        std::map<std::string, std::size_t> rank;
        std::size_t vocab = 0;
    };

    void retranslateUi();
    void fillPicker(QComboBox *picker);
    Kind kindOf(int side) const;
    Segmented segment(Kind kind, const std::string &text);
    void retokenize();
    void updateStats(const Segmented &a, const Segmented &b, std::size_t text_bytes);
    QString tooltipFor(Kind kind, std::size_t index, const std::string &bytes, std::int64_t id, bool special) const;
    void rebuildReplay();
    void onTrainingDone(std::shared_ptr<Result<BpeTrainResult>> result);
    void setTraining(bool running);
    void layoutColumns();
    void applyFonts();

    QGridLayout *grid_;
    QWidget *left_;
    QWidget *right_;
    QLabel *intro_;
    QLabel *text_label_;
    QPlainTextEdit *text_edit_;
    QLabel *picker_a_label_;
    QLabel *picker_b_label_;
    QComboBox *picker_a_;
    QComboBox *picker_b_;
    QPushButton *load_button_;
    QCheckBox *show_whitespace_;
    TokenSpanView *span_view_;
    QLabel *spans_label_;
    QTableWidget *stats_table_;
    QLabel *attention_label_;
    QGroupBox *train_box_;
    QLabel *vocab_label_;
    QSpinBox *vocab_spin_;
    QLabel *special_label_;
    QLineEdit *special_edit_;
    QPushButton *train_button_;
    QPushButton *train_files_button_;
    QPushButton *cancel_button_;
    QProgressBar *progress_;
    QLabel *train_status_;
    QLabel *replay_label_;
    QSlider *replay_slider_;
    QLabel *merges_label_;
    QListWidget *merge_list_;

    bool presentation_ = false;
    qreal base_point_size_ = 0;
    BpeSlot trained_slot_;
    BpeSlot loaded_slot_;
    QString loaded_name_;
    std::optional<BpeTrainResult> trained_;
    std::vector<std::string> trained_specials_;
    TrainState train_state_ = TrainState::Idle;
    QString train_message_;
    std::thread worker_;
    std::atomic<bool> cancel_{false};
    std::atomic<int> last_percent_{-1};
    std::size_t last_count_a_ = 0;
    std::size_t last_count_b_ = 0;
    std::size_t last_bytes_ = 0;
    std::vector<std::int64_t> current_ids_;
};

}  // namespace lse::gui
