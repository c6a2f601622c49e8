// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_data.h"
#include "distributed/pipeline_run_json.h"

#include <QWidget>

#include <optional>

class QLabel;
class QPushButton;

namespace lse::gui {

class ChartView;

// The Pipeline page's measured counterpart (issue 33): a run of `train --pp P --json` loaded from its
// JSON, drawn as a Gantt chart of every rank's forward and backward passes of the run's last step on
// the common clock, with the measured bubble beside (p − 1)/(m + p − 1). The page sets its own
// simulation to the run's schedule, p and m when a run is loaded (runLoaded).
class PipelineMeasuredPanel : public QWidget {
    Q_OBJECT
public:
    explicit PipelineMeasuredPanel(QWidget *parent = nullptr);

    // Reads the JSON at `path`; false and *error (naming the file and the field) when it is not a
    // pipeline run's. The panel keeps the previous run then.
    bool loadRun(const QString &path, QString *error);
    // Shows a run already read (the Distributed run page's own, named `name` in the summary).
    void setRun(const distributed::MeasuredPipelineRun &run, const QString &name);
    // Hides "Load measured run…" where the panel shows a run it was given.
    void setLoadButtonVisible(bool visible);
    const std::optional<distributed::MeasuredPipelineRun> &run() const { return run_; }
    ChartView *chart() const { return chart_; }
    QString summaryText() const;
    void retranslate();

signals:
    void runLoaded(parallel::PipelineScheduleKind schedule, int stages, int micro_batches);

private:
    void chooseFile();
    void refresh();
    ChartData chartData() const;

    QPushButton *load_button_;
    QLabel *summary_;
    ChartView *chart_;
    QString path_;
    QString error_;
    std::optional<distributed::MeasuredPipelineRun> run_;
};

}  // namespace lse::gui
