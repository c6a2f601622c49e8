// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/kernels/flash_attention_section.h"

#include "charts/chart_palette.h"
#include "charts/chart_view.h"
#include "kernels/kernel_roofline.h"
#include "pages/flow_layout.h"
#include "pages/kernels/flash_attention_animation.h"
#include "pages/kernels/flash_attention_charts.h"
#include "pages/kernels/flash_attention_counters.h"
#include "pages/kernels/flash_attention_text.h"
#include "pages/page_format.h"
#include "pages/parallel/step_player.h"
#include "pages/side_by_side_layout.h"
#include "scenario/scenario_json.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace lse::gui {

namespace {

using kernels::AttentionAlgorithm;

constexpr int kPlayIntervalMs = 700;  // long enough to read the step's caption aloud
constexpr int kDefaultSequenceLength = 1024;
constexpr int kDefaultHeadDim = 64;
constexpr int kDefaultElementBytes = 2;
// M when the catalog has none for the accelerator (a TPU): the A100's 164 KiB per SM.
constexpr int kFallbackSramBytes = 164 * 1024;
// N²·d of the largest numeric example worked out on every edit (N = 1024, d = 64).
constexpr std::int64_t kMaxInteractiveExampleWork = std::int64_t(1) << 26;

QLabel *wrappedLabel(QWidget *parent, Qt::TextFormat format = Qt::AutoText)
{
    auto *label = new QLabel(parent);
    label->setWordWrap(true);
    label->setTextFormat(format);
    return label;
}

}  // namespace

FlashAttentionSection::FlashAttentionSection(QWidget *parent) : PageSection(parent)
{
    accelerator_ = defaultScenario().cluster.accelerator;
    const Result<std::int64_t> per_sm = kernels::defaultSramBytes(accelerator_);
    if (per_sm)
        accelerator_sram_bytes_ = *per_sm;

    QWidget *content = addScrollingContent(this);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(6);
    intro_ = wrappedLabel(content);
    intro_->setObjectName(QStringLiteral("flash-attention-intro"));
    layout->addWidget(intro_);
    buildControls(content);
    auto *inputs = new FlowLayout;
    inputs->addLabelled(n_label_, n_spin_);
    inputs->addLabelled(d_label_, d_spin_);
    auto *m_row = new QHBoxLayout;
    m_row->setContentsMargins(0, 0, 0, 0);
    m_row->addWidget(m_label_);
    m_row->addWidget(m_spin_);
    m_row->addWidget(m_reset_);
    inputs->addLayout(m_row);
    inputs->addLabelled(element_label_, element_box_);
    inputs->addWidget(causal_check_);
    inputs->addLabelled(algorithm_label_, algorithm_box_);
    layout->addLayout(inputs);

    sram_note_ = wrappedLabel(content);
    sram_note_->setObjectName(QStringLiteral("flash-attention-sram-note"));
    layout->addWidget(sram_note_);
    blocks_label_ = wrappedLabel(content);
    blocks_label_->setObjectName(QStringLiteral("flash-attention-blocks"));
    layout->addWidget(blocks_label_);
    problem_label_ = wrappedLabel(content);
    problem_label_->setObjectName(QStringLiteral("flash-attention-problem"));
    layout->addWidget(problem_label_);

    player_ = new StepPlayer(this, kPlayIntervalMs);
    player_->setObjectName(QStringLiteral("step-player"));
    layout->addWidget(player_);
    caption_ = wrappedLabel(content, Qt::RichText);
    caption_->setObjectName(QStringLiteral("flash-attention-step"));
    layout->addWidget(caption_);
    animation_ = new FlashAttentionAnimation(content);
    animation_->setObjectName(QStringLiteral("flash-attention-animation"));
    layout->addWidget(animation_);
    counters_ = new FlashAttentionCounters(content);
    layout->addWidget(counters_);

    charts_intro_ = wrappedLabel(content);
    charts_intro_->setObjectName(QStringLiteral("flash-attention-charts-intro"));
    layout->addWidget(charts_intro_);
    io_over_n_chart_ = new ChartView(QStringLiteral("flash-attention-io-over-n"), content);
    io_over_m_chart_ = new ChartView(QStringLiteral("flash-attention-io-over-m"), content);
    io_charts_layout_ = new SideBySideLayout;
    io_charts_layout_->addWidget(io_over_n_chart_);
    io_charts_layout_->addWidget(io_over_m_chart_);
    layout->addLayout(io_charts_layout_);
    roofline_chart_ = new ChartView(QStringLiteral("flash-attention-roofline"), content);
    layout->addWidget(roofline_chart_);
    layout->addStretch(1);

    connect(player_, &StepPlayer::currentStepChanged, this, &FlashAttentionSection::showStep);
    const auto changed = [this] { recompute(); };
    connect(n_spin_, qOverload<int>(&QSpinBox::valueChanged), this, changed);
    connect(d_spin_, qOverload<int>(&QSpinBox::valueChanged), this, changed);
    connect(m_spin_, qOverload<int>(&QSpinBox::valueChanged), this, changed);
    connect(element_box_, qOverload<int>(&QComboBox::currentIndexChanged), this, changed);
    connect(causal_check_, &QCheckBox::toggled, this, changed);
    connect(algorithm_box_, qOverload<int>(&QComboBox::currentIndexChanged), this, changed);
    connect(m_reset_, &QToolButton::clicked, this, &FlashAttentionSection::resetSramToAccelerator);

    retranslate();
    setPresentation(false);
}

