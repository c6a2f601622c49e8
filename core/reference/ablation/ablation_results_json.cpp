// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/ablation/ablation_results_json.h"

#include "common/file_bytes.h"
#include "common/file_writer.h"
#include "common/json_fields.h"
#include "scenario/scenario_json.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cinttypes>
#include <cmath>
#include <cstdio>

namespace lse::reference {

namespace {

constexpr int kVersion = 1;

QString qs(std::string_view text) { return QString::fromUtf8(text.data(), qsizetype(text.size())); }

std::string hashText(std::uint64_t hash)
{
    char buffer[24];
    std::snprintf(buffer, sizeof buffer, "0x%016" PRIx64, hash);
    return buffer;
}

QJsonObject changesToJson(const ModelChanges &c)
{
    QJsonObject o;
    if (c.norm)
        o.insert(QStringLiteral("norm"), qs(toString(*c.norm)));
    if (c.norm_placement)
        o.insert(QStringLiteral("norm_placement"), qs(toString(*c.norm_placement)));
    if (c.activation)
        o.insert(QStringLiteral("activation"), qs(toString(*c.activation)));
    if (c.positional_encoding)
        o.insert(QStringLiteral("positional_encoding"), qs(toString(*c.positional_encoding)));
    if (c.parallel_block)
        o.insert(QStringLiteral("parallel_block"), *c.parallel_block);
    if (c.d_ff)
        o.insert(QStringLiteral("d_ff"), double(*c.d_ff));
    return o;
}

QJsonObject curveToJson(const std::vector<AblationPoint> &curve)
{
    QJsonArray steps, train, validation;
    for (const AblationPoint &p : curve) {
        steps.append(p.step);
        train.append(p.train_loss);
        validation.append(p.validation_loss ? QJsonValue(*p.validation_loss) : QJsonValue(QJsonValue::Null));
    }
    QJsonObject o;
    o.insert(QStringLiteral("step"), steps);
    o.insert(QStringLiteral("train_loss"), train);
    o.insert(QStringLiteral("validation_loss"), validation);
    return o;
}

QJsonObject variantToJson(const AblationResult &r)
{
    QJsonObject o;
    o.insert(QStringLiteral("name"), qs(r.variant.name));
    o.insert(QStringLiteral("changes"), changesToJson(r.variant.changes));
    o.insert(QStringLiteral("model"), modelToJson(r.model));
    o.insert(QStringLiteral("status"), qs(toString(r.status)));
    o.insert(QStringLiteral("message"), qs(r.message));
    o.insert(QStringLiteral("parameters"), double(r.parameters));
    o.insert(QStringLiteral("tokens_per_s"), r.tokens_per_s);
    o.insert(QStringLiteral("final_validation_loss"),
             r.final_validation_loss ? QJsonValue(*r.final_validation_loss) : QJsonValue(QJsonValue::Null));
    o.insert(QStringLiteral("wall_seconds"), r.wall_seconds);
    o.insert(QStringLiteral("first_batch_hash"), qs(hashText(r.first_batch_hash)));
    o.insert(QStringLiteral("curve"), curveToJson(r.curve));
    return o;
}

// Unknown keys are problems, as in the project's other formats: a misspelt key would otherwise be
// silently ignored.
void checkKeys(const QJsonObject &o, std::initializer_list<const char *> known, const std::string &path,
               Problems &problems)
{
    for (auto it = o.begin(); it != o.end(); ++it) {
        bool found = false;
        for (const char *k : known)
            found = found || it.key() == QLatin1String(k);
        if (!found) {
            const std::string field = joinFieldPath(path, it.key().toStdString());
            problems.push_back({field, "unknown", field + ": unknown key."});
        }
    }
}

void require(const JsonFieldReader &reader, std::initializer_list<const char *> keys, Problems &problems)
{
    for (const char *k : keys)
        if (!reader.has(k)) {
            const std::string field = reader.fieldPath(k);
            problems.push_back({field, "missing", field + ": required field is missing."});
        }
}

ModelChanges changesFromJson(const QJsonObject &o, const std::string &path, Problems &problems)
{
    checkKeys(o, {"norm", "norm_placement", "activation", "positional_encoding", "parallel_block", "d_ff"}, path,
              problems);
    JsonFieldReader reader(o, path, problems);
    ModelChanges c;
    auto readEnum = [&](const char *key, auto &target, auto parse, const char *choices) {
        if (!reader.has(key))
            return;
        typename std::decay_t<decltype(target)>::value_type value{};
        const std::size_t before = problems.size();
        reader.readEnum(key, value, parse, choices);
        if (problems.size() == before)
            target = value;
    };
    readEnum("norm", c.norm, &normTypeFromString, "layernorm, rmsnorm, none");
    readEnum("norm_placement", c.norm_placement, &normPlacementFromString, "pre, post, double");
    readEnum("activation", c.activation, &activationFromString, "relu, gelu, swiglu, geglu, silu");
    readEnum("positional_encoding", c.positional_encoding, &positionalEncodingFromString,
             "learned, sinusoidal, rope, alibi, none");
    if (reader.has("parallel_block")) {
        bool value = false;
        const std::size_t before = problems.size();
        reader.readBool("parallel_block", value);
        if (problems.size() == before)
            c.parallel_block = value;
    }
    if (reader.has("d_ff")) {
        std::int64_t value = 0;
        const std::size_t before = problems.size();
        reader.readCount("d_ff", value);
        if (problems.size() == before)
            c.d_ff = value;
    }
    return c;
}

// One array of numbers (or nulls where `nullable`) of exactly `length` entries when length >= 0.
std::vector<std::optional<double>> numberArray(const QJsonObject &o, const char *key, const std::string &path,
                                               bool nullable, Problems &problems)
{
    const std::string field = joinFieldPath(path, key);
    std::vector<std::optional<double>> out;
    const QJsonValue value = o.value(QLatin1String(key));
    if (value.isUndefined()) {
        problems.push_back({field, "missing", field + ": required field is missing."});
        return out;
    }
    if (!value.isArray()) {
        problems.push_back({field, "type", field + ": expected an array, got " + describeJsonValue(value) + "."});
        return out;
    }
    const QJsonArray array = value.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QJsonValue v = array.at(i);
        const std::string at = field + "[" + std::to_string(i) + "]";
        if (v.isNull() && nullable) {
            out.emplace_back();
        } else if (v.isDouble() && std::isfinite(v.toDouble()) && v.toDouble() >= 0) {
            out.emplace_back(v.toDouble());
        } else {
            problems.push_back({at, "type", at + ": expected a non-negative number" + std::string(nullable ? " or null" : "")
                                                + ", got " + describeJsonValue(v) + "."});
            return {};
        }
    }
    return out;
}

std::vector<AblationPoint> curveFromJson(const QJsonObject &o, const std::string &path, Problems &problems)
{
    checkKeys(o, {"step", "train_loss", "validation_loss"}, path, problems);
    const std::size_t before = problems.size();
    const auto steps = numberArray(o, "step", path, false, problems);
    const auto train = numberArray(o, "train_loss", path, false, problems);
    const auto validation = numberArray(o, "validation_loss", path, true, problems);
    if (problems.size() != before)
        return {};
    if (train.size() != steps.size() || validation.size() != steps.size()) {
        const std::string field = joinFieldPath(path, train.size() != steps.size() ? "train_loss" : "validation_loss");
        problems.push_back({field, "length", field + ": must have one entry per step (" + std::to_string(steps.size())
                                                 + "), has " + std::to_string(train.size() != steps.size() ? train.size()
                                                                                                          : validation.size())
                                                 + "."});
        return {};
    }
    std::vector<AblationPoint> curve;
    int previous = 0;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const double s = *steps[i];
        const std::string at = joinFieldPath(path, "step") + "[" + std::to_string(i) + "]";
        if (s != std::floor(s) || s <= previous || s > 1e9) {
            problems.push_back({at, "increasing", at + ": steps must be whole numbers that increase, got "
                                                      + describeJsonValue(QJsonValue(s)) + "."});
            return {};
        }
        previous = int(s);
        curve.push_back(AblationPoint{previous, *train[i], validation[i]});
    }
    return curve;
}

