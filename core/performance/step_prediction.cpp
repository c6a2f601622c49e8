// SPDX-License-Identifier: GPL-3.0-or-later
#include "performance/step_prediction.h"

#include "cost/estimate.h"
#include "cost/estimate_parts.h"
#include "performance/kernel_time.h"
#include "roofline/roofline_machine.h"
#include "roofline/step_operators.h"
#include "scenario/stage_layers.h"

#include <algorithm>
#include <cmath>

namespace lse::performance {

std::string_view toString(KernelClass value)
{
    switch (value) {
    case KernelClass::Gemm: return "gemm";
    case KernelClass::Attention: return "attention";
    case KernelClass::MemoryBound: return "memory_bound";
    case KernelClass::Optimizer: return "optimizer";
    }
    return "gemm";
}

namespace {

using roofline_detail::StepOp;

enum class Pass { Forward, Backward, Recompute };
constexpr const char *kPassNames[] = {"forward", "backward", "recompute"};

// The kernels of one group (a layer kind, the embedding, the head) for one micro-batch on one GPU.
struct GroupTime {
    double seconds[3] = {0, 0, 0};  // by Pass
    double by_class[3] = {0, 0, 0}; // Gemm, Attention, MemoryBound
    std::vector<OperatorTime> operators;  // per micro-batch, count = 1 call
    double total() const { return seconds[0] + seconds[1] + seconds[2]; }
};

struct GpuShapes {
    int tp = 1;
    int cp = 1;                    // context parallel: queries are split, every key is visited
    double local_seq_len = 0;      // seq_len / cp
    bool sequence_parallel = false;
    int ep = 1;
    int n_experts = 0;
    KernelMachine machine;
};

std::string shapeText(const GemmShape &s)
{
    std::string text;
    if (s.batch > 1)
        text = std::to_string(std::int64_t(s.batch)) + "×";
    return text + "[" + std::to_string(std::int64_t(s.m)) + "×" + std::to_string(std::int64_t(s.k)) + "]·["
        + std::to_string(std::int64_t(s.k)) + "×" + std::to_string(std::int64_t(s.n)) + "]";
}

// The product one GPU runs: tp splits the dimension the operator list names; routed experts run as a
// grouped product over this rank's n_experts / ep experts, each on its share of the routed tokens.
GemmShape gpuGemm(const Operator &op, const GpuShapes &gpu)
{
    GemmShape shape{double(op.batch), double(op.m), double(op.n), double(op.k)};
    const double tp = gpu.tp;
    switch (op.tp_dimension) {
    case TpDimension::Columns: shape.n = std::ceil(shape.n / tp); break;
    case TpDimension::Reduction: shape.k = std::ceil(shape.k / tp); break;
    case TpDimension::Batch: shape.batch = std::ceil(shape.batch / tp); break;
    case TpDimension::Replicated: break;
    }
    // Context parallelism (ring attention, Liu et al. 2023): this GPU's s/cp queries meet all s keys,
    // so the key axis of the attention core is the full sequence (scores n, values k).
    if (op.component == Component::AttentionScores && gpu.cp > 1) {
        if (op.m == std::int64_t(gpu.local_seq_len) && op.n == std::int64_t(gpu.local_seq_len))
            shape.n *= gpu.cp;
        else if (op.k == std::int64_t(gpu.local_seq_len))
            shape.k *= gpu.cp;
    }
    if (op.component == Component::Experts && gpu.n_experts > 0) {
        const double local_experts = std::max(1.0, double(gpu.n_experts) / gpu.ep);
        // Balanced routing: the ep ranks' routed tokens for these experts equal this rank's own.
        shape.m = std::ceil(shape.m / local_experts);
        shape.batch *= local_experts;
    }
    return shape;
}

// Part of an element-wise operator's work one GPU does: tensor-parallel regions split it, the
// regions outside them only under sequence parallelism (Korthikanti et al. 2022 §4.2.2).
double elementwiseShare(const Operator &op, const GpuShapes &gpu)
{
    if (op.tp_split == TpSplit::Sharded || gpu.sequence_parallel)
        return 1.0 / gpu.tp;
    return 1.0;
}

class GroupTimer {
public:
    GroupTimer(const GpuShapes &gpu, Recomputation recomputation, bool is_layer)
        : gpu_(gpu), recomputation_(recomputation), is_layer_(is_layer)
    {
    }

