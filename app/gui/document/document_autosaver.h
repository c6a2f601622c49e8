// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "document/autosave_store.h"

#include <QObject>
#include <QString>

class QTimer;

namespace lse::gui {

class ScenarioDocument;

// Keeps an autosave of a document with unsaved changes (docs/user-guide-autosave.md): every
// interval when it changed since the last autosave, and at once after every `editsPerSave`
// undo-stack changes. When the document becomes unmodified (saved, opened, new, undone back to
// the saved state) the autosave is deleted: there is nothing to recover.
class DocumentAutosaver : public QObject {
    Q_OBJECT
public:
    static constexpr int kDefaultIntervalMs = 60'000;
    static constexpr int kDefaultEditsPerSave = 20;

    DocumentAutosaver(ScenarioDocument *document, const QString &directory, QObject *parent = nullptr);
    ~DocumentAutosaver() override;

    void setIntervalMs(int interval_ms);
    int intervalMs() const;
    void setEditsPerSave(int edits);
    int editsPerSave() const { return edits_per_save_; }

    // Writes the autosave now when the document is modified; true when it was written (or there
    // was nothing to write). Cheap: the scenario is a few kilobytes (bench: test_crash_recovery
    // prints the time of one write).
    bool saveNow();
    // Deletes this instance's autosave and lock: a clean close, or a document deliberately discarded.
    void discard();
    QString filePath() const { return slot_.filePath(); }
    QString directory() const { return slot_.directory(); }
    int autosavesWritten() const { return autosaves_written_; }

signals:
    void autosaved(const QString &path);
    // A write failed: `message` names the file and the system's reason. Said once until a write
    // succeeds again, so a full disk does not repeat it every minute.
    void autosaveFailed(const QString &message);

private:
    void onUndoStackChanged();
    void onCleanChanged(bool clean);

    ScenarioDocument *document_;
    AutosaveSlot slot_;
    QTimer *timer_;
    int edits_per_save_ = kDefaultEditsPerSave;
    int edits_since_autosave_ = 0;
    bool changed_since_autosave_ = false;
    bool failure_reported_ = false;
    int autosaves_written_ = 0;
};

}  // namespace lse::gui
