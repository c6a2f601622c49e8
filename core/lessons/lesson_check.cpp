// SPDX-License-Identifier: GPL-3.0-or-later
#include "lessons/lesson_check.h"

#include "lessons/lesson_catalog.h"
#include "lessons/lesson_figures.h"
#include "lessons/lesson_scenario.h"

namespace lse {

Result<std::vector<LessonStepState>> lessonStepStates(const Lesson &lesson)
{
    const Result<std::vector<Scenario>> scenarios = lessonScenarios(lesson);
    if (!scenarios)
        return scenarios.problems();
    std::vector<LessonStepState> states;
    Problems problems;
    for (std::size_t k = 0; k < scenarios->size(); ++k) {
        const Result<Estimate> estimated = estimate((*scenarios)[k]);
        if (!estimated) {
            const std::string path = "steps[" + std::to_string(k) + "].scenario_changes";
            for (const Problem &problem : estimated.problems())
                problems.push_back({path, "estimate", path + ": " + problem.message});
            continue;
        }
        states.push_back({(*scenarios)[k], *estimated});
    }
    if (!problems.empty())
        return problems;
    return states;
}

Problems checkLesson(const Lesson &lesson)
{
    Problems problems;
    const Result<std::vector<LessonStepState>> states = lessonStepStates(lesson);
    if (!states)
        problems = states.problems();
    for (const Problem &problem : unknownFigures(lesson))
        problems.push_back(problem);
    return problems;
}

FilledStepText filledStepText(const LessonStep &step, const Estimate &estimate, std::string_view language,
                              const QLocale &locale)
{
    FilledStepText filled;
    filled.text = fillFigures(localizedText(step.text, language), estimate, locale);
    if (step.question)
        filled.question = fillFigures(localizedText(*step.question, language), estimate, locale);
    if (step.answer)
        filled.answer = fillFigures(localizedText(*step.answer, language), estimate, locale);
    return filled;
}

}  // namespace lse
