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

// How a figure is written in a lesson's text.
enum class FigureFormat {
    Scaled,      // three significant digits with K/M/B/T: "70.6B" (Scientific from 1e15 on)
    Scientific,  // three significant digits as mantissa and exponent: "6.30e+24"
    Fixed1,   // one decimal: "119.3"
    Fixed0,   // whole number with group separators: "1,234,567"
    Percent,  // a fraction 0..1 written as a percentage with one decimal: "40.0%"
    YesNo,    // 0 or 1 written as "no" / "yes"
};

// A number of the cost engine that lesson texts may cite as "{name}", so every number a lesson
// states comes from the engine at that step rather than from the lesson's text.
struct LessonFigure {
    std::string_view name;  // "time.days"
    std::string_view unit;  // appended after a space, e.g. "days", "GB"; empty for none
    std::string_view unit_zh_CN;  // the unit in a Chinese locale ("天"); empty: the same as `unit`
    FigureFormat format;
    double (*value)(const Estimate &estimate);
};

// The fixed table of citable figures.
const std::vector<LessonFigure> &lessonFigures();
const LessonFigure *findLessonFigure(std::string_view name);

// The names inside "{...}" in `text`, in order of appearance (repeats kept). A name is lower-case
// letters, digits and '_' in dot-separated parts; other braces are plain text.
std::vector<std::string> referencedFigures(std::string_view text);

// Every reference in the lesson's step texts, questions and answers (both languages) that is not
// in the table: field "steps[2].text.en", rule "unknown_figure".
Problems unknownFigures(const Lesson &lesson);

// The figure's value in `estimate`, written as its format says in `locale`, with its unit (the
// Chinese unit, and 是/否 for yes/no, when `locale` is Chinese; core has no translator).
std::string formatFigure(const LessonFigure &figure, double value, const QLocale &locale);

// `text` with each known "{name}" replaced by the formatted figure; unknown references stay as
// written (unknownFigures() reports them).
std::string fillFigures(std::string_view text, const Estimate &estimate, const QLocale &locale);

}  // namespace lse
