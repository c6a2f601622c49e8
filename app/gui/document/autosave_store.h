// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "document/autosave_record.h"

#include <QCoreApplication>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

class QLockFile;

namespace lse::gui {

// Where autosaves live: $LSE_AUTOSAVE_DIR when set (tests, scripts), else
// <QStandardPaths::AppLocalDataLocation>/autosave (~/.local/share/LLM Systems Explorer/llm-explorer/autosave).
QString autosaveDirectory();

// One running instance's autosave: "<dir>/autosave-<pid>-<start ms>-<n>.json" beside the lock
// "<same name>.lock" (QLockFile), held from the first write for as long as the instance lives. The
// pid and start time make the name unique across windows, instances and reused pids; the lock is
// how another instance tells a live owner from a dead one (the kernel drops it when the process
// dies, and QLockFile recognises a lock whose pid is gone as stale).
class AutosaveSlot {
    Q_DECLARE_TR_FUNCTIONS(lse::gui::AutosaveSlot)
public:
    explicit AutosaveSlot(QString directory);
    // Releases the lock and keeps the autosave: only remove() deletes it, so a window destroyed
    // without a clean close still leaves the work for the next start.
    ~AutosaveSlot();
    AutosaveSlot(const AutosaveSlot &) = delete;
    AutosaveSlot &operator=(const AutosaveSlot &) = delete;

    // Replaces the autosave with `record` as a whole (temporary file, every write and the flush
    // checked, then renamed: common/file_writer.h); false with *error naming the file on failure,
    // the previous autosave left as it was.
    bool write(const AutosaveRecord &record, QString *error);
    // Deletes the autosave and its lock (a clean close, a saved or discarded document).
    void remove();
    QString directory() const { return directory_; }
    // The autosave's path; empty until the first write.
    QString filePath() const { return file_path_; }

private:
    bool claimName(QString *error);

    QString directory_;
    QString file_path_;
    std::unique_ptr<QLockFile> lock_;
};

// An autosave whose instance is no longer running, claimed by this instance (its lock held) so
// that two instances starting together do not both offer it.
struct OrphanAutosave {
    QString file_path;
    std::optional<AutosaveRecord> record;  // nullopt when the file cannot be read
    QString error;                         // then: the file and the rule it breaks
    std::shared_ptr<QLockFile> claim;
};

// Every autosave in `directory` left by an instance that is gone, oldest first. Autosaves of
// running instances are skipped; locks and half-written temporaries left without an autosave
// are cleaned up.
std::vector<OrphanAutosave> claimOrphanAutosaves(const QString &directory);
// Deletes the orphan's file and releases the claim (Discard, or after Recover).
void discardOrphan(OrphanAutosave &orphan);
// Keeps the file for the next start and releases the claim (Later).
void releaseOrphan(OrphanAutosave &orphan);

}  // namespace lse::gui
