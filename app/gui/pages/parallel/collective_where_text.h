// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <string>

namespace lse::gui {

// Where in the step a collective runs (parallel::CommunicationEvent::where), in the user's language.
// The core writes these fixed English texts; the GUI translates each one it knows and shows an
// unknown one as it is (test_layout_page checks every text the core writes is known).
QString collectiveWhereText(const std::string &where);
// True when `where` is one of the texts above (has a translation entry).
bool isKnownCollectiveWhere(const std::string &where);

}  // namespace lse::gui