std::optional<AblationResult> variantFromJson(const QJsonObject &o, const std::string &path, Problems &problems)
{
    checkKeys(o, {"name", "changes", "model", "status", "message", "parameters", "tokens_per_s",
                  "final_validation_loss", "wall_seconds", "first_batch_hash", "curve"},
              path, problems);
    const std::size_t before = problems.size();
    JsonFieldReader reader(o, path, problems);
    require(reader, {"name", "model", "status", "parameters", "curve"}, problems);
    AblationResult r;
    reader.readString("name", r.variant.name);
    if (std::optional<QJsonObject> changes = reader.readObject("changes"))
        r.variant.changes = changesFromJson(*changes, reader.fieldPath("changes"), problems);
    if (std::optional<QJsonObject> model = reader.readObject("model")) {
        Result<ModelConfig> m = modelFromJson(*model, reader.fieldPath("model"));
        if (m)
            r.model = m.value();
        else
            problems.insert(problems.end(), m.problems().begin(), m.problems().end());
    }
    reader.readEnum("status", r.status, &variantStatusFromString, "finished, cancelled, diverged");
    reader.readString("message", r.message);
    reader.readCount("parameters", r.parameters);
    reader.readAmount("tokens_per_s", r.tokens_per_s);
    reader.readOptionalAmount("final_validation_loss", r.final_validation_loss);
    reader.readAmount("wall_seconds", r.wall_seconds);
    if (reader.has("first_batch_hash")) {
        std::string text;
        reader.readString("first_batch_hash", text);
        bool ok = text.size() > 2 && text.size() <= 18 && text.compare(0, 2, "0x") == 0;
        const qulonglong hash = ok ? QString::fromStdString(text.substr(2)).toULongLong(&ok, 16) : 0;
        if (ok)
            r.first_batch_hash = hash;
        else
            reader.addProblem("first_batch_hash", "format",
                              "expected a hexadecimal number such as 0x0123abcd, got '" + text + "'.");
    }
    if (std::optional<QJsonObject> curve = reader.readObject("curve"))
        r.curve = curveFromJson(*curve, reader.fieldPath("curve"), problems);
    if (problems.size() != before)
        return std::nullopt;
    return r;
}

}  // namespace

