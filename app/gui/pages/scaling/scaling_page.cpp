// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/scaling/scaling_page.h"

#include "charts/chart_view.h"
#include "charts/height_cached_label.h"
#include "pages/scaling/scaling_charts.h"
#include "pages/page_format.h"
#include "scaling/chinchilla_table3.h"
#include "scenario/scenario_adjust.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace lse::gui {

namespace {

QString flops(double value) { return format::scientific(value) + QLatin1Char(' ') + ScalingPage::tr("FLOP"); }

QString cell(const QString &text) { return QStringLiteral("<td align=\"right\">%1</td>").arg(text); }

}  // namespace

ScalingPage::ScalingPage(QWidget *parent) : Page(parent)
{
    auto *layout = new QVBoxLayout(addScrollingContent(this));
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(8);
    heading_ = new HeightCachedLabel(this);
    heading_->setWordWrap(true);
    heading_->setTextFormat(Qt::RichText);
    layout->addWidget(heading_);
    // The figures table changes on every edit, the sentences under it only with the cluster; both
    // remember their heights (HeightCachedLabel), so a layout pass lays each text out once per width.
    figures_ = new HeightCachedLabel(this);
    figures_->setWordWrap(true);
    figures_->setTextFormat(Qt::RichText);
    figures_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(figures_);
    notes_ = new HeightCachedLabel(this);
    notes_->setWordWrap(true);
    notes_->setTextFormat(Qt::RichText);
    notes_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(notes_);
    auto *buttons = new QHBoxLayout;
    use_optimal_ = new QPushButton(this);
    buttons->addWidget(use_optimal_);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    approaches_ = new HeightCachedLabel(this);
    approaches_->setWordWrap(true);
    approaches_->setTextFormat(Qt::RichText);
    layout->addWidget(approaches_);
    connect(use_optimal_, &QPushButton::clicked, this, &ScalingPage::useOptimalModel);
    iso_flop_chart_ = new ChartView(QStringLiteral("scaling-iso-flop"), this);
    contour_chart_ = new ChartView(QStringLiteral("scaling-loss-surface"), this);
    over_training_chart_ = new ChartView(QStringLiteral("scaling-over-training"), this);
    layout->addWidget(iso_flop_chart_, 1);
    layout->addWidget(contour_chart_, 1);
    layout->addWidget(over_training_chart_, 1);
    setChartMinimumHeights(kChartMinimumHeight, kPresentationChartMinimumHeight);
    setPresentation(false);
    refresh();
    nameLessonRegions();
}

QString ScalingPage::pageId() { return QStringLiteral("scaling"); }

QString ScalingPage::pageTitle() { return tr("Scaling"); }

QList<ChartView *> ScalingPage::charts() const { return {iso_flop_chart_, contour_chart_, over_training_chart_}; }

void ScalingPage::estimateChanged(const Scenario * /*previous*/)
{
    scaling_ = scaling::scenarioScaling(scenario());
    refresh();
}

void ScalingPage::applyPresentation(bool presentation)
{
    // Presentation mode already enlarges the application font; on a projector the charts and the
    // figures table come first, and the two paragraphs (also in the iso-FLOP chart's formula panel)
    // give way to them.
    heading_->setVisible(!presentation);
    approaches_->setVisible(!presentation);
}

void ScalingPage::retranslate() { refresh(); }

void ScalingPage::changeEvent(QEvent *event)
{
    Page::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && scaling_)
        contour_chart_->setData(ScalingCharts::lossContours(*scaling_, palette()));
}

bool ScalingPage::setLabelText(QLabel *label, const QString &text)
{
    // QLabel re-parses rich text and asks for a new layout on every setText; an edit leaves most
    // of this page's text as it was.
    if (label->text() == text)
        return false;
    label->setText(text);
    ++label_text_sets_;
    return true;
}

void ScalingPage::refresh()
{
    use_optimal_->setText(tr("Use the compute-optimal model"));
    setLabelText(heading_, tr("<b>How big a model does the scenario's training compute buy?</b> Chinchilla's "
                              "approach 3 (Hoffmann et al. 2022) against the scenario: the loss its N and D "
                              "reach, and the model size and token count that minimise the loss for the same "
                              "C = 6·N·D."));
    setLabelText(approaches_, QStringLiteral("<b>%1</b> %2").arg(ScalingCharts::gopherComparison(),
                                                                 ScalingCharts::approachDifference()));
    if (!scaling_) {
        setLabelText(figures_, tr("No valid scenario yet."));
        setLabelText(notes_, QString());
        use_optimal_->setEnabled(false);
        use_optimal_->setToolTip(QString());
        for (ChartView *chart : charts()) {
            ChartData empty;
            empty.title = tr("No valid scenario yet");
            chart->setData(empty);
        }
        return;
    }
    setLabelText(figures_, figuresText());
    setLabelText(notes_, notesText());
    use_optimal_->setEnabled(scaling_->optimal_scenario.has_value());
    use_optimal_->setToolTip(
        scaling_->optimal_scenario
            ? tr("Replace the model by %1 and the tokens by %2 (one undo step)")
                  .arg(format::fromStd(scaling_->optimal_scenario->model.name),
                       format::count(double(scaling_->optimal_scenario->training.tokens)))
            : QString::fromStdString(formatProblems(scaling_->optimal_problems)));
    iso_flop_chart_->setData(ScalingCharts::isoFlop(*scaling_));
    contour_chart_->setData(ScalingCharts::lossContours(*scaling_, palette()));
    over_training_chart_->setData(ScalingCharts::overTraining(*scaling_));
}

