// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "document/autosave_store.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>

class QThread;
class QTimer;

namespace lse::gui {

class ScenarioDocument;

// Keeps an autosave of a document with unsaved changes (docs/user-guide-autosave.md): every
// interval when it changed since the last autosave, and right after every `editsPerSave`
// undo-stack changes. When the document becomes unmodified (saved, opened, new, undone back to
// the saved state) the autosave is deleted: there is nothing to recover.
//
// The file work runs on a writer thread of its own, in the order it was asked for: a write ends
// with an fsync, which took 27 ms here (test_crash_recovery's benchAutosaveWrite), more than a
// frame. The GUI thread only copies the scenario.
class DocumentAutosaver : public QObject {
    Q_OBJECT
public:
    static constexpr int kDefaultIntervalMs = 60'000;
    static constexpr int kDefaultEditsPerSave = 20;

    DocumentAutosaver(ScenarioDocument *document, const QString &directory, QObject *parent = nullptr);
    // Finishes the queued file work first (a discard asked for just before must happen).
    ~DocumentAutosaver() override;

    void setIntervalMs(int interval_ms);
    int intervalMs() const;
    void setEditsPerSave(int edits);
    int editsPerSave() const { return edits_per_save_; }

    // Queues a write of the autosave when the document is modified.
    void saveNow();
    // Deletes this instance's autosave and lock: a clean close, or a document deliberately discarded.
    void discard();
    // Blocks until the queued file work is done and its results are in (filePath(),
    // autosavesWritten(), the signals); true when the last write succeeded or none was asked for.
    bool waitForWrites();
    QString directory() const { return directory_; }
    // The autosave's path after a completed write; empty before one and after discard().
    QString filePath() const { return file_path_; }
    int autosavesWritten() const { return autosaves_written_; }

signals:
    void autosaved(const QString &path);
    // A write failed: `message` names the file and the system's reason. Said once until a write
    // succeeds again, so a full disk does not repeat it every minute.
    void autosaveFailed(const QString &message);

private:
    void onUndoStackChanged();
    void onCleanChanged(bool clean);
    // Runs `job` on the writer thread after every job posted before it.
    void post(std::function<void()> job);
    void finishWrite(int generation, bool ok, const QString &path, const QString &error);

    ScenarioDocument *document_;
    QString directory_;
    std::unique_ptr<AutosaveSlot> slot_;  // used on the writer thread only
    QThread *thread_;
    QObject *writer_;  // lives on thread_: the context the jobs run in
    QTimer *timer_;
    int edits_per_save_ = kDefaultEditsPerSave;
    int edits_since_autosave_ = 0;
    bool changed_since_autosave_ = false;
    bool failure_reported_ = false;
    bool last_write_ok_ = true;
    int autosaves_written_ = 0;
    // Raised by discard(): a write queued before it reports no path afterwards.
    int generation_ = 0;
    QString file_path_;
};

}  // namespace lse::gui
