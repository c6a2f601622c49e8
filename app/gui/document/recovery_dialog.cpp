// SPDX-License-Identifier: GPL-3.0-or-later
#include "document/recovery_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace lse::gui {

namespace {

enum Column { kDocument, kSavedAt, kState, kAction, kColumnCount };

}  // namespace

RecoveryDialog::RecoveryDialog(const QList<Entry> &entries, QWidget *parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("RecoveryDialog"));
    setWindowTitle(tr("Recover Unsaved Work"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("LLM Systems Explorer did not quit cleanly last time. %n document(s) with unsaved "
                                "changes were autosaved:",
                                nullptr, int(entries.size())));
    intro->setWordWrap(true);
    layout->addWidget(intro);

    table_ = new QTableWidget(int(entries.size()), kColumnCount);
    table_->setHorizontalHeaderLabels({tr("Document"), tr("Autosaved"), tr("State"), tr("Action")});
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    for (int row = 0; row < entries.size(); ++row) {
        const Entry &entry = entries.at(row);
        // An unreadable autosave does not say which document it was.
        const QString document_name = !entry.error.isEmpty()           ? tr("Unknown")
                                      : entry.document_path.isEmpty() ? tr("Untitled")
                                                                      : QFileInfo(entry.document_path).fileName();
        auto *name = new QTableWidgetItem(document_name);
        name->setToolTip(entry.document_path);
        table_->setItem(row, kDocument, name);
        table_->setItem(row, kSavedAt,
                        new QTableWidgetItem(entry.saved_at_utc.isValid()
                                                 ? QLocale().toString(entry.saved_at_utc.toLocalTime(), QLocale::ShortFormat)
                                                 : QString()));
        auto *state = new QTableWidgetItem(entry.error.isEmpty() ? tr("Unsaved changes") : tr("Unreadable: %1").arg(entry.error));
        state->setToolTip(entry.error);
        table_->setItem(row, kState, state);
        auto *box = new QComboBox;
        box->setObjectName(QStringLiteral("recoveryChoice%1").arg(row));
        if (entry.error.isEmpty())
            box->addItem(tr("Recover"), int(Choice::Recover));
        box->addItem(tr("Discard"), int(Choice::Discard));
        box->addItem(tr("Later"), int(Choice::Later));
        // Unreadable files default to Later: the user may want to look at them first.
        if (!entry.error.isEmpty())
            box->setCurrentIndex(box->findData(int(Choice::Later)));
        table_->setCellWidget(row, kAction, box);
        boxes_.append(box);
    }
    table_->horizontalHeader()->setSectionResizeMode(kState, QHeaderView::Stretch);
    table_->resizeColumnsToContents();
    layout->addWidget(table_);

    auto *buttons = new QDialogButtonBox;
    buttons->addButton(tr("Apply"), QDialogButtonBox::AcceptRole);
    buttons->addButton(tr("Decide Later"), QDialogButtonBox::RejectRole);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(720, 320);
}

QComboBox *RecoveryDialog::choiceBox(int row) const
{
    return row >= 0 && row < boxes_.size() ? boxes_.at(row) : nullptr;
}

int RecoveryDialog::rowCount() const { return int(boxes_.size()); }

RecoveryDialog::Choice RecoveryDialog::choice(int row) const
{
    const QComboBox *box = choiceBox(row);
    return box ? Choice(box->currentData().toInt()) : Choice::Later;
}

void RecoveryDialog::setChoice(int row, Choice choice)
{
    if (QComboBox *box = choiceBox(row)) {
        const int index = box->findData(int(choice));
        if (index >= 0)
            box->setCurrentIndex(index);
    }
}

QList<RecoveryDialog::Choice> RecoveryDialog::choices() const
{
    const bool accepted = result() == QDialog::Accepted;
    QList<Choice> chosen;
    for (int row = 0; row < rowCount(); ++row)
        chosen.append(accepted ? choice(row) : Choice::Later);
    return chosen;
}

}  // namespace lse::gui