void FlashAttentionSection::buildControls(QWidget *content)
{
    n_label_ = new QLabel(content);
    n_spin_ = new QSpinBox(content);
    n_spin_->setRange(1, int(kernels::kMaxSequenceLength));
    n_spin_->setGroupSeparatorShown(true);
    n_spin_->setValue(kDefaultSequenceLength);
    n_spin_->setObjectName(QStringLiteral("flash-attention-n"));
    d_label_ = new QLabel(content);
    d_spin_ = new QSpinBox(content);
    d_spin_->setRange(1, int(kernels::kMaxHeadDim));
    d_spin_->setValue(kDefaultHeadDim);
    d_spin_->setObjectName(QStringLiteral("flash-attention-d"));
    m_label_ = new QLabel(content);
    m_spin_ = new QSpinBox(content);
    m_spin_->setRange(1, int(kernels::kMaxSramBytes));
    m_spin_->setGroupSeparatorShown(true);
    m_spin_->setValue(int(accelerator_sram_bytes_.value_or(kFallbackSramBytes)));
    m_spin_->setObjectName(QStringLiteral("flash-attention-m"));
    m_reset_ = new QToolButton(content);
    m_reset_->setText(QStringLiteral("↺"));
    element_label_ = new QLabel(content);
    element_box_ = new QComboBox(content);
    for (int bytes : {2, 4, 1})
        element_box_->addItem(QString(), bytes);
    element_box_->setCurrentIndex(element_box_->findData(kDefaultElementBytes));
    causal_check_ = new QCheckBox(content);
    causal_check_->setObjectName(QStringLiteral("flash-attention-causal"));
    algorithm_label_ = new QLabel(content);
    algorithm_box_ = new QComboBox(content);
    for (AttentionAlgorithm algorithm : {AttentionAlgorithm::Standard, AttentionAlgorithm::Flash, AttentionAlgorithm::Flash2})
        algorithm_box_->addItem(QString(), int(algorithm));
    algorithm_box_->setCurrentIndex(1);
    algorithm_box_->setObjectName(QStringLiteral("flash-attention-algorithm"));
    n_label_->setBuddy(n_spin_);
    d_label_->setBuddy(d_spin_);
    m_label_->setBuddy(m_spin_);
    element_label_->setBuddy(element_box_);
    algorithm_label_->setBuddy(algorithm_box_);
}

QString FlashAttentionSection::title() const { return tr("FlashAttention"); }

QList<ChartView *> FlashAttentionSection::charts() const
{
    return {io_over_n_chart_, io_over_m_chart_, roofline_chart_};
}

void FlashAttentionSection::setPresentation(bool presentation)
{
    PageSection::setPresentation(presentation);
    presentation_ = presentation;
    for (ChartView *chart : charts())
        chart->setMinimumHeight(presentation ? kPresentationChartMinimumHeight : kChartMinimumHeight + 40);
    // On a projector each chart gets the whole width.
    io_charts_layout_->setStacked(presentation);
}

