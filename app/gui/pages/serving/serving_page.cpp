// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/serving/serving_page.h"

#include "charts/chart_view.h"
#include "pages/page_format.h"
#include "pages/parallel/layout/duration_format.h"
#include "pages/serving/cpu_measurement_section.h"
#include "pages/serving/serving_card.h"
#include "pages/serving/serving_charts.h"
#include "pages/side_by_side_layout.h"
#include "pages/table_key_columns.h"
#include "scenario/presets.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QResizeEvent>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace lse::gui {

using namespace lse::inference;

namespace {

enum CardId { Ttft, Tpot, Throughput, MaxBatch, Cost, Fits, CardCount };
const char *const kCardNames[CardCount] = {"serving.ttft", "serving.tpot", "serving.throughput",
                                           "serving.maxBatch", "serving.cost", "serving.fits"};
constexpr int kCardWidthChars = 22;  // a card at least this many average characters wide

QString seconds(double value) { return format::duration(value); }

QString problemsText(const Problems &problems)
{
    QStringList lines;
    for (const Problem &problem : problems)
        lines << format::fromStd(problem.message);
    return lines.join(QLatin1Char('\n'));
}

QLabel *heading(QWidget *parent, const QString &name)
{
    auto *label = new QLabel(parent);
    label->setObjectName(name);
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    return label;
}

QTableWidget *table(QWidget *parent, const QString &name, int columns)
{
    auto *widget = new QTableWidget(0, columns, parent);
    widget->setObjectName(name);
    widget->setEditTriggers(QAbstractItemView::NoEditTriggers);
    widget->setSelectionMode(QAbstractItemView::NoSelection);
    widget->verticalHeader()->setVisible(false);
    widget->horizontalHeader()->setStretchLastSection(true);
    return widget;
}

}  // namespace

ServingPage::ServingPage(QWidget *parent) : Page(parent)
{
    QWidget *content = addScrollingContent(this);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(8);
    buildControls(content, layout);

    status_label_ = new QLabel(content);
    status_label_->setObjectName(QStringLiteral("serving.status"));
    status_label_->setWordWrap(true);
    status_label_->setTextFormat(Qt::RichText);
    layout->addWidget(status_label_);

    card_grid_ = new QGridLayout;
    card_grid_->setSpacing(8);
    for (int i = 0; i < CardCount; ++i)
        cards_ << new ServingCard(QLatin1String(kCardNames[i]), content);
    layout->addLayout(card_grid_);
    placeCards();

    memory_chart_ = new ChartView(QStringLiteral("serving-memory"), content);
    latency_chart_ = new ChartView(QStringLiteral("serving-latency-throughput"), content);
    auto *first_pair = new SideBySideLayout;
    first_pair->setSpacing(8);
    first_pair->addWidget(memory_chart_);
    first_pair->addWidget(latency_chart_);
    layout->addLayout(first_pair, 1);

    roofline_title_ = heading(content, QStringLiteral("serving.rooflineTitle"));
    layout->addWidget(roofline_title_);
    prefill_roofline_chart_ = new ChartView(QStringLiteral("serving-prefill-roofline"), content);
    decode_roofline_chart_ = new ChartView(QStringLiteral("serving-decode-roofline"), content);
    auto *roofline_pair = new SideBySideLayout;
    roofline_pair->setSpacing(8);
    roofline_pair->addWidget(prefill_roofline_chart_);
    roofline_pair->addWidget(decode_roofline_chart_);
    layout->addLayout(roofline_pair, 1);

    quantisation_title_ = heading(content, QStringLiteral("serving.quantisationTitle"));
    layout->addWidget(quantisation_title_);
    quantisation_table_ = table(content, QStringLiteral("serving.quantisation"), 6);
    quantisation_table_->setMinimumHeight(140);
    setKeyColumns(quantisation_table_, {0, 1, 5});
    layout->addWidget(quantisation_table_);
    caveat_label_ = heading(content, QStringLiteral("serving.accuracyCaveat"));
    layout->addWidget(caveat_label_);

    speculative_title_ = heading(content, QStringLiteral("serving.speculativeTitle"));
    layout->addWidget(speculative_title_);
    speculative_chart_ = new ChartView(QStringLiteral("serving-speculative-speedup"), content);
    layout->addWidget(speculative_chart_, 1);

    breakdown_title_ = heading(content, QStringLiteral("serving.breakdownTitle"));
    layout->addWidget(breakdown_title_);
    breakdown_table_ = table(content, QStringLiteral("serving.breakdown"), 3);
    breakdown_table_->setMinimumHeight(kChartMinimumHeight);
    setKeyColumns(breakdown_table_, {0, 1});  // the part and its time; the share scrolls
    layout->addWidget(breakdown_table_);

    cpu_section_ = new CpuMeasurementSection(content);
    layout->addWidget(cpu_section_);

    setChartMinimumHeights(kChartMinimumHeight, kPresentationChartMinimumHeight);
    bindLessonControls();
    setPresentation(false);
    retranslateControls();
    refresh();
}

