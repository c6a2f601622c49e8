// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/problem.h"

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lse {

// A text in the languages lessons ship in; English is required, Chinese may follow later.
struct LocalizedText {
    std::string en;
    std::string zh_CN;
};

enum class HighlightKind { ChartSeries, ChartPoint, TableRow, Field, Region };

std::optional<HighlightKind> highlightKindFromString(std::string_view text);
std::string_view toString(HighlightKind kind);
std::string highlightKindChoices();  // "chart_series|chart_point|..." for messages

// What the step points at on its page; the page decides what `target` names (a series name, a
// row id, an editor field path, a region id).
struct Highlight {
    HighlightKind kind = HighlightKind::Region;
    std::string target;
};

// One scenario edit, applied in file order after the step's preset (if any).
struct ScenarioChange {
    std::string field;  // dotted scenario path, e.g. "training.tp"
    QJsonValue value;
};

struct LessonStep {
    std::string page;                   // page id, e.g. "time" or "architecture/choices"
    std::optional<std::string> preset;  // model preset id
    std::vector<ScenarioChange> scenario_changes;
    QJsonObject page_settings;  // the page's own settings; only the page interprets them
    std::optional<Highlight> highlight;
    LocalizedText text;  // may refer to engine figures as "{time.days}" (lessons/lesson_figures.h)
    std::optional<LocalizedText> question;
    std::optional<LocalizedText> answer;  // present exactly when `question` is
};

struct Lesson {
    std::string id;
    LocalizedText title;
    std::string lecture;  // which lecture of the course it follows, free text
    std::vector<LessonStep> steps;
};

inline constexpr const char *kLessonFormat = "llm-explorer-lesson";
inline constexpr int kLessonVersion = 1;
inline constexpr int kMinLessonSteps = 1;
inline constexpr int kMaxLessonSteps = 30;

// The file: {"format": "llm-explorer-lesson", "version": 1, "id", "title": {"en", "zh_CN"},
// "lecture", "steps": [{"page", "preset"?, "scenario_changes"?: [{"field", "value"}],
// "page_settings"?: {...}, "highlight"?: {"kind", "target"}, "text": {"en", "zh_CN"?},
// "question"?: {...}, "answer"?: {...}}]}.
// A lesson file, or every problem in it; each problem names the step and field
// ("steps[3].page", "steps[0].text.en") and the rule.
Result<Lesson> parseLesson(const QByteArray &json);

}  // namespace lse
