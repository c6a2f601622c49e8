// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/tokenizer/tokenization_page.h"

#include "bundled_tokenizers.h"
#include "common/file_bytes.h"
#include "pages/page_format.h"
#include "pages/tokenizer/bpe_merge_parents.h"
#include "pages/tokenizer/token_span_view.h"
#include "pages/tokenizer/tokenizer_merge_files.h"
#include "pages/tokenizer/tokenizer_picker_keys.h"
#include "tokenizer/byte_unicode.h"
#include "tokenizer/hf_cache.h"
#include "tokenizer/pretokenizer.h"
#include "tokenizer/tokenizer_formats.h"
#include "tokenizer/unicode.h"
#include "pages/table_key_columns.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QShowEvent>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTextStream>
#include <QVBoxLayout>

#include <algorithm>
#include <chrono>
#include <optional>
#include <cmath>

namespace lse::gui {

namespace {

// The preloaded sample: English and Chinese about tokenization, a number and an emoji.
constexpr const char *kSampleText =
    R"(Tokenization turns text into integers. A byte-level BPE starts from the 256 possible bytes and merges the most frequent adjacent pair, again and again, so common words such as "the" become a single token while rare words split into pieces.
分词把文字变成整数。字节级 BPE 从 256 个字节开始，反复合并最常见的相邻字节对；一个汉字在 UTF-8 中通常占三个字节。
GPT-2 was released in 2019 with a vocabulary of 50,257 tokens 🙂
)";

// $LSE_SHARED_DIR/cs336/tokenizer, the course's copy of the GPT-2 files (an override; the bundled
// copy is used without it).
QString courseOverrideDir()
{
    const QString shared = qEnvironmentVariable("LSE_SHARED_DIR");
    return shared.isEmpty() ? QString() : shared + QStringLiteral("/cs336/tokenizer");
}

const QString &kKeyBytes = tokenizer_keys::kBytes;
const QString &kKeyCharacters = tokenizer_keys::kCharacters;
const QString &kKeyWords = tokenizer_keys::kWords;
const QString &kKeyTrained = tokenizer_keys::kTrained;
const QString &kKeyCourse = tokenizer_keys::kCourse;

}  // namespace