    GroupTime time(const std::vector<StepOp> &ops) const
    {
        GroupTime group;
        for (const StepOp &step : ops) {
            const bool recompute = is_layer_
                && (recomputation_ == Recomputation::Full
                    || (recomputation_ == Recomputation::Selective && step.attention_core));
            const bool flash = step.name == "flash_attention";
            if (step.op.isMatMul() && !flash)
                addMatmul(group, step, recompute);
            else
                addStreaming(group, step, recompute, flash);
        }
        return group;
    }

private:
    void add(GroupTime &group, const StepOp &step, Pass pass, KernelClass kernel_class, const std::string &shape,
             double flops, double bytes, const KernelTime &time) const
    {
        group.seconds[int(pass)] += time.seconds;
        group.by_class[int(kernel_class)] += time.seconds;
        OperatorTime row;
        row.name = step.name;
        row.pass = kPassNames[int(pass)];
        row.kernel_class = kernel_class;
        row.shape = shape;
        row.count = 1;
        row.flops = flops;
        row.bytes = bytes;
        row.seconds = time.seconds;
        row.efficiency = time.efficiency;
        group.operators.push_back(std::move(row));
    }

    void addMatmul(GroupTime &group, const StepOp &step, bool recompute) const
    {
        const Operator &op = step.op;
        const KernelClass kernel_class = op.component == Component::AttentionScores ? KernelClass::Attention
                                                                                    : KernelClass::Gemm;
        const GemmShape forward = gpuGemm(op, gpu_);
        const double work_share = forward.flops() / std::max(1.0, op.flops);  // tp (and causal) share
        const double forward_bytes = (op.bytes_read + op.bytes_written) * work_share;
        const KernelTime forward_time = gemmTime(forward, forward_bytes, gpu_.machine);
        add(group, step, Pass::Forward, kernel_class, shapeText(forward), forward.flops(), forward_bytes, forward_time);
        if (recompute)
            add(group, step, Pass::Recompute, kernel_class, shapeText(forward), forward.flops(), forward_bytes,
                forward_time);
        // Backward of C = A·B: dA = dC·Bᵀ (m×k, reducing n) and dB = Aᵀ·dC (k×n, reducing m); each
        // has the forward's FLOPs (flop_rules::kBackwardMatmulFactor = 2 in all).
        const double backward_bytes = (step.backward_bytes_read + step.backward_bytes_written) * work_share / 2;
        const GemmShape input_gradient{forward.batch, forward.m, forward.k, forward.n};
        const GemmShape weight_gradient{forward.batch, forward.k, forward.n, forward.m};
        add(group, step, Pass::Backward, kernel_class, shapeText(input_gradient), input_gradient.flops(),
            backward_bytes, gemmTime(input_gradient, backward_bytes, gpu_.machine));
        add(group, step, Pass::Backward, kernel_class, shapeText(weight_gradient), weight_gradient.flops(),
            backward_bytes, gemmTime(weight_gradient, backward_bytes, gpu_.machine));
    }

    void addStreaming(GroupTime &group, const StepOp &step, bool recompute, bool flash) const
    {
        const Operator &op = step.op;
        double share = flash ? 1.0 / gpu_.tp : elementwiseShare(op, gpu_);
        // The attention core's scores, softmax and FlashAttention grow with the keys visited: all s
        // of them under context parallelism (gpuGemm says why). RoPE is per token and does not.
        if (step.attention_core && op.component == Component::AttentionScores && op.name != "rope")
            share *= gpu_.cp;
        const double forward_flops = op.flops * share;
        const double forward_bytes = (op.bytes_read + op.bytes_written) * share;
        const double backward_flops = op.backward_flops * share;
        const double backward_bytes = (step.backward_bytes_read + step.backward_bytes_written) * share;
        const KernelClass kernel_class = flash ? KernelClass::Attention : KernelClass::MemoryBound;
        const auto kernel = [&](double flops, double bytes) {
            return flash ? flashAttentionTime(flops, bytes, gpu_.machine) : streamingTime(flops, bytes, gpu_.machine);
        };
        const std::string shape = step.shape;
        if (forward_flops > 0 || forward_bytes > 0) {
            const KernelTime forward = kernel(forward_flops, forward_bytes);
            add(group, step, Pass::Forward, kernel_class, shape, forward_flops, forward_bytes, forward);
            if (recompute)
                add(group, step, Pass::Recompute, kernel_class, shape, forward_flops, forward_bytes, forward);
        }
        if (!op.gradient_is_identity && (backward_flops > 0 || backward_bytes > 0))
            add(group, step, Pass::Backward, kernel_class, shape, backward_flops, backward_bytes,
                kernel(backward_flops, backward_bytes));
    }

