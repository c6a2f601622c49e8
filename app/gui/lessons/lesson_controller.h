// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cost/estimate.h"
#include "lessons/lesson.h"
#include "scenario/scenario.h"

#include <QObject>
#include <QString>

#include <functional>
#include <vector>

namespace lse::gui {

// Where a running lesson is: its steps' scenarios and estimates, the current step and whether its
// answer shows. No widgets: the main window shows what it says (lesson bar, page, overlay).
class LessonController : public QObject {
    Q_OBJECT
public:
    explicit LessonController(QObject *parent = nullptr);

    // Starts `lesson` at `step_index` (from 0). False with *error (the problems, each naming its
    // step and field) when a step's scenario is invalid or `step_index` is out of range; the
    // controller then keeps what it had.
    bool start(const Lesson &lesson, int step_index, QString *error);
    bool isRunning() const { return running_; }
    const Lesson &lesson() const { return lesson_; }
    int stepIndex() const { return step_index_; }
    int stepCount() const { return int(lesson_.steps.size()); }
    const LessonStep &currentStep() const { return lesson_.steps.at(size_t(step_index_)); }
    // The current step's scenario and its estimate.
    const Scenario &scenario() const { return scenarios_.at(size_t(step_index_)); }
    const Estimate &estimate() const { return estimates_.at(size_t(step_index_)); }
    bool answerRevealed() const { return answer_revealed_; }
    bool stepAnimates() const;

    // The texts in `language` ("en" or "zh_CN"), with the figures they cite filled in from the
    // step's estimate (lessons/lesson_figures.h).
    void setLanguage(const QString &language) { language_ = language; }
    QString title() const;
    QString text() const;
    QString question() const;  // empty when the step asks none
    QString answer() const;

    // Called by next() on an animating step: advances the page's animation, false at its end.
    void setAnimationAdvancer(std::function<bool()> advance) { advance_animation_ = std::move(advance); }

public slots:
    // Reveals a hidden answer first, then advances the step's animation until it ends, then goes
    // to the next step; false when there was nothing left to do (the last step, all shown).
    bool next();
    bool previous();
    void reveal();
    void restart();
    bool goToStep(int step_index);
    void finish();

signals:
    void stepChanged(int step_index);
    void answerRevealedChanged(bool revealed);
    void finished();

private:
    void setAnswerRevealed(bool revealed);

    Lesson lesson_;
    std::vector<Scenario> scenarios_;
    std::vector<Estimate> estimates_;
    int step_index_ = 0;
    bool answer_revealed_ = false;
    bool running_ = false;
    QString language_ = QStringLiteral("en");
    std::function<bool()> advance_animation_;
};

}  // namespace lse::gui
