// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QDialog>
#include <QList>
#include <QString>

class QComboBox;
class QTableWidget;

namespace lse::gui {

// Lists the autosaves left by instances that ended without a clean quit and lets the user choose,
// per autosave, Recover (open it as an unsaved document), Discard (delete it) or Later (keep it
// for the next start). Closing the dialog means Later for all: nothing is deleted unasked.
// An autosave that cannot be read shows why and offers Discard or Later only.
class RecoveryDialog : public QDialog {
    Q_OBJECT
public:
    enum class Choice { Recover, Discard, Later };
    struct Entry {
        QString document_path;  // empty: an untitled document
        QDateTime saved_at_utc;
        QString error;  // non-empty: the file is unreadable and says why
    };

    explicit RecoveryDialog(const QList<Entry> &entries, QWidget *parent = nullptr);

    Choice choice(int row) const;
    void setChoice(int row, Choice choice);
    // The per-row choices when accepted; Later for every row when rejected.
    QList<Choice> choices() const;
    int rowCount() const;

private:
    QComboBox *choiceBox(int row) const;

    QTableWidget *table_;
    QList<QComboBox *> boxes_;
};

}  // namespace lse::gui
