// SPDX-License-Identifier: GPL-3.0-or-later
#include "first_paint_reporter.h"

#include <QEvent>
#include <QTimer>
#include <QWidget>

#include <cstdio>

namespace lse::gui {

namespace {

// Watches the window's paint events; the first one starts the report.
class FirstPaintFilter : public QObject {
public:
    FirstPaintFilter(QWidget *window, const QElapsedTimer &since_main)
        : QObject(window), window_(window), since_main_(since_main)
    {
    }

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == window_ && event->type() == QEvent::Paint) {
            window_->removeEventFilter(this);
            // The top-level window is painted first, its children after it in the same backing-store
            // sync, then the store is flushed: a zero timer runs once all of that has returned.
            const QElapsedTimer since_main = since_main_;
            QTimer::singleShot(0, window_, [since_main] {
                std::fprintf(stderr, "first-paint-ms %.1f\n", double(since_main.nsecsElapsed()) / 1e6);
                std::fflush(stderr);
            });
            deleteLater();
        }
        return false;
    }

private:
    QWidget *window_;
    QElapsedTimer since_main_;
};

}  // namespace

void reportFirstPaintIfRequested(QWidget *window, const QElapsedTimer &since_main)
{
    if (qgetenv("LSE_REPORT_FIRST_PAINT") != "1")
        return;
    window->installEventFilter(new FirstPaintFilter(window, since_main));
}

}  // namespace lse::gui
