// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/parallel/collectives_page.h"

#include "charts/chart_palette.h"
#include "charts/chart_view.h"
#include "pages/flow_layout.h"
#include "pages/side_by_side_layout.h"
#include "pages/page_format.h"
#include "pages/parallel/collectives_measurement_section.h"
#include "pages/parallel/parallel_labels.h"
#include "pages/parallel/step_player.h"
#include "scenario/cluster_links.h"
#include "scenario/scenario_json.h"

#include <QComboBox>
#include <QGridLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <cmath>

namespace lse::gui {

namespace {

using parallel::CollectiveAlgorithm;
using parallel::CollectiveOp;

constexpr std::array<CollectiveOp, 6> kOps = {CollectiveOp::AllReduce, CollectiveOp::ReduceScatter,
                                               CollectiveOp::AllGather, CollectiveOp::Broadcast,
                                               CollectiveOp::Reduce,    CollectiveOp::AllToAll};
constexpr std::array<double, 7> kMessageSizes = {1e3, 64e3, 1e6, 16e6, 256e6, 1e9, 10e9};
constexpr int kDefaultSizeIndex = 4;  // 256 MB: a typical gradient bucket
constexpr int kMaxRanks = 16;         // beyond this the step diagram is unreadable
constexpr int kPlayIntervalMs = 1200;

// Message sizes of the time-vs-size plot: 1 KB … 10 GB, four points per decade.
std::vector<double> sweepSizes()
{
    std::vector<double> sizes;
    for (int k = 0; k <= 28; ++k)
        sizes.push_back(1e3 * std::pow(10.0, k / 4.0));
    return sizes;
}

// Rank positions on an ellipse, rank 0 at the top, clockwise (plot coordinates, y up).
constexpr double kRadiusX = 1.7;
constexpr double kRadiusY = 1.0;
constexpr double kNodeHalfWidth = 0.26;
constexpr double kNodeHalfHeight = 0.13;

QPointF rankPosition(int rank, int ranks)
{
    const double angle = M_PI / 2 - 2 * M_PI * rank / std::max(1, ranks);
    return {kRadiusX * std::cos(angle), kRadiusY * std::sin(angle)};
}

QString blockName(const parallel::ChunkTransfer &transfer)
{
    if (transfer.chunk_count <= 1)
        return QStringLiteral("b%1").arg(transfer.chunk);
    return QStringLiteral("b%1–%2").arg(transfer.chunk).arg(transfer.chunk + transfer.chunk_count - 1);
}

// Plain digits: "10006" fits a cell where "10,006" would not.
QString valueText(double value)
{
    return QString::number(value, 'f', 0);
}

}  // namespace

CollectivesPage::CollectivesPage(QWidget *parent) : Page(parent)
{
    auto *layout = new QVBoxLayout(addScrollingContent(this));
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(6);

    intro_ = new QLabel(this);
    intro_->setWordWrap(true);
    layout->addWidget(intro_);

    auto *controls = new FlowLayout(nullptr, 12);
    op_label_ = new QLabel(this);
    op_box_ = new QComboBox(this);
    algorithm_label_ = new QLabel(this);
    algorithm_box_ = new QComboBox(this);
    ranks_label_ = new QLabel(this);
    ranks_spin_ = new QSpinBox(this);
    ranks_spin_->setRange(2, kMaxRanks);
    ranks_spin_->setValue(4);
    size_label_ = new QLabel(this);
    size_box_ = new QComboBox(this);
    link_label_ = new QLabel(this);
    link_box_ = new QComboBox(this);
    op_label_->setBuddy(op_box_);
    algorithm_label_->setBuddy(algorithm_box_);
    ranks_label_->setBuddy(ranks_spin_);
    size_label_->setBuddy(size_box_);
    link_label_->setBuddy(link_box_);
    // Label + field pairs that wrap to the page's width (two lines at 1280 px, three beside the
    // editor on a 1024-px screen).
    controls->addLabelled(op_label_, op_box_);
    controls->addLabelled(algorithm_label_, algorithm_box_);
    controls->addLabelled(ranks_label_, ranks_spin_);
    controls->addLabelled(size_label_, size_box_);
    controls->addLabelled(link_label_, link_box_);
    layout->addLayout(controls);

    player_ = new StepPlayer(this, kPlayIntervalMs);
    step_label_ = new QLabel(this);
    step_label_->setTextFormat(Qt::RichText);
    step_label_->setWordWrap(true);
    layout->addWidget(player_);
    layout->addWidget(step_label_);

    summary_label_ = new QLabel(this);
    summary_label_->setWordWrap(true);
    summary_label_->setTextFormat(Qt::RichText);
    layout->addWidget(summary_label_);

    // Lesson highlight regions (docs/lesson-pages-parallelism.md).
    intro_->setObjectName(QStringLiteral("collective-intro"));
    player_->setObjectName(QStringLiteral("step-player"));
    step_label_->setObjectName(QStringLiteral("collective-step-text"));
    summary_label_->setObjectName(QStringLiteral("collective-summary"));
    op_box_->setObjectName(QStringLiteral("collective-choice"));
    ranks_spin_->setObjectName(QStringLiteral("rank-count"));

    step_chart_ = new ChartView(QStringLiteral("collective-steps"), this);
    buffer_chart_ = new ChartView(QStringLiteral("collective-buffers"), this);
    size_chart_ = new ChartView(QStringLiteral("collective-time-vs-message-size"), this);
    // The ring and the buffers are two views of the same step, read together (a lesson plays them
    // step by step): side by side wherever each gets room for its axes, presentation mode included.
    auto *step_pair = new SideBySideLayout;
    step_pair->setSpacing(8);
    step_pair->addWidget(step_chart_);
    step_pair->addWidget(buffer_chart_);
    layout->addLayout(step_pair, 2);
    layout->addWidget(size_chart_, 1);
    measurement_ = new CollectivesMeasurementSection(this);
    layout->addWidget(measurement_, 1);

    for (CollectiveOp op : kOps)
        op_box_->addItem(QString(), int(op));
    algorithm_box_->addItem(QString(), int(CollectiveAlgorithm::Ring));
    algorithm_box_->addItem(QString(), int(CollectiveAlgorithm::Tree));
    for (double size : kMessageSizes)
        size_box_->addItem(format::bytes(size), size);
    size_box_->setCurrentIndex(kDefaultSizeIndex);
    link_box_->addItem(QString(), false);
    link_box_->addItem(QString(), true);

    const auto resimulate = [this] {
        simulate();
        refreshSizeChart();
    };
    connect(op_box_, qOverload<int>(&QComboBox::currentIndexChanged), this, resimulate);
    connect(algorithm_box_, qOverload<int>(&QComboBox::currentIndexChanged), this, resimulate);
    connect(ranks_spin_, qOverload<int>(&QSpinBox::valueChanged), this, resimulate);
    connect(size_box_, qOverload<int>(&QComboBox::currentIndexChanged), this, resimulate);
    connect(link_box_, qOverload<int>(&QComboBox::currentIndexChanged), this, resimulate);
    // The player owns Space / Left / Right on this page (StepPlayer); keyPressEvent covers key
    // events sent to the page itself.
    connect(player_, &StepPlayer::currentStepChanged, this, [this](int step) {
        refreshStep();
        Q_EMIT currentStepChanged(step);
    });

    retranslateControls();
    setChartMinimumHeights(kChartMinimumHeight, kPresentationChartMinimumHeight);
    setPresentation(false);
    simulate();
    // Open on the first transfers; step 0 shows the buffers before.
    {
        const QSignalBlocker blocker(player_);
        player_->setCurrentStep(1);
    }
    refreshStep();
    refreshSizeChart();
}

QString CollectivesPage::pageId() { return QStringLiteral("collectives"); }

QString CollectivesPage::pageTitle() { return tr("Collectives"); }

QList<ChartView *> CollectivesPage::charts() const
{
    return {step_chart_, buffer_chart_, size_chart_, measurement_->chart()};
}

void CollectivesPage::estimateChanged(const Scenario * /*previous*/)
{
    simulate();
    refreshSizeChart();
}

void CollectivesPage::applyPresentation(bool presentation)
{
    step_chart_->setMinimumHeight(presentation ? kPresentationChartMinimumHeight : 360);
}

void CollectivesPage::retranslate()
{
    retranslateControls();
    refreshStep();
    refreshSizeChart();
}

void CollectivesPage::keyPressEvent(QKeyEvent *event)
{
    if (!player_->handleKey(event))
        Page::keyPressEvent(event);
}

void CollectivesPage::retranslateControls()
{
    intro_->setText(tr("A collective moves a message of S bytes between n ranks in steps; in each step every "
                       "rank sends at most one message. Step through the algorithm (Space plays or pauses, "
                       "Left/Right step) to see which block goes where, and compare the closed-form time on the "
                       "cluster's NVLink-class and network links."));
    op_label_->setText(tr("&Operation:"));
    algorithm_label_->setText(tr("&Algorithm:"));
    ranks_label_->setText(tr("&Ranks n:"));
    size_label_->setText(tr("&Message S:"));
    link_label_->setText(tr("&Link:"));
    for (int i = 0; i < op_box_->count(); ++i)
        op_box_->setItemText(i, collectiveOpLabel(CollectiveOp(op_box_->itemData(i).toInt())));
    for (int i = 0; i < algorithm_box_->count(); ++i)
        algorithm_box_->setItemText(i, collectiveAlgorithmLabel(CollectiveAlgorithm(algorithm_box_->itemData(i).toInt())));
    link_box_->setItemText(0, tr("intra-node"));
    link_box_->setItemText(1, tr("inter-node"));
    op_box_->setToolTip(tr("Message size follows nccl-tests: all-reduce, broadcast and reduce move S bytes; "
                           "all-gather's S is the full output, reduce-scatter's the full input, all-to-all's each "
                           "rank's send buffer."));
    algorithm_box_->setToolTip(tr("Ring (Patarasuk & Yuan 2009): n−1 steps of S/n per phase. Tree: recursive "
                                  "halving / doubling and binomial trees (Thakur, Rabenseifner & Gropp 2005)."));
    ranks_spin_->setToolTip(tr("Number of ranks taking part (2–%1 for a readable diagram).").arg(kMaxRanks));
    link_box_->setToolTip(tr("Which link of the scenario's cluster the step simulation uses: intra-node "
                             "(NVLink / Infinity Fabric / ICI) or inter-node (network per GPU)."));
    player_->setToolTips(tr("Previous step (Left)"), tr("Next step (Right)"));
    player_->setToolTip(tr("Step 0 shows the buffers before the collective"));
}

parallel::LinkModel CollectivesPage::currentLink() const
{
    return parallel::clusterLink(scenario().cluster, link_box_->currentData().toBool());
}

void CollectivesPage::setOperation(CollectiveOp op)
{
    const int index = op_box_->findData(int(op));
    if (index >= 0)
        op_box_->setCurrentIndex(index);
}

void CollectivesPage::setAlgorithm(CollectiveAlgorithm algorithm)
{
    const int index = algorithm_box_->findData(int(algorithm));
    if (index >= 0)
        algorithm_box_->setCurrentIndex(index);
}

void CollectivesPage::setRanks(int ranks) { ranks_spin_->setValue(ranks); }

const parallel::CollectiveSimulation &CollectivesPage::simulation() const { return simulation_; }

int CollectivesPage::stepCount() const { return int(simulation_.steps.size()); }

int CollectivesPage::currentStep() const { return player_->currentStep(); }

void CollectivesPage::setCurrentStep(int step) { player_->setCurrentStep(step); }

void CollectivesPage::stepForward() { player_->stepForward(); }

void CollectivesPage::stepBack() { player_->stepBack(); }

bool CollectivesPage::isPlaying() const { return player_->isPlaying(); }

void CollectivesPage::setPlaying(bool playing) { player_->setPlaying(playing); }

void CollectivesPage::simulate()
{
    const auto op = CollectiveOp(op_box_->currentData().toInt());
    const auto algorithm = CollectiveAlgorithm(algorithm_box_->currentData().toInt());
    auto result = parallel::simulateCollective(op, algorithm, ranks_spin_->value(),
                                               size_box_->currentData().toDouble(), currentLink());
    if (result.ok()) {
        simulation_ = std::move(result.value());
        problem_.clear();
    } else {
        simulation_ = parallel::CollectiveSimulation{};
        simulation_.op = op;
        simulation_.algorithm = algorithm;
        problem_ = format::fromStd(result.problems().front().message);
    }
    {
        // A shorter simulation clamps the step; the redraw below covers it.
        const QSignalBlocker blocker(player_);
        player_->setStepCount(stepCount());
    }
    refreshStep();
    Q_EMIT simulationChanged();
}

QString CollectivesPage::timeFormulaText() const
{
    const bool ring = simulation_.algorithm == CollectiveAlgorithm::Ring;
    switch (simulation_.op) {
    case CollectiveOp::AllReduce:
        return ring ? tr("t = 2(n−1)·α + 2(n−1)/n · S/β (reduce-scatter, then all-gather)")
                    : tr("t = 2·log₂p·α + 2(p−1)/p · S/β, p = n for a power of two (Rabenseifner: halving "
                         "then doubling); otherwise + 2(α + S/β) to fold the extra ranks");
    case CollectiveOp::ReduceScatter:
    case CollectiveOp::AllGather:
        return ring ? tr("t = (n−1)·α + (n−1)/n · S/β")
                    : tr("t = log₂n·α + (n−1)/n · S/β for a power of two n (recursive halving / doubling)");
    case CollectiveOp::Broadcast:
    case CollectiveOp::Reduce:
        return ring ? tr("t = 2(n−1)·(α + S/(n·β)) (pipelined chain of n blocks)")
                    : tr("t = ⌈log₂n⌉·(α + S/β) (binomial tree)");
    case CollectiveOp::AllToAll:
        return tr("t = (n−1)·α + (n−1)/n · S/β (n−1 exchanges of S/n)");
    }
    return QString();
}

QString CollectivesPage::stepText() const
{
    if (!problem_.isEmpty())
        return tr("Cannot simulate: %1").arg(problem_.toHtmlEscaped());
    if (stepCount() == 0)
        return tr("Nothing to send with one rank.");
    if (currentStep() == 0)
        return tr("<b>Before step 1</b> of %1: every rank holds its own buffer of %2 blocks.")
            .arg(stepCount())
            .arg(simulation_.chunks);
    const parallel::CollectiveStep &step = simulation_.steps.at(std::size_t(currentStep() - 1));
    double largest = 0;
    for (const parallel::ChunkTransfer &transfer : step.transfers)
        largest = std::max(largest, transfer.bytes);
    double elapsed = 0;
    for (int k = 0; k < currentStep(); ++k)
        elapsed += simulation_.steps.at(std::size_t(k)).seconds;
    return tr("<b>Step %1 of %2</b>: %3 messages, up to %4 each, %5 (α + bytes/β of the busiest rank); "
              "%6 of %7 done.")
        .arg(currentStep())
        .arg(stepCount())
        .arg(step.transfers.size())
        .arg(format::bytes(largest), formatSeconds(step.seconds), formatSeconds(elapsed),
             formatSeconds(simulation_.seconds));
}

QString CollectivesPage::summaryText() const
{
    if (!problem_.isEmpty())
        return QString();
    const parallel::LinkModel link = currentLink();
    return tr("Total %1 in %2 steps; each rank sends up to %3. <b>Algorithm bandwidth</b> S/t = %4/s, "
              "<b>bus bandwidth</b> = algbw × %5 = %6/s (nccl-tests PERFORMANCE.md; compare with the link's "
              "β = %7/s).")
        .arg(formatSeconds(simulation_.seconds))
        .arg(stepCount())
        .arg(format::bytes(simulation_.bytes_sent_per_rank),
             format::bytes(simulation_.algorithm_bandwidth_bytes_per_second),
             format::decimal(parallel::busBandwidthFactor(simulation_.op, simulation_.ranks), 3),
             format::bytes(simulation_.bus_bandwidth_bytes_per_second),
             format::bytes(link.bandwidth_bytes_per_second));
}

void CollectivesPage::refreshStep()
{
    step_label_->setText(stepText());
    summary_label_->setText(summaryText());
    step_chart_->setData(stepChart());
    buffer_chart_->setData(bufferChart());
}

void CollectivesPage::refreshSizeChart()
{
    size_chart_->setData(sizeChart());
    measurement_->setContext(ranks_spin_->value(), currentLink(), link_box_->currentText());
}

ChartData CollectivesPage::stepChart() const
{
    ChartData chart;
    chart.show_axes = false;
    const QString name = tr("%1 %2").arg(collectiveAlgorithmLabel(simulation_.algorithm), collectiveOpLabel(simulation_.op));
    const int n = simulation_.ranks;
    if (!problem_.isEmpty() || n < 1) {
        chart.title = tr("%1: %2").arg(name, problem_);
        return chart;
    }
    chart.title = currentStep() == 0 ? tr("%1, %2 ranks, S = %3: before the first step")
                                   .arg(name)
                                   .arg(n)
                                   .arg(format::bytes(simulation_.message_bytes))
                             : tr("%1, %2 ranks, S = %3: step %4 of %5")
                                   .arg(name)
                                   .arg(n)
                                   .arg(format::bytes(simulation_.message_bytes))
                                   .arg(currentStep())
                                   .arg(stepCount());
    const QPalette pal = palette();
    const QColor node = chartSeriesColor(0, pal);
    const QColor summed = chartSeriesColor(1, pal);
    const QColor copied = chartSeriesColor(2, pal);
    const bool rooted = simulation_.op == CollectiveOp::Broadcast || simulation_.op == CollectiveOp::Reduce;
    for (int r = 0; r < n; ++r) {
        const QPointF p = rankPosition(r, n);
        ChartRect rect;
        rect.x0 = p.x() - kNodeHalfWidth;
        rect.x1 = p.x() + kNodeHalfWidth;
        rect.y0 = p.y() - kNodeHalfHeight;
        rect.y1 = p.y() + kNodeHalfHeight;
        rect.color = rooted && r == simulation_.root ? blendColors(node, pal.color(QPalette::Text), 0.35) : node;
        rect.label = rooted && r == simulation_.root ? tr("rank %1 (root)").arg(r) : tr("rank %1").arg(r);
        rect.tooltip = tr("<b>Rank %1</b><br>%2 blocks of %3").arg(r).arg(simulation_.chunks).arg(
            format::bytes(simulation_.message_bytes / std::max(1, simulation_.chunks)));
        chart.rects << rect;
    }
    if (currentStep() > 0 && currentStep() <= stepCount()) {
        const parallel::CollectiveStep &step = simulation_.steps.at(std::size_t(currentStep() - 1));
        for (const parallel::ChunkTransfer &transfer : step.transfers) {
            const QPointF from = rankPosition(transfer.from_rank, n);
            const QPointF to = rankPosition(transfer.to_rank, n);
            const QPointF d = to - from;
            const double length = std::hypot(d.x(), d.y());
            if (length <= 0)
                continue;
            const QPointF unit = d / length;
            // Start and end outside the rank boxes; shift sideways so that the two directions of an
            // exchange are two parallel arrows instead of one line.
            const double clearance = std::min(length * 0.3, kNodeHalfWidth + 0.04);
            const QPointF side(unit.y() * 0.07, -unit.x() * 0.07);
            const QPointF start = from + unit * clearance + side;
            const QPointF end = to - unit * clearance + side;
            ChartArrow arrow;
            arrow.x0 = start.x();
            arrow.y0 = start.y();
            arrow.x1 = end.x();
            arrow.y1 = end.y();
            arrow.color = transfer.reduces ? summed : copied;
            arrow.group = transfer.reduces ? tr("sent and summed into the receiver's block") : tr("sent and copied");
            // The label sits a third of the way from the sender, on the arrow's own side, so the two
            // labels of an exchange do not cover each other (an arrow label would sit in the middle).
            ChartText label;
            const QPointF at = start + (end - start) * 0.35 + side * 1.6;
            label.x = at.x();
            label.y = at.y();
            label.text = transfer.reduces ? tr("%1 +").arg(blockName(transfer)) : blockName(transfer);
            label.color = arrow.color;
            label.bold = true;
            chart.texts << label;
            arrow.tooltip = tr("<b>Rank %1 → rank %2</b><br>block %3, %4<br>%5<br>step time %6 = α + %7 / β")
                                .arg(transfer.from_rank)
                                .arg(transfer.to_rank)
                                .arg(blockName(transfer), format::bytes(transfer.bytes),
                                     transfer.reduces ? tr("added to the receiver's partial sum")
                                                      : tr("copied over the receiver's block"),
                                     formatSeconds(step.seconds), format::bytes(transfer.bytes));
            chart.arrows << arrow;
        }
    }
    chart.formula.inputs = tr("n = %1, S = %2, α = %3, β = %4/s")
                               .arg(n)
                               .arg(format::bytes(simulation_.message_bytes), formatSeconds(currentLink().latency_seconds),
                                    format::bytes(currentLink().bandwidth_bytes_per_second));
    chart.formula.formula = timeFormulaText();
    chart.formula.source = tr("Patarasuk & Yuan 2009 (ring); Thakur, Rabenseifner & Gropp 2005 §4 (tree)");
    return chart;
}

ChartData CollectivesPage::bufferChart() const
{
    ChartData chart;
    chart.show_axes = false;
    chart.y_reversed = true;
    const int n = simulation_.ranks;
    const int blocks = simulation_.chunks;
    if (!problem_.isEmpty() || simulation_.initial_values.empty()) {
        chart.title = tr("Buffers: %1").arg(problem_);
        return chart;
    }
    const bool all_to_all = simulation_.op == CollectiveOp::AllToAll;
    chart.title = tr("Each rank's buffer, block by block");
    const QPalette pal = palette();
    const QColor neutral = blendColors(pal.color(QPalette::Base), pal.color(QPalette::Text), 0.12);
    const QColor result = blendColors(pal.color(QPalette::Base), chartSeriesColor(0, pal), 0.45);
    const QColor sending = chartSeriesColor(0, pal);
    const QColor summed = chartSeriesColor(1, pal);
    const QColor copied = chartSeriesColor(2, pal);
    // Three panels of `blocks` columns: before | this step | after, with a gap of one column.
    const double label_width = 2.2;
    const double panel_x[3] = {0.0, double(blocks + 1), double(2 * (blocks + 1))};
    // Short headers: each is centred over a panel only `blocks` cells wide, and at 1024×768 in
    // presentation a longer one ran past the chart's edge ("after the last ste").
    const QString headers[3] = {all_to_all ? tr("send (before)") : tr("before"),
                                currentStep() == 0 ? tr("step —") : tr("step %1").arg(currentStep()),
                                all_to_all ? tr("receive (after)") : tr("after")};
    for (int panel = 0; panel < 3; ++panel) {
        ChartText header;
        header.x = panel_x[panel] + blocks / 2.0 - 0.5;
        header.y = -0.9;
        header.text = headers[panel];
        header.bold = true;
        chart.texts << header;
    }
    // What each cell does in the current step.
    struct CellRole {
        QStringList sent_to;
        QStringList received_from;
        bool summed = false;
    };
    const std::vector<CellRole> empty_row(static_cast<std::size_t>(blocks));
    std::vector<std::vector<CellRole>> roles(static_cast<std::size_t>(n), empty_row);
    if (currentStep() > 0 && currentStep() <= stepCount()) {
        for (const parallel::ChunkTransfer &t : simulation_.steps.at(std::size_t(currentStep() - 1)).transfers) {
            for (int b = t.chunk; b < t.chunk + t.chunk_count && b < blocks; ++b) {
                roles[std::size_t(t.from_rank)][std::size_t(b)].sent_to << QString::number(t.to_rank);
                // All-to-all: block b of the sender lands in the receiver's slot of the sender.
                const int slot = all_to_all ? t.from_rank : b;
                CellRole &received = roles[std::size_t(t.to_rank)][std::size_t(slot)];
                received.received_from << QString::number(t.from_rank);
                received.summed = received.summed || t.reduces;
            }
        }
    }
    for (int r = 0; r < n; ++r) {
        ChartText row;
        row.x = -label_width;
        row.y = r;
        row.text = tr("rank %1").arg(r);
        row.alignment = Qt::AlignLeft | Qt::AlignVCenter;
        chart.texts << row;
        for (int b = 0; b < blocks; ++b) {
            const auto cell = [&](int panel) {
                ChartRect rect;
                rect.x0 = panel_x[panel] + b - 0.46;
                rect.x1 = panel_x[panel] + b + 0.46;
                rect.y0 = r - 0.42;
                rect.y1 = r + 0.42;
                return rect;
            };
            const double before = simulation_.initial_values[std::size_t(r)][std::size_t(b)];
            const double after = simulation_.final_values[std::size_t(r)][std::size_t(b)];
            ChartRect initial = cell(0);
            initial.color = neutral;
            initial.label = valueText(before);
            initial.tooltip = tr("<b>Rank %1, block %2</b> before: %3").arg(r).arg(b).arg(valueText(before));
            chart.rects << initial;

            const CellRole &role = roles[std::size_t(r)][std::size_t(b)];
            ChartRect moving = cell(1);
            moving.label = QStringLiteral("b%1").arg(b);
            QStringList parts;
            if (!role.received_from.isEmpty()) {
                moving.color = role.summed ? summed : copied;
                moving.label = (role.summed ? QStringLiteral("+") : QStringLiteral("←")) + role.received_from.join(',');
                parts << (role.summed ? tr("adds the block from rank %1") : tr("receives the block from rank %1"))
                             .arg(role.received_from.join(QStringLiteral(", ")));
            }
            if (!role.sent_to.isEmpty()) {
                if (role.received_from.isEmpty()) {
                    moving.color = sending;
                    moving.label = QStringLiteral("→") + role.sent_to.join(',');
                }
                parts << tr("sends it to rank %1").arg(role.sent_to.join(QStringLiteral(", ")));
            }
            if (parts.isEmpty()) {
                moving.color = neutral;
                parts << tr("idle in this step");
            }
            moving.tooltip = tr("<b>Rank %1, %2 %3</b> in step %4: %5")
                                 .arg(r)
                                 .arg(all_to_all ? tr("slot") : tr("block"))
                                 .arg(b)
                                 .arg(currentStep())
                                 .arg(parts.join(QStringLiteral("; ")));
            chart.rects << moving;

            ChartRect final_cell = cell(2);
            const bool output = parallel::isOutputElement(simulation_, r, b);
            final_cell.color = output ? result : neutral;
            final_cell.label = valueText(after);
            final_cell.tooltip = output ? tr("<b>Rank %1, %2 %3</b> after: %4")
                                              .arg(r)
                                              .arg(all_to_all ? tr("slot") : tr("block"))
                                              .arg(b)
                                              .arg(valueText(after))
                                        : tr("<b>Rank %1, block %2</b> after: %3 — not part of the result (what "
                                             "the algorithm left there)")
                                              .arg(r)
                                              .arg(b)
                                              .arg(valueText(after));
            chart.rects << final_cell;
        }
    }
    // The colour key under the grid (texts rather than a legend, which would cover the rows), two
    // per line so that the last one stays inside the chart on a narrow screen.
    const std::pair<QColor, QString> keys[] = {{sending, tr("■ sends")},
                                               {summed, tr("■ receives and adds")},
                                               {copied, tr("■ receives a copy")},
                                               {result.darker(140), tr("■ part of the result")}};
    const double key_spacing = (panel_x[2] + blocks) / 2.0;
    for (int k = 0; k < 4; ++k) {
        ChartText key;
        key.x = (k % 2) * key_spacing - 0.5;
        key.y = n - 0.05 + 0.55 * (k / 2);
        key.text = keys[k].second;
        key.color = keys[k].first;
        key.bold = true;
        key.alignment = Qt::AlignLeft | Qt::AlignVCenter;
        chart.texts << key;
    }
    chart.formula.inputs = tr("n = %1 ranks, %2 blocks of %3; rank r's block i starts as (r+1)·1000 + i")
                               .arg(n)
                               .arg(blocks)
                               .arg(format::bytes(simulation_.message_bytes / std::max(1, blocks)));
    chart.formula.formula = tr("Values are core's simulation: every transfer of a step reads the buffers as they "
                               "were before the step; a reducing transfer adds, others copy.");
    chart.formula.source = tr("Patarasuk & Yuan 2009; Thakur, Rabenseifner & Gropp 2005 §4");
    return chart;
}

ChartData CollectivesPage::sizeChart() const
{
    ChartData chart;
    chart.log_x = true;
    chart.log_y = true;
    chart.x_label = tr("Message size S (bytes, log scale)");
    chart.x_unit = QStringLiteral("bytes");
    chart.y_label = tr("Time (s, log scale)");
    chart.y_unit = QStringLiteral("s");
    const auto op = CollectiveOp(op_box_->currentData().toInt());
    const auto algorithm = CollectiveAlgorithm(algorithm_box_->currentData().toInt());
    const int n = ranks_spin_->value();
    chart.title = tr("%1 %2 time vs message size, n = %3").arg(collectiveAlgorithmLabel(algorithm), collectiveOpLabel(op)).arg(n);
    const Accelerator &gpu = scenario().cluster.accelerator;
    QStringList inputs;
    for (bool inter : {false, true}) {
        const parallel::LinkModel link = parallel::clusterLink(scenario().cluster, inter);
        ChartSeries line;
        line.name = inter ? tr("inter-node (β = %1/s, α = %2)")
                                .arg(format::bytes(link.bandwidth_bytes_per_second), formatSeconds(link.latency_seconds))
                          : tr("intra-node (β = %1/s, α = %2)")
                                .arg(format::bytes(link.bandwidth_bytes_per_second), formatSeconds(link.latency_seconds));
        line.dashed = inter;
        for (double size : sweepSizes()) {
            const double seconds = parallel::collectiveSeconds(op, algorithm, n, size, link);
            if (!std::isfinite(seconds) || seconds <= 0)
                continue;
            line.x << size;
            line.y << seconds;
            const auto sim = parallel::simulateCollective(op, algorithm, n, size, link);
            const QString bandwidths = sim.ok()
                ? tr("algbw %1/s, busbw %2/s").arg(format::bytes(sim.value().algorithm_bandwidth_bytes_per_second),
                                                   format::bytes(sim.value().bus_bandwidth_bytes_per_second))
                : QString();
            line.point_tooltips << tr("<b>%1</b><br>S = %2: t = %3<br>%4")
                                       .arg(line.name.toHtmlEscaped(), format::bytes(size), formatSeconds(seconds),
                                            bandwidths);
        }
        chart.series << line;
        inputs << (inter ? tr("inter-node: %1/s × efficiency %2, α = %3")
                         : tr("intra-node: %1/s × efficiency %2, α = %3"))
                      .arg(format::bytes(linkBytesPerSecondPerGpu(scenario().cluster, inter)),  // scenario's or catalog's
                           format::decimal(scenario().cluster.link_efficiency, 2),
                           formatSeconds(link.latency_seconds));
    }
    // The message size the step simulation uses.
    if (problem_.isEmpty() && simulation_.seconds > 0) {
        ChartSeries marker;
        marker.name = tr("Simulated above (S = %1)").arg(format::bytes(simulation_.message_bytes));
        marker.kind = ChartSeries::Kind::Marker;
        marker.x << simulation_.message_bytes;
        marker.y << simulation_.seconds;
        marker.point_tooltips << tr("Step simulation: %1 in %2 steps").arg(formatSeconds(simulation_.seconds))
                                     .arg(stepCount());
        chart.series << marker;
    }
    chart.formula.inputs = tr("%1 (%2); n = %3").arg(format::fromStd(gpu.name).toHtmlEscaped(), inputs.join(QStringLiteral("; "))).arg(n);
    chart.formula.formula = timeFormulaText() + tr(" — latency dominates small messages, bandwidth large ones");
    chart.formula.source = tr("Alpha-beta model: Thakur, Rabenseifner & Gropp 2005; ring: Patarasuk & Yuan 2009; "
                              "bandwidths: %1").arg(format::firstSource(gpu.source).toHtmlEscaped());
    return chart;
}

}  // namespace lse::gui
