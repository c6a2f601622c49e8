// SPDX-License-Identifier: GPL-3.0-or-later
// The Search page's lesson settings (Page's lesson interface); the page does not animate.
#include "pages/parallel/search_page.h"

#include "pages/lesson_settings_reader.h"

#include <QJsonArray>
#include <QSpinBox>

#include <algorithm>

namespace lse::gui {

namespace {

const QStringList &recomputationKeys()
{
    static const QStringList keys = {QString::fromLatin1(toString(Recomputation::None)),
                                     QString::fromLatin1(toString(Recomputation::Selective)),
                                     QString::fromLatin1(toString(Recomputation::Full))};
    return keys;
}

}  // namespace

QJsonObject SearchPage::lessonSettings() const
{
    const parallel::SearchOptions options = searchOptions();
    QJsonArray stages, recomputations;
    for (int stage : options.zero_stages)
        stages.append(stage);
    for (Recomputation recomputation : options.recomputations)
        recomputations.append(QString::fromLatin1(toString(recomputation)));
    return {{QStringLiteral("top"), options.top},
            {QStringLiteral("zero_stages"), stages},
            {QStringLiteral("recomputations"), recomputations}};
}

bool SearchPage::applyLessonSettings(const QJsonObject &settings, QString *error)
{
    LessonSettingsReader reader(settings);
    reader.acceptAnimate();
    const auto top = reader.integer(QStringLiteral("top"), top_spin_->minimum(), top_spin_->maximum());
    const auto stages = reader.integerSet(QStringLiteral("zero_stages"), 0, 3);
    const auto recomputations = reader.choiceSet(QStringLiteral("recomputations"), recomputationKeys());
    if (!reader.finish(error))
        return false;

    parallel::SearchOptions options = searchOptions();
    if (top)
        options.top = *top;
    if (stages) {
        options.zero_stages.assign(stages->begin(), stages->end());
        std::sort(options.zero_stages.begin(), options.zero_stages.end());
    }
    if (recomputations) {
        options.recomputations.clear();
        for (const QString &key : recomputationKeys())
            if (recomputations->contains(key))
                options.recomputations.push_back(*recomputationFromString(key.toStdString()));
    }
    // Unchanged options leave the result (and a running search) alone, so the round trip is a no-op.
    const parallel::SearchOptions shown = searchOptions();
    if (options.top == shown.top && options.zero_stages == shown.zero_stages
        && options.recomputations == shown.recomputations)
        return true;
    setSearchOptions(options);
    return true;
}

}  // namespace lse::gui