QString ServingPage::pageId() { return QStringLiteral("serving"); }

QString ServingPage::pageTitle() { return tr("Serving"); }

// Only the charts that show data (for export-all): the curve needs a batch that fits, the
// speculative chart a draft model; presentation mode sizes them all.
QList<ChartView *> ServingPage::charts() const
{
    QList<ChartView *> shown;
    if (report_)
        shown << memory_chart_;
    if (sweep_ && !sweep_->rows.empty())
        shown << latency_chart_;
    if (report_)
        shown << prefill_roofline_chart_ << decode_roofline_chart_;
    if (speculative_report_)
        shown << speculative_chart_;
    shown << cpu_section_->chartsWithData();  // once a run has measured a batch
    return shown;
}

QList<ChartView *> ServingPage::presentationCharts() const
{
    return QList<ChartView *>{memory_chart_, latency_chart_, prefill_roofline_chart_, decode_roofline_chart_, speculative_chart_}
        + cpu_section_->allCharts();
}

ServingCard *ServingPage::card(const QString &object_name) const
{
    for (ServingCard *card : cards_)
        if (card->objectName() == object_name)
            return card;
    return nullptr;
}

void ServingPage::retranslate()
{
    retranslateControls();
    fillDraftBox();
    cpu_section_->retranslate();
    refresh();
}

void ServingPage::estimateChanged(const Scenario *previous)
{
    seedControls(previous);
    refresh();
}

void ServingPage::applyPresentation(bool presentation)
{
    quantisation_table_->setMinimumHeight(presentation ? 240 : 140);
    breakdown_table_->setMinimumHeight(presentation ? kPresentationChartMinimumHeight : kChartMinimumHeight);
    cpu_section_->setPresentation(presentation);
    placeCards();
}

void ServingPage::resizeEvent(QResizeEvent *event)
{
    Page::resizeEvent(event);
    placeCards();
}

// The cards in as many columns (up to three) as the page's width holds at the current font, so a
// 1024-px window beside the editor shows each card whole.
void ServingPage::placeCards()
{
    const int card_width = kCardWidthChars * fontMetrics().averageCharWidth();
    const int columns = std::clamp((width() - 24) / std::max(1, card_width), 1, 3);
    if (columns == card_columns_)
        return;
    card_columns_ = columns;
    for (ServingCard *card : std::as_const(cards_))
        card_grid_->removeWidget(card);
    for (int c = 0; c < 3; ++c)
        card_grid_->setColumnStretch(c, c < columns ? 1 : 0);
    for (int i = 0; i < cards_.size(); ++i)
        card_grid_->addWidget(cards_[i], i / columns, i % columns);
}

