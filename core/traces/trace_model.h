// SPDX-License-Identifier: GPL-3.0-or-later
// What the trace importer keeps of one PyTorch profiler (Kineto) trace: the GPU activities with
// their class, the CPU operators with their input shapes, the launches that link the two and the
// ProfilerStep#N steps. Compact on purpose: a 1 GB trace holds millions of events, so names and
// shapes are interned strings (TraceRank::text) and only the fields the analysis reads are kept.
//
// Times are microseconds, as in the trace, measured from TraceRank::origin_us (the earliest
// timestamp of the events kept), so that a trace's absolute 16-digit timestamps do not eat the
// precision of a double.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lse::traces {

// What a GPU activity does, decided from its kernel name and the CPU operator that launched it
// (kernel_classifier.h). Memcpy and Memset are exactly the trace's gpu_memcpy and gpu_memset
// events; a kernel that copies (a "copy_kernel") is Elementwise. Compute is every class except
// Communication, Memcpy and Memset (HTA's "computation" kernels).
enum class KernelClass {
    Gemm,           // matrix products: cuBLAS, CUTLASS, *gemm*, *xmma*, or launched by aten::mm/addmm/bmm/...
    Attention,      // FlashAttention, memory-efficient attention, fmha, cuDNN attention
    Convolution,    // cuDNN / implicit-GEMM convolutions, launched by aten::convolution and its kin
    Communication,  // NCCL kernels (ncclKernel_*, ncclDevKernel_*)
    Norm,           // layer norm, RMS norm, batch/group norm
    Reduction,      // sums, means, max, softmax, arg-reductions, scans
    Elementwise,    // element-wise math, copies, casts, fills, indexing, embeddings
    Memcpy,         // gpu_memcpy events (HtoD, DtoH, DtoD, PtoP)
    Memset,         // gpu_memset events
    Unknown,        // none of the rules matched: reported, never guessed
};
inline constexpr int kKernelClassCount = 10;

// "gemm", "attention", "convolution", "communication", "norm", "reduction", "elementwise",
// "memcpy", "memset", "unknown": the names the CLI's JSON and the docs use.
std::string_view kernelClassName(KernelClass cls);
// The class of a name above; false when the name is none of them.
bool kernelClassFromName(std::string_view name, KernelClass &cls);
// Every class in declaration order (for tables and loops).
std::array<KernelClass, kKernelClassCount> allKernelClasses();
// Not Communication, Memcpy, Memset.
bool isComputeClass(KernelClass cls);
// Not Memcpy, Memset: a kernel event of category "kernel".
bool isKernelClass(KernelClass cls);

// Index into TraceRank::strings; kNoText when absent.
using TextId = std::int32_t;
inline constexpr TextId kNoText = -1;

// One GPU activity: a kernel, a memory copy or a memset (cat "kernel", "gpu_memcpy", "gpu_memset").
struct TraceKernel {
    TextId name = kNoText;
    KernelClass kernel_class = KernelClass::Unknown;
    double start_us = 0;     // from TraceRank::origin_us
    double duration_us = 0;  // ≥ 0
    int device = 0;          // args.device (the trace's pid for GPU rows when absent)
    int stream = 0;          // args.stream (the trace's tid for GPU rows when absent)
    std::int64_t correlation = -1;  // args.correlation: the runtime call that launched it; -1 none
    std::int64_t external_id = -1;  // args."External id"; -1 none
    // The cuda_runtime / cuda_driver call that launched it (same correlation): its start on the
    // CPU, -1 when the trace has no such call. Its thread's operators give the linked operator.
    double launch_start_us = -1;
    std::int64_t launch_thread = -1;
    // The CPU operator this activity is attributed to (index into TraceRank::cpu_ops, -1 none):
    // the innermost matrix-multiply or attention operator enclosing the launch, else the innermost
    // operator enclosing it (trace_linker.h).
    std::int32_t op_index = -1;
    // FLOPs and bytes from the linked operator's shapes and dtypes (op_shape_flops.h), shared
    // between the kernels of one operator call by their duration; 0 = unknown. Memcpy/Memset take
    // their bytes from args.bytes.
    double flops = 0;
    double bytes = 0;
    std::array<int, 3> grid = {0, 0, 0};
    std::array<int, 3> block = {0, 0, 0};

    double endUs() const { return start_us + duration_us; }
    bool operator==(const TraceKernel &) const = default;
    // Achieved FLOP/s (0 when FLOPs or the duration are unknown) and FLOPs per byte (0 when unknown).
    double achievedFlopsPerSecond() const;
    double arithmeticIntensity() const;
};

