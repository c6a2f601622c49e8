// SPDX-License-Identifier: GPL-3.0-or-later
#include "roofline/roofline.h"

#include "cost/estimate.h"
#include "cost/parameters.h"
#include "ops/optimizer_update.h"
#include "performance/step_prediction.h"
#include "roofline/step_operators.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace lse {

using namespace roofline_detail;

std::int64_t flashTileColumns(std::int64_t sram_bytes_per_sm, int element_bytes, std::int64_t head_dim)
{
    if (head_dim <= 0)
        return 0;
    if (sram_bytes_per_sm <= 0 || element_bytes <= 0)
        return head_dim;
    // Dao et al. 2022, Alg. 1 line 1: B_c = ceil(M / 4d) with M the SRAM size in elements.
    const std::int64_t sram_elements = sram_bytes_per_sm / element_bytes;
    return std::max<std::int64_t>(1, (sram_elements + 4 * head_dim - 1) / (4 * head_dim));
}

std::int64_t flashTileRows(std::int64_t sram_bytes_per_sm, int element_bytes, std::int64_t head_dim)
{
    // Dao et al. 2022, Alg. 1 line 1: B_r = min(ceil(M / 4d), d).
    return std::min(flashTileColumns(sram_bytes_per_sm, element_bytes, head_dim), head_dim);
}

RooflineOptions rooflineOptionsFor(const Scenario &scenario, StepPhase phase)
{
    RooflineOptions options;
    options.phase = phase;
    options.flash_attention = scenario.training.flash_attention;
    return options;
}

