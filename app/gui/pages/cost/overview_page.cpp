// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/cost/overview_page.h"

#include "charts/height_cached_label.h"

#include "enum_labels.h"

#include "cost/sweeps.h"
#include "pages/page_format.h"
#include "pages/prediction_band_text.h"

#include <QEvent>
#include <QLocale>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QScrollArea>
#include <QStyle>
#include <QVBoxLayout>

namespace lse::gui {

namespace {

// English puts a space between sentences; Chinese does not (its full stop carries the gap).
QString sentenceSeparator()
{
    return QLocale().language() == QLocale::Chinese ? QString() : QStringLiteral(" ");
}

// Font sizes relative to the page font (which MainWindow already enlarges in presentation mode).
constexpr double kCaptionScale = 0.95;
constexpr double kValueScale = 2.0;
// Presentation mode already enlarges the page font 1.5×; a further 1.6× keeps the values the
// largest text on the page while two columns of cards still fit a 1024-pixel projector.
constexpr double kPresentationValueScale = 1.6;
constexpr int kCardColumns = 3;              // fit a 1280 px window beside the editor
constexpr int kPresentationCardColumns = 2;  // fit 1024×768 and 1280×720 projectors
constexpr int kContentMargin = 16;           // pixels around the page's content
constexpr double kHeadingScale = 1.35;

// Saturated backgrounds with white text: at least 4.5:1 contrast (WCAG AA) whatever the theme.
const char *const kFitsStyle =
    "QLabel { background-color: #1a7f37; color: #ffffff; border-radius: 4px; padding: 2px 10px; font-weight: bold; }";
const char *const kDoesNotFitStyle =
    "QLabel { background-color: #b42318; color: #ffffff; border-radius: 4px; padding: 2px 10px; font-weight: bold; }";

QFont scaled(QFont font, double factor, bool bold = false)
{
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * factor);
    else if (font.pixelSize() > 0)
        font.setPixelSize(std::max(1, qRound(font.pixelSize() * factor)));
    font.setBold(bold);
    return font;
}

QString upper(std::string_view text) { return format::fromStd(text).toUpper(); }

QString esc(const std::string &text) { return QString::fromStdString(text).toHtmlEscaped(); }

QString gpuName(const Accelerator &gpu) { return QString::fromStdString(gpu.name.empty() ? gpu.id : gpu.name); }

}  // namespace

// A caption, a big value and a line of detail in a raised panel; the rich tooltip explains it.
class HeadlineCard : public QFrame {
public:
    explicit HeadlineCard(QWidget *parent) : QFrame(parent)
    {
        setFrameShape(QFrame::StyledPanel);
        setBackgroundRole(QPalette::Base);
        setAutoFillBackground(true);
        setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);  // a row of cards shares one height
        auto *layout = new QVBoxLayout(this);
        layout->setContentsMargins(12, 10, 12, 10);
        layout->setSpacing(4);
        caption_ = new HeightCachedLabel(this);
        caption_->setWordWrap(true);
        value_row_ = new QHBoxLayout;
        value_row_->setSpacing(10);
        value_ = new QLabel(this);
        value_->setTextInteractionFlags(Qt::TextSelectableByMouse);
        value_row_->addWidget(value_);
        value_row_->addStretch(1);
        detail_ = new HeightCachedLabel(this);
        detail_->setWordWrap(true);
        detail_->setTextFormat(Qt::RichText);
        layout->addWidget(caption_);
        layout->addLayout(value_row_);
        layout->addWidget(detail_);
        layout->addStretch(1);
    }

    void set(const QString &caption, const QString &value, const QString &detail, const QString &tooltip)
    {
        caption_->setText(caption);
        value_->setText(value);
        detail_->setText(detail);
        detail_->setVisible(!detail.isEmpty());
        setToolTip(tooltip);
        value_->setToolTip(tooltip);
    }
    void addToValueRow(QWidget *widget) { value_row_->insertWidget(1, widget, 0, Qt::AlignVCenter); }
    void applyFonts(const QFont &base, double value_scale)
    {
        caption_->setFont(scaled(base, kCaptionScale));
        value_->setFont(scaled(base, value_scale, true));
        detail_->setFont(scaled(base, kCaptionScale));
    }
    QString value() const { return value_->text(); }
    // The narrowest width that shows the card whole, from its labels' current fonts and texts (the
    // card's own layout caches a minimum that is stale until its next layout pass).
    int requiredWidth() const
    {
        int value_row = 0;
        for (int i = 0; i < value_row_->count(); ++i)
            if (QWidget *widget = value_row_->itemAt(i)->widget(); widget && !widget->isHidden())
                value_row += widget->minimumSizeHint().width() + (value_row > 0 ? value_row_->spacing() : 0);
        const QMargins margins = layout()->contentsMargins();
        return margins.left() + margins.right() + 2 * frameWidth()
            + std::max({value_row, caption_->minimumSizeHint().width(), detail_->minimumSizeHint().width()});
    }

