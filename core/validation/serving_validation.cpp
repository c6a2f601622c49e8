// SPDX-License-Identifier: GPL-3.0-or-later
#include "validation/serving_validation.h"

#include "hardware/hardware_catalog.h"
#include "performance/nelder_mead.h"
#include "scenario/scenario_json.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace lse {

using inference::ServingFactors;
using inference::ServingFormat;

namespace {

bool contains(const std::string &text, const char *needle) { return text.find(needle) != std::string::npos; }

// The catalog id of a row's "hardware.device" as printed.
std::string acceleratorOf(const std::string &device)
{
    if (contains(device, "A100-40GB"))
        return "a100-sxm-40gb";
    if (contains(device, "A100"))
        return "a100-sxm-80gb";
    if (contains(device, "H200"))
        return "h200-sxm";
    if (contains(device, "H100"))
        return "h100-sxm";
    if (contains(device, "L40S"))
        return "l40s";
    return {};
}

// The architecture the row's notes name (the shapes are the row's own): GPT-J and Falcon run
// attention and MLP in parallel with GeLU and LayerNorm (Wang & Komatsuzaki 2021; Almazrouei et al.
// 2023); Llama 2 is pre-RMSNorm with SwiGLU (Touvron et al. 2023); kipply's 13B is OPT/GPT-like
// (LayerNorm, GeLU 4h MLP, learned positions, biases, tied embeddings; Zhang et al. 2022).
ModelConfig modelOf(const QJsonObject &object, std::int64_t tokens)
{
    ModelConfig model;
    model.name = object.value("name").toString().toStdString();
    model.n_layers = object.value("n_layers").toInt();
    model.d_model = object.value("d_model").toInteger();
    model.n_heads = object.value("n_heads").toInt();
    model.n_kv_heads = object.value("n_kv_heads").toInt();
    model.head_dim = object.value("head_dim").toInt();
    model.d_ff = object.value("d_ff").toInteger();
    model.vocab_size = object.value("vocab").toInteger();
    model.max_seq_len = std::max<std::int64_t>(4096, tokens);
    if (contains(model.name, "GPT-J")) {
        model.norm = NormType::LayerNorm;
        model.activation = Activation::GeLU;
        model.parallel_block = true;
        model.biases.mlp = true;
        model.biases.lm_head = true;
    } else if (contains(model.name, "Falcon")) {
        model.norm = NormType::LayerNorm;
        model.activation = Activation::GeLU;
        model.parallel_block = true;
        model.tied_embeddings = true;
    } else if (contains(model.name, "13B GPT-style")) {
        model.norm = NormType::LayerNorm;
        model.activation = Activation::GeLU;
        model.positional_encoding = PositionalEncoding::Learned;
        model.biases = {true, true, true, false};
        model.tied_embeddings = true;
    }
    return model;
}

ServingFormat formatOfBits(int bits, bool fp8_hardware)
{
    if (bits == 8)
        return fp8_hardware ? ServingFormat::FP8 : ServingFormat::INT8;
    if (bits == 4)
        return ServingFormat::INT4;
    return ServingFormat::FP16;
}

double number(const QJsonValue &value) { return value.isDouble() ? value.toDouble() : std::nan(""); }

}  // namespace

