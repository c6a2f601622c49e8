// SPDX-License-Identifier: GPL-3.0-or-later
#include "lessons/lesson_figures.h"

#include <QString>

#include <algorithm>
#include <cmath>

namespace lse {

namespace {

// Decimal gigabytes, as datasheets quote GPU memory (and as the memory page shows it).
constexpr double kBytesPerGb = 1e9;

double gigabytes(std::int64_t bytes)
{
    return double(bytes) / kBytesPerGb;
}

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

QString scaledText(double value, const QLocale &locale)
{
    struct Step {
        double factor;
        const char *suffix;
    };
    // The convention of model cards and papers (7B parameters, 15T tokens).
    static constexpr Step kSteps[] = {{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "K"}};
    const double magnitude = std::fabs(value);
    if (magnitude >= 1e15)
        return locale.toString(value, 'e', 2);
    for (const Step &step : kSteps)
        if (magnitude >= step.factor)
            return locale.toString(value / step.factor, 'g', 3) + QLatin1String(step.suffix);
    return locale.toString(value, 'g', 3);
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
    static const std::vector<LessonFigure> figures = {
        {"parameters.total", "", "", FigureFormat::Scaled, [](const Estimate &e) { return double(e.params.total); }},
        {"parameters.active", "", "", FigureFormat::Scaled, [](const Estimate &e) { return double(e.params.active); }},
        {"flops.six_nd", "FLOPs", "", FigureFormat::Scientific, [](const Estimate &e) { return e.flops.six_nd; }},
        {"flops.total_train", "FLOPs", "", FigureFormat::Scientific,
         [](const Estimate &e) { return e.flops.total_train; }},
        {"flops.train_per_token", "FLOPs", "", FigureFormat::Scaled,
         [](const Estimate &e) { return e.flops.train_per_token; }},
        {"time.days", "days", "天", FigureFormat::Fixed1, [](const Estimate &e) { return e.time.days; }},
        {"time.gpu_hours", "GPU-hours", "GPU 小时", FigureFormat::Scaled, [](const Estimate &e) { return e.time.gpu_hours; }},
        {"time.cost", "USD", "美元", FigureFormat::Fixed0, [](const Estimate &e) { return e.time.cost; }},
        {"time.mfu", "", "", FigureFormat::Percent, [](const Estimate &e) { return e.time.mfu; }},
        {"time.peak_flops_per_gpu", "FLOP/s", "", FigureFormat::Scaled,
         [](const Estimate &e) { return e.time.peak_flops_per_gpu; }},
        {"time.step_seconds", "s", "秒", FigureFormat::Fixed1, [](const Estimate &e) { return e.time.step_seconds; }},
        {"time.steps", "", "", FigureFormat::Fixed0, [](const Estimate &e) { return e.time.steps; }},
        {"tokens_per_second", "tokens/s", "token/秒", FigureFormat::Scaled,
         [](const Estimate &e) { return e.time.tokens_per_second; }},
        {"memory.total_gb", "GB", "", FigureFormat::Fixed1, [](const Estimate &e) { return gigabytes(e.memory.total); }},
        {"memory.params_gb", "GB", "", FigureFormat::Fixed1, [](const Estimate &e) { return gigabytes(e.memory.params); }},
        {"memory.grads_gb", "GB", "", FigureFormat::Fixed1, [](const Estimate &e) { return gigabytes(e.memory.grads); }},
        {"memory.optimizer_gb", "GB", "", FigureFormat::Fixed1,
         [](const Estimate &e) { return gigabytes(e.memory.optimizer); }},
        {"memory.activations_gb", "GB", "", FigureFormat::Fixed1,
         [](const Estimate &e) { return gigabytes(e.memory.activations); }},
        {"memory.capacity_gb", "GB", "", FigureFormat::Fixed1,
         [](const Estimate &e) { return gigabytes(e.memory.capacity); }},
        {"memory.fits", "", "", FigureFormat::YesNo, [](const Estimate &e) { return e.memory.fits ? 1.0 : 0.0; }},
        {"flops.forward_per_token", "FLOPs", "", FigureFormat::Scaled,
         [](const Estimate &e) { return e.flops.forward_per_token; }},
        {"time.hfu", "", "", FigureFormat::Percent, [](const Estimate &e) { return e.time.hfu; }},
        {"memory.model_states_gb", "GB", "", FigureFormat::Fixed1,
         [](const Estimate &e) { return gigabytes(e.memory.params + e.memory.grads + e.memory.optimizer); }},
        {"memory.framework_reserve_gb", "GB", "", FigureFormat::Fixed1,
         [](const Estimate &e) { return gigabytes(e.memory.framework_reserve); }},
        {"memory.parameters_on_gpu", "", "", FigureFormat::Scaled,
         [](const Estimate &e) { return double(e.memory.parameters_on_gpu); }},
        {"communication.dp_gb", "GB", "", FigureFormat::Fixed1,
         [](const Estimate &e) { return e.communication.dp.bytes / 1e9; }},
        {"communication.tp_gb", "GB", "", FigureFormat::Fixed1,
         [](const Estimate &e) { return e.communication.tp.bytes / 1e9; }},
        {"communication.pp_gb", "GB", "", FigureFormat::Fixed1,
         [](const Estimate &e) { return e.communication.pp.bytes / 1e9; }},
        {"inference.kv_cache_gb_per_sequence", "GB", "", FigureFormat::Fixed1,
         [](const Estimate &e) { return double(e.inference.kv_cache_bytes_per_sequence) / 1e9; }},
        {"communication.total_seconds", "s", "秒", FigureFormat::Scaled,
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
    QString number;
    switch (figure.format) {
    case FigureFormat::Scaled:
        number = scaledText(value, locale);
        break;
    case FigureFormat::Scientific:
        number = locale.toString(value, 'e', 2);
        break;
    case FigureFormat::Fixed1:
        number = locale.toString(value, 'f', 1);
        break;
    case FigureFormat::Fixed0:
        number = locale.toString(value, 'f', 0);
        break;
    case FigureFormat::Percent:
        number = locale.toString(value * 100.0, 'f', 1) + QLatin1Char('%');
        break;
    case FigureFormat::YesNo:
        if (locale.language() == QLocale::Chinese)
            return value != 0 ? "是" : "否";
        return value != 0 ? "yes" : "no";
    }
    std::string text = number.toStdString();
    const std::string_view unit =
        locale.language() == QLocale::Chinese && !figure.unit_zh_CN.empty() ? figure.unit_zh_CN : figure.unit;
    if (!unit.empty())
        text += " " + std::string(unit);
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