private:
    QLabel *caption_;
    QHBoxLayout *value_row_;
    QLabel *value_;
    QLabel *detail_;
};

OverviewPage::OverviewPage(QWidget *parent) : Page(parent)
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    // The content reflows to the width (the cards change columns, texts wrap): with a horizontal
    // scroll bar "as needed" QScrollArea sized the wrapped labels to their preferred width and cut
    // the last card at 1024 pixels.
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->viewport()->setBackgroundRole(QPalette::Window);
    outer->addWidget(scroll);

    auto *content = new QWidget;
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(kContentMargin, kContentMargin, kContentMargin, kContentMargin);
    layout->setSpacing(14);

    heading_ = new HeightCachedLabel(content);
    heading_->setWordWrap(true);
    heading_->setTextFormat(Qt::PlainText);
    layout->addWidget(heading_);

    auto *grid = new QGridLayout;
    card_grid_ = grid;  // placeCards() arranges the cards in it
    grid->setSpacing(12);
    for (int i = 0; i < CardCount; ++i)
        cards_.append(new HeadlineCard(content));
    layout->addLayout(grid);
    placeCards(kCardColumns);

    fit_badge_ = new QLabel(content);
    fit_badge_->setObjectName(QStringLiteral("fitBadge"));
    fit_badge_->setVisible(false);
    cards_[Memory]->addToValueRow(fit_badge_);

    summary_ = new HeightCachedLabel(content);
    summary_->setObjectName(QStringLiteral("summary"));
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::PlainText);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);

    // The highlighted note: an accent bar in the highlight colour beside text on the alternate
    // base. Palette roles (not a style sheet) so light, dark and high-contrast themes, which all
    // define readable text on these roles, apply when the palette changes at run time.
    note_frame_ = new QFrame(content);
    note_frame_->setObjectName(QStringLiteral("peakNote"));
    note_frame_->setBackgroundRole(QPalette::AlternateBase);
    note_frame_->setAutoFillBackground(true);
    auto *note_row = new QHBoxLayout(note_frame_);
    note_row->setContentsMargins(0, 0, 0, 0);
    note_row->setSpacing(0);
    auto *accent = new QFrame(note_frame_);
    accent->setFixedWidth(5);
    accent->setBackgroundRole(QPalette::Highlight);
    accent->setAutoFillBackground(true);
    note_row->addWidget(accent);
    auto *note_layout = new QVBoxLayout;
    note_layout->setContentsMargins(14, 10, 14, 10);
    note_row->addLayout(note_layout, 1);
    note_title_ = new QLabel(note_frame_);
    note_ = new HeightCachedLabel(note_frame_);
    note_->setWordWrap(true);
    note_->setTextFormat(Qt::RichText);
    note_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    note_layout->addWidget(note_title_);
    note_layout->addWidget(note_);
    layout->addWidget(note_frame_);
    layout->addStretch(1);

    scroll->setWidget(content);
    applyFonts();
    refresh();
    nameLessonRegions();
}

QString OverviewPage::pageId() { return QStringLiteral("overview"); }

QString OverviewPage::pageTitle() { return tr("Overview"); }

void OverviewPage::estimateChanged(const Scenario * /*previous*/)
{
    refresh();
}

void OverviewPage::applyPresentation(bool /*presentation*/)
{
    applyFonts();
    updateCardColumns();
}