QString ScalingPage::figuresText() const
{
    const scaling::ScenarioScaling &s = *scaling_;
    const std::optional<Estimate> &optimal = s.optimal_estimate;
    const auto optimalCell = [&](auto figure) { return cell(optimal ? figure(*optimal) : QStringLiteral("–")); };
    QString text = QStringLiteral("<table cellspacing=\"0\" cellpadding=\"3\">");
    text += QStringLiteral("<tr><th></th><th align=\"right\">%1</th><th align=\"right\">%2</th>"
                           "<th align=\"right\">%3</th></tr>")
                .arg(tr("Scenario"), tr("Compute-optimal (eq. 4)"), tr("20 tokens/parameter"));
    const auto row = [&](const QString &label, const QString &a, const QString &b, const QString &c) {
        text += QStringLiteral("<tr><td>%1</td>%2%3%4</tr>").arg(label, cell(a), cell(b), cell(c));
    };
    row(tr("Parameters N"), tr("%1 (engine count)").arg(format::count(s.params)),
        s.optimal_scenario ? tr("%1 (family model: %2)").arg(format::count(s.optimum.params),
                                                             format::count(s.optimal_model_params))
                           : format::count(s.optimum.params),
        format::count(s.tokens_rule.params));
    row(tr("Training tokens D"), format::count(s.tokens),
        s.optimal_scenario ? tr("%1 (trained: %2)").arg(format::count(s.optimum.tokens),
                                                        format::count(double(s.optimal_scenario->training.tokens)))
                           : format::count(s.optimum.tokens),
        format::count(s.tokens_rule.tokens));
    row(tr("Tokens per parameter"), format::decimal(s.tokens / s.params, 1),
        format::decimal(s.optimum.tokensPerParam(), 1), format::decimal(s.tokens_rule.tokensPerParam(), 1));
    row(tr("Training compute C = 6ND"), flops(s.compute), flops(s.optimum.compute), flops(s.tokens_rule.compute));
    row(tr("Loss L(N, D)"), format::decimal(s.loss, 4), format::decimal(s.optimum.loss, 4),
        format::decimal(s.tokens_rule.loss, 4));
    text += QStringLiteral("<tr><td>%1</td>%2%3<td></td></tr>")
                .arg(tr("Training days (engine)"), cell(format::days(estimate().time.days)),
                     optimalCell([](const Estimate &e) { return format::days(e.time.days); }));
    text += QStringLiteral("<tr><td>%1</td>%2%3<td></td></tr>")
                .arg(tr("GPU-hours (engine)"), cell(format::count(estimate().time.gpu_hours)),
                     optimalCell([](const Estimate &e) { return format::count(e.time.gpu_hours); }));
    text += QStringLiteral("<tr><td>%1</td>%2%3<td></td></tr>")
                .arg(tr("Cost (engine)"), cell(format::money(estimate().time.cost)),
                     optimalCell([](const Estimate &e) { return format::money(e.time.cost); }));
    text += QStringLiteral("</table>");
    return text;
}

QString ScalingPage::notesText() const
{
    const scaling::ScenarioScaling &s = *scaling_;
    QString text = tr("Both on the scenario's cluster: %1 × %2, MFU %3.")
                  .arg(format::integer(scenario().cluster.gpus), format::fromStd(scenario().cluster.accelerator.name),
                       // With the MFU predicted, each model's run has its own predicted MFU.
                       scenario().training.mfu_source == MfuSource::Predicted ? tr("predicted for each model")
                                                                             : format::percent(scenario().training.mfu))
            + QLatin1Char(' ')
            + (scenario().training.flops_model == FlopsModel::SixND
                   ? tr("The engine's time uses C = 6ND here, so both take the same time up to the layout.")
                   : tr("The engine's time counts each model's exact matmul FLOPs, so the days differ slightly "
                        "although 6ND is the same."));
    if (scenario().model.moe.enabled())
        text += QStringLiteral(" ") + tr("For this mixture of experts N is the active parameter count (%1 of %2 in "
                                         "all); the law was fitted on dense models.")
                                          .arg(format::count(s.params),
                                               format::count(double(estimate().params.total)));
    if (!s.optimal_adjustments.empty())
        text += QStringLiteral(" ") + tr("Layout adapted for the optimal model: %1.")
                                          .arg(format::fromStd(joinAdjustments(s.optimal_adjustments)).toHtmlEscaped());
    if (!s.optimal_problems.empty())
        text += QStringLiteral(" ") + tr("No engine estimate of the optimal model: %1")
                                          .arg(QString::fromStdString(formatProblems(s.optimal_problems)).toHtmlEscaped());
    if (s.table3)
        text += QStringLiteral(" ") + tr("The scenario's compute is Table 3's row \"%1\": %2 parameters on %3 tokens.")
                                          .arg(format::fromStd(s.table3->label), format::count(s.table3->params),
                                               format::count(s.table3->tokens));
    return text;
}

void ScalingPage::useOptimalModel()
{
    if (!scaling_ || !scaling_->optimal_scenario)
        return;
    const Scenario &optimal = *scaling_->optimal_scenario;
    emit scenarioEditRequested(optimal, tr("Use the compute-optimal model (%1 parameters, %2 tokens)")
                                            .arg(format::count(scaling_->optimal_model_params),
                                                 format::count(double(optimal.training.tokens))));
}

void ScalingPage::nameLessonRegions()
{
    heading_->setObjectName(QStringLiteral("scaling-heading"));
    figures_->setObjectName(QStringLiteral("scaling-figures"));
    notes_->setObjectName(QStringLiteral("scaling-notes"));
    use_optimal_->setObjectName(QStringLiteral("use-optimal-model"));
    approaches_->setObjectName(QStringLiteral("scaling-approaches"));
}

}  // namespace lse::gui
