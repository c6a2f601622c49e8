// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QApplication>
#include <QElapsedTimer>

namespace lse::gui::bench {

// The benchmark's QApplication: it times every event it delivers, so the edit→repaint probe knows
// when the last repaint ended and whether the event queue has gone quiet. A repaint is the delivery
// of an UpdateRequest to a window (Qt paints every dirty widget and flushes the backing store while
// handling it) or of a Paint event sent directly (QWidget::repaint()); its end is when notify()
// returns, i.e. after the flush.
class RepaintClock : public QApplication {
public:
    RepaintClock(int &argc, char **argv);

    bool notify(QObject *receiver, QEvent *event) override;

    qint64 nowNs() const { return clock_.nsecsElapsed(); }
    // CPU time this (the GUI) thread has used, in ns: unlike nowNs() it does not grow while other
    // processes have the CPU, so it compares runs on a loaded machine.
    static qint64 threadCpuNs();
    // Events delivered so far (any receiver, any type).
    qint64 eventsDelivered() const { return events_delivered_; }
    // nowNs() at the end of the newest repaint (0 before the first) and how many there were.
    qint64 lastRepaintEndNs() const { return last_repaint_end_ns_; }
    qint64 lastRepaintEndCpuNs() const { return last_repaint_end_cpu_ns_; }
    qint64 repaints() const { return repaints_; }

private:
    QElapsedTimer clock_;
    qint64 events_delivered_ = 0;
    qint64 last_repaint_end_ns_ = 0;
    qint64 last_repaint_end_cpu_ns_ = 0;
    qint64 repaints_ = 0;
    int repaint_depth_ = 0;
};

}  // namespace lse::gui::bench