void OverviewPage::updateCardColumns()
{
    if (!card_grid_)
        return;
    // The page's width less the content margins (kContentMargin each side) and the vertical scroll bar.
    const int available = width() - 2 * kContentMargin - style()->pixelMetric(QStyle::PM_ScrollBarExtent);
    int card_width = 0;
    for (int i = 0; i < Memory; ++i)
        card_width = std::max(card_width, cards_[i]->requiredWidth());
    // Columns share the width equally (equal stretch), so the widest card decides.
    int columns = presentation() ? kPresentationCardColumns : kCardColumns;
    while (columns > 1 && columns * card_width + (columns - 1) * card_grid_->spacing() > available)
        --columns;
    if (columns != card_columns_)
        placeCards(columns);
}

void OverviewPage::resizeEvent(QResizeEvent *event)
{
    Page::resizeEvent(event);
    updateCardColumns();
}

void OverviewPage::placeCards(int columns)
{
    card_columns_ = columns;
    QGridLayout *grid = card_grid_;
    if (!grid)
        return;
    for (HeadlineCard *card : std::as_const(cards_))
        grid->removeWidget(card);
    for (int c = 0; c < kCardColumns; ++c)
        grid->setColumnStretch(c, c < columns ? 1 : 0);
    // Memory gets a full row for its badge.
    for (int i = 0; i < Memory; ++i)
        grid->addWidget(cards_[i], i / columns, i % columns);
    grid->addWidget(cards_[Memory], (Memory + columns - 1) / columns, 0, 1, columns);
}

void OverviewPage::retranslate() { refresh(); }

QString OverviewPage::summaryText() const { return summary_->text(); }

QString OverviewPage::peakNoteText() const { return note_->text(); }

bool OverviewPage::showsFits() const { return hasEstimate() && estimate().memory.fits; }

void OverviewPage::changeEvent(QEvent *event)
{
    Page::changeEvent(event);
    // MainWindow enlarges the application font in presentation mode; the cards' explicit fonts
    // are derived from it, so they are re-derived whenever it changes.
    if (event->type() == QEvent::FontChange || event->type() == QEvent::ApplicationFontChange) {
        applyFonts();
        updateCardColumns();
    }
}

void OverviewPage::applyFonts()
{
    const QFont base = font();
    for (HeadlineCard *card : std::as_const(cards_))
        card->applyFonts(base, presentation() ? kPresentationValueScale : kValueScale);
    heading_->setFont(scaled(base, kHeadingScale, true));
    note_title_->setFont(scaled(base, 1.0, true));
    fit_badge_->setFont(scaled(base, 1.1, true));
}

void OverviewPage::refresh()
{
    note_title_->setText(tr("Sparse vs dense peak"));
    if (!hasEstimate()) {
        heading_->setText(tr("No valid scenario yet"));
        const QString none = QStringLiteral("–");
        const QString captions[CardCount] = {tr("Parameters (total)"), tr("Active parameters per token"),
                                             tr("Training compute"),   tr("Training time"),
                                             tr("GPU-hours"),          tr("Cost"),
                                             tr("Memory per GPU")};
        for (int i = 0; i < CardCount; ++i)
            cards_[i]->set(captions[i], none, QString(), QString());
        fit_badge_->setVisible(false);
        summary_->setText(tr("Fix the problems marked in the scenario editor to see the estimate."));
        note_frame_->setVisible(false);
        updateCardColumns();
        return;
    }
    const Scenario &scenario = this->scenario();
    heading_->setText(tr("%1 — %2 × %3, %4 tokens")
                          .arg(QString::fromStdString(scenario.model.name), format::integer(scenario.cluster.gpus),
                               gpuName(scenario.cluster.accelerator), format::count(double(scenario.training.tokens))));
    fillCards(scenario, estimate());
    fillSummary(scenario, estimate());
    fillPeakNote(scenario);
    updateCardColumns();  // the cards' widths follow their texts
}

