// SPDX-License-Identifier: GPL-3.0-or-later
// What the GUI does with temporaries a killed run left beside its outputs (core/common/
// stale_temporaries.h): an interactive window offers to remove them in one dialog, naming each
// file and its size; a scripted run (--screenshot, --handout) names them on stderr. Only files the
// program itself made are ever removed, and only when the user says so.
#pragma once

#include "common/stale_temporaries.h"

#include <QObject>
#include <QStringList>

#include <vector>

class QWidget;

namespace lse::gui {

class StaleTemporaryPrompt : public QObject {
    Q_OBJECT
public:
    // Installs itself as core's reporter for the life of the application.
    static void install(bool interactive);

    // The files reported and not yet asked about (for tests).
    const std::vector<StaleTemporary> &pending() const { return pending_; }
    static StaleTemporaryPrompt *instance();

    // Removes `files` (each checked again by removeStaleTemporary); returns the problems, one line each.
    static QStringList removeFiles(const std::vector<StaleTemporary> &files);

Q_SIGNALS:
    void asked(const QStringList &paths);

private:
    explicit StaleTemporaryPrompt(bool interactive);
    void report(const StaleTemporary &stale);
    void ask();

    bool interactive_;
    bool ask_queued_ = false;
    std::vector<StaleTemporary> pending_;
};

}  // namespace lse::gui
