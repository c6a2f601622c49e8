// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/architecture/design_axis_text.h"

#include "pages/page_format.h"

namespace lse::gui {

QString DesignAxisText::name(DesignAxis axis)
{
    switch (axis) {
    case DesignAxis::NormType: return tr("Norm type: LayerNorm vs RMSNorm");
    case DesignAxis::NormPlacement: return tr("Norm placement: pre vs post vs sandwich");
    case DesignAxis::Activation: return tr("Activation: ReLU vs GeLU vs SwiGLU vs GeGLU");
    case DesignAxis::Block: return tr("Block: serial vs parallel");
    case DesignAxis::PositionalEncoding: return tr("Positional encoding");
    case DesignAxis::Attention: return tr("Attention: MHA vs GQA vs MQA");
    case DesignAxis::FfnRatio: return tr("FFN ratio: d_ff / d_model");
    case DesignAxis::Embeddings: return tr("Embeddings: tied vs untied");
    }
    return QString();
}

QString DesignAxisText::explanation(DesignAxis axis)
{
    switch (axis) {
    case DesignAxis::NormType:
        return tr("RMSNorm drops LayerNorm's mean subtraction and its bias: per element 4 instead of 7 FLOPs and "
                  "one parameter vector fewer per norm. Both are memory-bound (one or two FLOPs per byte): on a GPU "
                  "their time is set by the bytes they move, which are nearly the same, and norms cost time at "
                  "all because they move as many bytes as a matmul's input while doing almost no FLOPs (the "
                  "data-movement line below). Measure both on this CPU below. "
                  "Source: Zhang &amp; Sennrich 2019, \"Root Mean Square Layer Normalization\"; Ba et al. 2016.");
    case DesignAxis::NormPlacement:
        return tr("Pre-norm (x + f(norm(x))) keeps an identity path through the residual stream and trains "
                  "stably without warm-up; post-norm (norm(x + f(x))) was the original Transformer's. The "
                  "sandwich (Gemma 2) adds a second norm after each sub-block: one more memory-bound pass and "
                  "parameter vector per sub-block. Pre and post cost the same here. Source: Xiong et al. 2020, "
                  "\"On Layer Normalization in the Transformer Architecture\"; Gemma Team 2024.");
    case DesignAxis::Activation:
        return tr("Gated units (GLU variants) multiply two up-projections: three d×d_ff matrices instead of two. "
                  "At equal parameters d_ff shrinks to 2/3 (8/3·d instead of 4·d), rounded up to a multiple of "
                  "256 as Llama does (a smaller power of two where 256 would add 1 % or more). Matmul FLOPs and "
                  "saved activations stay within that 1 %; the element-wise work differs. Source: Shazeer 2020, "
                  "\"GLU Variants Improve Transformer\"; Touvron et al. 2023 (Llama).");
    case DesignAxis::Block:
        return tr("A parallel block computes x + Attention(Norm₁(x)) + MLP(Norm₂(x)) (GPT-NeoX; GPT-J and PaLM "
                  "share one norm, one d_model vector fewer per layer): both norms read the block input, so only "
                  "one norm pass stands before the matmuls and x is kept once for the backward pass; one residual "
                  "add of three inputs; the QKV and MLP up-projections can run as one fused matmul. Same "
                  "parameters; PaLM reports ~15 % faster training at large scale and a small quality cost at "
                  "small scale. Source: Chowdhery et al. 2022 (PaLM) §2; Black et al. 2022 (GPT-NeoX) §2.1; "
                  "Wang &amp; Komatsuzaki 2021 (GPT-J).");
    case DesignAxis::PositionalEncoding:
        return tr("Learned positions add a max_seq_len×d table (parameters) and an add; sinusoids add without "
                  "parameters; RoPE rotates q and k (3 FLOPs per element, no parameters); ALiBi adds −m·(i−j) to "
                  "the scores (inside the attention kernel here); none relies on the causal mask alone. See the "
                  "Positional encodings tab. Source: Vaswani et al. 2017; Su et al. 2021; Press et al. 2022; "
                  "Haviv et al. 2022.");
    case DesignAxis::Attention:
        return tr("Grouped-query attention shares each K/V head among a group of query heads; MQA keeps one. The "
                  "KV cache, read in full at every decode step, shrinks by n_heads / n_kv_heads, so long-context "
                  "decoding moves fewer bytes. KV cache per token = 2·L·n_kv_heads·head_dim·bytes. Source: "
                  "Shazeer 2019 (MQA); Ainslie et al. 2023 (GQA); Kwon et al. 2023 (vLLM) §3.");
    case DesignAxis::FfnRatio:
        return tr("The feed-forward width sets two thirds of a dense layer's weights. GPT-2 and the original "
                  "Transformer use 4·d; gated models ≈ 8/3·d so that their three matrices weigh what two of 4·d "
                  "do. The widths here keep the scenario's activation. Source: Vaswani et al. 2017; Touvron et "
                  "al. 2023.");
    case DesignAxis::Embeddings:
        return tr("Tied embeddings use the token-embedding matrix as the output projection too: V·d parameters "
                  "(and their optimizer states) fewer, the same FLOPs. Source: Press &amp; Wolf 2017, \"Using the "
                  "Output Embedding to Improve Language Models\".");
    }
    return QString();
}

QString DesignAxisText::variantLabel(DesignAxis axis, const ModelConfig &model)
{
    switch (axis) {
    case DesignAxis::NormType:
        return model.norm == NormType::LayerNorm ? tr("LayerNorm")
            : model.norm == NormType::RMSNorm    ? tr("RMSNorm")
                                                 : tr("no norm");
    case DesignAxis::NormPlacement:
        return model.norm_placement == NormPlacement::Pre    ? tr("pre-norm")
            : model.norm_placement == NormPlacement::Post    ? tr("post-norm")
                                                             : tr("sandwich (pre + post)");
    case DesignAxis::Activation: {
        const QString name = format::fromStd(toString(model.activation));
        return tr("%1, d_ff %2").arg(name, format::integer(model.d_ff));
    }
    case DesignAxis::Block: return model.parallel_block ? tr("parallel") : tr("serial");
    case DesignAxis::PositionalEncoding:
        switch (model.positional_encoding) {
        case PositionalEncoding::Learned: return tr("learned");
        case PositionalEncoding::Sinusoidal: return tr("sinusoidal");
        case PositionalEncoding::RoPE: return tr("RoPE");
        case PositionalEncoding::ALiBi: return tr("ALiBi");
        case PositionalEncoding::None: return tr("none");
        }
        return QString();
    case DesignAxis::Attention:
        if (model.n_kv_heads == model.n_heads)
            return tr("MHA, %n KV head(s)", nullptr, model.n_kv_heads);
        if (model.n_kv_heads == 1)
            return tr("MQA, 1 KV head");
        return tr("GQA, %n KV head(s)", nullptr, model.n_kv_heads);
    case DesignAxis::FfnRatio:
        return tr("d_ff %1 (%2·d)")
            .arg(format::integer(model.d_ff), format::decimal(double(model.d_ff) / double(model.d_model), 2));
    case DesignAxis::Embeddings: return model.tied_embeddings ? tr("tied") : tr("untied");
    }
    return QString();
}

}  // namespace lse::gui