void OverviewPage::fillCards(const Scenario &scenario, const Estimate &estimate)
{
    const ModelConfig &model = scenario.model;
    const TrainingConfig &training = scenario.training;
    const ParallelConfig &parallel = training.parallel;
    const ParameterCounts &params = estimate.params;
    const FlopsEstimate &flops = estimate.flops;
    const TimeEstimate &time = estimate.time;
    const MemoryEstimate &memory = estimate.memory;
    const QString gpu = gpuName(scenario.cluster.accelerator);

    QString shape = tr("L = %1, h = %2, heads = %3 (KV heads %4, head dim %5), d_ff = %6, V = %7")
                        .arg(model.n_layers)
                        .arg(model.d_model)
                        .arg(model.n_heads)
                        .arg(model.n_kv_heads)
                        .arg(model.head_dim)
                        .arg(model.d_ff)
                        .arg(model.vocab_size);
    if (model.moe.enabled())
        shape += tr("; %1 routed experts (top-%2) of d_ff %3, %4 shared")
                     .arg(model.moe.n_experts)
                     .arg(model.moe.top_k)
                     .arg(model.moe.expert_d_ff)
                     .arg(model.moe.n_shared_experts);

    cards_[Parameters]->set(
        tr("Parameters (total)"), format::count(double(params.total)),
        tr("%1 exactly").arg(format::integer(params.total)),
        format::tooltip(tr("Parameters"), shape,
                        tr("Σ elements of every weight and bias tensor (embedding, attention, MLP or experts, norms, "
                           "head); for a GPT-style model ≈ 12·L·h²·(1 + 13/(12h) + (V+s)/(12·L·h))"),
                        tr("Exact count from the model's tensor list (reproduces the model cards); the approximation "
                           "is Narayanan et al. 2021, Eq. 2")));

    const QString active_detail = model.moe.enabled()
        ? tr("top-%1 of %2 experts per token").arg(model.moe.top_k).arg(model.moe.n_experts)
        : tr("dense model: every parameter is used for every token");
    cards_[ActiveParameters]->set(
        tr("Active parameters per token"), format::count(double(params.active)), active_detail,
        format::tooltip(tr("Active parameters"), shape,
                        tr("total − routed expert weights × (1 − top_k / n_experts)"),
                        tr("Mixture-of-experts routing: Shazeer et al. 2017; Fedus et al. 2022 (Switch Transformer)")));

    const bool six_nd_basis = training.flops_model == FlopsModel::SixND;
    const QString ratio = flops.six_nd > 0 ? format::decimal(flops.total_train / flops.six_nd, 3) : QStringLiteral("–");
    cards_[TrainingFlops]->set(
        tr("Training compute"), format::si(flops.total_train, tr("FLOP")),
        tr("= %1 FLOP · 6ND: %2 FLOP (exact / 6ND = %3×) · time uses %4")
            .arg(format::scientific(flops.total_train), format::scientific(flops.six_nd), ratio,
                 six_nd_basis ? tr("6ND") : tr("the exact count")),
        format::tooltip(
            tr("Training FLOPs"),
            tr("N = %1 active parameters, D = %2 tokens, s = %3, attention scores counted %4")
                .arg(format::integer(params.active), format::integer(training.tokens), format::integer(training.seq_len),
                     training.attention_flops == AttentionFlops::Full ? tr("in full (s²)") : tr("causally (s²/2)")),
            tr("exact = D × (forward + backward) matmul FLOPs per token, 2·m·n·k per matmul, backward = 2 × forward "
               "= %1 FLOP per token; 6ND = 6 · N · D")
                .arg(format::si(flops.train_per_token, QString())),
            tr("Kaplan et al. 2020, Table 1 (6ND); PaLM (Chowdhery et al. 2022), App. B; Korthikanti et al. 2022, "
               "App. A")));

    const QString peak_kind = scenario.cluster.peak_flops_per_second_override
        ? tr("override")
        : tr("dense %1").arg(upper(toString(training.precision.matmul_dtype)));
    const QString time_inputs =
        tr("C = %1 (%2), N_gpu = %3, peak = %4 per GPU (%5), MFU = %6 (%7)")
            .arg(format::si(flops.time_basis, tr("FLOP")), six_nd_basis ? tr("6ND") : tr("exact"),
                 format::integer(scenario.cluster.gpus), format::si(time.peak_flops_per_gpu, tr("FLOP/s")), peak_kind,
                 format::percent(time.mfu), displayName(time.mfu_source));
    const QString time_source =
        (time.predicted ? tr("MFU predicted from the step time (operator-level kernel times + exposed communication "
                             "+ pipeline bubble; Validation page), as defined by PaLM (Chowdhery et al. 2022), App. "
                             "B; peak: %1")
                        : tr("MFU as defined by PaLM (Chowdhery et al. 2022), App. B; peak: %1"))
            .arg(format::firstSource(scenario.cluster.accelerator.source).toHtmlEscaped());
    // A predicted MFU carries the accelerator's error band (issue 29 §2): "12.3 days (± 9%)", the
    // predicted step beside it, the interval in the tooltip; without a band, the basis instead.
    const bool banded = time.mfu_source == MfuSource::Predicted && time.predicted;
    QString days_value = tr("%1 days").arg(format::days(time.days));
    QString days_detail = tr("N_gpu = %1, MFU %2 (%5), peak %3 (%4)")
                              .arg(format::integer(scenario.cluster.gpus), format::percent(time.mfu),
                                   format::si(time.peak_flops_per_gpu, tr("FLOP/s")), peak_kind,
                                   displayName(time.mfu_source));
    QString days_band;
    if (banded) {
        const PredictedStepFigures &predicted = *time.predicted;
        const PredictionAccuracy &accuracy = scenario.cluster.accelerator.accuracy;
        days_value = PredictionBandText::withBand(days_value, predicted.band_fraction);
        days_detail = tr("N_gpu = %1, predicted step %2, MFU %3, peak %4 (%5)")
                          .arg(format::integer(scenario.cluster.gpus), tr("%1 s").arg(format::decimal(predicted.step_seconds, 3)),
                               format::percent(time.mfu), format::si(time.peak_flops_per_gpu, tr("FLOP/s")), peak_kind);
        // The band once (it is the same fraction for every figure); without one, the basis.
        days_detail += predicted.band_fraction > 0
            ? tr("; each ± %1").arg(format::percent(predicted.band_fraction, 0))
            : tr("; %1").arg(PredictionBandText::basis(accuracy));
        days_band = PredictionBandText::toolTip(tr("%1 days").arg(format::days(predicted.training_seconds_low / 86400.0)),
                                                tr("%1 days").arg(format::days(predicted.training_seconds_high / 86400.0)),
                                                predicted.band_fraction, accuracy)
            + QStringLiteral("<br>")
            + tr("Step %1 s in [%2 s, %3 s]; MFU %4 in [%5, %6]")
                  .arg(format::decimal(predicted.step_seconds, 3), format::decimal(predicted.step_seconds_low, 3),
                       format::decimal(predicted.step_seconds_high, 3), format::percent(time.mfu),
                       format::percent(predicted.mfu_low), format::percent(predicted.mfu_high));
    }
    cards_[Days]->set(tr("Training time"), days_value, days_detail,
                      format::tooltip(tr("Training time"), time_inputs, tr("days = C / (N_gpu · peak · MFU) / 86,400 s"),
                                      time_source, days_band));

    cards_[GpuHours]->set(
        tr("GPU-hours"), format::count(time.gpu_hours),
        time.gpu_hours >= 1000 ? tr("%1 GPU-hours exactly").arg(format::integer(std::int64_t(std::llround(time.gpu_hours))))
                               : tr("%1 GPU-hours").arg(format::decimal(time.gpu_hours, 3)),
        format::tooltip(tr("GPU-hours"), time_inputs, tr("GPU-hours = N_gpu · C / (N_gpu · peak · MFU) / 3,600 s"),
                        time_source));

    cards_[Cost]->set(
        tr("Cost"), format::money(time.cost),
        tr("at %1 per GPU-hour (in your currency)").arg(format::decimal(scenario.cluster.price_per_gpu_hour, 2)),
        format::tooltip(tr("Cost"),
                        tr("%1 GPU-hours, price %2 per GPU-hour")
                            .arg(format::integer(std::int64_t(std::llround(time.gpu_hours))),
                                 format::decimal(scenario.cluster.price_per_gpu_hour, 2)),
                        tr("cost = GPU-hours × price per GPU-hour"), tr("The price is an input of the scenario")));

    const QString breakdown =
        tr("weights %1 · gradients %2 · optimizer %3 · activations %4 · reserve %5 — ZeRO %6, pipeline stage %7")
            .arg(format::bytes(double(memory.params)), format::bytes(double(memory.grads)),
                 format::bytes(double(memory.optimizer)), format::bytes(double(memory.activations)),
                 format::bytes(double(memory.framework_reserve)))
            .arg(parallel.zero_stage)
            .arg(memory.pipeline_stage);
    cards_[Memory]->set(
        tr("Memory per GPU (most loaded GPU) vs capacity"),
        tr("%1 of %2").arg(format::bytes(double(memory.total)), format::bytes(double(memory.capacity))), breakdown,
        format::tooltip(
            tr("Memory per GPU"),
            tr("Ψ on this GPU = %1 parameters, ZeRO stage %2 over N_d = dp·cp = %3, %4 recomputation, "
               "FlashAttention %5, %6 in-flight micro-batches")
                .arg(format::integer(memory.parameters_on_gpu))
                .arg(parallel.zero_stage)
                .arg(parallel.dp * parallel.cp)
                .arg(displayName(training.recomputation),
                     training.flash_attention ? tr("on") : tr("off"),
                     format::decimal(memory.in_flight_micro_batches, 2)),
            tr("weights + gradients + optimizer states (ZeRO-0: (2 + 2 + K)Ψ; ZeRO-1: 4Ψ + KΨ/N_d; ZeRO-2: "
               "2Ψ + (2 + K)Ψ/N_d; ZeRO-3: (4 + K)Ψ/N_d) + activations (per layer Korthikanti Table 2, × layers "
               "per stage × in-flight micro-batches) + framework reserve ≤ capacity"),
            tr("Rajbhandari et al. 2019 (ZeRO) §3.1, §5; Korthikanti et al. 2022, Table 2 and §4.2.3"),
            format::bytesExact(double(memory.total))));
    fit_badge_->setText(memory.fits ? tr("FITS") : tr("DOES NOT FIT"));
    fit_badge_->setStyleSheet(QString::fromLatin1(memory.fits ? kFitsStyle : kDoesNotFitStyle));
    fit_badge_->setAccessibleName(memory.fits ? tr("The run fits in GPU memory")
                                              : tr("The run does not fit in GPU memory"));
    fit_badge_->setVisible(true);
}

