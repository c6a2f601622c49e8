// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/tokenization_page.h"

#include "pages/page_format.h"
#include "pages/tokenization/token_span_view.h"
#include "tokenizer/byte_unicode.h"
#include "tokenizer/pretokenizer.h"
#include "tokenizer/unicode.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QTableWidget>
#include <QTextStream>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace lse::gui {

namespace {

// The preloaded sample: English and Chinese about tokenization, a number and an emoji.
constexpr const char *kSampleText =
    R"(Tokenization turns text into integers. A byte-level BPE starts from the 256 possible bytes and merges the most frequent adjacent pair, again and again, so common words such as "the" become a single token while rare words split into pieces.
分词把文字变成整数。字节级 BPE 从 256 个字节开始，反复合并最常见的相邻字节对；一个汉字在 UTF-8 中通常占三个字节。
GPT-2 was released in 2019 with a vocabulary of 50,257 tokens 🙂
)";

QString hexBytes(const std::string &bytes)
{
    QString out;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        if (i > 0)
            out += QLatin1Char(' ');
        out += QStringLiteral("%1").arg(static_cast<unsigned char>(bytes[i]), 2, 16, QLatin1Char('0'));
    }
    return out;
}

QString printable(const std::string &bytes)
{
    return TokenSpanView::displayBytes(bytes, true);
}

std::map<std::string, std::pair<std::string, std::string>> parentsOf(
    const std::vector<std::pair<std::string, std::string>> &merges, std::map<std::string, std::size_t> &rank)
{
    std::map<std::string, std::pair<std::string, std::string>> parents;
    rank.clear();
    for (std::size_t i = 0; i < merges.size(); ++i) {
        const std::string merged = merges[i].first + merges[i].second;
        if (parents.emplace(merged, merges[i]).second)
            rank.emplace(merged, i);
    }
    return parents;
}

// merges.txt in the GPT-2 alphabet → byte-string pairs (for tooltips; the tokenizer loads its own).
std::vector<std::pair<std::string, std::string>> readMerges(const QString &path)
{
    std::vector<std::pair<std::string, std::string>> merges;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return merges;
    bool first = true;
    while (!file.atEnd()) {
        QByteArray line = file.readLine();
        while (line.endsWith('\n') || line.endsWith('\r'))
            line.chop(1);
        if (first && line.startsWith("#version")) {
            first = false;
            continue;
        }
        first = false;
        const qsizetype space = line.indexOf(' ');
        if (space <= 0)
            continue;
        const auto left = alphabetToBytes(std::string_view(line.constData(), static_cast<std::size_t>(space)));
        const auto right = alphabetToBytes(std::string_view(line.constData() + space + 1,
                                                            static_cast<std::size_t>(line.size() - space - 1)));
        if (left && right)
            merges.emplace_back(*left, *right);
    }
    return merges;
}

}  // namespace

