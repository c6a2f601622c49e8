// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli fusion`: a chain of element-wise operators (bias + GeLU + dropout + residual by
// default) as separate kernels vs one fused kernel: HBM bytes, FLOPs, intensity and time on an
// accelerator's roofline (core/kernels/fusion_chain.h). The CPU measurement of the same chain is
// not part of this command yet.

#include "commands.h"
#include "count_option.h"
#include "output.h"

#include "hardware/hardware_catalog.h"
#include "kernels/fusion_chain.h"

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
        "json", "Print one JSON object: ops[] {op, flops, bytes_read, bytes_written, seconds}, flops, unfused_bytes, "
                "fused_bytes, unfused_seconds, fused_seconds, speedup, unfused_intensity, fused_intensity."));
    if (!parser.parse(QStringList{"fusion"} + arguments))
        return reportProblems({Problem{"arguments", "syntax", parser.errorText().toStdString()}});
    if (parser.isSet(help)) {
        printOut(QStringLiteral("Usage: llm-explorer-cli fusion [--tokens T] [--width W] [--ops bias,gelu,dropout,residual] "
                                "[--gpu ID] [--dtype bf16] [--training] [--json]\n")
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
    if (parser.isSet("json")) {
        QJsonArray ops;
        for (const kernels::FusionChainOp &op : c.ops)
            ops.append(QJsonObject{{"op", QString::fromLatin1(kernels::toString(op.op).data())}, {"flops", op.flops},
                                   {"bytes_read", op.bytes_read}, {"bytes_written", op.bytes_written},
                                   {"seconds", op.unfused_time.seconds}});
        printJson(QJsonObject{{"ops", ops}, {"flops", c.flops}, {"unfused_bytes", c.unfused_bytes},
                              {"fused_bytes", c.fused_bytes}, {"unfused_seconds", c.unfused_seconds},
                              {"fused_seconds", c.fused_time.seconds}, {"speedup", c.speedup()},
                              {"unfused_intensity", c.unfusedIntensity()}, {"fused_intensity", c.fusedIntensity()},
                              {"gpu", QString::fromStdString(gpu->id)}});
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
    printOut(text);
    return kExitOk;
}

}  // namespace lse::cli