void ServingPage::compute()
{
    report_.reset();
    sweep_.reset();
    max_batch_report_.reset();
    crossover_report_.reset();
    savings_.reset();
    speculative_report_.reset();
    problem_.clear();
    speculative_problem_.clear();
    if (!hasEstimate()) {
        problem_ = tr("No valid scenario yet: fix the scenario in the editor.");
        return;
    }
    QStringList page_problems;
    const ServingInputs inputs = this->inputs(&page_problems);
    if (!page_problems.isEmpty()) {
        problem_ = page_problems.join(QLatin1Char('\n'));
        return;
    }
    const Result<ServingReport> report = serve(inputs);
    if (!report) {
        problem_ = problemsText(report.problems());
        return;
    }
    report_ = *report;
    if (const Result<BatchSweep> sweep = sweepBatch(inputs); sweep)
        sweep_ = *sweep;
    const auto at = [&inputs](std::int64_t batch) -> std::optional<ServingReport> {
        ServingInputs other = inputs;
        other.batch = batch;
        const Result<ServingReport> result = serve(other);
        return result ? std::optional<ServingReport>(*result) : std::nullopt;
    };
    if (report_->max_batch > 0)
        max_batch_report_ = report_->max_batch == inputs.batch ? report_ : at(report_->max_batch);
    if (report_->decode_crossover_batch > 0 && report_->decode_crossover_batch <= report_->max_batch)
        crossover_report_ = at(report_->decode_crossover_batch);
    if (const Result<QuantisationSavings> savings = quantisationSavings(inputs); savings)
        savings_ = *savings;

    const QString draft_id = draft_box_->currentData().toString();
    if (draft_id.isEmpty()) {
        speculative_problem_ = tr("Choose a draft model to see the speculative speedup.");
    } else if (const ModelPreset *draft = findModelPreset(draft_id.toStdString())) {
        ServingInputs speculative_inputs = inputs;
        speculative_inputs.speculative = SpeculativeInputs{draft->model, gamma_spin_->value(), alpha_spin_->value()};
        const Result<ServingReport> speculative = serve(speculative_inputs);
        if (speculative)
            speculative_report_ = *speculative;
        else
            speculative_problem_ = problemsText(speculative.problems());
    }
}

void ServingPage::refresh()
{
    compute();
    fillStatus();
    fillCards();
    const QPalette palette = memory_chart_->palette();
    if (report_) {
        memory_chart_->setData(ServingCharts::memory(*report_, max_batch_report_ ? &*max_batch_report_ : nullptr));
        latency_chart_->setData(sweep_ ? ServingCharts::latencyThroughput(*sweep_, *report_,
                                                                          crossover_report_ ? &*crossover_report_ : nullptr)
                                       : ServingCharts::empty(tr("Latency vs throughput: no sweep"),
                                                              ServingCharts::latencyFormula(),
                                                              ServingCharts::latencySource()));
        prefill_roofline_chart_->setData(ServingCharts::roofline(*report_, true, palette));
        decode_roofline_chart_->setData(ServingCharts::roofline(*report_, false, palette));
    } else {
        const QString why = tr("Serving: %1").arg(problem_);
        memory_chart_->setData(ServingCharts::empty(why, ServingCharts::memoryFormula(), ServingCharts::memorySource()));
        latency_chart_->setData(ServingCharts::empty(why, ServingCharts::latencyFormula(), ServingCharts::latencySource()));
        prefill_roofline_chart_->setData(
            ServingCharts::empty(why, ServingCharts::rooflineFormula(), ServingCharts::rooflineSource()));
        decode_roofline_chart_->setData(
            ServingCharts::empty(why, ServingCharts::rooflineFormula(), ServingCharts::rooflineSource()));
    }
    if (speculative_report_)
        speculative_chart_->setData(ServingCharts::speculativeSpeedup(*speculative_report_));
    else
        speculative_chart_->setData(ServingCharts::empty(
            tr("Speculative decoding: %1").arg(report_ ? speculative_problem_ : problem_),
            ServingCharts::speculativeFormula(), ServingCharts::speculativeSource()));

    roofline_title_->setText(tr("<b>Prefill and decode on the roofline</b>: one GPU's share of each operator. Prefill's "
                                "matmuls sit right of the ridge (compute-bound); at small batches decode's sit far "
                                "left of it, waiting for the weights to stream from HBM."));
    quantisation_title_->setText(tr("<b>Quantisation</b>: what the chosen formats save and cost in bytes against "
                                    "16-bit storage of the same model on the same GPUs."));
    caveat_label_->setText(caveatText());
    speculative_title_->setText(
        tr("<b>Speculative decoding</b>: the draft proposes γ tokens, the target checks them in one step. The "
           "speedup needs a high acceptance α and a cheap draft (small c); below the dashed line it slows decode "
           "down."));
    breakdown_title_->setText(tr("<b>Where the end-to-end time goes</b>: the named parts add up to the latency of "
                                 "one request (TTFT + decode); hover a row for its formula and source."));
    fillQuantisationTable();
    fillBreakdownTable();
    emit servingChanged();
}

