// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/scaling/scaling_charts.h"

#include "charts/chart_palette.h"
#include "pages/page_format.h"
#include "scaling/chinchilla_table3.h"
#include "scaling/loss_curves.h"
#include "scaling/over_training.h"

#include <QLocale>

#include <algorithm>
#include <cmath>

namespace lse::gui {

namespace {

using scaling::ComputeOptimum;
using scaling::LossPoint;

constexpr int kCurvePoints = 81;  // smooth on log axes, and above the chart's dotted-line limit
// An iso-FLOP curve spans this factor either side of its optimum (the valley of Figure 3).
constexpr double kCurveSpan = 100.0;
// The contour plot spans this factor either side of the optimum, widened to hold the scenario.
constexpr double kSurfaceSpan = 1000.0;
constexpr int kContourLevels = 4;
constexpr double kMaxTokensPerParam = 10000;

QString flops(double value) { return format::scientific(value) + QLatin1Char(' ') + ScalingCharts::tr("FLOP"); }

// Legend entries are plain text: "6.21e24" rather than the tooltips' superscript.
QString plainFlops(double value)
{
    const int exponent = int(std::floor(std::log10(value)));
    return QStringLiteral("%1e%2").arg(QLocale().toString(value / std::pow(10.0, exponent), 'g', 3)).arg(exponent);
}

QString budgetName(double compute) { return ScalingCharts::tr("C = %1 FLOP").arg(plainFlops(compute)); }

}  // namespace

QString ScalingCharts::lawFormula()
{
    return tr("L(N, D) = E + A/N<sup>α</sup> + B/D<sup>β</sup>; C = 6·N·D; N<sub>opt</sub> = G·(C/6)<sup>β/(α+β)</sup>, "
              "D<sub>opt</sub> = G<sup>−1</sup>·(C/6)<sup>α/(α+β)</sup>, G = (αA/(βB))<sup>1/(α+β)</sup>");
}

QString ScalingCharts::lawSource()
{
    return tr("Hoffmann et al. 2022, \"Training Compute-Optimal Large Language Models\": eq. 10 and Appendix D.2 "
              "(E 1.69, A 406.4, B 410.7, α 0.34, β 0.28), eq. 4 (optimum); C ≈ 6ND: Kaplan et al. 2020 §2.1");
}

QString ScalingCharts::approachDifference()
{
    return tr("Why they differ: approach 1 fits power laws to the lowest loss each budget reached in training "
              "(Table 2: N<sub>opt</sub> ∝ C<sup>0.50</sup>, D<sub>opt</sub> ∝ C<sup>0.50</sup>); approach 3 fits "
              "L(N, D) to every run, and its optimum grows more slowly in N (Table 2: C<sup>0.46</sup> and "
              "C<sup>0.54</sup>; the rounded constants printed in the paper give 0.45 and 0.55). The gap between "
              "the exponents compounds with the budget, and the runs behind both fits stop at 16 B parameters, so "
              "at Gopher's budget the two answers are about a factor of two apart.");
}

QString ScalingCharts::gopherComparison()
{
    const ComputeOptimum gopher = scaling::computeOptimum(scaling::kGopherFlops);
    const std::optional<scaling::Table3Row> row = scaling::table3RowForFlops(scaling::kGopherFlops);
    return tr("Gopher's budget, %1: eq. 4 gives %2 parameters on %3 tokens; Table 3 (approach 1) gives %4 on %5.")
        .arg(flops(scaling::kGopherFlops), format::count(gopher.params), format::count(gopher.tokens),
             format::count(row ? row->params : 0), format::count(row ? row->tokens : 0));
}

QVector<double> ScalingCharts::isoFlopBudgets(double scenario_compute)
{
    QVector<double> budgets;
    for (double decade : {1e19, 1e21, 1e23, 1e25})
        if (!(decade > scenario_compute / 3 && decade < scenario_compute * 3))
            budgets << decade;
    budgets << scenario_compute;
    std::sort(budgets.begin(), budgets.end());
    return budgets;
}

ChartData ScalingCharts::isoFlop(const scaling::ScenarioScaling &scaling)
{
    ChartData chart;
    chart.title = tr("Iso-FLOP curves: loss against model size at fixed training compute");
    chart.x_label = tr("Parameters N (log scale)");
    chart.x_unit = QStringLiteral("parameters");
    chart.y_label = tr("Loss L(N, C/6N) (nats per token)");
    chart.y_unit = QStringLiteral("nats");
    chart.log_x = true;

    ChartSeries optima;
    optima.name = tr("Compute-optimal (eq. 4)");
    optima.kind = ChartSeries::Kind::Marker;
    ChartSeries rule;
    rule.name = tr("20 tokens per parameter");
    rule.kind = ChartSeries::Kind::Marker;
    rule.marker_size = 7;
    for (double compute : isoFlopBudgets(scaling.compute)) {
        const ComputeOptimum optimum = scaling::computeOptimum(compute);
        const bool current = compute == scaling.compute;
        ChartSeries curve;
        curve.name = current ? tr("%1 (scenario)").arg(budgetName(compute)) : budgetName(compute);
        const std::vector<LossPoint> points =
            scaling::isoFlopCurve(compute, optimum.params / kCurveSpan, optimum.params * kCurveSpan, kCurvePoints);
        for (const LossPoint &point : points) {
            curve.x << point.params;
            curve.y << point.loss;
        }
        curve.point_tooltip = [compute, points](qsizetype i) {
            const LossPoint &point = points.at(std::size_t(i));
            return tr("C = %1: N = %2, D = %3 (%4 tokens/parameter), L = %5")
                .arg(flops(compute), format::count(point.params), format::count(point.tokens),
                     format::decimal(point.tokens / point.params, 1), format::decimal(point.loss, 4));
        };
        chart.series << curve;
        optima.x << optimum.params;
        optima.y << optimum.loss;
        optima.point_labels << format::count(optimum.params);
        optima.point_tooltips << format::tooltip(
            tr("Compute-optimal at C = %1").arg(flops(compute)),
            tr("N<sub>opt</sub> = %1 parameters, D<sub>opt</sub> = %2 tokens (%3 tokens/parameter)")
                .arg(format::count(optimum.params), format::count(optimum.tokens),
                     format::decimal(optimum.tokensPerParam(), 1)),
            lawFormula(), lawSource(), tr("L = %1").arg(format::decimal(optimum.loss, 4)));
        const ComputeOptimum twenty = scaling::splitAtTokensPerParam(compute, scaling::kChinchillaTokensPerParameter);
        rule.x << twenty.params;
        rule.y << twenty.loss;
        rule.point_tooltips << tr("20 tokens/parameter at C = %1: N = %2, D = %3, L = %4 (+%5 above the optimum)")
                                   .arg(flops(compute), format::count(twenty.params), format::count(twenty.tokens),
                                        format::decimal(twenty.loss, 4),
                                        format::decimal(twenty.loss - optimum.loss, 4));
    }
    chart.series << optima << rule;

    ChartSeries scenario;
    scenario.name = tr("Scenario");
    scenario.kind = ChartSeries::Kind::Marker;
    scenario.marker_size = 12;
    scenario.x << scaling.params;
    scenario.y << scaling.loss;
    scenario.point_labels << tr("scenario");
    scenario.point_tooltips << tr("Scenario: N = %1 (engine count), D = %2 (%3 tokens/parameter), C = %4, L = %5")
                                   .arg(format::count(scaling.params), format::count(scaling.tokens),
                                        format::decimal(scaling.tokens / scaling.params, 1), flops(scaling.compute),
                                        format::decimal(scaling.loss, 4));
    chart.series << scenario;

    chart.formula.inputs = tr("Scenario: N = %1, D = %2, C = 6ND = %3; its optimum N = %4, D = %5")
                               .arg(format::count(scaling.params), format::count(scaling.tokens), flops(scaling.compute),
                                    format::count(scaling.optimum.params), format::count(scaling.optimum.tokens));
    chart.formula.formula = lawFormula() + QStringLiteral("<br>") + gopherComparison() + QStringLiteral(" ")
        + approachDifference();
    chart.formula.source = lawSource() + tr("; Table 2 and Table 3 (approach 1)");
    return chart;
}

ChartData ScalingCharts::lossContours(const scaling::ScenarioScaling &scaling, const QPalette &palette)
{
    ChartData chart;
    chart.title = tr("Loss surface L(N, D): iso-loss contours, iso-FLOP lines and the compute-optimal frontier");
    chart.x_label = tr("Parameters N (log scale)");
    chart.x_unit = QStringLiteral("parameters");
    chart.y_label = tr("Training tokens D (log scale)");
    chart.y_unit = QStringLiteral("tokens");
    chart.log_x = true;
    chart.log_y = true;

    const ComputeOptimum &optimum = scaling.optimum;
    const double min_params = std::min(optimum.params / kSurfaceSpan, scaling.params / 10);
    const double max_params = std::max(optimum.params * kSurfaceSpan, scaling.params * 10);
    const double min_tokens = std::min(optimum.tokens / kSurfaceSpan, scaling.tokens / 10);
    const double max_tokens = std::max(optimum.tokens * kSurfaceSpan, scaling.tokens * 10);

    // Levels evenly spaced between the loss at the box's best corner and its middle, plus the
    // optimum's own level (tangent to the scenario's iso-FLOP line there).
    const double lowest = scaling::loss(max_params, max_tokens);
    const double highest = scaling::loss(std::sqrt(min_params * max_params), std::sqrt(min_tokens * max_tokens)) + 0.5;
    const QColor contour = blendColors(palette.color(QPalette::Text), palette.color(QPalette::Base), 0.55);
    QVector<double> levels;
    for (int i = 1; i <= kContourLevels; ++i)
        levels << std::round((lowest + (highest - lowest) * i / (kContourLevels + 1)) * 100) / 100;
    levels << optimum.loss;
    for (double level : levels) {
        const bool optimum_level = level == optimum.loss;
        ChartSeries line;
        line.name = optimum_level ? tr("L = %1 (the optimum's loss)").arg(format::decimal(level, 3))
                                  : tr("L = %1").arg(format::decimal(level, 2));
        line.color = optimum_level ? chartSeriesColor(1, palette) : contour;
        line.dashed = !optimum_level;
        const std::vector<LossPoint> points =
            scaling::isoLossContour(level, min_params, max_params, min_tokens, max_tokens, kCurvePoints * 2);
        for (const LossPoint &point : points) {
            line.x << point.params;
            line.y << point.tokens;
        }
        line.point_tooltip = [level, points](qsizetype i) {
            const LossPoint &point = points.at(std::size_t(i));
            return tr("L(N, D) = %1 at N = %2, D = %3 (C = %4)")
                .arg(format::decimal(level, 4), format::count(point.params), format::count(point.tokens),
                     flops(scaling::trainingFlops(point.params, point.tokens)));
        };
        if (points.empty())
            continue;
        chart.texts << ChartText{points.back().params, points.back().tokens, format::decimal(level, 2), line.color,
                                 Qt::AlignLeft | Qt::AlignVCenter, false, true};
        chart.series << line;
    }

    // The iso-FLOP line D = C / 6N of the scenario's budget (the other budgets are on the
    // iso-FLOP chart; more lines here would crowd the legend).
    {
        const double compute = scaling.compute;
        ChartSeries line;
        line.name = tr("Iso-FLOP line of the scenario's C = %1").arg(plainFlops(compute));
        line.color = chartSeriesColor(2, palette);
        for (double params : scaling::logSpaced(min_params, max_params, kCurvePoints)) {
            const double tokens = compute / (scaling::kTrainingFlopsPerParameterToken * params);
            if (tokens < min_tokens || tokens > max_tokens)
                continue;
            line.x << params;
            line.y << tokens;
        }
        line.point_tooltip = [compute, x = line.x, y = line.y](qsizetype i) {
            return tr("C = %1: N = %2, D = %3, L = %4")
                .arg(flops(compute), format::count(x.at(i)), format::count(y.at(i)),
                     format::decimal(scaling::loss(x.at(i), y.at(i)), 4));
        };
        chart.series << line;
    }

    ChartSeries frontier;
    frontier.name = tr("Compute-optimal frontier (eq. 4)");
    frontier.color = chartSeriesColor(0, palette);
    const double min_compute = scaling::trainingFlops(min_params, min_tokens);
    const double max_compute = scaling::trainingFlops(max_params, max_tokens);
    std::vector<ComputeOptimum> frontier_points;
    for (const ComputeOptimum &point : scaling::computeOptimalFrontier(min_compute, max_compute, kCurvePoints)) {
        if (point.params < min_params || point.params > max_params || point.tokens < min_tokens
            || point.tokens > max_tokens)
            continue;
        frontier.x << point.params;
        frontier.y << point.tokens;
        frontier_points.push_back(point);
    }
    frontier.point_tooltip = [frontier_points](qsizetype i) {
        const ComputeOptimum &point = frontier_points.at(std::size_t(i));
        return tr("Optimum at C = %1: N = %2, D = %3 (%4 tokens/parameter), L = %5")
            .arg(flops(point.compute), format::count(point.params), format::count(point.tokens),
                 format::decimal(point.tokensPerParam(), 1), format::decimal(point.loss, 4));
    };
    chart.series << frontier;

    ChartSeries rule;
    rule.name = tr("D = 20·N (approaches 1/2)");
    rule.color = chartSeriesColor(4, palette);
    rule.dashed = true;
    for (double params : scaling::logSpaced(min_params, max_params, kCurvePoints)) {
        const double tokens = scaling::kChinchillaTokensPerParameter * params;
        if (tokens < min_tokens || tokens > max_tokens)
            continue;
        rule.x << params;
        rule.y << tokens;
    }
    rule.point_tooltip = [x = rule.x, y = rule.y](qsizetype i) {
        return tr("20 tokens/parameter: N = %1, D = %2, L = %3")
            .arg(format::count(x.at(i)), format::count(y.at(i)), format::decimal(scaling::loss(x.at(i), y.at(i)), 4));
    };
    chart.series << rule;

    ChartSeries best;
    best.name = tr("Optimum for the scenario's C");
    best.kind = ChartSeries::Kind::Marker;
    best.color = chartSeriesColor(0, palette);
    best.x << optimum.params;
    best.y << optimum.tokens;
    best.point_labels << tr("optimum");
    best.point_tooltips << tr("Optimum for C = %1: N = %2, D = %3, L = %4")
                               .arg(flops(optimum.compute), format::count(optimum.params),
                                    format::count(optimum.tokens), format::decimal(optimum.loss, 4));
    chart.series << best;

    ChartSeries scenario;
    scenario.name = tr("Scenario");
    scenario.kind = ChartSeries::Kind::Marker;
    scenario.color = chartSeriesColor(5, palette);
    scenario.marker_size = 12;
    scenario.x << scaling.params;
    scenario.y << scaling.tokens;
    scenario.point_labels << tr("scenario");
    scenario.point_tooltips << tr("Scenario: N = %1, D = %2, C = %3, L = %4")
                                   .arg(format::count(scaling.params), format::count(scaling.tokens),
                                        flops(scaling.compute), format::decimal(scaling.loss, 4));
    chart.series << scenario;

    chart.formula.inputs = tr("Contours: D(N) = (B / (L − E − A/N<sup>α</sup>))<sup>1/β</sup> for each level L; "
                              "iso-FLOP lines D = C / 6N");
    chart.formula.formula = lawFormula();
    chart.formula.source = lawSource();
    return chart;
}

ChartData ScalingCharts::overTraining(const scaling::ScenarioScaling &scaling)
{
    ChartData chart;
    chart.title = tr("Over-training at the scenario's compute: loss paid against inference saved");
    chart.x_label = tr("Training tokens per parameter (log scale)");
    chart.x_unit = QStringLiteral("tokens/parameter");
    chart.y_label = tr("Percent of the compute-optimal model's figure");
    chart.y_unit = QStringLiteral("%");
    chart.log_x = true;

    const double optimum_ratio = scaling.optimum.tokensPerParam();
    const double scenario_ratio = scaling.tokens / scaling.params;
    // From the optimum to Llama-style over-training (Llama 3 8B: 15T tokens, ≈1,900 per parameter)
    // and beyond, with the scenario's own ratio on the curve.
    std::vector<double> ratios = scaling::logSpaced(std::min(optimum_ratio, scenario_ratio),
                                                    std::max(kMaxTokensPerParam, 2 * scenario_ratio), kCurvePoints / 2);
    ratios.push_back(scenario_ratio);
    std::sort(ratios.begin(), ratios.end());
    ratios.erase(std::unique(ratios.begin(), ratios.end()), ratios.end());

    ChartSeries penalty;
    penalty.name = tr("Loss above the optimum (%)");
    ChartSeries saved;
    saved.name = tr("Inference FLOPs saved per generated token (%)");
    for (const scaling::OverTrainingPoint &point : scaling::overTraining(scaling.compute, ratios)) {
        const QString inputs = tr("%1 tokens/parameter at C = %2: N = %3 on D = %4")
                                   .arg(format::decimal(point.tokens_per_param, 1), flops(scaling.compute),
                                        format::count(point.params), format::count(point.tokens));
        penalty.x << point.tokens_per_param;
        penalty.y << 100 * point.loss_penalty_fraction;
        penalty.point_tooltips << format::tooltip(
            tr("Loss penalty"), inputs, tr("L(N, D) − L(N<sub>opt</sub>, D<sub>opt</sub>)"), lawSource(),
            tr("L = %1, %2 above the optimum's %3 (%4)")
                .arg(format::decimal(point.loss, 4), format::decimal(point.loss_penalty, 4),
                     format::decimal(scaling.optimum.loss, 4), format::percent(point.loss_penalty_fraction, 2)));
        saved.x << point.tokens_per_param;
        saved.y << 100 * point.inference_saved_fraction;
        saved.point_tooltips << format::tooltip(
            tr("Inference saving"), inputs, tr("2·N FLOPs per generated token; saved = 2·(N<sub>opt</sub> − N)"),
            tr("Kaplan et al. 2020, §2.1 (forward pass 2N)"),
            tr("%1 per token instead of %2: %3 saved (%4)")
                .arg(format::si(point.inference_flops_per_token, tr("FLOP")),
                     format::si(2 * scaling.optimum.params, tr("FLOP")),
                     format::si(point.inference_flops_saved_per_token, tr("FLOP")),
                     format::percent(point.inference_saved_fraction)));
    }
    chart.series << penalty << saved;

    const scaling::OverTrainingPoint at_scenario = scaling::overTrainingAt(scaling.compute, scenario_ratio);
    ChartSeries scenario;
    scenario.name = tr("Scenario");
    scenario.kind = ChartSeries::Kind::Marker;
    scenario.marker_size = 12;
    scenario.x << scenario_ratio << scenario_ratio;
    scenario.y << 100 * at_scenario.loss_penalty_fraction << 100 * at_scenario.inference_saved_fraction;
    scenario.point_labels << tr("scenario") << QString();
    const QString scenario_tip = tr("Scenario: %1 tokens/parameter; loss +%2, inference FLOPs per token %3 of the "
                                    "optimum's")
                                     .arg(format::decimal(scenario_ratio, 1),
                                          format::percent(at_scenario.loss_penalty_fraction, 2),
                                          format::percent(1 - at_scenario.inference_saved_fraction));
    scenario.point_tooltips << scenario_tip << scenario_tip;
    chart.series << scenario;

    chart.formula.inputs = tr("C = %1 fixed; N = √(C / 6r), D = r·N for r tokens per parameter; optimum at r = %2")
                               .arg(flops(scaling.compute), format::decimal(optimum_ratio, 1));
    chart.formula.formula = tr("loss penalty = L(N, D)/L(N<sub>opt</sub>, D<sub>opt</sub>) − 1; inference saved = "
                               "1 − N/N<sub>opt</sub> (2·N FLOPs per generated token)");
    chart.formula.source = lawSource();
    return chart;
}

}  // namespace lse::gui
