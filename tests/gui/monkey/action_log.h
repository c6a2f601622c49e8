// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>
#include <QtGlobal>

namespace lse::monkey {

// The last actions of a monkey run, so a failure can be read and replayed: the seed, the index of
// the action that failed and what the actions before it did. Also printed when the process dies
// (a crash signal or a sanitizer report), where the test's own failure message never comes.
class ActionLog {
public:
    static constexpr int kKeptActions = 20;

    ActionLog(quint32 seed, int action_count);
    ~ActionLog();
    ActionLog(const ActionLog &) = delete;
    ActionLog &operator=(const ActionLog &) = delete;

    void begin(int index, const QString &description);
    // Adds detail to the current action ("-> 3 problems", "closed a modal dialog").
    void note(const QString &detail);
    // "seed 20261202, action 41 of 300; last 20 actions: ..." — what a failure prints.
    QString report() const;

private:
    quint32 seed_;
    int action_count_;
    int current_index_ = -1;
    QStringList recent_;
};

}  // namespace lse::monkey
