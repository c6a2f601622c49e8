// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/prediction_band_text.h"

#include "pages/page_format.h"

namespace lse::gui {

QString PredictionBandText::suffix(double band_fraction)
{
    if (band_fraction > 0)
        return tr(" (± %1)").arg(format::percent(band_fraction, 0));
    return tr(" (error unknown)");
}

QString PredictionBandText::withBand(const QString &value, double band_fraction)
{
    return value + suffix(band_fraction);
}

QString PredictionBandText::withBandOrBasis(const QString &value, double band_fraction, const PredictionAccuracy &accuracy)
{
    if (band_fraction > 0 || accuracy.basis.empty())
        return withBand(value, band_fraction);
    return tr("%1 (%2)").arg(value, format::fromStd(accuracy.basis));
}

QString PredictionBandText::formula()
{
    return tr("band p = the accelerator's leave-one-source-out 90th-percentile step-time error (each published run "
              "predicted with factors fitted without its source); a prediction t puts the actual value in "
              "[t/(1+p), t/(1−p)]");
}

QString PredictionBandText::basis(const PredictionAccuracy &accuracy)
{
    if (accuracy.hasBand())
        return tr("%n published run(s) from %1 sources: held-out mean |error| %2, worst %3, 90th percentile %4 (the "
                  "band); error on the runs the factors were fitted to %5",
                  nullptr, accuracy.published_runs)
            .arg(accuracy.sources)
            .arg(format::percent(accuracy.held_out_mean_error, 1), format::percent(accuracy.held_out_worst_error, 1),
                 format::percent(accuracy.held_out_p90_error, 1), format::percent(accuracy.fitted_mean_error, 1));
    if (accuracy.basis.empty())
        return tr("no published runs: error unknown");
    return format::fromStd(accuracy.basis).toHtmlEscaped();
}

QString PredictionBandText::toolTip(const QString &low, const QString &high, double band_fraction,
                                    const PredictionAccuracy &accuracy)
{
    QString text;
    if (band_fraction > 0)
        text = tr("<b>± %1</b>: the actual value likely lies between %2 and %3.").arg(format::percent(band_fraction, 1),
                                                                                    low, high);
    else
        text = tr("<b>Error unknown</b>: no error band for this accelerator.");
    text += QStringLiteral("<br>") + formula();
    text += QStringLiteral("<br>") + tr("Basis: %1").arg(basis(accuracy));
    return text;
}

}  // namespace lse::gui