TokenizationPage::TokenizationPage(QWidget *parent) : Page(parent)
{
    QWidget *content = addScrollingContent(this);
    grid_ = new QGridLayout(content);
    grid_->setContentsMargins(8, 8, 8, 8);
    grid_->setSpacing(8);

    // Left column: text, pickers, spans, statistics.
    left_ = new QWidget(content);
    auto *left = new QVBoxLayout(left_);
    left->setContentsMargins(0, 0, 0, 0);
    intro_ = new QLabel(left_);
    intro_->setWordWrap(true);
    left->addWidget(intro_);
    text_label_ = new QLabel(left_);
    left->addWidget(text_label_);
    text_edit_ = new QPlainTextEdit(left_);
    text_edit_->setPlainText(QString::fromUtf8(kSampleText));
    text_edit_->setMinimumHeight(110);
    left->addWidget(text_edit_, 2);

    auto *pickers = new QGridLayout;
    picker_a_label_ = new QLabel(left_);
    compare_check_ = new QCheckBox(left_);
    compare_check_->setChecked(true);
    picker_a_ = new QComboBox(left_);
    picker_b_ = new QComboBox(left_);
    load_button_ = new QPushButton(left_);
    load_busy_ = new QProgressBar(left_);
    load_busy_->setRange(0, 0);  // busy: loading reports no progress
    load_busy_->setTextVisible(false);
    load_busy_->setMaximumWidth(160);
    load_busy_->hide();
    show_whitespace_ = new QCheckBox(left_);
    for (QComboBox *picker : {picker_a_, picker_b_}) {
        picker->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        picker->setMinimumContentsLength(14);
    }
    pickers->addWidget(picker_a_label_, 0, 0);
    pickers->addWidget(picker_a_, 0, 1);
    pickers->addWidget(compare_check_, 1, 0);
    pickers->addWidget(picker_b_, 1, 1);
    auto *load_row = new QHBoxLayout;
    load_row->addWidget(load_button_);
    load_row->addWidget(load_busy_);
    load_row->addStretch(1);
    load_row->addWidget(show_whitespace_);
    pickers->addLayout(load_row, 2, 0, 1, 2);
    pickers->setColumnStretch(1, 1);
    left->addLayout(pickers);
    message_label_ = new QLabel(left_);
    message_label_->setWordWrap(true);
    message_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    message_label_->hide();
    left->addWidget(message_label_);

    spans_label_ = new QLabel(left_);
    spans_label_->setWordWrap(true);
    left->addWidget(spans_label_);
    span_header_a_ = new QLabel(left_);
    span_header_a_->setWordWrap(true);
    left->addWidget(span_header_a_);
    span_view_ = new TokenSpanView(left_);
    span_view_->setMinimumHeight(130);
    left->addWidget(span_view_, 3);
    span_header_b_ = new QLabel(left_);
    span_header_b_->setWordWrap(true);
    left->addWidget(span_header_b_);
    span_view_b_ = new TokenSpanView(left_);
    span_view_b_->setMinimumHeight(110);
    left->addWidget(span_view_b_, 2);

    stats_table_ = new QTableWidget(2, 4, left_);
    stats_table_->verticalHeader()->setVisible(false);
    stats_table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    stats_table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    stats_table_->setMinimumWidth(200);
    stats_table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    stats_table_->setSelectionMode(QAbstractItemView::NoSelection);
    stats_table_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    stats_table_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setKeyColumns(stats_table_, {0, 1, 2, 3});  // tokenizer, tokens, bytes/token, vocabulary
    left->addWidget(stats_table_);
    attention_label_ = new QLabel(left_);
    attention_label_->setWordWrap(true);
    attention_label_->setTextFormat(Qt::RichText);
    left->addWidget(attention_label_);

    // Right column: training, replay and the merge list.
    right_ = new QWidget(content);
    auto *right = new QVBoxLayout(right_);
    right->setContentsMargins(0, 0, 0, 0);
    train_box_ = new QGroupBox(right_);
    auto *train = new QGridLayout(train_box_);
    vocab_label_ = new QLabel(train_box_);
    vocab_spin_ = new QSpinBox(train_box_);
    vocab_spin_->setRange(257, 100000);
    vocab_spin_->setValue(400);
    special_label_ = new QLabel(train_box_);
    special_edit_ = new QLineEdit(QStringLiteral("<|endoftext|>"), train_box_);
    train_button_ = new QPushButton(train_box_);
    train_files_button_ = new QPushButton(train_box_);
    cancel_button_ = new QPushButton(train_box_);
    cancel_button_->setEnabled(false);
    progress_ = new QProgressBar(train_box_);
    progress_->setRange(0, 1);
    progress_->setValue(0);
    train_status_ = new QLabel(train_box_);
    train_status_->setWordWrap(true);
    train->addWidget(vocab_label_, 0, 0);
    train->addWidget(vocab_spin_, 0, 1);
    train->addWidget(special_label_, 0, 2);
    train->addWidget(special_edit_, 0, 3);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(train_button_);
    buttons->addWidget(train_files_button_);
    buttons->addWidget(cancel_button_);
    buttons->addWidget(progress_, 1);
    train->addLayout(buttons, 1, 0, 1, 4);
    train->addWidget(train_status_, 2, 0, 1, 4);
    train->setColumnStretch(3, 1);
    right->addWidget(train_box_);

    replay_label_ = new QLabel(right_);
    replay_label_->setWordWrap(true);
    right->addWidget(replay_label_);
    replay_slider_ = new QSlider(Qt::Horizontal, right_);
    replay_slider_->setRange(0, 0);
    replay_slider_->setEnabled(false);
    right->addWidget(replay_slider_);
    replay_view_ = new TokenSpanView(right_);
    replay_view_->setVisible(false);  // until a training gives it merges to replay
    right->addWidget(replay_view_);
    merges_label_ = new QLabel(right_);
    right->addWidget(merges_label_);
    merge_list_ = new QListWidget(right_);
    merge_list_->setMinimumHeight(160);
    right->addWidget(merge_list_, 1);

    selected_[0] = kKeyWords;
    selected_[1] = kKeyBytes;
    refreshSources();

    connect(text_edit_, &QPlainTextEdit::textChanged, this, &TokenizationPage::retokenize);
    connect(picker_a_, &QComboBox::currentIndexChanged, this, [this] { onPickerChanged(0); });
    connect(picker_b_, &QComboBox::currentIndexChanged, this, [this] { onPickerChanged(1); });
    connect(compare_check_, &QCheckBox::toggled, this, &TokenizationPage::setCompare);
    connect(show_whitespace_, &QCheckBox::toggled, span_view_, &TokenSpanView::setShowWhitespace);
    connect(show_whitespace_, &QCheckBox::toggled, span_view_b_, &TokenSpanView::setShowWhitespace);
    connect(show_whitespace_, &QCheckBox::toggled, replay_view_, &TokenSpanView::setShowWhitespace);
    // Qt's file dialogs pick either files or folders, not both: the button offers the two.
    auto *load_menu = new QMenu(load_button_);
    load_file_action_ = load_menu->addAction(QString(), this, [this] {
        const QString file = QFileDialog::getOpenFileName(
            this, tr("Load a tokenizer file"), QString(),
            tr("Tokenizer files (*.json *.tiktoken merges.txt);;All files (*)"));
        if (!file.isEmpty())
            loadTokenizerAsync(file);
    });
    load_folder_action_ = load_menu->addAction(QString(), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Load a tokenizer folder"));
        if (!dir.isEmpty())
            loadTokenizerAsync(dir);
    });
    load_button_->setMenu(load_menu);
    connect(train_button_, &QPushButton::clicked, this, [this] { startTraining(vocab_spin_->value()); });
    connect(train_files_button_, &QPushButton::clicked, this, [this] {
        const QStringList files = QFileDialog::getOpenFileNames(this, tr("Train on text files"));
        if (!files.isEmpty())
            startTraining(vocab_spin_->value(), files);
    });
    connect(cancel_button_, &QPushButton::clicked, this, &TokenizationPage::cancelTraining);
    connect(replay_slider_, &QSlider::valueChanged, this, [this] {
        rebuildReplay();
        retokenize();
    });

    layoutColumns();
    applyFonts();
    nameLessonRegions();
    retranslateUi();
    retokenize();
    // The GPT-2 tokenizer (what a student expects to see first) is not loaded here: building every
    // page before the window shows made it a fifth of the app's start-up CPU (issue 20). It loads in
    // the worker when the page is first shown (showEvent), or at once when a lesson or a caller
    // selects it (selectKey).
}

