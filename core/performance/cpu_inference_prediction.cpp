// SPDX-License-Identifier: GPL-3.0-or-later
#include "performance/cpu_inference_prediction.h"

#include "cost/parameters.h"
#include "performance/cpu_kernel_time.h"
#include "roofline/step_operators.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

namespace lse::performance {

namespace {

using roofline_detail::OpGroup;
using roofline_detail::StepOp;
using roofline_detail::StepOperators;

constexpr double kFloatBytes = 4;  // the reference computes and stores everything in float32

std::string productShape(const GemmShape &s)
{
    std::string text;
    if (s.batch > 1)
        text = std::to_string(std::int64_t(s.batch)) + "×";
    return text + "[" + std::to_string(std::int64_t(s.m)) + "×" + std::to_string(std::int64_t(s.k)) + "]·["
        + std::to_string(std::int64_t(s.k)) + "×" + std::to_string(std::int64_t(s.n)) + "]";
}

// The operators of one pass on this CPU, in execution order (layer operators once, `count` = the
// layers), with their summed times.
class PassTimer {
public:
    // `tiled_attention`: the pass's attention runs the tiled kernel (see group()).
    PassTimer(const CpuKernelFactors &cpu, const char *pass, double working_set_bytes, bool tiled_attention = false)
        : cpu_(cpu), pass_(pass), working_set_bytes_(working_set_bytes), tiled_attention_(tiled_attention)
    {
    }

    void time(const StepOperators &step, const ModelConfig &model, bool sample = true)
    {
        const double layers = step.dense_layer_count + step.moe_layer_count;
        group(step.embedding, 1, step, model);
        group(step.dense_layer, step.dense_layer_count, step, model);
        group(step.moe_layer, step.moe_layer_count, step, model);
        // The reference copies each layer's new K and V rows into the cache (read and written).
        const double kv_bytes = 2.0 * double(model.kvDim()) * double(step.tokens) * kFloatBytes;
        add("kv_cache_write", KernelClass::MemoryBound, std::to_string(step.tokens) + " tokens' K and V", layers, 0,
            2 * kv_bytes, cpuStreamingTime(0, 2 * kv_bytes, cpu_, 1, "kv_cache_write"));
        group(step.head, 1, step, model);
        if (!sample)
            return;
        // Greedy sampling: one pass over each sequence's logits (the first maximum).
        const double batch = double(step.shapes.batch), vocab = double(model.vocab_size);
        const double logit_bytes = kFloatBytes * batch * vocab;
        add("sampling", KernelClass::MemoryBound,
            std::to_string(step.shapes.batch) + "×" + std::to_string(model.vocab_size) + " logits", 1, batch * vocab,
            logit_bytes, cpuStreamingTime(batch * vocab, logit_bytes, cpu_, batch, "sampling"));
    }

