// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pages/page.h"
#include "tokenizer/bpe_tokenizer.h"
#include "tokenizer/bpe_trainer.h"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

class QAction;
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

    // The page's id and title before it exists (the navigator lists pages built on first show).
    static QString pageId();
    static QString pageTitle();
    QString id() const override { return pageId(); }
    QString title() const override { return pageTitle(); }
    void retranslate() override;

    // For tests and scripting.
    QString text() const;
    void setText(const QString &text);
    // Loads a tokenizer synchronously (what loadTokenizer() accepts: a folder with tokenizer.json,
    // vocab.json + merges.txt or one *.tiktoken, or such a file; also gpt2_vocab.json +
    // gpt2_merges.txt in a folder) and selects it as tokenizer A. On failure the selection stays.
    bool loadTokenizerDirectory(const QString &path, QString *error = nullptr);
    // The same in a worker thread (what "Load tokenizer file/folder…" does); tokenizerLoaded()
    // follows. False when another load is still running.
    bool loadTokenizerAsync(const QString &path);
    bool isLoading() const { return load_worker_.joinable(); }
    // Not ready while a tokenizer loads (the GPT-2 one starts on the page's first show), so a
    // screenshot or an export shows the page with it.
    bool isReady() const override { return !isLoading(); }
    // How many times the GPT-2 tokenizer has been read from its files (0 until the page is first
    // shown or GPT-2 is selected; 1 after). For tests of the lazy load.
    int courseTokenizerLoads() const { return course_loads_; }
    // Selects a tokenizer for side 0 (A, shown as spans) or 1 (B); false when not available.
    // Kind::Loaded picks the most recently loaded file-based tokenizer.
    bool selectTokenizer(int side, Kind kind);
    // Picker of side 0 or 1 (entries include "GPT-2 (bundled)" and "HF: org/name").
    QComboBox *picker(int side) const { return side == 0 ? picker_a_ : picker_b_; }
    // Rescans the Hugging Face cache and the GPT-2 files for picker entries.
    void refreshSources();
    // Folder with the GPT-2 files: $LSE_SHARED_DIR/cs336/tokenizer when it has gpt2_vocab.json +
    // gpt2_merges.txt, else the copy bundled with the application (bundled_tokenizers.h). Empty only
    // when the bundled copy cannot be written to the cache folder.
    static QString courseGpt2Dir();
    // The page's message area (load errors and results).
    QString message() const;
    void setCompare(bool on);
    bool compare() const;
    // Trains on the text box (or the files) in a worker thread; trainingFinished() follows.
    void startTraining(int vocab_size, const QStringList &files = {});
    void cancelTraining();
    TrainState trainState() const { return train_state_; }
    const BpeTrainResult *trainedResult() const { return trained_ ? &*trained_ : nullptr; }
    QSlider *replaySlider() const { return replay_slider_; }
    QListWidget *mergeList() const { return merge_list_; }
    TokenSpanView *spanView() const { return span_view_; }
    TokenSpanView *spanViewB() const { return span_view_b_; }
    // Ids of tokenizer A's tokens for the current text (-1 where the tokenizer has no ids).
    std::vector<std::int64_t> currentIds() const;
    // Labels of the tokens the span view shows (the first 20,000).
    QStringList tokenLabels() const;
    // Token count and bytes per token of side 0 or 1.
    std::pair<std::size_t, double> stats(int side) const;

    // Lessons (tokenization_lesson_settings.cpp): "text", "tokenizer", "compare", "compare_with",
    // "show_whitespace", "vocab_size", "special_token", "step" (merges replayed), "train" (starts
    // the training in its worker thread, as Train does). The animation is the merge replay.
    QJsonObject lessonSettings() const override;
    bool applyLessonSettings(const QJsonObject &settings, QString *error) override;
    bool advanceLessonAnimation() override;
    QList<QWidget *> lessonAnimationWidgets() const override;
    bool restartLessonAnimation() override;

signals:
    void trainingFinished(bool ok);
    // A tokenizer load (file, course files or Hugging Face cache entry) ended.
    void tokenizerLoaded(bool ok);

