// SPDX-License-Identifier: GPL-3.0-or-later
// Naive vs tiled (FlashAttention) causal attention measured on this CPU over sequence lengths
// (issue 32, "The same algorithm, running here"): wall time of the forward pass and of forward +
// backward, the peak bytes the attention's buffers take as the allocator counts them, and the
// bytes moved between memory and cache from a hardware counter where the kernel allows one
// (perf_event_open, LLC misses × line size), else the model's count (Dao et al. 2022's IO
// accounting as the two kernels here implement it). The naive kernel stores (B, H, N, N) scores
// and their gradient, so it is refused beyond a memory limit; the tiled one needs O(N·d).
#pragma once

#include "common/problem.h"
#include "reference/ops/tiled_attention.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace lse::reference {

struct AttentionMeasureRequest {
    std::vector<std::int64_t> sequence_lengths{256, 512, 1024, 2048, 4096, 8192};  // N
    int head_dim = 64;   // d
    int heads = 4;       // H (as many kv heads: plain multi-head attention)
    int batch = 1;       // B
    int repeats = 3;     // timed runs per kernel and N, naive and tiled alternating; medians reported
    bool backward = true;  // also time forward + backward
    // B_r × B_c of the tiled kernel; 0: this CPU's L2 rule (attentionBlocksForThisCpu).
    int block_rows = 0;
    int block_cols = 0;
    // The naive kernel runs only while its buffers fit this many bytes; 0: half the memory this
    // process may use (common/memory_limit.h), so the sweep never pushes the machine into swap.
    double naive_memory_limit_bytes = 0;
    std::uint64_t seed = 1;
};

// Problems naming the field (sequence_lengths, head_dim, heads, batch, repeats, block_rows, ...).
Problems validateAttentionMeasureRequest(const AttentionMeasureRequest &request);

struct AttentionKernelRun {
    bool ran = false;
    std::string skipped;             // why not, when !ran (the memory limit)
    double forward_seconds = 0;      // median
    double training_seconds = 0;     // forward + backward, median; 0 without backward
    // Bytes of every buffer the measured call allocates (Q, K, V, O, and for training dO, dQ, dK,
    // dV; the kernel's own: naive scores/probabilities and their gradient, tiled log-sum-exp, row
    // dots and per-thread block scratch), as counted at allocation, at their peak.
    double forward_peak_bytes = 0;
    double training_peak_bytes = 0;
    // Of those, the kernel's own working memory (everything but the inputs and outputs).
    double forward_working_bytes = 0;
    double training_working_bytes = 0;
    // Memory ↔ cache traffic of one forward + backward (forward alone without backward).
    double modelled_bytes_moved = 0;                  // attentionTrafficBytes
    std::optional<double> counted_bytes_moved;        // LLC misses × 64 when perf_event works
    double useful_flops = 0;  // the causal triangle's products: 4·B·H·d·N(N+1)/2 forward, ×3 with backward (four more products)
};

struct AttentionMeasureRow {
    std::int64_t n = 0;
    AttentionKernelRun naive;
    AttentionKernelRun tiled;
    double scores_bytes_per_head = 0;  // N²·4: one head's score matrix, the naive kernel's working set
};

struct AttentionMeasurement {
    AttentionMeasureRequest request;
    AttentionBlocks blocks;           // the tiled kernel's B_r × B_c
    CpuCacheSizes caches;             // as detected
    double tiled_working_set_bytes = 0;  // one thread's blocks (attentionWorkingSetBytes)
    int threads = 1;
    // "perf_event (LLC read misses × 64 B)" or "model (...)", and why the counter was not used.
    std::string bytes_moved_source;
    std::string counter_note;
    std::vector<AttentionMeasureRow> rows;
    bool cancelled = false;  // the progress callback stopped the sweep; rows holds what finished
};

// The model's memory ↔ cache bytes of one kernel (fp32), assuming the blocks of the tiled kernel
// (or one row of the naive kernel's scores) stay in cache and nothing else does:
//   naive, forward: Dao et al. 2022 Algorithm 0, (4Nd + 4N²) per head (S written and read, P
//   written and read, all N² of them: the GEMMs run the whole square); backward (4 + 3)·(Nd + N²)
//   more (dV, dP; the softmax gradient; dQ, dK reading dS twice).
//   tiled, forward (FlashAttention-2 loop order, as implemented): Q and O once, L once, and the K
//   and V rows visible to each query block once per block (causal: blocks right of the diagonal
//   are skipped); backward: K, V read and dK, dV written once per key block, and per visible
//   (key block, query block) Q, dO, L, D read and dQ read and written; D from dO and O.
double attentionTrafficBytes(bool tiled, std::int64_t n, std::int64_t head_dim, std::int64_t heads,
                             std::int64_t batch, const AttentionBlocks &blocks, bool with_backward);

// progress(done, total, what) after each timed run; returning false cancels (rows so far are kept).
using AttentionMeasureProgress = std::function<bool(int done, int total, const std::string &what)>;

// The sweep with the OpenMP threads the process has (omp_get_max_threads()).
Result<AttentionMeasurement> measureAttention(const AttentionMeasureRequest &request,
                                              const AttentionMeasureProgress &progress = {});

}  // namespace lse::reference
