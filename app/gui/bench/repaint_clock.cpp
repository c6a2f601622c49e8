// SPDX-License-Identifier: GPL-3.0-or-later
#include "repaint_clock.h"

#include <QWidget>
#include <QWindow>

#include <ctime>

namespace lse::gui::bench {

RepaintClock::RepaintClock(int &argc, char **argv) : QApplication(argc, argv) { clock_.start(); }

qint64 RepaintClock::threadCpuNs()
{
    timespec cpu{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
    return qint64(cpu.tv_sec) * 1000000000 + cpu.tv_nsec;
}

bool RepaintClock::notify(QObject *receiver, QEvent *event)
{
    ++events_delivered_;
    bool repaint = event->type() == QEvent::Paint;
    if (event->type() == QEvent::UpdateRequest) {
        const auto *widget = qobject_cast<const QWidget *>(receiver);
        repaint = (widget && widget->isWindow()) || qobject_cast<const QWindow *>(receiver);
    }
    // Paint events nest inside their window's UpdateRequest (one per widget): only the outermost
    // counts as a repaint, and its end is the flush.
    if (repaint)
        ++repaint_depth_;
    const bool handled = QApplication::notify(receiver, event);
    if (repaint && --repaint_depth_ == 0) {
        last_repaint_end_ns_ = clock_.nsecsElapsed();
        last_repaint_end_cpu_ns_ = threadCpuNs();
        ++repaints_;
    }
    return handled;
}

}  // namespace lse::gui::bench
