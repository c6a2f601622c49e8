// SPDX-License-Identifier: GPL-3.0-or-later
#include "lessons/lesson_recorder.h"

#include "common/file_bytes.h"
#include "lessons/lesson_catalog.h"
#include "lessons/lesson_scenario.h"
#include "scenario/scenario_json.h"

#include <QFile>

#include <utility>

namespace lse::gui {

LessonRecorder::LessonRecorder(QObject *parent) : QObject(parent) {}

Scenario LessonRecorder::previousScenario() const
{
    return scenarios_.empty() ? defaultScenario() : scenarios_.back();
}

void LessonRecorder::addStep(const RecordedStepInput &input)
{
    LessonStep step;
    step.page = input.page_id.toStdString();
    step.scenario_changes = scenarioDifference(previousScenario(), input.scenario);
    step.page_settings = input.page_settings;
    step.highlight = input.highlight;
    step.text = input.text;
    // The file format keeps a question and its answer together (parseLesson's rule).
    if (input.question) {
        step.question = input.question;
        step.answer = input.answer.value_or(LocalizedText{});
    }
    lesson_.steps.push_back(std::move(step));
    scenarios_.push_back(input.scenario);
    emit stepsChanged();
}

bool LessonRecorder::addStep(const QString &page_id, const Scenario &previous, const Scenario &current,
                             const QJsonObject &page_settings, const std::optional<Highlight> &highlight,
                             const LocalizedText &text)
{
    // Scenario has no operator==; its file form is the comparison every other part uses.
    if (scenarioToJson(previous) != scenarioToJson(previousScenario()))
        return false;
    addStep(RecordedStepInput{page_id, current, page_settings, highlight, text, std::nullopt, std::nullopt});
    return true;
}

bool LessonRecorder::moveStep(int from, int to)
{
    if (!validIndex(from) || !validIndex(to))
        return false;
    if (from == to)
        return true;
    auto move = [from, to](auto &items) {
        auto item = std::move(items[std::size_t(from)]);
        items.erase(items.begin() + from);
        items.insert(items.begin() + to, std::move(item));
    };
    move(lesson_.steps);
    move(scenarios_);
    recomputeDifferences();
    emit stepsChanged();
    return true;
}

bool LessonRecorder::removeStep(int index)
{
    if (!validIndex(index))
        return false;
    lesson_.steps.erase(lesson_.steps.begin() + index);
    scenarios_.erase(scenarios_.begin() + index);
    recomputeDifferences();
    emit stepsChanged();
    return true;
}

bool LessonRecorder::setStepText(int index, const LocalizedText &text)
{
    if (!validIndex(index))
        return false;
    lesson_.steps[std::size_t(index)].text = text;
    emit stepsChanged();
    return true;
}

bool LessonRecorder::setStepQuestion(int index, const std::optional<LocalizedText> &question,
                                     const std::optional<LocalizedText> &answer)
{
    if (!validIndex(index))
        return false;
    LessonStep &step = lesson_.steps[std::size_t(index)];
    step.question = question;
    step.answer = question ? std::optional<LocalizedText>(answer.value_or(LocalizedText{})) : std::nullopt;
    emit stepsChanged();
    return true;
}

bool LessonRecorder::setStepHighlight(int index, const std::optional<Highlight> &highlight)
{
    if (!validIndex(index))
        return false;
    lesson_.steps[std::size_t(index)].highlight = highlight;
    emit stepsChanged();
    return true;
}

void LessonRecorder::setTitle(const LocalizedText &title)
{
    lesson_.title = title;
    emit detailsChanged();
}

void LessonRecorder::setId(const QString &id)
{
    lesson_.id = id.toStdString();
    emit detailsChanged();
}

void LessonRecorder::setLecture(const QString &lecture)
{
    lesson_.lecture = lecture.toStdString();
    emit detailsChanged();
}

void LessonRecorder::clear()
{
    lesson_ = Lesson{};
    scenarios_.clear();
    file_path_.clear();
    emit detailsChanged();
    emit stepsChanged();
}

bool LessonRecorder::save(const QString &path, QString *error)
{
    // Refuse what loadLessonFile would refuse, so a saved lesson always opens again.
    Result<Lesson> readable = parseLesson(lessonToJson(lesson_));
    // The file this recording came from (or was saved to) is its own to replace, even while the
    // lesson is shown; any other input of the program is refused by the writer.
    const std::string native = QFile::encodeName(path).toStdString();
    const bool own_file = !file_path_.isEmpty() && sameFile(native, QFile::encodeName(file_path_).toStdString());
    Problems problems = readable ? saveLessonFile(lesson_, native, own_file ? InputReplacement::AllowedForOwnFile
                                                                            : InputReplacement::Refused)
                                 : readable.problems();
    if (problems.empty()) {
        file_path_ = path;
        return true;
    }
    if (error)
        *error = tr("Cannot save the lesson to \"%1\":\n%2")
                     .arg(path, QString::fromStdString(formatProblems(problems)));
    return false;
}

bool LessonRecorder::load(const QString &path, QString *error)
{
    Result<Lesson> loaded = loadLessonFile(path.toStdString());
    Result<std::vector<Scenario>> scenarios =
        loaded ? lessonScenarios(*loaded) : Result<std::vector<Scenario>>(loaded.problems());
    if (!scenarios) {
        if (error)
            *error = tr("Cannot open the lesson \"%1\":\n%2")
                         .arg(path, QString::fromStdString(formatProblems(scenarios.problems())));
        return false;
    }
    lesson_ = *loaded;
    scenarios_ = *scenarios;
    file_path_ = path;
    for (LessonStep &step : lesson_.steps)
        step.preset.reset();  // its effect is in the recorded scenario; the differences carry it
    recomputeDifferences();
    emit detailsChanged();
    emit stepsChanged();
    return true;
}

void LessonRecorder::recomputeDifferences()
{
    Scenario previous = defaultScenario();
    for (std::size_t k = 0; k < lesson_.steps.size(); ++k) {
        lesson_.steps[k].scenario_changes = scenarioDifference(previous, scenarios_[k]);
        previous = scenarios_[k];
    }
}

}  // namespace lse::gui