Result<std::vector<ServingCalibrationRow>> parseServingCalibration(const QByteArray &json)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return Result<std::vector<ServingCalibrationRow>>::failure("file", "json",
                                                                   "the inference calibration file is not a JSON object");
    const QJsonArray rows = document.object().value("rows").toArray();
    Problems problems;
    std::vector<ServingCalibrationRow> result;
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const QJsonObject object = rows.at(i).toObject();
        const std::string field = "rows[" + std::to_string(i) + "]";
        ServingCalibrationRow row;
        row.id = object.value("id").toString().toStdString();
        row.source = object.value("source").toString().toStdString();
        row.accelerator = acceleratorOf(object.value("hardware").toObject().value("device").toString().toStdString());
        const Accelerator *gpu = builtinHardwareCatalog().find(row.accelerator);
        if (!gpu) {
            problems.push_back({field + ".hardware.device", "catalog",
                                field + " (" + row.id + "): no catalog accelerator for '"
                                    + object.value("hardware").toObject().value("device").toString().toStdString() + "'"});
            continue;
        }
        const std::int64_t input_len = object.value("input_len").toInteger();
        const bool output_printed = object.value("output_len").isDouble();
        // The blog's batch-1 rows print no output length ('-'): its batch-64 rows' 128 is assumed.
        const std::int64_t output_len = output_printed ? object.value("output_len").toInteger() : 128;
        if (!output_printed)
            row.assumption = "output length not printed: 128 assumed (the same post's batch-64 rows)";

        Scenario scenario = defaultScenario();
        scenario.model = modelOf(object.value("model").toObject(), input_len + output_len);
        row.model = scenario.model.name;
        scenario.cluster.accelerator = *gpu;
        scenario.cluster.gpus = object.value("hardware").toObject().value("count").toInt(1);
        scenario.cluster.gpus_per_node = 8;
        inference::ServingInputs inputs;
        inputs.scenario = scenario;
        inputs.tp = object.value("tp").toInt(1);
        inputs.pp = object.value("pp").toInt(1);
        inputs.replicas = std::max(1, scenario.cluster.gpus / std::max(1, inputs.tp * inputs.pp));
        inputs.batch = object.value("batch").toInteger(1);
        inputs.prompt_tokens = input_len;
        inputs.output_tokens = output_len;
        const bool fp8_hardware = gpu->dense_peak.forDType(DType::FP8) > 0;
        const QJsonObject precision = object.value("precision").toObject();
        inputs.weights = formatOfBits(precision.value("weights_bits").toInt(16), fp8_hardware);
        inputs.activations = formatOfBits(precision.value("activations_bits").toInt(16), fp8_hardware);
        if (precision.value("kv_cache_bits").isDouble()) {
            inputs.kv_cache = formatOfBits(precision.value("kv_cache_bits").toInt(), fp8_hardware);
        } else {
            inputs.kv_cache = inputs.activations;
            row.assumption += std::string(row.assumption.empty() ? "" : "; ")
                + "KV-cache format not printed: the activations' assumed";
        }
        inputs.flash_attention = true;  // context FMHA / FasterTransformer's fused attention
        // FasterTransformer and TensorRT-LLM up to v0.6 decode with the masked multi-head attention
        // kernel, one thread block per (query head, sequence), each loading its KV head's cache: the
        // XQA kernel that loads a group's cache once came to MQA/GQA generation later (TensorRT-LLM
        // v0.7 release notes; Hopper XQA for Llama 2 70B in v0.10).
        inputs.kv_cache_read_per_query_head = true;
        row.inputs = inputs;
        row.precision = inference::precisionKey(inference::computeFormat(inputs.weights, inputs.activations));

        const QJsonObject metrics = object.value("metrics").toObject();
        for (auto it = metrics.begin(); it != metrics.end(); ++it) {
            const std::string name = it.key().toStdString();
            const double value = number(it.value());
            if (name == "end_to_end_latency_ms") {
                row.skipped.push_back(name + ": the sum of the printed prefill and 10 decode steps (row notes), "
                                             "compared through its parts");
                continue;
            }
            if (!(value > 0)) {
                problems.push_back({field + ".metrics." + name, "positive", field + ": " + name + " must be a positive number"});
                continue;
            }
            row.metrics.push_back({name, value});
        }
        result.push_back(std::move(row));
    }
    if (!problems.empty())
        return problems;
    return result;
}

Result<std::vector<ServingCalibrationRow>> builtinServingCalibration()
{
    QFile file(QStringLiteral(":/validation/published_inference.json"));
    if (!file.open(QIODevice::ReadOnly))
        return Result<std::vector<ServingCalibrationRow>>::failure("file", "missing",
                                                                   "the built-in inference calibration file is missing");
    return parseServingCalibration(file.readAll());
}

