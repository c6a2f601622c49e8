// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <cstdint>

namespace lse::gui {

// What a memory breakdown says about the framework reserve (scenario/framework_reserve.h): its three
// parts and their sources when the scenario keeps the default, "an input" otherwise.
QString frameworkReserveExplanation(std::int64_t reserve_bytes);
// The sources of the default's parts, short enough for a formula panel.
QString frameworkReserveSources();

}  // namespace lse::gui
