// SPDX-License-Identifier: GPL-3.0-or-later
#include "lessons/lesson_page_settings.h"

namespace lse {

std::vector<QJsonObject> pageSettingsWalkedTo(const Lesson &lesson, std::size_t step_index)
{
    std::vector<QJsonObject> walked;
    const std::string &page = lesson.steps.at(step_index).page;
    for (std::size_t k = 0; k <= step_index; ++k) {
        const LessonStep &step = lesson.steps[k];
        if (step.page != page)
            continue;
        QJsonObject settings = step.page_settings;
        settings.remove(QString::fromLatin1(kLessonAnimateKey));
        walked.push_back(settings);
    }
    return walked;
}

}  // namespace lse
