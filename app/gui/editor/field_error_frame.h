// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

namespace lse::gui {

// A red frame drawn over an editor field the engine rejected. It is a transparent child on top of
// the field instead of a change to the field's font, palette or style sheet, so the field keeps
// following the application's font (presentation mode, zoom) and theme, and keeps its native look
// (spin and combo arrows).
class FieldErrorFrame : public QWidget {
    Q_OBJECT
public:
    // Shows or hides the frame of `field` (created on first use) and sets its "invalid" property.
    static void mark(QWidget *field, bool invalid);
    static bool isMarked(const QWidget *field);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;

private:
    explicit FieldErrorFrame(QWidget *field);
};

}  // namespace lse::gui
