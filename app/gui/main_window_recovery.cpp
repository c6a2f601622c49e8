// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's autosave and crash recovery: offering back the autosaves of instances that ended
// without a clean quit (docs/user-guide-autosave.md).
#include "main_window.h"

#include "document/autosave_store.h"
#include "document/document_autosaver.h"
#include "document/recovery_dialog.h"
#include "document/scenario_document.h"

#include <QFileInfo>
#include <QMessageBox>
#include <QStatusBar>

namespace lse::gui {

void MainWindow::enableAutosave(const QString &directory)
{
    if (autosaver_)
        return;
    autosaver_ = new DocumentAutosaver(document_, directory, this);
    connect(autosaver_, &DocumentAutosaver::autosaveFailed, this, [this](const QString &message) {
        statusBar()->showMessage(tr("Autosave failed: %1").arg(message), 8000);
    });
}

QList<MainWindow *> MainWindow::recoveryWindows() const
{
    QList<MainWindow *> windows;
    for (const QPointer<MainWindow> &window : recovery_windows_)
        if (window)
            windows.append(window);
    return windows;
}

int MainWindow::offerRecovery(RecoveryMode mode, bool into_this_window)
{
    if (!autosaver_)
        return 0;
    std::vector<OrphanAutosave> orphans = claimOrphanAutosaves(autosaver_->directory());
    if (orphans.empty())
        return 0;
    QStringList files;
    QList<RecoveryDialog::Entry> entries;
    for (const OrphanAutosave &orphan : orphans) {
        files.append(orphan.file_path);
        entries.append({orphan.record ? orphan.record->document_path : QString(),
                        orphan.record ? orphan.record->saved_at_utc : QFileInfo(orphan.file_path).lastModified().toUTC(),
                        orphan.error});
        if (!orphan.record)
            emit recoveryProblem(orphan.error);
    }
    emit recoveryOffered(files);

    QList<RecoveryDialog::Choice> choices;
    if (mode == RecoveryMode::Ask) {
        RecoveryDialog dialog(entries, this);
        dialog.exec();
        choices = dialog.choices();
    } else {
        for (const OrphanAutosave &orphan : orphans)
            choices.append(orphan.record ? RecoveryDialog::Choice::Recover : RecoveryDialog::Choice::Later);
    }

    int recovered = 0;
    bool this_window_free = into_this_window && !document_->isModified();
    for (std::size_t index = 0; index < orphans.size(); ++index) {
        OrphanAutosave &orphan = orphans[index];
        const RecoveryDialog::Choice choice = choices.value(int(index), RecoveryDialog::Choice::Later);
        if (choice == RecoveryDialog::Choice::Discard) {
            discardOrphan(orphan);
            continue;
        }
        if (choice != RecoveryDialog::Choice::Recover || !orphan.record) {
            releaseOrphan(orphan);
            continue;
        }
        MainWindow *target = this;
        if (!this_window_free) {
            target = new MainWindow(use_settings_);
            target->setAttribute(Qt::WA_DeleteOnClose);
            target->enableAutosave(autosaver_->directory());
            recovery_windows_.append(target);
        }
        this_window_free = false;
        target->endLesson();
        target->document_->recover(orphan.record->scenario, orphan.record->document_path);
        // The recovered work is in this instance's own autosave before the old one goes, so a
        // crash right now still leaves a copy.
        target->autosaver_->saveNow();
        if (target->autosaver_->waitForWrites())
            discardOrphan(orphan);
        else
            releaseOrphan(orphan);
        if (target != this && isVisible())
            target->show();
        ++recovered;
    }
    if (recovered > 0)
        statusBar()->showMessage(tr("Recovered %n document(s) from autosave", nullptr, recovered), 8000);
    return recovered;
}

bool MainWindow::confirmSaveOverRecovered(const QString &path)
{
    if (!document_->isRecovered() || QFileInfo(path).absoluteFilePath() != document_->filePath()
        || !QFileInfo::exists(path))
        return true;
    return QMessageBox::question(this, tr("Save Recovered Document"),
                                 tr("This document was recovered from an autosave. Replace %1 with it?")
                                     .arg(QFileInfo(path).fileName()),
                                 QMessageBox::Save | QMessageBox::Cancel, QMessageBox::Save)
        == QMessageBox::Save;
}

}  // namespace lse::gui