namespace {

// Places one operator on the roofline: time = max(flops / peak, bytes / bandwidth), which is
// flops / min(peak, I·bandwidth) (Williams et al. 2009).
void placeOnRoofline(RooflineOp &op, const RooflineMachine &machine)
{
    const double bytes = op.bytes();
    op.intensity_flop_per_byte = bytes > 0 ? op.flops / bytes : 0;
    op.attainable_flops_per_second = bytes > 0 ? attainableFlopsPerSecond(machine, op.intensity_flop_per_byte)
                                               : machine.peak_flops_per_second;
    op.bound = bytes > 0 && op.intensity_flop_per_byte < machine.ridgePointFlopPerByte() ? Bound::Memory : Bound::Compute;
    op.seconds = std::max(op.flops / machine.peak_flops_per_second, bytes / machine.memory_bandwidth_bytes_per_second);
}

RooflineOp rowFrom(const StepOp &step, OpPass pass, int count)
{
    RooflineOp row;
    row.name = step.name;
    row.component = step.op.component;
    row.pass = pass;
    row.kind = step.op.kind;
    row.shape = step.shape;
    row.count = count;
    row.weight_matmul = step.weight_matmul;
    row.attention_core = step.attention_core;
    row.tp_sharded = step.op.isMatMul() ? step.op.tp_dimension != TpDimension::Replicated
                                        : step.op.tp_split == TpSplit::Sharded;
    const double n = count;
    if (pass == OpPass::Backward) {
        row.flops = step.op.backward_flops * n;
        row.matmul_flops = step.backward_matmul_flops * n;
        row.bytes_read = step.backward_bytes_read * n;
        row.bytes_written = step.backward_bytes_written * n;
    } else {
        row.flops = step.op.flops * n;
        row.matmul_flops = step.matmul_flops * n;
        row.bytes_read = step.op.bytes_read * n;
        row.bytes_written = step.op.bytes_written * n;
    }
    return row;
}

// The optimizer step (ops/optimizer_update.h). Adafactor's factored state is O(rows + columns) per
// matrix and left out.
RooflineOp optimizerRow(const Scenario &scenario, double parameters)
{
    const TrainingConfig &training = scenario.training;
    const ops::OptimizerUpdateCost cost = ops::optimizerUpdatePerParameter(
        training.optimizer, training.precision, optimizerStateBytesPerParameter(training.optimizer));
    RooflineOp row;
    row.name = "optimizer_step";
    row.component = Component::Norm;  // no component fits; the pass says what it is
    row.pass = OpPass::Optimizer;
    row.kind = OpKind::Elementwise;
    row.shape = std::to_string(std::int64_t(parameters)) + " parameters, " + std::string(toString(training.optimizer));
    row.flops = cost.flops * parameters;
    row.bytes_read = cost.bytes_read * parameters;
    row.bytes_written = cost.bytes_written * parameters;
    return row;
}

constexpr OpGroup kForwardGroups[] = {OpGroup::Embedding, OpGroup::DenseLayer, OpGroup::MoeLayer, OpGroup::Head};

void appendForward(std::vector<RooflineOp> &rows, const Scenario &scenario, const StepOperators &step, bool fused)
{
    std::vector<std::vector<int>> singles;
    std::vector<FusedChain> chains;
    if (fused)
        chains = fusedChains(scenario, step, &singles);
    for (OpGroup group : kForwardGroups) {
        const std::vector<StepOp> &ops = step.group(group);
        for (std::size_t i = 0; i < ops.size(); ++i) {
            const int count = fused ? singles[std::size_t(group)][i] : step.groupCount(group);
            if (count > 0)
                rows.push_back(rowFrom(ops[i], OpPass::Forward, count));
            for (const FusedChain &chain : chains) {
                if (chain.members.front().group != group || chain.members.front().index != i)
                    continue;
                RooflineOp row = rowFrom(ops[i], OpPass::Forward, chain.count);
                row.name.clear();
                row.shape.clear();
                for (const OpInstance &member : chain.members) {
                    const StepOp &op = step.group(member.group)[member.index];
                    row.name += (row.name.empty() ? "" : "+") + op.name;
                    row.shape += (row.shape.empty() ? "" : ", ") + op.shape;
                }
                row.fused = true;
                row.flops = chain.flops * chain.count;
                row.matmul_flops = 0;
                // Split the fused bytes between reads and writes in the unfused proportion.
                const double unfused_read = [&] {
                    double read = 0;
                    for (const OpInstance &member : chain.members)
                        read += step.group(member.group)[member.index].op.bytes_read;
                    return read;
                }();
                const double scale = chain.unfused_bytes > 0 ? chain.fused_bytes / chain.unfused_bytes : 0;
                row.bytes_read = unfused_read * scale * chain.count;
                row.bytes_written = (chain.unfused_bytes - unfused_read) * scale * chain.count;
                rows.push_back(row);
            }
        }
    }
}

void appendRecompute(std::vector<RooflineOp> &rows, const StepOperators &step, Recomputation recomputation)
{
    if (recomputation == Recomputation::None)
        return;
    for (OpGroup group : {OpGroup::DenseLayer, OpGroup::MoeLayer}) {
        if (step.groupCount(group) == 0)
            continue;
        for (const StepOp &op : step.group(group))
            if (recomputation == Recomputation::Full || op.attention_core)
                rows.push_back(rowFrom(op, OpPass::Recompute, step.groupCount(group)));
    }
}

void appendBackward(std::vector<RooflineOp> &rows, const StepOperators &step)
{
    for (auto group = std::rbegin(kForwardGroups); group != std::rend(kForwardGroups); ++group) {
        if (step.groupCount(*group) == 0)
            continue;
        const std::vector<StepOp> &ops = step.group(*group);
        for (auto op = ops.rbegin(); op != ops.rend(); ++op)
            rows.push_back(rowFrom(*op, OpPass::Backward, step.groupCount(*group)));
    }
}

bool finite(double value) { return std::isfinite(value) && std::fabs(value) < 1e300; }

Problems validateInputs(const Scenario &scenario, const RooflineOptions &options, const RooflineMachine &machine)
{
    Problems problems = validate(scenario);
    if (options.batch < 0)
        problems.push_back({"roofline.batch", "min",
                            "roofline.batch must be at least 1 sequence (0 = the scenario's micro-batch), got "
                                + std::to_string(options.batch)});
    if (options.context_tokens < 0)
        problems.push_back({"roofline.context_tokens", "min",
                            "roofline.context_tokens must be at least 1 token (0 = the sequence length), got "
                                + std::to_string(options.context_tokens)});
    // Keeps every token count and shape product far inside 64-bit integers.
    constexpr double kMaxTokens = 1e15;
    const double sequence = double(std::max<std::int64_t>(
        {std::int64_t(1), scenario.training.seq_len, options.context_tokens}));
    const double batch = double(options.batch > 0 ? options.batch : std::max<std::int64_t>(1, scenario.training.micro_batch));
    if (batch * sequence > kMaxTokens) {
        // Blame the factor the caller chose: a decode context longer than the sequence, else the batch.
        const bool context_longest = options.context_tokens > std::max<std::int64_t>(1, scenario.training.seq_len);
        const std::string sequence_field = context_longest ? "roofline.context_tokens" : "training.seq_len";
        const std::string field = context_longest ? sequence_field : "roofline.batch";
        char product[32];
        std::snprintf(product, sizeof product, "%g", batch * sequence);
        problems.push_back({field, "max",
                            "roofline.batch × " + sequence_field + " must stay below 1e15 tokens, got " + product,
                            {context_longest ? "roofline.batch" : sequence_field}});
    }
    if (!(machine.peak_flops_per_second > 0) || !finite(machine.peak_flops_per_second))
        problems.push_back({"roofline.machine.peak_flops_per_second", "positive",
                            "the machine '" + machine.name + "' has no peak for " + std::string(toString(machine.dtype))
                                + "; choose another dtype or machine"});
    if (!(machine.memory_bandwidth_bytes_per_second > 0) || !finite(machine.memory_bandwidth_bytes_per_second))
        problems.push_back({"roofline.machine.memory_bandwidth_bytes_per_second", "positive",
                            "the machine '" + machine.name + "' has no memory bandwidth"});
    return problems;
}

// Whether every decode weight matmul at `batch` sequences is compute-bound. The MoE router is left
// out: its d_model × n_experts product stays below any GPU's ridge point at every batch (its
// intensity tends to n_experts / bytes per element).
bool decodeWeightMatmulsComputeBound(const Scenario &scenario, const RooflineMachine &machine,
                                     const RooflineOptions &formats, std::int64_t batch)
{
    RooflineOptions options = formats;
    options.phase = StepPhase::Decode;
    options.batch = batch;
    options.context_tokens = 1;
    const StepOperators step = stepOperators(scenario, stepShapes(scenario, options, machine.sram_bytes_per_sm, machine.l2_bytes));
    const double ridge = machine.ridgePointFlopPerByte();
    for (OpGroup group : kForwardGroups) {
        if (step.groupCount(group) == 0)
            continue;
        for (const StepOp &op : step.group(group)) {
            if (!op.weight_matmul || op.op.component == Component::Router)
                continue;
            if (op.op.flops < ridge * (op.op.bytes_read + op.op.bytes_written))
                return false;
        }
    }
    return true;
}

}  // namespace