    const GpuShapes &gpu_;
    Recomputation recomputation_;
    bool is_layer_;
};

void accumulate(StepPrediction &out, const GroupTime &group, double calls)
{
    out.forward_seconds += group.seconds[0] * calls;
    out.backward_seconds += group.seconds[1] * calls;
    out.recompute_seconds += group.seconds[2] * calls;
    out.gemm_seconds += group.by_class[0] * calls;
    out.attention_seconds += group.by_class[1] * calls;
    out.memory_bound_seconds += group.by_class[2] * calls;
    for (OperatorTime row : group.operators) {
        row.count *= calls;
        row.flops *= calls;
        row.bytes *= calls;
        row.seconds *= calls;
        out.operators.push_back(std::move(row));
    }
}

}  // namespace

std::vector<StepPart> stepParts(const StepPrediction &p)
{
    return {
        {"compute_gemm", p.gemm_seconds},
        {"compute_attention", p.attention_seconds},
        {"compute_memory_bound", p.memory_bound_seconds},
        {"optimizer", p.optimizer_seconds},
        {"exposed_tp", p.exposed.tp_seconds},
        {"exposed_cp", p.exposed.cp_seconds},
        {"exposed_ep", p.exposed.ep_seconds},
        {"exposed_pp", p.exposed.pp_seconds},
        {"exposed_dp", p.exposed.dp_seconds},
        {"bubble", p.bubble_seconds},
    };
}

Result<StepPrediction> predictStep(const Scenario &scenario)
{
    return predictStep(scenario, scenario.cluster.accelerator.efficiency);
}

Result<StepPrediction> predictStep(const Scenario &scenario, const EfficiencyFactors &factors)
{
    Problems invalid = validateEfficiencyFactors(factors, "efficiency");
    if (!invalid.empty())
        return invalid;
    const Result<Estimate> estimated = estimate(scenario);
    if (!estimated)
        return estimated.problems();
    const Estimate &e = *estimated;
    const TrainingConfig &training = scenario.training;
    const ParallelConfig &parallel = training.parallel;

    GpuShapes gpu;
    gpu.tp = parallel.tp;
    gpu.cp = std::max(1, parallel.cp);
    gpu.local_seq_len = double(training.seq_len / gpu.cp);
    gpu.sequence_parallel = parallel.sequence_parallel;
    gpu.ep = parallel.ep;
    gpu.n_experts = scenario.model.moe.n_experts;
    gpu.machine = kernelMachine(scenario.cluster.accelerator, e.time.peak_flops_per_gpu);
    gpu.machine.efficiency = factors;

    // One micro-batch of the sequence share this GPU holds (context parallelism splits it).
    Scenario local = scenario;
    local.training.seq_len = training.seq_len / std::max(1, parallel.cp);
    RooflineOptions options = rooflineOptionsFor(local, StepPhase::Train);
    options.batch = training.micro_batch;
    const RooflineMachine roofline_machine = rooflineMachine(scenario);
    const roofline_detail::StepOperators step = roofline_detail::stepOperators(
        local, roofline_detail::stepShapes(local, options, roofline_machine.sram_bytes_per_sm, roofline_machine.l2_bytes));

    const GroupTimer layer_timer(gpu, training.recomputation, true);
    const GroupTimer edge_timer(gpu, training.recomputation, false);
    const GroupTime dense = layer_timer.time(step.dense_layer);
    const GroupTime moe = layer_timer.time(step.moe_layer);
    const GroupTime embedding = edge_timer.time(step.embedding);
    const GroupTime head = edge_timer.time(step.head);

    // The busiest stage sets the pace of the pipeline.
    const int pp = std::max(1, parallel.pp);
    const int n_layers = scenario.model.n_layers;
    const double moe_fraction = n_layers > 0 ? double(step.moe_layer_count) / n_layers : 0.0;
    // As even as possible or as given (training.parallel.stage_layers).
    const std::vector<int> layers = pipelineLayers(n_layers, parallel).stage_layers;
    double busiest_seconds = -1;
    StepPrediction out;
    for (int stage = 0; stage < pp; ++stage) {
        const double count = layers[std::size_t(stage)];
        double seconds = count * ((1 - moe_fraction) * dense.total() + moe_fraction * moe.total());
        if (stage == 0)
            seconds += embedding.total();
        if (stage == pp - 1)
            seconds += head.total();
        if (seconds > busiest_seconds) {
            busiest_seconds = seconds;
            out.busiest_stage = stage;
        }
    }
    out.busiest_stage_layers = layers[std::size_t(out.busiest_stage)];
    out.micro_batches = double(detail::stepShape(scenario).micro_batches);
    const double m = out.micro_batches;
    const double stage_layers = out.busiest_stage_layers;
    if (out.busiest_stage == 0)
        accumulate(out, embedding, m);
    accumulate(out, dense, m * stage_layers * (1 - moe_fraction));
    if (moe_fraction > 0)
        accumulate(out, moe, m * stage_layers * moe_fraction);
    if (out.busiest_stage == pp - 1)
        accumulate(out, head, m);
    out.compute_seconds = out.forward_seconds + out.backward_seconds + out.recompute_seconds;

    // The optimizer step streams this GPU's optimizer shard: reads and writes the fp32 states (and
    // master weights), reads the gradients and writes the weights it updates (ZeRO-1 and up update
    // only their 1/dp shard of weights and gradients; ZeRO-2/3 already hold only that shard).
    const double shard = parallel.zero_stage >= 1 ? 1.0 / std::max(1, parallel.dp) : 1.0;
    const double gradient_bytes = double(e.memory.grads) * (parallel.zero_stage >= 2 ? 1.0 : shard);
    const double weight_bytes = double(e.memory.params) * (parallel.zero_stage >= 3 ? 1.0 : shard);
    const double optimizer_bytes = 2.0 * double(e.memory.optimizer) + gradient_bytes + weight_bytes;
    if (optimizer_bytes > 0) {
        const KernelTime optimizer = streamingTime(0, optimizer_bytes, gpu.machine);
        out.optimizer_seconds = optimizer.seconds;
        OperatorTime row;
        row.name = "optimizer_step";
        row.pass = "optimizer";
        row.kernel_class = KernelClass::Optimizer;
        row.count = 1;
        row.bytes = optimizer_bytes;
        row.seconds = optimizer.seconds;
        row.efficiency = optimizer.efficiency;
        out.operators.push_back(std::move(row));
    }

    parallel::OverlapWindow window;
    window.compute_seconds = out.compute_seconds;
    window.backward_share = out.compute_seconds > 0
        ? (out.backward_seconds + out.recompute_seconds) / out.compute_seconds
        : 0.0;
    window.micro_batches = m;
    window.layers_per_stage = std::max(1.0, stage_layers);
    window.zero_stage = parallel.zero_stage;
    window.dp_overlap = parallel.dp_overlap;
    out.exposed = parallel::exposedCommunication(e.communication, window);
    out.exposed_communication_seconds = out.exposed.total();

    // Narayanan et al. 2021 §2.2.1-2.2.2: p − 1 micro-batch times of fill and drain, divided by v
    // with interleaved stages; the busiest stage's micro-batch time bounds each.
    if (pp > 1)
        out.bubble_seconds = double(pp - 1) / double(std::max(1, parallel.virtual_stages)) * busiest_seconds;

    out.total_seconds = out.compute_seconds + out.optimizer_seconds + out.exposed_communication_seconds
        + out.bubble_seconds;
    out.tokens_per_step = double(training.global_batch) * double(training.seq_len);
    out.tokens_per_second = out.tokens_per_step / out.total_seconds;
    out.peak_flops_per_gpu = e.time.peak_flops_per_gpu;
    out.model_flops_per_step = e.flops.train_per_token * out.tokens_per_step;
    out.hardware_flops_per_step = e.flops.hardware_train_per_token * out.tokens_per_step;
    const double capacity = double(scenario.cluster.gpus) * out.peak_flops_per_gpu * out.total_seconds;
    out.mfu = out.model_flops_per_step / capacity;
    out.hfu = out.hardware_flops_per_step / capacity;
    out.efficiency = factors;
    return out;
}

}  // namespace lse::performance
