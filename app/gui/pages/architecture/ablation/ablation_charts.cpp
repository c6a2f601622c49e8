// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/architecture/ablation/ablation_charts.h"

#include "charts/chart_palette.h"
#include "pages/page_format.h"

namespace lse::gui {

namespace {


FormulaInfo formula(const reference::AblationResults &results)
{
    FormulaInfo f;
    f.inputs = AblationCharts::setupText(results);
    f.formula = AblationCharts::tr("loss = mean cross-entropy of the next token (nats/token); training loss of each step's "
                                   "batch, validation loss on the last 10% of the tokens; every variant trains on the same "
                                   "batches (same tokens, same seed)");
    f.source = AblationCharts::tr("CPU reference transformer (CS336 assignment 1) trained here; variants as in CS336 "
                                  "lecture 3 (Xiong et al. 2020 pre-norm, Zhang & Sennrich 2019 RMSNorm, Shazeer 2020 "
                                  "GLU, Su et al. 2021 RoPE, Wang & Komatsuzaki 2021 parallel blocks)");
    return f;
}

}  // namespace

QString AblationCharts::statusText(reference::VariantStatus status)
{
    switch (status) {
    case reference::VariantStatus::Finished: return tr("finished");
    case reference::VariantStatus::Cancelled: return tr("cancelled");
    case reference::VariantStatus::Diverged: return tr("diverged");
    }
    return {};
}

QString AblationCharts::setupText(const reference::AblationResults &results)
{
    const ModelConfig &m = results.base.model;
    return tr("%1 layers, d_model %2, %3 heads, context %4, vocabulary %5; %6 steps × %7 sequences, seed %8; %9 tokens "
              "from %10 of text")
        .arg(m.n_layers)
        .arg(m.d_model)
        .arg(m.n_heads)
        .arg(m.max_seq_len)
        .arg(m.vocab_size)
        .arg(results.base.steps)
        .arg(results.base.batch_size)
        .arg(results.base.seed)
        .arg(format::count(double(results.tokens)), format::bytes(double(results.text_bytes)));
}

ChartData AblationCharts::lossCurves(const reference::AblationResults &results, const QPalette &palette)
{
    ChartData chart;
    chart.title = tr("Loss curves of the variants (same tokens and seed)");
    chart.x_label = tr("Step");
    chart.y_label = tr("Loss (nats/token)");
    chart.x_unit = tr("steps");
    chart.y_unit = tr("nats/token");
    for (std::size_t i = 0; i < results.variants.size(); ++i) {
        const reference::AblationResult &r = results.variants[i];
        const QColor color = chartSeriesColor(int(i), palette);
        const QString name = variantName(r.variant.name);
        ChartSeries train;
        train.name = tr("%1 — training").arg(name);
        train.color = color;
        ChartSeries validation;
        validation.name = tr("%1 — validation").arg(name);
        validation.color = color;
        validation.dashed = true;
        for (const reference::AblationPoint &p : r.curve) {
            train.x << p.step;
            train.y << p.train_loss;
            train.point_tooltips << tr("%1, step %2: training loss %3").arg(name).arg(p.step).arg(format::decimal(p.train_loss, 4));
            if (p.validation_loss) {
                validation.x << p.step;
                validation.y << *p.validation_loss;
                validation.point_tooltips << tr("%1, step %2: validation loss %3")
                                                 .arg(name)
                                                 .arg(p.step)
                                                 .arg(format::decimal(*p.validation_loss, 4));
            }
        }
        chart.series << train;
        if (!validation.x.isEmpty())
            chart.series << validation;
    }
    chart.formula = formula(results);
    return chart;
}

ChartData AblationCharts::finalValidationLoss(const reference::AblationResults &results, const QPalette &palette)
{
    ChartData chart;
    chart.title = tr("Final validation loss per variant");
    chart.y_label = tr("Validation loss (nats/token)");
    chart.y_unit = tr("nats/token");
    for (std::size_t i = 0; i < results.variants.size(); ++i) {
        const reference::AblationResult &r = results.variants[i];
        chart.categories << variantName(r.variant.name);
        // Markers, not bars: the differences are a few hundredths of a nat, which bars from zero
        // would hide and bars from the axis minimum would exaggerate.
        ChartSeries bar;
        bar.name = variantName(r.variant.name);
        bar.kind = ChartSeries::Kind::Marker;
        bar.color = chartSeriesColor(int(i), palette);
        bar.marker_size = 12;
        if (r.final_validation_loss) {
            bar.x << double(i);
            bar.y << *r.final_validation_loss;
            bar.point_labels << format::decimal(*r.final_validation_loss, 3);
            bar.point_tooltips << tr("%1: final validation loss %2 after %3 steps (%4), %5 parameters, %6 tokens/s")
                                      .arg(variantName(r.variant.name), format::decimal(*r.final_validation_loss, 4))
                                      .arg(r.stepsCompleted())
                                      .arg(statusText(r.status), format::count(double(r.parameters)),
                                           format::decimal(r.tokens_per_s, 0));
        }
        chart.series << bar;
    }
    chart.formula = formula(results);
    return chart;
}

QString AblationCharts::variantName(const std::string &name)
{
    // The words of core/reference/ablation/ablation_spec.cpp's standard studies.
    static const char *const kWords[] = {
        QT_TR_NOOP("Pre-norm"), QT_TR_NOOP("Post-norm"), QT_TR_NOOP("No norm"), QT_TR_NOOP("Learned"),
        QT_TR_NOOP("Sinusoidal"), QT_TR_NOOP("No position (NoPE)"), QT_TR_NOOP("Serial"), QT_TR_NOOP("Parallel"),
    };
    for (const char *word : kWords)
        if (name == word)
            return tr(word);
    return QString::fromStdString(name);
}

}  // namespace lse::gui