TokenizationPage::TokenizationPage(QWidget *parent) : Page(parent)
{
    QWidget *content = addScrollingContent(this);
    grid_ = new QGridLayout(content);
    grid_->setContentsMargins(8, 8, 8, 8);
    grid_->setSpacing(8);
    base_point_size_ = font().pointSizeF();

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
    picker_b_label_ = new QLabel(left_);
    picker_a_ = new QComboBox(left_);
    picker_b_ = new QComboBox(left_);
    load_button_ = new QPushButton(left_);
    show_whitespace_ = new QCheckBox(left_);
    for (QComboBox *picker : {picker_a_, picker_b_}) {
        picker->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        picker->setMinimumContentsLength(14);
    }
    pickers->addWidget(picker_a_label_, 0, 0);
    pickers->addWidget(picker_a_, 0, 1, 1, 2);
    pickers->addWidget(picker_b_label_, 1, 0);
    pickers->addWidget(picker_b_, 1, 1, 1, 2);
    pickers->addWidget(load_button_, 2, 0, 1, 2);
    pickers->addWidget(show_whitespace_, 2, 2);
    pickers->setColumnStretch(1, 1);
    left->addLayout(pickers);

    spans_label_ = new QLabel(left_);
    spans_label_->setWordWrap(true);
    left->addWidget(spans_label_);
    span_view_ = new TokenSpanView(left_);
    span_view_->setMinimumHeight(130);
    left->addWidget(span_view_, 3);

    stats_table_ = new QTableWidget(2, 4, left_);
    stats_table_->verticalHeader()->setVisible(false);
    stats_table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    stats_table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    stats_table_->setMinimumWidth(200);
    stats_table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    stats_table_->setSelectionMode(QAbstractItemView::NoSelection);
    stats_table_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    stats_table_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
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
    merges_label_ = new QLabel(right_);
    right->addWidget(merges_label_);
    merge_list_ = new QListWidget(right_);
    merge_list_->setMinimumHeight(160);
    right->addWidget(merge_list_, 1);

    fillPicker(picker_a_);
    fillPicker(picker_b_);
    selectTokenizer(0, Kind::Words);
    selectTokenizer(1, Kind::Bytes);

    connect(text_edit_, &QPlainTextEdit::textChanged, this, &TokenizationPage::retokenize);
    connect(picker_a_, &QComboBox::currentIndexChanged, this, &TokenizationPage::retokenize);
    connect(picker_b_, &QComboBox::currentIndexChanged, this, &TokenizationPage::retokenize);
    connect(show_whitespace_, &QCheckBox::toggled, span_view_, &TokenSpanView::setShowWhitespace);
    connect(load_button_, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Folder with vocab.json and merges.txt"));
        if (dir.isEmpty())
            return;
        QString error;
        if (!loadTokenizerDirectory(dir, &error))
            train_status_->setText(error);
    });
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
    retranslateUi();
    retokenize();
}

TokenizationPage::~TokenizationPage()
{
    cancel_ = true;
    if (worker_.joinable())
        worker_.join();
}

QString TokenizationPage::id() const { return QStringLiteral("tokenization"); }

QString TokenizationPage::title() const { return tr("Tokenization"); }

void TokenizationPage::showEstimate(const Scenario &, const Estimate &) {}

void TokenizationPage::setPresentation(bool presentation)
{
    Page::setPresentation(presentation);
    presentation_ = presentation;
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
    QFont f = font();
    const qreal base = base_point_size_ > 0 ? base_point_size_ : 10;
    f.setPointSizeF(presentation_ ? base * 1.6 : base);
    for (QWidget *w : {left_, right_})
        w->setFont(f);
    QFont mono = f;
    mono.setPointSizeF(f.pointSizeF() * 1.15);
    span_view_->setFont(mono);
    text_edit_->setFont(mono);
    span_view_->setMinimumHeight(presentation_ ? 300 : 150);
    text_edit_->setMinimumHeight(presentation_ ? 200 : 110);
    merge_list_->setMinimumHeight(presentation_ ? 320 : 160);
    stats_table_->resizeRowsToContents();
    const int height = stats_table_->horizontalHeader()->sizeHint().height() + stats_table_->rowHeight(0) +
                       stats_table_->rowHeight(1) + 2 * stats_table_->frameWidth() + 2;
    stats_table_->setFixedHeight(height);
}

void TokenizationPage::retranslate() { retranslateUi(); }