void FlashAttentionSection::showEstimate(const Scenario &scenario, const Estimate &)
{
    const Accelerator &accelerator = scenario.cluster.accelerator;
    const bool sram_changed = accelerator.id != accelerator_.id || accelerator.sram_bytes != accelerator_.sram_bytes
        || accelerator.sm_count != accelerator_.sm_count;
    accelerator_ = accelerator;
    if (sram_changed) {
        // A new accelerator brings its own M (the user's own M stays while the accelerator does).
        const Result<std::int64_t> per_sm = kernels::defaultSramBytes(accelerator_);
        accelerator_sram_bytes_.reset();
        if (per_sm)
            accelerator_sram_bytes_ = *per_sm;
        if (accelerator_sram_bytes_) {
            const QSignalBlocker blocker(m_spin_);
            m_spin_->setValue(int(*accelerator_sram_bytes_));
        }
    }
    recompute();  // the roofline follows the accelerator's peak and bandwidth
}

void FlashAttentionSection::resetSramToAccelerator()
{
    if (accelerator_sram_bytes_)
        m_spin_->setValue(int(*accelerator_sram_bytes_));
}

void FlashAttentionSection::setSequenceLength(int n) { n_spin_->setValue(n); }
void FlashAttentionSection::setHeadDim(int d) { d_spin_->setValue(d); }
void FlashAttentionSection::setSramBytes(int bytes) { m_spin_->setValue(bytes); }
void FlashAttentionSection::setCausal(bool causal) { causal_check_->setChecked(causal); }

void FlashAttentionSection::setElementBytes(int bytes)
{
    const int index = element_box_->findData(bytes);
    if (index >= 0)
        element_box_->setCurrentIndex(index);
}

void FlashAttentionSection::setAlgorithm(AttentionAlgorithm algorithm)
{
    const int index = algorithm_box_->findData(int(algorithm));
    if (index >= 0)
        algorithm_box_->setCurrentIndex(index);
}

kernels::AttentionConfig FlashAttentionSection::config() const
{
    kernels::AttentionConfig config;
    config.sequence_length = n_spin_->value();
    config.head_dim = d_spin_->value();
    config.sram_bytes = m_spin_->value();
    config.element_bytes = element_box_->currentData().toInt();
    config.causal = causal_check_->isChecked();
    return config;
}

AttentionAlgorithm FlashAttentionSection::algorithm() const
{
    return AttentionAlgorithm(algorithm_box_->currentData().toInt());
}

QString FlashAttentionSection::problemText() const
{
    QStringList lines;
    for (const Problem &problem : problems_)
        lines << tr("%1: %2 [%3]").arg(FlashAttentionText::fieldLabel(problem.field), format::fromStd(problem.message),
                                       format::fromStd(problem.rule));
    return lines.join(QLatin1Char('\n'));
}

QString FlashAttentionSection::animationNote() const { return animation_note_; }

void FlashAttentionSection::recompute()
{
    const kernels::AttentionConfig config = this->config();
    problems_ = kernels::validateAttentionConfig(config);
    io_.reset();
    steps_.reset();
    animation_note_.clear();
    values_note_.clear();
    if (problems_.empty()) {
        const Result<kernels::AttentionIo> io = kernels::attentionIo(config);
        if (io)
            io_ = *io;
        else
            problems_ = io.problems();
    }
    if (io_) {
        kernels::AttentionStepOptions options;
        options.algorithm = algorithm();
        // The numeric example (m and ℓ per row) runs within the core's bounds for it and, since it is
        // recomputed on every edit, only while its N²·d multiply-adds take a fraction of a second
        // (about 0.15 s at N = 1024, d = 64; 1 s at d = 256 on a 2-core machine).
        options.with_values = config.sequence_length <= kernels::kMaxExampleSequenceLength
            && config.head_dim <= kernels::kMaxExampleHeadDim
            && config.sequence_length * config.sequence_length * config.head_dim <= kMaxInteractiveExampleWork;
        if (!options.with_values)
            values_note_ = tr("m and ℓ are shown for a small example with random Q, K, V: N ≤ %1, d ≤ %2 and N²·d ≤ %3.")
                               .arg(format::integer(kernels::kMaxExampleSequenceLength))
                               .arg(kernels::kMaxExampleHeadDim)
                               .arg(format::integer(kMaxInteractiveExampleWork));
        const std::int64_t count = kernels::attentionStepCount(config, options.algorithm);
        if (count > kernels::kMaxAttentionSteps) {
            animation_note_ = tr("No animation: %1 takes %2 steps here (T_r × T_c = %3 × %4 blocks), more than the %5 "
                                 "an animation is limited to. The totals and the charts below still follow the closed "
                                 "forms; a shorter N or a larger M gives fewer, larger blocks.")
                                  .arg(FlashAttentionText::algorithmName(options.algorithm), format::integer(count),
                                       format::integer(io_->blocks.row_blocks), format::integer(io_->blocks.column_blocks),
                                       format::integer(kernels::kMaxAttentionSteps));
        } else {
            const Result<kernels::AttentionSteps> steps = kernels::attentionSteps(config, options);
            if (steps)
                steps_ = std::make_shared<const kernels::AttentionSteps>(*steps);
            else
                animation_note_ = format::fromStd(formatProblems(steps.problems())).trimmed();
        }
    }
    animation_->setSteps(steps_);
    {
        // A new schedule opens on its last step (the whole pass counted) unless it is playing.
        const QSignalBlocker blocker(player_);
        player_->setStepCount(steps_ ? int(steps_->steps.size()) : 0);
        if (!player_->isPlaying())
            player_->setCurrentStep(player_->stepCount());
    }
    player_->setEnabled(steps_ != nullptr);
    if (!io_)
        counters_->clear();
    showStep(player_->currentStep());
    refreshTexts();
    refreshCharts();
    emit computed();
}

