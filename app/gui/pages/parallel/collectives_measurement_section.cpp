// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/parallel/collectives_measurement_section.h"

#include "charts/chart_data.h"
#include "charts/chart_view.h"
#include "distributed/link_measurement.h"
#include "pages/page_format.h"
#include "pages/distributed/distributed_run_process.h"
#include "pages/distributed/distributed_run_setup.h"
#include "pages/parallel/parallel_labels.h"

#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace lse::gui {

namespace {

using parallel::CollectiveAlgorithm;
using parallel::CollectiveOp;

// The model lines span the measured sizes, or the CLI's default sweep before any measurement,
// with four points per decade between.
std::vector<double> lineSizes(double smallest, double largest)
{
    std::vector<double> sizes;
    const double step = std::pow(10.0, 0.25);
    for (double size = smallest; size * std::sqrt(step) < largest; size *= step)  // no near-duplicate at the end
        sizes.push_back(size);
    sizes.push_back(largest);
    return sizes;
}

}  // namespace

CollectivesMeasurementSection::CollectivesMeasurementSection(QWidget *parent)
    : QWidget(parent), mpiexec_(findMpiexec()), cli_(findExplorerCli())
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 6, 0, 0);
    title_ = new QLabel(this);
    title_->setWordWrap(true);
    title_->setTextFormat(Qt::RichText);
    layout->addWidget(title_);

    auto *buttons = new QHBoxLayout;
    measure_button_ = new QPushButton(this);
    measure_button_->setObjectName(QStringLiteral("measure-link"));
    cancel_button_ = new QPushButton(this);
    cancel_button_->setObjectName(QStringLiteral("cancel-link-measurement"));
    cancel_button_->setEnabled(false);
    progress_bar_ = new QProgressBar(this);
    progress_bar_->setRange(0, 1);
    progress_bar_->setValue(0);
    progress_bar_->setVisible(false);
    buttons->addWidget(measure_button_);
    buttons->addWidget(cancel_button_);
    buttons->addWidget(progress_bar_, 1);
    buttons->addStretch();
    layout->addLayout(buttons);

    status_label_ = new QLabel(this);
    status_label_->setObjectName(QStringLiteral("link-measurement-status"));
    status_label_->setWordWrap(true);
    status_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(status_label_);

    chart_ = new ChartView(QStringLiteral("collective-measured-on-this-machine"), this);
    chart_->setMinimumHeight(kChartMinimumHeight);
    layout->addWidget(chart_, 1);

    process_ = new DistributedRunProcess(this);
    // Rank 0 of `links` writes "sweep k/N  S B" after each measured size (app/cli/links_command.cpp).
    process_->setProgressPattern(QRegularExpression(QStringLiteral("^sweep (\\d+)/(\\d+)\\b")));
    connect(measure_button_, &QPushButton::clicked, this, &CollectivesMeasurementSection::start);
    connect(cancel_button_, &QPushButton::clicked, this, &CollectivesMeasurementSection::cancel);
    connect(process_, &DistributedRunProcess::progress, this, [this](int done, int total) {
        progress_bar_->setRange(0, std::max(1, total));
        progress_bar_->setValue(done);
        emit progress(done, total);
    });
    connect(process_, &DistributedRunProcess::finished, this,
            [this](DistributedRunProcess::Outcome outcome) { onFinished(int(outcome)); });
    refresh();
}

void CollectivesMeasurementSection::setContext(int ranks, const parallel::LinkModel &link, const QString &link_name)
{
    link_ = link;
    link_name_ = link_name;
    if (ranks != ranks_) {
        ranks_ = ranks;
        if (!isRunning())
            message_.clear();
        loadSavedProfile();
    }
    refresh();
}

void CollectivesMeasurementSection::setLaunchers(const QString &mpiexec, const QString &cli)
{
    mpiexec_ = mpiexec;
    cli_ = cli;
}

void CollectivesMeasurementSection::setSweepBytes(const QList<qint64> &bytes) { sweep_bytes_ = bytes; }

bool CollectivesMeasurementSection::isRunning() const { return process_->isRunning(); }

ChartView *CollectivesMeasurementSection::chart() const { return chart_; }

const std::optional<distributed::LinkProfile> &CollectivesMeasurementSection::profile() const { return profile_; }

QString CollectivesMeasurementSection::statusText() const { return status_label_->text(); }

