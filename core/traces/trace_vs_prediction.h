// SPDX-License-Identifier: GPL-3.0-or-later
// A trace's measured kernels beside the engine's prediction: the "why only 30 %" view.
//
// Two comparisons:
//  * Per GEMM call, without a scenario (predictTraceGemms): every matrix-multiply operator call of
//    the trace with recorded shapes (aten::mm/addmm/bmm/baddbmm) gets the engine's kernel time for
//    its (batch, m, n, k) and dtype on an accelerator of the catalog (performance::gemmTime: tile
//    and wave quantisation, the depth factor, gemm_peak_fraction), beside the summed duration of
//    the GEMM kernels it launched. The peak is the dtype's dense peak: bf16/fp16 inputs the
//    bf16/fp16 peak; fp32 inputs the TF32 peak when the kernel is a TF32 tensor-core kernel (its
//    name says "tf32", or CUTLASS's "s1688" m16n8k8 TF32 MMA), else the FP32 (CUDA-core) peak —
//    PyTorch runs fp32 matmuls without TF32 unless torch.backends.cuda.matmul.allow_tf32 is set.
//  * Against a scenario's predicted step (compareWithPrediction): the trace's kernels inside its
//    ProfilerStep windows, averaged per step, matched to performance::predictStep's operators —
//    GEMMs by shape (batch and {m, n, k} up to transposition, so a product and its two backward
//    products match the same operator; a trace product whose one differing side divides the
//    predicted one matches it as a split, e.g. q, k and v run separately against the engine's fused
//    QKV product, or a tensor-parallel shard), attention kernels to the FlashAttention operator,
//    norm/reduction/element-wise kernels to the memory-bound operators, kernels under an
//    Optimizer.step annotation to the optimizer step; and where the measured step's time went,
//    in parts that add up to it exactly (MissingTime).
#pragma once

#include "common/problem.h"
#include "hardware/accelerator.h"
#include "hardware/hardware_catalog.h"
#include "scenario/scenario.h"
#include "traces/trace_analysis.h"
#include "traces/trace_model.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lse::traces {

// batch products (m × k)·(k × n).
struct GemmCallShape {
    double batch = 1;
    double m = 0;
    double n = 0;
    double k = 0;
    double flops() const { return 2.0 * batch * m * n * k; }
};

// The product an aten::mm / addmm / bmm / baddbmm call computes, from its recorded "Input Dims"
// (mm [[m,k],[k,n]]; addmm [[bias],[m,k],[k,n],…]; bmm [[b,m,k],[b,k,n]]; baddbmm
// [[bias],[b,m,k],[b,k,n],…]). False when the operator is none of these or the dims do not fit.
bool gemmShapeOfCall(std::string_view op_name, const std::vector<std::vector<std::int64_t>> &dims, GemmCallShape &out);

// The catalog accelerator a trace's deviceProperties name denotes ("NVIDIA A100-SXM4-80GB",
// "NVIDIA A100-PG509-200", "NVIDIA H100 80GB HBM3", "NVIDIA H100 PCIe", "AMD Instinct MI300X", …);
// nullptr when the catalog has no such part (V100, T4, …: pick one with --gpu).
const Accelerator *acceleratorForDeviceName(std::string_view device_name, const HardwareCatalog &catalog);

// The dtype whose dense peak a GEMM kernel runs at (see the file comment); nullopt when the input
// type is unknown or not a floating-point type.
std::optional<DType> gemmKernelDType(std::string_view kernel_name, std::string_view input_type);

// GEMM calls of one operator name, shape and dtype together.
struct GemmComparisonRow {
    std::string op_name;      // "aten::mm"
    std::string shape;        // the recorded dims, "[[8944,1024],[1024,2816]]"
    std::string dtype;        // the peak's dtype: "bf16", "tf32", "fp32", …
    std::string kernel_name;  // the call's longest kernel (of the first call)
    GemmCallShape gemm;
    std::int64_t calls = 0;
    double flops = 0;               // summed over the calls
    double measured_seconds = 0;    // summed kernel durations
    double predicted_seconds = 0;   // summed engine kernel times
    double peak_flops_per_second = 0;
    double ratio() const { return predicted_seconds > 0 ? measured_seconds / predicted_seconds : 0; }
    double achievedFlopsPerSecond() const { return measured_seconds > 0 ? flops / measured_seconds : 0; }
};

struct GemmPredictionSummary {
    std::string accelerator_id;
    std::string accelerator_name;
    std::int64_t calls = 0;            // matrix-multiply calls compared
    std::int64_t skipped_calls = 0;    // with GEMM kernels but no usable shape or dtype
    double measured_seconds = 0;
    double predicted_seconds = 0;
    // measured / predicted per call: the median and spread (10th, 90th percentiles, extremes);
    // 0 when no call was compared. Percentiles interpolate linearly between order statistics.
    double median_ratio = 0;
    double p10_ratio = 0;
    double p90_ratio = 0;
    double min_ratio = 0;
    double max_ratio = 0;
    std::vector<GemmComparisonRow> rows;  // by measured seconds, descending
};

// Every GEMM call of the trace (all of it, steps or not) on `accelerator` with its catalog
// efficiency factors. Problems: "trace" when the trace has no GPU kernels.
Result<GemmPredictionSummary> predictTraceGemms(const TraceRank &rank, const Accelerator &accelerator);

