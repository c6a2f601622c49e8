// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "hardware/efficiency_factors.h"

#include <QCoreApplication>
#include <QString>

namespace lse::gui {

// How sure a predicted step time, MFU or training time is (issue 29 §2), formatted the same way on
// every page: "4.36 s (± 6%)" with the interval and its basis in the tooltip. The band p and the
// interval come from core (performance::StepPrediction, PredictedStepFigures,
// PredictionAccuracy::bandFraction); nothing is computed here.
class PredictionBandText {
    Q_DECLARE_TR_FUNCTIONS(PredictionBandText)
public:
    // " (± 6%)" for a band p > 0; " (error unknown)" without one.
    static QString suffix(double band_fraction);
    // `value` + suffix(band_fraction): "4.36 s (± 6%)".
    static QString withBand(const QString &value, double band_fraction);
    // `value` and, without a band, the accelerator's basis sentence instead of the band:
    // "4.36 s (± 6%)" or "4.36 s (no published runs: A100 factors, error unknown)".
    static QString withBandOrBasis(const QString &value, double band_fraction, const PredictionAccuracy &accuracy);
    // The tooltip paragraph (HTML): the interval [low, high] (already formatted), the formula of
    // the band and the accelerator's basis sentence.
    static QString toolTip(const QString &low, const QString &high, double band_fraction,
                           const PredictionAccuracy &accuracy);
    // The basis alone (HTML-escaped): held-out figures for a band, the catalog's sentence otherwise.
    static QString basis(const PredictionAccuracy &accuracy);
    // How the band is derived, one sentence (HTML): p = the leave-one-source-out 90th percentile,
    // interval [t/(1+p), t/(1−p)].
    static QString formula();
};

}  // namespace lse::gui
