// SPDX-License-Identifier: GPL-3.0-or-later
#include "inference/serving_model.h"

#include "inference/speculative.h"
#include "ops/parameter_tensors.h"
#include "roofline/roofline_machine.h"
#include "scenario/cluster_links.h"
#include "scenario/stage_layers.h"

#include <algorithm>
#include <cmath>

namespace lse::inference {

ServingInputs servingInputsFor(const Scenario &scenario)
{
    ServingInputs inputs;
    inputs.scenario = scenario;
    const ParallelConfig &parallel = scenario.training.parallel;
    inputs.tp = std::max(1, parallel.tp);
    inputs.pp = std::max(1, parallel.pp);
    inputs.replicas = std::max(1, scenario.cluster.gpus / std::max(1, inputs.tp * inputs.pp));
    inputs.batch = std::max<std::int64_t>(1, scenario.training.micro_batch);
    inputs.prompt_tokens = std::max<std::int64_t>(1, scenario.training.seq_len);
    const auto format = [](DType dtype) {
        switch (dtype) {
        case DType::BF16: return ServingFormat::BF16;
        case DType::FP8: return ServingFormat::FP8;
        default: return ServingFormat::FP16;
        }
    };
    inputs.weights = format(scenario.training.precision.weight_dtype);
    inputs.activations = format(scenario.training.precision.activation_dtype);
    inputs.kv_cache = format(scenario.training.kv_cache_dtype);
    inputs.flash_attention = scenario.training.flash_attention;
    return inputs;
}

namespace {

constexpr double kSixteenBitBytes = 2;  // unquantised tensors (embedding, norms, biases) and all-reduces

std::int64_t ceilDiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

Problems validateInputs(const ServingInputs &inputs)
{
    Problems problems = validateModel(inputs.scenario.model);
    const ModelConfig &model = inputs.scenario.model;
    const Accelerator &gpu = inputs.scenario.cluster.accelerator;
    const auto range = [&](const char *field, double value, double low, double high, const char *what) {
        if (!(value >= low && value <= high))
            problems.push_back({field, "range",
                                std::string(field) + " must be " + what + ", got " + std::to_string(std::int64_t(value))});
    };
    range("inference.tp", inputs.tp, 1, 1024, "a whole number from 1 to 1024");
    range("inference.pp", inputs.pp, 1, 1024, "a whole number from 1 to 1024");
    range("inference.replicas", inputs.replicas, 1, 1e6, "at least 1");
    range("inference.batch", double(inputs.batch), 1, 1e7, "a whole number of sequences from 1 to 10^7");
    range("inference.prompt_tokens", double(inputs.prompt_tokens), 1, 1e7, "a whole number of tokens from 1 to 10^7");
    range("inference.output_tokens", double(inputs.output_tokens), 1, 1e7, "a whole number of tokens from 1 to 10^7");
    if (!problems.empty())
        return problems;
    if (model.n_heads % inputs.tp != 0)
        problems.push_back({"inference.tp", "divides",
                            "inference.tp " + std::to_string(inputs.tp) + " must divide the model's "
                                + std::to_string(model.n_heads) + " attention heads (Megatron-LM splits the heads)"});
    if (inputs.pp > model.n_layers)
        problems.push_back({"inference.pp", "layers",
                            "inference.pp " + std::to_string(inputs.pp) + " must be at most the model's "
                                + std::to_string(model.n_layers) + " layers (every stage needs a layer)"});
    if (inputs.activations == ServingFormat::INT4)
        problems.push_back({"inference.activations", "weights_only",
                            "int4 is a weight-only format; activations must be fp16, bf16, fp8 or int8"});
    if (inputs.kv_cache == ServingFormat::INT4)
        problems.push_back({"inference.kv_cache", "weights_only",
                            "int4 is a weight-only format; the KV cache must be fp16, bf16, fp8 or int8"});
    if (inputs.activations == ServingFormat::FP8 && gpu.dense_peak.forDType(DType::FP8) <= 0)
        problems.push_back({"inference.activations", "hardware",
                            "fp8 activations need FP8 tensor cores; " + gpu.name + " has none (use fp16, bf16 or int8)"});
    if (!(gpu.memory_bandwidth_bytes_per_second > 0) || !(gpu.memory_bytes > 0))
        problems.push_back({"cluster.accelerator", "memory", gpu.name + " has no memory size or bandwidth"});
    if (inputs.activations != ServingFormat::INT4
        && !(peakFlopsPerSecond(gpu, computeFormat(inputs.weights, inputs.activations)) > 0))
        problems.push_back({"inference.activations", "hardware",
                            gpu.name + " has no dense peak for "
                                + std::string(toString(computeFormat(inputs.weights, inputs.activations)))});
    const ServingFactors *factors = inputs.factors ? &*inputs.factors : nullptr;
    if (factors) {
        Problems invalid = validateServingFactors(*factors, "inference.factors");
        problems.insert(problems.end(), invalid.begin(), invalid.end());
    }
    if (inputs.speculative) {
        const SpeculativeInputs &draft = *inputs.speculative;
        for (Problem problem : validateModel(draft.draft_model)) {
            problem.field = "inference.draft_model." + problem.field;
            problems.push_back(problem);
        }
        range("inference.draft_tokens", draft.draft_tokens, 1, 64, "a whole number of tokens from 1 to 64");
        if (!(draft.acceptance >= 0 && draft.acceptance <= 1))
            problems.push_back({"inference.acceptance", "range",
                                "inference.acceptance is a probability: it must be between 0 and 1"});
        if (draft.draft_model.n_heads > 0 && draft.draft_model.n_heads % inputs.tp != 0)
            problems.push_back({"inference.draft_model", "divides",
                                "the draft model's " + std::to_string(draft.draft_model.n_heads)
                                    + " heads must be divisible by inference.tp " + std::to_string(inputs.tp)
                                    + " (it runs on the same GPUs)"});
    }
    return problems;
}

// The scenario the roofline reads: one GPU, one micro-batch of `batch` sequences of the prompt.
Scenario rooflineScenario(const ServingInputs &inputs, std::int64_t batch)
{
    Scenario scenario = inputs.scenario;
    scenario.training.parallel = ParallelConfig{};
    scenario.cluster.gpus = 1;
    scenario.training.seq_len = inputs.prompt_tokens;
    scenario.training.micro_batch = batch;
    scenario.training.global_batch = batch;
    scenario.training.tokens = std::max<std::int64_t>(1, batch * inputs.prompt_tokens);
    scenario.training.mfu_source = MfuSource::Given;
    scenario.training.recomputation = Recomputation::None;
    scenario.training.dropout = false;
    scenario.training.flash_attention = inputs.flash_attention;
    // Learned positions cap the sequence; a served request may not exceed them either, but the
    // check is the prompt's alone here (the decode context is the roofline's option).
    return scenario;
}

RooflineOptions formatOptions(const ServingInputs &inputs, StepPhase phase)
{
    RooflineOptions options;
    options.phase = phase;
    options.flash_attention = inputs.flash_attention;
    options.fused_elementwise = inputs.scenario.training.fused_elementwise;
    options.include_optimizer = false;
    options.weight_bytes_per_element = weightBytesPerElement(inputs.weights);
    options.activation_bytes_per_element = elementBytes(inputs.activations);
    options.kv_cache_bytes_per_element = elementBytes(inputs.kv_cache);
    options.decode_crossover = false;
    options.kv_cache_read_per_query_head = inputs.kv_cache_read_per_query_head;
    return options;
}

// The peaks and bandwidth the operators run against.
struct Machine {
    double matmul_peak = 0;     // weight matmuls at the compute format
    double sixteen_bit_peak = 0;  // attention core and element-wise work (16-bit arithmetic)
    double bandwidth = 0;
    ServingFactors factors;
};

// One GPU's share of a roofline operator: tensor-parallel operators divided by tp.
ServingOperator shareOf(const RooflineOp &op, int tp)
{
    ServingOperator row;
    row.name = op.name;
    row.component = op.component;
    row.kind = op.kind;
    row.shape = op.shape;
    row.count = op.count;
    row.weight_matmul = op.weight_matmul;
    row.attention = op.attention_core;
    const double split = op.tp_sharded ? double(tp) : 1.0;
    row.flops = op.flops / split;
    row.matmul_flops = op.matmul_flops / split;
    row.bytes = op.bytes() / split;
    return row;
}

void time(ServingOperator &op, const Machine &machine)
{
    op.peak_flops_per_second = op.weight_matmul ? machine.matmul_peak : machine.sixteen_bit_peak;
    op.intensity_flop_per_byte = op.bytes > 0 ? op.flops / op.bytes : 0;
    const double ridge = op.peak_flops_per_second / machine.bandwidth;
    op.roofline_bound = op.intensity_flop_per_byte >= ridge ? Bound::Compute : Bound::Memory;
    op.compute_seconds = op.flops / (op.peak_flops_per_second * machine.factors.compute_fraction);
    op.memory_seconds = op.bytes / (machine.bandwidth * machine.factors.bandwidth_fraction);
    op.seconds = std::max(op.compute_seconds, op.memory_seconds);
    op.bound = op.compute_seconds >= op.memory_seconds ? Bound::Compute : Bound::Memory;
}

double passSeconds(std::vector<ServingOperator> &ops)
{
    double total = 0;
    for (const ServingOperator &op : ops)
        total += op.seconds;
    for (ServingOperator &op : ops)
        op.share = total > 0 ? op.seconds / total : 0;
    return total;
}

double kernelsOf(const std::vector<ServingOperator> &ops)
{
    double kernels = 0;
    for (const ServingOperator &op : ops)
        kernels += op.count;
    return kernels;
}

// Operator classes of the breakdown.
enum class OpClass { Matmul, Attention, Other };
OpClass classOf(const ServingOperator &op)
{
    if (op.attention)
        return OpClass::Attention;
    return op.kind == OpKind::MatMul ? OpClass::Matmul : OpClass::Other;
}

// A pass of the model's operators at one batch on one GPU's shard, and a decode pass linear in the
// context (attention's FLOPs and KV bytes grow with it, nothing else does): the roofline at two
// context lengths gives both ends of each operator's line.
struct Passes {
    std::vector<ServingOperator> prefill;
    std::vector<ServingOperator> decode_first;  // at context c0
    std::vector<ServingOperator> decode_last;   // at context c1
    std::int64_t c0 = 1;
    std::int64_t c1 = 1;
    double prefill_weight_bytes_read = 0;
};

Result<Passes> buildPasses(const ServingInputs &inputs, std::int64_t micro_batch, const RooflineMachine &machine)
{
    const Scenario scenario = rooflineScenario(inputs, micro_batch);
    Passes passes;
    RooflineOptions prefill = formatOptions(inputs, StepPhase::Prefill);
    prefill.batch = micro_batch;
    const Result<RooflineReport> prefill_report = rooflineReport(scenario, prefill, machine);
    if (!prefill_report)
        return prefill_report.problems();
    for (const RooflineOp &op : prefill_report->ops)
        passes.prefill.push_back(shareOf(op, inputs.tp));

    // Decode step k (1 … output − 1) attends to prompt + k keys.
    passes.c0 = inputs.prompt_tokens + 1;
    passes.c1 = inputs.prompt_tokens + std::max<std::int64_t>(1, inputs.output_tokens - 1);
    if (passes.c1 == passes.c0)
        passes.c1 = passes.c0 + 1;  // a second point for the line; only c0 is used then
    for (const auto &[context, target] :
         {std::pair{passes.c0, &passes.decode_first}, std::pair{passes.c1, &passes.decode_last}}) {
        RooflineOptions decode = formatOptions(inputs, StepPhase::Decode);
        decode.batch = micro_batch;
        decode.context_tokens = context;
        const Result<RooflineReport> report = rooflineReport(scenario, decode, machine);
        if (!report)
            return report.problems();
        for (const RooflineOp &op : report->ops)
            target->push_back(shareOf(op, inputs.tp));
    }
    return passes;
}

// The decode operators at `context`, on the line through the two ends.
std::vector<ServingOperator> decodeAt(const Passes &passes, double context, const Machine &machine)
{
    std::vector<ServingOperator> ops = passes.decode_first;
    const double t = (context - double(passes.c0)) / double(passes.c1 - passes.c0);
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const ServingOperator &last = passes.decode_last[i];
        ops[i].flops += t * (last.flops - ops[i].flops);
        ops[i].matmul_flops += t * (last.matmul_flops - ops[i].matmul_flops);
        ops[i].bytes += t * (last.bytes - ops[i].bytes);
        if (t > 0.5)
            ops[i].shape = last.shape;
        time(ops[i], machine);
    }
    return ops;
}

// Alpha-beta ring all-reduce over the tp group (Patarasuk & Yuan 2009; the cost engine's link model,
// cost/communication.cpp): 2(n−1) steps of latency, 2(n−1)/n of the message over each link.
double allReduceSeconds(const ClusterConfig &cluster, int tp, double bytes)
{
    if (tp <= 1 || bytes <= 0)
        return 0;
    const bool crosses = tp > cluster.gpus_per_node;
    const double bandwidth = linkBytesPerSecondPerGpu(cluster, crosses) * cluster.link_efficiency;
    const double latency = crosses ? cluster.inter_node_latency_seconds : cluster.intra_node_latency_seconds;
    return 2.0 * (tp - 1) * latency + (bandwidth > 0 ? 2.0 * (tp - 1) / tp * bytes / bandwidth : 0.0);
}

// One pipeline hand-off: the boundary activation, each tp rank sending its 1/tp slice (Narayanan
// et al. 2021 §4.1, scatter/gather), one message.
double handOffSeconds(const ClusterConfig &cluster, int tp, int pp, double bytes)
{
    if (pp <= 1 || bytes <= 0)
        return 0;
    const bool crosses = std::int64_t(tp) * pp > cluster.gpus_per_node;
    const double bandwidth = linkBytesPerSecondPerGpu(cluster, crosses) * cluster.link_efficiency;
    const double latency = crosses ? cluster.inter_node_latency_seconds : cluster.intra_node_latency_seconds;
    return latency + (bandwidth > 0 ? bytes / tp / bandwidth : 0.0);
}

ServingMemory memoryPerGpu(const ServingInputs &inputs, double workspace_bytes_per_sequence, std::int64_t micro_batch,
                           std::int64_t batch)
{
    const ModelConfig &model = inputs.scenario.model;
    const ModelParameters parameters = modelParameters(model);
    const double weight_bytes = weightBytesPerElement(inputs.weights);
    // Linear layers' matrices at the weight format; the embedding table, norms and biases stay 16-bit
    // (GPTQ, AWQ and TensorRT-LLM quantise the linear layers only). With tied embeddings the one
    // matrix is the head's weight too and stays 16-bit.
    const auto bytesOf = [&](const std::vector<ParameterTensor> &tensors, double layers) {
        double bytes = 0;
        for (const ParameterTensor &tensor : tensors) {
            const bool matrix = tensor.cols > 1 && !tensor.is_bias && tensor.component != Component::Embedding;
            bytes += double(tensor.elements()) * layers * (matrix ? weight_bytes : kSixteenBitBytes)
                / double(tensor.tp_sharded ? inputs.tp : 1);
        }
        return bytes;
    };
    ParallelConfig parallel;
    parallel.pp = inputs.pp;
    const PipelineLayers placement = pipelineLayers(model.n_layers, parallel);
    const double layers_total = double(std::max(1, model.n_layers));
    const auto layerBytes = [&](int layers) {
        return bytesOf(parameters.dense_layers.tensors, layers * parameters.dense_layers.layer_count / layers_total)
            + bytesOf(parameters.moe_layers.tensors, layers * parameters.moe_layers.layer_count / layers_total);
    };
    const double embedding = bytesOf(parameters.embedding, 1);
    const double head = bytesOf(parameters.head, 1);
    double weights = 0;
    if (inputs.pp == 1) {
        weights = layerBytes(model.n_layers) + embedding + head;
    } else {
        weights = std::max(layerBytes(placement.stage_layers.front()) + embedding,
                           layerBytes(placement.stage_layers.back()) + head);
        for (int layers : placement.stage_layers)
            weights = std::max(weights, layerBytes(layers));
    }

    ServingMemory memory;
    memory.weights_bytes = weights;
    // vLLM (Kwon et al. 2023) §3: K and V per layer, KV head and head dimension; Megatron splits the
    // KV heads over tp (at least one per rank), pipeline stages hold their own layers.
    const double kv_heads_per_gpu = double(ceilDiv(model.n_kv_heads, inputs.tp));
    memory.kv_cache_bytes_per_token = 2.0 * placement.mostLoadedStageLayers() * kv_heads_per_gpu * model.head_dim
        * elementBytes(inputs.kv_cache);
    memory.kv_cache_bytes = memory.kv_cache_bytes_per_token * double(inputs.prompt_tokens + inputs.output_tokens)
        * double(batch);
    memory.activation_bytes = workspace_bytes_per_sequence * double(micro_batch);
    memory.reserve_bytes = double(inputs.scenario.training.framework_reserve_bytes);
    memory.total_bytes = memory.weights_bytes + memory.kv_cache_bytes + memory.activation_bytes + memory.reserve_bytes;
    memory.capacity_bytes = double(inputs.scenario.cluster.accelerator.memory_bytes);
    memory.fits = memory.total_bytes <= memory.capacity_bytes;
    return memory;
}

std::int64_t microBatches(const ServingInputs &inputs, std::int64_t batch)
{
    return std::min<std::int64_t>(inputs.pp, batch);
}

std::int64_t largestBatch(const ServingInputs &inputs, double workspace_per_sequence)
{
    const auto fits = [&](std::int64_t batch) {
        const std::int64_t micro = ceilDiv(batch, microBatches(inputs, batch));
        return memoryPerGpu(inputs, workspace_per_sequence, micro, batch).fits;
    };
    if (!fits(1))
        return 0;
    std::int64_t low = 1, high = 2;
    constexpr std::int64_t kLimit = std::int64_t(1) << 31;
    while (high < kLimit && fits(high)) {
        low = high;
        high *= 2;
    }
    if (high >= kLimit)
        return kLimit;
    while (high - low > 1) {
        const std::int64_t middle = low + (high - low) / 2;
        (fits(middle) ? low : high) = middle;
    }
    return low;
}

const char *const kRooflineSource =
    "FLOPs and bytes: the roofline's prefill/decode operators (core/roofline, from core/ops); time max(compute, "
    "memory) per operator (Williams et al. 2009) at the serving factors (resources/hardware/serving_efficiency.json)";

struct PartBuilder {
    std::vector<ServingPart> parts;
    ServingPart &part(const std::string &key, const std::string &label, const std::string &formula,
                      const std::string &source)
    {
        for (ServingPart &existing : parts)
            if (existing.key == key)
                return existing;
        parts.push_back({key, label, 0, formula, source});
        return parts.back();
    }
};

std::string className(OpClass c)
{
    switch (c) {
    case OpClass::Matmul: return "matmul";
    case OpClass::Attention: return "attention";
    case OpClass::Other: return "other";
    }
    return "other";
}

std::string classLabel(OpClass c)
{
    switch (c) {
    case OpClass::Matmul: return "weight matmuls";
    case OpClass::Attention: return "attention";
    case OpClass::Other: return "element-wise, norms, embedding";
    }
    return "other";
}

// The operator parts of a phase: each operator's time goes to its class and to the limit that won.
void addOperatorParts(PartBuilder &builder, const std::string &phase, const std::vector<ServingOperator> &ops,
                      double scale)
{
    for (OpClass c : {OpClass::Matmul, OpClass::Attention, OpClass::Other})
        for (Bound bound : {Bound::Compute, Bound::Memory}) {
            const bool compute = bound == Bound::Compute;
            builder.part(phase + "_" + className(c) + (compute ? "_compute" : "_memory"),
                         phase + " " + classLabel(c) + (compute ? " (compute-bound)" : " (memory-bound)"),
                         compute ? "Σ FLOPs / (peak · compute_fraction) over the operators whose compute time is longer"
                                 : "Σ bytes / (HBM bandwidth · bandwidth_fraction) over the operators whose memory time "
                                   "is longer",
                         kRooflineSource);
        }
    for (const ServingOperator &op : ops)
        builder.part(phase + "_" + className(classOf(op)) + (op.bound == Bound::Compute ? "_compute" : "_memory"), "",
                     "", "")
            .seconds += op.seconds * scale;
}

}  // namespace

