// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "main_window.h"

#include <QString>

namespace lse::gui {
class ScenarioDocument;
class StaleBanner;
}  // namespace lse::gui

namespace lse::monkey {

// What must hold after every monkey action (events processed first):
// - the current page shows the document's newest valid scenario (MainWindow::shownEstimate, compared as
//   scenario JSON) and that scenario's estimate as core computes it now (total parameters and
//   training FLOPs compared with lse::estimate of the document's scenario);
// - the document's own estimate is core's estimate of its newest valid scenario;
// - a valid document has no stale banner; an invalid one has the banner visible with its problem
//   count and text.
// Returns an empty string when all hold, else what failed.
QString checkPagesShowDocument(const gui::MainWindow &window);
// Its two parts. The banner against the document's problems:
QString checkStaleBanner(const gui::ScenarioDocument &document, const gui::StaleBanner &banner);
// What page `page_id` was last given (null: nothing) against the document's newest valid scenario
// and core's estimate of it:
QString checkShownEstimate(const gui::ScenarioDocument &document, const gui::MainWindow::ShownEstimate *shown,
                           const QString &page_id);

// Undo then redo returns the same scenario JSON (and redo then undo when only redo is possible).
// Leaves the document as it found it. Empty when consistent, else what differed.
QString checkUndoRedoRoundTrip(gui::MainWindow &window);

}  // namespace lse::monkey