void OverviewPage::fillSummary(const Scenario &scenario, const Estimate &estimate)
{
    const TimeEstimate &time = estimate.time;
    const MemoryEstimate &memory = estimate.memory;
    QString text;
    if (scenario.model.moe.enabled())
        text = tr("%1 is a mixture-of-experts model with %2 parameters, of which %3 are used for each token.")
                   .arg(QString::fromStdString(scenario.model.name), format::count(double(estimate.params.total)),
                        format::count(double(estimate.params.active)));
    else
        text = tr("%1 is a dense model with %2 parameters.")
                   .arg(QString::fromStdString(scenario.model.name), format::count(double(estimate.params.total)));
    text += sentenceSeparator();
    text += (time.mfu_source == MfuSource::Predicted
                 ? tr("Training it on %1 tokens takes %2, which at the predicted %3 MFU on %4 × %5 is about %6 "
                      "days (%7 GPU-hours, costing %8).")
                 : tr("Training it on %1 tokens takes %2, which at the scenario's assumed %3 MFU on %4 × %5 is about "
                      "%6 days (%7 GPU-hours, costing %8)."))
                .arg(format::count(double(scenario.training.tokens)), format::si(estimate.flops.time_basis, tr("FLOP")),
                     format::percent(time.mfu), format::integer(scenario.cluster.gpus),
                     gpuName(scenario.cluster.accelerator),
                     time.mfu_source == MfuSource::Predicted && time.predicted
                         ? PredictionBandText::withBand(format::days(time.days), time.predicted->band_fraction)
                         : format::days(time.days),
                     format::count(time.gpu_hours), format::money(time.cost));
    text += sentenceSeparator();
    if (memory.fits)
        text += tr("The most loaded GPU needs %1 of its %2, so the run fits in memory.")
                    .arg(format::bytes(double(memory.total)), format::bytes(double(memory.capacity)));
    else
        text += tr("The most loaded GPU would need %1 but has %2, so the run does not fit: raise the ZeRO stage, "
                   "tensor or pipeline parallelism, use recomputation or a smaller micro-batch.")
                    .arg(format::bytes(double(memory.total)), format::bytes(double(memory.capacity)));
    summary_->setText(text);
}