void TokenizationPage::changeEvent(QEvent *event)
{
    Page::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

void TokenizationPage::retranslateUi()
{
    intro_->setText(tr("A language model never sees characters: a tokenizer turns the text into integer ids. "
                       "Edit the text, pick a tokenizer, hover a token for its id, bytes and the merge that formed "
                       "it, or train your own byte-level BPE and replay it merge by merge."));
    text_label_->setText(tr("Text"));
    picker_a_label_->setText(tr("Tokenizer A (shown):"));
    picker_b_label_->setText(tr("Compare with B:"));
    load_button_->setText(tr("Load vocab.json + merges.txt…"));
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
    retokenize();
}

void TokenizationPage::fillPicker(QComboBox *picker)
{
    const QVariant current = picker->currentData();
    const QSignalBlocker block(picker);
    picker->clear();
    if (trained_)
        picker->addItem(tr("Trained in app (%1 tokens)").arg(format::integer(static_cast<std::int64_t>(trained_slot_.vocab))),
                        static_cast<int>(Kind::Trained));
    if (loaded_slot_.tokenizer)
        picker->addItem(tr("Loaded: %1").arg(loaded_name_), static_cast<int>(Kind::Loaded));
    picker->addItem(tr("Bytes (UTF-8)"), static_cast<int>(Kind::Bytes));
    picker->addItem(tr("Characters"), static_cast<int>(Kind::Characters));
    picker->addItem(tr("Words (GPT-2 pre-tokens)"), static_cast<int>(Kind::Words));
    const int index = picker->findData(current);
    picker->setCurrentIndex(index >= 0 ? index : picker->findData(static_cast<int>(Kind::Bytes)));
}

bool TokenizationPage::selectTokenizer(int side, Kind kind)
{
    QComboBox *picker = side == 0 ? picker_a_ : picker_b_;
    const int index = picker->findData(static_cast<int>(kind));
    if (index < 0)
        return false;
    picker->setCurrentIndex(index);
    return true;
}

TokenizationPage::Kind TokenizationPage::kindOf(int side) const
{
    const QComboBox *picker = side == 0 ? picker_a_ : picker_b_;
    const QVariant kind = picker->currentData();
    return kind.isValid() ? static_cast<Kind>(kind.toInt()) : Kind::Bytes;
}

QString TokenizationPage::text() const { return text_edit_->toPlainText(); }

void TokenizationPage::setText(const QString &text) { text_edit_->setPlainText(text); }

TokenizationPage::Segmented TokenizationPage::segment(Kind kind, const std::string &text)
{
    Segmented out;
    auto add = [&out](std::string bytes, std::int64_t id, bool special) {
        out.bytes.push_back(std::move(bytes));
        out.ids.push_back(id);
        out.special.push_back(special);
    };
    switch (kind) {
    case Kind::Trained:
    case Kind::Loaded: {
        BpeSlot &slot = kind == Kind::Trained ? trained_slot_ : loaded_slot_;
        if (!slot.tokenizer)
            return segment(Kind::Bytes, text);
        BpeTokenizer &tokenizer = *slot.tokenizer;
        const std::vector<std::string> specials = tokenizer.specialTokens();
        for (const EncodedToken &token : tokenizer.encodeWithOffsets(text, specials)) {
            const std::string bytes = text.substr(token.begin, token.end - token.begin);
            const bool special = std::find(specials.begin(), specials.end(), bytes) != specials.end();
            add(bytes, token.id, special);
        }
        break;
    }
    case Kind::Bytes:
        for (char c : text)
            add(std::string(1, c), static_cast<unsigned char>(c), false);
        break;
    case Kind::Characters: {
        std::size_t i = 0;
        while (i < text.size()) {
            const Utf8Char c = decodeUtf8At(text, i);
            add(text.substr(i, c.length),
                c.codepoint == kInvalidCodepoint ? static_cast<unsigned char>(text[i]) : std::int64_t(c.codepoint),
                false);
            i += c.length;
        }
        break;
    }
    case Kind::Words:
        forEachPretoken(std::string_view(text),
                        [&](std::size_t begin, std::size_t end) { add(text.substr(begin, end - begin), -1, false); });
        break;
    }
    return out;
}

QString TokenizationPage::tooltipFor(Kind kind, std::size_t index, const std::string &bytes, std::int64_t id,
                                     bool special) const
{
    QString html = tr("<b>Token %1</b>").arg(index);
    if (id >= 0)
        html += QStringLiteral(" · ") + tr("id %1").arg(id);
    html += QStringLiteral("<br>") + tr("text: %1").arg(printable(bytes).toHtmlEscaped());
    html += QStringLiteral("<br>") + tr("bytes (hex): %1").arg(hexBytes(bytes));
    bool partial = false;
    TokenSpanView::displayBytes(bytes, false, &partial);
    if (partial)
        html += QStringLiteral("<br><i>") + tr("Part of a UTF-8 character: the bytes of one character were split "
                                               "across tokens.") + QStringLiteral("</i>");
    if (special)
        html += QStringLiteral("<br>") + tr("Special token: never merged, matched before pre-tokenization.");
    if (kind == Kind::Trained || kind == Kind::Loaded) {
        const BpeSlot &slot = kind == Kind::Trained ? trained_slot_ : loaded_slot_;
        const auto it = slot.parents.find(bytes);
        if (!special && it != slot.parents.end())
            html += QStringLiteral("<br>") + tr("Formed by merge %1: %2 + %3")
                                                 .arg(slot.rank.at(bytes) + 1)
                                                 .arg(printable(it->second.first).toHtmlEscaped(),
                                                      printable(it->second.second).toHtmlEscaped());
        else if (!special && bytes.size() == 1)
            html += QStringLiteral("<br>") + tr("A single byte: in the vocabulary from the start.");
    }
    return html;
}

void TokenizationPage::retokenize()
{
    const std::string text = text_edit_->toPlainText().toStdString();
    const Kind kind_a = kindOf(0);
    const Segmented a = segment(kind_a, text);
    const Segmented b = segment(kindOf(1), text);
    // A pasted book would make the span view slow: it shows the first kMaxShownTokens tokens; the
    // statistics count them all.
    constexpr std::size_t kMaxShownTokens = 20000;
    const std::size_t shown = std::min(a.bytes.size(), kMaxShownTokens);
    std::vector<TokenSpan> spans;
    spans.reserve(shown);
    for (std::size_t i = 0; i < shown; ++i)
        spans.push_back({a.bytes[i], a.ids[i], a.special[i], tooltipFor(kind_a, i, a.bytes[i], a.ids[i], a.special[i])});
    span_view_->setTokens(std::move(spans));
    current_ids_ = a.ids;
    spans_label_->setText(
        shown < a.bytes.size()
            ? tr("Tokens of A: the first %1 of %2 are shown (<e4 bd> marks bytes of a character split across tokens)")
                  .arg(format::integer(static_cast<std::int64_t>(shown)),
                       format::integer(static_cast<std::int64_t>(a.bytes.size())))
            : tr("Tokens of A (coloured spans; <e4 bd> marks bytes of a character split across tokens)"));
    updateStats(a, b, text.size());
}

std::pair<std::size_t, double> TokenizationPage::stats(int side) const
{
    const std::size_t count = side == 0 ? last_count_a_ : last_count_b_;
    return {count, count > 0 ? double(last_bytes_) / double(count) : 0.0};
}

void TokenizationPage::updateStats(const Segmented &a, const Segmented &b, std::size_t text_bytes)
{
    const Segmented *sides[] = {&a, &b};
    for (int side = 0; side < 2; ++side) {
        const Kind kind = kindOf(side);
        const std::size_t count = sides[side]->bytes.size();
        QString vocab;
        switch (kind) {
        case Kind::Trained:
            vocab = format::integer(static_cast<std::int64_t>(trained_slot_.vocab));
            break;
        case Kind::Loaded:
            vocab = format::integer(static_cast<std::int64_t>(loaded_slot_.vocab));
            break;
        case Kind::Bytes:
            vocab = format::integer(256);
            break;
        case Kind::Characters:
            vocab = tr("Unicode");
            break;
        case Kind::Words:
            vocab = tr("open");
            break;
        }
        const QString name = (side == 0 ? picker_a_ : picker_b_)->currentText();
        auto *name_item = new QTableWidgetItem(QStringLiteral("%1: %2").arg(side == 0 ? "A" : "B", name));
        auto *count_item = new QTableWidgetItem(format::integer(static_cast<std::int64_t>(count)));
        count_item->setData(Qt::UserRole, static_cast<qlonglong>(count));
        auto *ratio_item =
            new QTableWidgetItem(count > 0 ? format::decimal(double(text_bytes) / double(count), 2) : QStringLiteral("–"));
        stats_table_->setItem(side, 0, name_item);
        stats_table_->setItem(side, 1, count_item);
        stats_table_->setItem(side, 2, ratio_item);
        stats_table_->setItem(side, 3, new QTableWidgetItem(vocab));
    }

    // The O(n²) point: the attention score matrix of one head has n² entries (Vaswani et al. 2017).
    const double n = double(a.bytes.size());
    const double n_bytes = double(text_bytes);
    const double half = std::ceil(n / 2);
    QString html = tr("<b>Sequence length and attention cost.</b> %1 tokens → the attention score matrix QKᵀ has "
                      "n² = %2 entries per head and layer; self-attention costs O(n²·d) (Vaswani et al. 2017).")
                       .arg(format::integer(static_cast<std::int64_t>(n)), format::integer(static_cast<std::int64_t>(n * n)));
    if (n > 0 && n_bytes > n)
        html += QStringLiteral(" ") + tr("As raw bytes (%1 tokens) it would be %2 entries, %3× more: "
                                         "compression of %4 bytes/token saves %3× in attention scores.")
                                          .arg(format::integer(static_cast<std::int64_t>(n_bytes)),
                                               format::integer(static_cast<std::int64_t>(n_bytes * n_bytes)),
                                               format::decimal(n_bytes * n_bytes / (n * n), 1),
                                               format::decimal(n_bytes / n, 2));
    if (n > 1)
        html += QStringLiteral(" ") + tr("At 2× more compression (%1 tokens) it would be %2 entries, 4× fewer.")
                                          .arg(format::integer(static_cast<std::int64_t>(half)),
                                               format::integer(static_cast<std::int64_t>(half * half)));
    attention_label_->setText(html);
    last_count_a_ = a.bytes.size();
    last_count_b_ = b.bytes.size();
    last_bytes_ = text_bytes;
}

std::vector<std::int64_t> TokenizationPage::currentIds() const
{
    return current_ids_;
}

QStringList TokenizationPage::tokenLabels() const
{
    QStringList labels;
    for (std::size_t i = 0; i < span_view_->tokens().size(); ++i)
        labels << span_view_->label(i);
    return labels;
}

bool TokenizationPage::loadTokenizerDirectory(const QString &path, QString *error)
{
    const QDir dir(path);
    QString vocab, merges;
    for (const auto &[v, m] : {std::pair{"vocab.json", "merges.txt"}, std::pair{"gpt2_vocab.json", "gpt2_merges.txt"}}) {
        if (dir.exists(QString::fromLatin1(v)) && dir.exists(QString::fromLatin1(m))) {
            vocab = dir.filePath(QString::fromLatin1(v));
            merges = dir.filePath(QString::fromLatin1(m));
            break;
        }
    }
    if (vocab.isEmpty()) {
        const QStringList vocabs = dir.entryList({QStringLiteral("*vocab.json")}, QDir::Files);
        const QStringList mergeFiles = dir.entryList({QStringLiteral("*merges.txt")}, QDir::Files);
        if (!vocabs.isEmpty() && !mergeFiles.isEmpty()) {
            vocab = dir.filePath(vocabs.front());
            merges = dir.filePath(mergeFiles.front());
        }
    }
    if (vocab.isEmpty()) {
        if (error)
            *error = tr("No vocab.json and merges.txt in %1.").arg(QDir::toNativeSeparators(path));
        return false;
    }
    Result<BpeTokenizer> loaded =
        BpeTokenizer::loadGpt2(vocab.toStdString(), merges.toStdString(), {"<|endoftext|>"});
    if (!loaded) {
        if (error)
            *error = QString::fromStdString(formatProblems(loaded.problems()));
        return false;
    }
    loaded_slot_.tokenizer = std::move(loaded.value());
    loaded_slot_.vocab = loaded_slot_.tokenizer->vocabSize();
    loaded_slot_.parents = parentsOf(readMerges(merges), loaded_slot_.rank);
    loaded_name_ = QFileInfo(vocab).fileName().startsWith(QLatin1String("gpt2")) ? QStringLiteral("GPT-2")
                                                                                   : QFileInfo(path).fileName();
    for (QComboBox *picker : {picker_a_, picker_b_})
        fillPicker(picker);
    selectTokenizer(0, Kind::Loaded);
    if (trained_)
        selectTokenizer(1, Kind::Trained);
    retokenize();
    return true;
}

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
    worker_ = std::thread([this, options = std::move(options), paths = std::move(paths), text = std::move(text)] {
        auto result = std::make_shared<Result<BpeTrainResult>>(paths.empty() ? trainBpe(text, options)
                                                                             : trainBpeFiles(paths, options));
        QMetaObject::invokeMethod(this, [this, result] { onTrainingDone(result); }, Qt::QueuedConnection);
    });
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
    trained_slot_.parents = parentsOf(trained_->merges, trained_slot_.rank);
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
        items << QStringLiteral("%1: %2 + %3 → %4").arg(k + 1).arg(printable(l), printable(r), printable(l + r));
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
}

}  // namespace lse::gui
