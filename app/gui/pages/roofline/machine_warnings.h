// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "hardware/machine_roofline.h"

#include <QString>
#include <QStringList>

namespace lse::gui {

// machineRooflineWarnings() (core) as translated sentences, for the pages that show this machine's
// roofline: why the measurement looks wrong. Empty when it is plausible.
QStringList machineWarningTexts(const MachineRoofline &roofline);

// "Warning: this measurement looks wrong (…). Re-measure on an idle machine." or empty.
QString machineWarningSentence(const MachineRoofline &roofline);

}  // namespace lse::gui