void FlashAttentionSection::showStep(int step)
{
    animation_->setStep(step);
    if (io_)
        counters_->showCounts(*io_, algorithm(), steps_.get(), step, values_note_);
    caption_->setText(steps_ ? FlashAttentionText::stepCaption(*steps_, step) : animation_note_);
    caption_->setVisible(!caption_->text().isEmpty());
}

QString FlashAttentionSection::sramSourceText() const
{
    const QString gpu = format::fromStd(accelerator_.name);
    if (!accelerator_sram_bytes_)
        return tr("set by hand (the catalog has no shared memory per SM for %1)").arg(gpu);
    if (m_spin_->value() == *accelerator_sram_bytes_)
        return tr("shared memory per SM of %1: %2").arg(gpu, FlashAttentionText::kibibytes(*accelerator_sram_bytes_));
    return tr("set by hand; the shared memory per SM of %1 is %2").arg(gpu, FlashAttentionText::kibibytes(*accelerator_sram_bytes_));
}

void FlashAttentionSection::refreshTexts()
{
    const QString gpu = format::fromStd(accelerator_.name);
    if (accelerator_sram_bytes_) {
        sram_note_->setText(tr("M = %1, %2 (the catalog's on-chip SRAM ÷ %n SM(s); CUDA C++ Programming Guide, "
                               "compute capabilities). Edit M to see what a larger or smaller SRAM would do; ↺ puts "
                               "the accelerator's back.",
                               nullptr, accelerator_.sm_count)
                                .arg(FlashAttentionText::kibibytes(m_spin_->value()), sramSourceText()));
    } else {
        const Result<std::int64_t> per_sm = kernels::defaultSramBytes(accelerator_);
        sram_note_->setText(tr("The catalog gives no shared memory per SM for %1 (%2), so M is yours to set; it starts "
                               "at %3.")
                                .arg(gpu, per_sm ? QString() : format::fromStd(per_sm.problems().front().message),
                                     FlashAttentionText::kibibytes(m_spin_->value())));
    }
    m_reset_->setEnabled(accelerator_sram_bytes_ && m_spin_->value() != *accelerator_sram_bytes_);
    const QString problem = problemText();
    problem_label_->setText(problem);
    problem_label_->setVisible(!problem.isEmpty());
    QPalette warning = problem_label_->palette();
    warning.setColor(QPalette::WindowText, chartReferenceColor(palette()));
    problem_label_->setPalette(warning);
    if (!io_) {
        blocks_label_->clear();
        blocks_label_->hide();
        return;
    }
    const kernels::AttentionBlocks &b = io_->blocks;
    blocks_label_->setText(
        tr("Blocks (Algorithm 1 line 1): B_c = ⌈M / 4dE⌉ = %1 keys, B_r = min(B_c, d) = %2 queries; T_r × T_c = %3 × %4 "
           "blocks, %5 computed, %6 skipped by the causal mask. Beyond Q, K, V and O, standard attention keeps S and P "
           "in HBM (%7), FlashAttention only ℓ and m (%8).")
            .arg(format::integer(b.block_columns), format::integer(b.block_rows), format::integer(b.row_blocks),
                 format::integer(b.column_blocks), format::integer(io_->computed_blocks),
                 format::integer(io_->skipped_blocks), format::bytes(double(io_->standard_extra_memory_bytes)),
                 format::bytes(double(io_->flash_extra_memory_bytes))));
    blocks_label_->show();
}

