// SPDX-License-Identifier: GPL-3.0-or-later
#include "architecture/norm_timing.h"

#include "cost/estimate_parts.h"
#include "ops/operator_list.h"
#include "reference/ops/norms.h"
#include "roofline/roofline_machine.h"
#include "roofline/step_operators.h"

#include <algorithm>
#include <chrono>
#include <random>
#include <string>

namespace lse {

namespace {

constexpr float kEps = 1e-5f;

// The smallest model the operator list needs to declare one norm of width `width`.
Scenario normScenario(NormType norm, std::int64_t width)
{
    Scenario scenario;
    ModelConfig &model = scenario.model;
    model.n_layers = 1;
    model.d_model = width;
    model.n_heads = 1;
    model.n_kv_heads = 1;
    model.head_dim = int(width);
    model.d_ff = width;
    model.vocab_size = 1;
    model.max_seq_len = 1;
    model.norm = norm;
    return scenario;
}

double median(std::vector<double> values)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

struct NormBuffers {
    std::vector<float> x, y, dy, dx, gain, bias, dgain, dbias, stats;
    NormBuffers(std::int64_t rows, std::int64_t width)
    {
        const std::size_t elements = std::size_t(rows * width);
        std::mt19937 generator(15);
        std::normal_distribution<float> normal(0.0f, 1.0f);
        x.resize(elements);
        dy.resize(elements);
        for (std::size_t i = 0; i < elements; ++i) {
            x[i] = normal(generator);
            dy[i] = normal(generator);
        }
        y.assign(elements, 0.0f);
        dx.assign(elements, 0.0f);
        gain.assign(std::size_t(width), 1.0f);
        bias.assign(std::size_t(width), 0.0f);
        dgain.assign(std::size_t(width), 0.0f);
        dbias.assign(std::size_t(width), 0.0f);
        stats.assign(std::size_t(rows) * 2, 0.0f);  // LayerNorm keeps mean and 1/σ per row
    }
};

void runKernel(NormType norm, bool backward, NormBuffers &b, std::int64_t n, std::int64_t d)
{
    using namespace reference;
    if (norm == NormType::LayerNorm) {
        if (backward)
            layerNormBackward(b.x.data(), b.gain.data(), b.stats.data(), b.dy.data(), b.dx.data(), b.dgain.data(),
                              b.dbias.data(), n, d);
        else
            layerNormForward(b.x.data(), b.gain.data(), b.bias.data(), b.y.data(), b.stats.data(), n, d, kEps);
    } else {
        if (backward)
            rmsNormBackward(b.x.data(), b.gain.data(), b.stats.data(), b.dy.data(), b.dx.data(), b.dgain.data(), n, d);
        else
            rmsNormForward(b.x.data(), b.gain.data(), b.y.data(), b.stats.data(), n, d, kEps);
    }
}

}  // namespace

NormTimingRequest normTimingRequestFor(const Scenario &scenario)
{
    NormTimingRequest request;
    request.width = std::max<std::int64_t>(1, scenario.model.d_model);
    request.rows = std::max<std::int64_t>(1, scenario.training.micro_batch * scenario.training.seq_len);
    const std::int64_t max_rows = std::max<std::int64_t>(1, kMaxNormTimingElements / request.width);
    if (request.rows > max_rows) {
        request.rows = max_rows;
        request.capped = true;
    }
    return request;
}

NormKernelTiming normCost(NormType norm, bool backward, std::int64_t rows, std::int64_t width)
{
    roofline_detail::StepShapes shapes;
    shapes.phase = StepPhase::Train;
    shapes.batch = 1;
    shapes.seq_len = rows;
    shapes.activation_bytes = shapes.gradient_bytes = 4;  // the reference runs fp32
    shapes.weight_bytes = 4;
    const roofline_detail::StepOperators step = roofline_detail::stepOperators(normScenario(norm, width), shapes);
    NormKernelTiming cost;
    cost.norm = norm;
    cost.backward = backward;
    for (const roofline_detail::StepOp &op : step.dense_layer) {
        if (op.op.kind != OpKind::Norm)
            continue;
        cost.flops = backward ? op.op.backward_flops : op.op.flops;
        cost.bytes = backward ? op.backward_bytes_read + op.backward_bytes_written
                              : op.op.bytes_read + op.op.bytes_written;
        break;  // every norm of a layer has the same shape
    }
    return cost;
}

Result<NormTiming> timeNorms(const NormTimingRequest &request, const std::atomic<bool> &cancel,
                             const std::function<void(int done, int total)> &progress)
{
    if (request.rows < 1)
        return Result<NormTiming>::failure("rows", "at least 1", "rows must be at least 1");
    if (request.width < 1)
        return Result<NormTiming>::failure("width", "at least 1", "width must be at least 1");
    if (request.repetitions < 1)
        return Result<NormTiming>::failure("repetitions", "at least 1", "repetitions must be at least 1");
    if (request.rows > kMaxNormTimingElements / request.width)
        return Result<NormTiming>::failure("rows", "rows·width ≤ 2^22",
                                           "rows · width must not exceed " + std::to_string(kMaxNormTimingElements)
                                               + " elements");
    NormTiming timing;
    timing.request = request;
    NormBuffers buffers(request.rows, request.width);
    const NormType norms[] = {NormType::LayerNorm, NormType::RMSNorm};
    const int total = 4 * request.repetitions;
    int done = 0;
    for (NormType norm : norms) {
        for (bool backward : {false, true}) {
            NormKernelTiming kernel = normCost(norm, backward, request.rows, request.width);
            // The backward pass reads the statistics its own forward pass wrote.
            runKernel(norm, false, buffers, request.rows, request.width);
            runKernel(norm, backward, buffers, request.rows, request.width);  // warm-up
            for (int r = 0; r < request.repetitions; ++r) {
                if (cancel.load()) {
                    timing.cancelled = true;
                    return timing;
                }
                const auto start = std::chrono::steady_clock::now();
                runKernel(norm, backward, buffers, request.rows, request.width);
                const auto stop = std::chrono::steady_clock::now();
                kernel.seconds.push_back(std::chrono::duration<double>(stop - start).count());
                if (progress)
                    progress(++done, total);
            }
            kernel.median_seconds = median(kernel.seconds);
            timing.kernels.push_back(std::move(kernel));
        }
    }
    return timing;
}

Result<NormShare> normShareOfLayer(const Scenario &scenario)
{
    if (Problems problems = validate(scenario); !problems.empty())
        return problems;
    const ForwardOperators forward =
        forwardOperators(scenario.model, detail::operatorShapes(scenario, detail::stepShape(scenario), true));
    const RooflineMachine machine = rooflineMachine(scenario);
    double flops = 0, bytes = 0, seconds = 0, norm_flops = 0, norm_bytes = 0, norm_seconds = 0;
    // One layer: a dense one, or an MoE layer when every layer is one (Mixtral).
    const std::vector<Operator> &layer = forward.dense_layers.ops.empty() ? forward.moe_layers.ops : forward.dense_layers.ops;
    for (const Operator &op : layer) {
        const double op_bytes = op.bytes_read + op.bytes_written;
        // The roofline bound of one kernel (Williams et al. 2009).
        const double op_seconds = machine.valid()
            ? std::max(op.flops / machine.peak_flops_per_second, op_bytes / machine.memory_bandwidth_bytes_per_second)
            : 0;
        flops += op.flops;
        bytes += op_bytes;
        seconds += op_seconds;
        if (op.kind == OpKind::Norm) {
            norm_flops += op.flops;
            norm_bytes += op_bytes;
            norm_seconds += op_seconds;
        }
    }
    NormShare share;
    share.flop_share = flops > 0 ? norm_flops / flops : 0;
    share.byte_share = bytes > 0 ? norm_bytes / bytes : 0;
    share.roofline_time_share = seconds > 0 ? norm_seconds / seconds : 0;
    share.accelerator = machine.name;
    return share;
}

}  // namespace lse
