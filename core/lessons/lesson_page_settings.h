// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lessons/lesson.h"

#include <QJsonObject>

#include <cstddef>
#include <vector>

namespace lse {

// "animate" is the lesson's, not the page's: it makes its own step play and never carries over.
inline constexpr const char *kLessonAnimateKey = "animate";

// The page settings that walking `lesson` from its first step applies to the page of step
// `step_index` (from 0; must be in range) up to and including that step: the settings of every
// step so far that shows the same page and section ("architecture/choices"), in order, without
// "animate". A step's settings are incremental (keys left out keep the value an earlier step
// gave), so a step jumped to applies all of these to look as it does when walked to.
std::vector<QJsonObject> pageSettingsWalkedTo(const Lesson &lesson, std::size_t step_index);

}  // namespace lse
