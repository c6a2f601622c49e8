// SPDX-License-Identifier: GPL-3.0-or-later
#include "xvfb_server.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QStandardPaths>
#include <QThread>

namespace lse::gui::bench {

XvfbServer::~XvfbServer()
{
    if (server_.state() == QProcess::NotRunning)
        return;
    server_.terminate();
    if (!server_.waitForFinished(5000)) {
        server_.kill();
        server_.waitForFinished(5000);
    }
}

bool XvfbServer::start(QString *error)
{
    const QString xvfb = QStandardPaths::findExecutable(QStringLiteral("Xvfb"));
    if (xvfb.isEmpty()) {
        *error = QStringLiteral("Xvfb is not installed (apt-get install xvfb)");
        return false;
    }
    // A display is taken when its lock file or socket exists (Xserver(1)).
    int number = 90;
    while (number < 200
           && (QFileInfo::exists(QStringLiteral("/tmp/.X%1-lock").arg(number))
               || QFileInfo::exists(QStringLiteral("/tmp/.X11-unix/X%1").arg(number))))
        ++number;
    display_ = QStringLiteral(":%1").arg(number);
    server_.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    server_.start(xvfb, {display_, QStringLiteral("-screen"), QStringLiteral("0"), QStringLiteral("1600x1000x24"),
                         QStringLiteral("-nolisten"), QStringLiteral("tcp")});
    const QString socket = QStringLiteral("/tmp/.X11-unix/X%1").arg(number);
    QElapsedTimer waited;
    waited.start();
    while (server_.state() != QProcess::NotRunning && !QFileInfo::exists(socket) && waited.elapsed() < 10000)
        QThread::msleep(20);
    if (server_.state() == QProcess::NotRunning || !QFileInfo::exists(socket)) {
        *error = QStringLiteral("Xvfb %1 did not start (%2)").arg(display_, server_.errorString());
        display_.clear();
        return false;
    }
    return true;
}

}  // namespace lse::gui::bench
