// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli machine`: this machine's measured roofline (SGEMM peak, STREAM bandwidth).

#include "commands.h"
#include "count_option.h"
#include "output.h"

#include "hardware/machine_roofline.h"
#include "performance/cpu_kernel_time.h"
#include "reference/kernel_benchmark.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QJsonArray>

#include <algorithm>

namespace lse::cli {

namespace {

// The element-wise kernel classes whose loops split over threads from a measured threshold
// (reference/ops/parallel_thresholds.h).
constexpr const char *kSplitKernels[] = {"norm", "residual", "activation", "rope", "cross_entropy"};

QString qstr(const std::string &text) { return QString::fromStdString(text); }

void printTable(const MachineRoofline &r, const std::string &cache_path, const Problems &save_problems)
{
    const auto row = [](const QString &label, const QString &one, const QString &all) {
        printOut(QStringLiteral("%1 %2 %3\n").arg(label, -24).arg(one, 16).arg(all, 16));
    };
    printOut(QStringLiteral("This machine's roofline%1\n\n")
                 .arg(r.quick ? QStringLiteral(" (QUICK test-sized run: cache-resident, not the real roofline)")
                              : QString()));
    row(QString(), QStringLiteral("one core"), QStringLiteral("all cores (%1)").arg(r.threads_used));
    row(QStringLiteral("peak SGEMM float32"), QStringLiteral("%1 GFLOP/s").arg(r.peak_flops_per_s_one_core / 1e9, 0, 'f', 1),
        QStringLiteral("%1 GFLOP/s").arg(r.peak_flops_per_s_all_cores / 1e9, 0, 'f', 1));
    row(QStringLiteral("STREAM triad bandwidth"),
        QStringLiteral("%1 GB/s").arg(r.bandwidth_bytes_per_s_one_core / 1e9, 0, 'f', 1),
        QStringLiteral("%1 GB/s").arg(r.bandwidth_bytes_per_s_all_cores / 1e9, 0, 'f', 1));
    row(QStringLiteral("ridge point"), QStringLiteral("%1 FLOP/B").arg(r.ridge_point_flop_per_byte_one_core(), 0, 'f', 1),
        QStringLiteral("%1 FLOP/B").arg(r.ridge_point_flop_per_byte(), 0, 'f', 1));
    printOut(QStringLiteral("\n"));
    const auto line = [](const QString &label, const QString &value) {
        printOut(QStringLiteral("%1 %2\n").arg(label, -14).arg(value));
    };
    line(QStringLiteral("cpu"), QStringLiteral("%1 (%2 logical cores)").arg(qstr(r.cpu_model)).arg(r.logical_cores));
    line(QStringLiteral("build"), qstr(r.build_flags));
    line(QStringLiteral("sizes"), QStringLiteral("SGEMM n=%1 all cores, n=%2 one core (2n^3 FLOPs, best of runs); "
                                                 "STREAM %3 in 3 float64 arrays, 24 B/element (LLC %4)")
                                      .arg(r.sgemm_n, 0, 'f', 0)
                                      .arg(r.sgemm_n_one_core, 0, 'f', 0)
                                      .arg(formatBytes(r.stream_bytes))
                                      .arg(r.last_level_cache_bytes > 0 ? formatBytes(r.last_level_cache_bytes)
                                                                        : QStringLiteral("unknown")));
    line(QStringLiteral("measured at"), qstr(r.measured_at));
    if (r.previous_peak_flops_per_s_all_cores > 0)
        line(QStringLiteral("previous"), QStringLiteral("%1 GFLOP/s all cores, measured at %2")
                                             .arg(r.previous_peak_flops_per_s_all_cores / 1e9, 0, 'f', 1)
                                             .arg(qstr(r.previous_measured_at)));
    if (r.load_average >= 0)
        line(QStringLiteral("load average"),
             QStringLiteral("%1 before measuring%2")
                 .arg(r.load_average, 0, 'f', 2)
                 .arg(r.load_average >= r.logical_cores ? QStringLiteral(" (busy: other processes competed; numbers are low)")
                                                        : QString()));
    QString source;
    if (r.from_cache)
        source = QStringLiteral("from cache %1 (--remeasure to measure again)").arg(qstr(cache_path));
    else if (r.quick)
        source = QStringLiteral("measured now; quick runs are not cached");
    else if (save_problems.empty())
        source = QStringLiteral("measured now; saved to %1").arg(qstr(cache_path));
    else
        source = QStringLiteral("measured now; not saved: %1").arg(qstr(save_problems.front().message));
    line(QStringLiteral("source"), source);
    const Problems warnings = machineRooflineWarnings(r);
    for (const Problem &warning : warnings)
        printOut(QStringLiteral("WARNING        %1\n").arg(qstr(warning.message)));
    if (!warnings.empty())
        printOut(QStringLiteral("               These numbers are implausible; MFU against them can exceed 100%. Re-measure on "
                                "an idle machine: llm-explorer-cli machine --remeasure\n"));
}

}  // namespace

int runMachine(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Measure (or read from the per-machine cache) this CPU's roofline: float32 SGEMM peak through Eigen "
        "on one core and on all cores, and STREAM triad memory bandwidth over arrays larger than the "
        "last-level cache. Progress goes to stderr."));
    const QCommandLineOption help(QStringList{"h", "help"}, QStringLiteral("Show this help."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print one JSON object on stdout."));
    const QCommandLineOption remeasure(QStringLiteral("remeasure"),
                                       QStringLiteral("Measure again even when a cached measurement exists (a few seconds)."));
    const QCommandLineOption quick(QStringLiteral("quick"),
                                   QStringLiteral("Tiny cache-resident sizes for tests; measured now, never cached."));
    const QCommandLineOption threadsOption(
        QStringLiteral("threads"),
        QStringLiteral("Also measure the kernel factors at N threads (1 to the logical cores). Without it a measurement "
                       "takes one thread's factors only: `train`, `generate` and the Reference run page measure another "
                       "thread count's themselves when a run first needs them (a few seconds)."),
        QStringLiteral("N"));
    parser.addOptions({help, json, remeasure, quick, threadsOption});
    if (!parser.parse(QStringList{QStringLiteral("machine")} + arguments))
        return reportProblems({Problem{"arguments", "syntax", parser.errorText().toStdString()}});
    if (parser.isSet(help)) {
        printOut(QStringLiteral("Usage: llm-explorer-cli machine [--json] [--remeasure] [--quick] [--threads N]\n")
                 + parser.helpText().section('\n', 1));
        return kExitOk;
    }
    if (!parser.positionalArguments().isEmpty())
        return reportProblems({Problem{"arguments", "unexpected",
                                       "unexpected argument '" + parser.positionalArguments().front().toStdString() + "'"}});

    Problems threadProblems;
    const std::optional<std::int64_t> alsoThreads =
        countFlag(parser, QStringLiteral("threads"), 1, std::max(1, currentMachineIdentity().logical_cores), threadProblems);
    if (!threadProblems.empty())
        return reportProblems(threadProblems);

    QElapsedTimer clock;
    clock.start();
    const MachineMeasureProgress progress = [&clock](std::string_view stage, int index, int count) {
        printError(QStringLiteral("measuring [%1/%2] at %3 s: %4...\n")
                       .arg(index + 1)
                       .arg(count)
                       .arg(double(clock.elapsed()) / 1000.0, 0, 'f', 1)
                       .arg(QString::fromUtf8(stage.data(), qsizetype(stage.size()))));
    };
    Problems saveProblems;
    MachineRoofline roofline;
    if (parser.isSet(quick)) {
        MachineMeasureOptions options;
        options.quick = true;
        roofline = measureMachineRoofline(options, progress);
    } else {
        // Said before the progress lines: a stale cache (corrupt, another CPU or build) is measured
        // again, and the user learns why the cached figures were not used.
        const MachineRooflineCacheLookup lookup = lookUpMachineRooflineCache();
        if (!parser.isSet(remeasure) && lookup.status == MachineRooflineCacheLookup::Status::Stale)
            printError(QStringLiteral("%1; measuring again\n").arg(qstr(lookup.why)));
        roofline = machineRoofline(parser.isSet(remeasure), progress, &saveProblems);
    }
    if (!roofline.from_cache)
        printError(QStringLiteral("measured in %1 s\n").arg(double(clock.elapsed()) / 1000.0, 0, 'f', 1));
    for (const Problem &problem : saveProblems)
        printError(QStringLiteral("warning: %1\n").arg(qstr(problem.message)));

    // The kernel factors of the operator-level predictor at one thread and at all threads: cached
    // with the roofline, measured again when the cache cannot serve (checkCachedMeasurement).
    std::vector<CpuKernelFactors> kernels;
    kernels.reserve(2);
    // Measured now: one thread's, and --threads N's when asked (each thread count takes a few
    // seconds; `machine` measured all cores' too before, 12 s in all here). From the cache: the
    // cached ones at one thread and at all cores.
    std::vector<int> threadCounts{1};
    if (roofline.from_cache && roofline.threads_used > 1)
        threadCounts.push_back(roofline.threads_used);
    else if (!roofline.from_cache && alsoThreads && *alsoThreads > 1)
        threadCounts.push_back(int(*alsoThreads));
    QStringList kernelNotes;
    for (const int threads : threadCounts) {
        // A cached roofline shows the cached factors (`train` measures missing or stale ones for
        // its thread count); a roofline measured now measures them too, in the same session.
        if (roofline.from_cache) {
            const std::optional<CpuKernelFactors> cached = loadCachedCpuKernelFactors(threads);
            const CacheVerdict verdict = checkCachedMeasurement(
                roofline, cached, threads, binaryBuiltAt(), threads > 1 ? loadCachedCpuKernelFactors(1) : std::nullopt);
            if (cached)
                kernels.push_back(*cached);
            if (!verdict.usable)
                kernelNotes << QStringLiteral("%1 thread(s): %2; measured again by --remeasure or by a `train` run")
                                   .arg(threads)
                                   .arg(qstr(verdict.why));
            continue;
        }
        lse::reference::KernelBenchmarkOptions options;
        options.threads = threads;
        options.quick = parser.isSet(quick);
        if (threads > 1 && !kernels.empty() && kernels.front().threads == 1)
            options.one_thread = &kernels.front();
        kernels.push_back(lse::reference::measureCpuKernelFactors(options, progress));
        if (std::string why; options.one_thread && !options.quick &&
                             !gemmThreadScalingIsPlausible(kernels.back(), *options.one_thread, roofline, &why))
            kernelNotes << QStringLiteral("%1 thread(s): %2; measure again when the machine is quiet: "
                                          "llm-explorer-cli machine --remeasure --threads %1")
                               .arg(threads)
                               .arg(qstr(why));
        if (!options.quick)
            if (Result<std::string> saved = saveCpuKernelFactors(kernels.back()); !saved)
                printError(QStringLiteral("warning: %1\n").arg(qstr(saved.problems().front().message)));
    }

    const std::string cachePath = machineRooflineCachePath();
    if (parser.isSet(json)) {
        QJsonObject object = machineRooflineToJsonObject(roofline);
        object.insert("ridge_point_flop_per_byte_one_core", roofline.ridge_point_flop_per_byte_one_core());
        object.insert("from_cache", roofline.from_cache);
        object.insert("cache_path", qstr(cachePath));
        QJsonArray warnings;
        for (const Problem &warning : machineRooflineWarnings(roofline))
            warnings.append(QJsonObject{{"field", qstr(warning.field)}, {"rule", qstr(warning.rule)}, {"message", qstr(warning.message)}});
        object.insert("warnings", warnings);
        object.insert("plausible", warnings.isEmpty());
        QJsonArray kernelArray;
        for (const CpuKernelFactors &k : kernels) {
            QJsonObject entry = cpuKernelFactorsToJson(k);
            if (k.threads > 1) {
                QJsonObject thresholds;
                for (const char *kernel : kSplitKernels)
                    thresholds.insert(QString::fromLatin1(kernel), lse::performance::cpuParallelMinElements(k, kernel));
                entry.insert("parallel_min_elements", thresholds);
            }
            kernelArray.append(entry);
        }
        object.insert("kernels", kernelArray);
        object.insert("kernel_notes", QJsonArray::fromStringList(kernelNotes));
        printJson(object);
        return kExitOk;
    }
    printTable(roofline, cachePath, saveProblems);
    printOut(QStringLiteral("\nKernel factors of the step predictor (cached in %1)\n").arg(qstr(cpuKernelFactorsCachePath())));
    for (const CpuKernelFactors &k : kernels) {
        const double best = k.gemm_flops_per_second.empty() ? 0 : *std::max_element(k.gemm_flops_per_second.begin(), k.gemm_flops_per_second.end());
        const double worst = k.gemm_flops_per_second.empty() ? 0 : *std::min_element(k.gemm_flops_per_second.begin(), k.gemm_flops_per_second.end());
        printOut(QStringLiteral("%1 thread(s): GEMM %2-%3 GFLOP/s over a %4^3 (m,n,k) grid; element-wise %5-%6 GB/s, %7 GFLOP/s; "
                                "call %8 us, parallel region %9 us (measured %10 in %11 s)\n")
                     .arg(k.threads)
                     .arg(worst / 1e9, 0, 'f', 1)
                     .arg(best / 1e9, 0, 'f', 1)
                     .arg(k.gemm_axis.size())
                     .arg(k.stream_bytes_per_second.empty() ? 0.0 : *std::min_element(k.stream_bytes_per_second.begin(), k.stream_bytes_per_second.end()) / 1e9, 0, 'f', 1)
                     .arg(k.stream_bytes_per_second.empty() ? 0.0 : *std::max_element(k.stream_bytes_per_second.begin(), k.stream_bytes_per_second.end()) / 1e9, 0, 'f', 1)
                     .arg(k.elementwise_flops_per_second / 1e9, 0, 'f', 2)
                     .arg(k.call_overhead_seconds * 1e6, 0, 'f', 2)
                     .arg(k.barrier_seconds * 1e6, 0, 'f', 2)
                     .arg(qstr(k.measured_at))
                     .arg(k.measure_seconds, 0, 'f', 1));
        const auto range = [](const std::vector<double> &values, double unit) {
            if (values.empty())
                return QStringLiteral("-");
            return QStringLiteral("%1-%2").arg(*std::min_element(values.begin(), values.end()) / unit, 0, 'f', 1)
                .arg(*std::max_element(values.begin(), values.end()) / unit, 0, 'f', 1);
        };
        printOut(QStringLiteral("  generation: one-row product (GEMV) %1 GB/s, decode attention %2 GFLOP/s over (keys, head dim)\n")
                     .arg(range(k.gemv_bytes_per_second, 1e9), range(k.decode_attention_flops_per_second, 1e9)));
        if (k.threads > 1) {
            QStringList thresholds;
            for (const char *kernel : kSplitKernels)
                thresholds << QStringLiteral("%1 %2").arg(QString::fromLatin1(kernel)).arg(lse::performance::cpuParallelMinElements(k, kernel), 0, 'f', 0);
            printOut(QStringLiteral("  split over threads from (elements; where the time the other threads save reaches the "
                                    "parallel region): %1\n")
                         .arg(thresholds.join(QStringLiteral(", "))));
        }
    }
    for (const QString &note : kernelNotes)
        printOut(QStringLiteral("note: %1\n").arg(note));
    return kExitOk;
}

}  // namespace lse::cli