RooflineOp matmulRooflineOp(std::string name, std::int64_t m, std::int64_t n, std::int64_t k, int element_bytes,
                            const RooflineMachine &machine, std::int64_t batch)
{
    RooflineOp op;
    op.name = std::move(name);
    op.component = Component::Mlp;
    op.kind = OpKind::MatMul;
    const double b = double(batch), dm = double(m), dn = double(n), dk = double(k), e = double(element_bytes);
    op.shape = (batch > 1 ? std::to_string(batch) + "×" : std::string()) + "[" + std::to_string(m) + "×"
        + std::to_string(k) + "]·[" + std::to_string(k) + "×" + std::to_string(n) + "]";
    op.flops = 2.0 * b * dm * dn * dk;
    op.matmul_flops = op.flops;
    op.bytes_read = e * b * (dm * dk + dk * dn);
    op.bytes_written = e * b * dm * dn;
    if (machine.valid())
        placeOnRoofline(op, machine);
    return op;
}

std::int64_t decodeCrossoverBatch(const Scenario &scenario, const RooflineMachine &machine)
{
    return decodeCrossoverBatch(scenario, machine, rooflineOptionsFor(scenario, StepPhase::Decode));
}

std::int64_t decodeCrossoverBatch(const Scenario &scenario, const RooflineMachine &machine, const RooflineOptions &formats)
{
    if (!validate(scenario).empty() || !machine.valid())
        return 0;
    constexpr std::int64_t kLimit = std::int64_t(1) << 24;
    if (!decodeWeightMatmulsComputeBound(scenario, machine, formats, kLimit))
        return 0;
    // The intensity of X[b×k]·W[k×n] grows with b (and so does that of the routed experts, whose
    // touched-expert count grows slower than b), so the predicate is monotone: bisect.
    std::int64_t low = 0, high = kLimit;  // low: memory-bound (or 0), high: compute-bound
    while (high - low > 1) {
        const std::int64_t middle = low + (high - low) / 2;
        if (decodeWeightMatmulsComputeBound(scenario, machine, formats, middle))
            high = middle;
        else
            low = middle;
    }
    return high;
}

