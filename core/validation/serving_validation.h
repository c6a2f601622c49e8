// SPDX-License-Identifier: GPL-3.0-or-later
// The serving model (core/inference) against published inference measurements:
// resources/validation/published_inference.json, a verbatim copy of the course's
// reference/published-inference-calibration.json (76 rows: TensorRT-LLM performance.md static-batch
// throughput per GPU and batch-1 first-token latency, two TensorRT-LLM blog posts, kipply's 13B
// FasterTransformer prefill/decode latencies, the TensorRT-LLM figures quoted in LLM-Viewer issue
// #4). Each printed figure is one comparison; the serving factors are fitted per accelerator and
// precision on them, and leave-one-source-out refits without a source to predict it.
#pragma once

#include "common/problem.h"
#include "inference/serving_model.h"

#include <QByteArray>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace lse {

struct ServingCalibrationRow {
    std::string id;
    std::string source;       // the row's "source": leave-one-source-out groups by it
    std::string accelerator;  // catalog id
    std::string precision;    // serving factor key: "fp16" or "fp8"
    std::string model;        // the row's model name
    std::string assumption;   // what the row did not print and the model assumes ("" if nothing)
    inference::ServingInputs inputs;
    struct Metric {
        std::string name;  // the file's metric key, e.g. "first_token_latency_ms"
        double published = 0;
    };
    std::vector<Metric> metrics;  // compared
    std::vector<std::string> skipped;  // printed but not compared, each with the reason
};

Result<std::vector<ServingCalibrationRow>> parseServingCalibration(const QByteArray &json);
// The compiled-in ":/validation/published_inference.json".
Result<std::vector<ServingCalibrationRow>> builtinServingCalibration();

// The prediction of one printed figure in the file's unit (ms or tokens/s).
double predictedMetric(const inference::ServingReport &report, const ServingCalibrationRow &row,
                       const std::string &metric);

struct ServingComparison {
    std::string row_id;
    std::string source;
    std::string accelerator;
    std::string precision;
    std::string model;
    std::string metric;
    double published = 0;
    double predicted = 0;
    double error() const { return (predicted - published) / published; }  // signed, relative
};

struct ServingErrorSummary {
    std::string key;  // accelerator + "/" + precision, or a source
    int comparisons = 0;
    double mean_abs_error = 0;
    double worst_abs_error = 0;
    std::string worst_row;
};
ServingErrorSummary summarise(const std::vector<ServingComparison> &comparisons, const std::string &key = "all");

// Rows with their prepared work (the operators, computed once; factors change only the times).
struct PreparedCalibration {
    std::vector<ServingCalibrationRow> rows;
    std::vector<std::shared_ptr<const inference::ServingWork>> work;
};
Result<PreparedCalibration> prepareCalibration(std::vector<ServingCalibrationRow> rows);

using FactorLookup = std::function<inference::ServingFactors(const std::string &accelerator, const std::string &precision)>;
// Every comparison of the rows (all, or those whose source is / is not `source`) with the factors
// `lookup` gives per accelerator and precision.
std::vector<ServingComparison> compareServing(const PreparedCalibration &calibration, const FactorLookup &lookup);

// The accelerator whose fit a row's accelerator joins: its own when it has at least
// kOwnFitComparisons comparisons, else its catalog fallback's (the same chip: A100 40 GB → 80 GB,
// H200 → H100), whose rows it is fitted with.
inline constexpr int kOwnFitComparisons = 8;

struct ServingFit {
    std::vector<inference::ServingFactors> factors;  // one per fit group (accelerator, precision)
    // accelerator → the accelerator whose fit it uses (pooled groups)
    std::vector<std::pair<std::string, std::string>> pooled;
    FactorLookup lookup() const;  // fitted factors, pooled ones through their group, else catalog defaults
};
// Fits compute_fraction, bandwidth_fraction, kernel_launch_seconds and host_step_seconds per group
// to minimise the mean |relative error| of its comparisons (Nelder–Mead in a box,
// performance/nelder_mead.h), leaving out every row of `exclude_source` when given.
ServingFit fitServingFactors(const PreparedCalibration &calibration, const std::string &exclude_source = {});

struct HeldOutSource {
    std::string source;
    std::vector<ServingComparison> comparisons;  // predicted with factors fitted without the source
    ServingErrorSummary summary;
};
struct ServingValidation {
    std::vector<ServingComparison> comparisons;  // with the catalog's factors
    ServingErrorSummary overall;
    std::vector<ServingErrorSummary> per_accelerator;
    std::vector<HeldOutSource> held_out;  // empty unless asked for
    ServingErrorSummary held_out_overall;
    bool held_out_cancelled = false;      // the progress callback stopped the held-out fits
};
// Called before each source's held-out fit and once at the end (done == total); returning false
// stops before the next fit (the GUI's Cancel). A fit takes about a second.
using HeldOutProgress = std::function<bool(int done_sources, int total_sources)>;
// The catalog's factors on every row; with `leave_one_source_out`, each source predicted by factors
// fitted without it (groups with no rows left use their fallback's fit, else the defaults).
// A cancelled run fails with the rule "cancelled".
Result<ServingValidation> validateServing(bool leave_one_source_out, const HeldOutProgress &progress = {});
ServingValidation validateServing(const PreparedCalibration &calibration, const FactorLookup &lookup,
                                  bool leave_one_source_out, const HeldOutProgress &progress = {});

}  // namespace lse
