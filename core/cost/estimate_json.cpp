// SPDX-License-Identifier: GPL-3.0-or-later
#include "cost/estimate_json.h"

#include "scenario/cluster_links.h"

#include <QJsonArray>
#include <QString>

namespace lse {

namespace {

QString qstr(std::string_view text) { return QString::fromUtf8(text.data(), qsizetype(text.size())); }

// Integers beyond 2^53 would be rounded by JSON readers; byte and parameter counts stay below it
// (validation bounds them), so they are written as exact integers.
QJsonValue count(std::int64_t value) { return QJsonValue(qint64(value)); }

// The links the communication times used, with where each bandwidth came from.
QJsonObject linksUsed(const Scenario &scenario)
{
    const ClusterConfig &cluster = scenario.cluster;
    const auto link = [&cluster](bool inter_node) {
        const std::optional<double> &set = inter_node ? cluster.inter_node_gbps_per_gpu : cluster.intra_node_gbps_per_gpu;
        return QJsonObject{
            {"gbps_per_gpu", gbpsFromBytesPerSecond(linkBytesPerSecondPerGpu(cluster, inter_node))},
            {"bandwidth_source", set ? "scenario" : "catalog"},
            {"latency_us", 1e6 * (inter_node ? cluster.inter_node_latency_seconds : cluster.intra_node_latency_seconds)},
        };
    };
    return {
        {"intra_node", link(false)},
        {"inter_node", link(true)},
        {"link_efficiency", cluster.link_efficiency},
        {"dp_overlap", scenario.training.parallel.dp_overlap},
        {"dp_param_gather_overlap", scenario.training.parallel.dp_param_gather_overlap},
        {"tp_comm_overlap", scenario.training.parallel.tp_comm_overlap},
        {"pp_comm_overlap", scenario.training.parallel.pp_comm_overlap},
    };
}

QJsonArray stageLayersJson(const std::vector<int> &layers)
{
    QJsonArray array;
    for (int count : layers)
        array.append(count);
    return array;
}

QJsonObject communicationPart(const CommunicationPart &part)
{
    return {
        {"collective", qstr(part.collective)},
        {"group_size", part.group_size},
        {"crosses_nodes", part.crosses_nodes},
        {"bytes", part.bytes},
        {"seconds", part.seconds},
    };
}

}  // namespace

QJsonObject estimateToJson(const Estimate &estimate, const Scenario &scenario)
{
    const ParameterCounts &p = estimate.params;
    const QJsonObject params{
        {"total", count(p.total)},
        {"active", count(p.active)},
        {"embedding", count(p.embedding)},
        {"attention", count(p.attention)},
        {"mlp", count(p.mlp)},
        {"router", count(p.router)},
        {"experts", count(p.experts)},
        {"shared_experts", count(p.shared_experts)},
        {"norms", count(p.norms)},
        {"biases", count(p.biases)},
        {"head", count(p.head)},
    };

    const FlopsEstimate &f = estimate.flops;
    QJsonObject by_component;
    for (int i = 0; i < kComponentCount; ++i)
        if (f.forward_per_token_by_component[std::size_t(i)] > 0)
            by_component.insert(qstr(toString(Component(i))), f.forward_per_token_by_component[std::size_t(i)]);
    const QJsonObject flops{
        {"forward_per_token", f.forward_per_token},
        {"backward_per_token", f.backward_per_token},
        {"recompute_per_token", f.recompute_per_token},
        {"train_per_token", f.train_per_token},
        {"hardware_train_per_token", f.hardware_train_per_token},
        {"elementwise_forward_per_token", f.elementwise_forward_per_token},
        {"elementwise_backward_per_token", f.elementwise_backward_per_token},
        {"all_ops_train_per_token", f.all_ops_train_per_token},
        {"all_ops_hardware_train_per_token", f.all_ops_hardware_train_per_token},
        {"forward_per_token_by_component", by_component},
        {"total_train", f.total_train},
        {"total_hardware", f.total_hardware},
        {"six_nd", f.six_nd},
        {"time_basis", qstr(toString(scenario.training.flops_model))},
        {"attention_flops", qstr(toString(scenario.training.attention_flops))},
    };

    const TimeEstimate &t = estimate.time;
    QJsonObject time{
        {"seconds", t.seconds},
        {"days", t.days},
        {"gpu_hours", t.gpu_hours},
        {"cost", t.cost},
        {"tokens_per_second", t.tokens_per_second},
        {"steps", t.steps},
        {"step_seconds", t.step_seconds},
        {"peak_flops_per_gpu", t.peak_flops_per_gpu},
        {"mfu", t.mfu},
        {"hfu", t.hfu},
        {"mfu_source", qstr(toString(t.mfu_source))},
    };
    if (t.predicted) {
        time.insert("predicted_step_seconds", t.predicted->step_seconds);
        // The error band: the accelerator's leave-one-source-out 90th-percentile error (equal
        // bounds and band 0 when it has no published runs; band_basis says so).
        time.insert("predicted_step_seconds_low", t.predicted->step_seconds_low);
        time.insert("predicted_step_seconds_high", t.predicted->step_seconds_high);
        time.insert("predicted_mfu_low", t.predicted->mfu_low);
        time.insert("predicted_mfu_high", t.predicted->mfu_high);
        time.insert("seconds_low", t.predicted->training_seconds_low);
        time.insert("seconds_high", t.predicted->training_seconds_high);
        time.insert("band_fraction", t.predicted->band_fraction);
        time.insert("band_basis", qstr(t.predicted->band_basis));
        time.insert("predicted_mfu", t.predicted->mfu);
        time.insert("predicted_hfu", t.predicted->hfu);
        QJsonObject breakdown;
        for (const StepPartSeconds &part : t.predicted->step_breakdown)
            breakdown.insert(qstr(part.id), part.seconds);
        time.insert("step_breakdown", breakdown);
    }

    const MemoryEstimate &m = estimate.memory;
    const QJsonObject memory{
        {"params", count(m.params)},
        {"grads", count(m.grads)},
        {"optimizer", count(m.optimizer)},
        {"activations", count(m.activations)},
        {"framework_reserve", count(m.framework_reserve)},
        {"total", count(m.total)},
        {"capacity", count(m.capacity)},
        {"fits", m.fits},
        {"parameters_on_gpu", count(m.parameters_on_gpu)},
        {"activation_bytes_per_layer", m.activation_bytes_per_layer},
        {"in_flight_micro_batches", m.in_flight_micro_batches},
        {"pipeline_stage", m.pipeline_stage},
        {"stage_layers", stageLayersJson(m.layers_per_stage)},
        {"most_loaded_stage", m.most_loaded_stage},
        {"pipeline_stage_layers", m.stage_layers},
    };

    const CommunicationEstimate &c = estimate.communication;
    const QJsonObject communication{
        {"dp_bytes", c.dp.bytes},
        {"tp_bytes", c.tp.bytes},
        {"pp_bytes", c.pp.bytes},
        {"cp_bytes", c.cp.bytes},
        {"ep_bytes", c.ep.bytes},
        {"seconds", c.total_seconds},
        {"dp", communicationPart(c.dp)},
        {"tp", communicationPart(c.tp)},
        {"pp", communicationPart(c.pp)},
        {"cp", communicationPart(c.cp)},
        {"ep", communicationPart(c.ep)},
        {"links", linksUsed(scenario)},
    };

    const QJsonObject inference{
        {"kv_cache_bytes_per_token", count(estimate.inference.kv_cache_bytes_per_token)},
        {"kv_cache_bytes_per_sequence", count(estimate.inference.kv_cache_bytes_per_sequence)},
        {"weights_bytes_per_gpu", count(estimate.inference.weights_bytes_per_gpu)},
        {"kv_cache_bytes_per_gpu", count(estimate.inference.kv_cache_bytes_per_gpu)},
    };

    return {
        {"model", qstr(scenario.model.name)},
        {"accelerator", qstr(scenario.cluster.accelerator.id)},
        {"gpus", scenario.cluster.gpus},
        {"params", params},
        {"flops", flops},
        {"time", time},
        {"memory_per_gpu", memory},
        {"communication_per_step", communication},
        {"inference", inference},
    };
}

}  // namespace lse