void CollectivesMeasurementSection::start()
{
    if (isRunning() || ranks_ < 2)
        return;
    if (mpiexec_.isEmpty() || cli_.isEmpty()) {
        message_ = mpiexec_.isEmpty()
                       ? tr("mpiexec was not found: install Open MPI (apt-get install openmpi-bin) to measure this machine.")
                       : tr("llm-explorer-cli was not found next to the app or on PATH; the worker processes run it.");
        refresh();
        emit measurementFinished(false);
        return;
    }
    running_ranks_ = ranks_;
    QStringList arguments{QStringLiteral("-np"),        QString::number(ranks_), QStringLiteral("--oversubscribe"),
                          QStringLiteral("--allow-run-as-root"), QStringLiteral("--bind-to"), QStringLiteral("none"),
                          cli_,                         QStringLiteral("links"), QStringLiteral("--json")};
    if (!sweep_bytes_.isEmpty()) {
        QStringList sizes;
        for (qint64 bytes : sweep_bytes_)
            sizes << QString::number(bytes);
        arguments << QStringLiteral("--sizes") << sizes.join(QLatin1Char(','));
    }
    message_ = tr("Measuring the link between %n process(es) on this machine…", "", ranks_);
    progress_bar_->setRange(0, 0);  // busy until the first size is measured
    progress_bar_->setVisible(true);
    measure_button_->setEnabled(false);
    cancel_button_->setEnabled(true);
    refresh();
    process_->start(mpiexec_, arguments);
}

void CollectivesMeasurementSection::cancel() { process_->cancel(); }

void CollectivesMeasurementSection::onFinished(int outcome_value)
{
    const auto outcome = DistributedRunProcess::Outcome(outcome_value);
    progress_bar_->setVisible(false);
    measure_button_->setEnabled(true);
    cancel_button_->setEnabled(false);
    bool ok = false;
    if (outcome == DistributedRunProcess::Outcome::Cancelled) {
        message_ = tr("Measurement cancelled; the saved profile is unchanged.");
    } else if (outcome == DistributedRunProcess::Outcome::Failed) {
        const QString errors = process_->errorText();
        message_ = tr("The measurement failed (%1): %2")
                       .arg(QFileInfo(mpiexec_).fileName(), errors.isEmpty() ? tr("mpiexec ended without a message.") : errors);
    } else {
        // The CLI saved the profile (its JSON says where); read it back from the same cache.
        const QJsonObject out = QJsonDocument::fromJson(process_->standardOutput()).object();
        if (!out.value(QStringLiteral("saved")).toBool()) {
            message_ = tr("The measurement ran but its profile was not saved: %1").arg(process_->errorText());
        } else {
            message_.clear();
            if (running_ranks_ != ranks_)
                message_ = tr("Measured and saved for %n rank(s); this page now shows another rank count.", "", running_ranks_);
            loadSavedProfile();
            ok = running_ranks_ == ranks_ ? profile_.has_value() : true;
            if (!ok) {
                message_ = tr("The measurement finished but its saved profile could not be read back.");
            }
        }
    }
    refresh();
    emit measurementFinished(ok);
}

void CollectivesMeasurementSection::loadSavedProfile()
{
    profile_.reset();
    if (ranks_ < 2)
        return;
    const distributed::LinkProfileLookup lookup = distributed::loadLinkProfile(ranks_);
    profile_ = lookup.profile;
}

void CollectivesMeasurementSection::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        refresh();
}

QString CollectivesMeasurementSection::profileText() const
{
    if (!profile_)
        return tr("No measurement of this machine for %n rank(s) yet.", "", ranks_);
    return tr("This machine, %n rank(s), measured %1: α = %2 per ring step, β = %3/s per rank.", "", profile_->ranks)
        .arg(format::fromStd(profile_->measured_at), formatSeconds(profile_->alpha_seconds),
             format::bytes(profile_->beta_bytes_per_second));
}

void CollectivesMeasurementSection::refresh()
{
    title_->setText(tr("<b>Measure on this machine</b> — a ping-pong and ring all-reduce sweep between %n local "
                       "process(es) over MPI, as nccl-tests measures; train --dp %n predicts its collectives with the fit.",
                       "", ranks_));
    measure_button_->setText(tr("&Measure on this machine"));
    measure_button_->setToolTip(tr("Runs mpiexec -np %1 llm-explorer-cli links --json and saves the fitted α and β "
                                   "as this machine's link profile for %1 ranks.")
                                    .arg(ranks_));
    cancel_button_->setText(tr("Cancel"));
    QString status = profileText();
    if (!message_.isEmpty())
        status = message_ + QLatin1Char('\n') + status;
    status_label_->setText(status);
    chart_->setData(chartData());
}

