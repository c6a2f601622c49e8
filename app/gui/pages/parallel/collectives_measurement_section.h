// SPDX-License-Identifier: GPL-3.0-or-later
// "Measure on this machine" on the Collectives page (issue 19): runs the ping-pong + ring
// all-reduce sweep of `llm-explorer-cli links --json` in mpiexec worker processes for the page's
// rank count (DistributedRunProcess: progress, Cancel, the CLI's messages), and plots the measured
// all-reduce times beside the α-β line of the page's link and the line fitted to this machine. The
// CLI saves the fit with saveLinkProfile, so `train --dp N` predicts with it; the saved profile
// for the rank count is shown when the page opens.
#pragma once

#include "distributed/link_profile.h"
#include "parallel/collectives.h"

#include <QList>
#include <QString>
#include <QWidget>

#include <optional>

class QLabel;
class QProgressBar;
class QPushButton;

namespace lse::gui {

class ChartView;
class DistributedRunProcess;
struct ChartData;

class CollectivesMeasurementSection : public QWidget {
    Q_OBJECT
public:
    explicit CollectivesMeasurementSection(QWidget *parent = nullptr);

    // The page's rank count and selected link: the model line uses `link`; a saved profile for
    // `ranks` (this machine's cache) is loaded and shown when the rank count changes.
    void setContext(int ranks, const parallel::LinkModel &link, const QString &link_name);
    // The programs the measurement starts (default: mpiexec/mpirun on PATH, the CLI beside the
    // app); an empty path is reported when Measure is pressed.
    void setLaunchers(const QString &mpiexec, const QString &cli);
    // Message sizes of the sweep in bytes (`links --sizes`); empty: the CLI's default 4 B–4 MiB.
    void setSweepBytes(const QList<qint64> &bytes);

    void start();
    void cancel();
    bool isRunning() const;

    ChartView *chart() const;
    // The profile shown: the one saved for the current rank count, or nothing.
    const std::optional<distributed::LinkProfile> &profile() const;
    // The line under the buttons: the saved profile and its date, progress, or what went wrong.
    QString statusText() const;

signals:
    void progress(int done, int total);
    // ok: the sweep finished and its profile was saved and is now shown.
    void measurementFinished(bool ok);

protected:
    void changeEvent(QEvent *event) override;

private:
    void onFinished(int outcome);
    void loadSavedProfile();
    void refresh();
    ChartData chartData() const;
    QString profileText() const;

    QLabel *title_;
    QPushButton *measure_button_;
    QPushButton *cancel_button_;
    QProgressBar *progress_bar_;
    QLabel *status_label_;
    ChartView *chart_;
    DistributedRunProcess *process_;

    QString mpiexec_;
    QString cli_;
    QList<qint64> sweep_bytes_;
    int ranks_ = 0;
    int running_ranks_ = 0;
    parallel::LinkModel link_;
    QString link_name_;
    std::optional<distributed::LinkProfile> profile_;
    QString message_;  // the last run's outcome; empty: show the saved profile
};

}  // namespace lse::gui
