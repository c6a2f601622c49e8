// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli fusion`: a chain of element-wise operators (bias + GeLU + dropout + residual by
// default) as separate kernels vs one fused kernel: HBM bytes, FLOPs, intensity and time on an
// accelerator's roofline (core/kernels/fusion_chain.h). --measure also runs the same chain on this
// CPU in float32 (core/reference/fusion_measurement.h): unfused passes vs one fused loop, timed.

#include "commands.h"
#include "count_option.h"
#include "output.h"

#include "hardware/hardware_catalog.h"
#include "kernels/fusion_chain.h"
#include "reference/fusion_measurement.h"

#include <QCommandLineParser>
#include <QJsonArray>

namespace lse::cli {

int runFusion(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Kernel fusion of element-wise operators on one tokens x width tensor: each operator as its own kernel\n"
        "(reads its inputs from HBM, writes its output) vs the chain as one kernel (intermediates stay on chip).\n"
        "FLOPs and bytes per operator are the operator list's; times are the step-time model's streaming kernels."));
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption help(QStringList{"h", "help"}, QStringLiteral("Show this help."));
    parser.addOption(help);
    parser.addOption(QCommandLineOption("tokens", "Rows of the tensor (micro-batch x sequence), default 8192.", "T", "8192"));
    parser.addOption(QCommandLineOption("width", "Columns of the tensor (d_model or d_ff), default 4096.", "W", "4096"));
    parser.addOption(QCommandLineOption("ops", "Comma-separated chain of bias, gelu, dropout, residual (default all four).", "LIST",
                                        "bias,gelu,dropout,residual"));
    parser.addOption(QCommandLineOption("gpu", "Accelerator id (default h100-sxm; see 'hardware').", "ID", "h100-sxm"));
    parser.addOption(QCommandLineOption("dtype", "Activation type: fp32, bf16 (default), fp16 or fp8.", "DTYPE", "bf16"));
    parser.addOption(QCommandLineOption("training", "The backward pass keeps GeLU's input, so the fused kernel still writes it."));
    parser.addOption(QCommandLineOption(
        "measure", "Also run the chain on this CPU in float32 (tokens x width, the four operators): one pass per operator "
                   "vs one fused loop, alternating, median of --repeats runs each; bytes are the model's count at 4 bytes."));
    parser.addOption(QCommandLineOption("repeats", "Timed runs of each variant with --measure (1-101, default 5).", "R", "5"));
    parser.addOption(QCommandLineOption(
        "json", "Print one JSON object: ops[] {op, flops, bytes_read, bytes_written, seconds}, flops, unfused_bytes, "
                "fused_bytes, unfused_seconds, fused_seconds, speedup, unfused_intensity, fused_intensity; with --measure "
                "measured {unfused {seconds, bytes, bytes_per_second}, fused {...}, speedup, threads, outputs_bitwise_equal}."));
    if (!parser.parse(QStringList{"fusion"} + arguments))
        return reportProblems({Problem{"arguments", "syntax", parser.errorText().toStdString()}});
    if (parser.isSet(help)) {
        printOut(QStringLiteral("Usage: llm-explorer-cli fusion [--tokens T] [--width W] [--ops bias,gelu,dropout,residual] "
                                "[--gpu ID] [--dtype bf16] [--training] [--measure [--repeats R]] [--json]\n")
                 + parser.helpText().section('\n', 1));
        return kExitOk;
    }
    if (!parser.positionalArguments().isEmpty())
        return reportProblems({Problem{"arguments", "unexpected",
                                       "unexpected argument '" + parser.positionalArguments().front().toStdString()
                                           + "'; options start with --"}});
    Problems problems;
    kernels::FusionChainConfig config;
    config.tokens = 8192;
    config.width = 4096;
    if (const auto tokens = countFlag(parser, "tokens", 1, std::int64_t(1) << 40, problems))
        config.tokens = *tokens;
    if (const auto width = countFlag(parser, "width", 1, std::int64_t(1) << 40, problems))
        config.width = *width;
    config.training = parser.isSet("training");
    config.ops.clear();
    for (const QString &name : parser.value("ops").split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        std::optional<kernels::ElementwiseOp> found;
        for (kernels::ElementwiseOp op : {kernels::ElementwiseOp::Bias, kernels::ElementwiseOp::GeLU,
                                          kernels::ElementwiseOp::Dropout, kernels::ElementwiseOp::Residual})
            if (name.trimmed() == QLatin1String(kernels::toString(op).data()))
                found = op;
        if (!found)
            problems.push_back({"--ops", "choice", "--ops: '" + name.toStdString() + "' is not bias, gelu, dropout or residual"});
        else
            config.ops.push_back(*found);
    }
    const Accelerator *gpu = builtinHardwareCatalog().find(parser.value("gpu").toStdString());
    if (!gpu)
        problems.push_back({"--gpu", "unknown", "--gpu '" + parser.value("gpu").toStdString() + "' is not in the catalog (see 'llm-explorer-cli hardware')"});
    const std::optional<DType> dtype = dtypeFromString(parser.value("dtype").toStdString());
    if (!dtype)
        problems.push_back({"--dtype", "choice", "--dtype must be fp32, tf32, bf16, fp16 or fp8, not '" + parser.value("dtype").toStdString() + "'"});
    int repeats = 5;
    intOption(parser, "repeats", 1, repeats, problems);
    const bool measure = parser.isSet("measure");
    if (measure && config.ops.size() != 4)
        problems.push_back({"--measure", "requires",
                            "--measure runs the whole chain bias,gelu,dropout,residual: leave out --ops"});
    if (!problems.empty() || !gpu || !dtype)
        return reportProblems(problems);
    config.dtype = *dtype;
    const Result<kernels::FusionChain> chain = kernels::fusionChain(config, *gpu);
    if (!chain) {
        Problems named = chain.problems();
        for (Problem &p : named) {
            p.field = "--" + p.field;
            p.message = p.field + ": " + p.message;
        }
        return reportProblems(named);
    }
    const kernels::FusionChain &c = *chain;
    std::optional<reference::FusionMeasurement> measured;
    if (measure) {
        reference::FusionMeasureRequest request;
        request.tokens = config.tokens;
        request.width = config.width;
        request.training = config.training;
        request.repeats = repeats;
        const Result<reference::FusionMeasurement> run = reference::measureFusion(request);
        if (!run) {
            Problems named = run.problems();
            for (Problem &p : named) {
                p.message = "--" + p.field + ": " + p.message + " (--measure)";
                p.field = "--" + p.field;
            }
            return reportProblems(named);
        }
        measured = *run;
    }
    if (parser.isSet("json")) {
        QJsonArray ops;
        for (const kernels::FusionChainOp &op : c.ops)
            ops.append(QJsonObject{{"op", QString::fromLatin1(kernels::toString(op.op).data())}, {"flops", op.flops},
                                   {"bytes_read", op.bytes_read}, {"bytes_written", op.bytes_written},
                                   {"seconds", op.unfused_time.seconds}});
        QJsonObject json{{"ops", ops}, {"flops", c.flops}, {"unfused_bytes", c.unfused_bytes},
                         {"fused_bytes", c.fused_bytes}, {"unfused_seconds", c.unfused_seconds},
                         {"fused_seconds", c.fused_time.seconds}, {"speedup", c.speedup()},
                         {"unfused_intensity", c.unfusedIntensity()}, {"fused_intensity", c.fusedIntensity()},
                         {"gpu", QString::fromStdString(gpu->id)}};
        if (measured) {
            const auto variant = [](const reference::FusionVariantRun &run) {
                return QJsonObject{{"seconds", run.seconds}, {"bytes", run.bytes}, {"bytes_per_second", run.bytes_per_second}};
            };
            json["measured"] = QJsonObject{{"unfused", variant(measured->unfused)}, {"fused", variant(measured->fused)},
                                           {"speedup", measured->speedup()}, {"threads", measured->threads},
                                           {"repeats", measured->request.repeats},
                                           {"outputs_bitwise_equal", measured->outputs_bitwise_equal}};
        }
        printJson(json);
        return kExitOk;
    }
    QString text = QStringLiteral("Element-wise chain on %1 x %2 (%3) on %4%5\n\n")
                       .arg(config.tokens).arg(config.width)
                       .arg(QString::fromLatin1(toString(config.dtype).data()), QString::fromStdString(gpu->name),
                            config.training ? QStringLiteral(", training") : QString());
    text += QStringLiteral("  %1 %2 %3 %4 %5\n").arg(QStringLiteral("kernel"), -12).arg(QStringLiteral("FLOPs"), 13)
                .arg(QStringLiteral("read"), 11).arg(QStringLiteral("written"), 11).arg(QStringLiteral("time"), 10);
    for (const kernels::FusionChainOp &op : c.ops)
        text += QStringLiteral("  %1 %2 %3 %4 %5\n")
                    .arg(QString::fromLatin1(kernels::toString(op.op).data()), -12)
                    .arg(formatFlopsShort(op.flops), 13)
                    .arg(formatBytes(op.bytes_read), 11)
                    .arg(formatBytes(op.bytes_written), 11)
                    .arg(formatSeconds(op.unfused_time.seconds), 10);
    text += QStringLiteral("\nUnfused: %1 moved, %2 FLOP/byte, %3 in %4 kernels\nFused:   %5 moved, %6 FLOP/byte, %7 in one "
                           "kernel (%8x faster)\n")
                .arg(formatBytes(c.unfused_bytes).trimmed()).arg(c.unfusedIntensity(), 0, 'f', 2)
                .arg(formatSeconds(c.unfused_seconds)).arg(c.ops.size())
                .arg(formatBytes(c.fused_bytes).trimmed()).arg(c.fusedIntensity(), 0, 'f', 2)
                .arg(formatSeconds(c.fused_time.seconds)).arg(c.speedup(), 0, 'f', 2);
    if (measured) {
        const reference::FusionMeasurement &m = *measured;
        text += QStringLiteral("\nMeasured on this CPU (float32, %1 thread(s), median of %2 alternating runs each; bytes are the "
                               "model's count at 4 bytes):\n")
                    .arg(m.threads).arg(m.request.repeats);
        const auto line = [](const QString &name, const reference::FusionVariantRun &run) {
            return QStringLiteral("  %1 %2 %3 %4/s\n").arg(name, -12).arg(formatSeconds(run.seconds), 10)
                .arg(formatBytes(run.bytes), 11).arg(formatBytes(run.bytes_per_second).trimmed());
        };
        text += line(QStringLiteral("unfused"), m.unfused);
        text += line(QStringLiteral("fused"), m.fused);
        text += QStringLiteral("  speedup %1x (the model's bytes ratio %2x); outputs %3\n")
                    .arg(m.speedup(), 0, 'f', 2).arg(m.unfused.bytes / m.fused.bytes, 0, 'f', 2)
                    .arg(m.outputs_bitwise_equal ? QStringLiteral("bitwise equal")
                                                 : QStringLiteral("differ by up to %1").arg(m.max_abs_difference));
    }
    printOut(text);
    return kExitOk;
}

}  // namespace lse::cli