void TokenizationPage::showEvent(QShowEvent *event)
{
    Page::showEvent(event);
    startCourseLoadOnce();
}

void TokenizationPage::startCourseLoadOnce()
{
    if (course_load_started_)
        return;
    const Source *course = sourceOf(kKeyCourse);
    if (!course || course->path.isEmpty() || course->slot)
        return;
    course_load_started_ = true;
    startLoad(0, kKeyCourse);
}

TokenizationPage::~TokenizationPage()
{
    cancel_ = true;
    if (worker_.joinable())
        worker_.join();
    // Loading cannot be cancelled; it takes a second at most. Its queued result dies with this.
    if (load_worker_.joinable())
        load_worker_.join();
}

QString TokenizationPage::pageId() { return QStringLiteral("tokenization"); }

QString TokenizationPage::pageTitle() { return tr("Tokenization"); }

void TokenizationPage::applyPresentation(bool /*presentation*/)
{
    layoutColumns();
    applyFonts();
}

void TokenizationPage::layoutColumns()
{
    // One column: the page area is too narrow for two at 1024 px; the page scrolls instead.
    grid_->removeWidget(left_);
    grid_->removeWidget(right_);
    grid_->addWidget(left_, 0, 0);
    grid_->addWidget(right_, 1, 0);
    grid_->setColumnStretch(0, 1);
}

