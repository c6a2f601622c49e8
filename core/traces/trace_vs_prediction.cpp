// SPDX-License-Identifier: GPL-3.0-or-later
#include "traces/trace_vs_prediction.h"

#include "performance/kernel_time.h"
#include "performance/step_prediction.h"
#include "traces/op_shape_flops.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <map>
#include <tuple>
#include <unordered_map>

namespace lse::traces {

namespace {

bool contains(std::string_view text, std::string_view part)
{
    return text.find(part) != std::string_view::npos;
}

std::string lower(std::string_view text)
{
    std::string out(text);
    for (char &c : out)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool positive(const std::vector<std::int64_t> &dims)
{
    return std::all_of(dims.begin(), dims.end(), [](std::int64_t d) { return d > 0; });
}

// Linear interpolation between order statistics (the "type 7" quantile of R and NumPy).
double quantile(std::vector<double> sorted, double q)
{
    if (sorted.empty())
        return 0;
    std::sort(sorted.begin(), sorted.end());
    const double position = q * double(sorted.size() - 1);
    const auto below = std::size_t(std::floor(position));
    const std::size_t above = std::min(sorted.size() - 1, below + 1);
    return sorted[below] + (position - double(below)) * (sorted[above] - sorted[below]);
}

// The batch and the sides of a product as a key that does not change under transposition: a
// product and the two products of its backward pass (dA = dC·Bᵀ, dB = Aᵀ·dC) share it.
struct GemmKey {
    double batch = 1;
    std::array<double, 3> sides = {0, 0, 0};  // ascending
    bool operator==(const GemmKey &other) const { return batch == other.batch && sides == other.sides; }
};

GemmKey keyOf(const GemmCallShape &s)
{
    GemmKey key;
    key.batch = s.batch;
    key.sides = {s.m, s.n, s.k};
    std::sort(key.sides.begin(), key.sides.end());
    return key;
}

// A trace product that is a part of a predicted one: equal batch and two equal sides, the third a
// divisor of the predicted side (q, k, v run as three products against one fused QKV product; a
// tensor-parallel shard of a column- or row-parallel layer), or equal sides and a batch dividing
// the predicted batch (the attention core split by heads).
bool splitOf(const GemmKey &trace, const GemmKey &predicted)
{
    if (trace == predicted)
        return false;
    const auto divides = [](double part, double whole) {
        return part > 0 && whole >= part && std::fmod(whole, part) == 0;
    };
    if (trace.sides == predicted.sides)
        return divides(trace.batch, predicted.batch);
    if (trace.batch != predicted.batch)
        return false;
    for (int t = 0; t < 3; ++t)
        for (int p = 0; p < 3; ++p) {
            std::array<double, 2> rest_t{}, rest_p{};
            for (int i = 0, j = 0; i < 3; ++i)
                if (i != t)
                    rest_t[std::size_t(j++)] = trace.sides[std::size_t(i)];
            for (int i = 0, j = 0; i < 3; ++i)
                if (i != p)
                    rest_p[std::size_t(j++)] = predicted.sides[std::size_t(i)];
            if (rest_t == rest_p && divides(trace.sides[std::size_t(t)], predicted.sides[std::size_t(p)]))
                return true;
        }
    return false;
}

// The integers of an engine shape text, "[8192×2304]·[2304×864]" or "32×[2048×128]·[128×2048]"
// (performance/step_prediction.cpp's shapeText): false when it is not a product's shape.
bool parsePredictedGemm(std::string_view text, GemmCallShape &out)
{
    std::vector<double> numbers;
    double value = -1;
    for (char c : text) {
        if (c >= '0' && c <= '9') {
            value = (value < 0 ? 0 : value * 10) + (c - '0');
        } else if (value >= 0) {
            numbers.push_back(value);
            value = -1;
        }
    }
    if (value >= 0)
        numbers.push_back(value);
    if (!contains(text, "·"))
        return false;
    if (numbers.size() == 4 && numbers[1] == numbers[2]) {
        out = GemmCallShape{1, numbers[0], numbers[3], numbers[1]};
        return true;
    }
    if (numbers.size() == 5 && numbers[2] == numbers[3]) {
        out = GemmCallShape{numbers[0], numbers[1], numbers[4], numbers[2]};
        return true;
    }
    return false;
}

std::string dtypeName(DType dtype)
{
    return std::string(toString(dtype));
}

// Whether an operator sits under an "Optimizer.step#…" annotation (PyTorch's optimizer hook).
bool underOptimizerStep(const TraceRank &rank, std::int32_t op_index)
{
    for (int depth = 0; op_index >= 0 && op_index < std::int32_t(rank.cpu_ops.size()) && depth < 256; ++depth) {
        const TraceCpuOp &op = rank.cpu_ops[std::size_t(op_index)];
        if (std::string_view(rank.text(op.name)).rfind("Optimizer.step", 0) == 0)
            return true;
        op_index = op.parent;
    }
    return false;
}

}  // namespace

bool gemmShapeOfCall(std::string_view op_name, const std::vector<std::vector<std::int64_t>> &dims, GemmCallShape &out)
{
    const bool with_bias = op_name == "aten::addmm" || op_name == "aten::baddbmm";
    const bool batched = op_name == "aten::bmm" || op_name == "aten::baddbmm";
    if (!with_bias && !batched && op_name != "aten::mm")
        return false;
    const std::size_t first = with_bias ? 1 : 0;
    if (dims.size() < first + 2)
        return false;
    const std::vector<std::int64_t> &a = dims[first], &b = dims[first + 1];
    if (!positive(a) || !positive(b))
        return false;
    if (!batched && a.size() == 2 && b.size() == 2 && a[1] == b[0]) {
        out = GemmCallShape{1, double(a[0]), double(b[1]), double(a[1])};
        return true;
    }
    if (batched && a.size() == 3 && b.size() == 3 && a[0] == b[0] && a[2] == b[1]) {
        out = GemmCallShape{double(a[0]), double(a[1]), double(b[2]), double(a[2])};
        return true;
    }
    return false;
}

const Accelerator *acceleratorForDeviceName(std::string_view device_name, const HardwareCatalog &catalog)
{
    const std::string name = lower(device_name);
    const char *id = nullptr;
    if (contains(name, "h100")) {
        if (contains(name, "pcie"))
            id = "h100-pcie";
        else if (contains(name, "96gb") || contains(name, "hbm2e"))
            id = "h100-sxm-96gb-500w";
        else
            id = "h100-sxm";  // "NVIDIA H100 80GB HBM3" is the SXM5 part
    } else if (contains(name, "h200")) {
        id = "h200-sxm";
    } else if (contains(name, "a100")) {
        // "A100-PG509-200" is an SXM4 board with 40 GB (Meta's; its totalGlobalMem is 39.4 GiB).
        id = contains(name, "80gb") ? "a100-sxm-80gb" : "a100-sxm-40gb";
    } else if (contains(name, "b200")) {
        id = "b200";
    } else if (contains(name, "mi300x")) {
        id = "mi300x";
    } else if (contains(name, "l40s")) {
        id = "l40s";
    } else if (contains(name, "4090")) {
        id = "rtx-4090";
    }
    return id ? catalog.find(id) : nullptr;
}

std::optional<DType> gemmKernelDType(std::string_view kernel_name, std::string_view input_type)
{
    const std::string type = lower(input_type);
    if (contains(type, "bfloat16"))
        return DType::BF16;
    if (contains(type, "half"))
        return DType::FP16;
    if (contains(type, "float8"))
        return DType::FP8;
    if (type == "float") {
        const std::string kernel = lower(kernel_name);
        // TF32 tensor-core kernels: cuBLAS/xmma names say tf32; CUTLASS's SIMT-free fp32 kernels
        // are "tensorop_s1688gemm" (the m16n8k8 TF32 MMA, sm80).
        if (contains(kernel, "tf32") || contains(kernel, "s1688"))
            return DType::TF32;
        return DType::FP32;
    }
    return std::nullopt;
}

Result<GemmPredictionSummary> predictTraceGemms(const TraceRank &rank, const Accelerator &accelerator)
{
    if (!rank.hasGpu())
        return Result<GemmPredictionSummary>::failure(
            "trace", "gpu_kernels",
            rank.source + " has no GPU kernels: GEMM kernel times need a GPU trace (a CPU-only trace's "
                "operators are timed on the CPU).");
    struct Call {
        double seconds = 0;
        double longest_us = -1;
        TextId longest = kNoText;
    };
    std::map<std::int32_t, Call> calls;  // by operator, in trace order
    for (const TraceKernel &kernel : rank.kernels) {
        if (kernel.kernel_class != KernelClass::Gemm || kernel.op_index < 0)
            continue;
        Call &call = calls[kernel.op_index];
        call.seconds += kernel.duration_us * 1e-6;
        if (kernel.duration_us > call.longest_us) {
            call.longest_us = kernel.duration_us;
            call.longest = kernel.name;
        }
    }

    GemmPredictionSummary out;
    out.accelerator_id = accelerator.id;
    out.accelerator_name = accelerator.name;
    std::vector<double> ratios;
    std::map<std::tuple<std::string, std::string, std::string>, std::size_t> row_of;
    for (const auto &[op_index, call] : calls) {
        const TraceCpuOp &op = rank.cpu_ops[std::size_t(op_index)];
        const std::string &name = rank.text(op.name);
        GemmCallShape shape;
        if (!gemmShapeOfCall(name, op.input_dims, shape)) {
            if (isMatmulOperator(name) || isMatmulParentOperator(name))
                ++out.skipped_calls;
            continue;
        }
        const std::string &type = rank.text(op.dtype);
        const std::optional<DType> dtype = gemmKernelDType(rank.text(call.longest), type);
        const double peak = dtype ? accelerator.dense_peak.forDType(*dtype) : 0;
        if (!dtype || !(peak > 0)) {
            ++out.skipped_calls;
            continue;
        }
        const double element_bytes = std::max(1.0, dtypeBytes(type));
        const double bytes = element_bytes * shape.batch
            * (shape.m * shape.k + shape.k * shape.n + shape.m * shape.n);
        performance::KernelMachine machine = performance::kernelMachine(accelerator, peak, *dtype);
        performance::GemmShape gemm;
        gemm.batch = shape.batch;
        gemm.m = shape.m;
        gemm.n = shape.n;
        gemm.k = shape.k;
        const double predicted = performance::gemmTime(gemm, bytes, machine).seconds;

        ++out.calls;
        out.measured_seconds += call.seconds;
        out.predicted_seconds += predicted;
        if (predicted > 0)
            ratios.push_back(call.seconds / predicted);
        const auto key = std::make_tuple(name, rank.text(op.shape), dtypeName(*dtype));
        auto found = row_of.find(key);
        if (found == row_of.end()) {
            GemmComparisonRow row;
            row.op_name = name;
            row.shape = rank.text(op.shape);
            row.dtype = dtypeName(*dtype);
            row.kernel_name = rank.text(call.longest);
            row.gemm = shape;
            row.peak_flops_per_second = peak;
            found = row_of.emplace(key, out.rows.size()).first;
            out.rows.push_back(std::move(row));
        }
        GemmComparisonRow &row = out.rows[found->second];
        ++row.calls;
        row.flops += shape.flops();
        row.measured_seconds += call.seconds;
        row.predicted_seconds += predicted;
    }
    std::sort(out.rows.begin(), out.rows.end(),
              [](const GemmComparisonRow &a, const GemmComparisonRow &b) { return a.measured_seconds > b.measured_seconds; });
    if (!ratios.empty()) {
        out.median_ratio = quantile(ratios, 0.5);
        out.p10_ratio = quantile(ratios, 0.1);
        out.p90_ratio = quantile(ratios, 0.9);
        out.min_ratio = *std::min_element(ratios.begin(), ratios.end());
        out.max_ratio = *std::max_element(ratios.begin(), ratios.end());
    }
    return out;
}

std::string_view toString(ComparedPass pass)
{
    return pass == ComparedPass::ForwardOnly ? "forward" : "train";
}

ComparedPass detectComparedPass(const TraceRank &rank)
{
    for (const TraceCpuOp &op : rank.cpu_ops) {
        const std::string_view name = rank.text(op.name);
        if (contains(name, "Backward0") || contains(name, "Backward1") || name.rfind("autograd::engine", 0) == 0
            || name.rfind("Optimizer.step", 0) == 0)
            return ComparedPass::TrainingStep;
    }
    return ComparedPass::ForwardOnly;
}

namespace {

// One predicted operator, all its passes in the compared part of the step.
struct Predicted {
    OperatorComparison row;
    bool gemm = false;
    GemmKey key;
    double flops_capacity = 0;  // predicted FLOPs × steps: how much trace work it can absorb
    double flops_matched = 0;
};

bool passCompared(const std::string &pass, ComparedPass compared)
{
    if (compared == ComparedPass::ForwardOnly)
        return pass == "forward";
    return true;
}

}  // namespace

Result<TraceVsPrediction> compareWithPrediction(const TraceRank &rank, const TraceRankAnalysis &analysis,
                                                const Scenario &scenario, ComparedPass pass)
{
    using PredictedClass = performance::KernelClass;
    if (!rank.hasGpu())
        return Result<TraceVsPrediction>::failure(
            "trace", "gpu_kernels", rank.source + " has no GPU kernels: there is no measured step to compare.");
    const Result<performance::StepPrediction> predicted_step = performance::predictStep(scenario);
    if (!predicted_step)
        return predicted_step.problems();
    const performance::StepPrediction &prediction = *predicted_step;

    // The step windows on the GPU and their breakdown.
    struct Window {
        double begin_us = 0, end_us = 0;
    };
    std::vector<Window> windows;
    TraceTimeBreakdown sum;
    for (const TraceStepAnalysis &step : analysis.steps) {
        if (!(step.breakdown.window_seconds > 0))
            continue;
        windows.push_back({step.gpu_start_us, step.gpu_start_us + step.breakdown.window_seconds * 1e6});
        sum.window_seconds += step.breakdown.window_seconds;
        sum.compute_seconds += step.breakdown.compute_seconds;
        sum.communication_seconds += step.breakdown.communication_seconds;
        sum.memcpy_seconds += step.breakdown.memcpy_seconds;
        sum.idle_seconds += step.breakdown.idle_seconds;
        sum.idle_host_bound_seconds += step.breakdown.idle_host_bound_seconds;
        sum.idle_waiting_seconds += step.breakdown.idle_waiting_seconds;
    }
    if (windows.empty())
        return Result<TraceVsPrediction>::failure("trace", "steps",
                                                  rank.source + " has no step with GPU activity to compare.");
    const double steps = double(windows.size());
    const auto inWindow = [&](const TraceKernel &kernel) {
        const double tolerance_us = 1e-3;
        for (const Window &w : windows)
            if (kernel.start_us >= w.begin_us - tolerance_us && kernel.start_us <= w.end_us + tolerance_us)
                return true;
        return false;
    };

    // The prediction's operators, grouped: GEMMs by name, FlashAttention, memory-bound, optimizer.
    TraceVsPrediction out;
    out.accelerator_id = scenario.cluster.accelerator.id;
    out.pass = pass;
    out.steps = int(windows.size());
    out.peak_flops_per_second = prediction.peak_flops_per_gpu;
    std::vector<Predicted> predicted;
    std::map<std::string, std::size_t> predicted_index;
    double predicted_classes[4] = {0, 0, 0, 0};  // by performance::KernelClass
    double predicted_compute_seconds = 0;
    for (const performance::OperatorTime &row : prediction.operators) {
        if (!passCompared(row.pass, pass))
            continue;
        predicted_classes[int(row.kernel_class)] += row.seconds;
        predicted_compute_seconds += row.seconds;
        GemmCallShape shape;
        const bool product = (row.kernel_class == PredictedClass::Gemm || row.kernel_class == PredictedClass::Attention)
            && parsePredictedGemm(row.shape, shape);
        std::string name = row.name, cls;
        if (row.kernel_class == PredictedClass::Optimizer) {
            cls = "optimizer";
        } else if (row.kernel_class == PredictedClass::MemoryBound) {
            name = "memory_bound";
            cls = "memory_bound";
        } else if (product) {
            cls = "gemm";
        } else {
            cls = "attention";
        }
        auto found = predicted_index.find(name);
        if (found == predicted_index.end()) {
            Predicted p;
            p.row.name = name;
            p.row.kernel_class = cls;
            p.gemm = product;
            if (product) {
                p.key = keyOf(shape);
                p.row.shape = row.shape;  // the first row of an operator is its forward product
            }
            found = predicted_index.emplace(name, predicted.size()).first;
            predicted.push_back(std::move(p));
        }
        Predicted &p = predicted[found->second];
        p.row.predicted_count += row.count;
        p.row.predicted_seconds += row.seconds;
        p.row.predicted_flops += row.flops;
        if (p.gemm)
            out.predicted_matmul_flops += row.flops;
    }
    for (Predicted &p : predicted)
        p.flops_capacity = p.row.predicted_flops * steps;
    const auto find = [&](const char *name) -> Predicted * {
        const auto it = predicted_index.find(name);
        return it == predicted_index.end() ? nullptr : &predicted[it->second];
    };
    Predicted *const flash = find("flash_attention");
    Predicted *const memory_bound = find("memory_bound");
    Predicted *const optimizer = find("optimizer_step");

    // The trace's compute kernels in the windows, GEMMs gathered per operator call.
    std::vector<OperatorComparison> trace_only;
    std::map<std::string, std::size_t> trace_only_index;
    const auto traceOnly = [&](const std::string &name, const std::string &cls, const std::string &shape)
        -> OperatorComparison & {
        auto it = trace_only_index.find(name);
        if (it == trace_only_index.end()) {
            OperatorComparison row;
            row.name = name;
            row.kernel_class = cls;
            row.shape = shape;
            it = trace_only_index.emplace(name, trace_only.size()).first;
            trace_only.push_back(std::move(row));
        }
        return trace_only[it->second];
    };
    struct GemmCall {
        double seconds = 0;
        double kernels = 0;
    };
    std::map<std::int32_t, GemmCall> gemm_calls;
    double measured_classes[5] = {0, 0, 0, 0, 0};  // gemm, attention, memory_bound, optimizer, other
    double earlier_seconds = 0;
    const bool records_launches = rank.counts.runtime_calls > 0;
    for (const TraceKernel &kernel : rank.kernels) {
        if (!isComputeClass(kernel.kernel_class) || !inWindow(kernel))
            continue;
        const double seconds = kernel.duration_us * 1e-6;
        if (records_launches && kernel.launch_start_us < 0) {
            earlier_seconds += seconds;
            continue;
        }
        switch (kernel.kernel_class) {
        case KernelClass::Gemm: {
            measured_classes[0] += seconds;
            GemmCallShape shape;
            if (kernel.op_index >= 0
                && gemmShapeOfCall(rank.text(rank.cpu_ops[std::size_t(kernel.op_index)].name),
                                   rank.cpu_ops[std::size_t(kernel.op_index)].input_dims, shape)) {
                gemm_calls[kernel.op_index].seconds += seconds;
                gemm_calls[kernel.op_index].kernels += 1;
            } else {
                OperatorComparison &row = traceOnly("gemm kernels without a recorded shape", "gemm", "");
                row.measured_seconds += seconds;
                row.measured_count += 1;
            }
            break;
        }
        case KernelClass::Attention: {
            measured_classes[1] += seconds;
            OperatorComparison &row = flash ? flash->row : traceOnly("attention", "attention", "");
            row.measured_seconds += seconds;
            row.measured_count += 1;
            break;
        }
        case KernelClass::Norm:
        case KernelClass::Reduction:
        case KernelClass::Elementwise: {
            const bool in_optimizer = underOptimizerStep(rank, kernel.op_index);
            measured_classes[in_optimizer ? 3 : 2] += seconds;
            OperatorComparison *row = nullptr;
            if (in_optimizer && optimizer)
                row = &optimizer->row;
            else if (memory_bound)
                row = &memory_bound->row;
            else
                row = &traceOnly(in_optimizer ? "optimizer kernels" : "memory-bound kernels",
                                 in_optimizer ? "optimizer" : "memory_bound", "");
            row->measured_seconds += seconds;
            row->measured_count += 1;
            break;
        }
        default: {
            measured_classes[4] += seconds;
            const std::string cls(kernelClassName(kernel.kernel_class));
            OperatorComparison &row = traceOnly(cls, cls, "");
            row.measured_seconds += seconds;
            row.measured_count += 1;
            break;
        }
        }
    }

    // GEMM calls to predicted products: an exact shape with room left first, then a split with room
    // left, then (more calls than predicted: the trace runs the product more often) the exact
    // shape or the split anyway; else the trace has a product the model does not.
    for (const auto &[op_index, call] : gemm_calls) {
        const TraceCpuOp &op = rank.cpu_ops[std::size_t(op_index)];
        GemmCallShape shape;
        gemmShapeOfCall(rank.text(op.name), op.input_dims, shape);
        const GemmKey key = keyOf(shape);
        const double flops = shape.flops();
        out.measured_matmul_flops += flops;
        Predicted *chosen = nullptr;
        bool split = false;
        for (int round = 0; round < 4 && !chosen; ++round) {
            const bool want_split = round % 2 == 1, need_room = round < 2;
            for (Predicted &p : predicted) {
                if (!p.gemm || (want_split ? !splitOf(key, p.key) : !(key == p.key)))
                    continue;
                if (need_room && p.flops_matched + flops > p.flops_capacity * (1 + 1e-9))
                    continue;
                chosen = &p;
                split = want_split;
                break;
            }
        }
        if (chosen) {
            chosen->flops_matched += flops;
            chosen->row.split = chosen->row.split || split;
            chosen->row.measured_seconds += call.seconds;
            chosen->row.measured_count += call.kernels;
            chosen->row.measured_flops += flops;
        } else {
            const std::string &name = rank.text(op.name);
            const std::string &dims = rank.text(op.shape);
            OperatorComparison &row = traceOnly(name + " " + dims, "gemm", dims);
            row.measured_seconds += call.seconds;
            row.measured_count += call.kernels;
            row.measured_flops += flops;
        }
    }

    // Per step.
    const auto perStep = [&](OperatorComparison &row) {
        row.measured_seconds /= steps;
        row.measured_count /= steps;
        row.measured_flops /= steps;
    };
    MissingTime &missing = out.missing_time;
    for (Predicted &p : predicted) {
        perStep(p.row);
        if (p.row.measured_seconds > 0) {
            missing.predicted_kernel_seconds += p.row.predicted_seconds;
            missing.slower_kernel_seconds += p.row.measured_seconds - p.row.predicted_seconds;
            out.operators.push_back(p.row);
        } else {
            missing.predicted_missing_in_trace_seconds += p.row.predicted_seconds;
            out.missing_in_trace.push_back(p.row);
        }
    }
    for (OperatorComparison &row : trace_only) {
        perStep(row);
        missing.unpredicted_kernel_seconds += row.measured_seconds;
        out.operators.push_back(row);
    }
    std::sort(out.operators.begin(), out.operators.end(), [](const OperatorComparison &a, const OperatorComparison &b) {
        return a.measured_seconds > b.measured_seconds;
    });
    std::sort(out.missing_in_trace.begin(), out.missing_in_trace.end(),
              [](const OperatorComparison &a, const OperatorComparison &b) {
                  return a.predicted_seconds > b.predicted_seconds;
              });
    out.measured_matmul_flops /= steps;

    missing.earlier_kernel_seconds = earlier_seconds / steps;
    missing.measured_step_seconds = sum.window_seconds / steps;
    missing.exposed_communication_seconds = sum.communication_seconds / steps;
    missing.memcpy_seconds = sum.memcpy_seconds / steps;
    missing.idle_host_bound_seconds = sum.idle_host_bound_seconds / steps;
    missing.idle_waiting_seconds = sum.idle_seconds / steps - missing.idle_host_bound_seconds;
    // The compute union is the sum of the compute kernels' durations less the time two of them ran
    // at once; what is left of the window after every other part is that (negative) overlap.
    missing.concurrent_kernel_seconds = missing.measured_step_seconds
        - (missing.predicted_kernel_seconds + missing.slower_kernel_seconds + missing.unpredicted_kernel_seconds
           + missing.earlier_kernel_seconds + missing.exposed_communication_seconds + missing.memcpy_seconds + missing.idle_host_bound_seconds
           + missing.idle_waiting_seconds);

    const bool training = pass == ComparedPass::TrainingStep;
    out.measured_step_seconds = missing.measured_step_seconds;
    out.predicted_step_seconds = training ? prediction.total_seconds : predicted_compute_seconds;
    missing.predicted_step_seconds = out.predicted_step_seconds;
    const double peak = out.peak_flops_per_second;
    if (peak > 0 && out.measured_step_seconds > 0)
        out.measured_mfu = out.measured_matmul_flops / (out.measured_step_seconds * peak);
    if (peak > 0 && out.predicted_step_seconds > 0)
        out.predicted_mfu = out.predicted_matmul_flops / (out.predicted_step_seconds * peak);
    out.engine_mfu = training ? prediction.mfu : 0;

    const double predicted_idle = training ? prediction.bubble_seconds + prediction.straggler_seconds : 0;
    out.classes = {
        {"gemm", measured_classes[0] / steps, predicted_classes[int(PredictedClass::Gemm)]},
        {"attention", measured_classes[1] / steps, predicted_classes[int(PredictedClass::Attention)]},
        {"memory_bound", measured_classes[2] / steps, predicted_classes[int(PredictedClass::MemoryBound)]},
        {"optimizer", measured_classes[3] / steps, training ? prediction.optimizer_seconds : 0},
        {"other", measured_classes[4] / steps, 0},
        {"earlier", missing.earlier_kernel_seconds, 0},
        {"communication", missing.exposed_communication_seconds, training ? prediction.exposed_communication_seconds : 0},
        {"memcpy", missing.memcpy_seconds, 0},
        {"idle", sum.idle_seconds / steps, predicted_idle},
    };
    return out;
}

}  // namespace lse::traces
