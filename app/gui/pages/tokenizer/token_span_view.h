// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QTextEdit>

#include <cstdint>
#include <string>
#include <vector>

namespace lse::gui {

// One token as the span view shows it: its bytes, id (-1 when the tokenizer has no fixed ids),
// whether it is a special token, and the tooltip text (rich text).
struct TokenSpan {
    std::string bytes;
    std::int64_t id = -1;
    bool special = false;
    QString tooltip;
};

// Read-only text view that shows tokens as spans with alternating pastel backgrounds. Bytes that
// are not complete UTF-8 characters (a CJK character split across tokens) are shown as hex
// "<e4 bd>" in a distinct style instead of replacement characters. Hovering a token shows its
// tooltip.
class TokenSpanView : public QTextEdit {
    Q_OBJECT
public:
    explicit TokenSpanView(QWidget *parent = nullptr);

    void setTokens(std::vector<TokenSpan> tokens);
    void setShowWhitespace(bool show);
    bool showWhitespace() const { return show_whitespace_; }

    const std::vector<TokenSpan> &tokens() const { return tokens_; }
    // The text shown for token i (as in the view).
    QString label(std::size_t i) const;
    // Whether token i holds bytes that are not whole UTF-8 characters.
    bool isPartial(std::size_t i) const;
    // Index of the token at a document position, or -1.
    int tokenAtPosition(int position) const;

    // Display text of raw bytes: valid UTF-8 as text, other bytes grouped as "<e4 bd>"; with
    // `visualize`, spaces become '·', newlines '↵' and tabs '→'. `partial` is set when any byte
    // was shown as hex.
    static QString displayBytes(const std::string &bytes, bool visualize, bool *partial = nullptr);

    // The minimum height: QTextEdit asks for more, which pushes tokenizer B's view below the
    // fold; the views scroll, and the layout gives them any spare height.
    QSize sizeHint() const override;

protected:
    bool viewportEvent(QEvent *event) override;

private:
    void rebuild();

    std::vector<TokenSpan> tokens_;
    std::vector<int> starts_;  // document position where each token starts
    std::vector<int> ends_;
    bool show_whitespace_ = false;
};

}  // namespace lse::gui
