// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/tokenizer/token_span_view.h"

#include "tokenizer/unicode.h"

#include <QColor>
#include <QHelpEvent>
#include <QScrollBar>
#include <QTextCharFormat>
#include <QTextCursor>
#include <QToolTip>

#include <algorithm>

namespace lse::gui {

namespace {

const QColor kPastels[] = {QColor(0xff, 0xe0, 0xb2), QColor(0xc8, 0xe6, 0xc9), QColor(0xbb, 0xde, 0xfb),
                           QColor(0xf8, 0xbb, 0xd0), QColor(0xe1, 0xbe, 0xe7), QColor(0xff, 0xf9, 0xc4)};

QString hexGroup(const std::string &bytes, std::size_t begin, std::size_t end)
{
    QString out = QStringLiteral("<");
    for (std::size_t i = begin; i < end; ++i) {
        if (i > begin)
            out += QLatin1Char(' ');
        out += QStringLiteral("%1").arg(static_cast<unsigned char>(bytes[i]), 2, 16, QLatin1Char('0'));
    }
    return out + QLatin1Char('>');
}

}  // namespace

TokenSpanView::TokenSpanView(QWidget *parent) : QTextEdit(parent)
{
    setReadOnly(true);
    setUndoRedoEnabled(false);
    setLineWrapMode(QTextEdit::WidgetWidth);
    viewport()->setMouseTracking(true);
}

QString TokenSpanView::displayBytes(const std::string &bytes, bool visualize, bool *partial)
{
    QString out;
    bool any_hex = false;
    const std::string_view view(bytes);
    std::size_t i = 0;
    while (i < view.size()) {
        const Utf8Char c = decodeUtf8At(view, i);
        if (c.codepoint == kInvalidCodepoint) {
            std::size_t j = i + 1;
            while (j < view.size() && decodeUtf8At(view, j).codepoint == kInvalidCodepoint)
                ++j;
            out += hexGroup(bytes, i, j);
            any_hex = true;
            i = j;
            continue;
        }
        const char32_t cp = c.codepoint;
        if (visualize && cp == U' ')
            out += QChar(0x00B7);
        else if (visualize && cp == U'\n')
            out += QString(QChar(0x21B5)) + QLatin1Char('\n');
        else if (visualize && cp == U'\t')
            out += QChar(0x2192);
        else if (visualize && cp == U'\r')
            out += QStringLiteral("\\r");
        else
            out += QString::fromUcs4(&cp, 1);
        i += c.length;
    }
    if (partial)
        *partial = any_hex;
    return out;
}

QSize TokenSpanView::sizeHint() const
{
    return {QTextEdit::sizeHint().width(), minimumHeight()};
}

void TokenSpanView::setTokens(std::vector<TokenSpan> tokens)
{
    tokens_ = std::move(tokens);
    rebuild();
}

void TokenSpanView::setShowWhitespace(bool show)
{
    if (show == show_whitespace_)
        return;
    show_whitespace_ = show;
    rebuild();
}

QString TokenSpanView::label(std::size_t i) const
{
    return i < tokens_.size() ? displayBytes(tokens_[i].bytes, show_whitespace_) : QString();
}

bool TokenSpanView::isPartial(std::size_t i) const
{
    bool partial = false;
    if (i < tokens_.size())
        displayBytes(tokens_[i].bytes, false, &partial);
    return partial;
}

int TokenSpanView::tokenAtPosition(int position) const
{
    const auto it = std::upper_bound(starts_.begin(), starts_.end(), position);
    if (it == starts_.begin())
        return -1;
    const auto index = static_cast<std::size_t>(it - starts_.begin()) - 1;
    return position < ends_[index] ? static_cast<int>(index) : -1;
}

void TokenSpanView::rebuild()
{
    // Inserting moves the view's own cursor to the end, and the view would scroll to show it; a
    // retokenize on every keystroke should leave the reader where they were.
    const int scroll = verticalScrollBar()->value();
    clear();
    starts_.clear();
    ends_.clear();
    starts_.reserve(tokens_.size());
    ends_.reserve(tokens_.size());
    QTextCursor cursor(document());
    cursor.beginEditBlock();
    const QColor text_color(0x20, 0x20, 0x20);
    for (std::size_t i = 0; i < tokens_.size(); ++i) {
        const TokenSpan &token = tokens_[i];
        bool partial = false;
        const QString text = displayBytes(token.bytes, show_whitespace_, &partial);
        QTextCharFormat format;
        format.setForeground(text_color);
        if (token.special) {
            format.setBackground(QColor(0x90, 0xa4, 0xae));
            format.setFontWeight(QFont::Bold);
        } else {
            format.setBackground(kPastels[i % std::size(kPastels)]);
        }
        if (partial) {
            // Bytes of a character split across tokens: hex, italic, dark red on a hatched ground.
            format.setForeground(QColor(0x8e, 0x24, 0x24));
            format.setFontItalic(true);
            format.setFontUnderline(true);
            format.setUnderlineStyle(QTextCharFormat::DotLine);
        }
        starts_.push_back(cursor.position());
        cursor.insertText(text, format);
        ends_.push_back(cursor.position());
    }
    cursor.endEditBlock();
    moveCursor(QTextCursor::Start);
    verticalScrollBar()->setValue(scroll);
}

bool TokenSpanView::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        // cursorForPosition returns the nearest gap between characters: the character under the
        // mouse is the one after that gap, or the one before it when the mouse is left of the gap.
        QTextCursor cursor = cursorForPosition(help->pos());
        int position = cursor.position();
        if (help->pos().x() < cursorRect(cursor).x())
            --position;
        const int found = tokenAtPosition(position);
        if (found >= 0)
            QToolTip::showText(help->globalPos(), tokens_[static_cast<std::size_t>(found)].tooltip, viewport());
        else
            QToolTip::hideText();
        return true;
    }
    return QTextEdit::viewportEvent(event);
}

}  // namespace lse::gui
