// SPDX-License-Identifier: GPL-3.0-or-later
// The Tokenization page's comparison: the text segmented by tokenizer A (and B), the token spans
// with their tooltips, and the statistics table comparing the two.
#include "pages/tokenizer/tokenization_page.h"

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
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTableWidget>
#include <QTextStream>
#include <QVBoxLayout>

#include <algorithm>
#include <chrono>
#include <optional>
#include <cmath>

namespace lse::gui {

namespace {

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

}  // namespace

TokenizationPage::Segmented TokenizationPage::segment(int side, const std::string &text)
{
    return segment(kindOf(side), const_cast<BpeSlot *>(slotOf(side)), text);
}

TokenizationPage::Segmented TokenizationPage::segment(Kind kind, BpeSlot *slot, const std::string &text)
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
        if (!slot || !slot->tokenizer)
            return segment(Kind::Bytes, nullptr, text);
        BpeTokenizer &tokenizer = *slot->tokenizer;
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

QString TokenizationPage::tooltipFor(const BpeSlot *slot, std::size_t index, const std::string &bytes, std::int64_t id,
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
    if (slot) {
        const auto it = slot->parents.find(bytes);
        if (!special && it != slot->parents.end())
            html += QStringLiteral("<br>") + tr("Formed by merge %1: %2 + %3")
                                                 .arg(slot->rank.at(bytes) + 1)
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
    const Segmented a = segment(0, text);
    const Segmented b = compare_ ? segment(1, text) : Segmented{};
    showSpans(0, a);
    showSpans(1, b);
    current_ids_ = a.ids;
    spans_label_->setText(tr("Tokens as coloured spans (hover one for its id, bytes and merge; <e4 bd> marks bytes of "
                             "a character split across tokens)"));
    updateStats(a, b, text.size());
    if (trained_)
        showReplaySpans();
}

void TokenizationPage::showSpans(int side, const Segmented &segmented)
{
    TokenSpanView *view = side == 0 ? span_view_ : span_view_b_;
    QLabel *header = side == 0 ? span_header_a_ : span_header_b_;
    // A pasted book would make the span view slow: it shows the first kMaxShownTokens tokens; the
    // statistics count them all.
    constexpr std::size_t kMaxShownTokens = 20000;
    const std::size_t count = segmented.bytes.size();
    const std::size_t shown = std::min(count, kMaxShownTokens);
    const BpeSlot *slot = slotOf(side);
    std::vector<TokenSpan> spans;
    spans.reserve(shown);
    for (std::size_t i = 0; i < shown; ++i)
        spans.push_back({segmented.bytes[i], segmented.ids[i], segmented.special[i],
                         tooltipFor(slot, i, segmented.bytes[i], segmented.ids[i], segmented.special[i])});
    view->setTokens(std::move(spans));
    std::size_t bytes = 0;
    for (const std::string &token : segmented.bytes)
        bytes += token.size();
    QString text = tr("<b>%1 · %2</b>: %3 tokens, %4 bytes/token")
                       .arg(side == 0 ? QStringLiteral("A") : QStringLiteral("B"), picker(side)->currentText().toHtmlEscaped(),
                            format::integer(static_cast<std::int64_t>(count)),
                            count > 0 ? format::decimal(double(bytes) / double(count), 2) : QStringLiteral("–"));
    if (shown < count)
        text += QStringLiteral(" ") + tr("(the first %1 are shown)").arg(format::integer(static_cast<std::int64_t>(shown)));
    header->setText(text);
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
        const BpeSlot *slot = slotOf(side);
        QString vocab;
        switch (kind) {
        case Kind::Trained:
        case Kind::Loaded:
            vocab = slot ? format::integer(static_cast<std::int64_t>(slot->vocab)) : QStringLiteral("–");
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

}  // namespace lse::gui
