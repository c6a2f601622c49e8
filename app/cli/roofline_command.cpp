// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli roofline`: every operator of one training, prefill or decode step on a roofline
// (Williams et al. 2009): FLOPs, bytes, intensity, the attainable rate, the bound and the time.

#include "commands.h"
#include "output.h"
#include "scenario_options.h"

#include "hardware/machine_roofline.h"
#include "roofline/roofline.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <string>
#include <utility>

namespace lse::cli {

namespace {

QString qstr(const std::string &text) { return QString::fromStdString(text); }
QString qstr(std::string_view text) { return QString::fromUtf8(text.data(), qsizetype(text.size())); }

QString compact(double value, const char *unit)
{
    QString text = formatCount(value) + QStringLiteral(" ") + QLatin1String(unit);
    return text.replace(QStringLiteral("  "), QStringLiteral(" ")).trimmed();
}

struct RooflineRequest {
    RooflineOptions options;
    bool cpu = false;
    std::optional<DType> dtype;
};

// Reads the roofline's own flags; one problem per bad flag, named after it.
Problems readRooflineFlags(const QCommandLineParser &parser, RooflineRequest &request)
{
    Problems problems;
    if (parser.isSet("phase")) {
        const std::optional<StepPhase> phase = stepPhaseFromString(parser.value("phase").toStdString());
        if (phase)
            request.options.phase = *phase;
        else
            problems.push_back({"--phase", "choice",
                                "--phase must be train, prefill or decode, got '" + parser.value("phase").toStdString() + "'"});
    }
    const auto positive = [&](const char *flag, std::int64_t &target) {
        if (!parser.isSet(flag))
            return;
        const std::optional<std::int64_t> value = parseCount(parser.value(flag));
        if (value && *value >= 1)
            target = *value;
        else
            problems.push_back({std::string("--") + flag, "min",
                                std::string("--") + flag + " must be a whole number of at least 1, got '"
                                    + parser.value(flag).toStdString() + "'"});
    };
    positive("batch", request.options.batch);
    positive("context", request.options.context_tokens);
    if (parser.isSet("fused")) {
        const QString value = parser.value("fused").toLower();
        if (value == "on" || value == "off")
            request.options.fused_elementwise = value == "on";
        else
            problems.push_back({"--fused", "choice", "--fused must be on or off, got '" + value.toStdString() + "'"});
    }
    if (parser.isSet("machine")) {
        const QString value = parser.value("machine").toLower();
        if (value == "gpu" || value == "cpu")
            request.cpu = value == "cpu";
        else
            problems.push_back({"--machine", "choice", "--machine must be gpu or cpu, got '" + value.toStdString() + "'"});
    }
    if (parser.isSet("dtype")) {
        request.dtype = dtypeFromString(parser.value("dtype").toStdString());
        if (!request.dtype)
            problems.push_back({"--dtype", "choice",
                                "--dtype must be fp32, tf32, bf16, fp16 or fp8, got '" + parser.value("dtype").toStdString() + "'"});
        else if (request.cpu && *request.dtype != DType::FP32)
            problems.push_back({"--dtype", "cpu-fp32",
                                "--dtype: this CPU's peak is measured for fp32 SGEMM only; use --dtype fp32 or leave it out"});
    }
    return problems;
}

// The roofline's own fields as the flags that set them: "--context (roofline.context_tokens)".
Problems nameRooflineFlags(Problems problems, const QCommandLineParser &parser)
{
    const std::pair<const char *, const char *> flagFields[] = {{"batch", "roofline.batch"},
                                                               {"context", "roofline.context_tokens"}};
    for (Problem &problem : problems)
        for (const auto &[flag, field] : flagFields)
            if (problem.field == field && parser.isSet(flag)) {
                problem.message += " (given as --" + std::string(flag) + " " + parser.value(flag).toStdString() + ")";
                problem.field = "--" + std::string(flag) + " (" + field + ")";
            }
    return problems;
}

QJsonObject machineToJson(const RooflineMachine &machine)
{
    QJsonObject object;
    object.insert("id", qstr(machine.id));
    object.insert("name", qstr(machine.name));
    object.insert("dtype", qstr(toString(machine.dtype)));
    object.insert("peak_flops_per_s", machine.peak_flops_per_second);
    object.insert("memory_bandwidth_bytes_per_s", machine.memory_bandwidth_bytes_per_second);
    object.insert("sram_bytes_per_sm", double(machine.sram_bytes_per_sm));
    return object;
}

QJsonObject reportToJson(const RooflineReport &report, const std::vector<FusionComparison> &fusion)
{
    QJsonObject object;
    object.insert("machine", machineToJson(report.machine));
    object.insert("phase", qstr(toString(report.options.phase)));
    object.insert("batch", double(report.batch));
    object.insert("context_tokens", double(report.context_tokens));
    object.insert("tokens", double(report.tokens));
    object.insert("flash_attention", report.options.flash_attention);
    object.insert("fused_elementwise", report.options.fused_elementwise);
    object.insert("ridge_point", report.ridge_point_flop_per_byte);
    object.insert("step_seconds", report.step_seconds);
    object.insert("compute_bound_seconds", report.compute_bound_seconds);
    object.insert("memory_bound_seconds", report.memory_bound_seconds);
    object.insert("optimizer_seconds", report.optimizer_seconds);
    object.insert("mfu", report.mfu);
    object.insert("mfu_step_seconds", report.mfu_step_seconds);
    object.insert("implied_mfu", report.implied_mfu);
    object.insert("model_flops", report.model_flops);
    object.insert("total_flops", report.total_flops);
    object.insert("total_bytes", report.total_bytes);
    object.insert("parameters", report.parameters);
    object.insert("weight_bytes", report.weight_bytes);
    object.insert("kv_cache_bytes", report.kv_cache_bytes);
    object.insert("flash_tile_rows", double(report.flash_tile_rows));
    object.insert("flash_tile_columns", double(report.flash_tile_columns));
    object.insert("decode_crossover_batch", double(report.decode_crossover_batch));
    QJsonArray ops;
    for (const RooflineOp &op : report.ops) {
        QJsonObject row;
        row.insert("name", qstr(op.name));
        row.insert("pass", qstr(toString(op.pass)));
        row.insert("component", qstr(toString(op.component)));
        row.insert("shape", qstr(op.shape));
        row.insert("count", op.count);
        row.insert("weight_matmul", op.weight_matmul);
        row.insert("fused", op.fused);
        row.insert("flops", op.flops);
        row.insert("matmul_flops", op.matmul_flops);
        row.insert("bytes", op.bytes());
        row.insert("bytes_read", op.bytes_read);
        row.insert("bytes_written", op.bytes_written);
        row.insert("intensity", op.intensity_flop_per_byte);
        row.insert("attainable_flops_per_s", op.attainable_flops_per_second);
        row.insert("bound", qstr(toString(op.bound)));
        row.insert("seconds", op.seconds);
        row.insert("share", op.share_of_step);
        ops.append(row);
    }
    object.insert("ops", ops);
    QJsonArray chains;
    for (const FusionComparison &chain : fusion) {
        QJsonObject row;
        row.insert("name", qstr(chain.name));
        QJsonArray members;
        for (const std::string &member : chain.chain)
            members.append(qstr(member));
        row.insert("chain", members);
        row.insert("count", chain.count);
        row.insert("flops", chain.flops);
        row.insert("unfused_bytes", chain.unfused_bytes);
        row.insert("fused_bytes", chain.fused_bytes);
        chains.append(row);
    }
    object.insert("fusion", chains);
    return object;
}

void printTable(const RooflineReport &report, const Scenario &scenario)
{
    const RooflineMachine &machine = report.machine;
    int name_width = 4;
    for (const RooflineOp &op : report.ops)
        name_width = std::max(name_width, int(QString::fromStdString(op.name).size()));
    const auto row = [&](const QStringList &cells) {
        static const int widths[] = {0, 9, 5, 12, 12, 9, 15, 7, 11, 6};
        QString line = cells[0].leftJustified(name_width);
        for (int i = 1; i < cells.size(); ++i)
            line += QStringLiteral(" ") + cells[i].rightJustified(widths[i]);
        printOut(line + QStringLiteral("\n"));
    };
    printOut(QStringLiteral("Roofline of one %1 step: %2, %3 sequence%4 of %5 token%6 on one %7\n")
                 .arg(qstr(toString(report.options.phase)), qstr(scenario.model.name))
                 .arg(report.batch)
                 .arg(report.batch == 1 ? "" : "s")
                 .arg(report.options.phase == StepPhase::Decode ? QStringLiteral("1 new (KV cache %1)").arg(report.context_tokens)
                                                                : QString::number(scenario.training.seq_len))
                 .arg(report.options.phase == StepPhase::Decode ? "" : "s")
                 .arg(qstr(machine.name)));
    printOut(QStringLiteral("(the whole model on one accelerator, no tensor/pipeline split; FlashAttention %1, "
                            "element-wise fusion %2)\n\n")
                 .arg(report.options.flash_attention ? "on" : "off", report.options.fused_elementwise ? "on" : "off"));
    row({QStringLiteral("operator"), QStringLiteral("pass"), QStringLiteral("count"), QStringLiteral("FLOPs"),
         QStringLiteral("bytes"), QStringLiteral("FLOP/B"), QStringLiteral("attainable"), QStringLiteral("bound"),
         QStringLiteral("time"), QStringLiteral("share")});
    for (const RooflineOp &op : report.ops)
        row({qstr(op.name), qstr(toString(op.pass)), QString::number(op.count), compact(op.flops, ""),
             formatBytes(op.bytes()), QString::number(op.intensity_flop_per_byte, 'f', 1),
             compact(op.attainable_flops_per_second, "FLOP/s"), qstr(toString(op.bound)), formatSeconds(op.seconds),
             QStringLiteral("%1%").arg(100 * op.share_of_step, 0, 'f', 1)});

    const auto line = [](const QString &label, const QString &value) {
        printOut(QStringLiteral("%1 %2\n").arg(label, -30).arg(value));
    };
    printOut(QStringLiteral("\n"));
    line(QStringLiteral("machine"), QStringLiteral("%1: %2, %3/s")
                                        .arg(qstr(machine.name), compact(machine.peak_flops_per_second, "FLOP/s"),
                                             formatBytes(machine.memory_bandwidth_bytes_per_second)));
    line(QStringLiteral("ridge point"), QStringLiteral("%1 FLOP/byte (peak / bandwidth)")
                                            .arg(report.ridge_point_flop_per_byte, 0, 'f', 1));
    line(QStringLiteral("step time on the roofline"),
         QStringLiteral("%1 (compute-bound ops %2, memory-bound ops %3)")
             .arg(formatSeconds(report.step_seconds), formatSeconds(report.compute_bound_seconds),
                  formatSeconds(report.memory_bound_seconds)));
    if (report.optimizer_seconds > 0) {
        const TrainingConfig &training = scenario.training;
        const std::int64_t micro_batches = training.global_batch / std::max<std::int64_t>(1, training.micro_batch * training.parallel.dp);
        line(QStringLiteral("optimizer step"),
             QStringLiteral("%1 of it, counted once; with %2 micro-batches per optimizer step it is %3 per micro-batch")
                 .arg(formatSeconds(report.optimizer_seconds))
                 .arg(micro_batches)
                 .arg(formatSeconds(report.optimizer_seconds / double(std::max<std::int64_t>(1, micro_batches)))));
    }
    line(QStringLiteral("MFU-based time"), QStringLiteral("%1 (model FLOPs %2 at MFU %3 (%4), as the estimate assumes)")
                                               .arg(formatSeconds(report.mfu_step_seconds), compact(report.model_flops, "FLOP"))
                                               .arg(report.mfu, 0, 'g', 3)
                                               .arg(QString::fromLatin1(toString(scenario.training.mfu_source).data())));
    line(QStringLiteral("implied MFU"), QStringLiteral("%1% (model FLOPs / (roofline time · peak): an upper bound)")
                                            .arg(100 * report.implied_mfu, 0, 'f', 1));
    line(QStringLiteral("decode crossover batch"),
         report.decode_crossover_batch > 0
             ? QStringLiteral("%1 sequences (decode weight matmuls turn compute-bound)").arg(report.decode_crossover_batch)
             : QStringLiteral("none up to 2^24 sequences"));
    if (report.flash_tile_rows > 0)
        line(QStringLiteral("FlashAttention tiles"),
             QStringLiteral("B_r = %1 query rows, B_c = %2 key columns (Dao et al. 2022, Alg. 1; %3 B SRAM per SM)")
                 .arg(report.flash_tile_rows)
                 .arg(report.flash_tile_columns)
                 .arg(machine.sram_bytes_per_sm));
    if (report.options.phase == StepPhase::Decode)
        line(QStringLiteral("weights / KV cache read"),
             QStringLiteral("%1 / %2 per step").arg(formatBytes(report.weight_bytes), formatBytes(report.kv_cache_bytes)));
}

}  // namespace

int runRoofline(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Place every operator of one training, prefill or decode step of one micro-batch on a roofline\n"
        "(the whole model on one accelerator): FLOPs from the cost engine's operator list, bytes moved\n"
        "through memory, intensity, attainable rate min(peak, intensity x bandwidth), bound and time.\n"
        "Starts from --scenario FILE or the course example and applies the flags on top."));
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption help(QStringList{"h", "help"}, QStringLiteral("Show this help."));
    parser.addOption(help);
    addScenarioOptions(parser);
    parser.addOption(QCommandLineOption("phase", "train (forward, backward, recomputation, optimizer), prefill or decode.",
                                        "train|prefill|decode"));
    parser.addOption(QCommandLineOption("batch", "Sequences in the step (default: the scenario's micro-batch).", "N"));
    parser.addOption(QCommandLineOption("context", "Decode: KV-cache length each new token attends to (default: seq-len).", "N"));
    parser.addOption(QCommandLineOption("fused", "Fuse chains of element-wise operators (one read, one write).", "on|off"));
    parser.addOption(QCommandLineOption("machine", "gpu: the scenario's accelerator; cpu: this machine as measured "
                                                   "by 'llm-explorer-cli machine'.", "gpu|cpu"));
    parser.addOption(QCommandLineOption("dtype", "The peak to use (default: the scenario's matmul dtype).",
                                        "fp32|tf32|bf16|fp16|fp8"));
    parser.addOption(QCommandLineOption("json", "Print one JSON object (fields: docs/file-formats.md, \"JSON output\")."));
    if (!parser.parse(QStringList{"roofline"} + arguments))
        return reportProblems({Problem{"arguments", "syntax", parser.errorText().toStdString()}});
    if (parser.isSet(help)) {
        printOut(QStringLiteral("Usage: llm-explorer-cli roofline [options]\n") + parser.helpText().section('\n', 1));
        return kExitOk;
    }
    if (!parser.positionalArguments().isEmpty())
        return reportProblems({Problem{"arguments", "unexpected",
                                       "unexpected argument '" + parser.positionalArguments().front().toStdString()
                                           + "'; options start with --"}});

    std::vector<std::string> adjustments;
    const Result<Scenario> scenario = scenarioFromOptions(parser, &adjustments);
    RooflineRequest request;
    Problems problems = readRooflineFlags(parser, request);
    if (!scenario) {
        Problems all = scenario.problems();
        all.insert(all.end(), problems.begin(), problems.end());
        return reportProblems(all);
    }
    if (!problems.empty())
        return reportProblems(problems);
    const RooflineOptions defaults = rooflineOptionsFor(*scenario, request.options.phase);
    request.options.flash_attention = defaults.flash_attention;  // --flash-attention sets the scenario

    RooflineMachine machine;
    if (request.cpu) {
        // roofline only reads the cache; measuring is the machine command's (a few seconds of
        // full load). A missing or stale cache is a problem with --machine cpu: exit 2.
        const MachineRooflineCacheLookup lookup = lookUpMachineRooflineCache();
        const std::optional<MachineRoofline> &cpu = lookup.roofline;
        if (!cpu) {
            const bool stale = lookup.status == MachineRooflineCacheLookup::Status::Stale;
            return reportProblems({{"--machine", stale ? "stale_cache" : "not_measured",
                                    "--machine cpu: " +
                                        std::string(stale ? "the cached roofline of this machine cannot be used ("
                                                          : "no measured roofline of this machine (") +
                                        lookup.why + "); run 'llm-explorer-cli machine' to measure it" +
                                        (stale ? " again" : "") + " (a few seconds), then try again"}});
        }
        machine = rooflineMachine(*cpu, true);
        for (const Problem &warning : machineRooflineWarnings(*cpu))
            printError(QStringLiteral("warning: the cached machine roofline (measured %1) looks wrong: %2; run "
                                      "'llm-explorer-cli machine --remeasure' on an idle machine\n")
                           .arg(qstr(cpu->measured_at), qstr(warning.message)));
    } else if (request.dtype) {
        machine = rooflineMachine(scenario->cluster.accelerator, *request.dtype);
    } else {
        machine = rooflineMachine(*scenario);
    }

    const Result<RooflineReport> report = rooflineReport(*scenario, request.options, machine);
    if (!report)
        return reportProblems(nameRooflineFlags(nameScenarioFlags(report.problems(), parser), parser));
    if (parser.isSet("json"))
        printJson(withAdjustments(reportToJson(*report, fusionComparisons(*scenario, request.options)), adjustments));
    else
        printTable(*report, *scenario);
    return kExitOk;
}

}  // namespace lse::cli
