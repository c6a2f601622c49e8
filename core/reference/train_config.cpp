// SPDX-License-Identifier: GPL-3.0-or-later
// TrainConfig validation and its JSON file format:
//   {"format": "llm-explorer-reference-train", "version": 1,
//    "model": {scenario model fields..., "norm_eps": 1e-5, "rope_theta": 10000},
//    "data_path": "tokens.bin", "data_dtype": "uint16", "validation_path": "", "validation_dtype": "uint16",
//    "training": {"batch_size": 8, "steps": 1000, "lr_max": ..., "seed": 0, ..., "attention_kernel": "naive"}}
// The model object is the scenario format (core/scenario/scenario_json) plus the two numeric
// options of the reference model, which belong with the architecture rather than the run. When
// head_dim or n_kv_heads are absent they default to d_model / n_heads and n_heads, so a preset
// only has to state what a person would. Unknown keys are problems everywhere (a typo such as
// "learning_rate" would otherwise silently train with the default).
#include "reference/trainer.h"

#include "reference/size_limits.h"
#include "scenario/scenario_json.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>

#include <cmath>
#include <limits>

namespace lse::reference {

namespace {

constexpr const char *kFormat = "llm-explorer-reference-train";
constexpr double kMaxExactInteger = 9007199254740992.0;  // 2^53

QString qs(const char *text) { return QString::fromLatin1(text); }

void add(Problems &problems, std::string field, std::string rule, std::string message)
{
    problems.push_back(Problem{std::move(field), std::move(rule), std::move(message)});
}

void checkUnknownKeys(const QJsonObject &object, const QStringList &known, const std::string &prefix, Problems &problems)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (!known.contains(it.key())) {
            const std::string field = prefix.empty() ? it.key().toStdString() : prefix + "." + it.key().toStdString();
            add(problems, field, "unknown",
                field + ": unknown key; expected one of " + known.join(QStringLiteral(", ")).toStdString() + ".");
        }
    }
}

// Readers that leave the target unchanged when the key is absent and add a problem naming the
// field when the value has the wrong type or is not a whole number.
struct Reader {
    const QJsonObject &object;
    std::string prefix;
    Problems &problems;

    std::string field(const char *key) const { return prefix.empty() ? std::string(key) : prefix + "." + key; }

    void number(const char *key, double &out)
    {
        const QJsonValue v = object.value(qs(key));
        if (v.isUndefined())
            return;
        if (!v.isDouble() || !std::isfinite(v.toDouble())) {
            add(problems, field(key), "type", field(key) + " must be a number.");
            return;
        }
        out = v.toDouble();
    }
    template <typename Int>
    void integer(const char *key, Int &out)
    {
        const QJsonValue v = object.value(qs(key));
        if (v.isUndefined())
            return;
        const double d = v.toDouble(std::numeric_limits<double>::quiet_NaN());
        if (!v.isDouble() || d != std::floor(d) || std::abs(d) > double(std::numeric_limits<Int>::max())) {
            add(problems, field(key), "integer", field(key) + " must be a whole number.");
            return;
        }
        out = Int(d);
    }
    // A 64-bit seed: a JSON number up to 2^53 or a string of decimal digits (JSON numbers are doubles).
    void seed(const char *key, std::uint64_t &out)
    {
        const QJsonValue v = object.value(qs(key));
        if (v.isUndefined())
            return;
        if (v.isString()) {
            bool ok = false;
            const qulonglong value = v.toString().toULongLong(&ok);
            if (ok) {
                out = value;
                return;
            }
        } else if (v.isDouble()) {
            const double d = v.toDouble();
            if (d >= 0 && d <= kMaxExactInteger && d == std::floor(d)) {
                out = std::uint64_t(d);
                return;
            }
        }
        add(problems, field(key), "integer",
            field(key) + " must be a whole number in [0, 2^53] or a string of decimal digits up to 2^64 - 1.");
    }
    void string(const char *key, std::string &out)
    {
        const QJsonValue v = object.value(qs(key));
        if (v.isUndefined())
            return;
        if (!v.isString()) {
            add(problems, field(key), "type", field(key) + " must be a string.");
            return;
        }
        out = v.toString().toStdString();
    }
    void dtype(const char *key, TokenDtype &out)
    {
        std::string text;
        const QJsonValue v = object.value(qs(key));
        if (v.isUndefined())
            return;
        string(key, text);
        if (!v.isString())
            return;
        if (const std::optional<TokenDtype> d = parseTokenDtype(text))
            out = *d;
        else
            add(problems, field(key), "enum", field(key) + ": unknown value '" + text + "'; expected uint16|uint32.");
    }
};

}  // namespace