protected:
    void applyPresentation(bool presentation) override;
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;

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

    // A tokenizer read from files: the course GPT-2 files, a Hugging Face cache snapshot or a file
    // or folder the user chose. Loaded on first selection.
    struct Source {
        enum class Origin { Course, HuggingFace, File };
        Origin origin = Origin::File;
        QString key;   // picker data, stable across refills
        QString name;  // shown after the translated prefix
        QString path;
        std::shared_ptr<BpeSlot> slot;  // null until loaded
    };
    struct LoadOutcome {
        std::shared_ptr<BpeSlot> slot;
        QString error;
        double seconds = 0;
    };
    static LoadOutcome loadSlot(Source::Origin origin, const QString &path);

    void retranslateUi();
    void fillPicker(QComboBox *picker);
    void onPickerChanged(int side);
    Source *sourceOf(const QString &key);
    const Source *sourceOf(const QString &key) const;
    const BpeSlot *slotOf(int side) const;
    bool selectKey(int side, const QString &key);
    bool startLoad(int side, const QString &key);
    void startCourseLoadOnce();
    void finishLoad(int side, const QString &key, const LoadOutcome &outcome);
    void setMessage(std::function<QString()> text, bool error);
    Kind kindOf(int side) const;
    Segmented segment(int side, const std::string &text);
    Segmented segment(Kind kind, BpeSlot *slot, const std::string &text);
    void fitStatsTable();
    void showSpans(int side, const Segmented &segmented);
    void retokenize();
    void updateStats(const Segmented &a, const Segmented &b, std::size_t text_bytes);
    QString tooltipFor(const BpeSlot *slot, std::size_t index, const std::string &bytes, std::int64_t id, bool special) const;
    void rebuildReplay();
    void showReplaySpans();  // the text as the replay's first k merges segment it
    void nameLessonRegions();
    QStringList lessonTokenizerIds(int side) const;
    void onTrainingDone(std::shared_ptr<Result<BpeTrainResult>> result);
    // A lesson's "train": true and false (bpe_training_replay.cpp), and whether a tokenizer trained
    // on the text, vocabulary size and special token shown now is there.
    void trainForLesson();
    void forgetTraining();
    bool trainedOnTheseInputs() const;
    QString trainingInputs() const;
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
    QComboBox *picker_a_;
    QComboBox *picker_b_;
    QCheckBox *compare_check_;
    QPushButton *load_button_;
    QAction *load_file_action_;
    QAction *load_folder_action_;
    QProgressBar *load_busy_;
    QLabel *message_label_;
    QCheckBox *show_whitespace_;
    TokenSpanView *span_view_;
    TokenSpanView *span_view_b_;
    TokenSpanView *replay_view_;  // beside the merge list, so each merge and its effect show together
    QLabel *spans_label_;
    QLabel *span_header_a_;
    QLabel *span_header_b_;
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

    BpeSlot trained_slot_;
    std::vector<Source> sources_;
    QString selected_[2];  // picker keys of A and B; a failed or running load leaves them as they were
    QString last_file_key_;
    std::function<QString()> message_;  // re-run on a language change
    std::thread load_worker_;
    QString loading_name_;
    std::shared_ptr<Source> pending_file_;  // a chosen file, listed only once it has loaded
    QString pending_file_key_;
    bool course_load_started_ = false;
    bool tokenizer_a_chosen_ = false;  // by the picker, a lesson or a caller since construction
    int course_loads_ = 0;
    std::optional<BpeTrainResult> trained_;
    std::vector<std::string> trained_specials_;
    // What the last training (finished or running) was given: text, vocabulary size and special
    // token; empty after a training on files. A lesson's "train" with the same inputs is done.
    QString training_inputs_;
    TrainState train_state_ = TrainState::Idle;
    QString train_message_;
    std::thread worker_;
    std::atomic<bool> cancel_{false};
    std::atomic<int> last_percent_{-1};
    std::size_t last_count_a_ = 0;
    std::size_t last_count_b_ = 0;
    bool compare_ = true;
    std::size_t last_bytes_ = 0;
    std::vector<std::int64_t> current_ids_;
};

}  // namespace lse::gui
