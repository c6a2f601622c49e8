// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/scenario.h"
#include "scenario/stage_layers.h"

#include <cmath>
#include <cstdint>
#include <string>

namespace lse {

namespace {

// Beyond these the products the engine forms (e.g. seq_len^2 * heads * batch) would leave the
// range where doubles count exactly and int64 byte counts stay defined. Real models are far below.
constexpr std::int64_t kMaxDimension = std::int64_t(1) << 24;   // 16.7M
constexpr std::int64_t kMaxTokens = std::int64_t(1) << 52;      // 4.5e15

std::string str(std::int64_t value) { return std::to_string(value); }
std::string str(double value)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%g", value);
    return buffer;
}

// "training.micro_batch·dp" names two fields: training.micro_batch and training.dp.
std::vector<std::string> relatedFields(const std::string &expression)
{
    std::vector<std::string> fields;
    const std::string separator = "·";
    std::string prefix;
    std::size_t start = 0;
    while (start <= expression.size()) {
        const std::size_t end = expression.find(separator, start);
        std::string part = expression.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (const std::size_t dot = part.rfind('.'); dot != std::string::npos)
            prefix = part.substr(0, dot + 1);
        else
            part = prefix + part;
        fields.push_back(part);
        if (end == std::string::npos)
            break;
        start = end + separator.size();
    }
    return fields;
}

class Checker {
public:
    void add(std::string field, std::string rule, std::string message, std::vector<std::string> related = {})
    {
        problems.push_back({std::move(field), std::move(rule), std::move(message), std::move(related)});
    }

    // `value` must be in [min, max]; returns whether it is.
    bool range(const std::string &field, std::int64_t value, std::int64_t min, std::int64_t max)
    {
        if (value < min) {
            add(field, min == 1 ? "positive" : "minimum",
                field + " is " + str(value) + "; it must be at least " + str(min));
            return false;
        }
        if (value > max) {
            add(field, "maximum", field + " is " + str(value) + "; it must be at most " + str(max));
            return false;
        }
        return true;
    }

    void divisible(const std::string &field, std::int64_t value, const std::string &by_field, std::int64_t by)
    {
        if (by > 0 && value % by != 0)
            add(field, "divisible", field + " " + str(value) + " is not divisible by " + by_field + " " + str(by),
                relatedFields(by_field));
    }

    void positiveFinite(const std::string &field, double value)
    {
        if (!std::isfinite(value) || value <= 0)
            add(field, "positive", field + " is " + str(value) + "; it must be a finite number greater than 0");
    }