double predictedMetric(const inference::ServingReport &report, const ServingCalibrationRow &row, const std::string &metric)
{
    if (metric == "prefill_latency_ms" || metric == "first_token_latency_ms")
        return report.ttft_seconds * 1e3;
    if (metric == "per_token_decode_latency_ms")
        return report.tpot_seconds * 1e3;
    if (metric == "end_to_end_latency_ms")
        return report.end_to_end_seconds * 1e3;
    if (metric == "throughput_output_tokens_per_s_per_gpu")
        return report.output_tokens_per_second_per_gpu;
    if (metric == "throughput_output_tokens_per_s") {
        // A batch-1 row without an output length prints the single-stream decode rate.
        if (!row.assumption.empty() && row.inputs.batch == 1)
            return 1.0 / report.tpot_seconds;
        return report.output_tokens_per_second;
    }
    return std::nan("");
}

ServingErrorSummary summarise(const std::vector<ServingComparison> &comparisons, const std::string &key)
{
    ServingErrorSummary summary;
    summary.key = key;
    double sum = 0;
    for (const ServingComparison &comparison : comparisons) {
        const double error = std::fabs(comparison.error());
        sum += error;
        ++summary.comparisons;
        if (error > summary.worst_abs_error) {
            summary.worst_abs_error = error;
            summary.worst_row = comparison.row_id + " (" + comparison.metric + ")";
        }
    }
    summary.mean_abs_error = summary.comparisons > 0 ? sum / summary.comparisons : 0;
    return summary;
}

Result<PreparedCalibration> prepareCalibration(std::vector<ServingCalibrationRow> rows)
{
    PreparedCalibration prepared;
    Problems problems;
    for (ServingCalibrationRow &row : rows) {
        Result<std::shared_ptr<const inference::ServingWork>> work = inference::prepareServing(row.inputs);
        if (!work) {
            for (Problem problem : work.problems()) {
                problem.message = row.id + ": " + problem.message;
                problems.push_back(problem);
            }
            continue;
        }
        prepared.work.push_back(*work);
        prepared.rows.push_back(std::move(row));
    }
    if (!problems.empty())
        return problems;
    return prepared;
}

namespace {

// Comparisons of the rows selected by `take`.
std::vector<ServingComparison> compareRows(const PreparedCalibration &calibration, const FactorLookup &lookup,
                                           const std::function<bool(const ServingCalibrationRow &)> &take)
{
    std::vector<ServingComparison> comparisons;
    for (std::size_t i = 0; i < calibration.rows.size(); ++i) {
        const ServingCalibrationRow &row = calibration.rows[i];
        if (!take(row))
            continue;
        const Result<inference::ServingReport> report =
            inference::evaluateServing(*calibration.work[i], lookup(row.accelerator, row.precision));
        for (const ServingCalibrationRow::Metric &metric : row.metrics) {
            ServingComparison comparison;
            comparison.row_id = row.id;
            comparison.source = row.source;
            comparison.accelerator = row.accelerator;
            comparison.precision = row.precision;
            comparison.model = row.model;
            comparison.metric = metric.name;
            comparison.published = metric.published;
            comparison.predicted = report ? predictedMetric(*report, row, metric.name) : std::nan("");
            comparisons.push_back(comparison);
        }
    }
    return comparisons;
}

// The fit's box (the unit cube of nelder_mead.h mapped onto it): fractions between what a badly
// tuned kernel and a perfect one reach, fixed costs from none to well above a CUDA launch (~5 µs)
// and a framework's per-step host work (~1 ms).
struct Box {
    double low;
    double high;
};
constexpr Box kComputeFraction{0.1, 1.0};
constexpr Box kBandwidthFraction{0.3, 1.0};
constexpr Box kKernelLaunch{0.0, 20e-6};
constexpr Box kHostStep{0.0, 5e-3};

double toUnit(double value, Box box) { return std::clamp((value - box.low) / (box.high - box.low), 0.0, 1.0); }
double fromUnit(double unit, Box box) { return box.low + unit * (box.high - box.low); }

ServingFactors factorsAt(const std::vector<double> &point, const ServingFactors &base)
{
    ServingFactors factors = base;
    factors.compute_fraction = fromUnit(point[0], kComputeFraction);
    factors.bandwidth_fraction = fromUnit(point[1], kBandwidthFraction);
    factors.kernel_launch_seconds = fromUnit(point[2], kKernelLaunch);
    factors.host_step_seconds = fromUnit(point[3], kHostStep);
    return factors;
}

std::string fallbackOf(const std::string &accelerator)
{
    for (const auto &fallback : inference::builtinServingFactors().fallbacks)
        if (fallback.accelerator == accelerator)
            return fallback.factors_from;
    return {};
}

std::string percent(double fraction)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f%%", 100 * fraction);
    return text;
}

}  // namespace