    double seconds() const { return seconds_; }
    std::vector<OperatorTime> &operators() { return operators_; }

private:
    void group(const std::vector<StepOp> &ops, double count, const StepOperators &step, const ModelConfig &model)
    {
        if (count <= 0)
            return;
        double attention_flops = 0, attention_bytes = 0;
        for (const StepOp &s : ops) {
            const Operator &op = s.op;
            if (step.shapes.phase == StepPhase::Decode && s.attention_core) {
                attention_flops += op.flops;  // the reference runs the three in one kernel, below
                attention_bytes += op.bytes_read + op.bytes_written;
                continue;
            }
            // The tiled kernel runs QKᵀ, the softmax and P·V as one operator, timed under the
            // engine's "flash_attention" (reference/model.cpp): one row for the three, at the
            // kernel's own measured rate, started where the scores product is listed. Without that
            // table (an older cache), the naive kernel's three operators on their measured rates,
            // under that one name: an upper bound, since the tiled kernel skips the masked blocks
            // (cs336 shape, 800 tokens, 2 threads: 0.050 s measured, 0.072 s predicted so; at the
            // kernel's own rate, 0.035 s measured against 0.032 s predicted).
            const bool core = s.name == "attention_scores" || s.name == "softmax" || s.name == "attention_values";
            const std::string name = tiled_attention_ && core ? std::string("flash_attention") : s.name;
            // Q·Kᵀ is (T × Dh)·(Dh × T), P·V (T × T)·(T × Dh): the head dim is k, then n.
            const double tiled_rate = tiled_attention_ && core && op.isMatMul()
                ? cpuTiledAttentionFlopsPerSecond(cpu_, double(op.m), double(s.name == "attention_scores" ? op.k : op.n))
                : 0;
            if (tiled_attention_ && core && !op.isMatMul() && !cpu_.attention_tiled_forward_flops_per_second.empty()) {
                // The softmax is inside the tiled kernel's time: its FLOPs and bytes only.
                add(name, KernelClass::Attention, s.shape, count, op.flops, op.bytes_read + op.bytes_written, KernelTime{});
                continue;
            }
            if (tiled_rate > 0) {
                // Q·Kᵀ (T, T, Dh) and P·V (T, Dh, T) of every pair: ⌈pairs / threads⌉ rounds of one
                // pair's two products at the kernel's rate; P·V's own row adds its FLOPs only.
                const double pairs = double(op.batch), threads = double(std::max(1, cpu_.threads));
                const double pair_flops = 2.0 * double(op.m) * double(op.n) * double(op.k);
                KernelTime time;
                if (s.name == "attention_scores")
                    time.seconds = std::ceil(pairs / threads) * 2.0 * pair_flops / tiled_rate + cpu_.call_overhead_seconds
                        + (threads > 1 ? cpu_.barrier_seconds : 0.0);
                add(name, KernelClass::Attention, s.shape, count, op.flops, op.bytes_read + op.bytes_written, time);
                continue;
            }
            if (op.isMatMul()) {
                GemmShape shape{double(op.batch), double(op.m), double(op.n), double(op.k)};
                shape.product = s.name == "attention_scores"   ? BatchedProduct::AttentionScores
                                : s.name == "attention_values" ? BatchedProduct::AttentionValues
                                                               : BatchedProduct::None;
                add(name, s.attention_core ? KernelClass::Attention : KernelClass::Gemm, productShape(shape), count,
                    shape.flops(), op.bytes_read + op.bytes_written, cpuGemmTime(shape, cpu_, working_set_bytes_));
            } else {
                const double bytes = op.bytes_read + op.bytes_written;
                add(name, name == s.name ? KernelClass::MemoryBound : KernelClass::Attention, s.shape, count, op.flops, bytes,
                    cpuStreamingTime(op.flops, bytes, cpu_, 1, s.name, double(step.shapes.batch * step.shapes.seq_len)));
            }
        }
        if (attention_flops > 0) {
            const double keys = double(step.shapes.context), heads = double(model.n_heads);
            add("decode_attention", KernelClass::Attention,
                std::to_string(step.shapes.batch * model.n_heads) + "×[1×" + std::to_string(model.head_dim) + "]·KV["
                    + std::to_string(step.shapes.context) + "]",
                count, attention_flops, attention_bytes,
                cpuDecodeAttentionTime(attention_flops, double(step.shapes.batch), heads, double(model.n_kv_heads), keys,
                                       double(model.head_dim), cpu_));
        }
    }

    void add(const std::string &name, KernelClass kernel_class, const std::string &shape, double count, double flops,
             double bytes, const KernelTime &time)
    {
        OperatorTime row;
        row.name = name;
        row.pass = pass_;
        row.kernel_class = kernel_class;
        row.shape = shape;
        row.count = count;
        row.flops = flops * count;
        row.bytes = bytes * count;
        row.seconds = time.seconds * count;
        row.efficiency = time.efficiency;
        seconds_ += row.seconds;
        // The tiled kernel's three operators are one row, as the profiler times them.
        for (OperatorTime &same : operators_)
            if (same.name == row.name) {
                same.flops += row.flops;
                same.bytes += row.bytes;
                same.seconds += row.seconds;
                return;
            }
        operators_.push_back(std::move(row));
    }

