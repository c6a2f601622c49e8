// SPDX-License-Identifier: GPL-3.0-or-later
// How close served kernels come to an accelerator's datasheet, per accelerator and precision:
// catalog data (resources/hardware/serving_efficiency.json) with the fit that produced each value,
// as the training factors are (hardware/efficiency_factors.h). Four physical numbers:
//  - compute_fraction: achieved fraction of the dense peak of a compute-bound operator (the prefill
//    GEMMs and attention);
//  - bandwidth_fraction: achieved fraction of the HBM bandwidth of a memory-bound operator (decode:
//    weights and KV cache streamed once per step);
//  - kernel_launch_seconds: fixed cost of one kernel (launch, prologue, tail) on the critical path;
//  - host_step_seconds: fixed host cost of one forward step (scheduling, sampling, the batch's
//    bookkeeping) that no kernel hides.
#pragma once

#include "common/problem.h"
#include "inference/serving_format.h"

#include <QByteArray>

#include <string>
#include <vector>

namespace lse::inference {

struct ServingFactors {
    double compute_fraction = 0.6;
    double bandwidth_fraction = 0.8;
    double kernel_launch_seconds = 4e-6;
    double host_step_seconds = 0;
    // Where the numbers come from (the fit and its data), shown beside every prediction.
    std::string source;
    bool calibrated = false;  // fitted on published measurements of this accelerator and precision
    std::string accelerator;  // the catalog entry whose fit this is ("" for the defaults)
    std::string precision;    // "fp16" (also bf16), "fp8" or "int8"

    bool operator==(const ServingFactors &) const = default;
};

// The precision key a compute format is fitted under: the 16-bit formats share one.
std::string precisionKey(ComputeFormat format);

struct ServingFactorCatalog {
    ServingFactors defaults;  // an accelerator and precision without a fit
    std::vector<ServingFactors> fitted;
    // accelerator id → the accelerator whose factors it borrows (same chip), with the reason
    struct Fallback {
        std::string accelerator;
        std::string factors_from;
        std::string why;
    };
    std::vector<Fallback> fallbacks;
    std::string fit_command;  // the command that wrote the fitted values

    // The accelerator's own fit, else its fallback's for the same precision, else the defaults
    // (with a source that says so).
    ServingFactors lookUp(const std::string &accelerator, const std::string &precision) const;
};

Problems validateServingFactors(const ServingFactors &factors, const std::string &field);
Result<ServingFactorCatalog> parseServingFactorCatalog(const QByteArray &json);
// The compiled-in ":/hardware/serving_efficiency.json", parsed once (a broken built-in file aborts
// with a message; test_inference reads it first).
const ServingFactorCatalog &builtinServingFactors();

}  // namespace lse::inference
