// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QProgressDialog>

namespace lse::gui {

// The progress dialog of every long piece of work the app does while the user waits (Export All,
// handouts, slides). Its Cancel button is never the default button: a dialog shown right after a
// file dialog gets the Return that was meant for that one (typing a path and pressing Enter twice
// cancelled Export All, issue 28 item 21). Cancel stays one click, Space on the focused button, or
// Escape away.
class WorkProgressDialog : public QProgressDialog {
    Q_OBJECT
public:
    WorkProgressDialog(const QString &label, int maximum, QWidget *parent);
};

}  // namespace lse::gui
