// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "scenario/scenario.h"

#include <QString>

namespace lse::gui {

// Translated names of the engine's option values for the editor's combo boxes and the pages' text.
// Files and the CLI keep the stable English spellings of core's toString().
QString displayName(NormType value);
QString displayName(NormPlacement value);
QString displayName(Activation value);
QString displayName(PositionalEncoding value);
QString displayName(PrecisionRecipe value);
QString displayName(DType value);
QString displayName(Optimizer value);
QString displayName(Recomputation value);
QString displayName(AttentionFlops value);
QString displayName(FlopsModel value);
QString displayName(MfuSource value);
QString displayName(AttentionKernel value);

}  // namespace lse::gui
