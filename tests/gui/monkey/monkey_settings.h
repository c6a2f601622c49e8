// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>

namespace lse::monkey {

// What one monkey run does: how many random actions from which seed. The defaults keep the CTest
// run short (under 60 s in the default build, under 180 s under ASan, docs/monkey-testing.md has
// the measurements); LSE_MONKEY_SEED and LSE_MONKEY_ACTIONS override them for a long local run or
// to replay a failure.
struct MonkeySettings {
    quint32 seed = 20261202;
    int actions = 100;
};

// The defaults with the environment's overrides; a malformed override is a fatal test error
// naming the variable (a silent fallback would replay the wrong run).
MonkeySettings monkeySettingsFromEnvironment();

}  // namespace lse::monkey
