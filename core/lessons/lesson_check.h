// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/problem.h"
#include "cost/estimate.h"
#include "lessons/lesson.h"

#include <QLocale>

#include <string>
#include <string_view>
#include <vector>

namespace lse {

// What a lesson shows at each step: the scenario and the engine's estimate of it.
struct LessonStepState {
    Scenario scenario;
    Estimate estimate;
};

// Every step's scenario (lessonScenarios) and its estimate; problems name the step
// ("steps[4].scenario_changes", rule "estimate" when the engine refuses a valid-looking scenario).
Result<std::vector<LessonStepState>> lessonStepStates(const Lesson &lesson);

// Everything core can check of a lesson beyond parsing: each step's scenario is valid and estimable,
// and every figure its texts cite exists. (Pages, page settings and highlight targets are checked by
// the GUI, which owns the pages.)
Problems checkLesson(const Lesson &lesson);

// The step's texts in `language` ("en" or "zh_CN", falling back to English) with every figure filled
// in from `estimate`, numbers written in `locale`.
struct FilledStepText {
    std::string text;
    std::string question;  // empty when the step asks nothing
    std::string answer;
};
FilledStepText filledStepText(const LessonStep &step, const Estimate &estimate, std::string_view language,
                              const QLocale &locale);

}  // namespace lse
