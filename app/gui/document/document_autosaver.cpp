// SPDX-License-Identifier: GPL-3.0-or-later
#include "document/document_autosaver.h"

#include "document/scenario_document.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QThread>
#include <QTimer>
#include <QUndoStack>

#include <algorithm>

namespace lse::gui {

DocumentAutosaver::DocumentAutosaver(ScenarioDocument *document, const QString &directory, QObject *parent)
    : QObject(parent), document_(document), directory_(directory),
      slot_(std::make_unique<AutosaveSlot>(directory)), thread_(new QThread(this)), writer_(new QObject),
      timer_(new QTimer(this))
{
    thread_->setObjectName(QStringLiteral("autosave writer"));
    writer_->moveToThread(thread_);
    connect(thread_, &QThread::finished, writer_, &QObject::deleteLater);
    thread_->start();
    timer_->setInterval(kDefaultIntervalMs);
    connect(timer_, &QTimer::timeout, this, [this] {
        if (changed_since_autosave_)
            saveNow();
    });
    timer_->start();
    const QMetaObject::Connection index_changed =
        connect(document_->undoStack(), &QUndoStack::indexChanged, this, &DocumentAutosaver::onUndoStackChanged);
    const QMetaObject::Connection clean_changed =
        connect(document_->undoStack(), &QUndoStack::cleanChanged, this, &DocumentAutosaver::onCleanChanged);
    // The document goes first when its window is destroyed, and its undo stack is cleared as it
    // goes: that must neither read the half-destroyed document nor count as "saved", which would
    // delete the autosave that only a clean close may delete.
    connect(document_, &QObject::destroyed, this, [this, index_changed, clean_changed] {
        disconnect(index_changed);
        disconnect(clean_changed);
        document_ = nullptr;
        timer_->stop();
    });
    // A document modified before autosave began (a recovered one) is written at the next tick.
    changed_since_autosave_ = document_->isModified();
}

DocumentAutosaver::~DocumentAutosaver()
{
    waitForWrites();
    thread_->quit();
    thread_->wait();
}

void DocumentAutosaver::post(std::function<void()> job)
{
    QMetaObject::invokeMethod(writer_, std::move(job), Qt::QueuedConnection);
}

void DocumentAutosaver::setIntervalMs(int interval_ms) { timer_->setInterval(std::max(1, interval_ms)); }

int DocumentAutosaver::intervalMs() const { return timer_->interval(); }

void DocumentAutosaver::setEditsPerSave(int edits) { edits_per_save_ = std::max(1, edits); }

void DocumentAutosaver::onUndoStackChanged()
{
    changed_since_autosave_ = true;
    if (++edits_since_autosave_ >= edits_per_save_)
        saveNow();
}

void DocumentAutosaver::onCleanChanged(bool clean)
{
    if (clean)
        discard();
}

void DocumentAutosaver::saveNow()
{
    edits_since_autosave_ = 0;
    changed_since_autosave_ = false;
    if (!document_ || !document_->isModified())
        return;
    AutosaveRecord record;
    record.document_path = document_->filePath();
    record.saved_at_utc = QDateTime::currentDateTimeUtc();
    record.app_version = QCoreApplication::applicationVersion();
    record.pid = QCoreApplication::applicationPid();
    record.scenario = document_->scenario();
    AutosaveSlot *slot = slot_.get();
    const int generation = generation_;
    post([this, slot, record = std::move(record), generation] {
        QString error;
        const bool ok = slot->write(record, &error);
        QMetaObject::invokeMethod(
            this, [this, generation, ok, path = slot->filePath(), error] { finishWrite(generation, ok, path, error); },
            Qt::QueuedConnection);
    });
}

void DocumentAutosaver::finishWrite(int generation, bool ok, const QString &path, const QString &error)
{
    last_write_ok_ = ok;
    if (!ok) {
        changed_since_autosave_ = true;  // try again at the next tick
        if (!failure_reported_)
            emit autosaveFailed(error);
        failure_reported_ = true;
        return;
    }
    failure_reported_ = false;
    ++autosaves_written_;
    if (generation != generation_)
        return;  // discarded since: the file is gone again
    file_path_ = path;
    emit autosaved(path);
}

void DocumentAutosaver::discard()
{
    ++generation_;
    file_path_.clear();
    changed_since_autosave_ = false;
    edits_since_autosave_ = 0;
    AutosaveSlot *slot = slot_.get();
    post([slot] { slot->remove(); });
}

bool DocumentAutosaver::waitForWrites()
{
    if (!thread_->isRunning())
        return last_write_ok_;
    // The writer runs jobs in order, so an empty job returning means every earlier one is done;
    // their results were posted to this thread and are delivered here.
    QMetaObject::invokeMethod(writer_, [] {}, Qt::BlockingQueuedConnection);
    QCoreApplication::sendPostedEvents(this, QEvent::MetaCall);
    return last_write_ok_;
}

}  // namespace lse::gui
