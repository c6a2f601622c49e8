// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli attention`: the HBM bytes and FLOPs of one attention head, standard (Dao et al.
// 2022 Algorithm 0) vs FlashAttention (Algorithm 1) and FlashAttention-2's loop order (Dao 2023),
// forward and backward (Algorithms 3 and 4), with the causal mask's skipped blocks, and each placed
// on an accelerator's roofline (core/kernels). Every figure is core's; this file parses and prints.
//
// --measure times the reference transformer's naive and tiled (FlashAttention) kernels on this CPU
// (core/reference/attention_measurement): the same head shape, fp32, causal.

#include "commands.h"
#include "count_option.h"
#include "output.h"

#include "hardware/hardware_catalog.h"
#include "kernels/flash_attention_io.h"
#include "kernels/flash_attention_steps.h"
#include "kernels/kernel_roofline.h"
#include "reference/attention_measurement.h"
#include "reference/attention_measurement_json.h"
#include "roofline/roofline_machine.h"

#include <QCommandLineParser>
#include <QJsonArray>

#include <cmath>

namespace lse::cli {

namespace {

using kernels::AttentionIo;
using kernels::IoCounts;

constexpr const char *kDefaultGpu = "h100-sxm";

QJsonObject countsJson(const IoCounts &counts, const RooflineMachine &machine)
{
    const kernels::KernelRooflinePoint point = kernels::rooflinePoint(counts, machine);
    QJsonObject object;
    object["hbm_bytes"] = double(counts.hbmBytes());
    object["read_bytes"] = double(counts.read_bytes);
    object["written_bytes"] = double(counts.written_bytes);
    object["flops"] = double(counts.flops);
    object["arithmetic_intensity"] = counts.arithmeticIntensity();
    object["attainable_flops_per_second"] = point.attainable_flops_per_second;
    object["roofline_seconds"] = point.seconds;
    object["memory_bound"] = point.memory_bound;
    return object;
}

QString row(const QString &name, const IoCounts &counts, const RooflineMachine &machine)
{
    const kernels::KernelRooflinePoint point = kernels::rooflinePoint(counts, machine);
    return QStringLiteral("  %1 %2 %3 %4 %5 %6 %7  %8\n")
        .arg(name, -20)
        .arg(formatBytes(double(counts.read_bytes)), 11)
        .arg(formatBytes(double(counts.written_bytes)), 11)
        .arg(formatBytes(double(counts.hbmBytes())), 11)
        .arg(formatFlopsShort(double(counts.flops)), 13)
        .arg(counts.arithmeticIntensity(), 9, 'f', 1)
        .arg(formatSeconds(point.seconds), 10)
        .arg(point.memory_bound ? QStringLiteral("memory-bound") : QStringLiteral("compute-bound"));
}

QJsonValue finiteOrNull(double value) { return std::isfinite(value) ? QJsonValue(value) : QJsonValue(QJsonValue::Null); }

QJsonArray stepsJson(const kernels::AttentionSteps &steps)
{
    QJsonArray array;
    for (const kernels::AttentionStep &step : steps.steps) {
        QJsonArray rows;
        for (const kernels::RowStatistics &r : step.rows)
            rows.append(QJsonObject{{"row", double(r.row)}, {"m_before", finiteOrNull(r.m_before)},
                                    {"m_after", finiteOrNull(r.m_after)}, {"l_before", r.l_before}, {"l_after", r.l_after}});
        array.append(QJsonObject{{"kind", QString::fromLatin1(kernels::toString(step.kind).data())},
                                 {"row_block", double(step.row_block)},
                                 {"column_block", double(step.column_block)},
                                 {"sram_query_block", double(step.sram_query_block)},
                                 {"sram_key_value_block", double(step.sram_key_value_block)},
                                 {"sram_bytes_in_use", double(step.sram_bytes_in_use)},
                                 {"read_bytes", double(step.step.read_bytes)},
                                 {"written_bytes", double(step.step.written_bytes)},
                                 {"flops", double(step.step.flops)},
                                 {"cumulative", QJsonObject{{"read_bytes", double(step.cumulative.read_bytes)},
                                                            {"written_bytes", double(step.cumulative.written_bytes)},
                                                            {"flops", double(step.cumulative.flops)}}},
                                 {"rows", rows}});
    }
    return array;
}

QString blockText(std::int64_t index) { return index < 0 ? QStringLiteral("-") : QString::number(index); }

// The --measure rows: one line per kernel, or the reason it was not run.
QString measuredText(const reference::AttentionMeasurement &measurement)
{
    const reference::AttentionMeasureRow &measured = measurement.rows.front();
    QString text = QStringLiteral("\nMeasured on this CPU (reference kernels, fp32, causal, one head, %1 thread(s); tiled "
                                  "blocks B_r = %2, B_c = %3; medians of %4 runs):\n")
                       .arg(measurement.threads)
                       .arg(measurement.blocks.rows)
                       .arg(measurement.blocks.cols)
                       .arg(measurement.request.repeats);
    text += QStringLiteral("  %1 %2 %3 %4 %5\n")
                .arg(QStringLiteral("kernel"), -8)
                .arg(QStringLiteral("forward"), 11)
                .arg(QStringLiteral("fwd + bwd"), 11)
                .arg(QStringLiteral("peak bytes"), 12)
                .arg(QStringLiteral("of which working memory"), 24);
    const auto line = [](const QString &name, const reference::AttentionKernelRun &run) {
        if (!run.ran)
            return QStringLiteral("  %1 not run: %2\n").arg(name, -8).arg(QString::fromStdString(run.skipped));
        return QStringLiteral("  %1 %2 %3 %4 %5\n")
            .arg(name, -8)
            .arg(formatSeconds(run.forward_seconds), 11)
            .arg(formatSeconds(run.training_seconds), 11)
            .arg(formatBytes(run.training_peak_bytes).trimmed(), 12)
            .arg(formatBytes(run.training_working_bytes).trimmed(), 24);
    };
    text += line(QStringLiteral("naive"), measured.naive);
    text += line(QStringLiteral("tiled"), measured.tiled);
    if (measured.naive.ran && measured.tiled.ran && measured.tiled.training_seconds > 0)
        text += QStringLiteral("  tiled is %1x as fast (forward + backward) in %2x less working memory\n")
                    .arg(measured.naive.training_seconds / measured.tiled.training_seconds, 0, 'f', 2)
                    .arg(measured.tiled.training_working_bytes > 0
                             ? measured.naive.training_working_bytes / measured.tiled.training_working_bytes
                             : 0.0,
                         0, 'f', 1);
    return text;
}

QString stepsText(const kernels::AttentionSteps &steps, bool values)
{
    QString text = QStringLiteral("\nSteps (%1, forward): step, what, block (i,j), tiles in SRAM (Q/O block, K/V block), "
                                  "cumulative HBM read, written, FLOPs\n")
                       .arg(QString::fromLatin1(kernels::toString(steps.algorithm).data()));
    for (std::size_t index = 0; index < steps.steps.size(); ++index) {
        const kernels::AttentionStep &step = steps.steps[index];
        text += QStringLiteral("  %1 %2 (%3,%4)  SRAM Q%5 KV%6 %7  %8 %9 %10\n")
                    .arg(index + 1, 6)
                    .arg(QString::fromLatin1(kernels::toString(step.kind).data()), -20)
                    .arg(blockText(step.row_block), blockText(step.column_block))
                    .arg(blockText(step.sram_query_block), -3)
                    .arg(blockText(step.sram_key_value_block), -3)
                    .arg(formatBytes(double(step.sram_bytes_in_use)), 10)
                    .arg(formatBytes(double(step.cumulative.read_bytes)), 11)
                    .arg(formatBytes(double(step.cumulative.written_bytes)), 11)
                    .arg(formatFlopsShort(double(step.cumulative.flops)), 13);
        if (values)
            for (const kernels::RowStatistics &r : step.rows)
                text += QStringLiteral("         row %1: m %2 -> %3, l %4 -> %5, O scaled by %6\n")
                            .arg(r.row, 4)
                            .arg(std::isfinite(r.m_before) ? QString::number(r.m_before, 'f', 4) : QStringLiteral("-inf"))
                            .arg(r.m_after, 0, 'f', 4)
                            .arg(r.l_before, 0, 'f', 4)
                            .arg(r.l_after, 0, 'f', 4)
                            .arg(std::isfinite(r.m_before) ? std::exp(r.m_before - r.m_after) : 0.0, 0, 'f', 4);
    }
    if (values)
        text += QStringLiteral("Largest |O_tiled - softmax(QK^T)V| of the example: %1\n").arg(steps.example_max_abs_error, 0, 'g', 3);
    return text;
}

}  // namespace

int runAttention(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "HBM traffic and FLOPs of one attention head (one sequence): standard attention, which writes S = QK^T\n"
        "and P = softmax(S) to HBM and reads them back (Dao et al. 2022 Algorithm 0: (4Nd + 4N^2)*E bytes), vs\n"
        "FlashAttention's tiles in SRAM (Algorithm 1 as written: B_c = ceil(M/4dE) keys, B_r = min(B_c, d)\n"
        "queries per block) and FlashAttention-2's loop order (Dao 2023); the backward passes (Algorithm 3:\n"
        "reads the saved S/P; Algorithm 4: recomputes them from Q, K and the row statistics; Dao 2023 Algorithm 2:\n"
        "the same with the one statistic L = m + log l); with --causal,\n"
        "blocks above the diagonal are skipped. Each is placed on the GPU's roofline (intensity, bound, time)."));
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption help(QStringList{"h", "help"}, QStringLiteral("Show this help."));
    parser.addOption(help);
    parser.addOption(QCommandLineOption("n", "Sequence length N (1 to 1,048,576).", "N"));
    parser.addOption(QCommandLineOption("d", "Head dimension d (1 to 1024).", "D"));
    parser.addOption(QCommandLineOption(
        "sram-bytes", "SRAM size M in bytes (default: the GPU's shared memory per SM, e.g. 233472 on an H100).", "M"));
    parser.addOption(QCommandLineOption("dtype-bytes", "Bytes per element E (default 2; 1 fp8, 2 bf16, 4 fp32).", "E", "2"));
    parser.addOption(QCommandLineOption("block-rows", "Chosen B_r, queries per block (default min(B_c, d)).", "B_R"));
    parser.addOption(QCommandLineOption("block-cols", "Chosen B_c, keys per block (default ceil(M/4dE)).", "B_C"));
    parser.addOption(QCommandLineOption("causal", "Causal mask: fully masked blocks are neither loaded nor computed."));
    parser.addOption(QCommandLineOption("gpu", QStringLiteral("Accelerator id for M and the roofline (default %1; see 'hardware').")
                                                   .arg(QLatin1String(kDefaultGpu)), "ID"));
    parser.addOption(QCommandLineOption(
        "steps", "Also list the forward pass step by step: standard, flash or flash2 (tiles in SRAM, block computed "
                 "or skipped, cumulative HBM bytes and FLOPs; at most 100,000 steps).", "ALGORITHM"));
    parser.addOption(QCommandLineOption(
        "values", "With --steps: run a random example (N <= 1024, d <= 256) and show each row's running max m and "
                  "sum l before and after every block (the online softmax's rescaling)."));
    parser.addOption(QCommandLineOption("seed", "Seed of the --values example (default 1).", "SEED", "1"));
    parser.addOption(QCommandLineOption(
        "measure", "Also time the reference transformer's naive and tiled (FlashAttention) kernels on this CPU for "
                   "this N and d (one head, fp32, causal: needs --causal), forward and forward + backward, with the "
                   "peak bytes each allocates; the naive kernel is skipped, with the reason, when its N x N scores "
                   "do not fit half the memory this process may use."));
    parser.addOption(QCommandLineOption(
        "json", "Print one JSON object: config, blocks{block_rows,block_cols,row_blocks,column_blocks,computed_blocks,"
                "skipped_blocks}, standard and flash {hbm_bytes,read_bytes,written_bytes,flops,arithmetic_intensity,"
                "attainable_flops_per_second,roofline_seconds,memory_bound} (flash also block_rows, block_cols), flash2, "
                "backward{standard,flash,flash2}, extra_memory_bytes{standard,flash}; with --steps also steps[] {kind, row_block, "
                "column_block, sram_query_block, sram_key_value_block, sram_bytes_in_use, read_bytes, written_bytes, flops, "
                "cumulative{read_bytes,written_bytes,flops}, rows[] {row, m_before, m_after, l_before, l_after} "
                "(m_before null for minus infinity)} and example_max_abs_error."));
    if (!parser.parse(QStringList{"attention"} + arguments))
        return reportProblems({Problem{"arguments", "syntax", parser.errorText().toStdString()}});
    if (parser.isSet(help)) {
        printOut(QStringLiteral("Usage: llm-explorer-cli attention --n N --d D [--sram-bytes M] [--dtype-bytes E] "
                                "[--block-rows B_R] [--block-cols B_C] [--causal] [--gpu ID] [--steps ALGORITHM [--values]] [--json]\n")
                 + parser.helpText().section('\n', 1));
        return kExitOk;
    }
    if (!parser.positionalArguments().isEmpty())
        return reportProblems({Problem{"arguments", "unexpected",
                                       "unexpected argument '" + parser.positionalArguments().front().toStdString()
                                           + "'; options start with --"}});
    Problems problems;
    if (parser.isSet("measure") && !parser.isSet("causal"))
        problems.push_back({"--measure", "requires",
                            "--measure times the reference transformer's kernels, which are causal: add --causal"});
    if (!parser.isSet("n"))
        problems.push_back({"--n", "required", "--n (the sequence length) is required, e.g. --n 4096"});
    if (!parser.isSet("d"))
        problems.push_back({"--d", "required", "--d (the head dimension) is required, e.g. --d 64"});
    const std::optional<std::int64_t> n = countFlag(parser, "n", 1, kernels::kMaxSequenceLength, problems);
    const std::optional<std::int64_t> d = countFlag(parser, "d", 1, kernels::kMaxHeadDim, problems);
    const std::optional<std::int64_t> e = parser.isSet("dtype-bytes")
        ? countFlag(parser, "dtype-bytes", 1, kernels::kMaxElementBytes, problems)
        : std::optional<std::int64_t>(2);
    const std::optional<std::int64_t> sram = countFlag(parser, "sram-bytes", 1, kernels::kMaxSramBytes, problems);
    const std::optional<std::int64_t> block_rows = countFlag(parser, "block-rows", 1, kernels::kMaxSequenceLength, problems);
    const std::optional<std::int64_t> block_cols = countFlag(parser, "block-cols", 1, kernels::kMaxSequenceLength, problems);
    const std::string gpu_id = parser.isSet("gpu") ? parser.value("gpu").toStdString() : kDefaultGpu;
    const Accelerator *gpu = builtinHardwareCatalog().find(gpu_id);
    if (!gpu)
        problems.push_back({"--gpu", "unknown", "--gpu '" + gpu_id + "' is not in the catalog (see 'llm-explorer-cli hardware')"});
    const std::optional<DType> dtype = e ? kernels::tensorDTypeForElementBytes(*e) : std::nullopt;
    if (e && !dtype)
        problems.push_back({"--dtype-bytes", "roofline",
                            "--dtype-bytes " + std::to_string(*e) + " has no tensor-core peak to place on the roofline; use 1, 2 or 4"});
    std::optional<kernels::AttentionAlgorithm> algorithm;
    if (parser.isSet("steps")) {
        const QString name = parser.value("steps");
        for (kernels::AttentionAlgorithm candidate : {kernels::AttentionAlgorithm::Standard, kernels::AttentionAlgorithm::Flash,
                                                      kernels::AttentionAlgorithm::Flash2})
            if (name == QLatin1String(kernels::toString(candidate).data()))
                algorithm = candidate;
        if (!algorithm)
            problems.push_back({"--steps", "choice", "--steps must be standard, flash or flash2, not '" + name.toStdString() + "'"});
    }
    if (parser.isSet("values") && !parser.isSet("steps"))
        problems.push_back({"--values", "requires", "--values shows the numbers of the --steps listing; add --steps"});
    const std::optional<std::int64_t> seed = countFlag(parser, "seed", 0, 4'294'967'295, problems);
    if (!problems.empty() || !n || !d || !e || !dtype || !gpu)
        return reportProblems(problems);

    kernels::AttentionConfig config{*n, *d, 0, *e, parser.isSet("causal")};
    config.block_rows = block_rows.value_or(0);
    config.block_columns = block_cols.value_or(0);
    if (sram) {
        config.sram_bytes = *sram;
    } else {
        const Result<std::int64_t> per_sm = kernels::defaultSramBytes(*gpu);
        if (!per_sm)
            return reportProblems({{"--sram-bytes", "required",
                                    "--sram-bytes is required: " + per_sm.problems().front().message}});
        config.sram_bytes = *per_sm;
    }
    const Result<AttentionIo> io = kernels::attentionIo(config);
    if (!io) {
        Problems named = io.problems();
        for (Problem &problem : named) {
            const std::string flag = problem.field == "sequence_length" ? "--n"
                                   : problem.field == "head_dim"        ? "--d"
                                   : problem.field == "element_bytes"   ? "--dtype-bytes"
                                   : problem.field == "block_rows"      ? "--block-rows"
                                   : problem.field == "block_columns"   ? "--block-cols"
                                                                        : "--sram-bytes";
            problem.message = flag + ": " + problem.message;
            problem.field = flag;
        }
        return reportProblems(named);
    }
    std::optional<kernels::AttentionSteps> steps;
    if (algorithm) {
        kernels::AttentionStepOptions options;
        options.algorithm = *algorithm;
        options.with_values = parser.isSet("values");
        options.seed = std::uint32_t(seed.value_or(1));
        const Result<kernels::AttentionSteps> generated = kernels::attentionSteps(config, options);
        if (!generated) {
            Problems named = generated.problems();
            for (Problem &problem : named) {
                const std::string flag = problem.rule == "example" ? "--values" : "--steps";
                problem.message = flag + ": " + problem.message;
                problem.field = flag;
            }
            return reportProblems(named);
        }
        steps = *generated;
    }
    const DType tensor_dtype = dtype.value_or(DType::BF16);
    const RooflineMachine machine = rooflineMachine(*gpu, tensor_dtype);

    std::optional<reference::AttentionMeasurement> measured;
    if (parser.isSet("measure")) {
        reference::AttentionMeasureRequest request;
        request.sequence_lengths = {config.sequence_length};
        request.head_dim = int(config.head_dim);
        request.heads = 1;
        const Result<reference::AttentionMeasurement> run = reference::measureAttention(request);
        if (!run) {
            Problems named = run.problems();
            for (Problem &problem : named) {
                problem.message = "--measure: " + problem.message;
                problem.field = "--measure";
            }
            return reportProblems(named);
        }
        measured = *run;
    }

    if (parser.isSet("json")) {
        QJsonObject json;
        json["config"] = QJsonObject{{"n", double(config.sequence_length)},
                                     {"d", double(config.head_dim)},
                                     {"sram_bytes", double(config.sram_bytes)},
                                     {"dtype_bytes", double(config.element_bytes)},
                                     {"causal", config.causal},
                                     {"gpu", QString::fromStdString(gpu->id)},
                                     {"dtype", QString::fromLatin1(toString(tensor_dtype).data())},
                                     {"peak_flops_per_second", machine.peak_flops_per_second},
                                     {"memory_bandwidth_bytes_per_second", machine.memory_bandwidth_bytes_per_second}};
        json["blocks"] = QJsonObject{{"block_rows", double(io->blocks.block_rows)},
                                     {"block_cols", double(io->blocks.block_columns)},
                                     {"row_blocks", double(io->blocks.row_blocks)},
                                     {"column_blocks", double(io->blocks.column_blocks)},
                                     {"computed_blocks", double(io->computed_blocks)},
                                     {"skipped_blocks", double(io->skipped_blocks)}};
        json["standard"] = countsJson(io->standard_forward, machine);
        QJsonObject flash = countsJson(io->flash_forward, machine);
        flash["block_rows"] = double(io->blocks.block_rows);
        flash["block_cols"] = double(io->blocks.block_columns);
        json["flash"] = flash;
        json["flash2"] = countsJson(io->flash2_forward, machine);
        json["backward"] = QJsonObject{{"standard", countsJson(io->standard_backward, machine)},
                                       {"flash", countsJson(io->flash_backward, machine)},
                                       {"flash2", countsJson(io->flash2_backward, machine)}};
        json["extra_memory_bytes"] = QJsonObject{{"standard", double(io->standard_extra_memory_bytes)},
                                                 {"flash", double(io->flash_extra_memory_bytes)}};
        if (measured && !measured->rows.empty())
            json["measured"] = reference::attentionMeasuredJson(*measured, measured->rows.front());
        if (steps) {
            json["steps"] = stepsJson(*steps);
            if (parser.isSet("values"))
                json["example_max_abs_error"] = steps->example_max_abs_error;
        }
        printJson(json);
        return kExitOk;
    }

    QString text = QStringLiteral("Attention, one head: N = %1, d = %2, E = %3 bytes, M = %4 bytes%5, %6\n")
                       .arg(config.sequence_length)
                       .arg(config.head_dim)
                       .arg(config.element_bytes)
                       .arg(config.sram_bytes)
                       .arg(sram ? QString() : QStringLiteral(" (%1 shared memory per SM)").arg(QString::fromStdString(gpu->id)))
                       .arg(config.causal ? QStringLiteral("causal") : QStringLiteral("no mask"));
    text += QStringLiteral("Blocks%7: B_c = %1 keys, B_r = %2 queries; T_c = %3, T_r = %4; %5 blocks computed, %6 skipped\n\n")
                .arg(io->blocks.block_columns)
                .arg(io->blocks.block_rows)
                .arg(io->blocks.column_blocks)
                .arg(io->blocks.row_blocks)
                .arg(io->computed_blocks)
                .arg(io->skipped_blocks)
                .arg(block_rows || block_cols ? QStringLiteral(" (chosen)") : QString());
    text += QStringLiteral("  %1 %2 %3 %4 %5 %6 %7\n")
                .arg(QStringLiteral("algorithm"), -20)
                .arg(QStringLiteral("HBM read"), 11)
                .arg(QStringLiteral("written"), 11)
                .arg(QStringLiteral("total"), 11)
                .arg(QStringLiteral("FLOPs"), 13)
                .arg(QStringLiteral("FLOP/B"), 9)
                .arg(QStringLiteral("roofline"), 10);
    text += row(QStringLiteral("standard forward"), io->standard_forward, machine);
    text += row(QStringLiteral("flash forward"), io->flash_forward, machine);
    text += row(QStringLiteral("flash-2 order fwd"), io->flash2_forward, machine);
    text += row(QStringLiteral("standard backward"), io->standard_backward, machine);
    text += row(QStringLiteral("flash backward"), io->flash_backward, machine);
    text += row(QStringLiteral("flash-2 backward"), io->flash2_backward, machine);
    text += QStringLiteral("\nHBM beyond Q, K, V, O: standard %1 (S and P), flash %2 (l and m)\n")
                .arg(formatBytes(double(io->standard_extra_memory_bytes)).trimmed(),
                     formatBytes(double(io->flash_extra_memory_bytes)).trimmed());
    text += QStringLiteral("Roofline: %1 at %2 peak, %3/s HBM; ridge point %4 FLOP/byte. Forward HBM traffic: flash "
                           "moves %5x less than standard.\n")
                .arg(QString::fromStdString(gpu->name), formatFlopRate(machine.peak_flops_per_second).trimmed(),
                     formatBytes(machine.memory_bandwidth_bytes_per_second).trimmed())
                .arg(machine.ridgePointFlopPerByte(), 0, 'f', 1)
                .arg(double(io->standard_forward.hbmBytes()) / double(io->flash_forward.hbmBytes()), 0, 'f', 1);
    if (measured && !measured->rows.empty())
        text += measuredText(*measured);
    if (steps)
        text += stepsText(*steps, parser.isSet("values"));
    printOut(text);
    return kExitOk;
}

}  // namespace lse::cli
