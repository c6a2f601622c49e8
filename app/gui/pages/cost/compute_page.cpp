// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/cost/compute_page.h"

#include "charts/chart_view.h"
#include "pages/side_by_side_layout.h"
#include "pages/page_format.h"

#include <QVBoxLayout>

namespace lse::gui {

namespace {

QString problemText(const Problems &problems)
{
    return problems.empty() ? QString() : QString::fromStdString(problems.front().message);
}

QString modelName(const ModelConfig &model) { return QString::fromStdString(model.name); }

}  // namespace

ComputePage::ComputePage(QWidget *parent) : Page(parent)
{
    auto *layout = new QVBoxLayout(addScrollingContent(this));
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(8);
    component_chart_ = new ChartView(QStringLiteral("flops-per-token-by-component"), this);
    seq_len_chart_ = new ChartView(QStringLiteral("attention-share-vs-seq-len"), this);
    models_chart_ = new ChartView(QStringLiteral("attention-vs-mlp-share-across-models"), this);
    pair_ = new SideBySideLayout;
    pair_->setSpacing(8);
    pair_->addWidget(component_chart_);
    pair_->addWidget(seq_len_chart_);
    layout->addLayout(pair_, 1);
    layout->addWidget(models_chart_, 1);
    setChartMinimumHeights(kChartMinimumHeight, kPresentationChartMinimumHeight);
    setPresentation(false);
    refresh();
}

void ComputePage::applyPresentation(bool presentation)
{
    // Normal: two charts side by side over a full-width one when the page is wide enough (1280×800),
    // stacked beside the editor on a 1024-px screen. Presentation: one full-width chart per row
    // (the page scrolls), as projector fonts need.
    pair_->setStacked(presentation);
}

QString ComputePage::pageId() { return QStringLiteral("compute"); }

QString ComputePage::pageTitle() { return tr("Compute"); }

QList<ChartView *> ComputePage::charts() const { return {component_chart_, models_chart_, seq_len_chart_}; }

void ComputePage::estimateChanged(const Scenario * /*previous*/)
{
    refresh();
}

void ComputePage::retranslate() { refresh(); }

void ComputePage::refresh()
{
    component_chart_->setData(componentChart());
    models_chart_->setData(acrossModelsChart());
    seq_len_chart_->setData(seqLenChart());
}

ChartData ComputePage::componentChart() const
{
    ChartData chart;
    chart.x_label = tr("Component");
    chart.y_unit = QStringLiteral("FLOP");
    chart.y_label = tr("Forward FLOPs per token");
    if (!hasEstimate()) {
        chart.title = tr("FLOPs per token: no valid scenario yet");
        return chart;
    }
    const ModelConfig &model = scenario().model;
    const TrainingConfig &training = scenario().training;
    const Result<ComputeShare> result = computeShare(model, training.seq_len, training.attention_flops);
    if (!result) {
        chart.title = tr("FLOPs per token: %1").arg(problemText(result.problems()));
        return chart;
    }
    const ComputeShare &share = *result;
    const bool causal = training.attention_flops == AttentionFlops::Causal;
    const QString ff = model.isGated() ? tr("2·3·h·d_ff (gated: three matrices)") : tr("2·2·h·d_ff");
    const QString expert_ff = model.isGated() ? QStringLiteral("2·3·h") : QStringLiteral("2·2·h");

    struct Bar {
        Component component;
        QString name;       // short: the category axis is narrow
        QString full_name;  // for the tooltip
        QString formula;
    };
    const Bar bars[] = {
        {Component::AttentionProjections, tr("Projections"), tr("Attention projections (Q, K, V, output)"),
         tr("2·h·(q + 2·kv) for Q, K, V + 2·q·h for the output, per layer (q = %1, kv = %2)")
             .arg(model.qDim())
             .arg(model.kvDim())},
        {Component::AttentionScores, tr("Scores (s²)"), tr("Attention scores (QKᵀ and A·V)"),
         causal ? tr("(2·s·q for QKᵀ + 2·s·q for A·V) / 2 per layer: causal counting of the s² work")
                : tr("2·s·q for QKᵀ + 2·s·q for A·V per layer = 4·s·h for multi-head attention (full s²)")},
        {Component::Mlp, tr("MLP"), tr("Dense MLP"), tr("%1 per dense layer").arg(ff)},
        {Component::Router, tr("Router"), tr("MoE router"), tr("2·h·n_experts per MoE layer")},
        {Component::Experts, tr("Experts"), tr("Routed experts"),
         tr("top_k · %1·d_expert per MoE layer").arg(expert_ff)},
        {Component::SharedExperts, tr("Shared exp."), tr("Shared experts"),
         tr("n_shared · %1·d_shared per MoE layer").arg(expert_ff)},
        {Component::Head, tr("Head"), tr("Vocabulary head"), tr("2·h·V, once per token")},
    };
    double largest = 0;
    for (const Bar &bar : bars)
        largest = std::max(largest, share.forward_per_token_by_component[std::size_t(bar.component)]);
    const format::SiScale scale = format::siScale(largest);
    chart.y_display_scale = scale.scale;
    chart.y_label = tr("%1FLOP per token").arg(scale.prefix);

    ChartSeries series;
    series.name = tr("Forward FLOPs per token");
    series.kind = ChartSeries::Kind::Bar;
    for (const Bar &bar : bars) {
        const double flops = share.forward_per_token_by_component[std::size_t(bar.component)];
        if (!(flops > 0))
            continue;  // components the model does not have (experts of a dense model, ...)
        series.x << double(chart.categories.size());
        series.y << flops;
        chart.categories << bar.name;
        series.point_tooltips << tr("<b>%4</b>: %1 per token, %2 of the forward pass<br>%3")
                                     .arg(format::si(flops, tr("FLOP")),
                                          format::percent(share.share_by_component[std::size_t(bar.component)]),
                                          bar.formula, bar.full_name.toHtmlEscaped());
    }
    chart.series << series;
    chart.title = tr("FLOPs per token by component");
    QString inputs = tr("%9, %10 per token: L = %1, h = %2, heads = %3, KV heads = %4, head dim = %5, d_ff = %6, "
                        "V = %7, s = %8")
                         .arg(model.n_layers)
                         .arg(model.d_model)
                         .arg(model.n_heads)
                         .arg(model.n_kv_heads)
                         .arg(model.head_dim)
                         .arg(model.d_ff)
                         .arg(model.vocab_size)
                         .arg(training.seq_len)
                         .arg(modelName(model).toHtmlEscaped(), format::si(share.forward_per_token, tr("FLOP")));
    if (model.moe.enabled())
        inputs += tr(", %1 experts (top-%2, d_expert = %3, %4 shared)")
                      .arg(model.moe.n_experts)
                      .arg(model.moe.top_k)
                      .arg(model.moe.expert_d_ff)
                      .arg(model.moe.n_shared_experts);
    chart.formula.inputs = inputs;
    chart.formula.formula =
        tr("2·m·n·k per matmul; per layer and token: projections 2·h·(q + 2·kv) + 2·q·h, scores 4·s·q (%1), "
           "MLP %2; head 2·h·V; backward = 2 × forward")
            .arg(causal ? tr("halved for causal counting") : tr("full s², the papers' MFU convention"), ff);
    chart.formula.source = tr("Kaplan et al. 2020, Table 1; PaLM (Chowdhery et al. 2022), App. B");
    return chart;
}

ChartData ComputePage::acrossModelsChart()
{
    ChartData chart;
    chart.x_label = tr("Parameters (log scale)");
    chart.x_unit = QStringLiteral("parameters");
    chart.y_label = tr("Share of forward FLOPs (%)");
    chart.y_unit = QStringLiteral("fraction");
    chart.y_display_scale = 100;
    chart.log_x = true;
    if (!hasEstimate()) {
        chart.title = tr("Attention vs MLP share across models: no valid scenario yet");
        return chart;
    }
    const TrainingConfig &training = scenario().training;
    if (!models_cache_ || models_cache_->seq_len != training.seq_len
        || models_cache_->attention_flops != training.attention_flops)
        models_cache_ = ModelsCache{training.seq_len, training.attention_flops,
                                    computeShareAcrossModels(builtinModelPresets(), training.seq_len,
                                                             training.attention_flops)};
    const ModelComputeShareSweep &sweep = models_cache_->sweep;
    if (sweep.points.empty()) {
        chart.title = tr("Attention vs MLP share across models: no preset has an estimate at s = %1")
                         .arg(format::integer(training.seq_len));
        return chart;
    }
    chart.title = tr("Attention vs MLP share across models (s = %1)").arg(format::integer(training.seq_len));

    // The presets are separate models, not a progression: labelled points, no line joining them
    // (a line sorted by size zigzags between model families).
    ChartSeries attention;
    attention.name = tr("Attention scores");
    attention.kind = ChartSeries::Kind::Marker;
    ChartSeries mlp;
    mlp.name = tr("MLP (incl. experts)");
    mlp.kind = ChartSeries::Kind::Marker;
    for (const ModelComputeShare &point : sweep.points) {
        const ComputeShare &s = point.share;
        const QString tip = tr("<b>%1</b> (%2)<br>%3 parameters, %4 active<br>attention scores %5 · MLP %6 · "
                               "projections %7 · head %8")
                                .arg(QString::fromStdString(point.name).toHtmlEscaped(),
                                     QString::fromStdString(point.id).toHtmlEscaped(), format::count(double(s.parameters)),
                                     format::count(double(s.active_parameters)), format::percent(s.attention_scores_share),
                                     format::percent(s.mlp_share), format::percent(s.projections_share),
                                     format::percent(s.head_share));
        const QString name = QString::fromStdString(point.name);
        attention.x << double(s.parameters);
        attention.y << s.attention_scores_share;
        attention.point_tooltips << tip;
        attention.point_labels << name;
        mlp.x << double(s.parameters);
        mlp.y << s.mlp_share;
        mlp.point_tooltips << tip;
        mlp.point_labels << name;
    }
    chart.series << attention << mlp;

    if (const Result<ComputeShare> current = computeShare(scenario().model, training.seq_len, training.attention_flops)) {
        ChartSeries marker;
        marker.name = tr("Current model");
        marker.kind = ChartSeries::Kind::Marker;
        const QString name = modelName(scenario().model).toHtmlEscaped();
        marker.x << double(current->parameters) << double(current->parameters);
        marker.y << current->attention_scores_share << current->mlp_share;
        marker.point_tooltips << tr("<b>%1</b>: attention scores %2").arg(name, format::percent(current->attention_scores_share))
                              << tr("<b>%1</b>: MLP %2").arg(name, format::percent(current->mlp_share));
        chart.series << marker;
    }

    QString inputs = tr("s = %1 for all %2 built-in presets (labels that would overlap are left out; hover a point "
                        "for its name)")
                         .arg(format::integer(training.seq_len))
                         .arg(sweep.points.size());
    if (!sweep.skipped.empty())
        inputs += tr("; without an estimate: %1")
                      .arg(QString::fromStdString(sweep.skipped.front()) + (sweep.skipped.size() > 1 ? QStringLiteral(", …") : QString()));
    chart.formula.inputs = inputs;
    chart.formula.formula =
        tr("per layer and token: attention scores 4·s·h vs GeLU MLP 16·h²; the ratio s/(4h) shrinks as models "
           "widen, so compute moves from attention to the MLP");
    chart.formula.source = tr("Kaplan et al. 2020, Table 1; PaLM (Chowdhery et al. 2022), App. B; Stanford CS336");
    return chart;
}

ChartData ComputePage::seqLenChart() const
{
    ChartData chart;
    chart.x_label = tr("Sequence length (tokens, log scale)");
    chart.x_unit = QStringLiteral("tokens");
    chart.y_label = tr("Share of forward FLOPs (%)");
    chart.y_unit = QStringLiteral("fraction");
    chart.y_display_scale = 100;
    chart.log_x = true;
    if (!hasEstimate()) {
        chart.title = tr("Share vs sequence length: no valid scenario yet");
        return chart;
    }
    const ModelConfig &model = scenario().model;
    const TrainingConfig &training = scenario().training;
    const ComputeShareSweep sweep =
        computeShareVsSeqLen(model, format::seqLenSweep(training.seq_len), training.attention_flops);
    if (sweep.points.empty()) {
        chart.title = tr("Share vs sequence length: no valid point (%1)")
                         .arg(sweep.skipped.empty() ? QString() : problemText(sweep.skipped.front().problems));
        return chart;
    }
    chart.title = tr("Shares vs sequence length");

    struct Line {
        QString name;
        QString full_name;
        double ComputeShare::*share;
        bool dashed;
    };
    const Line lines[] = {
        // Short names: this chart is half the page wide and its legend has five entries.
        {tr("Scores"), tr("Attention scores"), &ComputeShare::attention_scores_share, false},
        {tr("MLP"), tr("MLP (incl. experts)"), &ComputeShare::mlp_share, false},
        {tr("Projections"), tr("Attention projections"), &ComputeShare::projections_share, true},
        {tr("Head"), tr("Vocabulary head"), &ComputeShare::head_share, true},
    };
    for (const Line &line : lines) {
        ChartSeries series;
        series.name = line.name;
        series.dashed = line.dashed;
        for (const ComputeShare &point : sweep.points) {
            series.x << double(point.seq_len);
            series.y << point.*line.share;
            series.point_tooltips << tr("%4 at s = %1: %2 of %3 forward FLOPs per token")
                                         .arg(format::integer(point.seq_len), format::percent(point.*line.share),
                                              format::si(point.forward_per_token, tr("FLOP")),
                                              line.full_name.toHtmlEscaped());
        }
        chart.series << series;
    }
    for (const ComputeShare &point : sweep.points) {
        if (point.seq_len != training.seq_len)
            continue;
        ChartSeries marker;
        marker.name = tr("Current s");
        marker.kind = ChartSeries::Kind::Marker;
        marker.x << double(point.seq_len) << double(point.seq_len);
        marker.y << point.attention_scores_share << point.mlp_share;
        marker.point_tooltips << tr("s = %1: attention scores %2").arg(format::integer(point.seq_len),
                                                                        format::percent(point.attention_scores_share))
                              << tr("s = %1: MLP %2").arg(format::integer(point.seq_len), format::percent(point.mlp_share));
        chart.series << marker;
    }
    QString inputs = tr("%1: h = %2, L = %3, heads = %4, attention FLOPs counted %5")
                         .arg(modelName(model))
                         .arg(model.d_model)
                         .arg(model.n_layers)
                         .arg(model.n_heads)
                         .arg(training.attention_flops == AttentionFlops::Full ? tr("in full") : tr("causally"));
    if (!sweep.skipped.empty())
        inputs += tr("; %n sequence length(s) skipped: %1", nullptr, int(sweep.skipped.size()))
                      .arg(problemText(sweep.skipped.front().problems));
    chart.formula.inputs = inputs;
    chart.formula.formula = tr("attention-score share = 4·s·q·L / forward FLOPs per token; the rest does not "
                               "depend on s");
    chart.formula.source = tr("Kaplan et al. 2020, Table 1; PaLM (Chowdhery et al. 2022), App. B");
    return chart;
}

}  // namespace lse::gui
