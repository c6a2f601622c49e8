// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QStringList>

class QTimer;

namespace lse::monkey {

// The safety net that keeps a monkey run from hanging on a modal dialog (a page button's file
// dialog, a message box): every few milliseconds, including inside the dialog's own event loop, it
// rejects the active modal widget and any open popup menu, and counts them. Progress dialogs are
// left alone: the code that opened them drives them and closes them itself (export all pages).
class ModalCloser : public QObject {
    Q_OBJECT
public:
    explicit ModalCloser(QObject *parent = nullptr);

    int closedCount() const { return int(closed_.size()); }
    // Class and title of each closed widget, in order (for the run's summary).
    const QStringList &closed() const { return closed_; }

private:
    void closeModal();

    QTimer *timer_;
    QStringList closed_;
};

}  // namespace lse::monkey
