// SPDX-License-Identifier: GPL-3.0-or-later
#include "validate_serving.h"

#include "commands.h"
#include "output.h"

#include "validation/serving_validation.h"

#include <QJsonArray>
#include <QJsonObject>

#include <cmath>

namespace lse::cli {

namespace {

QString qstr(const std::string &text) { return QString::fromStdString(text); }
QString percent(double fraction) { return QString::number(100.0 * fraction, 'f', 1) + QStringLiteral(" %"); }

QJsonObject summaryJson(const ServingErrorSummary &summary)
{
    return QJsonObject{{"key", qstr(summary.key)},
                       {"comparisons", summary.comparisons},
                       {"mean_absolute_error", summary.mean_abs_error},
                       {"worst_absolute_error", summary.worst_abs_error},
                       {"worst", qstr(summary.worst_row)}};
}

QJsonObject comparisonJson(const ServingComparison &comparison)
{
    return QJsonObject{{"id", qstr(comparison.row_id)},
                       {"source", qstr(comparison.source)},
                       {"accelerator", qstr(comparison.accelerator)},
                       {"precision", qstr(comparison.precision)},
                       {"model", qstr(comparison.model)},
                       {"metric", qstr(comparison.metric)},
                       {"published", comparison.published},
                       {"predicted", comparison.predicted},
                       {"error", comparison.error()}};
}

QJsonObject factorsJson(const inference::ServingFactors &factors)
{
    return QJsonObject{{"accelerator", qstr(factors.accelerator)},
                       {"precision", qstr(factors.precision)},
                       {"compute_fraction", factors.compute_fraction},
                       {"bandwidth_fraction", factors.bandwidth_fraction},
                       {"kernel_launch_seconds", factors.kernel_launch_seconds},
                       {"host_step_seconds", factors.host_step_seconds},
                       {"source", qstr(factors.source)}};
}

void printComparisons(const std::vector<ServingComparison> &comparisons)
{
    printOut(QStringLiteral("%1 %2 %3 %4 %5\n")
                 .arg(QStringLiteral("row (metric)"), -72)
                 .arg(QStringLiteral("published"), 11)
                 .arg(QStringLiteral("predicted"), 11)
                 .arg(QStringLiteral("error"), 8)
                 .arg(QStringLiteral("")));
    for (const ServingComparison &comparison : comparisons)
        printOut(QStringLiteral("%1 %2 %3 %4\n")
                     .arg(qstr(comparison.row_id + " (" + comparison.metric + ")"), -72)
                     .arg(comparison.published, 11, 'g', 5)
                     .arg(comparison.predicted, 11, 'g', 5)
                     .arg(QString::number(100 * comparison.error(), 'f', 1) + QStringLiteral("%"), 8));
}

QString summaryText(const ServingErrorSummary &summary)
{
    return QStringLiteral("%1 figures: mean |error| %2, worst %3 (%4)")
        .arg(summary.comparisons)
        .arg(percent(summary.mean_abs_error), percent(summary.worst_abs_error), qstr(summary.worst_row));
}

}  // namespace

int runValidateServing(const ValidateServingOptions &options)
{
    Result<std::vector<ServingCalibrationRow>> rows = builtinServingCalibration();
    if (!rows)
        return reportProblems(rows.problems());
    Result<PreparedCalibration> prepared = prepareCalibration(*rows);
    if (!prepared)
        return reportProblems(prepared.problems());
    const FactorLookup catalog = [](const std::string &accelerator, const std::string &precision) {
        return inference::builtinServingFactors().lookUp(accelerator, precision);
    };
    const ServingValidation validation = validateServing(*prepared, catalog, options.leave_one_source_out);
    std::optional<ServingFit> fit;
    std::optional<ServingErrorSummary> fitted_summary;
    if (options.fit) {
        fit = fitServingFactors(*prepared);
        fitted_summary = summarise(compareServing(*prepared, fit->lookup()), "fitted");
    }

    if (options.json) {
        QJsonArray comparisons;
        for (const ServingComparison &comparison : validation.comparisons)
            comparisons.append(comparisonJson(comparison));
        QJsonArray per_accelerator;
        for (const ServingErrorSummary &summary : validation.per_accelerator)
            per_accelerator.append(summaryJson(summary));
        QJsonObject object{{"comparisons", comparisons},
                           {"mean_absolute_error", validation.overall.mean_abs_error},
                           {"worst_absolute_error", validation.overall.worst_abs_error},
                           {"worst", qstr(validation.overall.worst_row)},
                           {"rows", int(prepared->rows.size())},
                           {"accelerators", per_accelerator}};
        if (options.leave_one_source_out) {
            QJsonArray sources;
            for (const HeldOutSource &held : validation.held_out) {
                QJsonObject source = summaryJson(held.summary);
                QJsonArray held_comparisons;
                for (const ServingComparison &comparison : held.comparisons)
                    held_comparisons.append(comparisonJson(comparison));
                source.insert("comparisons_detail", held_comparisons);
                sources.append(source);
            }
            object.insert("leave_one_source_out", QJsonObject{{"sources", sources},
                                                              {"mean_absolute_error", validation.held_out_overall.mean_abs_error},
                                                              {"worst_absolute_error", validation.held_out_overall.worst_abs_error},
                                                              {"worst", qstr(validation.held_out_overall.worst_row)}});
        }
        if (fit) {
            QJsonArray factors;
            for (const inference::ServingFactors &entry : fit->factors)
                factors.append(factorsJson(entry));
            QJsonArray pooled;
            for (const auto &[member, owner] : fit->pooled)
                pooled.append(QJsonObject{{"accelerator", qstr(member)}, {"factors_from", qstr(owner)}});
            object.insert("fit", QJsonObject{{"factors", factors},
                                             {"pooled", pooled},
                                             {"mean_absolute_error", fitted_summary->mean_abs_error},
                                             {"worst_absolute_error", fitted_summary->worst_abs_error}});
        }
        printJson(object);
        return kExitOk;
    }

    printOut(QStringLiteral("Serving model vs %1 published figures of %2 rows (resources/validation/published_inference.json), "
                            "catalog factors; error = (predicted - published) / published\n\n")
                 .arg(validation.comparisons.size())
                 .arg(prepared->rows.size()));
    printComparisons(validation.comparisons);
    printOut(QStringLiteral("\nper accelerator and precision:\n"));
    for (const ServingErrorSummary &summary : validation.per_accelerator)
        printOut(QStringLiteral("  %1 %2\n").arg(qstr(summary.key), -20).arg(summaryText(summary)));
    printOut(QStringLiteral("all: %1\n").arg(summaryText(validation.overall)));
    if (options.leave_one_source_out) {
        printOut(QStringLiteral("\nleave one source out (factors fitted without the source, predicting it):\n"));
        for (const HeldOutSource &held : validation.held_out)
            printOut(QStringLiteral("  %1\n    %2\n").arg(qstr(held.source), summaryText(held.summary)));
        printOut(QStringLiteral("all held out: %1\n").arg(summaryText(validation.held_out_overall)));
    }
    if (fit) {
        printOut(QStringLiteral("\nfitted on every row:\n"));
        for (const inference::ServingFactors &factors : fit->factors)
            printOut(QStringLiteral("  %1/%2: compute %3, bandwidth %4, kernel launch %5 us, host step %6 us\n")
                         .arg(qstr(factors.accelerator), qstr(factors.precision))
                         .arg(factors.compute_fraction, 0, 'f', 3)
                         .arg(factors.bandwidth_fraction, 0, 'f', 3)
                         .arg(factors.kernel_launch_seconds * 1e6, 0, 'f', 2)
                         .arg(factors.host_step_seconds * 1e6, 0, 'f', 1));
        printOut(QStringLiteral("with them: %1\n").arg(summaryText(*fitted_summary)));
    }
    return kExitOk;
}

}  // namespace lse::cli
