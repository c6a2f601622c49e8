// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace lse::gui {

// The folder `cmake --install` puts the app's run-time data in (<prefix>/share/llm-explorer, e.g.
// cs336/tokenizer's GPT-2 files), found from the executable's own location so a moved prefix works.
// In the build tree the folder does not exist and callers fall back to their other places.
QString installedDataDir();

}  // namespace lse::gui