std::string_view toString(VariantStatus status)
{
    switch (status) {
    case VariantStatus::Finished: return "finished";
    case VariantStatus::Cancelled: return "cancelled";
    case VariantStatus::Diverged: return "diverged";
    }
    return "finished";
}

std::optional<VariantStatus> variantStatusFromString(std::string_view text)
{
    for (VariantStatus s : {VariantStatus::Finished, VariantStatus::Cancelled, VariantStatus::Diverged})
        if (text == toString(s))
            return s;
    return std::nullopt;
}

bool operator==(const AblationResults &a, const AblationResults &b)
{
    return a.study == b.study && trainConfigToJson(a.base) == trainConfigToJson(b.base) && a.text_bytes == b.text_bytes
        && a.tokens == b.tokens && a.variants == b.variants && a.cancelled == b.cancelled;
}

QByteArray ablationResultsToJson(const AblationResults &results)
{
    QJsonObject root;
    root.insert(QStringLiteral("format"), QLatin1String(kAblationResultsFormat));
    root.insert(QStringLiteral("version"), kVersion);
    root.insert(QStringLiteral("study"), qs(results.study));
    root.insert(QStringLiteral("cancelled"), results.cancelled);
    root.insert(QStringLiteral("text_bytes"), double(results.text_bytes));
    root.insert(QStringLiteral("tokens"), double(results.tokens));
    root.insert(QStringLiteral("base"), QJsonDocument::fromJson(trainConfigToJson(results.base)).object());
    QJsonArray variants;
    for (const AblationResult &r : results.variants)
        variants.append(variantToJson(r));
    root.insert(QStringLiteral("variants"), variants);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

Result<AblationResults> ablationResultsFromJson(const QByteArray &json)
{
    Problems problems;
    const std::optional<QJsonObject> root = parseFormattedJson(json, kAblationResultsFormat, kVersion, problems);
    if (!root)
        return problems;
    checkKeys(*root, {"format", "version", "study", "cancelled", "text_bytes", "tokens", "base", "variants"}, "",
              problems);
    JsonFieldReader reader(*root, "", problems);
    require(reader, {"study", "base", "variants"}, problems);
    AblationResults results;
    reader.readString("study", results.study);
    reader.readBool("cancelled", results.cancelled);
    reader.readCount("text_bytes", results.text_bytes);
    reader.readCount("tokens", results.tokens);
    if (std::optional<QJsonObject> base = reader.readObject("base")) {
        Result<TrainConfig> config = trainConfigFromJson(QJsonDocument(*base).toJson(), "base");
        if (config) {
            results.base = config.value();
        } else {
            for (Problem p : config.problems()) {
                p.field = joinFieldPath("base", p.field);
                p.message = "base: " + p.message;
                problems.push_back(std::move(p));
            }
        }
    }
    const QJsonValue variants = root->value(QStringLiteral("variants"));
    if (!variants.isUndefined() && !variants.isArray()) {
        problems.push_back({"variants", "type", "variants: expected an array, got " + describeJsonValue(variants) + "."});
    } else if (variants.isArray()) {
        const QJsonArray array = variants.toArray();
        for (qsizetype i = 0; i < array.size(); ++i) {
            const std::string path = "variants[" + std::to_string(i) + "]";
            if (!array.at(i).isObject()) {
                problems.push_back({path, "type", path + ": expected an object, got " + describeJsonValue(array.at(i)) + "."});
                continue;
            }
            if (std::optional<AblationResult> r = variantFromJson(array.at(i).toObject(), path, problems))
                results.variants.push_back(std::move(*r));
        }
    }
    if (!problems.empty())
        return problems;
    return results;
}

Result<bool> saveAblationResults(const AblationResults &results, const std::string &path)
{
    const QByteArray bytes = ablationResultsToJson(results);
    return writeFileReplacing(path, std::string_view(bytes.constData(), std::size_t(bytes.size())));
}

Result<AblationResults> loadAblationResults(const std::string &path)
{
    Result<QByteArray> read = readFileBytes(path, FileKind::Config);
    if (!read)
        return read.problems();
    if (std::optional<Problem> problem = textFileProblem(read.value(), path))
        return Problems{*problem};
    Result<AblationResults> results = ablationResultsFromJson(read.value());
    if (results)
        return results;
    Problems problems = results.problems();
    for (Problem &p : problems)
        p.message = "'" + path + "': " + p.message;
    return problems;
}

}  // namespace lse::reference