void OverviewPage::fillPeakNote(const Scenario &scenario)
{
    const Result<PeakComparison> result = comparePeaks(scenario);
    if (!result) {
        note_frame_->setVisible(false);
        return;
    }
    note_frame_->setVisible(true);
    const PeakComparison &c = *result;
    const QString gpu = esc(scenario.cluster.accelerator.name.empty() ? scenario.cluster.accelerator.id
                                                                      : scenario.cluster.accelerator.name);
    const QString dtype = upper(toString(scenario.training.precision.matmul_dtype));
    const auto flops = [](double value) { return format::si(value, tr("FLOP/s")); };
    const auto days = [](double value) { return tr("<b>%1 days</b>").arg(format::days(value)); };

    QStringList parts;
    if (c.current_is_override)
        parts << tr("This estimate uses a peak override of %1 per GPU: %2.").arg(flops(c.current_peak), days(c.current_days));
    else
        parts << tr("This estimate uses the dense %1 peak of %2 per GPU: %3.")
                     .arg(dtype, flops(c.current_peak), days(c.current_days));
    if (c.current_is_override && c.dense_peak > 0)
        parts << tr("At the catalog's dense %1 peak of %2 the same run takes %3.")
                     .arg(dtype, flops(c.dense_peak), days(c.dense_days));
    if (c.sparse_peak > 0) {
        parts << (c.sparse_documented
                      ? tr("The headline tensor figure on the %1 datasheet, %2, is for 2:4 structured sparsity, "
                           "twice the dense rate; at that figure the run would take %3 — a speed dense training "
                           "never reaches.")
                      : tr("%1's vendor quotes 2:4-sparse tensor figures at twice the dense rate (assumed here: "
                           "%2); at that figure the run would take %3 — a speed dense training never reaches."))
                     .arg(gpu, flops(c.sparse_peak), days(c.sparse_days));
        parts << tr("Counting C = 6ND instead, as the course does, gives %1 at the dense peak and %2 at the sparse "
                    "headline.")
                     .arg(days(c.dense_days_six_nd), days(c.sparse_days_six_nd));
    } else if (c.dense_peak > 0) {
        parts << tr("%1 publishes no 2:4-sparse headline figure, so there is no sparse figure to confuse with the "
                    "dense peak.")
                     .arg(gpu);
        parts << tr("Counting C = 6ND instead, as the course does, gives %1 at the dense peak.")
                     .arg(days(c.dense_days_six_nd));
    }
    // The course's worked example is an H100 run; the sentence explains where its number came from.
    if (QString::fromStdString(scenario.cluster.accelerator.id).startsWith(QLatin1String("h100")))
        parts << tr("The course example's 119 days assumed 2 PFLOP/s per H100 (the sparse headline); at the dense "
                    "BF16 peak of 989 TFLOP/s the same run takes about twice as long.");
    note_->setText(parts.join(sentenceSeparator()));
    note_frame_->setToolTip(format::tooltip(
        tr("Sparse vs dense peak"),
        tr("dense peak %1, sparse headline %2, MFU %3").arg(flops(c.dense_peak), flops(c.sparse_peak),
                                                            scenario.training.mfu_source == MfuSource::Predicted
                                                                ? displayName(MfuSource::Predicted)
                                                                : format::percent(scenario.training.mfu)),
        tr("days = C / (N_gpu · peak · MFU) / 86,400 s; sparse headline = 2 × dense"),
        tr("NVIDIA A100 Tensor Core GPU Architecture whitepaper (fine-grained structured sparsity); %1")
            .arg(format::firstSource(scenario.cluster.accelerator.source).toHtmlEscaped())));
}

void OverviewPage::nameLessonRegions()
{
    // Regions a lesson can outline (fitBadge keeps its older name: tests find it by it).
    heading_->setObjectName(QStringLiteral("overview-heading"));
    summary_->setObjectName(QStringLiteral("overview-summary"));
    note_frame_->setObjectName(QStringLiteral("peak-note"));
    const char *card_names[CardCount] = {"parameters-card", "active-parameters-card", "training-flops-card",
                                         "days-card",       "gpu-hours-card",         "cost-card",
                                         "memory-card"};
    for (int card = 0; card < CardCount && card < cards_.size(); ++card)
        cards_[card]->setObjectName(QLatin1String(card_names[card]));
}

}  // namespace lse::gui
