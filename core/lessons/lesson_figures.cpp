// SPDX-License-Identifier: GPL-3.0-or-later
#include "lessons/lesson_figures.h"

#include "common/number_format.h"

#include <QString>

#include <algorithm>
#include <cmath>

namespace lse {

namespace {

bool isNameCharacter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

// "a.b_c": non-empty dot-separated parts of name characters.
bool isFigureName(std::string_view text)
{
    if (text.empty() || text.front() == '.' || text.back() == '.')
        return false;
    if (text.find("..") != std::string_view::npos)
        return false;
    return std::all_of(text.begin(), text.end(), isNameCharacter);
}

// Calls `visit(name, begin, end)` for each "{name}" in `text`, [begin, end) covering the braces.
template <typename Visit>
void forEachReference(std::string_view text, Visit visit)
{
    std::size_t open = text.find('{');
    while (open != std::string_view::npos) {
        const std::size_t close = text.find('}', open + 1);
        if (close == std::string_view::npos)
            return;
        const std::string_view name = text.substr(open + 1, close - open - 1);
        if (isFigureName(name)) {
            visit(name, open, close + 1);
            open = text.find('{', close + 1);
        } else {
            open = text.find('{', open + 1);
        }
    }
}

void addUnknown(const std::string &text, const std::string &field, Problems &problems)
{
    for (const std::string &name : referencedFigures(text))
        if (!findLessonFigure(name))
            problems.push_back({field, "unknown_figure",
                                field + ": {" + name + "} is not a figure the engine provides"});
}

void addUnknown(const LocalizedText &text, const std::string &field, Problems &problems)
{
    addUnknown(text.en, field + ".en", problems);
    addUnknown(text.zh_CN, field + ".zh_CN", problems);
}

}  // namespace

const std::vector<LessonFigure> &lessonFigures()
{
    // The "_gb" figures are bytes, written with the prefix their size calls for ("138 GB",
    // "1.19 TB"), as the memory page writes them.
    static const std::vector<LessonFigure> figures = {
        {"parameters.total", "", "", FigureFormat::Count, [](const Estimate &e) { return double(e.params.total); }},
        {"parameters.active", "", "", FigureFormat::Count, [](const Estimate &e) { return double(e.params.active); }},
        {"flops.six_nd", "FLOPs", "", FigureFormat::Scientific, [](const Estimate &e) { return e.flops.six_nd; }},
        {"flops.total_train", "FLOPs", "", FigureFormat::Scientific,
         [](const Estimate &e) { return e.flops.total_train; }},
        {"flops.train_per_token", "FLOPs", "", FigureFormat::Count,
         [](const Estimate &e) { return e.flops.train_per_token; }},
        {"time.days", "days", "天", FigureFormat::Days, [](const Estimate &e) { return e.time.days; }},
        {"time.gpu_hours", "GPU-hours", "GPU 小时", FigureFormat::Count, [](const Estimate &e) { return e.time.gpu_hours; }},
        // The price is the scenario's, in whatever currency the user typed it: the Overview's words.
        {"time.cost", "(in your currency)", "（货币单位自定）", FigureFormat::Money, [](const Estimate &e) { return e.time.cost; }},
        {"time.mfu", "", "", FigureFormat::Percent, [](const Estimate &e) { return e.time.mfu; }},
        {"time.peak_flops_per_gpu", "FLOP/s", "", FigureFormat::Si,
         [](const Estimate &e) { return e.time.peak_flops_per_gpu; }},
        {"time.step_seconds", "s", "秒", FigureFormat::Fixed1, [](const Estimate &e) { return e.time.step_seconds; }},
        {"time.steps", "", "", FigureFormat::Fixed0, [](const Estimate &e) { return e.time.steps; }},
        {"tokens_per_second", "tokens/s", "token/秒", FigureFormat::Count,
         [](const Estimate &e) { return e.time.tokens_per_second; }},
        {"memory.total_gb", "B", "", FigureFormat::Si, [](const Estimate &e) { return double(e.memory.total); }},
        {"memory.params_gb", "B", "", FigureFormat::Si, [](const Estimate &e) { return double(e.memory.params); }},
        {"memory.grads_gb", "B", "", FigureFormat::Si, [](const Estimate &e) { return double(e.memory.grads); }},
        {"memory.optimizer_gb", "B", "", FigureFormat::Si, [](const Estimate &e) { return double(e.memory.optimizer); }},
        {"memory.activations_gb", "B", "", FigureFormat::Si,
         [](const Estimate &e) { return double(e.memory.activations); }},
        {"memory.capacity_gb", "B", "", FigureFormat::Si, [](const Estimate &e) { return double(e.memory.capacity); }},
        {"memory.fits", "", "", FigureFormat::YesNo, [](const Estimate &e) { return e.memory.fits ? 1.0 : 0.0; }},
        {"flops.forward_per_token", "FLOPs", "", FigureFormat::Count,
         [](const Estimate &e) { return e.flops.forward_per_token; }},
        {"time.hfu", "", "", FigureFormat::Percent, [](const Estimate &e) { return e.time.hfu; }},
        {"memory.model_states_gb", "B", "", FigureFormat::Si,
         [](const Estimate &e) { return double(e.memory.params + e.memory.grads + e.memory.optimizer); }},
        {"memory.framework_reserve_gb", "B", "", FigureFormat::Si,
         [](const Estimate &e) { return double(e.memory.framework_reserve); }},
        {"memory.parameters_on_gpu", "", "", FigureFormat::Count,
         [](const Estimate &e) { return double(e.memory.parameters_on_gpu); }},
        {"communication.dp_gb", "B", "", FigureFormat::Si, [](const Estimate &e) { return e.communication.dp.bytes; }},
        {"communication.tp_gb", "B", "", FigureFormat::Si, [](const Estimate &e) { return e.communication.tp.bytes; }},
        {"communication.pp_gb", "B", "", FigureFormat::Si, [](const Estimate &e) { return e.communication.pp.bytes; }},
        {"inference.kv_cache_gb_per_sequence", "B", "", FigureFormat::Si,
         [](const Estimate &e) { return double(e.inference.kv_cache_bytes_per_sequence); }},
        {"communication.total_seconds", "s", "秒", FigureFormat::Count,
         [](const Estimate &e) { return e.communication.total_seconds; }},
    };
    return figures;
}

const LessonFigure *findLessonFigure(std::string_view name)
{
    const std::vector<LessonFigure> &figures = lessonFigures();
    const auto found = std::find_if(figures.begin(), figures.end(),
                                    [name](const LessonFigure &figure) { return figure.name == name; });
    return found == figures.end() ? nullptr : &*found;
}

std::vector<std::string> referencedFigures(std::string_view text)
{
    std::vector<std::string> names;
    forEachReference(text, [&names](std::string_view name, std::size_t, std::size_t) { names.emplace_back(name); });
    return names;
}

Problems unknownFigures(const Lesson &lesson)
{
    Problems problems;
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
        const LessonStep &step = lesson.steps[i];
        const std::string path = "steps[" + std::to_string(i) + "]";
        addUnknown(step.text, path + ".text", problems);
        if (step.question)
            addUnknown(*step.question, path + ".question", problems);
        if (step.answer)
            addUnknown(*step.answer, path + ".answer", problems);
    }
    return problems;
}

