// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/distributed/distributed_run_process.h"

#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTimer>

namespace lse::gui {

namespace {

// How long mpiexec gets to forward SIGTERM to its ranks and exit before it is killed.
constexpr int kTerminateGraceMs = 5000;

// Rank 0's first line says what runs (app/cli/*_parallel_train.cpp); it is no error message.
bool isRunHeader(const QString &line)
{
    for (const char *header : {"data-parallel training:", "tensor-parallel training", "pipeline-parallel training:"})
        if (line.startsWith(QLatin1String(header)))
            return true;
    return false;
}

}  // namespace

DistributedRunProcess::DistributedRunProcess(QObject *parent)
    // Rank 0 of `train --dp` writes "step k/N  loss ..." after each step (app/cli/data_parallel_train.cpp).
    : QObject(parent), progress_pattern_(QStringLiteral("^step (\\d+)/(\\d+)\\b")), process_(new QProcess(this)),
      kill_timer_(new QTimer(this))
{
    kill_timer_->setSingleShot(true);
    kill_timer_->setInterval(kTerminateGraceMs);
    connect(kill_timer_, &QTimer::timeout, process_, &QProcess::kill);
    connect(process_, &QProcess::readyReadStandardOutput, this, [this] { out_ += process_->readAllStandardOutput(); });
    connect(process_, &QProcess::readyReadStandardError, this, &DistributedRunProcess::readErrors);
    connect(process_, &QProcess::finished, this, &DistributedRunProcess::onFinished);
    connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart)
            return;  // crashes and kills arrive through finished()
        start_failed_ = true;
        messages_ << process_->errorString();
        emit finished(Outcome::Failed);
    });
}

DistributedRunProcess::~DistributedRunProcess()
{
    // The page is going away: no run may outlive it.
    if (process_->state() != QProcess::NotRunning) {
        disconnect(process_, nullptr, this, nullptr);
        process_->terminate();
        if (!process_->waitForFinished(kTerminateGraceMs)) {
            process_->kill();
            process_->waitForFinished();
        }
    }
}

void DistributedRunProcess::setProgressPattern(const QRegularExpression &pattern) { progress_pattern_ = pattern; }

void DistributedRunProcess::start(const QString &mpiexec, const QStringList &arguments)
{
    out_.clear();
    err_pending_.clear();
    messages_.clear();
    launcher_messages_.clear();
    in_launcher_block_ = false;
    cancelled_ = false;
    start_failed_ = false;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("1"));  // one thread per rank
    process_->setProcessEnvironment(environment);
    process_->start(mpiexec, arguments);
}

void DistributedRunProcess::cancel()
{
    if (process_->state() == QProcess::NotRunning)
        return;
    cancelled_ = true;
    // SIGKILL cannot be forwarded, SIGTERM is: mpiexec ends its ranks, so none is orphaned.
    process_->terminate();
    kill_timer_->start();
}

bool DistributedRunProcess::isRunning() const { return process_->state() != QProcess::NotRunning; }

qint64 DistributedRunProcess::processId() const { return process_->processId(); }

QString DistributedRunProcess::errorText() const
{
    // The CLI's message names the flag or field; Open MPI's framed report ("Primary job terminated
    // normally, but 1 process returned a non-zero exit code") only repeats that a rank failed.
    const QStringList &lines = messages_.isEmpty() ? launcher_messages_ : messages_;
    return lines.join(QLatin1Char('\n')).trimmed();
}

void DistributedRunProcess::readErrors()
{
    err_pending_ += process_->readAllStandardError();
    for (qsizetype end = err_pending_.indexOf('\n'); end >= 0; end = err_pending_.indexOf('\n')) {
        const QString line = QString::fromUtf8(err_pending_.left(end)).trimmed();
        err_pending_.remove(0, end + 1);
        if (const QRegularExpressionMatch match = progress_pattern_.match(line); match.hasMatch())
            emit progress(match.captured(1).toInt(), match.captured(2).toInt());
        else if (line.startsWith(QLatin1String("-----")))
            in_launcher_block_ = !in_launcher_block_;  // Open MPI frames its own messages in rules
        else if (in_launcher_block_)
            launcher_messages_ << line;
        else if (!line.isEmpty() && !isRunHeader(line))
            messages_ << line;
    }
}

void DistributedRunProcess::onFinished(int exit_code, QProcess::ExitStatus status)
{
    kill_timer_->stop();
    out_ += process_->readAllStandardOutput();
    readErrors();
    if (!err_pending_.trimmed().isEmpty())
        messages_ << QString::fromUtf8(err_pending_).trimmed();
    err_pending_.clear();
    if (start_failed_)
        return;
    if (cancelled_)
        emit finished(Outcome::Cancelled);
    else
        emit finished(status == QProcess::NormalExit && exit_code == 0 ? Outcome::Finished : Outcome::Failed);
}

}  // namespace lse::gui
