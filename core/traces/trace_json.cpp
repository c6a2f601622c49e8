// SPDX-License-Identifier: GPL-3.0-or-later
#include "traces/trace_json.h"

#include <QJsonArray>

namespace lse::traces {

namespace {

QString qstr(const std::string &text) { return QString::fromStdString(text); }
QString qstr(std::string_view text) { return QString::fromUtf8(text.data(), qsizetype(text.size())); }

}  // namespace

QJsonObject breakdownToJson(const TraceTimeBreakdown &b)
{
    QJsonObject object;
    object.insert("window_seconds", b.window_seconds);
    object.insert("compute_seconds", b.compute_seconds);
    object.insert("communication_seconds", b.communication_seconds);
    object.insert("communication_total_seconds", b.communication_total_seconds);
    object.insert("memcpy_seconds", b.memcpy_seconds);
    object.insert("idle_seconds", b.idle_seconds);
    object.insert("idle_host_bound_seconds", b.idle_host_bound_seconds);
    object.insert("idle_waiting_seconds", b.idle_waiting_seconds);
    object.insert("overlap_percent", b.overlap_percent);
    return object;
}

QJsonObject traceAnalysisToJson(const TraceRankAnalysis &a)
{
    QJsonObject object;
    object.insert("source", qstr(a.source));
    object.insert("rank", a.rank);
    object.insert("device", qstr(a.device_name));
    object.insert("has_gpu", a.has_gpu);
    object.insert("record_shapes", a.record_shapes);
    QJsonArray steps;
    for (const TraceStepAnalysis &step : a.steps) {
        QJsonObject s;
        s.insert("number", double(step.number));
        s.insert("cpu_seconds", step.cpu_duration_us * 1e-6);
        s.insert("kernel_count", double(step.kernel_count));
        s.insert("breakdown", breakdownToJson(step.breakdown));
        steps.append(s);
    }
    object.insert("steps", steps);
    object.insert("kernels", QJsonObject{{"count", double(a.kernel_count)}, {"seconds", a.kernel_seconds}});
    object.insert("breakdown", breakdownToJson(a.breakdown));
    object.insert("overlap_percent", a.breakdown.overlap_percent);
    object.insert("outside_steps", QJsonObject{{"count", double(a.outside_steps.count)}, {"seconds", a.outside_steps.seconds}});
    object.insert("queued_before_trace",
                  QJsonObject{{"count", double(a.queued_before_trace.count)}, {"seconds", a.queued_before_trace.seconds}});
    object.insert("matmul_flops", a.matmul_flops);
    object.insert("matmul_count", double(a.matmul_count));
    object.insert("cpu_communication", QJsonObject{{"count", double(a.cpu_communication.count)},
                                                   {"seconds", a.cpu_communication.seconds},
                                                   {"bytes", a.cpu_communication.bytes}});
    QJsonObject by_class;
    for (const TraceClassRow &row : a.classification.by_class)
        by_class.insert(qstr(kernelClassName(row.kernel_class)),
                        QJsonObject{{"count", double(row.count)}, {"seconds", row.seconds}});
    object.insert("classification", QJsonObject{{"activity_count", double(a.classification.activity_count)},
                                                {"unknown_count", double(a.classification.unknown_count)},
                                                {"unknown_percent", a.classification.unknown_percent},
                                                {"by_class", by_class}});
    QJsonArray top;
    for (const TraceKernelRow &row : a.top_kernels) {
        QJsonObject k;
        k.insert("name", qstr(row.name));
        k.insert("class", qstr(kernelClassName(row.kernel_class)));
        k.insert("count", double(row.count));
        k.insert("seconds", row.seconds);
        k.insert("percent", row.percent);
        k.insert("flops", row.flops);
        k.insert("bytes", row.bytes);
        k.insert("achieved_flops_per_second", row.achieved_flops_per_second);
        k.insert("arithmetic_intensity", row.arithmetic_intensity);
        top.append(k);
    }
    object.insert("top_kernels", top);
    QJsonArray operators;
    for (const TraceOperatorRow &row : a.operators) {
        QJsonObject o;
        o.insert("name", qstr(row.name));
        o.insert("class", qstr(kernelClassName(row.kernel_class)));
        o.insert("shape", qstr(row.shape));
        o.insert("dtype", qstr(row.dtype));
        o.insert("count", double(row.count));
        o.insert("seconds", row.seconds);
        o.insert("flops", row.flops);
        o.insert("bytes", row.bytes);
        operators.append(o);
    }
    object.insert("operators", operators);
    QJsonArray notes;
    for (const std::string &note : a.notes)
        notes.append(qstr(note));
    object.insert("notes", notes);
    return object;
}

}  // namespace lse::traces
