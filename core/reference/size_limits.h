// SPDX-License-Identifier: GPL-3.0-or-later
// How large a reference configuration may be, checked before anything is allocated (issue 14,
// item 1): an upper bound per size, so no product of sizes overflows and no single number asks for
// the impossible, and the memory the configuration implies against the memory this process can get
// (common/memory_limit.h: physical memory, the address-space and data limits, the cgroup limit).
// A checkpoint or config file is untrusted input: a 256 KB file must not make the model allocate
// gigabytes and abort with std::bad_alloc.
#pragma once

#include "common/memory_limit.h"
#include "common/problem.h"
#include "reference/model.h"
#include "scenario/model_config.h"

#include <cstdint>
#include <string>

namespace lse::reference {

// Each bound is about 4× the largest published dense model (Llama 3.1 405B: d_model 16384, 126
// layers, 128 heads of 128, d_ff 53248, vocabulary 128256, context 131072), so any real
// architecture can be described; whether it fits this machine is the memory check's question.
inline constexpr std::int64_t kMaxReferenceDModel = 65536;
inline constexpr std::int64_t kMaxReferenceLayers = 1024;
inline constexpr std::int64_t kMaxReferenceHeads = 1024;       // n_heads and n_kv_heads
inline constexpr std::int64_t kMaxReferenceHeadDim = 4096;
inline constexpr std::int64_t kMaxReferenceDff = 262144;
inline constexpr std::int64_t kMaxReferenceVocab = 16777216;   // 2^24 token ids
inline constexpr std::int64_t kMaxReferenceSeqLen = 131072;
// Sequences per step (training.batch_size, `train --batch`): beyond this a CPU step would take
// hours even for the smallest model; the memory check bounds batch × context further.
inline constexpr std::int64_t kMaxReferenceBatch = 65536;

// Problems naming the field for sizes above the bounds (n_layers, d_model, n_heads, n_kv_heads,
// head_dim, d_ff, vocab_size, max_seq_len). Part of validateForReference.
Problems checkReferenceSizeBounds(const ModelConfig &model);

// The bytes BasicModel<S> (S of `bytes_per_element` bytes) allocates for `model` with `options`:
// the parameter and gradient arenas, saved activations, backward workspace and KV cache, each
// buffer rounded up to 64 bytes as the model lays them out. Computed in doubles, so any sizes
// within the bounds give a finite answer without overflow. Assumes checkReferenceSizeBounds passed.
ReferenceMemory referenceMemoryEstimate(const ModelConfig &model, const ReferenceOptions &options, int bytes_per_element = 4);

// Total of every category of a ReferenceMemory.
double totalBytes(const ReferenceMemory &memory);

// One problem on `field` (rule "memory") when `needed_bytes` exceed what `available` allows
// (memoryAvailableToThisProcess(): physical memory, ulimit -v / -d, the cgroup limit), naming that
// limit; none when nothing is known. `breakdown` lists what the bytes are for ("parameters 1.2 GB, ...").
Problems checkMemoryFits(double needed_bytes, const MemoryAvailable &available, const std::string &field,
                         const std::string &breakdown);

// "1.23 GB": decimal units, as the rest of the project prints memory.
std::string formatBytes(double bytes);

}  // namespace lse::reference