std::vector<ServingComparison> compareServing(const PreparedCalibration &calibration, const FactorLookup &lookup)
{
    return compareRows(calibration, lookup, [](const ServingCalibrationRow &) { return true; });
}

FactorLookup ServingFit::lookup() const
{
    const std::vector<ServingFactors> fitted = factors;
    const auto pools = pooled;
    return [fitted, pools](const std::string &accelerator, const std::string &precision) {
        std::string group = accelerator;
        for (const auto &[member, owner] : pools)
            if (member == accelerator)
                group = owner;
        for (const ServingFactors &candidate : fitted)
            if (candidate.accelerator == group && candidate.precision == precision)
                return candidate;
        // No fit of its own or its group's: its catalog fallback's fit, else the defaults.
        const std::string fallback = fallbackOf(group);
        for (const ServingFactors &candidate : fitted)
            if (!fallback.empty() && candidate.accelerator == fallback && candidate.precision == precision)
                return candidate;
        ServingFactors defaults = inference::builtinServingFactors().defaults;
        defaults.accelerator = accelerator;
        defaults.precision = precision;
        return defaults;
    };
}

ServingFit fitServingFactors(const PreparedCalibration &calibration, const std::string &exclude_source)
{
    // Comparisons per (accelerator, precision) among the rows used.
    std::map<std::pair<std::string, std::string>, int> counts;
    for (const ServingCalibrationRow &row : calibration.rows)
        if (row.source != exclude_source)
            counts[{row.accelerator, row.precision}] += int(row.metrics.size());
    ServingFit fit;
    std::map<std::pair<std::string, std::string>, std::string> group_of;  // (accelerator, precision) → group accelerator
    for (const auto &[key, count] : counts) {
        std::string group = key.first;
        const std::string fallback = fallbackOf(key.first);
        if (count < kOwnFitComparisons && !fallback.empty() && counts.count({fallback, key.second}))
            group = fallback;
        group_of[key] = group;
        if (group != key.first)
            fit.pooled.emplace_back(key.first, group);
    }
    std::set<std::pair<std::string, std::string>> groups;
    for (const auto &[key, group] : group_of)
        groups.insert({group, key.second});

    for (const auto &[group, precision] : groups) {
        const auto take = [&](const ServingCalibrationRow &row) {
            return row.source != exclude_source && row.precision == precision
                && group_of.at({row.accelerator, row.precision}) == group;
        };
        ServingFactors base = inference::builtinServingFactors().defaults;
        base.accelerator = group;
        base.precision = precision;
        base.calibrated = true;
        const auto objective = [&](const std::vector<double> &point) {
            const ServingFactors factors = factorsAt(point, base);
            const FactorLookup lookup = [&](const std::string &, const std::string &) { return factors; };
            const std::vector<ServingComparison> comparisons = compareRows(calibration, lookup, take);
            double sum = 0;
            for (const ServingComparison &comparison : comparisons)
                sum += std::isfinite(comparison.predicted) ? std::fabs(comparison.error()) : 10.0;
            return comparisons.empty() ? 0.0 : sum / double(comparisons.size());
        };
        // Several starts: the mean |error| has flat valleys (a fixed cost trades against a fraction).
        performance::NelderMeadResult best;
        best.value = 1e300;
        for (const std::vector<double> &start :
             {std::vector<double>{toUnit(base.compute_fraction, kComputeFraction), toUnit(base.bandwidth_fraction, kBandwidthFraction),
                                  toUnit(base.kernel_launch_seconds, kKernelLaunch), toUnit(base.host_step_seconds, kHostStep)},
              std::vector<double>{0.5, 0.5, 0.25, 0.1}, std::vector<double>{0.8, 0.9, 0.1, 0.02}}) {
            performance::NelderMeadOptions options;
            options.max_evaluations = 300;
            const performance::NelderMeadResult result = performance::minimiseInUnitBox(objective, start, options);
            if (result.value < best.value)
                best = result;
        }
        ServingFactors factors = factorsAt(best.point, base);
        const FactorLookup lookup = [&](const std::string &, const std::string &) { return factors; };
        const std::vector<ServingComparison> comparisons = compareRows(calibration, lookup, take);
        const ServingErrorSummary summary = summarise(comparisons);
        std::set<std::string> members, sources;
        for (const ServingComparison &comparison : comparisons) {
            members.insert(comparison.accelerator);
            sources.insert(comparison.source);
        }
        std::string member_text;
        for (const std::string &member : members)
            member_text += (member_text.empty() ? "" : ", ") + member;
        factors.source = "Fitted (tools/fit_serving_factors.py: llm-explorer-cli validate --serving --fit) to "
            + std::to_string(summary.comparisons) + " published figures of " + member_text + " at " + precision + " from "
            + std::to_string(sources.size()) + " source(s) in resources/validation/published_inference.json: mean |error| "
            + percent(summary.mean_abs_error) + ", worst " + percent(summary.worst_abs_error) + ".";
        fit.factors.push_back(factors);
    }
    return fit;
}

