// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>

class QWidget;

namespace lse::gui {

// The start-up benchmark's hook (docs/benchmarks-gui.md): with the environment variable
// LSE_REPORT_FIRST_PAINT=1, llm-explorer prints one line
//     first-paint-ms <milliseconds>
// on stderr once `window` has finished its first paint (every widget painted and the backing store
// flushed), and keeps running. The milliseconds are read from `since_main`, a timer main() starts on
// its first line: they leave out exec, loading the shared libraries and static initialisers, which
// the benchmark measures on its own clock from the moment it started the process.
// Does nothing when the variable is unset or not "1".
void reportFirstPaintIfRequested(QWidget *window, const QElapsedTimer &since_main);

}  // namespace lse::gui
