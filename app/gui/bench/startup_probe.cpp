// SPDX-License-Identifier: GPL-3.0-or-later
#include "startup_probe.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QThread>

#include <unistd.h>

namespace lse::gui::bench {

double residentMb(qint64 pid, const char *field)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return -1.0;
    const QByteArray prefix = QByteArray(field) + ':';
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (!line.startsWith(prefix))
            continue;
        // "VmRSS:\t  123456 kB" (proc(5): the value is in kibibytes).
        const QList<QByteArray> parts = line.mid(prefix.size()).simplified().split(' ');
        bool ok = false;
        const double kib = parts.value(0).toDouble(&ok);
        return ok ? kib * 1024.0 / 1e6 : -1.0;
    }
    return -1.0;
}

double processCpuMs(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return -1.0;
    // "pid (comm) state ppid ...": comm may hold spaces, so count fields after its closing ')'.
    const QByteArray text = stat.readAll();
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    // After comm, field 3 (state) is index 0: utime (14) and stime (15) are indexes 11 and 12.
    if (fields.size() < 13)
        return -1.0;
    const double ticks = fields[11].toDouble() + fields[12].toDouble();
    return ticks * 1000.0 / double(sysconf(_SC_CLK_TCK));
}

std::optional<StartupSample> measureStartup(const StartupOptions &options, QString *error)
{
    QProcess app;
    QProcessEnvironment environment = options.environment;
    environment.insert(QStringLiteral("LSE_REPORT_FIRST_PAINT"), QStringLiteral("1"));
    app.setProcessEnvironment(environment);
    app.setReadChannel(QProcess::StandardError);
    QElapsedTimer clock;
    clock.start();
    app.start(options.app_path, {});
    if (!app.waitForStarted(options.timeout_ms)) {
        *error = QStringLiteral("%1 did not start: %2").arg(options.app_path, app.errorString());
        return std::nullopt;
    }
    const QByteArray marker("first-paint-ms ");
    QByteArray pending;
    std::optional<StartupSample> sample;
    while (!sample && clock.elapsed() < options.timeout_ms) {
        if (!app.canReadLine() && !app.waitForReadyRead(int(options.timeout_ms - clock.elapsed())))
            break;
        while (app.canReadLine()) {
            const QByteArray line = app.readLine().trimmed();
            if (!line.startsWith(marker)) {
                pending += line + '\n';  // Qt's own warnings, shown if the launch fails
                continue;
            }
            StartupSample measured;
            measured.launch_to_paint_ms = double(clock.nsecsElapsed()) / 1e6;
            measured.cpu_to_paint_ms = processCpuMs(app.processId());
            measured.main_to_paint_ms = line.mid(marker.size()).toDouble();
            sample = measured;
            break;
        }
    }
    if (sample) {
        QThread::msleep(static_cast<unsigned long>(options.idle_ms));
        sample->idle_rss_mb = residentMb(app.processId(), "VmRSS");
        sample->peak_rss_mb = residentMb(app.processId(), "VmHWM");
    } else {
        *error = QStringLiteral("%1 printed no first-paint line within %2 ms%3:\n%4")
                     .arg(options.app_path)
                     .arg(options.timeout_ms)
                     .arg(app.state() == QProcess::NotRunning ? QStringLiteral(" (it exited)") : QString())
                     .arg(QString::fromLocal8Bit(pending + app.readAllStandardError()));
    }
    app.terminate();
    if (!app.waitForFinished(5000)) {
        app.kill();
        app.waitForFinished(5000);
    }
    return sample;
}

}  // namespace lse::gui::bench
