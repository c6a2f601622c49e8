// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "scenario/scenario.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QDateTime>
#include <QString>

#include <optional>

namespace lse::gui {

// One autosave: the open scenario and what recovery needs to say where it came from. Stored as a
// wrapper object around the scenario file's own JSON (docs/user-guide-autosave.md):
//   {"format": "llm-explorer-autosave", "format_version": 1,
//    "document_path": "/home/me/run.json" or "" for an untitled document,
//    "saved_at": "2026-12-02T01:44:29.123Z", "app_version": "1.4.0", "pid": 12345,
//    "scenario": {"format": "llm-explorer-scenario", "version": 1, "model": {...}, ...}}
struct AutosaveRecord {
    QString document_path;  // absolute path of the document's file; empty when untitled
    QDateTime saved_at_utc;
    QString app_version;
    qint64 pid = 0;  // the process that wrote it
    Scenario scenario;
};

// Reads and writes that wrapper; a class only so its messages go through tr().
class AutosaveFormat {
    Q_DECLARE_TR_FUNCTIONS(lse::gui::AutosaveFormat)
public:
    static QByteArray toJson(const AutosaveRecord &record);
    // The record in `json`, or nullopt with *error naming `file_name` and the rule the bytes break
    // ("not valid JSON (unterminated object at offset 12)", "\"format\" must be
    // \"llm-explorer-autosave\"", a scenario field's problem...).
    static std::optional<AutosaveRecord> fromJson(const QByteArray &json, const QString &file_name, QString *error);
};

}  // namespace lse::gui
