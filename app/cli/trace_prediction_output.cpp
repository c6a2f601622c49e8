// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace_prediction_output.h"

#include "output.h"
#include "scenario_options.h"

#include "hardware/hardware_catalog.h"
#include "traces/trace_vs_prediction_json.h"

#include <QJsonArray>

namespace lse::cli {

namespace {

QString qstr(const std::string &text) { return QString::fromStdString(text); }
QString qstr(std::string_view text) { return QString::fromUtf8(text.data(), qsizetype(text.size())); }

QString ratioText(double ratio) { return ratio > 0 ? QString::number(ratio, 'f', 2) : QStringLiteral("-"); }
QString percentText(double fraction) { return QString::number(100.0 * fraction, 'f', 1) + QStringLiteral("%"); }

QString gemmText(const traces::GemmPredictionSummary &s, int top)
{
    QString out = QStringLiteral("  GEMM calls on %1 (the engine's GEMM kernel time, catalog factors): %2 calls%3\n")
                      .arg(qstr(s.accelerator_id))
                      .arg(s.calls)
                      .arg(s.skipped_calls > 0 ? QStringLiteral(", %1 without shape or dtype skipped").arg(s.skipped_calls)
                                               : QString());
    if (s.calls == 0)
        return out + QStringLiteral("    none with recorded shapes (record_shapes=True) and a floating-point dtype\n");
    out += QStringLiteral("    measured %1, predicted %2; measured/predicted per call: median %3 (p10 %4, p90 %5, "
                          "min %6, max %7)\n")
               .arg(formatSeconds(s.measured_seconds), formatSeconds(s.predicted_seconds), ratioText(s.median_ratio),
                    ratioText(s.p10_ratio), ratioText(s.p90_ratio), ratioText(s.min_ratio), ratioText(s.max_ratio));
    out += QStringLiteral("    %1 %2 %3 %4 %5 %6  %7\n")
               .arg(QStringLiteral("measured"), 10)
               .arg(QStringLiteral("predicted"), 10)
               .arg(QStringLiteral("ratio"), 6)
               .arg(QStringLiteral("dtype"), -5)
               .arg(QStringLiteral("calls"), 6)
               .arg(QStringLiteral("achieved"), 11)
               .arg(QStringLiteral("operator shape"));
    int shown = 0;
    for (const traces::GemmComparisonRow &row : s.rows) {
        if (shown++ >= top)
            break;
        out += QStringLiteral("    %1 %2 %3 %4 %5 %6  %7 %8\n")
                   .arg(formatSeconds(row.measured_seconds), 10)
                   .arg(formatSeconds(row.predicted_seconds), 10)
                   .arg(ratioText(row.ratio()), 6)
                   .arg(qstr(row.dtype), -5)
                   .arg(row.calls, 6)
                   .arg(formatFlops(row.achievedFlopsPerSecond()) + QStringLiteral("/s"), 11)
                   .arg(qstr(row.op_name), qstr(row.shape));
    }
    return out;
}

QString stepText(const traces::TraceVsPrediction &c, const Scenario &scenario, int top)
{
    QString out = QStringLiteral("  beside the predicted step (%1 on %2, %3 pass; %4 step(s) averaged):\n")
                      .arg(qstr(scenario.model.name), qstr(c.accelerator_id), qstr(traces::toString(c.pass)))
                      .arg(c.steps);
    out += QStringLiteral("    step: measured %1, predicted %2; MFU (matmul FLOPs at %3/s): measured %4, predicted %5\n")
               .arg(formatSeconds(c.measured_step_seconds), formatSeconds(c.predicted_step_seconds),
                    formatFlops(c.peak_flops_per_second), percentText(c.measured_mfu), percentText(c.predicted_mfu));
    out += QStringLiteral("    by class            measured   predicted\n");
    for (const traces::ClassComparison &row : c.classes)
        if (row.measured_seconds > 0 || row.predicted_seconds > 0)
            out += QStringLiteral("      %1 %2 %3\n")
                       .arg(qstr(row.kernel_class), -14)
                       .arg(formatSeconds(row.measured_seconds), 11)
                       .arg(formatSeconds(row.predicted_seconds), 11);
    out += QStringLiteral("    operators (per step)  measured   predicted  ratio  name, predicted shape\n");
    int shown = 0;
    for (const traces::OperatorComparison &row : c.operators) {
        if (shown++ >= top)
            break;
        out += QStringLiteral("      %1 %2 %3 %4  %5%6 %7\n")
                   .arg(qstr(row.kernel_class), -14)
                   .arg(formatSeconds(row.measured_seconds), 11)
                   .arg(formatSeconds(row.predicted_seconds), 11)
                   .arg(ratioText(row.ratio()), 6)
                   .arg(qstr(row.name), row.split ? QStringLiteral(" (split)") : QString(), qstr(row.shape));
    }
    for (const traces::OperatorComparison &row : c.missing_in_trace)
        out += QStringLiteral("      not in the trace: %1 %2 (predicted %3)\n")
                   .arg(qstr(row.name), qstr(row.shape), formatSeconds(row.predicted_seconds));
    const traces::MissingTime &t = c.missing_time;
    out += QStringLiteral("    where the measured %1 went:\n").arg(formatSeconds(t.measured_step_seconds));
    const auto part = [&](const char *label, double seconds) {
        out += QStringLiteral("      %1 %2  %3\n")
                   .arg(QLatin1String(label), -44)
                   .arg(formatSeconds(seconds), 11)
                   .arg(t.measured_step_seconds > 0 ? percentText(seconds / t.measured_step_seconds) : QString(), 7);
    };
    part("predicted time of the operators found", t.predicted_kernel_seconds);
    part("their kernels slower than predicted (<0 faster)", t.slower_kernel_seconds);
    part("kernels the model does not have", t.unpredicted_kernel_seconds);
    part("kernels queued before the trace began", t.earlier_kernel_seconds);
    part("kernels running concurrently (counted once)", t.concurrent_kernel_seconds);
    part("exposed communication", t.exposed_communication_seconds);
    part("exposed copies and memsets", t.memcpy_seconds);
    part("idle, host-bound (nothing queued)", t.idle_host_bound_seconds);
    part("idle, waiting (work queued)", t.idle_waiting_seconds);
    return out;
}

}  // namespace

void addTracePredictionOptions(QCommandLineParser &parser)
{
    addScenarioOptions(parser);
    parser.addOption(QCommandLineOption(
        "pass",
        "With a scenario: the part of the predicted step the trace holds, train (forward, backward, optimizer) or "
        "forward (inference); default: train when the trace has autograd backward operators, else forward.",
        "train|forward"));
    parser.addOption(QCommandLineOption(
        "predict-gemms",
        "Each GEMM call's measured kernel time beside the engine's GEMM kernel time on the trace's device "
        "(deviceProperties; --gpu ID picks another, a scenario its own)."));
}

Result<TracePredictionRequest> tracePredictionRequest(const QCommandLineParser &parser)
{
    TracePredictionRequest request;
    if (parser.isSet("pass")) {
        const QString pass = parser.value("pass");
        if (pass == QLatin1String("train"))
            request.pass = traces::ComparedPass::TrainingStep;
        else if (pass == QLatin1String("forward"))
            request.pass = traces::ComparedPass::ForwardOnly;
        else
            return Result<TracePredictionRequest>::failure(
                "--pass", "enum", "--pass must be train or forward, got '" + pass.toStdString() + "'");
    }
    if (anyScenarioFlagSet(parser, {QStringLiteral("gpu")})) {
        Result<Scenario> scenario = scenarioFromOptions(parser);
        if (!scenario)
            return nameScenarioFlags(scenario.problems(), parser);
        request.gpu = scenario->cluster.accelerator;
        request.scenario = std::move(scenario.value());
    } else if (parser.isSet("gpu")) {
        const std::string id = parser.value("gpu").toStdString();
        const Accelerator *found = builtinHardwareCatalog().find(id);
        if (!found)
            return Result<TracePredictionRequest>::failure(
                "--gpu", "unknown", "--gpu '" + id + "' is not in the hardware catalog (see 'hardware' for the ids)");
        request.gpu = *found;
    }
    if (request.pass && !request.scenario)
        return Result<TracePredictionRequest>::failure(
            "--pass", "needs_scenario", "--pass chooses the part of a predicted step: give a scenario (--scenario FILE or --model ...)");
    request.requested = request.gpu || request.scenario || parser.isSet("predict-gemms");
    return request;
}

Result<TracePredictionOutput> tracePredictionFor(const TracePredictionRequest &request, const traces::TraceRank &rank,
                                                 const traces::TraceRankAnalysis &analysis, int top)
{
    TracePredictionOutput out;
    if (!request.requested)
        return out;
    if (request.scenario && !rank.hasGpu())
        return Result<TracePredictionOutput>::failure(
            "trace", "gpu_kernels",
            rank.source + " is a CPU-only trace: the predicted step is a GPU step, so there are no kernels to compare.");
    if (!rank.hasGpu())
        return out;
    const Accelerator *accelerator = request.gpu ? &*request.gpu
                                                 : traces::acceleratorForDeviceName(rank.device_name, builtinHardwareCatalog());
    if (accelerator) {
        const Result<traces::GemmPredictionSummary> gemms = traces::predictTraceGemms(rank, *accelerator);
        if (!gemms)
            return gemms.problems();
        out.json.insert("gemm_calls", traces::gemmPredictionToJson(*gemms));
        out.text += gemmText(*gemms, top);
    } else {
        const std::string note = "device '" + rank.device_name
            + "' is not in the hardware catalog: choose the accelerator of the GEMM predictions with --gpu ID";
        out.json.insert("gemm_calls_note", qstr(note));
        out.text += QStringLiteral("  GEMM predictions: %1\n").arg(qstr(note));
    }
    if (request.scenario) {
        const traces::ComparedPass pass = request.pass ? *request.pass : traces::detectComparedPass(rank);
        const Result<traces::TraceVsPrediction> compared =
            traces::compareWithPrediction(rank, analysis, *request.scenario, pass);
        if (!compared)
            return compared.problems();
        out.json.insert("step", traces::traceVsPredictionToJson(*compared));
        out.text += stepText(*compared, *request.scenario, top);
    }
    return out;
}

}  // namespace lse::cli
