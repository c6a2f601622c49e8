// SPDX-License-Identifier: GPL-3.0-or-later
// The Collectives page's lesson settings and animation (Page's lesson interface).
#include "pages/parallel/collectives_page.h"

#include "charts/chart_view.h"
#include "pages/lesson_settings_reader.h"
#include "pages/parallel/step_player.h"
#include "scenario/cluster_links.h"

#include <QComboBox>
#include <QSpinBox>

namespace lse::gui {

namespace {

using parallel::CollectiveAlgorithm;
using parallel::CollectiveOp;

// Lesson identifiers: core's display names in snake_case ("all_reduce"), which
// collectiveOpFromString also reads.
QString opKey(CollectiveOp op)
{
    return QString::fromLatin1(parallel::displayName(op)).replace(QLatin1Char('-'), QLatin1Char('_'));
}

QString algorithmKey(CollectiveAlgorithm algorithm)
{
    return QString::fromLatin1(parallel::toString(algorithm));
}

const QString kIntraNode = QStringLiteral("intra_node");
const QString kInterNode = QStringLiteral("inter_node");

// Finds the item whose data is `data` in a combo box; -1 when none.
int comboIndex(const QComboBox *box, const QVariant &data)
{
    for (int i = 0; i < box->count(); ++i)
        if (box->itemData(i) == data)
            return i;
    return -1;
}

}  // namespace

QJsonObject CollectivesPage::lessonSettings() const
{
    return {
        {QStringLiteral("collective"), opKey(CollectiveOp(op_box_->currentData().toInt()))},
        {QStringLiteral("algorithm"), algorithmKey(CollectiveAlgorithm(algorithm_box_->currentData().toInt()))},
        {QStringLiteral("ranks"), ranks_spin_->value()},
        {QStringLiteral("bytes"), size_box_->currentData().toDouble()},
        {QStringLiteral("link"), link_box_->currentData().toBool() ? kInterNode : kIntraNode},
        {QStringLiteral("step"), player_->currentStep()},
    };
}

bool CollectivesPage::applyLessonSettings(const QJsonObject &settings, QString *error)
{
    QStringList ops, algorithms, sizes;
    for (int i = 0; i < op_box_->count(); ++i)
        ops << opKey(CollectiveOp(op_box_->itemData(i).toInt()));
    for (int i = 0; i < algorithm_box_->count(); ++i)
        algorithms << algorithmKey(CollectiveAlgorithm(algorithm_box_->itemData(i).toInt()));

    LessonSettingsReader reader(settings);
    reader.acceptAnimate();
    const auto op = reader.choice(QStringLiteral("collective"), ops);
    const auto algorithm = reader.choice(QStringLiteral("algorithm"), algorithms);
    const auto ranks = reader.integer(QStringLiteral("ranks"), ranks_spin_->minimum(), ranks_spin_->maximum());
    const auto link = reader.choice(QStringLiteral("link"), {kIntraNode, kInterNode});
    int size_index = -1;
    if (const auto bytes = reader.number(QStringLiteral("bytes"), 0, 1e15)) {
        size_index = comboIndex(size_box_, *bytes);
        if (size_index < 0) {
            for (int i = 0; i < size_box_->count(); ++i)
                sizes << QString::number(size_box_->itemData(i).toDouble(), 'g', 12);
            reader.fail(QStringLiteral("bytes"), tr("expected one of %1, got %2")
                                                     .arg(sizes.join(QLatin1Char('|')), QString::number(*bytes, 'g', 12)));
        }
    }
    const auto step = reader.integer(QStringLiteral("step"), 0, 1 << 20);
    if (!reader.ok())
        return reader.finish(error);

    // The step's range depends on the other settings: simulate what they ask for first.
    const int op_index = op ? int(ops.indexOf(*op)) : op_box_->currentIndex();
    const int algorithm_index = algorithm ? int(algorithms.indexOf(*algorithm)) : algorithm_box_->currentIndex();
    const int link_index = link ? (*link == kInterNode ? 1 : 0) : link_box_->currentIndex();
    if (size_index < 0)
        size_index = size_box_->currentIndex();
    if (step) {
        const auto simulated = parallel::simulateCollective(
            CollectiveOp(op_box_->itemData(op_index).toInt()),
            CollectiveAlgorithm(algorithm_box_->itemData(algorithm_index).toInt()),
            ranks.value_or(ranks_spin_->value()), size_box_->itemData(size_index).toDouble(),
            parallel::clusterLink(scenario().cluster, link_box_->itemData(link_index).toBool()));
        const int last = simulated.ok() ? int(simulated.value().steps.size()) : 0;
        if (*step > last)
            reader.fail(QStringLiteral("step"), tr("expected an integer in 0..%1 for this collective, got %2")
                                                    .arg(last)
                                                    .arg(*step));
    }
    if (!reader.finish(error))
        return false;

    // As a user would: each control's own signal re-simulates.
    op_box_->setCurrentIndex(op_index);
    algorithm_box_->setCurrentIndex(algorithm_index);
    if (ranks)
        ranks_spin_->setValue(*ranks);
    size_box_->setCurrentIndex(size_index);
    link_box_->setCurrentIndex(link_index);
    if (step)
        player_->setCurrentStep(*step);
    return true;
}

bool CollectivesPage::advanceLessonAnimation() { return player_->advance(); }

// The ring (or tree) with the step's transfers and every rank's buffer.
QList<QWidget *> CollectivesPage::lessonAnimationWidgets() const { return {step_chart_, buffer_chart_}; }

bool CollectivesPage::restartLessonAnimation()
{
    player_->restart();
    return true;
}

}  // namespace lse::gui
