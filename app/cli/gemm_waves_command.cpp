// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli gemm-waves`: a matrix product's output tiled into thread-block tiles, the tiles
// run on the SMs in waves, and the tile and wave quantisation that follow (NVIDIA Deep Learning
// Performance Guide, "Matrix Multiplication Background"), exactly as the step-time model
// (performance/kernel_time) computes them (core/kernels/gemm_waves.h). --sweep-n prints the
// saw-tooth of achieved FLOP/s over N.

#include "commands.h"
#include "count_option.h"
#include "output.h"

#include "hardware/hardware_catalog.h"
#include "kernels/gemm_waves.h"

#include <QCommandLineParser>
#include <QJsonArray>

#include <array>

namespace lse::cli {

namespace {

constexpr const char *kDefaultGpu = "h100-sxm";

// "FROM:TO:STEP" → three numbers, or a problem naming --sweep-n.
std::optional<std::array<std::int64_t, 3>> sweepRange(const QString &text, Problems &problems)
{
    const QStringList parts = text.split(QLatin1Char(':'));
    std::array<std::int64_t, 3> values{};
    bool ok = parts.size() == 3;
    for (int i = 0; ok && i < 3; ++i) {
        const std::optional<std::int64_t> value = parseCount(parts[i].trimmed());
        ok = value.has_value();
        if (ok)
            values[std::size_t(i)] = *value;
    }
    if (!ok) {
        problems.push_back({"--sweep-n", "range",
                            "--sweep-n '" + text.toStdString() + "' must be FROM:TO:STEP in whole numbers, e.g. 128:4096:1"});
        return std::nullopt;
    }
    return values;
}

}  // namespace

int runGemmWaves(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "A matrix product C (MxN) = A (MxK) B (KxN) on a GPU as the step-time model sees it: C cut into\n"
        "thread-block tiles (128x128, smaller for a skinny side), the tiles run one per SM in waves, the last\n"
        "wave partly idle. Tile quantisation, wave quantisation, time and achieved FLOP/s are the ones the\n"
        "step-time model uses (NVIDIA Deep Learning Performance Guide, 'Matrix Multiplication Background')."));
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption help(QStringList{"h", "help"}, QStringLiteral("Show this help."));
    parser.addOption(help);
    parser.addOption(QCommandLineOption("m", "Rows of A and C (1 to 1,048,576).", "M"));
    parser.addOption(QCommandLineOption("n", "Columns of B and C (1 to 1,048,576).", "N"));
    parser.addOption(QCommandLineOption("k", "The reduction dimension (1 to 1,048,576).", "K"));
    parser.addOption(QCommandLineOption("gpu", QStringLiteral("Accelerator id (default %1; see 'hardware').").arg(QLatin1String(kDefaultGpu)), "ID"));
    parser.addOption(QCommandLineOption("dtype", "fp32, tf32, bf16 (default), fp16 or fp8.", "DTYPE", "bf16"));
    parser.addOption(QCommandLineOption("sweep-n", "Also sweep N from FROM to TO in steps of STEP (at most 10,000 points).",
                                        "FROM:TO:STEP"));
    parser.addOption(QCommandLineOption(
        "json", "Print one JSON object: m, n, k, gpu, dtype, tile_rows, tile_columns, row_tiles, column_tiles, tiles, "
                "sm_count, waves, full_waves, last_wave_tiles, tile_quantisation, wave_quantisation, depth, efficiency, "
                "seconds, memory_bound, flops, bytes, peak_flops_per_second, achieved_flops_per_second, and with "
                "--sweep-n sweep[] {n, achieved_flops_per_second, tile_quantisation, wave_quantisation, waves}."));
    if (!parser.parse(QStringList{"gemm-waves"} + arguments))
        return reportProblems({Problem{"arguments", "syntax", parser.errorText().toStdString()}});
    if (parser.isSet(help)) {
        printOut(QStringLiteral("Usage: llm-explorer-cli gemm-waves --m M --n N --k K [--gpu ID] [--dtype bf16] "
                                "[--sweep-n FROM:TO:STEP] [--json]\n")
                 + parser.helpText().section('\n', 1));
        return kExitOk;
    }
    if (!parser.positionalArguments().isEmpty())
        return reportProblems({Problem{"arguments", "unexpected",
                                       "unexpected argument '" + parser.positionalArguments().front().toStdString()
                                           + "'; options start with --"}});
    Problems problems;
    for (const char *flag : {"m", "n", "k"})
        if (!parser.isSet(flag))
            problems.push_back({std::string("--") + flag, "required", std::string("--") + flag + " is required, e.g. --" + flag + " 4096"});
    const std::optional<std::int64_t> m = countFlag(parser, "m", 1, kernels::kMaxGemmDimension, problems);
    const std::optional<std::int64_t> n = countFlag(parser, "n", 1, kernels::kMaxGemmDimension, problems);
    const std::optional<std::int64_t> k = countFlag(parser, "k", 1, kernels::kMaxGemmDimension, problems);
    const std::string gpu_id = parser.isSet("gpu") ? parser.value("gpu").toStdString() : kDefaultGpu;
    const Accelerator *gpu = builtinHardwareCatalog().find(gpu_id);
    if (!gpu)
        problems.push_back({"--gpu", "unknown", "--gpu '" + gpu_id + "' is not in the catalog (see 'llm-explorer-cli hardware')"});
    const std::optional<DType> dtype = dtypeFromString(parser.value("dtype").toStdString());
    if (!dtype)
        problems.push_back({"--dtype", "choice", "--dtype must be fp32, tf32, bf16, fp16 or fp8, not '" + parser.value("dtype").toStdString() + "'"});
    std::optional<std::array<std::int64_t, 3>> sweep;
    if (parser.isSet("sweep-n"))
        sweep = sweepRange(parser.value("sweep-n"), problems);
    if (!problems.empty())
        return reportProblems(problems);

    const kernels::GemmProblem problem{*m, *n, *k, *dtype};
    const auto flagged = [](Problems list) {
        for (Problem &p : list) {
            const std::string flag = p.field == "dtype" ? "--dtype" : p.field == "accelerator" ? "--gpu"
                                   : p.field.rfind("n_", 0) == 0 ? "--sweep-n" : "--" + p.field;
            p.message = flag + ": " + p.message;
            p.field = flag;
        }
        return reportProblems(list);
    };
    const Result<kernels::GemmWaves> waves = kernels::gemmWaves(problem, *gpu);
    if (!waves)
        return flagged(waves.problems());
    std::vector<kernels::GemmSweepPoint> points;
    if (sweep) {
        const Result<std::vector<kernels::GemmSweepPoint>> swept =
            kernels::gemmWaveSweep(problem, (*sweep)[0], (*sweep)[1], (*sweep)[2], *gpu);
        if (!swept)
            return flagged(swept.problems());
        points = *swept;
    }

    const kernels::GemmWaves &w = *waves;
    if (parser.isSet("json")) {
        QJsonObject json{{"m", double(*m)}, {"n", double(*n)}, {"k", double(*k)},
                         {"gpu", QString::fromStdString(gpu->id)}, {"dtype", QString::fromLatin1(toString(*dtype).data())},
                         {"tile_rows", double(w.tile_rows)}, {"tile_columns", double(w.tile_columns)},
                         {"row_tiles", double(w.row_tiles)}, {"column_tiles", double(w.column_tiles)},
                         {"tiles", double(w.tiles)}, {"sm_count", double(w.sm_count)}, {"waves", double(w.waves)},
                         {"full_waves", double(w.full_waves)}, {"last_wave_tiles", double(w.last_wave_tiles)},
                         {"tile_quantisation", w.efficiency.tile_quantisation},
                         {"wave_quantisation", w.efficiency.wave_quantisation}, {"depth", w.efficiency.depth},
                         {"efficiency", w.efficiency.total}, {"seconds", w.time.seconds},
                         {"memory_bound", w.time.memory_bound}, {"flops", w.flops}, {"bytes", w.bytes},
                         {"peak_flops_per_second", w.peak_flops_per_second},
                         {"achieved_flops_per_second", w.achieved_flops_per_second}};
        if (sweep) {
            QJsonArray array;
            for (const kernels::GemmSweepPoint &point : points)
                array.append(QJsonObject{{"n", double(point.n)},
                                         {"achieved_flops_per_second", point.achieved_flops_per_second},
                                         {"tile_quantisation", point.tile_quantisation},
                                         {"wave_quantisation", point.wave_quantisation},
                                         {"waves", double(point.waves)}});
            json["sweep"] = array;
        }
        printJson(json);
        return kExitOk;
    }
    QString text = QStringLiteral("GEMM %1 x %2 x %3 (%4) on %5\n")
                       .arg(*m).arg(*n).arg(*k)
                       .arg(QString::fromLatin1(toString(*dtype).data()), QString::fromStdString(gpu->name));
    text += QStringLiteral("Tiles: %1 x %2 thread-block tiles, %3 x %4 = %5 tiles\n")
                .arg(w.tile_rows).arg(w.tile_columns).arg(w.row_tiles).arg(w.column_tiles).arg(w.tiles);
    text += QStringLiteral("Waves: %1 SMs -> %2 wave(s): %3 full, the last with %4 of %1 SMs busy\n")
                .arg(w.sm_count).arg(w.waves).arg(w.full_waves).arg(w.last_wave_tiles);
    text += QStringLiteral("Efficiency: tile quantisation %1, wave quantisation %2, depth k/(k+k0) %3, total %4 of peak\n")
                .arg(w.efficiency.tile_quantisation, 0, 'f', 3)
                .arg(w.efficiency.wave_quantisation, 0, 'f', 3)
                .arg(w.efficiency.depth, 0, 'f', 3)
                .arg(w.efficiency.total, 0, 'f', 3);
    text += QStringLiteral("Time: %1 (%2); achieved %3 of %4 peak\n")
                .arg(formatSeconds(w.time.seconds), w.time.memory_bound ? QStringLiteral("memory-bound") : QStringLiteral("compute-bound"),
                     formatFlopRate(w.achieved_flops_per_second).trimmed(), formatFlopRate(w.peak_flops_per_second).trimmed());
    if (sweep) {
        text += QStringLiteral("\n  %1 %2 %3 %4 %5\n").arg(QStringLiteral("N"), 8).arg(QStringLiteral("achieved"), 16)
                    .arg(QStringLiteral("tile q."), 8).arg(QStringLiteral("wave q."), 8).arg(QStringLiteral("waves"), 6);
        for (const kernels::GemmSweepPoint &point : points)
            text += QStringLiteral("  %1 %2 %3 %4 %5\n")
                        .arg(point.n, 8)
                        .arg(formatFlopRate(point.achieved_flops_per_second), 16)
                        .arg(point.tile_quantisation, 8, 'f', 3)
                        .arg(point.wave_quantisation, 8, 'f', 3)
                        .arg(point.waves, 6);
    }
    printOut(text);
    return kExitOk;
}

}  // namespace lse::cli
