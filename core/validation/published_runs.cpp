// SPDX-License-Identifier: GPL-3.0-or-later
#include "validation/published_runs.h"

#include "common/json_fields.h"
#include "cost/estimate.h"
#include "hardware/hardware_catalog.h"
#include "scenario/scenario_json.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QtGlobal>

#include <algorithm>
#include <regex>

namespace lse {

namespace {

constexpr const char *kRunsFormat = "llm-explorer-published-runs";
constexpr int kRunsVersion = 1;
constexpr const char *kBuiltinRunsPath = ":/validation/published_runs.json";

std::string runPath(int index)
{
    return "runs[" + std::to_string(index) + "]";
}

// Adds the run's id to every message from `first` on, so a problem is found without counting rows.
void nameRun(Problems &problems, std::size_t first, const std::string &id)
{
    if (id.empty())
        return;
    for (std::size_t i = first; i < problems.size(); ++i)
        problems[i].message += " (run '" + id + "')";
}

// validate() names fields "training.x"; inside the table they are "runs[i].training.x".
Problem inRun(Problem problem, const std::string &row)
{
    const auto prefixed = [&row](const std::string &field) { return row + "." + field; };
    problem.message = prefixed(problem.message);
    problem.field = prefixed(problem.field);
    for (std::string &related : problem.related)
        related = prefixed(related);
    return problem;
}

void readRequiredString(JsonFieldReader &reader, std::string_view key, std::string &target)
{
    if (!reader.has(key)) {
        reader.addProblem(key, "required", reader.fieldPath(key) + " is missing");
        return;
    }
    reader.readString(key, target);
    if (target.empty())
        reader.addProblem(key, "required", reader.fieldPath(key) + " is empty");
}

// A required nested object; a problem names it when it is missing.
std::optional<QJsonObject> readRequiredObject(JsonFieldReader &reader, std::string_view key)
{
    if (!reader.has(key)) {
        reader.addProblem(key, "required", reader.fieldPath(key) + " is missing");
        return std::nullopt;
    }
    return reader.readObject(key);
}

void readCluster(const QJsonObject &object, const std::string &path, PublishedRun &run, Problems &problems)
{
    JsonFieldReader reader(object, path, problems);
    std::string accelerator_id;
    readRequiredString(reader, "accelerator", accelerator_id);
    if (!accelerator_id.empty()) {
        if (const Accelerator *accelerator = builtinHardwareCatalog().find(accelerator_id))
            run.scenario.cluster.accelerator = *accelerator;
        else
            reader.addProblem("accelerator", "unknown",
                              reader.fieldPath("accelerator") + ": '" + accelerator_id
                                  + "' is not in the hardware catalog");
    }
    reader.readCount("gpus", run.scenario.cluster.gpus);
    reader.readCount("gpus_per_node", run.scenario.cluster.gpus_per_node);
    reader.readString("links", run.links);
    reader.readOptionalAmount("intra_node_gbps_per_gpu", run.intra_node_gbps_per_gpu);
    reader.readOptionalAmount("inter_node_gbps_per_gpu", run.inter_node_gbps_per_gpu);
}

void readTraining(const QJsonObject &object, const std::string &path, PublishedRun &run, Problems &problems)
{
    JsonFieldReader reader(object, path, problems);
    TrainingConfig &training = run.scenario.training;
    PrecisionRecipe recipe = PrecisionRecipe::FP16Mixed;
    reader.readEnum("precision", recipe, &precisionRecipeFromString, precisionRecipeChoices());
    training.precision = precisionForRecipe(recipe);
    // Megatron-LM of 2021/22 trained with Adam, without FlashAttention, with dropout (whose masks
    // Korthikanti et al. count as activations): what a run that does not say otherwise gets.
    training.optimizer = Optimizer::Adam;
    training.flash_attention = false;
    training.dropout = true;
    training.attention_flops = AttentionFlops::Full;
    reader.readEnum("optimizer", training.optimizer, &optimizerFromString, optimizerChoices());
    reader.readBool("flash_attention", training.flash_attention);
    reader.readEnum("attention_kernel", training.attention_kernel, &attentionKernelFromString, "flash2|flash3");
    reader.readBool("fused_elementwise", training.fused_elementwise);
    reader.readBool("dropout", training.dropout);
    ParallelConfig &parallel = training.parallel;
    reader.readCount("tp", parallel.tp);
    reader.readCount("pp", parallel.pp);
    reader.readCount("dp", parallel.dp);
    reader.readCount("cp", parallel.cp);
    reader.readCountList("stage_layers", parallel.stage_layers);
    reader.readBool("dp_param_gather_overlap", parallel.dp_param_gather_overlap);
    reader.readBool("tp_comm_overlap", parallel.tp_comm_overlap);
    reader.readBool("pp_comm_overlap", parallel.pp_comm_overlap);
    reader.readCount("virtual_stages", parallel.virtual_stages);
    reader.readCount("zero_stage", parallel.zero_stage);
    reader.readBool("sequence_parallel", parallel.sequence_parallel);
    // PyTorch DDP (--DDP-impl torch) reduces gradient buckets during backward; Megatron-LM's own
    // LocalDDP (--DDP-impl local) all-reduces them after it.
    reader.readBool("dp_overlap", parallel.dp_overlap);
    reader.readBool("distributed_optimizer", run.distributed_optimizer);
    reader.readCount("micro_batch", training.micro_batch);
    reader.readCount("global_batch", training.global_batch);
    reader.readCount("seq_len", training.seq_len);
    reader.readEnum("recomputation", training.recomputation, &recomputationFromString, "none|selective|full");
    // The runs are throughput benchmarks: one iteration's tokens make the scenario complete.
    training.tokens = training.global_batch * training.seq_len;
}

void readPublished(const QJsonObject &object, const std::string &path, PublishedFigures &figures, Problems &problems)
{
    JsonFieldReader reader(object, path, problems);
    reader.readOptionalAmount("iteration_time_seconds", figures.iteration_time_seconds);
    reader.readOptionalAmount("tflops_per_gpu", figures.tflops_per_gpu);
    reader.readOptionalAmount("percent_of_peak", figures.percent_of_peak);
    reader.readOptionalAmount("mfu_percent", figures.mfu_percent);
    reader.readOptionalAmount("hfu_percent", figures.hfu_percent);
    reader.readOptionalAmount("aggregate_pflops", figures.aggregate_pflops);
    reader.readOptionalAmount("peak_tflops_per_gpu", figures.peak_tflops_per_gpu);
    reader.readOptionalAmount("tokens_per_second", figures.tokens_per_second);
    reader.readOptionalAmount("tokens_per_second_per_gpu", figures.tokens_per_second_per_gpu);
}

void readConvention(const QJsonObject &object, const std::string &path, PublishedRun &run, Problems &problems)
{
    JsonFieldReader reader(object, path, problems);
    if (!reader.has("id"))
        reader.addProblem("id", "required", reader.fieldPath("id") + " is missing; expected " + flopConventionChoices());
    reader.readEnum("id", run.flop_convention, &flopConventionFromString, flopConventionChoices());
    readRequiredString(reader, "definition", run.flop_convention_definition);
}

// A run's time must be printed or convertible, by the figure its convention names: the printed time,
// a throughput in tokens per second, or a TFLOP/s per GPU under a FLOP formula.
void checkTimeAvailable(const PublishedRun &run, const std::string &row, Problems &problems)
{
    const PublishedFigures &figures = run.published;
    const auto positive = [&](const char *key, const std::optional<double> &value, const std::string &what) {
        const std::string field = row + ".published." + key;
        if (!value)
            problems.push_back({field, "required",
                                field + " is required by flop_convention.id " + std::string(toString(run.flop_convention))
                                    + " (" + what + ")"});
        else if (*value <= 0)
            problems.push_back({field, "positive", field + " must be greater than 0"});
    };
    switch (run.flop_convention) {
    case FlopConvention::PrintedTime:
        positive("iteration_time_seconds", figures.iteration_time_seconds, "the printed iteration time");
        return;
    case FlopConvention::TokensPerSecond:
        if (!figures.tokens_per_second_per_gpu)
            positive("tokens_per_second", figures.tokens_per_second, "or tokens_per_second_per_gpu");
        else
            positive("tokens_per_second_per_gpu", figures.tokens_per_second_per_gpu, "the printed throughput");
        return;
    case FlopConvention::NarayananEq3:
    case FlopConvention::KorthikantiSec6:
    case FlopConvention::PalmAppendixB:
        if (figures.iteration_time_seconds) {
            positive("iteration_time_seconds", figures.iteration_time_seconds, "the printed iteration time");
            return;
        }
        if (!figures.tflops_per_gpu) {
            problems.push_back({row + ".published.iteration_time_seconds", "required",
                                row + ".published gives neither iteration_time_seconds nor tflops_per_gpu",
                                {row + ".published.tflops_per_gpu"}});
            return;
        }
        positive("tflops_per_gpu", figures.tflops_per_gpu, "the printed TFLOP/s per GPU");
        return;
    }
}

std::optional<PublishedRun> readRun(const QJsonObject &object, int index, Problems &problems)
{
    const std::string row = runPath(index);
    const std::size_t first = problems.size();
    PublishedRun run;
    JsonFieldReader reader(object, row, problems);
    readRequiredString(reader, "id", run.id);
    readRequiredString(reader, "name", run.name);
    readRequiredString(reader, "source", run.source);
    reader.readString("paper", run.paper);
    if (run.paper.empty())
        run.paper = paperOfSource(run.source);
    readRequiredString(reader, "source_locator", run.source_locator);
    readRequiredString(reader, "verification", run.verification);
    reader.readString("note", run.note);
    reader.readCount("year", run.year);

    if (const std::optional<QJsonObject> model = readRequiredObject(reader, "model")) {
        Result<ModelConfig> parsed = modelFromJson(*model, row + ".model");
        if (parsed)
            run.scenario.model = parsed.value();
        else
            problems.insert(problems.end(), parsed.problems().begin(), parsed.problems().end());
    }
    if (const std::optional<QJsonObject> cluster = readRequiredObject(reader, "cluster"))
        readCluster(*cluster, row + ".cluster", run, problems);
    if (const std::optional<QJsonObject> training = readRequiredObject(reader, "training"))
        readTraining(*training, row + ".training", run, problems);
    if (const std::optional<QJsonObject> published = readRequiredObject(reader, "published"))
        readPublished(*published, row + ".published", run.published, problems);
    if (const std::optional<QJsonObject> convention = readRequiredObject(reader, "flop_convention"))
        readConvention(*convention, row + ".flop_convention", run, problems);

    if (problems.size() == first) {
        checkTimeAvailable(run, row, problems);
        for (const Problem &problem : validate(run.scenario))
            problems.push_back(inRun(problem, row));
    }
    nameRun(problems, first, run.id);
    if (problems.size() != first)
        return std::nullopt;
    return run;
}

std::vector<PublishedRun> loadBuiltinRuns()
{
    QFile file(QString::fromLatin1(kBuiltinRunsPath));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read the built-in published runs %s", kBuiltinRunsPath);
    Result<std::vector<PublishedRun>> runs = parsePublishedRuns(file.readAll());
    if (!runs)
        qFatal("the built-in published runs are broken:\n%s", formatProblems(runs.problems()).c_str());
    return std::move(runs.value());
}

}  // namespace

std::string paperOfSource(const std::string &source)
{
    static const std::regex author_et_al_year(R"(^\s*(\S.*? et al\.,? (19|20)\d\d)\b)");
    std::smatch match;
    if (std::regex_search(source, match, author_et_al_year))
        return match[1].str();
    return source;
}

// Chowdhery et al. 2022 Appendix B: the model's matmul FLOPs of forward and backward with the full
// s² attention and no recomputation, which is the engine's model FLOP count (cost/flops.cpp).
static double palmModelFlopsPerIteration(const Scenario &scenario)
{
    Scenario full = scenario;
    full.training.attention_flops = AttentionFlops::Full;
    full.training.recomputation = Recomputation::None;
    const Result<Estimate> estimated = estimate(full);
    if (!estimated)
        return 0;
    return estimated->flops.train_per_token * double(scenario.training.global_batch) * double(scenario.training.seq_len);
}

GptFlopShape PublishedRun::flopShape() const
{
    return GptFlopShape{scenario.training.global_batch, scenario.training.seq_len, scenario.model.n_layers,
                        scenario.model.d_model, scenario.model.vocab_size};
}

double PublishedRun::publishedIterationSeconds() const
{
    const double tokens_per_step = double(scenario.training.global_batch) * double(scenario.training.seq_len);
    switch (flop_convention) {
    case FlopConvention::TokensPerSecond:
        return published.tokens_per_second_per_gpu
            ? tokens_per_step / (*published.tokens_per_second_per_gpu * double(scenario.cluster.gpus))
            : tokens_per_step / published.tokens_per_second.value_or(0.0);
    case FlopConvention::PrintedTime:
        return published.iteration_time_seconds.value_or(0.0);
    default:
        break;
    }
    if (published.iteration_time_seconds)
        return *published.iteration_time_seconds;
    // parsePublishedRuns has checked that a TFLOP/s is printed.
    double flops = 0;
    switch (flop_convention) {
    case FlopConvention::NarayananEq3: flops = narayananEq3FlopsPerIteration(flopShape()); break;
    case FlopConvention::KorthikantiSec6: flops = korthikantiModelFlopsPerIteration(flopShape()); break;
    case FlopConvention::PalmAppendixB: flops = palmModelFlopsPerIteration(scenario); break;
    default: break;
    }
    return iterationSecondsFromTflopsPerGpu(flops, scenario.cluster.gpus, published.tflops_per_gpu.value_or(0.0));
}

Result<std::vector<PublishedRun>> parsePublishedRuns(const QByteArray &json)
{
    Problems problems;
    const std::optional<QJsonObject> root = parseFormattedJson(json, kRunsFormat, kRunsVersion, problems);
    if (!root)
        return problems;
    const QJsonValue runs_value = root->value(QStringLiteral("runs"));
    if (!runs_value.isArray())
        return Result<std::vector<PublishedRun>>::failure(
            "runs", runs_value.isUndefined() ? "required" : "type", "runs must be an array of run objects");
    const QJsonArray runs_array = runs_value.toArray();
    std::vector<PublishedRun> runs;
    std::vector<std::string> ids;
    for (int index = 0; index < runs_array.size(); ++index) {
        const QJsonValue value = runs_array.at(index);
        if (!value.isObject()) {
            problems.push_back({runPath(index), "type", runPath(index) + " must be an object"});
            continue;
        }
        if (std::optional<PublishedRun> run = readRun(value.toObject(), index, problems)) {
            if (std::find(ids.begin(), ids.end(), run->id) != ids.end())
                problems.push_back({runPath(index) + ".id", "unique",
                                    runPath(index) + ".id '" + run->id + "' appears twice"});
            ids.push_back(run->id);
            runs.push_back(std::move(*run));
        }
    }
    if (!problems.empty())
        return problems;
    return runs;
}

const std::vector<PublishedRun> &builtinPublishedRuns()
{
    static const std::vector<PublishedRun> runs = loadBuiltinRuns();
    return runs;
}

}  // namespace lse