Problems validateTrainModel(const TrainConfig &c)
{
    Problems problems;
    for (Problem p : validateForReference(c.model)) {
        p.field = "model." + p.field;
        p.message = "model." + p.message;
        problems.push_back(std::move(p));
    }
    if (!(c.options.norm_eps > 0))
        add(problems, "model.norm_eps", "range", "model.norm_eps must be positive.");
    if (!(c.options.rope_theta > 0))
        add(problems, "model.rope_theta", "range", "model.rope_theta must be positive.");
    return problems;
}

Problems checkTrainingMemory(const TrainConfig &c, const MemoryAvailable &available)
{
    ReferenceOptions options = c.options;
    options.max_batch = c.batch_size;
    options.context = int(c.model.max_seq_len);
    const ReferenceMemory model = referenceMemoryEstimate(c.model, options);
    const double optimizer = 2 * model.parameters;  // AdamW's first and second moments, F32 like the parameters
    const double batches = 2.0 * double(c.batch_size) * double(c.model.max_seq_len) * sizeof(std::int32_t);  // inputs, targets
    return checkMemoryFits(totalBytes(model) + optimizer + batches, available, "training.batch_size",
                           "parameters, gradients and AdamW moments " + formatBytes(model.parameters + model.gradients + optimizer) +
                               ", activations and workspace for batch " + std::to_string(c.batch_size) + " × context " +
                               std::to_string(c.model.max_seq_len) + " " +
                               formatBytes(model.activations + model.workspace + batches) + ", KV cache " +
                               formatBytes(model.kv_cache));
}

Problems validateTrainConfig(const TrainConfig &c)
{
    Problems problems = validateTrainModel(c);
    const bool sizesValid = problems.empty() && c.batch_size >= 1 && c.batch_size <= kMaxReferenceBatch;
    if (c.data_path.empty())
        add(problems, "data_path", "required", "data_path: a token file (from `llm-explorer-cli prepare-data`) is required.");
    auto positive = [&](const char *name, double value) {
        if (!(value >= 1))
            add(problems, std::string("training.") + name, "range",
                std::string("training.") + name + " must be at least 1, got " + std::to_string(value) + ".");
    };
    auto nonNegative = [&](const char *name, double value) {
        if (!(value >= 0) || !std::isfinite(value))
            add(problems, std::string("training.") + name, "range",
                std::string("training.") + name + " must be a finite number >= 0, got " + std::to_string(value) + ".");
    };
    positive("batch_size", c.batch_size);
    if (c.batch_size > kMaxReferenceBatch)
        add(problems, "training.batch_size", "maximum",
            "training.batch_size must be at most " + std::to_string(kMaxReferenceBatch) + ", got " + std::to_string(c.batch_size) + ".");
    positive("steps", c.steps);
    nonNegative("warmup_steps", c.warmup_steps);
    if (c.warmup_steps > c.steps)
        add(problems, "training.warmup_steps", "range",
            "training.warmup_steps (" + std::to_string(c.warmup_steps) + ") must not exceed training.steps (" +
                std::to_string(c.steps) + ").");
    nonNegative("lr_min", c.lr_min);
    if (!(c.lr_max > 0) || !std::isfinite(c.lr_max))
        add(problems, "training.lr_max", "range", "training.lr_max must be a positive finite number.");
    else if (c.lr_min > c.lr_max)
        add(problems, "training.lr_min", "range", "training.lr_min must not exceed training.lr_max.");
    nonNegative("weight_decay", c.weight_decay);
    if (!(c.beta1 >= 0 && c.beta1 < 1))
        add(problems, "training.beta1", "range", "training.beta1 must be in [0, 1).");
    if (!(c.beta2 >= 0 && c.beta2 < 1))
        add(problems, "training.beta2", "range", "training.beta2 must be in [0, 1).");
    if (!(c.adam_eps > 0))
        add(problems, "training.adam_eps", "range", "training.adam_eps must be positive.");
    nonNegative("grad_clip", c.grad_clip);
    nonNegative("eval_every", c.eval_every);
    positive("eval_batches", c.eval_batches);
    nonNegative("threads", c.threads);
    nonNegative("peak_flops_per_s", c.peak_flops_per_s);
    // Last, and only for sizes within the bounds: the estimate needs them, and the allocation
    // (Trainer::create) comes after this check.
    if (sizesValid)
        for (Problem &p : checkTrainingMemory(c, memoryAvailableToThisProcess()))
            problems.push_back(std::move(p));
    return problems;
}

