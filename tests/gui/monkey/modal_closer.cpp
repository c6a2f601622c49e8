// SPDX-License-Identifier: GPL-3.0-or-later
#include "monkey/modal_closer.h"

#include <QApplication>
#include <QDialog>
#include <QMenu>
#include <QProgressDialog>
#include <QTimer>

namespace lse::monkey {

namespace {
// Short enough that a run with dozens of dialogs loses little time, long enough that the dialog
// has been shown (and its exec() loop entered) before it is closed.
constexpr int kPollIntervalMs = 25;
}  // namespace

ModalCloser::ModalCloser(QObject *parent) : QObject(parent), timer_(new QTimer(this))
{
    timer_->setInterval(kPollIntervalMs);
    connect(timer_, &QTimer::timeout, this, &ModalCloser::closeModal);
    timer_->start();
}

void ModalCloser::closeModal()
{
    if (QWidget *popup = QApplication::activePopupWidget()) {
        closed_.append(QStringLiteral("%1 popup").arg(QString::fromLatin1(popup->metaObject()->className())));
        popup->close();
    }
    QWidget *modal = QApplication::activeModalWidget();
    if (!modal || qobject_cast<QProgressDialog *>(modal))
        return;
    closed_.append(QStringLiteral("%1 '%2'").arg(QString::fromLatin1(modal->metaObject()->className()),
                                                 modal->windowTitle()));
    if (auto *dialog = qobject_cast<QDialog *>(modal))
        dialog->reject();
    else
        modal->close();
}

}  // namespace lse::monkey