void ServingPage::fillStatus()
{
    QString text;
    bool warning = false;
    if (!report_) {
        text = tr("Cannot serve this: %1").arg(problem_.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")));
        warning = true;
    } else {
        const ServingReport &r = *report_;
        const ServingMemory &m = r.memory;
        text = tr("%1 on %2 × %3 (tp %4, pp %5, %n replica(s)); matmuls at the %6 peak; serving factors: %7.", nullptr,
                  r.inputs.replicas)
                   .arg(format::fromStd(r.inputs.scenario.model.name).toHtmlEscaped())
                   .arg(r.gpus)
                   .arg(format::fromStd(r.inputs.scenario.cluster.accelerator.name).toHtmlEscaped())
                   .arg(r.inputs.tp)
                   .arg(r.inputs.pp)
                   .arg(format::fromStd(toString(r.compute_format)).toUpper(),
                        r.factors.calibrated ? tr("fitted on published measurements") : tr("not calibrated (defaults)"));
        if (r.max_batch == 0) {
            text += QStringLiteral("<br><b>")
                + tr("The model does not fit even at batch 1: %1 of weights, KV cache, workspace and reserve per GPU "
                     "against %2. Use more tp or pp, or a smaller weight format.")
                      .arg(format::bytes(m.total_bytes), format::bytes(m.capacity_bytes))
                + QStringLiteral("</b>");
            warning = true;
        } else if (!m.fits) {
            text += QStringLiteral("<br><b>")
                + tr("Batch %1 does not fit: %2 per GPU against %3. The largest batch that fits is %4; the figures "
                     "below are for batch %1 as if it did.")
                      .arg(format::integer(r.inputs.batch), format::bytes(m.total_bytes), format::bytes(m.capacity_bytes),
                           format::integer(r.max_batch))
                + QStringLiteral("</b>");
            warning = true;
        }
    }
    status_label_->setText(text);
    // A warning in the theme's link-visited red would not read on dark bases; bold carries it, the
    // red value of the Fits card repeats it.
    status_label_->setProperty("warning", warning);
}

void ServingPage::fillCards()
{
    const QString none = QStringLiteral("–");
    const QString captions[CardCount] = {tr("Time to first token"), tr("Time per output token"),
                                         tr("Output tokens/s per GPU"), tr("Largest batch that fits"),
                                         tr("Cost per million output tokens"), tr("Memory per GPU")};
    if (!report_) {
        for (int i = 0; i < CardCount; ++i) {
            cards_[i]->set(captions[i], none, QString(), QString());
            cards_[i]->setWarning(false);
        }
        return;
    }
    const ServingReport &r = *report_;
    const ServingFactors &f = r.factors;
    const QString factors = tr("compute_fraction %1, bandwidth_fraction %2, kernel launch %3, host step %4 (%5)")
                                .arg(format::decimal(f.compute_fraction, 3), format::decimal(f.bandwidth_fraction, 3),
                                     seconds(f.kernel_launch_seconds), seconds(f.host_step_seconds),
                                     format::fromStd(f.source).toHtmlEscaped());
    const QString roofline = tr("Williams et al. 2009 (roofline); operators: core/roofline from core/ops");

    cards_[Ttft]->set(captions[Ttft], seconds(r.ttft_seconds),
                      tr("prefill of %1 × %2 tokens").arg(format::integer(r.inputs.batch), format::integer(r.inputs.prompt_tokens)),
                      format::tooltip(captions[Ttft], factors,
                                      tr("TTFT = (m + pp − 1)/pp · (Σ prefill operators max(FLOPs / (peak · "
                                         "compute_fraction), bytes / (bandwidth · bandwidth_fraction)) + 2 · layers · "
                                         "tp all-reduce + kernels · launch) + hand-offs + host step"),
                                      roofline));
    QString tpot_detail = tr("mean over %n decode step(s)", nullptr, int(std::max<std::int64_t>(1, r.inputs.output_tokens - 1)));
    if (speculative_report_ && speculative_report_->speculative)
        tpot_detail += QLatin1Char('\n')
            + tr("with the draft: %1 (%2× faster)")
                  .arg(seconds(speculative_report_->speculative->tpot_seconds),
                       format::decimal(speculative_report_->speculative->speedup, 2));
    cards_[Tpot]->set(captions[Tpot], seconds(r.tpot_seconds), tpot_detail,
                      format::tooltip(captions[Tpot], factors,
                                      tr("TPOT = decode time / (output − 1); a decode step = Σ operators max(compute, "
                                         "memory) at its context + 2 · layers · tp all-reduce + pp hand-offs + kernels · "
                                         "launch + host step; batch 1 is at least weights / HBM bandwidth"),
                                      roofline));
    cards_[Throughput]->set(captions[Throughput], format::si(r.output_tokens_per_second_per_gpu, tr("tokens/s")),
                            tr("%1 in all; MBU %2, MFU %3")
                                .arg(format::si(r.output_tokens_per_second, tr("tokens/s")), format::percent(r.mbu),
                                     format::percent(r.mfu)),
                            format::tooltip(captions[Throughput], QString(),
                                            tr("output tokens/s = replicas · batch · output tokens / (TTFT + decode); per "
                                               "GPU ÷ GPUs. MBU = decode bytes / (decode time · HBM bandwidth · GPUs); "
                                               "MFU = matmul FLOPs / (time · peak · GPUs)"),
                                            tr("MBU: Databricks 2023, 'LLM inference performance engineering'; MFU: "
                                               "Chowdhery et al. 2022 (PaLM) App. B")));
    cards_[MaxBatch]->set(captions[MaxBatch], r.max_batch > 0 ? format::integer(r.max_batch) : tr("none"),
                          r.decode_crossover_batch > 0
                              ? tr("decode compute-bound from batch %1").arg(format::integer(r.decode_crossover_batch))
                              : tr("decode memory-bound up to 2²⁴"),
                          format::tooltip(captions[MaxBatch], QString(),
                                          tr("the largest batch whose weights + KV cache at prompt + output tokens + "
                                             "workspace + reserve ≤ the GPU's memory; crossover: the batch from which "
                                             "every decode weight matmul's intensity reaches the ridge point"),
                                          tr("KV cache: Kwon et al. 2023 (vLLM) §3; ridge point: Williams et al. 2009")));
    cards_[MaxBatch]->setWarning(r.max_batch == 0);
    cards_[Cost]->set(captions[Cost], format::money(r.cost_per_million_output_tokens),
                      tr("at %1 per GPU-hour × %n GPU(s)", nullptr, r.gpus)
                          .arg(format::money(r.inputs.scenario.cluster.price_per_gpu_hour)),
                      format::tooltip(captions[Cost], QString(),
                                      tr("cost = price per GPU-hour · GPUs / 3600 / output tokens/s · 10⁶"),
                                      tr("the scenario's GPU price (Cluster → price per GPU-hour)")));
    const ServingMemory &m = r.memory;
    cards_[Fits]->set(captions[Fits], m.fits ? tr("fits") : tr("does not fit"),
                      tr("%1 of %2").arg(format::bytes(m.total_bytes), format::bytes(m.capacity_bytes)),
                      format::tooltip(captions[Fits],
                                      tr("weights %1, KV cache %2, workspace %3, reserve %4")
                                          .arg(format::bytes(m.weights_bytes), format::bytes(m.kv_cache_bytes),
                                               format::bytes(m.activation_bytes), format::bytes(m.reserve_bytes)),
                                      ServingCharts::memoryFormula(), ServingCharts::memorySource()));
    cards_[Fits]->setWarning(!m.fits);
}

}  // namespace lse::gui
