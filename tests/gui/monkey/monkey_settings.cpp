// SPDX-License-Identifier: GPL-3.0-or-later
#include "monkey/monkey_settings.h"

#include <QString>

namespace lse::monkey {

MonkeySettings monkeySettingsFromEnvironment()
{
    MonkeySettings settings;
    if (qEnvironmentVariableIsSet("LSE_MONKEY_SEED")) {
        bool ok = false;
        const uint seed = qEnvironmentVariable("LSE_MONKEY_SEED").toUInt(&ok);
        if (!ok)
            qFatal("LSE_MONKEY_SEED: expected an unsigned 32-bit integer, got '%s'",
                   qPrintable(qEnvironmentVariable("LSE_MONKEY_SEED")));
        settings.seed = seed;
    }
    if (qEnvironmentVariableIsSet("LSE_MONKEY_ACTIONS")) {
        bool ok = false;
        const int actions = qEnvironmentVariable("LSE_MONKEY_ACTIONS").toInt(&ok);
        if (!ok || actions < 1)
            qFatal("LSE_MONKEY_ACTIONS: expected a positive integer, got '%s'",
                   qPrintable(qEnvironmentVariable("LSE_MONKEY_ACTIONS")));
        settings.actions = actions;
    }
    return settings;
}

}  // namespace lse::monkey