void TokenizationPage::applyFonts()
{
    // Text follows the application font (which presentation mode and zoom scale); only the token
    // views and the editor get a slightly larger font of their own, derived from it each time.
    QFont mono = QApplication::font();
    mono.setPointSizeF(mono.pointSizeF() * 1.15);
    span_view_->setFont(mono);
    span_view_b_->setFont(mono);
    replay_view_->setFont(mono);
    replay_view_->setMinimumHeight(presentation() ? 150 : 90);
    text_edit_->setFont(mono);
    span_view_->setMinimumHeight(presentation() ? 300 : 150);
    span_view_b_->setMinimumHeight(presentation() ? 220 : 110);
    text_edit_->setMinimumHeight(presentation() ? 240 : 145);
    merge_list_->setMinimumHeight(presentation() ? 240 : 160);
    stats_table_->resizeRowsToContents();
    fitStatsTable();
}

void TokenizationPage::fitStatsTable()
{
    const int height = stats_table_->horizontalHeader()->sizeHint().height() + stats_table_->rowHeight(0) +
                       (compare_ ? stats_table_->rowHeight(1) : 0) + 2 * stats_table_->frameWidth() + 2;
    stats_table_->setFixedHeight(height);
}

void TokenizationPage::retranslate() { retranslateUi(); }

void TokenizationPage::changeEvent(QEvent *event)
{
    Page::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        applyFonts();  // the token views derive their font from the application font
}

void TokenizationPage::retranslateUi()
{
    intro_->setText(tr("A language model never sees characters: a tokenizer turns the text into integer ids. "
                       "Edit the text, pick a tokenizer, hover a token for its id, bytes and the merge that formed "
                       "it, or train your own byte-level BPE and replay it merge by merge."));
    text_label_->setText(tr("Text"));
    picker_a_label_->setText(tr("Tokenizer A:"));
    compare_check_->setText(tr("Compare with B:"));
    load_button_->setText(tr("Load tokenizer file/folder…"));
    load_button_->setToolTip(tr("A folder with tokenizer.json, vocab.json + merges.txt or one *.tiktoken file, or "
                                "one of those files. It becomes tokenizer A."));
    load_file_action_->setText(tr("File (tokenizer.json, *.tiktoken, vocab.json)…"));
    load_folder_action_->setText(tr("Folder…"));
    load_busy_->setToolTip(tr("Loading a tokenizer…"));
    show_whitespace_->setText(tr("Show whitespace"));
    stats_table_->setHorizontalHeaderLabels(
        {tr("Tokenizer"), tr("Tokens"), tr("Bytes/token"), tr("Vocabulary")});
    train_box_->setTitle(tr("Train a byte-level BPE"));
    vocab_label_->setText(tr("Vocabulary size:"));
    special_label_->setText(tr("Special token:"));
    train_button_->setText(tr("Train on text"));
    train_files_button_->setText(tr("Train on files…"));
    cancel_button_->setText(tr("Cancel"));
    merges_label_->setText(tr("Merges (k: left + right → merged)"));
    for (QComboBox *picker : {picker_a_, picker_b_})
        fillPicker(picker);
    if (trained_)
        rebuildReplay();
    else
        replay_label_->setText(tr("Replay: train a tokenizer to step through its merges one by one."));
    switch (train_state_) {
    case TrainState::Idle:
        train_status_->setText(tr("Not trained yet."));
        break;
    case TrainState::Running:
        train_status_->setText(tr("Training…"));
        break;
    case TrainState::Finished:
        train_status_->setText(train_message_);
        break;
    case TrainState::Cancelled:
        train_status_->setText(tr("Training was cancelled."));
        break;
    case TrainState::Failed:
        train_status_->setText(tr("Training failed: %1").arg(train_message_));
        break;
    }
    if (message_)
        message_label_->setText(message_());
    retokenize();
}

