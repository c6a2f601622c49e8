// SPDX-License-Identifier: GPL-3.0-or-later
#include "lessons/lesson_controller.h"

#include "lessons/lesson_catalog.h"
#include "lessons/lesson_figures.h"
#include "lessons/lesson_scenario.h"

#include <QLocale>

namespace lse::gui {

namespace {

QString problemsText(const Problems &problems)
{
    return QString::fromStdString(formatProblems(problems));
}

}  // namespace

LessonController::LessonController(QObject *parent) : QObject(parent) {}

bool LessonController::start(const Lesson &lesson, int step_index, QString *error)
{
    if (step_index < 0 || step_index >= int(lesson.steps.size())) {
        if (error)
            *error = tr("step %1 is out of range: the lesson has steps 1 to %2")
                         .arg(step_index + 1)
                         .arg(lesson.steps.size());
        return false;
    }
    const Result<std::vector<Scenario>> scenarios = lessonScenarios(lesson);
    if (!scenarios.ok()) {
        if (error)
            *error = problemsText(scenarios.problems());
        return false;
    }
    std::vector<Estimate> estimates;
    for (size_t k = 0; k < scenarios->size(); ++k) {
        const Result<Estimate> result = lse::estimate(scenarios->at(k));
        if (!result.ok()) {
            if (error)
                *error = tr("steps[%1]: %2").arg(k).arg(problemsText(result.problems()));
            return false;
        }
        estimates.push_back(*result);
    }
    lesson_ = lesson;
    scenarios_ = *scenarios;
    estimates_ = std::move(estimates);
    running_ = true;
    step_index_ = step_index;
    setAnswerRevealed(false);
    emit stepChanged(step_index_);
    return true;
}

bool LessonController::stepAnimates() const
{
    return running_ && currentStep().page_settings.value(QStringLiteral("animate")).toBool(false);
}

QString LessonController::title() const
{
    return QString::fromStdString(localizedText(lesson_.title, language_.toStdString()));
}

QString LessonController::text() const
{
    const std::string text = localizedText(currentStep().text, language_.toStdString());
    return QString::fromStdString(fillFigures(text, estimate(), QLocale()));
}

QString LessonController::question() const
{
    if (!currentStep().question)
        return {};
    const std::string text = localizedText(*currentStep().question, language_.toStdString());
    return QString::fromStdString(fillFigures(text, estimate(), QLocale()));
}

QString LessonController::answer() const
{
    if (!currentStep().answer)
        return {};
    const std::string text = localizedText(*currentStep().answer, language_.toStdString());
    return QString::fromStdString(fillFigures(text, estimate(), QLocale()));
}

bool LessonController::next()
{
    if (!running_)
        return false;
    if (currentStep().question && !answer_revealed_) {
        reveal();
        return true;
    }
    if (stepAnimates() && advance_animation_ && advance_animation_())
        return true;
    return goToStep(step_index_ + 1);
}

bool LessonController::previous() { return running_ && goToStep(step_index_ - 1); }

void LessonController::reveal()
{
    if (running_ && currentStep().question)
        setAnswerRevealed(true);
}

void LessonController::restart()
{
    if (!running_)
        return;
    // Already on the first step: show it afresh (answer hidden, animation from its start).
    if (!goToStep(0)) {
        setAnswerRevealed(false);
        emit stepChanged(0);
    }
}

bool LessonController::goToStep(int step_index)
{
    if (!running_ || step_index < 0 || step_index >= stepCount() || step_index == step_index_)
        return false;
    step_index_ = step_index;
    setAnswerRevealed(false);
    emit stepChanged(step_index_);
    return true;
}

void LessonController::finish()
{
    if (!running_)
        return;
    running_ = false;
    emit finished();
}

void LessonController::setAnswerRevealed(bool revealed)
{
    if (answer_revealed_ == revealed)
        return;
    answer_revealed_ = revealed;
    emit answerRevealedChanged(revealed);
}

}  // namespace lse::gui
