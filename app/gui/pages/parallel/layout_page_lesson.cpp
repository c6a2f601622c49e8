// SPDX-License-Identifier: GPL-3.0-or-later
// The Layout page's lesson settings (Page's lesson interface); the page does not animate.
#include "pages/parallel/layout_page.h"

#include "pages/lesson_settings_reader.h"

#include <QComboBox>
#include <QSpinBox>

namespace lse::gui {

namespace {

// Lesson identifiers: core's mesh dimension names ("tp", "dp", ...).
QString dimensionKey(int dim) { return QString::fromLatin1(parallel::toString(parallel::MeshDim(dim))); }

}  // namespace

QJsonObject LayoutPage::lessonSettings() const
{
    return {{QStringLiteral("colour_by"), dimensionKey(colour_combo_->currentData().toInt())},
            {QStringLiteral("rank"), hovered_.value_or(-1)}};
}

bool LayoutPage::applyLessonSettings(const QJsonObject &settings, QString *error)
{
    QStringList dimensions;
    for (int i = 0; i < colour_combo_->count(); ++i)
        dimensions << dimensionKey(colour_combo_->itemData(i).toInt());

    LessonSettingsReader reader(settings);
    reader.acceptAnimate();
    const auto colour = reader.choice(QStringLiteral("colour_by"), dimensions);
    // The GPUs drawn for the current scenario (the spin box's range); -1 outlines none.
    const auto rank = reader.integer(QStringLiteral("rank"), -1, rank_spin_->maximum());
    if (!reader.finish(error))
        return false;
    if (colour)
        colour_combo_->setCurrentIndex(int(dimensions.indexOf(*colour)));
    // After the colour: choosing a dimension clears the outline.
    if (rank)
        setHoveredRank(*rank >= 0 ? std::optional<int>(*rank) : std::nullopt);
    return true;
}

}  // namespace lse::gui