QString TokenizationPage::courseGpt2Dir()
{
    if (const QString dir = courseOverrideDir(); !dir.isEmpty() && QFileInfo::exists(dir + QStringLiteral("/gpt2_vocab.json")) &&
                                                 QFileInfo::exists(dir + QStringLiteral("/gpt2_merges.txt")))
        return dir;
    return bundledGpt2Dir();
}

void TokenizationPage::refreshSources()
{
    std::vector<Source> fresh;
    auto keep = [this](Source source) {
        // A source loaded before keeps its tokenizer.
        if (const Source *old = sourceOf(source.key); old && old->path == source.path)
            source.slot = old->slot;
        return source;
    };
    fresh.push_back(keep({Source::Origin::Course, kKeyCourse, QStringLiteral("GPT-2"), courseGpt2Dir(), nullptr}));
    QStringList names;
    // One entry per repository: discovery lists the revision refs/main names first.
    for (const HfCachedTokenizer &found : discoverHfTokenizers()) {
        const QString name = QString::fromStdString(found.name);
        if (names.contains(name))
            continue;
        names << name;
        const QString path = QFile::decodeName(found.path.c_str());
        fresh.push_back(keep({Source::Origin::HuggingFace, QStringLiteral("hf:") + path, name, path, nullptr}));
    }
    for (const Source &source : sources_)
        if (source.origin == Source::Origin::File)
            fresh.push_back(source);
    sources_ = std::move(fresh);
    for (QComboBox *picker : {picker_a_, picker_b_})
        fillPicker(picker);
}

TokenizationPage::Source *TokenizationPage::sourceOf(const QString &key)
{
    for (Source &source : sources_)
        if (source.key == key)
            return &source;
    return nullptr;
}

const TokenizationPage::Source *TokenizationPage::sourceOf(const QString &key) const
{
    return const_cast<TokenizationPage *>(this)->sourceOf(key);
}

void TokenizationPage::fillPicker(QComboBox *picker)
{
    const int side = picker == picker_a_ ? 0 : 1;
    const QSignalBlocker block(picker);
    picker->clear();
    if (trained_)
        picker->addItem(tr("Trained in app (%1 tokens)").arg(format::integer(static_cast<std::int64_t>(trained_slot_.vocab))),
                        kKeyTrained);
    auto *model = qobject_cast<QStandardItemModel *>(picker->model());
    for (const Source &source : sources_) {
        QString label;
        switch (source.origin) {
        case Source::Origin::Course:
            label = tr("GPT-2 (bundled)");
            break;
        case Source::Origin::HuggingFace:
            label = tr("HF: %1").arg(source.name);
            break;
        case Source::Origin::File:
            label = tr("Loaded: %1").arg(source.name);
            break;
        }
        picker->addItem(label, source.key);
        const int index = picker->count() - 1;
        if (source.path.isEmpty()) {
            picker->setItemData(index,
                                tr("Not available: the bundled GPT-2 files could not be copied to %1.")
                                    .arg(QStandardPaths::writableLocation(QStandardPaths::CacheLocation)),
                                Qt::ToolTipRole);
            if (model)
                model->item(index)->setEnabled(false);
        } else {
            picker->setItemData(index, QDir::toNativeSeparators(source.path), Qt::ToolTipRole);
        }
    }
    picker->addItem(tr("Bytes (UTF-8)"), kKeyBytes);
    picker->addItem(tr("Characters"), kKeyCharacters);
    picker->addItem(tr("Words (GPT-2 pre-tokens)"), kKeyWords);
    int index = picker->findData(selected_[side]);
    if (index < 0) {
        selected_[side] = kKeyBytes;
        index = picker->findData(kKeyBytes);
    }
    picker->setCurrentIndex(index);
}