// Everything of a prediction that does not depend on the serving factors: the operators of the
// passes, the memory, the crossover. A fit evaluates it with many factor sets.
struct ServingWork {
    ServingInputs inputs;
    ServingReport base;  // inputs, formats, peaks, micro-batching, memory, max batch, crossover
    Passes passes;       // untimed
    double sixteen_bit_peak = 0;
    std::shared_ptr<const ServingWork> draft;
};

Result<std::shared_ptr<const ServingWork>> prepareServing(const ServingInputs &inputs)
{
    if (Problems problems = validateInputs(inputs); !problems.empty())
        return problems;
    const Accelerator &gpu = inputs.scenario.cluster.accelerator;
    const ModelConfig &model = inputs.scenario.model;

    auto work = std::make_shared<ServingWork>();
    work->inputs = inputs;
    ServingReport &report = work->base;
    report.inputs = inputs;
    report.compute_format = computeFormat(inputs.weights, inputs.activations);
    report.peak_flops_per_second = peakFlopsPerSecond(gpu, report.compute_format);
    report.memory_bandwidth_bytes_per_second = gpu.memory_bandwidth_bytes_per_second;
    report.gpus = inputs.gpus();
    const std::int64_t m = microBatches(inputs, inputs.batch);
    report.micro_batches = int(m);
    report.micro_batch = ceilDiv(inputs.batch, m);
    work->sixteen_bit_peak =
        peakFlopsPerSecond(gpu, inputs.activations == ServingFormat::BF16 ? ComputeFormat::BF16 : ComputeFormat::FP16);

    RooflineMachine roofline = rooflineMachine(gpu, DType::FP16);
    roofline.peak_flops_per_second = report.peak_flops_per_second;
    roofline.name = gpu.name + " (" + std::string(toString(report.compute_format)) + ")";
    Result<Passes> built = buildPasses(inputs, report.micro_batch, roofline);
    if (!built)
        return built.problems();
    work->passes = *built;

    // Memory: the workspace is the activation traffic of the largest prefill operator instance (its
    // input and output live at once; weight matmuls' bytes include their weights and are left
    // out, their activations are no larger than the element-wise operators around them) plus the
    // residual stream, which lives throughout.
    double workspace = 0;
    for (const ServingOperator &op : work->passes.prefill)
        if (!op.weight_matmul)
            workspace = std::max(workspace, op.bytes / std::max(1, op.count));
    workspace += double(report.micro_batch * inputs.prompt_tokens) * double(model.d_model)
        * std::max(1, elementBytes(inputs.activations));
    const double workspace_per_sequence = workspace / double(report.micro_batch);
    report.memory = memoryPerGpu(inputs, workspace_per_sequence, report.micro_batch, inputs.batch);
    report.max_batch = largestBatch(inputs, workspace_per_sequence);
    report.decode_crossover_batch =
        decodeCrossoverBatch(rooflineScenario(inputs, 1), roofline, formatOptions(inputs, StepPhase::Decode));

    if (inputs.speculative) {
        ServingInputs draft_inputs = inputs;
        draft_inputs.speculative.reset();
        draft_inputs.scenario.model = inputs.speculative->draft_model;
        Result<std::shared_ptr<const ServingWork>> draft = prepareServing(draft_inputs);
        if (!draft) {
            Problems problems;
            for (Problem problem : draft.problems()) {
                problem.field = "inference.draft_model (" + problem.field + ")";
                problems.push_back(problem);
            }
            return problems;
        }
        work->draft = *draft;
    }
    return std::shared_ptr<const ServingWork>(work);
}