Result<TrainConfig> trainConfigFromJson(const QByteArray &json, const std::string &where)
{
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        return Result<TrainConfig>::failure("file", "json", where + ": not valid JSON at offset " +
                                                                std::to_string(error.offset) + " (" +
                                                                error.errorString().toStdString() + ").");
    if (!doc.isObject())
        return Result<TrainConfig>::failure("file", "json", where + ": the top level must be a JSON object.");
    const QJsonObject root = doc.object();
    Problems problems;
    checkUnknownKeys(root,
                     {"format", "version", "model", "data_path", "data_dtype", "validation_path", "validation_dtype", "training"},
                     "", problems);
    if (root.contains("format") && root.value("format").toString() != QLatin1String(kFormat))
        add(problems, "format", "format", "format must be \"" + std::string(kFormat) + "\".");
    if (root.contains("version") && root.value("version").toInt(-1) != 1)
        add(problems, "version", "version", "version must be 1.");

    TrainConfig config;
    Reader top{root, "", problems};
    top.string("data_path", config.data_path);
    top.dtype("data_dtype", config.data_dtype);
    top.string("validation_path", config.validation_path);
    top.dtype("validation_dtype", config.validation_dtype);

    if (!root.value("model").isObject()) {
        add(problems, "model", root.contains("model") ? "type" : "required", "model must be an object with the architecture.");
    } else {
        QJsonObject model = root.value("model").toObject();
        QStringList known = modelToJson(ModelConfig{}).keys();
        known << "norm_eps" << "rope_theta";
        checkUnknownKeys(model, known, "model", problems);
        Reader m{model, "model", problems};
        double eps = config.options.norm_eps, theta = config.options.rope_theta;
        m.number("norm_eps", eps);
        m.number("rope_theta", theta);
        config.options.norm_eps = float(eps);
        config.options.rope_theta = float(theta);
        const bool hasHeadDim = model.contains("head_dim"), hasKv = model.contains("n_kv_heads");
        model.remove("norm_eps");
        model.remove("rope_theta");
        Result<ModelConfig> parsed = modelFromJson(model, "model");
        if (!parsed) {
            problems.insert(problems.end(), parsed.problems().begin(), parsed.problems().end());
        } else {
            config.model = parsed.value();
            if (!hasKv)
                config.model.n_kv_heads = config.model.n_heads;
            if (!hasHeadDim && config.model.n_heads > 0)
                config.model.head_dim = int(config.model.d_model / config.model.n_heads);
        }
    }

    if (root.contains("training")) {
        if (!root.value("training").isObject()) {
            add(problems, "training", "type", "training must be an object.");
        } else {
            const QJsonObject t = root.value("training").toObject();
            checkUnknownKeys(t,
                             {"batch_size", "steps", "lr_max", "lr_min", "warmup_steps", "weight_decay", "beta1", "beta2",
                              "adam_eps", "grad_clip", "eval_every", "eval_batches", "seed", "threads", "peak_flops_per_s",
                              "attention_kernel"},
                             "training", problems);
            Reader r{t, "training", problems};
            r.integer("batch_size", config.batch_size);
            r.integer("steps", config.steps);
            r.number("lr_max", config.lr_max);
            r.number("lr_min", config.lr_min);
            r.integer("warmup_steps", config.warmup_steps);
            r.number("weight_decay", config.weight_decay);
            r.number("beta1", config.beta1);
            r.number("beta2", config.beta2);
            r.number("adam_eps", config.adam_eps);
            r.number("grad_clip", config.grad_clip);
            r.integer("eval_every", config.eval_every);
            r.integer("eval_batches", config.eval_batches);
            r.seed("seed", config.seed);
            r.integer("threads", config.threads);
            r.number("peak_flops_per_s", config.peak_flops_per_s);
            if (t.contains("attention_kernel")) {
                const std::optional<AttentionAlgorithm> kernel =
                    attentionAlgorithmFromName(t.value("attention_kernel").toString().toStdString());
                if (kernel)
                    config.options.attention_kernel = *kernel;
                else
                    add(problems, "training.attention_kernel", "choice",
                        "training.attention_kernel must be \"naive\" or \"tiled\".");
            }
        }
    }
    if (!problems.empty())
        return problems;
    config.options.seed = config.seed;
    config.options.max_batch = config.batch_size;
    config.options.context = int(config.model.max_seq_len);
    return config;
}

