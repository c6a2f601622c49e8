// SPDX-License-Identifier: GPL-3.0-or-later
#include "traces/trace_vs_prediction_json.h"

#include <QJsonArray>

namespace lse::traces {

namespace {

QString qstr(const std::string &text) { return QString::fromStdString(text); }
QString qstr(std::string_view text) { return QString::fromUtf8(text.data(), qsizetype(text.size())); }

QJsonObject operatorToJson(const OperatorComparison &row)
{
    QJsonObject object;
    object.insert("name", qstr(row.name));
    object.insert("class", qstr(row.kernel_class));
    object.insert("shape", qstr(row.shape));
    object.insert("split", row.split);
    object.insert("measured_count", row.measured_count);
    object.insert("measured_seconds", row.measured_seconds);
    object.insert("measured_flops", row.measured_flops);
    object.insert("predicted_count", row.predicted_count);
    object.insert("predicted_seconds", row.predicted_seconds);
    object.insert("predicted_flops", row.predicted_flops);
    object.insert("ratio", row.ratio());
    return object;
}

}  // namespace

QJsonObject gemmPredictionToJson(const GemmPredictionSummary &s, int max_rows)
{
    QJsonObject object;
    object.insert("accelerator", qstr(s.accelerator_id));
    object.insert("calls", double(s.calls));
    object.insert("skipped_calls", double(s.skipped_calls));
    object.insert("measured_seconds", s.measured_seconds);
    object.insert("predicted_seconds", s.predicted_seconds);
    object.insert("ratio", QJsonObject{{"median", s.median_ratio},
                                       {"p10", s.p10_ratio},
                                       {"p90", s.p90_ratio},
                                       {"min", s.min_ratio},
                                       {"max", s.max_ratio}});
    QJsonArray rows;
    for (const GemmComparisonRow &row : s.rows) {
        if (max_rows >= 0 && rows.size() >= max_rows)
            break;
        QJsonObject r;
        r.insert("operator", qstr(row.op_name));
        r.insert("shape", qstr(row.shape));
        r.insert("dtype", qstr(row.dtype));
        r.insert("kernel", qstr(row.kernel_name));
        r.insert("calls", double(row.calls));
        r.insert("flops", row.flops);
        r.insert("measured_seconds", row.measured_seconds);
        r.insert("predicted_seconds", row.predicted_seconds);
        r.insert("ratio", row.ratio());
        r.insert("achieved_flops_per_second", row.achievedFlopsPerSecond());
        r.insert("peak_flops_per_second", row.peak_flops_per_second);
        rows.append(r);
    }
    object.insert("rows", rows);
    return object;
}

QJsonObject traceVsPredictionToJson(const TraceVsPrediction &c)
{
    QJsonObject object;
    object.insert("accelerator", qstr(c.accelerator_id));
    object.insert("pass", qstr(toString(c.pass)));
    object.insert("steps", c.steps);
    object.insert("measured_step_seconds", c.measured_step_seconds);
    object.insert("predicted_step_seconds", c.predicted_step_seconds);
    object.insert("matmul_flops", QJsonObject{{"measured", c.measured_matmul_flops}, {"predicted", c.predicted_matmul_flops}});
    object.insert("peak_flops_per_second", c.peak_flops_per_second);
    object.insert("mfu", QJsonObject{{"measured", c.measured_mfu}, {"predicted", c.predicted_mfu}, {"engine", c.engine_mfu}});
    QJsonArray classes;
    for (const ClassComparison &row : c.classes)
        classes.append(QJsonObject{{"class", qstr(row.kernel_class)},
                                   {"measured_seconds", row.measured_seconds},
                                   {"predicted_seconds", row.predicted_seconds}});
    object.insert("classes", classes);
    QJsonArray operators, missing;
    for (const OperatorComparison &row : c.operators)
        operators.append(operatorToJson(row));
    for (const OperatorComparison &row : c.missing_in_trace)
        missing.append(operatorToJson(row));
    object.insert("operators", operators);
    object.insert("missing_in_trace", missing);
    const MissingTime &t = c.missing_time;
    QJsonObject time;
    time.insert("measured_step_seconds", t.measured_step_seconds);
    time.insert("predicted_kernel_seconds", t.predicted_kernel_seconds);
    time.insert("slower_kernel_seconds", t.slower_kernel_seconds);
    time.insert("unpredicted_kernel_seconds", t.unpredicted_kernel_seconds);
    time.insert("earlier_kernel_seconds", t.earlier_kernel_seconds);
    time.insert("concurrent_kernel_seconds", t.concurrent_kernel_seconds);
    time.insert("exposed_communication_seconds", t.exposed_communication_seconds);
    time.insert("memcpy_seconds", t.memcpy_seconds);
    time.insert("idle_host_bound_seconds", t.idle_host_bound_seconds);
    time.insert("idle_waiting_seconds", t.idle_waiting_seconds);
    time.insert("predicted_missing_in_trace_seconds", t.predicted_missing_in_trace_seconds);
    time.insert("predicted_step_seconds", t.predicted_step_seconds);
    object.insert("missing_time", time);
    return object;
}

}  // namespace lse::traces
