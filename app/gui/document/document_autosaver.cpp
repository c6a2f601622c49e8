// SPDX-License-Identifier: GPL-3.0-or-later
#include "document/document_autosaver.h"

#include "document/scenario_document.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QTimer>
#include <QUndoStack>

#include <algorithm>

namespace lse::gui {

DocumentAutosaver::DocumentAutosaver(ScenarioDocument *document, const QString &directory, QObject *parent)
    : QObject(parent), document_(document), slot_(directory), timer_(new QTimer(this))
{
    timer_->setInterval(kDefaultIntervalMs);
    connect(timer_, &QTimer::timeout, this, [this] {
        if (changed_since_autosave_)
            saveNow();
    });
    timer_->start();
    connect(document_->undoStack(), &QUndoStack::indexChanged, this, &DocumentAutosaver::onUndoStackChanged);
    connect(document_->undoStack(), &QUndoStack::cleanChanged, this, &DocumentAutosaver::onCleanChanged);
    // A document modified before autosave began (a recovered one) is written at the next tick.
    changed_since_autosave_ = document_->isModified();
}

DocumentAutosaver::~DocumentAutosaver() = default;

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
    if (!clean)
        return;
    slot_.remove();
    changed_since_autosave_ = false;
    edits_since_autosave_ = 0;
}

bool DocumentAutosaver::saveNow()
{
    edits_since_autosave_ = 0;
    changed_since_autosave_ = false;
    if (!document_->isModified())
        return true;
    AutosaveRecord record;
    record.document_path = document_->filePath();
    record.saved_at_utc = QDateTime::currentDateTimeUtc();
    record.app_version = QCoreApplication::applicationVersion();
    record.pid = QCoreApplication::applicationPid();
    record.scenario = document_->scenario();
    QString error;
    if (!slot_.write(record, &error)) {
        changed_since_autosave_ = true;  // try again at the next tick
        if (!failure_reported_)
            emit autosaveFailed(error);
        failure_reported_ = true;
        return false;
    }
    failure_reported_ = false;
    ++autosaves_written_;
    emit autosaved(slot_.filePath());
    return true;
}

void DocumentAutosaver::discard()
{
    slot_.remove();
    changed_since_autosave_ = false;
    edits_since_autosave_ = 0;
}

}  // namespace lse::gui
