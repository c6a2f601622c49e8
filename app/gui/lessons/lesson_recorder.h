// SPDX-License-Identifier: GPL-3.0-or-later
// "Record step" (issue 18): a lesson being written from what the app shows. Each recorded step keeps
// the full scenario it was recorded with; the file stores only the difference to the step before
// (the first step to defaultScenario(), the start every lesson assumes), so moving or deleting a step
// recomputes the differences and every remaining step still shows exactly what was recorded.
#pragma once

#include "lessons/lesson.h"
#include "scenario/scenario.h"

#include <QJsonObject>
#include <QObject>
#include <QString>

#include <optional>
#include <vector>

namespace lse::gui {

// What one step shows and says, as the lecturer recorded it.
struct RecordedStepInput {
    QString page_id;
    Scenario scenario;  // the document's scenario when the step was recorded
    QJsonObject page_settings;
    std::optional<Highlight> highlight;
    LocalizedText text;
    std::optional<LocalizedText> question;
    std::optional<LocalizedText> answer;  // kept only together with a question
};

class LessonRecorder : public QObject {
    Q_OBJECT
public:
    explicit LessonRecorder(QObject *parent = nullptr);

    // The lesson as it would be saved: every step's scenario_changes relative to the step before.
    const Lesson &lesson() const { return lesson_; }
    int stepCount() const { return int(lesson_.steps.size()); }
    // The scenario step `index` was recorded with (what lessonScenarios(lesson()) gives for it).
    const Scenario &recordedScenario(int index) const { return scenarios_.at(std::size_t(index)); }
    // What a new step's difference is taken against: the last step's scenario, or defaultScenario().
    Scenario previousScenario() const;

    // Appends a step; its scenario_changes are scenarioDifference(previousScenario(), input.scenario).
    void addStep(const RecordedStepInput &input);
    // Convenience in the words: `previous` must be previousScenario() (it is what the step's
    // difference is taken against); a different one is refused with false, the lesson unchanged.
    bool addStep(const QString &page_id, const Scenario &previous, const Scenario &current,
                 const QJsonObject &page_settings, const std::optional<Highlight> &highlight,
                 const LocalizedText &text);
    // Moves step `from` to position `to`; false (and nothing changes) when either is out of range.
    bool moveStep(int from, int to);
    bool removeStep(int index);
    bool setStepText(int index, const LocalizedText &text);
    bool setStepQuestion(int index, const std::optional<LocalizedText> &question,
                         const std::optional<LocalizedText> &answer);
    bool setStepHighlight(int index, const std::optional<Highlight> &highlight);
    void setTitle(const LocalizedText &title);
    void setId(const QString &id);
    void setLecture(const QString &lecture);
    void clear();

    // Writes the lesson file (saveLessonFile). A lesson that would not load back (no steps, no id,
    // a step without English text) is refused too. On failure *error names the file and the problems.
    bool save(const QString &path, QString *error);
    // Continues a lesson from its file (loadLessonFile); each step's scenario is what lessonScenarios
    // gives, and its changes become differences again (a step's preset is replaced by the fields it
    // changed). On failure the lesson is unchanged and *error names the file and the problems.
    bool load(const QString &path, QString *error);

signals:
    // Steps were added, moved, removed or edited, or a lesson was loaded or cleared.
    void stepsChanged();
    // The id, title or lecture changed (not emitted while loading: stepsChanged covers it).
    void detailsChanged();

private:
    void recomputeDifferences();
    bool validIndex(int index) const { return index >= 0 && index < stepCount(); }

    Lesson lesson_;
    std::vector<Scenario> scenarios_;  // per step, parallel to lesson_.steps
    QString file_path_;                // the file loaded from or last saved to
};

}  // namespace lse::gui
