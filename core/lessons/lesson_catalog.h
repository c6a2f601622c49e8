// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/file_writer.h"
#include "common/problem.h"
#include "lessons/lesson.h"

#include <QByteArray>

#include <string>
#include <string_view>
#include <vector>

namespace lse {

// The lessons shipped in resources/lessons/*.json (compiled in under ":/lessons/"), sorted by file
// name (the files are numbered in course order). A broken built-in lesson is a programming error
// and aborts with a message (test_lessons loads every one first).
const std::vector<Lesson> &builtinLessons();
const Lesson *findBuiltinLesson(std::string_view id);

// A lesson file from disk: at most maxFileBytes(FileKind::Config), a regular file; problems as
// parseLesson's, or "file" with rule "read"/"not_a_file"/"too_large".
Result<Lesson> loadLessonFile(const std::string &path);

// The file parseLesson reads; parseLesson(lessonToJson(lesson)) gives `lesson` back.
QByteArray lessonToJson(const Lesson &lesson);
// Writes atomically (common/file_writer.h); problems with field "file", rule "write" (or the
// writer's "not_a_file" / "same_file"). Lesson authoring saves over its own file: AllowedForOwnFile.
Problems saveLessonFile(const Lesson &lesson, const std::string &path,
                        InputReplacement replacement = InputReplacement::Refused);

// The text in `language` ("en" or "zh_CN"); Chinese falls back to English where not translated.
std::string localizedText(const LocalizedText &text, std::string_view language);

}  // namespace lse