ServingFactors catalogFactors(const ServingInputs &inputs)
{
    return builtinServingFactors().lookUp(inputs.scenario.cluster.accelerator.id,
                                          precisionKey(computeFormat(inputs.weights, inputs.activations)));
}

Result<ServingReport> serve(const ServingInputs &inputs)
{
    const Result<std::shared_ptr<const ServingWork>> work = prepareServing(inputs);
    if (!work)
        return work.problems();
    return evaluateServing(**work, inputs.factors ? *inputs.factors : catalogFactors(inputs));
}

Result<ServingReport> evaluateServing(const ServingWork &work, const ServingFactors &factors)
{
    if (Problems problems = validateServingFactors(factors, "inference.factors"); !problems.empty())
        return problems;
    const ServingInputs &inputs = work.inputs;
    const ModelConfig &model = inputs.scenario.model;
    const ClusterConfig &cluster = inputs.scenario.cluster;
    ServingReport report = work.base;
    report.factors = factors;
    const std::int64_t m = report.micro_batches;
    Machine machine;
    machine.matmul_peak = report.peak_flops_per_second;
    machine.sixteen_bit_peak = work.sixteen_bit_peak;
    machine.bandwidth = report.memory_bandwidth_bytes_per_second;
    machine.factors = factors;
    Passes passes = work.passes;
    for (ServingOperator &op : passes.prefill)
        time(op, machine);

    const int tp = inputs.tp, pp = inputs.pp;
    const double layers = model.n_layers;
    const double mb = double(report.micro_batch);
    // Prefill: m micro-batches through pp stages take m + pp − 1 stage slots; a stage is 1/pp of
    // a pass (GPipe's fill and drain, Huang et al. 2019). Decode: each micro-batch advances one
    // token per round of pp stage slots, the m ≤ pp micro-batches in flight side by side.
    const double prefill_scale = double(m + pp - 1) / double(pp);

    PartBuilder builder;
    // Prefill
    const double prefill_ops = passSeconds(passes.prefill);
    addOperatorParts(builder, "prefill", passes.prefill, prefill_scale);
    const double prefill_kernels = kernelsOf(passes.prefill);
    const double prefill_all_reduce =
        2.0 * layers * allReduceSeconds(cluster, tp, mb * double(inputs.prompt_tokens) * double(model.d_model) * kSixteenBitBytes);
    const double prefill_hand_off =
        handOffSeconds(cluster, tp, pp, mb * double(inputs.prompt_tokens) * double(model.d_model) * kSixteenBitBytes);
    report.ttft_seconds = prefill_scale * (prefill_ops + prefill_all_reduce + prefill_kernels * factors.kernel_launch_seconds)
        + double(m + pp - 1) * prefill_hand_off * (pp > 1 ? 1.0 : 0.0) + factors.host_step_seconds;

    // Decode
    const std::int64_t steps = inputs.output_tokens - 1;
    const double decode_kernels = kernelsOf(passes.decode_first);
    const double decode_all_reduce = 2.0 * layers * allReduceSeconds(cluster, tp, mb * double(model.d_model) * kSixteenBitBytes);
    const double decode_hand_off = handOffSeconds(cluster, tp, pp, mb * double(model.d_model) * kSixteenBitBytes);
    const double step_fixed = decode_all_reduce + double(pp) * decode_hand_off + decode_kernels * factors.kernel_launch_seconds
        + factors.host_step_seconds;
    // Only the attention operators change with the context: sum the others once.
    std::vector<ServingOperator> at_first = decodeAt(passes, double(passes.c0), machine);
    double constant_ops = 0;
    std::vector<std::size_t> varying;
    for (std::size_t i = 0; i < at_first.size(); ++i) {
        const bool grows = passes.decode_last[i].bytes != passes.decode_first[i].bytes
            || passes.decode_last[i].flops != passes.decode_first[i].flops;
        if (grows)
            varying.push_back(i);
        else
            constant_ops += at_first[i].seconds;
    }
    const std::int64_t sample_every = std::max<std::int64_t>(1, steps / 256);
    double decode_bytes = 0, decode_matmul_flops = 0;
    std::vector<double> compute_part(at_first.size(), 0.0), memory_part(at_first.size(), 0.0);
    const auto accumulate = [&](const ServingOperator &op, std::size_t index, double weight) {
        (op.bound == Bound::Compute ? compute_part[index] : memory_part[index]) += op.seconds * weight;
        decode_bytes += op.bytes * weight;
        decode_matmul_flops += op.matmul_flops * weight;
    };
    for (std::size_t i = 0; i < at_first.size(); ++i)
        if (std::find(varying.begin(), varying.end(), i) == varying.end())
            accumulate(at_first[i], i, double(steps));
    double decode_seconds = 0;
    for (std::int64_t k = 1; k <= steps; ++k) {
        const double context = double(inputs.prompt_tokens + k);
        double varying_seconds = 0;
        ServingOperator op;
        for (std::size_t i : varying) {
            op = at_first[i];
            const ServingOperator &last = passes.decode_last[i];
            const double t = (context - double(passes.c0)) / double(passes.c1 - passes.c0);
            op.flops = passes.decode_first[i].flops + t * (last.flops - passes.decode_first[i].flops);
            op.matmul_flops = passes.decode_first[i].matmul_flops + t * (last.matmul_flops - passes.decode_first[i].matmul_flops);
            op.bytes = passes.decode_first[i].bytes + t * (last.bytes - passes.decode_first[i].bytes);
            time(op, machine);
            varying_seconds += op.seconds;
            accumulate(op, i, 1.0);
        }
        const double step = constant_ops + varying_seconds + step_fixed;
        decode_seconds += step;
        if ((k - 1) % sample_every == 0 || k == steps)
            report.decode_steps.push_back({inputs.prompt_tokens + k, step});
    }
    report.decode_seconds = decode_seconds;
    if (steps > 0) {
        report.tpot_seconds = decode_seconds / double(steps);
    } else {
        double ops = 0;
        for (const ServingOperator &op : at_first)
            ops += op.seconds;
        report.tpot_seconds = ops + step_fixed;
        report.decode_steps.push_back({passes.c0, report.tpot_seconds});
    }
    report.end_to_end_seconds = report.ttft_seconds + report.decode_seconds;

    // The decode operators at the mean context of the decode steps.
    const double mean_context = steps > 0 ? double(inputs.prompt_tokens) + double(steps + 1) / 2.0 : double(passes.c0);
    report.decode_operators = decodeAt(passes, mean_context, machine);
    passSeconds(report.decode_operators);
    report.prefill_operators = passes.prefill;

    // Breakdown
    for (OpClass c : {OpClass::Matmul, OpClass::Attention, OpClass::Other})
        for (Bound bound : {Bound::Compute, Bound::Memory})
            (void)builder.part("decode_" + className(c) + (bound == Bound::Compute ? "_compute" : "_memory"),
                               "decode " + classLabel(c) + (bound == Bound::Compute ? " (compute-bound)" : " (memory-bound)"),
                               bound == Bound::Compute
                                   ? "Σ over decode steps and operators whose compute time is longer: FLOPs / (peak · "
                                     "compute_fraction)"
                                   : "Σ over decode steps and operators whose memory time is longer: bytes / (HBM "
                                     "bandwidth · bandwidth_fraction)",
                               kRooflineSource);
    for (std::size_t i = 0; i < at_first.size(); ++i) {
        const std::string base = "decode_" + className(classOf(at_first[i]));
        builder.part(base + "_compute", "", "", "").seconds += compute_part[i];
        builder.part(base + "_memory", "", "", "").seconds += memory_part[i];
    }
    builder
        .part("tp_all_reduce", "tensor-parallel all-reduces",
              "2 per layer per step of micro_batch · tokens · d_model · 2 bytes: 2(tp−1)·latency + 2(tp−1)/tp · bytes / "
              "(link bandwidth · link_efficiency)",
              "Megatron-LM (Shoeybi et al. 2019 §3, two all-reduces per layer forward); ring all-reduce (Patarasuk & Yuan "
              "2009); the scenario's link model")
        .seconds = prefill_scale * prefill_all_reduce + double(steps) * decode_all_reduce;
    builder
        .part("pp_hand_off", "pipeline hand-offs",
              "per stage slot: latency + micro_batch · tokens · d_model · 2 bytes / tp / (link bandwidth · "
              "link_efficiency); prefill m + pp − 1 slots, decode pp per step",
              "Narayanan et al. 2021 §4.1 (scatter/gather of the boundary activation); the scenario's link model")
        .seconds = (pp > 1 ? double(m + pp - 1) * prefill_hand_off : 0.0) + double(steps) * double(pp) * decode_hand_off;
    builder
        .part("kernel_launch", "kernel launches",
              "kernels per pass (the operators after fusion, each layer's counted per layer) · kernel_launch_seconds, per "
              "prefill and per decode step",
              factors.source)
        .seconds = prefill_scale * prefill_kernels * factors.kernel_launch_seconds
        + double(steps) * decode_kernels * factors.kernel_launch_seconds;
    builder
        .part("host_overhead", "host overhead per step",
              "host_step_seconds per forward step (the prefill and each decode step)", factors.source)
        .seconds = double(steps + 1) * factors.host_step_seconds;
    // The prefill operator parts were added at prefill_scale; the decode steps with steps = 0 add none.
    report.breakdown = builder.parts;

    // Throughput, utilisation, cost.
    const double replicas = inputs.replicas;
    const double gpus = report.gpus;
    const double batch = double(inputs.batch);
    const double output_tokens = batch * double(inputs.output_tokens);
    report.output_tokens_per_second = replicas * output_tokens / report.end_to_end_seconds;
    report.output_tokens_per_second_per_gpu = report.output_tokens_per_second / gpus;
    report.total_tokens_per_second =
        replicas * batch * double(inputs.prompt_tokens + inputs.output_tokens) / report.end_to_end_seconds;
    report.total_tokens_per_second_per_gpu = report.total_tokens_per_second / gpus;
    // Work of the whole replica: m micro-batch passes, each op's per-GPU share times the tp ranks;
    // the pp stages are summed in a pass already.
    double prefill_matmul_flops = 0;
    for (const ServingOperator &op : passes.prefill)
        prefill_matmul_flops += op.matmul_flops;
    const double replica_matmul_flops = double(m) * double(tp) * (prefill_matmul_flops + decode_matmul_flops);
    report.mfu = replica_matmul_flops / (report.end_to_end_seconds * report.peak_flops_per_second * double(tp * pp));
    report.mbu = steps > 0 ? double(m) * double(tp) * decode_bytes
            / (report.decode_seconds * report.memory_bandwidth_bytes_per_second * double(tp * pp))
                           : 0.0;
    const double price_per_second = cluster.price_per_gpu_hour * gpus / 3600.0;
    report.cost_per_million_output_tokens = price_per_second / report.output_tokens_per_second * 1e6;

    if (inputs.speculative && work.draft) {
        const SpeculativeInputs &draft = *inputs.speculative;
        const Result<ServingReport> draft_report = evaluateServing(*work.draft, factors);
        if (!draft_report)
            return draft_report.problems();
        SpeculativeReport speculative;
        speculative.draft_model = draft.draft_model.name;
        speculative.draft_tokens = draft.draft_tokens;
        speculative.acceptance = draft.acceptance;
        speculative.expected_tokens_per_step = expectedTokensPerTargetStep(draft.acceptance, draft.draft_tokens);
        speculative.draft_tpot_seconds = draft_report->tpot_seconds;
        speculative.target_tpot_seconds = report.tpot_seconds;
        speculative.cost_coefficient = speculative.draft_tpot_seconds / speculative.target_tpot_seconds;
        speculative.speedup = speculativeSpeedup(draft.acceptance, draft.draft_tokens, speculative.cost_coefficient);
        speculative.tpot_seconds = report.tpot_seconds / speculative.speedup;
        speculative.end_to_end_seconds = report.ttft_seconds + report.decode_seconds / speculative.speedup;
        report.speculative = speculative;
    }

    for (const double value : {report.ttft_seconds, report.end_to_end_seconds, report.tpot_seconds, report.mfu,
                               report.memory.total_bytes, report.cost_per_million_output_tokens})
        if (!std::isfinite(value))
            return Result<ServingReport>::failure("result.inference", "finite",
                                                  "the serving prediction is not a finite number; check the inputs");
    return report;
}

