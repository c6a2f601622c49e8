// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace lse::gui {
class MainWindow;
}

namespace lse::monkey {

// What must hold after every monkey action (events processed first):
// - the current page shows the document's newest valid scenario (Page::shownScenario, compared as
//   scenario JSON) and that scenario's estimate as core computes it now (total parameters and
//   training FLOPs compared with lse::estimate of the document's scenario);
// - the document's own estimate is core's estimate of its newest valid scenario;
// - a valid document has no stale banner; an invalid one has the banner visible with its problem
//   count and text.
// Returns an empty string when all hold, else what failed.
QString checkPagesShowDocument(const gui::MainWindow &window);

// Undo then redo returns the same scenario JSON (and redo then undo when only redo is possible).
// Leaves the document as it found it. Empty when consistent, else what differed.
QString checkUndoRedoRoundTrip(gui::MainWindow &window);

}  // namespace lse::monkey
