// SPDX-License-Identifier: GPL-3.0-or-later
// Per-operator FLOP counter and timer of the reference transformer. Every forward and backward op
// call reports its name, the FLOPs of that call (computed from the call's actual dimensions:
// matmul 2·m·n·k, element-wise ops a per-element constant from core/ops/flop_rules.h) and its wall time.
// Entries accumulate across calls until reset(). Storage is reserved at construction, so recording
// never allocates; when disabled a scope costs one branch. Each call site also states the call's
// shape (op_shape.h); only while a trace log is attached (setTrace, op_trace.h) is the call kept,
// with its shape and bytes, as one event of a Chrome trace.
//
// Op names are the cost engine's operator names (core/ops/operator_list.cpp, non-flash path), so
// measured and predicted tables join on name:
//   token_embedding, position_embedding_add, attention_norm (ln1), qkv_projection (q|k|v fused),
//   rope, attention_scores (QKᵀ), softmax, attention_values (P·V), attention_output (output_proj),
//   attention_residual, mlp_norm (ln2), mlp_up (w1, or w1|w3 fused), mlp_activation, mlp_down (w2),
//   mlp_residual, final_norm (ln_final), lm_head, cross_entropy.
// In post-norm blocks attention_norm/mlp_norm are the norms after each residual; same cost.
#pragma once

#include "ops/flop_rules.h"
#include "reference/op_shape.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace lse::reference {

enum class OpPhase { Forward, Backward };

class OpTraceLog;  // op_trace.h

// FLOP counting rules (per-element constants, backward factors) are lse::flop_rules
// (core/ops/flop_rules.h), the same definitions the cost engine's operator list uses.

struct OpRecord {
    const char *name = "";  // a string literal: one of the engine's operator names
    OpPhase phase = OpPhase::Forward;
    bool matmul = false;
    double flops = 0;
    double seconds = 0;
    std::int64_t calls = 0;
};

class OpProfiler {
public:
    OpProfiler();

    void setEnabled(bool enabled) { enabled_ = enabled; }
    bool enabled() const { return enabled_; }
    void reset();

    void record(const char *name, OpPhase phase, bool matmul, double flops, double seconds);

    // Per-call events go to `log` too while one is attached (trace export, op_trace.h); null: none.
    // The log must outlive its attachment.
    void setTrace(OpTraceLog *log) { trace_ = log; }
    OpTraceLog *trace() const { return trace_; }

    // Records on destruction the time since construction (nothing when the profiler is null or off),
    // and the call with its shape in the attached trace log, if any.
    class Scope {
    public:
        Scope(OpProfiler *profiler, const char *name, OpPhase phase, bool matmul, double flops, const OpShape &shape)
            : profiler_(profiler && profiler->enabled() ? profiler : nullptr), name_(name), phase_(phase),
              matmul_(matmul), flops_(flops)
        {
            if (profiler_) {
                if (profiler_->trace_)
                    shape_ = shape;
                start_ = std::chrono::steady_clock::now();
            }
        }
        ~Scope()
        {
            if (!profiler_)
                return;
            const auto end = std::chrono::steady_clock::now();
            profiler_->record(name_, phase_, matmul_, flops_, std::chrono::duration<double>(end - start_).count());
            if (profiler_->trace_)
                profiler_->traceCall(name_, phase_, flops_, shape_, start_, end);
        }
        Scope(const Scope &) = delete;
        Scope &operator=(const Scope &) = delete;

    private:
        OpProfiler *profiler_;
        const char *name_;
        OpPhase phase_;
        bool matmul_;
        double flops_;
        OpShape shape_;
        std::chrono::steady_clock::time_point start_;
    };

    // In first-seen order; one entry per (name, phase).
    const std::vector<OpRecord> &records() const { return records_; }
    // Back to records taken earlier (a step interrupted before its end is not counted).
    void restore(const std::vector<OpRecord> &records) { records_.assign(records.begin(), records.end()); }
    double totalFlops() const;
    double matmulFlops() const;
    double totalSeconds() const;
    // "name phase calls GFLOP seconds share" lines, for benchmarks and logs.
    std::string table() const;

private:
    void traceCall(const char *name, OpPhase phase, double flops, const OpShape &shape,
                   std::chrono::steady_clock::time_point start, std::chrono::steady_clock::time_point end);

    bool enabled_ = false;
    OpTraceLog *trace_ = nullptr;
    std::vector<OpRecord> records_;
};

}  // namespace lse::reference