ServingValidation validateServing(const PreparedCalibration &calibration, const FactorLookup &lookup,
                                  bool leave_one_source_out, const HeldOutProgress &progress)
{
    ServingValidation validation;
    validation.comparisons = compareServing(calibration, lookup);
    validation.overall = summarise(validation.comparisons);
    std::map<std::string, std::vector<ServingComparison>> by_accelerator;
    for (const ServingComparison &comparison : validation.comparisons)
        by_accelerator[comparison.accelerator + "/" + comparison.precision].push_back(comparison);
    for (const auto &[key, comparisons] : by_accelerator)
        validation.per_accelerator.push_back(summarise(comparisons, key));
    if (!leave_one_source_out)
        return validation;
    std::vector<std::string> sources;
    for (const ServingCalibrationRow &row : calibration.rows)
        if (std::find(sources.begin(), sources.end(), row.source) == sources.end())
            sources.push_back(row.source);
    std::vector<ServingComparison> all_held_out;
    const int total = int(sources.size());
    for (const std::string &source : sources) {
        if (progress && !progress(int(validation.held_out.size()), total)) {
            validation.held_out_cancelled = true;
            return validation;
        }
        const ServingFit fit = fitServingFactors(calibration, source);
        HeldOutSource held;
        held.source = source;
        held.comparisons = compareRows(calibration, fit.lookup(),
                                       [&](const ServingCalibrationRow &row) { return row.source == source; });
        held.summary = summarise(held.comparisons, source);
        all_held_out.insert(all_held_out.end(), held.comparisons.begin(), held.comparisons.end());
        validation.held_out.push_back(std::move(held));
    }
    validation.held_out_overall = summarise(all_held_out, "leave-one-source-out");
    if (progress)
        progress(total, total);
    return validation;
}

Result<ServingValidation> validateServing(bool leave_one_source_out, const HeldOutProgress &progress)
{
    Result<std::vector<ServingCalibrationRow>> rows = builtinServingCalibration();
    if (!rows)
        return rows.problems();
    Result<PreparedCalibration> prepared = prepareCalibration(*rows);
    if (!prepared)
        return prepared.problems();
    const FactorLookup catalog = [](const std::string &accelerator, const std::string &precision) {
        return inference::builtinServingFactors().lookUp(accelerator, precision);
    };
    ServingValidation validation = validateServing(*prepared, catalog, leave_one_source_out, progress);
    if (validation.held_out_cancelled)
        return Result<ServingValidation>::failure("validation.serving", "cancelled",
                                                  "the leave-one-source-out fits were cancelled");
    return validation;
}

}  // namespace lse