void FlashAttentionSection::refreshCharts()
{
    const kernels::AttentionConfig config = this->config();
    if (!io_) {
        const QString problem = problemText();
        io_over_n_chart_->setData(FlashAttentionCharts::refused(tr("HBM traffic over N"), problem));
        io_over_m_chart_->setData(FlashAttentionCharts::refused(tr("HBM traffic over M"), problem));
        roofline_chart_->setData(FlashAttentionCharts::refused(tr("Roofline"), problem));
        return;
    }
    const QPalette pal = io_over_n_chart_->palette();
    io_over_n_chart_->setData(FlashAttentionCharts::ioOverSequenceLength(config, pal));
    io_over_m_chart_->setData(FlashAttentionCharts::ioOverSram(config, sramSourceText(), pal));
    const std::optional<DType> dtype = kernels::tensorDTypeForElementBytes(config.element_bytes);
    const RooflineMachine machine = rooflineMachine(accelerator_, dtype.value_or(DType::BF16));
    roofline_chart_->setData(FlashAttentionCharts::roofline(config, *io_, machine, pal));
}

void FlashAttentionSection::retranslate()
{
    intro_->setText(tr("Attention reads Q, K and V and writes O, each N × d. Standard attention also writes the N × N "
                       "scores S and probabilities P to HBM and reads them back. FlashAttention cuts the work into "
                       "blocks that fit the SRAM of one SM and never writes S or P: the online softmax's running max m "
                       "and sum ℓ combine the blocks exactly. Step through one head's forward pass and watch the "
                       "counters (Space plays, ← and → step)."));
    n_label_->setText(tr("&N:"));
    n_spin_->setToolTip(tr("Sequence length N (tokens of one sequence, one head)"));
    d_label_->setText(tr("&d:"));
    d_spin_->setToolTip(tr("Head dimension d"));
    m_label_->setText(tr("&M (bytes):"));
    m_spin_->setToolTip(tr("SRAM M of one SM in bytes: the tiles Q_i, K_j, V_j, O_i must fit (B_c = ⌈M / 4dE⌉)"));
    m_reset_->setToolTip(tr("Back to the shared memory per SM of the scenario's accelerator"));
    element_label_->setText(tr("&Element:"));
    element_box_->setItemText(0, tr("fp16 / bf16 (2 bytes)"));
    element_box_->setItemText(1, tr("fp32 (4 bytes)"));
    element_box_->setItemText(2, tr("fp8 (1 byte)"));
    element_box_->setToolTip(tr("Bytes per element E of Q, K, V, O, S, P, ℓ and m; also the peak the roofline uses"));
    causal_check_->setText(tr("&Causal mask"));
    causal_check_->setToolTip(tr("Blocks wholly above the diagonal are neither loaded nor computed (Dao 2023 §3.1.1); "
                                 "standard attention masks the whole N × N matrix after computing it"));
    algorithm_label_->setText(tr("&Algorithm:"));
    for (int i = 0; i < algorithm_box_->count(); ++i) {
        const auto algorithm = AttentionAlgorithm(algorithm_box_->itemData(i).toInt());
        algorithm_box_->setItemText(i, FlashAttentionText::algorithmName(algorithm));
        algorithm_box_->setItemData(i, FlashAttentionText::algorithmSource(algorithm), Qt::ToolTipRole);
    }
    algorithm_box_->setToolTip(tr("Standard: Dao et al. 2022 Algorithm 0; FlashAttention: Algorithm 1 (outer loop over "
                                  "K/V blocks); FlashAttention-2 loop order: Dao 2023 Algorithm 1 (outer loop over Q "
                                  "blocks)"));
    player_->setToolTips(tr("Previous step (Left)"), tr("Next step (Right)"));
    player_->setToolTip(tr("Step through the forward pass: each step loads, computes or writes one block"));
    charts_intro_->setText(tr("<b>The closed forms.</b> The counters above, summed over every step, equal these "
                              "curves at the chosen N and M. Hover a point for its formula and source."));
    counters_->retranslate();
    recompute();
}

void FlashAttentionSection::keyPressEvent(QKeyEvent *event)
{
    if (!player_->handleKey(event))
        PageSection::keyPressEvent(event);
}

}  // namespace lse::gui