std::string formatFigure(const LessonFigure &figure, double value, const QLocale &locale)
{
    if (!std::isfinite(value))
        return "–";
    std::string number;
    switch (figure.format) {
    case FigureFormat::Count:
        number = formatCount(value, locale);
        break;
    case FigureFormat::Scientific:
        number = formatScientific(value, 3, locale);
        break;
    case FigureFormat::Fixed1:
        number = formatDecimal(value, 1, locale);
        break;
    case FigureFormat::Fixed0:
        number = formatDecimal(value, 0, locale);
        break;
    case FigureFormat::Percent:
        number = formatPercent(value, 1, locale);
        break;
    case FigureFormat::Days:
        number = formatDays(value, locale);
        break;
    case FigureFormat::Money:
        number = formatMoney(value, locale);
        break;
    case FigureFormat::Si:
        return formatSi(value, figure.unit, 3, locale);  // the unit after its prefix
    case FigureFormat::YesNo:
        if (locale.language() == QLocale::Chinese)
            return value != 0 ? "是" : "否";
        return value != 0 ? "yes" : "no";
    }
    std::string text = number;
    const std::string_view unit =
        locale.language() == QLocale::Chinese && !figure.unit_zh_CN.empty() ? figure.unit_zh_CN : figure.unit;
    // A full-width bracket brings its own space.
    if (!unit.empty())
        text += (unit.substr(0, 3) == "（" ? "" : " ") + std::string(unit);
    return text;
}

std::string fillFigures(std::string_view text, const Estimate &estimate, const QLocale &locale)
{
    std::string filled;
    std::size_t copied = 0;
    forEachReference(text, [&](std::string_view name, std::size_t begin, std::size_t end) {
        const LessonFigure *figure = findLessonFigure(name);
        if (!figure)
            return;
        filled.append(text.substr(copied, begin - copied));
        filled += formatFigure(*figure, figure->value(estimate), locale);
        copied = end;
    });
    filled.append(text.substr(copied));
    return filled;
}

}  // namespace lse