Result<BatchSweep> sweepBatch(const ServingInputs &inputs, int limit)
{
    const Result<ServingReport> first = serve(inputs);
    if (!first)
        return first.problems();
    BatchSweep sweep;
    sweep.max_batch = first->max_batch;
    sweep.decode_crossover_batch = first->decode_crossover_batch;
    std::vector<std::int64_t> batches;
    for (std::int64_t batch = 1; batch <= sweep.max_batch && int(batches.size()) < limit - 1; batch *= 2)
        batches.push_back(batch);
    if (sweep.max_batch > 0 && (batches.empty() || batches.back() != sweep.max_batch))
        batches.push_back(sweep.max_batch);
    for (const std::int64_t batch : batches) {
        ServingInputs row_inputs = inputs;
        row_inputs.batch = batch;
        row_inputs.speculative.reset();
        const Result<ServingReport> report = serve(row_inputs);
        if (!report)
            return report.problems();
        SweepRow row;
        row.batch = batch;
        row.ttft_seconds = report->ttft_seconds;
        row.tpot_seconds = report->tpot_seconds;
        row.end_to_end_seconds = report->end_to_end_seconds;
        row.output_tokens_per_second = report->output_tokens_per_second;
        row.output_tokens_per_second_per_gpu = report->output_tokens_per_second_per_gpu;
        row.memory_total_bytes = report->memory.total_bytes;
        row.mbu = report->mbu;
        row.mfu = report->mfu;
        row.decode_compute_bound = sweep.decode_crossover_batch > 0 && batch >= sweep.decode_crossover_batch;
        sweep.rows.push_back(row);
    }
    return sweep;
}

}  // namespace lse::inference
