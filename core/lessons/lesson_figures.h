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

// How a figure is written in a lesson's text: the same functions the pages write it with
// (common/number_format.h), so a lesson quotes a figure exactly as the page beside it shows it.
enum class FigureFormat {
    Count,       // three significant digits with k/M/B/T: "70.6 B", "445 B" (formatCount)
    Scientific,  // three significant digits as mantissa and power of ten: "6.21 × 10²⁴"
    Fixed1,   // one decimal: "119.3"
    Fixed0,   // whole number with group separators: "1,234,567"
    Percent,  // a fraction 0..1 as a percentage with one decimal: "40.0 %" (formatPercent)
    YesNo,    // 0 or 1 written as "no" / "yes"
    Days,     // as the pages write days: "254", "3.5" (formatDays)
    Money,    // an amount in the scenario's currency: "12.5 M" (formatMoney)
    Si,       // three significant digits, an SI prefix and the unit: "138 GB", "989 TFLOP/s" (formatSi)
};

// A number of the cost engine that lesson texts may cite as "{name}", so every number a lesson
// states comes from the engine at that step rather than from the lesson's text.
struct LessonFigure {
    std::string_view name;  // "time.days"
    std::string_view unit;  // appended after a space, e.g. "days", "FLOPs"; empty for none
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
