// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QProcess>
#include <QString>

namespace lse::gui::bench {

// A private Xvfb X server for the xcb start-up runs when this process has no DISPLAY: the offscreen
// platform paints into memory and never talks to a display server, xcb does. Started once, before
// the measured launches, so its own start-up is not in any launch's time; stopped by the destructor.
class XvfbServer {
public:
    XvfbServer() = default;
    ~XvfbServer();
    XvfbServer(const XvfbServer &) = delete;
    XvfbServer &operator=(const XvfbServer &) = delete;

    // Starts Xvfb on the first free display from :90 with a 1600×1000 screen; false with *error
    // when Xvfb is not installed or its socket does not appear within 10 s.
    bool start(QString *error);
    // ":90", ... once started.
    QString display() const { return display_; }

private:
    QProcess server_;
    QString display_;
};

}  // namespace lse::gui::bench
