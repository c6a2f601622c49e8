// SPDX-License-Identifier: GPL-3.0-or-later
// One mpiexec run of an llm-explorer-cli command whose rank 0 reports progress on stderr
// (`train --dp N --json`: "step k/N" lines; `links --json`: "sweep k/N" lines, see
// setProgressPattern): progress, the JSON on stdout at the end, cancel, and the CLI's error messages.
#pragma once

#include <QByteArray>
#include <QObject>
#include <QProcess>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

class QTimer;

namespace lse::gui {

class DistributedRunProcess : public QObject {
    Q_OBJECT
public:
    enum class Outcome { Finished, Failed, Cancelled };
    Q_ENUM(Outcome)

    explicit DistributedRunProcess(QObject *parent = nullptr);
    ~DistributedRunProcess() override;

    // A line of rank 0's stderr that reports progress: capture 1 = done, capture 2 = total.
    // Default: "step k/N" (train --dp).
    void setProgressPattern(const QRegularExpression &pattern);
    void start(const QString &mpiexec, const QStringList &arguments);
    // Asks mpiexec to stop (SIGTERM, which it forwards to every rank), then kills it if it is still
    // running after a grace period; finished(Cancelled) follows.
    void cancel();
    bool isRunning() const;
    qint64 processId() const;

    QByteArray standardOutput() const { return out_; }
    // stderr without the progress lines: the CLI's and Open MPI's messages.
    QString errorText() const;

signals:
    void progress(int step, int steps);
    void finished(lse::gui::DistributedRunProcess::Outcome outcome);

private:
    void readErrors();
    void onFinished(int exit_code, QProcess::ExitStatus status);

    QRegularExpression progress_pattern_;
    QProcess *process_;
    QTimer *kill_timer_;
    QByteArray out_;
    QByteArray err_pending_;  // an incomplete stderr line
    QStringList messages_;           // the CLI's lines
    QStringList launcher_messages_;  // Open MPI's, between its lines of dashes
    bool in_launcher_block_ = false;
    bool cancelled_ = false;
    bool start_failed_ = false;
};

}  // namespace lse::gui