    Problems problems;
};

void checkModel(Checker &check, const ModelConfig &model)
{
    const bool layers_ok = check.range("model.n_layers", model.n_layers, 1, 100000);
    check.range("model.d_model", model.d_model, 1, kMaxDimension);
    const bool heads_ok = check.range("model.n_heads", model.n_heads, 1, 65536);
    const bool kv_ok = check.range("model.n_kv_heads", model.n_kv_heads, 1, 65536);
    if (heads_ok && kv_ok) {
        if (model.n_kv_heads > model.n_heads)
            check.add("model.n_kv_heads", "maximum",
                      "model.n_kv_heads " + str(std::int64_t(model.n_kv_heads)) + " exceeds model.n_heads "
                          + str(std::int64_t(model.n_heads)) + "; GQA shares each KV head among query heads");
        else
            check.divisible("model.n_heads", model.n_heads, "model.n_kv_heads", model.n_kv_heads);
    }
    check.range("model.head_dim", model.head_dim, 1, 65536);
    check.range("model.vocab_size", model.vocab_size, 1, kMaxDimension);
    check.range("model.max_seq_len", model.max_seq_len, 1, kMaxDimension);

    const MoeConfig &moe = model.moe;
    if (check.range("model.moe.n_experts", moe.n_experts, 0, 65536) && moe.enabled()) {
        if (moe.top_k < 1 || moe.top_k > moe.n_experts)
            check.add("model.moe.top_k", "range",
                      "model.moe.top_k is " + str(std::int64_t(moe.top_k)) + "; it must be between 1 and "
                          "model.moe.n_experts (" + str(std::int64_t(moe.n_experts)) + ")");
        check.range("model.moe.expert_d_ff", moe.expert_d_ff, 1, kMaxDimension);
        check.range("model.moe.n_shared_experts", moe.n_shared_experts, 0, 65536);
        check.range("model.moe.shared_expert_d_ff", moe.shared_expert_d_ff, 0, kMaxDimension);
        check.range("model.moe.moe_layer_interval", moe.moe_layer_interval, 1, 100000);
        if (layers_ok)
            check.range("model.moe.first_moe_layer", moe.first_moe_layer, 0, model.n_layers - 1);
    }
    // A dense feed-forward exists unless every layer is an MoE layer.
    if (moe.moeLayerCount(model.n_layers) < model.n_layers)
        check.range("model.d_ff", model.d_ff, 1, kMaxDimension);
}

void checkCluster(Checker &check, const ClusterConfig &cluster, const TrainingConfig &training)
{
    const bool gpus_ok = check.range("cluster.gpus", cluster.gpus, 1, 10000000);
    const bool per_node_ok = check.range("cluster.gpus_per_node", cluster.gpus_per_node, 1, 4096);
    if (gpus_ok && per_node_ok && cluster.gpus > cluster.gpus_per_node)
        check.divisible("cluster.gpus", cluster.gpus, "cluster.gpus_per_node", cluster.gpus_per_node);

    const Accelerator &gpu = cluster.accelerator;
    check.range("cluster.accelerator.memory_bytes", gpu.memory_bytes, 1, std::int64_t(1) << 50);
    // A scenario's own link bandwidth replaces the catalog's, which then need not be usable.
    if (cluster.intra_node_gbps_per_gpu)
        check.positiveFinite("cluster.intra_node_gbps_per_gpu", *cluster.intra_node_gbps_per_gpu);
    else
        check.positiveFinite("cluster.accelerator.intra_node_bandwidth_bytes_per_second",
                             gpu.intra_node_bandwidth_bytes_per_second);
    if (cluster.inter_node_gbps_per_gpu)
        check.positiveFinite("cluster.inter_node_gbps_per_gpu", *cluster.inter_node_gbps_per_gpu);
    else
        check.positiveFinite("cluster.accelerator.inter_node_bandwidth_bytes_per_second",
                             gpu.inter_node_bandwidth_bytes_per_second);
    if (cluster.peak_flops_per_second_override) {
        check.positiveFinite("cluster.peak_flops_per_second_override", *cluster.peak_flops_per_second_override);
    } else {
        const DType dtype = training.precision.matmul_dtype;
        const double peak = gpu.dense_peak.forDType(dtype);
        const std::string which = !gpu.name.empty() ? gpu.name : !gpu.id.empty() ? "'" + gpu.id + "'" : "the unnamed accelerator";
        if (!std::isfinite(peak) || peak <= 0)
            check.add("training.precision.matmul_dtype", "unsupported",
                      "training.precision.matmul_dtype " + std::string(toString(dtype)) + " has no peak on " + which
                          + " (cluster.accelerator.dense_peak." + std::string(toString(dtype)) + " is " + str(peak)
                          + "); choose another precision or set cluster.peak_flops_per_second_override",
                      {"cluster.accelerator.dense_peak." + std::string(toString(dtype)), "training.precision.recipe"});
    }
    if (!std::isfinite(cluster.link_efficiency) || cluster.link_efficiency <= 0 || cluster.link_efficiency > 1)
        check.add("cluster.link_efficiency", "range",
                  "cluster.link_efficiency is " + str(cluster.link_efficiency) + "; it must be in (0, 1]");
    if (!std::isfinite(cluster.intra_node_latency_seconds) || cluster.intra_node_latency_seconds < 0)
        check.add("cluster.intra_node_latency_seconds", "non_negative",
                  "cluster.intra_node_latency_seconds is " + str(cluster.intra_node_latency_seconds)
                      + "; it must be a finite number of at least 0");
    if (!std::isfinite(cluster.inter_node_latency_seconds) || cluster.inter_node_latency_seconds < 0)
        check.add("cluster.inter_node_latency_seconds", "non_negative",
                  "cluster.inter_node_latency_seconds is " + str(cluster.inter_node_latency_seconds)
                      + "; it must be a finite number of at least 0");
    if (!std::isfinite(cluster.price_per_gpu_hour) || cluster.price_per_gpu_hour < 0)
        check.add("cluster.price_per_gpu_hour", "non_negative",
                  "cluster.price_per_gpu_hour is " + str(cluster.price_per_gpu_hour) + "; it must be at least 0");
}

void checkTraining(Checker &check, const Scenario &scenario)
{
    const ModelConfig &model = scenario.model;
    const TrainingConfig &training = scenario.training;
    const ParallelConfig &parallel = training.parallel;

    check.range("training.tokens", training.tokens, 1, kMaxTokens);
    const bool seq_ok = check.range("training.seq_len", training.seq_len, 1, kMaxDimension);
    if (seq_ok && model.max_seq_len > 0 && training.seq_len > model.max_seq_len
        && model.positional_encoding == PositionalEncoding::Learned)
        check.add("training.seq_len", "max_seq_len",
                  "training.seq_len " + str(training.seq_len) + " exceeds model.max_seq_len " + str(model.max_seq_len)
                      + ", the number of learned position embeddings");
    const bool global_ok = check.range("training.global_batch", training.global_batch, 1, kMaxDimension);
    const bool micro_ok = check.range("training.micro_batch", training.micro_batch, 1, kMaxDimension);

    const bool dp_ok = check.range("training.dp", parallel.dp, 1, 10000000);
    const bool tp_ok = check.range("training.tp", parallel.tp, 1, 65536);
    const bool pp_ok = check.range("training.pp", parallel.pp, 1, 65536);
    const bool cp_ok = check.range("training.cp", parallel.cp, 1, 65536);
    const bool ep_ok = check.range("training.ep", parallel.ep, 1, 65536);
    const bool v_ok = check.range("training.virtual_stages", parallel.virtual_stages, 1, 1024);
    check.range("training.zero_stage", parallel.zero_stage, 0, 3);

    if (dp_ok && tp_ok && pp_ok && cp_ok && scenario.cluster.gpus > 0) {
        const std::int64_t product = std::int64_t(parallel.dp) * parallel.tp * parallel.pp * parallel.cp;
        if (product != scenario.cluster.gpus)
            check.add("training.dp", "gpu_count",
                      "dp·tp·pp·cp = " + str(std::int64_t(parallel.dp)) + "·" + str(std::int64_t(parallel.tp)) + "·"
                          + str(std::int64_t(parallel.pp)) + "·" + str(std::int64_t(parallel.cp)) + " = " + str(product)
                          + " ≠ cluster.gpus " + str(std::int64_t(scenario.cluster.gpus)),
                      {"training.tp", "training.pp", "training.cp", "cluster.gpus"});
    }
    if (tp_ok && model.n_heads > 0)
        check.divisible("model.n_heads", model.n_heads, "training.tp", parallel.tp);
    if (tp_ok && model.n_kv_heads > 0)
        check.divisible("model.n_kv_heads", model.n_kv_heads, "training.tp", parallel.tp);
    if (tp_ok && model.d_ff > 0)
        check.divisible("model.d_ff", model.d_ff, "training.tp", parallel.tp);
    if (tp_ok && model.moe.enabled() && model.moe.expert_d_ff > 0)
        check.divisible("model.moe.expert_d_ff", model.moe.expert_d_ff, "training.tp", parallel.tp);
    if (pp_ok && v_ok && model.n_layers > 0) {
        // pp need not divide the layers (BLOOM: 70 on 12 stages); every chunk needs one, and a
        // given training.stage_layers must place them all (scenario/stage_layers.h).
        for (Problem &problem : stageLayerProblems(model.n_layers, parallel))
            check.add(std::move(problem.field), std::move(problem.rule), std::move(problem.message),
                      std::move(problem.related));
        if (parallel.virtual_stages > 1 && parallel.pp == 1)
            check.add("training.virtual_stages", "requires_pp",
                      "training.virtual_stages " + str(std::int64_t(parallel.virtual_stages))
                          + " needs pipeline parallelism (training.pp > 1)");
    }
    if (cp_ok && seq_ok)
        check.divisible("training.seq_len", training.seq_len, "training.cp", parallel.cp);
    if (ep_ok && parallel.ep > 1) {
        if (!model.moe.enabled())
            check.add("training.ep", "requires_moe",
                      "training.ep " + str(std::int64_t(parallel.ep)) + " needs a mixture-of-experts model (model.moe.n_experts > 0)");
        else
            check.divisible("model.moe.n_experts", model.moe.n_experts, "training.ep", parallel.ep);
        if (dp_ok && cp_ok)
            check.divisible("training.dp·cp", std::int64_t(parallel.dp) * parallel.cp, "training.ep", parallel.ep);
    }
    if (global_ok && micro_ok && dp_ok)
        check.divisible("training.global_batch", training.global_batch, "training.micro_batch·dp",
                        training.micro_batch * parallel.dp);

    if (!std::isfinite(training.mfu) || training.mfu <= 0 || training.mfu > 1)
        check.add("training.mfu", "range", "training.mfu is " + str(training.mfu) + "; it must be in (0, 1]");
    check.range("training.framework_reserve_bytes", training.framework_reserve_bytes, 0, std::int64_t(1) << 50);
    if (training.precision.recipe == PrecisionRecipe::FP32 && training.precision.weight_dtype != DType::FP32)
        check.add("training.precision.weight_dtype", "recipe",
                  "training.precision.weight_dtype is " + std::string(toString(training.precision.weight_dtype))
                      + "; it must be fp32 with training.precision.recipe fp32");
}

}  // namespace

Problems validateModel(const ModelConfig &model)
{
    Checker check;
    checkModel(check, model);
    return std::move(check.problems);
}

Problems validate(const Scenario &scenario)
{
    Checker check;
    checkModel(check, scenario.model);
    checkCluster(check, scenario.cluster, scenario.training);
    checkTraining(check, scenario);
    return std::move(check.problems);
}

}  // namespace lse
