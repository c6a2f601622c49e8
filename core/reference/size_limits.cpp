// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/size_limits.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace lse::reference {

Problems checkReferenceSizeBounds(const ModelConfig &m)
{
    Problems problems;
    auto atMost = [&](const char *field, std::int64_t value, std::int64_t bound) {
        if (value > bound)
            problems.push_back({field, "maximum",
                                std::string(field) + " must be at most " + std::to_string(bound) + " for the reference model, got " +
                                    std::to_string(value) + "."});
    };
    atMost("n_layers", m.n_layers, kMaxReferenceLayers);
    atMost("d_model", m.d_model, kMaxReferenceDModel);
    atMost("n_heads", m.n_heads, kMaxReferenceHeads);
    atMost("n_kv_heads", m.n_kv_heads, kMaxReferenceHeads);
    atMost("head_dim", m.head_dim, kMaxReferenceHeadDim);
    atMost("d_ff", m.d_ff, kMaxReferenceDff);
    atMost("vocab_size", m.vocab_size, kMaxReferenceVocab);
    atMost("max_seq_len", m.max_seq_len, kMaxReferenceSeqLen);
    return problems;
}

// Mirrors BasicModel::layoutParameters/layoutActivations (model.cpp); test_reference_model checks
// that the two agree byte for byte.
ReferenceMemory referenceMemoryEstimate(const ModelConfig &m, const ReferenceOptions &o, int bytes_per_element)
{
    const double align = 64.0 / bytes_per_element;
    auto padded = [align](double count) { return std::ceil(count / align) * align; };
    const double D = double(m.d_model), H = double(m.n_heads), G = double(m.n_kv_heads), Dh = double(m.head_dim);
    const double F = double(m.d_ff), V = double(m.vocab_size), L = double(m.n_layers);
    const double Q = H * Dh, KV = G * Dh, W = Q + 2 * KV;
    const double up = m.activation == Activation::SwiGLU ? 2 * F : F;
    const double T = double(o.context > 0 ? std::int64_t(o.context) : m.max_seq_len), B = double(o.max_batch);
    const double N = B * T;
    // The naive kernel keeps the (B, H, T, T) probabilities and their gradient; the tiled one a
    // log-sum-exp and a row dot per (sequence, head, position) and per-thread block scratch.
    const bool tiled = o.attention_kernel == AttentionAlgorithm::Tiled;
    const double probs = tiled ? B * H * T : B * H * T * T;

    const bool norm = m.norm != NormType::None;
    const double normTensors = !norm ? 0 : m.norm == NormType::LayerNorm ? 2 : 1;

    // Parameters: packed back to back, no padding.
    double params = V * D;                                                    // token embeddings
    if (m.positional_encoding == PositionalEncoding::Learned)
        params += double(m.max_seq_len) * D;                                  // position embeddings
    params += L * (2 * normTensors * D + W * D + D * Q + up * D + D * F);    // per layer
    params += normTensors * D;                                                // final norm
    if (!m.tied_embeddings)
        params += V * D;                                                      // LM head

    const double scratch = tiled ? padded(double(attentionScratchThreads())
                                          * double(tiledAttentionScratchPerThread(attentionBlocksOf(o, m.head_dim, bytes_per_element))))
                                 : 0.0;
    // KV cache of cache_batch sequences × cache_context positions and its one-token-per-sequence buffers.
    const double Bc = double(std::max(1, o.cache_batch));
    const double P = o.cache_context > 0 ? double(o.cache_context) : T;
    const double cache = L * 2 * padded(Bc * P * KV) + 6 * padded(Bc * D) + padded(Bc * W) + padded(Bc * Q) +
                         padded(Bc * up) + padded(Bc * F) + padded(Bc * 2) + padded(Bc * V);

    ReferenceMemory memory;
    double acts = padded(N * D);
    if (o.inference_only) {
        // One set of layer buffers shared by the layers, the output (and post-norm's ln2) alternating
        // between two (BasicModel::layoutInferenceActivations), no logits for every position.
        acts += padded(N * W) + padded(probs) + padded(N * Q) + padded(N * D) + padded(N * up) + padded(N * F) + 2 * padded(N * D);
        if (norm)
            acts += 3 * (padded(N * D) + padded(2 * N));
        memory.activations = acts * bytes_per_element;
        memory.workspace = (scratch + 2 * padded(B * D) + padded(2 * B) + padded(B * V)) * bytes_per_element;
        memory.parameters = params * bytes_per_element;
        memory.kv_cache = cache * bytes_per_element;
        return memory;
    }
    double perLayer = padded(N * W) + padded(probs) + padded(N * Q) + padded(N * D) + padded(N * up) + padded(N * F) +
                      padded(N * D);
    if (norm)
        perLayer += 2 * (padded(N * D) + padded(2 * N));
    acts += L * perLayer;
    if (norm)
        acts += padded(N * D) + padded(2 * N);
    acts += padded(N * V);

    const double attention_work = tiled ? padded(B * H * T) + scratch : padded(probs);
    const double work = 3 * padded(N * D) + padded(N * W) + padded(N * Q) + attention_work + padded(N * up) + padded(N * F) +
                        padded(N) + 2 * padded(B * D) + padded(2 * B) + padded(B * V);

    memory.parameters = params * bytes_per_element;
    memory.gradients = params * bytes_per_element;
    memory.activations = acts * bytes_per_element;
    memory.workspace = work * bytes_per_element;
    memory.kv_cache = cache * bytes_per_element;
    return memory;
}

double totalBytes(const ReferenceMemory &m) { return m.parameters + m.gradients + m.activations + m.workspace + m.kv_cache; }

Problems checkMemoryFits(double needed_bytes, const MemoryAvailable &available, const std::string &field,
                         const std::string &breakdown)
{
    if (available.limit == MemoryLimitKind::Unknown || needed_bytes <= available.bytes)
        return {};
    const bool machine = available.limit == MemoryLimitKind::Physical;
    return {Problem{field, "memory",
                    field + ": the reference model would need " + formatBytes(needed_bytes) + " (" + breakdown + ") but " +
                        available.what + "; reduce the batch size, the context (max_seq_len) or the model" +
                        (machine ? "" : ", or raise that limit") + "."}};
}

std::string formatBytes(double bytes)
{
    static const char *const units[] = {"B", "KB", "MB", "GB", "TB", "PB", "EB"};
    int unit = 0;
    while (bytes >= 1000 && unit < 6) {
        bytes /= 1000;
        ++unit;
    }
    char text[64];
    if (unit == 0)
        std::snprintf(text, sizeof text, "%.0f %s", bytes, units[unit]);
    else
        std::snprintf(text, sizeof text, "%.2f %s", bytes, units[unit]);
    return text;
}

}  // namespace lse::reference
