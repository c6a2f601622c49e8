// SPDX-License-Identifier: GPL-3.0-or-later
#include "performance/step_prediction.h"

#include "cost/estimate.h"
#include "cost/estimate_parts.h"
#include "hardware/machine_kernel_factors.h"
#include "ops/optimizer_update.h"
#include "ops/parameter_tensors.h"
#include "performance/kernel_time.h"
#include "roofline/roofline_machine.h"
#include "roofline/step_operators.h"
#include "scenario/stage_layers.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

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

// Φ⁻¹(p) for p in (0, 1): Acklam's rational approximation (relative error below 1.2e-9), which is
// more than the straggler term needs.
double inverseStandardNormal(double p)
{
    static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                               1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                               6.680131188771972e+01, -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                               -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00};
    static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                               3.754408661907416e+00};
    const double low = 0.02425;
    if (p <= 0)
        return -std::numeric_limits<double>::infinity();
    if (p >= 1)
        return std::numeric_limits<double>::infinity();
    if (p < low) {
        const double q = std::sqrt(-2 * std::log(p));
        return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
            / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    if (p > 1 - low) {
        const double q = std::sqrt(-2 * std::log(1 - p));
        return -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
            / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    const double q = p - 0.5, r = q * q;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
        / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

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
    bool causal = true;            // decoder attention: FlashAttention skips the masked blocks
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

// What fusing element-wise chains leaves of an operator's memory traffic and kernel launches,
// averaged over its instances in the step (an operator can sit in a chain in one layer and alone
// at the model's edge): roofline/fusion.cpp's chains, each member's bytes less the traffic it no
// longer has with the member before it, one launch per chain. The backward kernels of a fused
// chain are fused as well (Megatron-LM's bias-GeLU and softmax backward kernels, Transformer
// Engine's LayerNorm backward), so their bytes take the same share.
struct FusionScale {
    double bytes = 1;
    double launches = 1;
};
using FusionScales = std::vector<std::vector<FusionScale>>;  // by OpGroup, then operator index

FusionScales fusionScales(const Scenario &scenario, const roofline_detail::StepOperators &step, bool fused)
{
    using roofline_detail::OpGroup;
    FusionScales scales(4);
    for (OpGroup group : {OpGroup::Embedding, OpGroup::DenseLayer, OpGroup::MoeLayer, OpGroup::Head})
        scales[std::size_t(group)].assign(step.group(group).size(), FusionScale{});
    if (!fused)
        return scales;
    std::vector<std::vector<int>> singles;
    const std::vector<roofline_detail::FusedChain> chains = roofline_detail::fusedChains(scenario, step, &singles);
    std::vector<std::vector<FusionScale>> sums(4);
    std::vector<std::vector<double>> counts(4);
    for (std::size_t g = 0; g < 4; ++g) {
        sums[g].assign(scales[g].size(), FusionScale{0, 0});
        counts[g].assign(scales[g].size(), 0.0);
        for (std::size_t i = 0; i < scales[g].size(); ++i) {
            sums[g][i] = FusionScale{double(singles[g][i]), double(singles[g][i])};
            counts[g][i] = singles[g][i];
        }
    }
    for (const roofline_detail::FusedChain &chain : chains) {
        const double share_of_launch = 1.0 / double(chain.members.size());
        for (std::size_t j = 0; j < chain.members.size(); ++j) {
            const auto g = std::size_t(chain.members[j].group);
            const std::size_t i = chain.members[j].index;
            const StepOp &op = step.group(chain.members[j].group)[i];
            const double own = op.op.bytes_read + op.op.bytes_written;
            sums[g][i].bytes += chain.count * (own > 0 ? chain.member_fused_bytes[j] / own : 1.0);
            sums[g][i].launches += chain.count * share_of_launch;
            counts[g][i] += chain.count;
        }
    }
    for (std::size_t g = 0; g < 4; ++g)
        for (std::size_t i = 0; i < scales[g].size(); ++i)
            if (counts[g][i] > 0)
                scales[g][i] = FusionScale{sums[g][i].bytes / counts[g][i], sums[g][i].launches / counts[g][i]};
    return scales;
}

class GroupTimer {
public:
    GroupTimer(const GpuShapes &gpu, Recomputation recomputation, bool is_layer)
        : gpu_(gpu), recomputation_(recomputation), is_layer_(is_layer)
    {
    }

    GroupTime time(const std::vector<StepOp> &ops, const std::vector<FusionScale> &fusion) const
    {
        GroupTime group;
        for (std::size_t i = 0; i < ops.size(); ++i) {
            const StepOp &step = ops[i];
            const bool recompute = is_layer_
                && (recomputation_ == Recomputation::Full
                    || (recomputation_ == Recomputation::Selective && step.attention_core));
            const bool flash = step.name == "flash_attention";
            if (step.op.isMatMul() && !flash)
                addMatmul(group, step, recompute);
            else
                addStreaming(group, step, recompute, flash, i < fusion.size() ? fusion[i] : FusionScale{});
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
        GemmShape forward = gpuGemm(op, gpu_);
        forward.product = op.name == "attention_scores" ? BatchedProduct::AttentionScores
                          : op.name == "attention_values" ? BatchedProduct::AttentionValues
                                                          : BatchedProduct::None;
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
        const GemmShape input_gradient{forward.batch, forward.m, forward.k, forward.n, GemmPass::InputGradient, forward.product};
        const GemmShape weight_gradient{forward.batch, forward.k, forward.n, forward.m, GemmPass::WeightGradient, forward.product};
        add(group, step, Pass::Backward, kernel_class, shapeText(input_gradient), input_gradient.flops(),
            backward_bytes, gemmTime(input_gradient, backward_bytes, gpu_.machine));
        add(group, step, Pass::Backward, kernel_class, shapeText(weight_gradient), weight_gradient.flops(),
            backward_bytes, gemmTime(weight_gradient, backward_bytes, gpu_.machine));
    }

    void addStreaming(GroupTime &group, const StepOp &step, bool recompute, bool flash, const FusionScale &fusion) const
    {
        const Operator &op = step.op;
        double share = flash ? 1.0 / gpu_.tp : elementwiseShare(op, gpu_);
        // The attention core's scores, softmax and FlashAttention grow with the keys visited: all s
        // of them under context parallelism (gpuGemm says why). RoPE is per token and does not.
        if (step.attention_core && op.component == Component::AttentionScores && op.name != "rope")
            share *= gpu_.cp;
        const double forward_flops = op.flops * share;
        const double forward_bytes = (op.bytes_read + op.bytes_written) * share * fusion.bytes;
        const double backward_flops = op.backward_flops * share;
        const double backward_bytes = (step.backward_bytes_read + step.backward_bytes_written) * share * fusion.bytes;
        const KernelClass kernel_class = flash ? KernelClass::Attention : KernelClass::MemoryBound;
        // The keys a query visits: the whole sequence (all cp shards of it), half under a causal mask.
        const double keys = gpu_.local_seq_len * gpu_.cp * (gpu_.causal ? 0.5 : 1.0);
        const auto kernel = [&](double flops, double bytes) {
            return flash ? flashAttentionTime(flops, bytes, gpu_.machine, keys)
                         : streamingTime(flops, bytes, gpu_.machine, fusion.launches, step.name);
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
        {"stragglers", p.straggler_seconds},
    };
}

std::pair<double, double> bandInterval(double predicted, double band_fraction)
{
    if (!(band_fraction > 0) || band_fraction >= 1)
        return {predicted, predicted};
    return {predicted / (1 + band_fraction), predicted / (1 - band_fraction)};
}

double stragglerQuantile(int gpus)
{
    if (gpus <= 1)
        return 0;
    // Blom 1958: the expected largest of n standard normal samples ≈ Φ⁻¹((n − 0.375) / (n + 0.25)).
    const double n = double(gpus);
    return inverseStandardNormal((n - 0.375) / (n + 0.25));
}

Result<StepPrediction> predictStep(const Scenario &scenario)
{
    return predictStep(scenario, scenario.cluster.accelerator.efficiency);
}

namespace {
Result<StepPrediction> predictStepOn(const Scenario &scenario, const EfficiencyFactors &factors, const CpuKernelFactors *cpu);
}

Result<StepPrediction> predictStep(const Scenario &scenario, const EfficiencyFactors &factors)
{
    return predictStepOn(scenario, factors, nullptr);
}

Result<StepPrediction> predictStep(const Scenario &scenario, const CpuKernelFactors &cpu)
{
    if (Problems invalid = validateCpuKernelFactors(cpu); !invalid.empty())
        return invalid;
    return predictStepOn(scenario, scenario.cluster.accelerator.efficiency, &cpu);
}

namespace {
Result<StepPrediction> predictStepOn(const Scenario &scenario, const EfficiencyFactors &factors, const CpuKernelFactors *cpu)
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
    gpu.machine = kernelMachine(scenario.cluster.accelerator, e.time.peak_flops_per_gpu, training.precision.matmul_dtype);
    gpu.machine.flash_attention3 = training.attention_kernel == AttentionKernel::FlashAttention3;
    gpu.machine.efficiency = factors;
    gpu.machine.cpu = cpu;

    // One micro-batch of the sequence share this GPU holds (context parallelism splits it).
    Scenario local = scenario;
    local.training.seq_len = training.seq_len / std::max(1, parallel.cp);
    // FlashAttention skips the blocks a causal mask hides entirely (Dao 2023, FlashAttention-2
    // §3.1.1): its kernel does half of the full s² work whatever FLOPs a paper counts for MFU. The
    // unfused attention computes the whole score matrix and masks it afterwards.
    if (training.flash_attention)
        local.training.attention_flops = AttentionFlops::Causal;
    RooflineOptions options = rooflineOptionsFor(local, StepPhase::Train);
    options.batch = training.micro_batch;
    const RooflineMachine roofline_machine = rooflineMachine(scenario);
    const roofline_detail::StepOperators step = roofline_detail::stepOperators(
        local, roofline_detail::stepShapes(local, options, roofline_machine.sram_bytes_per_sm, roofline_machine.l2_bytes));

    const FusionScales fusion = fusionScales(local, step, training.fused_elementwise);
    using roofline_detail::OpGroup;
    const GroupTimer layer_timer(gpu, training.recomputation, true);
    const GroupTimer edge_timer(gpu, training.recomputation, false);
    const GroupTime dense = layer_timer.time(step.dense_layer, fusion[std::size_t(OpGroup::DenseLayer)]);
    const GroupTime moe = layer_timer.time(step.moe_layer, fusion[std::size_t(OpGroup::MoeLayer)]);
    const GroupTime embedding = edge_timer.time(step.embedding, fusion[std::size_t(OpGroup::Embedding)]);
    const GroupTime head = edge_timer.time(step.head, fusion[std::size_t(OpGroup::Head)]);

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

    // The optimizer step streams this GPU's optimizer shard (ops/optimizer_update.h states the
    // rule per parameter): it reads and writes the fp32 states and master weights, reads the
    // gradients and writes the weights it updates, and without a master copy reads those weights
    // too. ZeRO-1 and up update only their 1/dp shard of weights and gradients; ZeRO-2/3 already
    // hold only that shard. The states' bytes come from the memory engine (its ZeRO group).
    const double shard = parallel.zero_stage >= 1 ? 1.0 / std::max(1, parallel.dp) : 1.0;
    const double gradient_bytes = double(e.memory.grads) * (parallel.zero_stage >= 2 ? 1.0 : shard);
    const double weight_bytes = double(e.memory.params) * (parallel.zero_stage >= 3 ? 1.0 : shard);
    const double optimizer_bytes =
        2.0 * double(e.memory.optimizer) + gradient_bytes + weight_bytes * (training.precision.master_weights ? 1.0 : 2.0);
    const double updated_parameters = weight_bytes / double(bytesPerElement(training.precision.weight_dtype));
    const double optimizer_flops = ops::optimizerFlopsPerParameter(training.optimizer) * updated_parameters;
    if (optimizer_bytes > 0) {
        // A GPU framework updates every tensor in one multi-tensor launch (Megatron, PyTorch's
        // foreach/fused AdamW); the reference transformer runs one loop per parameter tensor.
        double calls = 1;
        if (cpu)
            calls = parameterTensorCount(modelParameters(scenario.model));
        const KernelTime optimizer = streamingTime(optimizer_flops, optimizer_bytes, gpu.machine,
                                                   std::max(1.0, calls), "optimizer_step");
        out.optimizer_seconds = optimizer.seconds;
        OperatorTime row;
        row.name = "optimizer_step";
        row.pass = "optimizer";
        row.kernel_class = KernelClass::Optimizer;
        row.count = std::max(1.0, calls);
        row.flops = optimizer_flops;
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
    window.virtual_stages = std::max(1, parallel.virtual_stages);
    window.gemm_seconds = out.gemm_seconds;
    window.attention_seconds = out.attention_seconds;
    window.tp = parallel.tp;
    window.cp = gpu.cp;
    window.zero_stage = parallel.zero_stage;
    window.dp_overlap = parallel.dp_overlap;
    window.dp_param_gather_overlap = parallel.dp_param_gather_overlap;
    window.tp_comm_overlap = parallel.tp_comm_overlap;
    window.pp_comm_overlap = parallel.pp_comm_overlap;
    out.exposed = parallel::exposedCommunication(e.communication, window);
    out.exposed_communication_seconds = out.exposed.total();

    // Narayanan et al. 2021 §2.2.1-2.2.2: p − 1 micro-batch times of fill and drain, divided by v
    // with interleaved stages; the busiest stage's micro-batch time bounds each.
    if (pp > 1)
        out.bubble_seconds = double(pp - 1) / double(std::max(1, parallel.virtual_stages)) * busiest_seconds;

    // Every GPU of a synchronous step waits for the slowest one: with per-GPU speeds spread by σ
    // (gpu_speed_spread, Sinha et al. 2022), the slowest of N lags the typical one by about z(N)·σ
    // of its compute, z(N) the expected largest of N standard normal samples (stragglerQuantile).
    out.straggler_seconds = out.compute_seconds * factors.gpu_speed_spread * stragglerQuantile(scenario.cluster.gpus);

    out.total_seconds = out.compute_seconds + out.optimizer_seconds + out.exposed_communication_seconds
        + out.bubble_seconds + out.straggler_seconds;
    out.tokens_per_step = double(training.global_batch) * double(training.seq_len);
    out.tokens_per_second = out.tokens_per_step / out.total_seconds;
    out.peak_flops_per_gpu = e.time.peak_flops_per_gpu;
    out.model_flops_per_step = e.flops.train_per_token * out.tokens_per_step;
    out.hardware_flops_per_step = e.flops.hardware_train_per_token * out.tokens_per_step;
    const double capacity = double(scenario.cluster.gpus) * out.peak_flops_per_gpu * out.total_seconds;
    out.mfu = out.model_flops_per_step / capacity;
    out.hfu = out.hardware_flops_per_step / capacity;
    out.efficiency = factors;
    out.accuracy = scenario.cluster.accelerator.accuracy;
    out.band_fraction = out.accuracy.hasBand() ? out.accuracy.held_out_p90_error : 0.0;
    std::tie(out.low_seconds, out.high_seconds) = bandInterval(out.total_seconds, out.band_fraction);
    return out;
}

}  // namespace

}  // namespace lse::performance
