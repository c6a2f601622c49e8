// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/attention_measurement_json.h"

namespace lse::reference {

namespace {

QJsonObject kernelJson(const AttentionKernelRun &run)
{
    QJsonObject o;
    o.insert("ran", run.ran);
    if (!run.ran) {
        o.insert("skipped", QString::fromStdString(run.skipped));
        return o;
    }
    o.insert("seconds", run.forward_seconds);
    o.insert("peak_bytes", run.forward_peak_bytes);
    o.insert("working_bytes", run.forward_working_bytes);
    if (run.training_seconds > 0) {
        o.insert("training_seconds", run.training_seconds);
        o.insert("training_peak_bytes", run.training_peak_bytes);
        o.insert("training_working_bytes", run.training_working_bytes);
    }
    o.insert("bytes_moved", run.counted_bytes_moved ? *run.counted_bytes_moved : run.modelled_bytes_moved);
    o.insert("bytes_moved_counted", run.counted_bytes_moved.has_value());
    return o;
}

}  // namespace

QJsonObject attentionMeasuredJson(const AttentionMeasurement &m, const AttentionMeasureRow &row)
{
    QJsonObject o;
    o.insert("n", double(row.n));
    o.insert("naive", kernelJson(row.naive));
    o.insert("tiled", kernelJson(row.tiled));
    o.insert("block_rows", double(m.blocks.rows));
    o.insert("block_cols", double(m.blocks.cols));
    o.insert("threads", m.threads);
    o.insert("l2_bytes", double(m.caches.l2_bytes));
    o.insert("bytes_moved_source", QString::fromStdString(m.bytes_moved_source));
    o.insert("causal", true);  // both kernels here are causal decoders' attention
    return o;
}

}  // namespace lse::reference