    const CpuKernelFactors &cpu_;
    const char *pass_;
    double working_set_bytes_;
    bool tiled_attention_;
    double seconds_ = 0;
    std::vector<OperatorTime> operators_;
};

RooflineOptions phaseOptions(StepPhase phase, std::int64_t batch, std::int64_t context)
{
    RooflineOptions options;
    options.phase = phase;
    options.batch = batch;
    options.context_tokens = context;
    options.flash_attention = false;  // the naive kernel's operators (the tiled one: PassTimer)
    options.fused_elementwise = false;
    options.include_optimizer = false;
    options.weight_bytes_per_element = kFloatBytes;
    options.activation_bytes_per_element = int(kFloatBytes);
    options.kv_cache_bytes_per_element = int(kFloatBytes);
    options.decode_crossover = false;
    return options;
}

}  // namespace

Result<CpuInferencePrediction> predictCpuInference(const CpuInferenceInputs &inputs, const CpuKernelFactors &cpu)
{
    Problems problems = validateCpuKernelFactors(cpu);
    const auto range = [&](const char *field, std::int64_t value, std::int64_t low, std::int64_t high) {
        if (value < low || value > high)
            problems.push_back({std::string("inference.") + field, "range",
                                std::string("inference.") + field + " must be from " + std::to_string(low) + " to "
                                    + std::to_string(high) + ", got " + std::to_string(value)});
    };
    range("batch", inputs.batch, 1, 1 << 20);
    range("prompt_tokens", inputs.prompt_tokens, 1, 1 << 24);
    range("output_tokens", inputs.output_tokens, 0, 1 << 24);
    if (!problems.empty())
        return problems;
    Scenario scenario = inputs.scenario;
    TrainingConfig &training = scenario.training;
    training.seq_len = inputs.prompt_tokens;
    training.micro_batch = inputs.batch;
    training.global_batch = inputs.batch;
    training.tokens = inputs.batch * inputs.prompt_tokens;
    training.flash_attention = false;
    training.dropout = false;
    training.recomputation = Recomputation::None;
    if (Problems invalid = validate(scenario); !invalid.empty())
        return invalid;
    const ModelConfig &model = scenario.model;

    CpuInferencePrediction out;
    out.threads = cpu.threads;
    out.batch = inputs.batch;
    out.prompt_tokens = inputs.prompt_tokens;
    out.output_tokens = inputs.output_tokens;
    // A step reads every weight once: by the time a matrix is read again the others have gone
    // through the caches, so each comes from a working set of all of them (and the KV cache).
    const double weight_bytes = kFloatBytes * double(countParameters(model).total);
    const double kv_bytes_per_token = 2.0 * model.n_layers * double(model.kvDim()) * kFloatBytes;

    const RooflineOptions prefill_options = phaseOptions(StepPhase::Prefill, inputs.batch, 0);
    PassTimer prefill(cpu, "prefill", weight_bytes, inputs.tiled_prefill_attention);
    prefill.time(roofline_detail::stepOperators(scenario, roofline_detail::stepShapes(scenario, prefill_options, 0, 0)), model,
                 inputs.output_tokens > 0);
    out.prefill_seconds = prefill.seconds();
    out.prefill_operators = std::move(prefill.operators());

    out.decode_steps = std::max<std::int64_t>(0, inputs.output_tokens - 1);
    std::map<std::string, std::size_t> row_of;
    for (std::int64_t j = 1; j <= out.decode_steps; ++j) {
        const std::int64_t keys = inputs.prompt_tokens + j;
        const double working_set = weight_bytes + kv_bytes_per_token * double(keys) * double(inputs.batch);
        PassTimer step(cpu, "decode", working_set);
        step.time(roofline_detail::stepOperators(
                      scenario, roofline_detail::stepShapes(scenario, phaseOptions(StepPhase::Decode, inputs.batch, keys), 0, 0)),
                  model);
        out.decode_seconds += step.seconds();
        if (j == 1)
            out.first_step_seconds = step.seconds();
        if (j == out.decode_steps)
            out.last_step_seconds = step.seconds();
        for (OperatorTime &row : step.operators()) {
            const auto [it, added] = row_of.emplace(row.name, out.decode_operators.size());
            if (added) {
                out.decode_operators.push_back(row);
                continue;
            }
            OperatorTime &sum = out.decode_operators[it->second];
            sum.count += row.count;
            sum.flops += row.flops;
            sum.bytes += row.bytes;
            sum.seconds += row.seconds;
            sum.shape = row.shape;  // the last step's
            sum.efficiency = row.efficiency;
        }
    }
    if (out.decode_seconds > 0)
        out.decode_tokens_per_second = double(inputs.batch * out.decode_steps) / out.decode_seconds;
    return out;
}

}  // namespace lse::performance