QByteArray trainConfigToJson(const TrainConfig &c)
{
    QJsonObject model = modelToJson(c.model);
    model.insert("norm_eps", double(c.options.norm_eps));
    model.insert("rope_theta", double(c.options.rope_theta));
    QJsonObject training;
    training.insert("batch_size", c.batch_size);
    training.insert("steps", c.steps);
    training.insert("lr_max", c.lr_max);
    training.insert("lr_min", c.lr_min);
    training.insert("warmup_steps", c.warmup_steps);
    training.insert("weight_decay", c.weight_decay);
    training.insert("beta1", c.beta1);
    training.insert("beta2", c.beta2);
    training.insert("adam_eps", c.adam_eps);
    training.insert("grad_clip", c.grad_clip);
    training.insert("eval_every", c.eval_every);
    training.insert("eval_batches", c.eval_batches);
    // Seeds above 2^53 would lose bits as a JSON number, so they are written as decimal strings.
    if (double(c.seed) <= kMaxExactInteger)
        training.insert("seed", double(c.seed));
    else
        training.insert("seed", QString::number(qulonglong(c.seed)));
    training.insert("threads", c.threads);
    training.insert("peak_flops_per_s", c.peak_flops_per_s);
    training.insert("attention_kernel", qs(toString(c.options.attention_kernel)));
    QJsonObject root;
    root.insert("format", qs(kFormat));
    root.insert("version", 1);
    root.insert("model", model);
    root.insert("data_path", QString::fromStdString(c.data_path));
    root.insert("data_dtype", QString::fromUtf8(tokenDtypeName(c.data_dtype).data(), qsizetype(tokenDtypeName(c.data_dtype).size())));
    root.insert("validation_path", QString::fromStdString(c.validation_path));
    root.insert("validation_dtype",
                QString::fromUtf8(tokenDtypeName(c.validation_dtype).data(), qsizetype(tokenDtypeName(c.validation_dtype).size())));
    root.insert("training", training);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

}  // namespace lse::reference