ChartData CollectivesMeasurementSection::chartData() const
{
    ChartData chart;
    chart.log_x = true;
    chart.log_y = true;
    chart.x_label = tr("Message size S (bytes, log scale)");
    chart.x_unit = QStringLiteral("bytes");
    chart.y_label = tr("Time (s, log scale)");
    chart.y_unit = QStringLiteral("s");
    const int n = std::max(2, ranks_);
    chart.title = tr("Ring all-reduce on this machine vs the model, n = %1").arg(n);
    const QString formula = tr("t = 2(n−1)α + 2(n−1)/n·S/β (ring all-reduce, Patarasuk & Yuan 2009)");

    double smallest = 4, largest = 4.0 * 1024 * 1024;  // the CLI's default sweep, 4 B to 4 MiB
    if (profile_ && !profile_->all_reduce.empty()) {
        smallest = double(profile_->all_reduce.front().bytes);
        largest = double(profile_->all_reduce.back().bytes);
        for (const distributed::SweepPoint &point : profile_->all_reduce) {
            smallest = std::min(smallest, double(point.bytes));
            largest = std::max(largest, double(point.bytes));
        }
    }
    if (largest <= smallest)
        largest = smallest * 4;

    auto modelLine = [&](const parallel::LinkModel &link, const QString &name, bool dashed) {
        ChartSeries line;
        line.name = name;
        line.dashed = dashed;
        for (double size : lineSizes(smallest, largest)) {
            const double seconds =
                parallel::collectiveSeconds(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, n, size, link);
            if (!std::isfinite(seconds) || seconds <= 0)
                continue;
            line.x << size;
            line.y << seconds;
            line.point_tooltips << tr("<b>%1</b><br>S = %2: t = %3<br>%4")
                                       .arg(name.toHtmlEscaped(), format::bytes(size), formatSeconds(seconds), formula);
        }
        return line;
    };

    if (profile_)
        chart.series << modelLine(profile_->link(),
                                  tr("fitted to this machine (α = %1, β = %2/s)")
                                      .arg(formatSeconds(profile_->alpha_seconds), format::bytes(profile_->beta_bytes_per_second)),
                                  false);
    chart.series << modelLine(link_,
                              tr("model: %1 link (α = %2, β = %3/s)")
                                  .arg(link_name_, formatSeconds(link_.latency_seconds),
                                       format::bytes(link_.bandwidth_bytes_per_second)),
                              true);
    // Drawn last, so that the lines' own markers do not cover the measured points.
    if (profile_) {
        ChartSeries measured;
        measured.name = tr("measured on this machine (%1)").arg(format::fromStd(profile_->measured_at));
        measured.kind = ChartSeries::Kind::Marker;
        for (const distributed::SweepPoint &point : profile_->all_reduce) {
            measured.x << double(point.bytes);
            measured.y << point.seconds;
            measured.point_tooltips << tr("<b>Measured</b><br>S = %1: t = %2 (median)<br>algbw %3/s, busbw %4/s")
                                           .arg(format::bytes(double(point.bytes)), formatSeconds(point.seconds),
                                                format::bytes(point.algorithm_bandwidth_bytes_per_second),
                                                format::bytes(point.bus_bandwidth_bytes_per_second));
        }
        chart.series << measured;
    }

    chart.formula.inputs =
        profile_ ? tr("n = %1; this machine: α = %2, β = %3/s (least-squares fit of the sweep, measured %4); %5 link: α = %6, "
                      "β = %7/s")
                       .arg(n)
                       .arg(formatSeconds(profile_->alpha_seconds), format::bytes(profile_->beta_bytes_per_second),
                            format::fromStd(profile_->measured_at), link_name_, formatSeconds(link_.latency_seconds),
                            format::bytes(link_.bandwidth_bytes_per_second))
                 : tr("n = %1; %2 link: α = %3, β = %4/s; this machine not measured yet")
                       .arg(n)
                       .arg(link_name_, formatSeconds(link_.latency_seconds), format::bytes(link_.bandwidth_bytes_per_second));
    chart.formula.formula = formula;
    chart.formula.source = tr("Patarasuk & Yuan 2009 (ring all-reduce); sweep and bandwidths as nccl-tests "
                              "(doc/PERFORMANCE.md); fit: core/distributed/link_measurement");
    return chart;
}

}  // namespace lse::gui
