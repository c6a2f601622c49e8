// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli infer`: serving one model (core/inference): time to first token, time per output
// token, throughput, memory per GPU and the largest batch, MBU/MFU, cost, the latency's parts,
// speculative decoding, and the latency–throughput curve over the batch.

#include "commands.h"
#include "output.h"
#include "scenario_options.h"

#include "inference/serving_model.h"
#include "scenario/hf_import.h"
#include "scenario/presets.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <string>
#include <utility>

namespace lse::cli {

namespace {

using namespace lse::inference;

QString qstr(const std::string &text) { return QString::fromStdString(text); }
QString qstr(std::string_view text) { return QString::fromUtf8(text.data(), qsizetype(text.size())); }

void addInferOptions(QCommandLineParser &parser)
{
    parser.addOption(QCommandLineOption("batch", "Concurrent sequences per model replica (a static batch; default 1).", "B"));
    parser.addOption(QCommandLineOption("prompt-tokens", "Prompt length in tokens (default 512).", "I"));
    parser.addOption(QCommandLineOption("output-tokens", "Generated tokens per sequence (default 128).", "O"));
    parser.addOption(QCommandLineOption("weights", "Weight format; int4 stores one fp16 scale per 128 weights "
                                                   "(default: the scenario's weight dtype).", "fp16|bf16|fp8|int8|int4"));
    parser.addOption(QCommandLineOption("kv-cache", "KV-cache format (default: the scenario's).", "fp16|bf16|fp8|int8"));
    parser.addOption(QCommandLineOption("activations", "Activation format; fp8 or int8 with 8-bit weights runs the "
                                                       "matmuls at the 8-bit peak (default: the scenario's).",
                                        "fp16|bf16|fp8|int8"));
    parser.addOption(QCommandLineOption("decode-attention",
                                        "How the decode attention kernel reads the KV cache: once per KV head (grouped: "
                                        "vLLM, FlashDecoding, TensorRT-LLM XQA; default) or once per query head "
                                        "(per-query-head: FasterTransformer, TensorRT-LLM masked MHA up to v0.6).",
                                        "grouped|per-query-head"));
    parser.addOption(QCommandLineOption("draft-model", "Speculative decoding (Leviathan et al. 2023): the draft model, a "
                                                       "preset id or a config.json, on the same GPUs.", "ID|CFG"));
    parser.addOption(QCommandLineOption("draft-tokens", "Tokens the draft proposes per target step, gamma (default 4).", "K"));
    parser.addOption(QCommandLineOption("acceptance", "Probability the target accepts a drafted token, alpha in [0, 1] "
                                                      "(default 0.8).", "A"));
    parser.addOption(QCommandLineOption("sweep", "batch: one row per batch, 1, 2, 4, ... up to the largest that fits "
                                                 "(the latency-throughput curve).", "batch"));
    parser.addOption(QCommandLineOption("json", "Print one JSON object (fields: docs/file-formats.md, \"JSON output\")."));
}

Problem flagProblem(const char *flag, const char *rule, const std::string &message)
{
    return Problem{std::string("--") + flag, rule, std::string("--") + flag + " " + message};
}

// A count flag of at least `minimum`.
void readCount(const QCommandLineParser &parser, const char *flag, std::int64_t minimum, std::int64_t maximum,
               std::int64_t &target, Problems &problems)
{
    if (!parser.isSet(flag))
        return;
    const std::optional<std::int64_t> value = parseCount(parser.value(flag));
    if (value && *value >= minimum && *value <= maximum)
        target = *value;
    else
        problems.push_back(flagProblem(flag, "range",
                                       "must be a whole number from " + std::to_string(minimum) + " to "
                                           + std::to_string(maximum) + ", got '" + parser.value(flag).toStdString() + "'"));
}

void readFormat(const QCommandLineParser &parser, const char *flag, bool int4_allowed, ServingFormat &target,
                Problems &problems)
{
    if (!parser.isSet(flag))
        return;
    const std::optional<ServingFormat> format = servingFormatFromString(parser.value(flag).toLower().toStdString());
    if (!format || (*format == ServingFormat::INT4 && !int4_allowed))
        problems.push_back(flagProblem(flag, "choice",
                                       "must be " + servingFormatChoices(int4_allowed) + ", got '"
                                           + parser.value(flag).toStdString() + "'"
                                           + (format ? " (int4 is a weight-only format)" : "")));
    else
        target = *format;
}

std::optional<ModelConfig> readModel(const QString &value, const char *flag, Problems &problems)
{
    if (const ModelPreset *preset = findModelPreset(value.toStdString()))
        return preset->model;
    if (QFileInfo(value).isFile()) {
        Result<ModelConfig> imported = loadHuggingFaceConfigFile(value.toStdString());
        if (imported)
            return *imported;
        for (Problem problem : imported.problems()) {
            problem.field = std::string("--") + flag + " " + problem.field;
            problems.push_back(problem);
        }
        return std::nullopt;
    }
    problems.push_back(flagProblem(flag, "unknown",
                                   "'" + value.toStdString()
                                       + "' is neither a preset id (see 'llm-explorer-cli presets') nor a config.json file"));
    return std::nullopt;
}

// The core's field names as the flags that set them.
Problems nameInferFlags(Problems problems)
{
    const std::pair<const char *, const char *> flagFields[] = {
        {"inference.tp", "--tp"},
        {"inference.pp", "--pp"},
        {"inference.replicas", "--gpus"},
        {"inference.batch", "--batch"},
        {"inference.prompt_tokens", "--prompt-tokens"},
        {"inference.output_tokens", "--output-tokens"},
        {"inference.weights", "--weights"},
        {"inference.activations", "--activations"},
        {"inference.kv_cache", "--kv-cache"},
        {"inference.draft_tokens", "--draft-tokens"},
        {"inference.acceptance", "--acceptance"},
        {"inference.draft_model", "--draft-model"},
    };
    for (Problem &problem : problems)
        for (const auto &[field, flag] : flagFields)
            if (problem.field.rfind(field, 0) == 0) {
                problem.field = std::string(flag) + " (" + problem.field + ")";
                break;
            }
    return problems;
}

QJsonObject operatorJson(const ServingOperator &op)
{
    return QJsonObject{{"name", qstr(op.name)},
                       {"component", qstr(toString(op.component))},
                       {"shape", qstr(op.shape)},
                       {"count", op.count},
                       {"weight_matmul", op.weight_matmul},
                       {"attention", op.attention},
                       {"flops", op.flops},
                       {"bytes", op.bytes},
                       {"intensity", op.intensity_flop_per_byte},
                       {"peak_flops_per_s", op.peak_flops_per_second},
                       {"roofline_bound", qstr(toString(op.roofline_bound))},
                       {"compute_seconds", op.compute_seconds},
                       {"memory_seconds", op.memory_seconds},
                       {"seconds", op.seconds},
                       {"bound", qstr(toString(op.bound))},
                       {"share", op.share}};
}

QJsonObject reportJson(const ServingReport &report)
{
    const ServingInputs &inputs = report.inputs;
    QJsonObject object;
    object.insert("model", qstr(inputs.scenario.model.name));
    object.insert("accelerator", qstr(inputs.scenario.cluster.accelerator.id));
    object.insert("gpus", report.gpus);
    object.insert("tp", inputs.tp);
    object.insert("pp", inputs.pp);
    object.insert("replicas", inputs.replicas);
    object.insert("batch", double(inputs.batch));
    object.insert("prompt_tokens", double(inputs.prompt_tokens));
    object.insert("output_tokens", double(inputs.output_tokens));
    object.insert("formats", QJsonObject{{"weights", qstr(toString(inputs.weights))},
                                         {"activations", qstr(toString(inputs.activations))},
                                         {"kv_cache", qstr(toString(inputs.kv_cache))},
                                         {"compute", qstr(toString(report.compute_format))},
                                         {"weight_bytes_per_parameter", weightBytesPerElement(inputs.weights)}});
    object.insert("flash_attention", inputs.flash_attention);
    object.insert("decode_attention", inputs.kv_cache_read_per_query_head ? "per-query-head" : "grouped");
    object.insert("peak_flops_per_s", report.peak_flops_per_second);
    object.insert("memory_bandwidth_bytes_per_s", report.memory_bandwidth_bytes_per_second);
    object.insert("micro_batches", report.micro_batches);
    object.insert("micro_batch", double(report.micro_batch));
    object.insert("ttft_seconds", report.ttft_seconds);
    object.insert("tpot_seconds", report.tpot_seconds);
    object.insert("decode_seconds", report.decode_seconds);
    object.insert("end_to_end_seconds", report.end_to_end_seconds);
    object.insert("output_tokens_per_second", report.output_tokens_per_second);
    object.insert("output_tokens_per_second_per_gpu", report.output_tokens_per_second_per_gpu);
    object.insert("total_tokens_per_second", report.total_tokens_per_second);
    object.insert("total_tokens_per_second_per_gpu", report.total_tokens_per_second_per_gpu);
    object.insert("mbu", report.mbu);
    object.insert("mfu", report.mfu);
    object.insert("cost_per_million_output_tokens", report.cost_per_million_output_tokens);
    object.insert("price_per_gpu_hour", inputs.scenario.cluster.price_per_gpu_hour);
    object.insert("max_batch", double(report.max_batch));
    object.insert("decode_crossover_batch", double(report.decode_crossover_batch));
    const ServingMemory &memory = report.memory;
    object.insert("memory_per_gpu", QJsonObject{{"weights", memory.weights_bytes},
                                                {"kv_cache", memory.kv_cache_bytes},
                                                {"activations", memory.activation_bytes},
                                                {"reserve", memory.reserve_bytes},
                                                {"total", memory.total_bytes},
                                                {"capacity", memory.capacity_bytes},
                                                {"fits", memory.fits},
                                                {"kv_cache_per_token", memory.kv_cache_bytes_per_token}});
    QJsonObject breakdown;
    QJsonArray parts;
    for (const ServingPart &part : report.breakdown) {
        breakdown.insert(qstr(part.key), part.seconds);
        parts.append(QJsonObject{{"key", qstr(part.key)},
                                 {"label", qstr(part.label)},
                                 {"seconds", part.seconds},
                                 {"formula", qstr(part.formula)},
                                 {"source", qstr(part.source)}});
    }
    object.insert("breakdown", breakdown);
    object.insert("breakdown_parts", parts);
    QJsonArray steps;
    for (const ContextTime &step : report.decode_steps)
        steps.append(QJsonObject{{"context_tokens", double(step.context_tokens)}, {"seconds", step.seconds}});
    QJsonArray prefill_ops, decode_ops;
    for (const ServingOperator &op : report.prefill_operators)
        prefill_ops.append(operatorJson(op));
    for (const ServingOperator &op : report.decode_operators)
        decode_ops.append(operatorJson(op));
    object.insert("prefill", QJsonObject{{"seconds", report.ttft_seconds}, {"operators", prefill_ops}});
    object.insert("decode", QJsonObject{{"seconds", report.decode_seconds},
                                        {"tpot_seconds", report.tpot_seconds},
                                        {"steps", steps},
                                        {"operators", decode_ops}});
    const ServingFactors &factors = report.factors;
    object.insert("factors", QJsonObject{{"accelerator", qstr(factors.accelerator)},
                                         {"precision", qstr(factors.precision)},
                                         {"calibrated", factors.calibrated},
                                         {"compute_fraction", factors.compute_fraction},
                                         {"bandwidth_fraction", factors.bandwidth_fraction},
                                         {"kernel_launch_seconds", factors.kernel_launch_seconds},
                                         {"host_step_seconds", factors.host_step_seconds},
                                         {"source", qstr(factors.source)}});
    if (report.speculative) {
        const SpeculativeReport &speculative = *report.speculative;
        object.insert("speculative", QJsonObject{{"draft_model", qstr(speculative.draft_model)},
                                                 {"draft_tokens", speculative.draft_tokens},
                                                 {"acceptance", speculative.acceptance},
                                                 {"expected_tokens_per_step", speculative.expected_tokens_per_step},
                                                 {"draft_tpot_seconds", speculative.draft_tpot_seconds},
                                                 {"target_tpot_seconds", speculative.target_tpot_seconds},
                                                 {"cost_coefficient", speculative.cost_coefficient},
                                                 {"speedup", speculative.speedup},
                                                 {"tpot_seconds", speculative.tpot_seconds},
                                                 {"end_to_end_seconds", speculative.end_to_end_seconds}});
    }
    return object;
}

QString percent(double fraction) { return QString::number(100 * fraction, 'f', 1) + QStringLiteral(" %"); }

void printOperators(const char *title, const std::vector<ServingOperator> &ops)
{
    int width = 8;
    for (const ServingOperator &op : ops)
        width = std::max(width, int(op.name.size()));
    printOut(QStringLiteral("\n%1 (one GPU's share):\n").arg(QLatin1String(title)));
    printOut(QStringLiteral("  %1 %2 %3 %4 %5 %6 %7\n")
                 .arg(QStringLiteral("operator"), -width)
                 .arg(QStringLiteral("count"), 5)
                 .arg(QStringLiteral("FLOPs"), 10)
                 .arg(QStringLiteral("bytes"), 10)
                 .arg(QStringLiteral("bound"), 8)
                 .arg(QStringLiteral("time"), 10)
                 .arg(QStringLiteral("share"), 7));
    for (const ServingOperator &op : ops)
        printOut(QStringLiteral("  %1 %2 %3 %4 %5 %6 %7\n")
                     .arg(qstr(op.name), -width)
                     .arg(op.count, 5)
                     .arg(formatCount(op.flops), 10)
                     .arg(formatBytes(op.bytes), 10)
                     .arg(qstr(toString(op.bound)), 8)
                     .arg(formatSeconds(op.seconds), 10)
                     .arg(percent(op.share), 7));
}

void printReport(const ServingReport &report)
{
    const ServingInputs &inputs = report.inputs;
    const auto line = [](const QString &label, const QString &value) {
        printOut(QStringLiteral("%1 %2\n").arg(label, -34).arg(value));
    };
    printOut(QStringLiteral("Serving %1 on %2 x %3 (tp %4, pp %5, %6 replica%7): batch %8, %9 prompt + %10 output tokens\n")
                 .arg(qstr(inputs.scenario.model.name))
                 .arg(report.gpus)
                 .arg(qstr(inputs.scenario.cluster.accelerator.name))
                 .arg(inputs.tp)
                 .arg(inputs.pp)
                 .arg(inputs.replicas)
                 .arg(inputs.replicas == 1 ? "" : "s")
                 .arg(inputs.batch)
                 .arg(inputs.prompt_tokens)
                 .arg(inputs.output_tokens));
    printOut(QStringLiteral("weights %1 (%2 bytes per parameter), activations %3, KV cache %4; matmuls at the %5 peak; "
                            "FlashAttention %6\n\n")
                 .arg(qstr(toString(inputs.weights)))
                 .arg(weightBytesPerElement(inputs.weights), 0, 'g', 6)
                 .arg(qstr(toString(inputs.activations)), qstr(toString(inputs.kv_cache)),
                      qstr(toString(report.compute_format)), inputs.flash_attention ? "on" : "off"));
    line(QStringLiteral("time to first token (prefill)"), formatSeconds(report.ttft_seconds));
    line(QStringLiteral("time per output token (mean)"), formatSeconds(report.tpot_seconds));
    line(QStringLiteral("decode"), formatSeconds(report.decode_seconds));
    line(QStringLiteral("end to end"), formatSeconds(report.end_to_end_seconds));
    line(QStringLiteral("output tokens/s"), QStringLiteral("%1 (%2 per GPU)")
                                                .arg(formatCount(report.output_tokens_per_second),
                                                     formatCount(report.output_tokens_per_second_per_gpu)));
    line(QStringLiteral("total tokens/s (prompt + output)"), QStringLiteral("%1 (%2 per GPU)")
                                                                 .arg(formatCount(report.total_tokens_per_second),
                                                                      formatCount(report.total_tokens_per_second_per_gpu)));
    line(QStringLiteral("MBU (decode)"), percent(report.mbu));
    line(QStringLiteral("MFU"), percent(report.mfu));
    line(QStringLiteral("cost per million output tokens"),
         QStringLiteral("%1 at %2 per GPU-hour")
             .arg(report.cost_per_million_output_tokens, 0, 'f', 3)
             .arg(inputs.scenario.cluster.price_per_gpu_hour, 0, 'g', 4));
    const ServingMemory &memory = report.memory;
    line(QStringLiteral("memory per GPU"),
         QStringLiteral("%1 of %2 (%3): weights %4, KV cache %5, workspace %6, reserve %7")
             .arg(formatBytes(memory.total_bytes), formatBytes(memory.capacity_bytes),
                  memory.fits ? QStringLiteral("fits") : QStringLiteral("DOES NOT FIT"), formatBytes(memory.weights_bytes),
                  formatBytes(memory.kv_cache_bytes), formatBytes(memory.activation_bytes), formatBytes(memory.reserve_bytes)));
    line(QStringLiteral("largest batch that fits"), QString::number(report.max_batch));
    line(QStringLiteral("decode crossover batch"),
         report.decode_crossover_batch > 0
             ? QStringLiteral("%1 (decode weight matmuls compute-bound from here)").arg(report.decode_crossover_batch)
             : QStringLiteral("none up to 2^24"));
    line(QStringLiteral("serving factors"),
         QStringLiteral("compute %1, bandwidth %2, kernel launch %3, host step %4 (%5)")
             .arg(report.factors.compute_fraction, 0, 'f', 3)
             .arg(report.factors.bandwidth_fraction, 0, 'f', 3)
             .arg(formatSeconds(report.factors.kernel_launch_seconds), formatSeconds(report.factors.host_step_seconds),
                  report.factors.calibrated ? QStringLiteral("fitted") : QStringLiteral("not calibrated")));
    if (report.speculative) {
        const SpeculativeReport &s = *report.speculative;
        line(QStringLiteral("speculative decoding"),
             QStringLiteral("draft %1, gamma %2, alpha %3: %4 tokens per target step, c = %5, speedup %6x, TPOT %7")
                 .arg(qstr(s.draft_model))
                 .arg(s.draft_tokens)
                 .arg(s.acceptance, 0, 'g', 3)
                 .arg(s.expected_tokens_per_step, 0, 'f', 2)
                 .arg(s.cost_coefficient, 0, 'f', 3)
                 .arg(s.speedup, 0, 'f', 2)
                 .arg(formatSeconds(s.tpot_seconds)));
    }
    printOut(QStringLiteral("\nwhere the end-to-end time goes:\n"));
    for (const ServingPart &part : report.breakdown)
        if (part.seconds > 0)
            printOut(QStringLiteral("  %1 %2 %3\n")
                         .arg(qstr(part.label), -52)
                         .arg(formatSeconds(part.seconds), 10)
                         .arg(percent(part.seconds / report.end_to_end_seconds), 7));
    printOperators("prefill operators", report.prefill_operators);
    printOperators("decode operators, one step at the mean context", report.decode_operators);
}

QJsonObject sweepJson(const BatchSweep &sweep)
{
    QJsonArray rows;
    for (const SweepRow &row : sweep.rows)
        rows.append(QJsonObject{{"batch", double(row.batch)},
                                {"ttft_seconds", row.ttft_seconds},
                                {"tpot_seconds", row.tpot_seconds},
                                {"end_to_end_seconds", row.end_to_end_seconds},
                                {"output_tokens_per_second", row.output_tokens_per_second},
                                {"output_tokens_per_second_per_gpu", row.output_tokens_per_second_per_gpu},
                                {"memory_total_bytes", row.memory_total_bytes},
                                {"mbu", row.mbu},
                                {"mfu", row.mfu},
                                {"decode_compute_bound", row.decode_compute_bound}});
    return QJsonObject{{"sweep", rows},
                       {"max_batch", double(sweep.max_batch)},
                       {"decode_crossover_batch", double(sweep.decode_crossover_batch)}};
}

void printSweep(const BatchSweep &sweep)
{
    printOut(QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8\n")
                 .arg(QStringLiteral("batch"), 8)
                 .arg(QStringLiteral("TTFT"), 10)
                 .arg(QStringLiteral("TPOT"), 10)
                 .arg(QStringLiteral("end to end"), 11)
                 .arg(QStringLiteral("out tok/s"), 10)
                 .arg(QStringLiteral("per GPU"), 10)
                 .arg(QStringLiteral("memory"), 10)
                 .arg(QStringLiteral("decode")));
    for (const SweepRow &row : sweep.rows)
        printOut(QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8\n")
                     .arg(row.batch, 8)
                     .arg(formatSeconds(row.ttft_seconds), 10)
                     .arg(formatSeconds(row.tpot_seconds), 10)
                     .arg(formatSeconds(row.end_to_end_seconds), 11)
                     .arg(formatCount(row.output_tokens_per_second), 10)
                     .arg(formatCount(row.output_tokens_per_second_per_gpu), 10)
                     .arg(formatBytes(row.memory_total_bytes), 10)
                     .arg(row.decode_compute_bound ? QStringLiteral("compute-bound") : QStringLiteral("memory-bound")));
    printOut(QStringLiteral("largest batch that fits: %1; decode weight matmuls compute-bound from batch %2\n")
                 .arg(sweep.max_batch)
                 .arg(sweep.decode_crossover_batch));
}

}  // namespace

int runInfer(const QStringList &arguments)
{
    const auto makeParser = [](QCommandLineParser &parser, const QCommandLineOption &help) {
        parser.setApplicationDescription(QStringLiteral(
            "Serve one model: prefill (time to first token), decode against the KV cache (time per output token),\n"
            "throughput, MBU and MFU, memory per GPU and the largest batch, cost per million output tokens, and\n"
            "where the time goes. FLOPs and bytes are the roofline's prefill/decode operators at the serving\n"
            "formats; times use the accelerator's serving factors fitted on published TensorRT-LLM and\n"
            "FasterTransformer measurements ('validate --serving'). --gpus sets replicas of tp x pp GPUs each.\n"
            "Without --scenario, tp and pp default to 1 and --gpus to tp x pp."));
        parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
        parser.addOption(help);
        addScenarioOptions(parser);
        addInferOptions(parser);
    };
    const QCommandLineOption help(QStringList{"h", "help"}, QStringLiteral("Show this help."));
    QCommandLineParser first;
    makeParser(first, help);
    if (!first.parse(QStringList{"infer"} + arguments))
        return reportProblems({Problem{"arguments", "syntax", first.errorText().toStdString()}});
    if (first.isSet(help)) {
        printOut(QStringLiteral("Usage: llm-explorer-cli infer [options]\n") + first.helpText().section('\n', 1));
        return kExitOk;
    }
    if (!first.positionalArguments().isEmpty())
        return reportProblems({Problem{"arguments", "unexpected",
                                       "unexpected argument '" + first.positionalArguments().front().toStdString()
                                           + "'; options start with --"}});

    // Serving defaults: without a scenario file one replica of tp = pp = 1 unless the flags say
    // otherwise; the scenario's training layout (dp, its 1024 GPUs) means nothing here.
    QStringList effective = arguments;
    Problems problems;
    std::int64_t tp = 1, pp = 1;
    readCount(first, "tp", 1, 1024, tp, problems);
    readCount(first, "pp", 1, 1024, pp, problems);
    if (!problems.empty())
        return reportProblems(problems);
    if (!first.isSet("scenario")) {
        if (!first.isSet("tp"))
            effective << QStringLiteral("--tp") << QStringLiteral("1");
        if (!first.isSet("pp"))
            effective << QStringLiteral("--pp") << QStringLiteral("1");
        std::int64_t gpus = tp * pp;
        if (first.isSet("gpus")) {
            const std::optional<std::int64_t> given = parseCount(first.value("gpus"));
            if (!given || *given < 1 || *given % (tp * pp) != 0)
                return reportProblems({flagProblem("gpus", "replicas",
                                                   "must be a multiple of tp x pp = " + std::to_string(tp * pp)
                                                       + " (each replica of the model takes tp x pp GPUs), got '"
                                                       + first.value("gpus").toStdString() + "'")});
            gpus = *given;
        } else {
            effective << QStringLiteral("--gpus") << QString::number(gpus);
        }
        if (!first.isSet("dp"))
            effective << QStringLiteral("--dp") << QString::number(gpus / (tp * pp));
        if (!first.isSet("cp"))
            effective << QStringLiteral("--cp") << QStringLiteral("1");
        if (!first.isSet("ep"))
            effective << QStringLiteral("--ep") << QStringLiteral("1");
        if (!first.isSet("virtual-stages"))
            effective << QStringLiteral("--virtual-stages") << QStringLiteral("1");
    }
    QCommandLineParser parser;
    makeParser(parser, help);
    if (!parser.parse(QStringList{"infer"} + effective))
        return reportProblems({Problem{"arguments", "syntax", parser.errorText().toStdString()}});

    std::vector<std::string> adjustments;
    const Result<Scenario> scenario = scenarioFromOptions(parser, &adjustments);
    if (!scenario)
        return reportProblems(scenario.problems());

    ServingInputs inputs = servingInputsFor(*scenario);
    inputs.batch = 1;
    inputs.prompt_tokens = 512;
    inputs.output_tokens = 128;
    readCount(parser, "batch", 1, 10'000'000, inputs.batch, problems);
    readCount(parser, "prompt-tokens", 1, 10'000'000, inputs.prompt_tokens, problems);
    readCount(parser, "output-tokens", 1, 10'000'000, inputs.output_tokens, problems);
    readFormat(parser, "weights", true, inputs.weights, problems);
    readFormat(parser, "kv-cache", false, inputs.kv_cache, problems);
    readFormat(parser, "activations", false, inputs.activations, problems);
    if (parser.isSet("decode-attention")) {
        const QString value = parser.value("decode-attention").toLower();
        if (value == "grouped" || value == "per-query-head")
            inputs.kv_cache_read_per_query_head = value == "per-query-head";
        else
            problems.push_back(flagProblem("decode-attention", "choice",
                                           "must be grouped or per-query-head, got '" + value.toStdString() + "'"));
    }
    if (parser.isSet("draft-model")) {
        SpeculativeInputs speculative;
        if (std::optional<ModelConfig> draft = readModel(parser.value("draft-model"), "draft-model", problems))
            speculative.draft_model = *draft;
        std::int64_t draft_tokens = speculative.draft_tokens;
        readCount(parser, "draft-tokens", 1, 64, draft_tokens, problems);
        speculative.draft_tokens = int(draft_tokens);
        if (parser.isSet("acceptance")) {
            const std::optional<double> acceptance = parseNumber(parser.value("acceptance"));
            if (acceptance && *acceptance >= 0 && *acceptance <= 1)
                speculative.acceptance = *acceptance;
            else
                problems.push_back(flagProblem("acceptance", "range",
                                               "is a probability: it must be a number from 0 to 1, got '"
                                                   + parser.value("acceptance").toStdString() + "'"));
        }
        inputs.speculative = speculative;
    } else {
        for (const char *flag : {"draft-tokens", "acceptance"})
            if (parser.isSet(flag))
                problems.push_back(flagProblem(flag, "needs_draft",
                                               "needs --draft-model (speculative decoding needs a draft model)"));
    }
    const bool sweep = parser.isSet("sweep");
    if (sweep && parser.value("sweep") != QLatin1String("batch"))
        problems.push_back(flagProblem("sweep", "choice", "must be batch, got '" + parser.value("sweep").toStdString() + "'"));
    if (!problems.empty())
        return reportProblems(problems);

    if (sweep) {
        const Result<BatchSweep> result = sweepBatch(inputs);
        if (!result)
            return reportProblems(nameInferFlags(nameScenarioFlags(result.problems(), parser)));
        if (parser.isSet("json"))
            printJson(withAdjustments(sweepJson(*result), adjustments));
        else
            printSweep(*result);
        return kExitOk;
    }
    const Result<ServingReport> report = serve(inputs);
    if (!report)
        return reportProblems(nameInferFlags(nameScenarioFlags(report.problems(), parser)));
    if (parser.isSet("json"))
        printJson(withAdjustments(reportJson(*report), adjustments));
    else
        printReport(*report);
    return kExitOk;
}

}  // namespace lse::cli