Result<RooflineReport> rooflineReport(const Scenario &scenario, const RooflineOptions &options,
                                      const RooflineMachine &machine)
{
    if (Problems problems = validateInputs(scenario, options, machine); !problems.empty())
        return problems;
    const ModelConfig &model = scenario.model;
    const TrainingConfig &training = scenario.training;
    const StepShapes shapes = stepShapes(scenario, options, machine.sram_bytes_per_sm, machine.l2_bytes);
    const StepOperators step = stepOperators(scenario, shapes);

    RooflineReport report;
    report.machine = machine;
    report.options = options;
    report.batch = shapes.batch;
    report.context_tokens = shapes.context;
    report.tokens = step.tokens;
    report.ridge_point_flop_per_byte = machine.ridgePointFlopPerByte();
    report.flash_tile_rows = shapes.flash_tile_rows;
    report.flash_tile_columns = shapes.flash_tile_columns;
    report.parameters = double(countParameters(model).total);
    report.weight_bytes = report.parameters * shapes.weight_bytes;
    if (options.phase == StepPhase::Decode)
        // vLLM (Kwon et al. 2023) §3: K and V of every layer and KV head, per cached token.
        report.kv_cache_bytes = 2.0 * model.n_layers * double(model.kvDim()) * double(shapes.context)
            * double(shapes.batch) * shapes.kv_cache_bytes;

    appendForward(report.ops, scenario, step, options.fused_elementwise);
    if (options.phase == StepPhase::Train) {
        appendRecompute(report.ops, step, training.recomputation);
        appendBackward(report.ops, step);
        if (options.include_optimizer)
            report.ops.push_back(optimizerRow(scenario, report.parameters));
    }

    for (RooflineOp &op : report.ops) {
        placeOnRoofline(op, machine);
        report.total_flops += op.flops;
        report.total_bytes += op.bytes();
        report.step_seconds += op.seconds;
        (op.bound == Bound::Compute ? report.compute_bound_seconds : report.memory_bound_seconds) += op.seconds;
        if (op.pass == OpPass::Optimizer)
            report.optimizer_seconds += op.seconds;
        if (op.pass == OpPass::Forward || op.pass == OpPass::Backward)
            report.model_flops += op.matmul_flops;
    }
    for (RooflineOp &op : report.ops)
        op.share_of_step = report.step_seconds > 0 ? op.seconds / report.step_seconds : 0;
    const double peak = machine.peak_flops_per_second;
    // The MFU the engine's time uses (issue 17): the typed one, or predictStep's on a Given copy.
    report.mfu = training.mfu;
    if (training.mfu_source == MfuSource::Predicted) {
        Scenario given = scenario;
        given.training.mfu_source = MfuSource::Given;
        const Result<performance::StepPrediction> prediction = performance::predictStep(given);
        if (!prediction)
            return prediction.problems();
        report.mfu = prediction->mfu;
    }
    report.mfu_step_seconds = report.model_flops / (peak * report.mfu);
    report.implied_mfu = report.step_seconds > 0 ? report.model_flops / (report.step_seconds * peak) : 0;
    report.decode_crossover_batch = options.decode_crossover ? decodeCrossoverBatch(scenario, machine) : 0;

    for (const double value : {report.total_flops, report.total_bytes, report.step_seconds, report.mfu_step_seconds,
                               report.kv_cache_bytes})
        if (!finite(value))
            return Result<RooflineReport>::failure("result.roofline", "finite",
                                                   "the roofline of this step is not a finite number; check the inputs");
    return report;
}

}  // namespace lse
