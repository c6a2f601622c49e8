// SPDX-License-Identifier: GPL-3.0-or-later
// The Roofline page's measurements of this machine: its roofline (SGEMM + bandwidth) and the
// reference operators, run off the GUI thread.
#include "pages/roofline/roofline_page.h"

#include "charts/chart_palette.h"
#include "charts/chart_view.h"
#include "common/file_writer.h"
#include "enum_labels.h"
#include "hardware/hardware_catalog.h"
#include "pages/page_format.h"
#include "pages/roofline/machine_warnings.h"
#include "pages/roofline/reference_ops_run.h"
#include "pages/roofline/roofline_page_parts.h"
#include "reference/peak_utilisation.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QTableWidget>
#include <QTextStream>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <memory>

namespace lse::gui {

using namespace roofline_parts;

void RooflinePage::setMachineRoofline(const std::optional<MachineRoofline> &machine)
{
    cpu_ = machine;
    cpu_missing_reason_ = machine ? QString() : tr("none set");
    refresh();
}

void RooflinePage::setMeasuredRun(const reference::TrainConfig &config,
                                  const std::vector<reference::OpRecord> &records, int measured_steps)
{
    measured_config_ = config;
    measured_records_ = records;
    measured_steps_ = measured_steps;
    measure_error_.clear();
    measure_cancelled_ = false;
    refreshMachineChart();
}

void RooflinePage::setReferenceRunSize(int measured_steps, int threads)
{
    reference_steps_ = std::max(1, measured_steps);
    reference_threads_ = std::max(0, threads);
}

void RooflinePage::setMachineMeasureOptions(const MachineMeasureOptions &options)
{
    machine_options_ = options;
}

void RooflinePage::cancelWorker()
{
    if (worker_)
        cancel_ = true;
}

void RooflinePage::startMachineMeasurement()
{
    if (worker_)
        return;
    cancel_ = false;
    measure_error_.clear();
    measure_cancelled_ = false;
    progress_->setRange(0, 1);
    progress_->setValue(0);
    machine_status_->setText(tr("Measuring this machine…"));
    MachineMeasureOptions options = machine_options_;
    options.cancel = &cancel_;
    worker_ = QThread::create([this, options] {
        Problems problems;
        auto measured = std::make_shared<MachineRoofline>(machineRoofline(
            true,
            [this](std::string_view stage, int index, int count) {
                const QString text = QString::fromUtf8(stage.data(), qsizetype(stage.size()));
                QMetaObject::invokeMethod(
                    this,
                    [this, text, index, count] {
                        progress_->setRange(0, count);
                        progress_->setValue(index);
                        machine_status_->setText(tr("Measuring this machine (%1 of %2): %3")
                                                     .arg(index + 1)
                                                     .arg(count)
                                                     .arg(text));
                    },
                    Qt::QueuedConnection);
            },
            &problems, options));
        const bool cancelled = measurementCancelled(options);
        const QString save_problem = problems.empty() ? QString()
                                                      : QString::fromStdString(formatProblems(problems)).trimmed();
        QMetaObject::invokeMethod(
            this,
            [this, measured, save_problem, cancelled] {
                if (cancelled) {
                    measure_cancelled_ = true;  // the previous measurement (if any) stays
                    progress_->setRange(0, 1);
                    progress_->setValue(0);
                } else {
                    cpu_ = *measured;
                    cache_measured_at_ = measured->measured_at;
                    cpu_missing_reason_.clear();
                    measure_error_ = save_problem;
                    progress_->setRange(0, 1);
                    progress_->setValue(1);
                }
                finishWorker();
            },
            Qt::QueuedConnection);
    });
    worker_->start(QThread::LowPriority);
    refreshMachineChart();
}

void RooflinePage::startReferenceRun()
{
    if (worker_)
        return;
    cancel_ = false;
    measure_error_.clear();
    measure_cancelled_ = false;
    progress_->setRange(0, reference_steps_ + 1);
    progress_->setValue(0);
    machine_status_->setText(tr("Training the tiny reference transformer with the op profiler on…"));
    worker_ = QThread::create([this, steps = reference_steps_, threads = reference_threads_] {
        auto run = std::make_shared<ReferenceOpsRun>(runReferenceOps(steps, threads, cancel_, [this](int done, int total) {
            QMetaObject::invokeMethod(
                this,
                [this, done, total] {
                    progress_->setRange(0, total);
                    progress_->setValue(done);
                },
                Qt::QueuedConnection);
        }));
        QMetaObject::invokeMethod(
            this,
            [this, run] {
                if (run->error.isEmpty()) {
                    measured_config_ = run->config;
                    measured_records_ = run->records;
                    measured_steps_ = run->measured_steps;
                } else if (cancel_) {
                    measure_cancelled_ = true;
                } else {
                    measure_error_ = run->error;
                }
                finishWorker();
            },
            Qt::QueuedConnection);
    });
    worker_->start(QThread::LowPriority);
    refreshMachineChart();
}

void RooflinePage::finishWorker()
{
    if (worker_) {
        worker_->wait();
        worker_->deleteLater();
        worker_ = nullptr;
    }
    refresh();  // the CPU may now appear in the overlay too
    emit workerFinished();
}

}  // namespace lse::gui