// Which part of the predicted step the trace holds.
enum class ComparedPass {
    TrainingStep,  // forward, backward, recomputation and the optimizer step
    ForwardOnly,   // inference / a forward pass: the prediction's forward kernels only
};
std::string_view toString(ComparedPass pass);  // "train", "forward"
// ForwardOnly when no CPU operator of the trace is an autograd backward node (…Backward0,
// autograd::engine::…) and no Optimizer.step annotation exists; else TrainingStep.
ComparedPass detectComparedPass(const TraceRank &rank);

// One predicted operator (all its passes and calls in one step) beside the trace's kernels matched
// to it, per step. Trace-only rows (kernels the model does not have) have predicted 0; predicted
// operators the trace lacks have measured 0.
struct OperatorComparison {
    std::string name;          // the operator list's name ("qkv_projection", "flash_attention",
                               // "memory_bound", "optimizer_step"), or the trace's ("aten::mm [[…]]",
                               // "convolution", "unknown")
    std::string kernel_class;  // "gemm", "attention", "memory_bound", "optimizer", "convolution", "unknown"
    std::string shape;         // the predicted forward shape, or the trace's dims
    bool split = false;        // matched as a split (q, k, v against a fused QKV; a tp shard)
    double predicted_count = 0;
    double predicted_seconds = 0;
    double predicted_flops = 0;
    double measured_count = 0;    // kernel calls per step
    double measured_seconds = 0;  // summed kernel durations per step
    double measured_flops = 0;    // per step (GEMM calls: 2·m·n·k from the shapes)
    double ratio() const { return predicted_seconds > 0 ? measured_seconds / predicted_seconds : 0; }
};

// Per class: the trace's kernels (summed durations per step; communication and memcpy exposed,
// as in the breakdown) beside the prediction's.
struct ClassComparison {
    std::string kernel_class;  // "gemm", "attention", "memory_bound", "optimizer", "other",
                               // "earlier" (launched before the trace began), "communication",
                               // "memcpy", "idle"
    double measured_seconds = 0;
    double predicted_seconds = 0;
};

// Where the measured step went, per step. The parts add up to measured_step_seconds exactly:
//   predicted_kernel_seconds + slower_kernel_seconds + unpredicted_kernel_seconds
//   + earlier_kernel_seconds + concurrent_kernel_seconds + exposed_communication_seconds
//   + memcpy_seconds + idle_host_bound_seconds + idle_waiting_seconds = measured_step_seconds.
struct MissingTime {
    double measured_step_seconds = 0;      // the GPU window (trace_analysis.h)
    double predicted_kernel_seconds = 0;   // the prediction of the operators the trace has
    double slower_kernel_seconds = 0;      // their measured − predicted time (< 0: faster)
    double unpredicted_kernel_seconds = 0; // compute kernels the model does not have
    // Compute kernels in the window whose launch the trace does not hold although it records
    // launches: queued before the profiler started (the previous iteration's tail when the GPU
    // lags the CPU). They belong to no profiled step, so no operator is matched to them.
    double earlier_kernel_seconds = 0;
    double concurrent_kernel_seconds = 0;  // ≤ 0: compute kernels overlapping on other streams
    double exposed_communication_seconds = 0;
    double memcpy_seconds = 0;
    double idle_host_bound_seconds = 0;
    double idle_waiting_seconds = 0;
    // Not part of the sum: the prediction of operators the trace does not have (a model the trace
    // lacks a part of, e.g. no LM head), and the predicted step itself.
    double predicted_missing_in_trace_seconds = 0;
    double predicted_step_seconds = 0;
};

struct TraceVsPrediction {
    std::string accelerator_id;
    ComparedPass pass = ComparedPass::TrainingStep;
    int steps = 0;                     // ProfilerStep windows averaged over
    double measured_step_seconds = 0;  // per step
    double predicted_step_seconds = 0; // training: predictStep's total; forward: its forward kernels
    // Σ 2·m·n·k of the matrix-multiply calls with kernels in the windows, per step; the prediction's
    // GEMM-class operators (weight products and unfused attention products; FlashAttention is not
    // a matmul here, on either side).
    double measured_matmul_flops = 0;
    double predicted_matmul_flops = 0;
    double peak_flops_per_second = 0;  // the scenario's matmul peak (the engine's MFU basis)
    double measured_mfu = 0;           // measured_matmul_flops / (measured step · peak)
    double predicted_mfu = 0;          // predicted_matmul_flops / (predicted step · peak)
    double engine_mfu = 0;             // predictStep's own MFU (training only; model FLOPs per step)
    std::vector<ClassComparison> classes;
    std::vector<OperatorComparison> operators;  // matched and trace-only, by measured seconds
    std::vector<OperatorComparison> missing_in_trace;  // predicted, no kernel matched
    MissingTime missing_time;
};

// `analysis` is analyseRank(rank). Problems: the scenario's (validation, predictStep), "trace"
// when the trace has no GPU kernels or no step window.
Result<TraceVsPrediction> compareWithPrediction(const TraceRank &rank, const TraceRankAnalysis &analysis,
                                                const Scenario &scenario, ComparedPass pass);

}  // namespace lse::traces