void TokenizationPage::onPickerChanged(int side)
{
    QComboBox *box = picker(side);
    const QString key = box->currentData().toString();
    if (key == selected_[side])
        return;
    const Source *source = sourceOf(key);
    if (source && !source->slot) {
        // Loading takes a moment: the previous tokenizer stays until the new one is ready.
        {
            const QSignalBlocker block(box);
            box->setCurrentIndex(box->findData(selected_[side]));
        }
        startLoad(side, key);
        return;
    }
    if (side == 0)
        tokenizer_a_chosen_ = true;
    selected_[side] = key;
    retokenize();
}

bool TokenizationPage::selectKey(int side, const QString &key)
{
    QComboBox *box = picker(side);
    const int index = box->findData(key);
    if (index < 0)
        return false;
    if (Source *source = sourceOf(key); source && !source->slot) {
        // The GPT-2 tokenizer is loaded lazily; a caller that selects it (a lesson step, a test) gets
        // it now, as before, rather than a silent "no". Other sources load when picked in the UI.
        if (source->origin != Source::Origin::Course || source->path.isEmpty())
            return false;
        const LoadOutcome outcome = loadSlot(source->origin, source->path);
        if (!outcome.slot)
            return false;
        source->slot = outcome.slot;
        ++course_loads_;
    }
    if (side == 0)
        tokenizer_a_chosen_ = true;
    selected_[side] = key;
    {
        const QSignalBlocker block(box);
        box->setCurrentIndex(index);
    }
    retokenize();
    return true;
}

bool TokenizationPage::selectTokenizer(int side, Kind kind)
{
    QString key;
    switch (kind) {
    case Kind::Trained:
        key = kKeyTrained;
        break;
    case Kind::Loaded:
        key = last_file_key_;
        for (const Source &source : sources_)
            if (key.isEmpty() && source.slot)
                key = source.key;
        if (key.isEmpty())
            key = kKeyCourse;  // nothing loaded yet: GPT-2, loaded by selectKey
        break;
    case Kind::Bytes:
        key = kKeyBytes;
        break;
    case Kind::Characters:
        key = kKeyCharacters;
        break;
    case Kind::Words:
        key = kKeyWords;
        break;
    }
    return !key.isEmpty() && selectKey(side, key);
}

TokenizationPage::Kind TokenizationPage::kindOf(int side) const
{
    const QString &key = selected_[side];
    if (key == kKeyTrained)
        return Kind::Trained;
    if (key == kKeyCharacters)
        return Kind::Characters;
    if (key == kKeyWords)
        return Kind::Words;
    if (sourceOf(key))
        return Kind::Loaded;
    return Kind::Bytes;
}

const TokenizationPage::BpeSlot *TokenizationPage::slotOf(int side) const
{
    const QString &key = selected_[side];
    if (key == kKeyTrained)
        return trained_ ? &trained_slot_ : nullptr;
    const Source *source = sourceOf(key);
    return source ? source->slot.get() : nullptr;
}

void TokenizationPage::setCompare(bool on)
{
    compare_ = on;
    {
        const QSignalBlocker block(compare_check_);
        compare_check_->setChecked(on);
    }
    picker_b_->setEnabled(on);
    span_header_b_->setVisible(on);
    span_view_b_->setVisible(on);
    stats_table_->setRowHidden(1, !on);
    fitStatsTable();
    retokenize();
}

bool TokenizationPage::compare() const { return compare_; }

QString TokenizationPage::message() const { return message_label_->text(); }

void TokenizationPage::setMessage(std::function<QString()> text, bool error)
{
    message_ = std::move(text);
    message_label_->setText(message_ ? message_() : QString());
    message_label_->setStyleSheet(error ? QStringLiteral("color: #c62828;") : QString());
    message_label_->setVisible(static_cast<bool>(message_));
}

QString TokenizationPage::text() const { return text_edit_->toPlainText(); }

void TokenizationPage::setText(const QString &text) { text_edit_->setPlainText(text); }

}  // namespace lse::gui
