// SPDX-License-Identifier: GPL-3.0-or-later
#include "inference/serving_factors.h"

#include "common/json_fields.h"

#include <QFile>
#include <QJsonArray>

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace lse::inference {

std::string precisionKey(ComputeFormat format)
{
    switch (format) {
    case ComputeFormat::FP16:
    case ComputeFormat::BF16: return "fp16";
    case ComputeFormat::FP8: return "fp8";
    case ComputeFormat::INT8: return "int8";
    }
    return "fp16";
}

ServingFactors ServingFactorCatalog::lookUp(const std::string &accelerator, const std::string &precision) const
{
    for (const ServingFactors &factors : fitted)
        if (factors.accelerator == accelerator && factors.precision == precision)
            return factors;
    for (const Fallback &fallback : fallbacks) {
        if (fallback.accelerator != accelerator)
            continue;
        for (const ServingFactors &factors : fitted)
            if (factors.accelerator == fallback.factors_from && factors.precision == precision) {
                ServingFactors borrowed = factors;
                borrowed.source = "The " + fallback.factors_from + " " + precision + " factors (" + fallback.why
                    + "): " + factors.source;
                return borrowed;
            }
    }
    ServingFactors result = defaults;
    result.precision = precision;
    result.source = "Not calibrated for " + accelerator + " at " + precision + ": " + defaults.source;
    return result;
}

Problems validateServingFactors(const ServingFactors &factors, const std::string &field)
{
    Problems problems;
    const auto fraction = [&](const char *key, double value) {
        if (!std::isfinite(value) || value <= 0 || value > 1)
            problems.push_back({field + "." + key, "range",
                                field + "." + key + " is " + std::to_string(value)
                                    + "; a fraction of the datasheet figure must be in (0, 1]"});
    };
    fraction("compute_fraction", factors.compute_fraction);
    fraction("bandwidth_fraction", factors.bandwidth_fraction);
    const auto seconds = [&](const char *key, double value) {
        if (!std::isfinite(value) || value < 0 || value > 1)
            problems.push_back({field + "." + key, "range",
                                field + "." + key + " is " + std::to_string(value)
                                    + "; a fixed cost must be between 0 and 1 second"});
    };
    seconds("kernel_launch_seconds", factors.kernel_launch_seconds);
    seconds("host_step_seconds", factors.host_step_seconds);
    return problems;
}

namespace {

ServingFactors readFactors(const QJsonObject &object, const std::string &field, Problems &problems)
{
    ServingFactors factors;
    JsonFieldReader reader(object, field, problems);
    reader.readAmount("compute_fraction", factors.compute_fraction);
    reader.readAmount("bandwidth_fraction", factors.bandwidth_fraction);
    reader.readAmount("kernel_launch_seconds", factors.kernel_launch_seconds);
    reader.readAmount("host_step_seconds", factors.host_step_seconds);
    reader.readString("source", factors.source);
    reader.readString("accelerator", factors.accelerator);
    reader.readString("precision", factors.precision);
    if (factors.source.empty())
        problems.push_back({field + ".source", "required", field + ".source must say where the factors come from"});
    Problems invalid = validateServingFactors(factors, field);
    problems.insert(problems.end(), invalid.begin(), invalid.end());
    return factors;
}

}  // namespace

Result<ServingFactorCatalog> parseServingFactorCatalog(const QByteArray &json)
{
    Problems problems;
    const std::optional<QJsonObject> root = parseFormattedJson(json, "llm-explorer-serving-efficiency", 1, problems);
    if (!root)
        return problems;
    ServingFactorCatalog catalog;
    catalog.defaults = readFactors(root->value("defaults").toObject(), "defaults", problems);
    catalog.fit_command = root->value("fit_command").toString().toStdString();
    const QJsonArray fitted = root->value("factors").toArray();
    for (qsizetype i = 0; i < fitted.size(); ++i) {
        const std::string field = "factors[" + std::to_string(i) + "]";
        ServingFactors factors = readFactors(fitted.at(i).toObject(), field, problems);
        factors.calibrated = true;
        if (factors.accelerator.empty() || factors.precision.empty())
            problems.push_back({field, "required", field + " needs an accelerator and a precision"});
        catalog.fitted.push_back(factors);
    }
    for (const QJsonValue &value : root->value("fallbacks").toArray()) {
        const QJsonObject object = value.toObject();
        catalog.fallbacks.push_back({object.value("accelerator").toString().toStdString(),
                                     object.value("factors_from").toString().toStdString(),
                                     object.value("why").toString().toStdString()});
    }
    if (!problems.empty())
        return problems;
    return catalog;
}

const ServingFactorCatalog &builtinServingFactors()
{
    static const ServingFactorCatalog catalog = [] {
        QFile file(QStringLiteral(":/hardware/serving_efficiency.json"));
        if (!file.open(QIODevice::ReadOnly)) {
            std::fprintf(stderr, "llm-explorer: the built-in serving efficiency catalog is missing\n");
            std::abort();
        }
        Result<ServingFactorCatalog> parsed = parseServingFactorCatalog(file.readAll());
        if (!parsed) {
            std::fprintf(stderr, "llm-explorer: the built-in serving efficiency catalog is broken: %s\n",
                         formatProblems(parsed.problems()).c_str());
            std::abort();
        }
        return *parsed;
    }();
    return catalog;
}

}  // namespace lse::inference