// One CPU operator call (cat "cpu_op", and "user_annotation" ranges such as nccl:all_reduce).
// ProfilerStep#N ranges are kept as TraceStep, not as operators.
struct TraceCpuOp {
    TextId name = kNoText;
    double start_us = 0;
    double duration_us = 0;
    std::int64_t thread = 0;         // the trace's tid (a hash of it when it is not a number)
    std::int64_t external_id = -1;
    std::int32_t parent = -1;        // the innermost operator enclosing it on its thread; -1 top level
    bool annotation = false;         // a user_annotation range, not an aten operator
    // args."Input Dims" (-1 for a dimension that is not a non-negative integer) and
    // args."Input type" ("float", "c10::BFloat16", "" for a non-tensor argument): empty when the
    // trace was recorded without record_shapes.
    std::vector<std::vector<std::int64_t>> input_dims;
    std::vector<TextId> input_types;
    TextId shape = kNoText;          // the shapes as text, "[[8,512],[512,1024]]"
    TextId dtype = kNoText;          // the first tensor argument's type, "float"
    // What the producer wrote itself (our exporter, core/reference/chrome_trace_writer.h; PyTorch's
    // profiler writes flops with with_flops=True): args."class" as the importer's class (Unknown
    // when absent or not a class it knows, kernel_classifier.h classOfRecordedClass), args.flops
    // and args.bytes (-1 when absent). A recorded count wins over the one from shapes.
    KernelClass recorded_class = KernelClass::Unknown;
    double recorded_flops = -1;
    double recorded_bytes = -1;
    // args.flops / args.bytes when recorded, else op_shape_flops.h from the shapes; 0 = not a
    // counted operator or no shapes.
    double flops = 0;
    double bytes = 0;

    double endUs() const { return start_us + duration_us; }
    bool operator==(const TraceCpuOp &) const = default;
    // Achieved FLOP/s = flops / duration (0 when either is unknown), as TraceKernel's.
    double achievedFlopsPerSecond() const;
};

// A ProfilerStep#N range (a cpu_op or user_annotation named "ProfilerStep#N"), on the CPU.
struct TraceStep {
    std::int64_t number = 0;
    double start_us = 0;
    double duration_us = 0;
    double endUs() const { return start_us + duration_us; }
    bool operator==(const TraceStep &) const = default;
};

// Counts of what the loader read, for the report and the tests.
struct TraceEventCounts {
    std::int64_t events = 0;            // traceEvents elements
    std::int64_t kernels = 0;           // cat "kernel"
    std::int64_t memcpys = 0;           // cat "gpu_memcpy"
    std::int64_t memsets = 0;           // cat "gpu_memset"
    std::int64_t cpu_ops = 0;           // cat "cpu_op" and "user_annotation", and the uncategorised below
    // ph "X" events without a cat, read as CPU operators: the legacy autograd profiler's export
    // (torch without Kineto), whose events carry no category and empty args (no shapes).
    std::int64_t uncategorised_ops = 0;
    std::int64_t runtime_calls = 0;     // cat "cuda_runtime" / "cuda_driver"
    std::int64_t flows = 0;             // ph "s"/"f" (ac2g), read and not needed: correlation links
    std::int64_t ignored = 0;           // metadata, python_function, cuda_sync, gpu_user_annotation, ...
    std::int64_t linked_kernels = 0;    // GPU activities with a CPU operator (op_index ≥ 0)
    bool operator==(const TraceEventCounts &) const = default;
};

// One rank of a run: a trace file, or one rank process of a file that holds several
// (loadTraceRanks, trace_loader.h).
struct TraceRank {
    std::string source;             // the path (or name) it was read from
    // distributedInfo.rank, or N of the process named "rank N" it was split from; -1 when the
    // trace does not say.
    int rank = -1;
    // distributedInfo.world_size, or the number of rank processes of the file it was split from;
    // 0 when the trace does not say.
    int world_size = 0;
    std::string device_name;        // deviceProperties[0].name ("NVIDIA A100-SXM4-80GB"); "" none
    bool record_shapes = false;     // record_shapes: 1 at the top level, or any event with Input Dims
    double origin_us = 0;           // the absolute timestamp that times here are measured from
    std::vector<TraceKernel> kernels;   // GPU activities, by start time
    std::vector<TraceCpuOp> cpu_ops;    // by thread, then start time (parents before children)
    std::vector<TraceStep> steps;       // by start time
    std::vector<std::string> strings;   // interned names, shapes and dtypes
    TraceEventCounts counts;

    // The interned text of an id; "" for kNoText or an id out of range.
    const std::string &text(TextId id) const;
    // Whether any GPU activity was read (false for a CPU-only trace).
    bool hasGpu() const { return !kernels.empty(); }
    // Field by field (the tests compare the fast and the general event paths with it).
    bool operator==(const TraceRank &) const = default;
};

}  // namespace lse::traces
