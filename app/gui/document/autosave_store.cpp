// SPDX-License-Identifier: GPL-3.0-or-later
#include "document/autosave_store.h"

#include "common/file_writer.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QStandardPaths>

#include <algorithm>
#include <atomic>

namespace lse::gui {

namespace {

constexpr char kPrefix[] = "autosave-";
constexpr char kAutosaveSuffix[] = ".json";
constexpr char kLockSuffix[] = ".lock";
// An autosave is a scenario of a few kilobytes; a file this large is not one, and is not read.
constexpr qint64 kMaxAutosaveBytes = 16 * 1024 * 1024;

// When this process started, so a later process that gets the same pid gets another name.
const qint64 kProcessStartMs = QDateTime::currentMSecsSinceEpoch();

// A lock whose owner is gone is stale whatever its age; a live owner's lock never is (QLockFile's
// default also calls a 30-second-old lock stale, which would steal a live instance's autosave).
std::unique_ptr<QLockFile> makeLock(const QString &lock_path)
{
    auto lock = std::make_unique<QLockFile>(lock_path);
    lock->setStaleLockTime(0);
    return lock;
}

QString lockPathOf(const QString &autosave_path)
{
    return autosave_path.left(autosave_path.size() - int(qstrlen(kAutosaveSuffix))) + QLatin1String(kLockSuffix);
}

}  // namespace

QString autosaveDirectory()
{
    const QString overridden = qEnvironmentVariable("LSE_AUTOSAVE_DIR");
    if (!overridden.isEmpty())
        return QDir(overridden).absolutePath();
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation))
        .filePath(QStringLiteral("autosave"));
}

AutosaveSlot::AutosaveSlot(QString directory) : directory_(std::move(directory)) {}

AutosaveSlot::~AutosaveSlot() = default;

bool AutosaveSlot::claimName(QString *error)
{
    if (!QDir().mkpath(directory_)) {
        if (error)
            *error = tr("cannot create the autosave folder %1").arg(directory_);
        return false;
    }
    static std::atomic<int> next_slot{0};
    const QDir directory(directory_);
    for (int attempt = 0; attempt < 100; ++attempt) {
        const QString base = QStringLiteral("%1%2-%3-%4")
                                 .arg(QLatin1String(kPrefix))
                                 .arg(QCoreApplication::applicationPid())
                                 .arg(kProcessStartMs)
                                 .arg(++next_slot);
        const QString path = directory.filePath(base + QLatin1String(kAutosaveSuffix));
        if (QFileInfo::exists(path))
            continue;
        auto lock = makeLock(lockPathOf(path));
        if (!lock->tryLock(0))
            continue;
        file_path_ = path;
        lock_ = std::move(lock);
        return true;
    }
    if (error)
        *error = tr("cannot create a lock file in the autosave folder %1").arg(directory_);
    return false;
}

bool AutosaveSlot::write(const AutosaveRecord &record, QString *error)
{
    if (!lock_ && !claimName(error))
        return false;
    const QByteArray bytes = AutosaveFormat::toJson(record);
    const Result<bool> written =
        writeFileReplacing(file_path_.toStdString(), std::string_view(bytes.constData(), std::size_t(bytes.size())));
    if (!written) {
        if (error)
            *error = QString::fromStdString(formatProblems(written.problems())).trimmed();
        return false;
    }
    return true;
}

void AutosaveSlot::remove()
{
    if (!file_path_.isEmpty())
        QFile::remove(file_path_);
    if (lock_)
        lock_->unlock();  // deletes the lock file
    lock_.reset();
    file_path_.clear();
}

std::vector<OrphanAutosave> claimOrphanAutosaves(const QString &directory_path)
{
    const QDir directory(directory_path);
    std::vector<OrphanAutosave> orphans;
    // A lock without its autosave (a crash before the first write finished, or after remove()
    // deleted the file): cleaned up when its owner is gone.
    const QStringList locks = directory.entryList({QLatin1String(kPrefix) + QStringLiteral("*") + QLatin1String(kLockSuffix)},
                                                  QDir::Files | QDir::Hidden);
    for (const QString &lock_name : locks) {
        const QString base = lock_name.left(lock_name.size() - int(qstrlen(kLockSuffix)));
        if (QFileInfo::exists(directory.filePath(base + QLatin1String(kAutosaveSuffix))))
            continue;
        auto lock = makeLock(directory.filePath(lock_name));
        if (lock->tryLock(0))
            lock->unlock();
    }
    const QFileInfoList files = directory.entryInfoList(
        {QLatin1String(kPrefix) + QStringLiteral("*") + QLatin1String(kAutosaveSuffix)}, QDir::Files, QDir::Time | QDir::Reversed);
    for (const QFileInfo &file : files) {
        std::shared_ptr<QLockFile> claim = makeLock(lockPathOf(file.absoluteFilePath()));
        if (!claim->tryLock(0))
            continue;  // its instance is running (or another instance is offering it right now)
        // A write the crash interrupted leaves "<autosave>.json.XXXXXX" beside it.
        for (const QString &temporary : directory.entryList({file.fileName() + QStringLiteral(".??????")}, QDir::Files))
            QFile::remove(directory.filePath(temporary));
        OrphanAutosave orphan;
        orphan.file_path = file.absoluteFilePath();
        orphan.claim = std::move(claim);
        QFile input(orphan.file_path);
        if (file.size() > kMaxAutosaveBytes) {
            orphan.error = AutosaveSlot::tr("%1: larger than %2 MB; an autosave holds one scenario of a few kilobytes")
                               .arg(file.fileName())
                               .arg(kMaxAutosaveBytes / (1024 * 1024));
        } else if (!input.open(QIODevice::ReadOnly)) {
            orphan.error = AutosaveSlot::tr("%1: cannot be read (%2)").arg(file.fileName(), input.errorString());
        } else {
            orphan.record = AutosaveFormat::fromJson(input.readAll(), file.fileName(), &orphan.error);
        }
        orphans.push_back(std::move(orphan));
    }
    return orphans;
}

void discardOrphan(OrphanAutosave &orphan)
{
    QFile::remove(orphan.file_path);
    releaseOrphan(orphan);
}

void releaseOrphan(OrphanAutosave &orphan)
{
    if (orphan.claim)
        orphan.claim->unlock();
    orphan.claim.reset();
}

}  // namespace lse::gui
