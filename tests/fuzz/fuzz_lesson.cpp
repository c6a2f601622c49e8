// SPDX-License-Identifier: GPL-3.0-or-later
// Lesson files (lessons/lesson_catalog.h) as Lessons > Open reads them; a lesson read is saved and
// read again, as the lesson editor round-trips it.
#include "fuzz_support.h"
#include "lessons/lesson_catalog.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace lse;
    const std::string path = fuzz::writeScratchFile("lesson.json", fuzz::asText(data, size));
    const Result<Lesson> lesson = loadLessonFile(path);
    if (!lesson) {
        fuzz::checkProblemsNameAField(lesson.problems());
        return 0;
    }
    fuzz::check(lesson->steps.size() >= std::size_t(kMinLessonSteps) && lesson->steps.size() <= std::size_t(kMaxLessonSteps),
                "a lesson with a step count outside the limits was read");
    const Result<Lesson> again = parseLesson(lessonToJson(*lesson));
    fuzz::check(again.ok(), "a lesson read, saved, does not read again");
    fuzz::check(again->steps.size() == lesson->steps.size(), "a saved lesson reads back with other steps");
    return 0;
}
