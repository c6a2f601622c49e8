// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <string>

namespace lse::gui {

// An operator's shape as the core writes it ("[4096×4096]·[4096×12288]", "33554432 elements",
// "64×[4096×128] tiles 128×228", "68976648192 parameters, adamw") with its few words in the user's
// language; numbers, brackets and names stay.
QString operatorShapeText(const std::string &shape);
// "forward", "backward", "recompute", "optimizer" (performance::OperatorTime::pass) translated.
QString operatorPassText(const std::string &pass);

}  // namespace lse::gui
