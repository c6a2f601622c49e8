<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>lse::gui::ChartView</name>
    <message>
        <source>No file name was given for the export.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: the folder %2 does not exist.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: the folder %2 is not writable.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: it is a folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: the file is read-only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Series %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG image…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PDF document…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SVG vector image…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV data…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the chart image (and its data as CSV) to the clipboard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ƒ Formula</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show or hide the inputs, formula and source behind this chart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset view</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save this chart as PNG, PDF, SVG or CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inputs:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Formula:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stack total: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export chart as PNG</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export chart as PDF</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PDF documents (*.pdf)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export chart as SVG</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SVG images (*.svg)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export chart data as CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: invalid scale factor %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not write the PNG image %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not write the PDF document %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not write the SVG image %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not open %1 for writing: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot export to %1: the folder does not exist.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot export to %1: the folder is not writable.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lse::gui::ComputePage</name>
    <message>
        <source>Compute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Component</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forward FLOPs per token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FLOPs per token: no valid scenario yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FLOPs per token: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2·3·h·d_ff (gated: three matrices)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2·2·h·d_ff</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Projections</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention projections (Q, K, V, output)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2·h·(q + 2·kv) for Q, K, V + 2·q·h for the output, per layer (q = %1, kv = %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scores (s²)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention scores (QKᵀ and A·V)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(2·s·q for QKᵀ + 2·s·q for A·V) / 2 per layer: causal counting of the s² work</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2·s·q for QKᵀ + 2·s·q for A·V per layer = 4·s·h for multi-head attention (full s²)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MLP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dense MLP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 per dense layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Router</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MoE router</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2·h·n_experts per MoE layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Experts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Routed experts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>top_k · %1·d_expert per MoE layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shared exp.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shared experts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>n_shared · %1·d_shared per MoE layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Vocabulary head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2·h·V, once per token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1FLOP per token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%4&lt;/b&gt;: %1 per token, %2 of the forward pass&lt;br&gt;%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FLOP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FLOPs per token by component</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%9, %10 per token: L = %1, h = %2, heads = %3, KV heads = %4, head dim = %5, d_ff = %6, V = %7, s = %8</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, %1 experts (top-%2, d_expert = %3, %4 shared)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2·m·n·k per matmul; per layer and token: projections 2·h·(q + 2·kv) + 2·q·h, scores 4·s·q (%1), MLP %2; head 2·h·V; backward = 2 × forward</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>halved for causal counting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>full s², the papers&apos; MFU convention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kaplan et al. 2020, Table 1; PaLM (Chowdhery et al. 2022), App. B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters (log scale)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share of forward FLOPs (%)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention vs MLP share across models: no valid scenario yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention vs MLP share across models: no preset has an estimate at s = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention vs MLP share across models (s = %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention scores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MLP (incl. experts)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (%2)&lt;br&gt;%3 parameters, %4 active&lt;br&gt;attention scores %5 · MLP %6 · projections %7 · head %8</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Current model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: attention scores %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: MLP %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>s = %1 for all %2 built-in presets (hover a point for its name)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; without an estimate: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per layer and token: attention scores 4·s·h vs GeLU MLP 16·h²; the ratio s/(4h) shrinks as models widen, so compute moves from attention to the MLP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kaplan et al. 2020, Table 1; PaLM (Chowdhery et al. 2022), App. B; Stanford CS336</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sequence length (tokens, log scale)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share vs sequence length: no valid scenario yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share vs sequence length: no valid point (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shares vs sequence length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention projections</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%4 at s = %1: %2 of %3 forward FLOPs per token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Current s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>s = %1: attention scores %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>s = %1: MLP %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: h = %2, L = %3, heads = %4, attention FLOPs counted %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in full</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>causally</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>; %n sequence length(s) skipped: %1</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>attention-score share = 4·s·q·L / forward FLOPs per token; the rest does not depend on s</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lse::gui::MainWindow</name>
    <message>
        <source>Scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Import Hugging Face config.json…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+I</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import config.json</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hugging Face config (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot import %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export Current Page…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export &amp;All Pages…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+Shift+E</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Presentation Mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scenario &amp;Editor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+Shift+D</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Light</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dark</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>High Contrast</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About LLM Systems Explorer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h3&gt;LLM Systems Explorer %1&lt;/h3&gt;&lt;p&gt;Parameters, FLOPs, memory, time and communication of training large language models, with every formula&apos;s source.&lt;/p&gt;&lt;p&gt;Licence: GPL-3.0-or-later.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scenario valid.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s) in the scenario; the pages show the last valid results.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>%1[*] — LLM Systems Explorer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has unsaved changes. Save them?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot save %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save Scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scenarios (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scenarios and Hugging Face configs (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create the folder %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export %1 to folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported %1 to %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export all pages to folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported every page to %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lse::gui::MemoryPage</name>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Configuration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory per GPU (GB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory per GPU: no valid scenario yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory per GPU: ZeRO stages and inference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ZeRO %1 (current)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ZeRO %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer states (incl. fp32 master)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Activations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV cache (inference only)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Framework reserve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1&lt;br&gt;%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ψ = %1 parameters on this GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No estimate at ZeRO %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1·Ψ / N_d (sharded over N_d = dp·cp = %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1·Ψ (replicated on every data-parallel rank)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>K = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 per layer × layers of stage %2 × %3 in-flight micro-batches (Korthikanti et al. 2022, Table 2, §4.2.3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training keeps no KV cache</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Framework reserve (CUDA context, allocator slack): an input</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>weights of the most loaded pipeline stage at %1 B per parameter, tensor-parallel matrices split over t = %2 (no gradients or optimizer states)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inference keeps no gradients</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inference keeps no optimizer states</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inference activations are transient and not counted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2 (K and V) · %1 layers / p = %2 · ⌈%3 KV heads / t = %4⌉ · %5 head dim · %6 B · b = %7 · s = %8 (Kwon et al. 2023, vLLM §3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 capacity: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%13 on %14 × %15; Ψ = %1 on the busiest GPU, N_d = dp·cp = %2, bytes per parameter: %3 weights, %4 gradients, K = %5 (%6); t = %7, p = %8, s = %9, b = %10, %11 recomputation, FlashAttention %12</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ZeRO-0 (2+2+K)Ψ · ZeRO-1 4Ψ + KΨ/N_d · ZeRO-2 2Ψ + (2+K)Ψ/N_d · ZeRO-3 (4+K)Ψ/N_d; activations per layer as in Korthikanti Table 2; inference: weights/t + KV cache 2·(L/p)·(n_kv/t)·d_head·bytes·b·s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rajbhandari et al. 2019 (ZeRO), §3.1 and §5; Korthikanti et al. 2022, Table 2 and §4.2.3; Kwon et al. 2023 (vLLM), §3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sequence length (tokens, log scale)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Activation memory per GPU (GB, log scale)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Activation memory: no valid scenario yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Activation memory: no sequence length gives a valid scenario (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Activation memory per GPU vs sequence length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No recomputation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sbh(34 + 5as/h) per layer: the s×s scores, softmax and dropout mask are stored</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Selective recomputation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>34·sbh per layer (÷ t with TP+SP): the attention core is recomputed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Full recomputation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2sbh per layer (its input) + one layer&apos;s activations while it is recomputed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FlashAttention, no recomputation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>≈ 34·sbh per layer: FlashAttention never materialises the s×s scores (Dao et al. 2022)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>s = %1: %2&lt;br&gt;%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Current scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>s = %1, %2 recomputation, FlashAttention %3: %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%10: h = %1, a = %2, L = %3, b = %4, t = %5%11, p = %6, cp = %7, activations %8, dropout %9</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> with sequence parallelism</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>; %n sequence length(s) skipped: %1</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>; learned positions are assumed to extend beyond %1 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per layer: none sbh(34 + 5as/h) · selective 34·sbh · full 2sbh (÷ t with tensor + sequence parallelism), × L/p layers × in-flight micro-batches; GQA, gated MLPs and MoE change the 34</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Korthikanti et al. 2022, Table 2 and §4.2.3; Dao et al. 2022 (FlashAttention)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lse::gui::OverviewPage</name>
    <message>
        <source>Overview</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sparse vs dense peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No valid scenario yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters (total)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Active parameters per token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training compute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU-hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory per GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix the problems marked in the scenario editor to see the estimate.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — %2 × %3, %4 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>L = %1, h = %2, heads = %3 (KV heads %4, head dim %5), d_ff = %6, V = %7</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; %1 routed experts (top-%2) of d_ff %3, %4 shared</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 exactly</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Σ elements of every weight and bias tensor (embedding, attention, MLP or experts, norms, head); for a GPT-style model ≈ 12·L·h²·(1 + 13/(12h) + (V+s)/(12·L·h))</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exact count from the model&apos;s tensor list (reproduces the model cards); the approximation is Narayanan et al. 2021, Eq. 2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>top-%1 of %2 experts per token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dense model: every parameter is used for every token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Active parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>total − routed expert weights × (1 − top_k / n_experts)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mixture-of-experts routing: Shazeer et al. 2017; Fedus et al. 2022 (Switch Transformer)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FLOP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>= %1 FLOP · 6ND: %2 FLOP (exact / 6ND = %3×) · time uses %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>6ND</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the exact count</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training FLOPs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>N = %1 active parameters, D = %2 tokens, s = %3, attention scores counted %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in full (s²)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>causally (s²/2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>exact = D × (forward + backward) matmul FLOPs per token, 2·m·n·k per matmul, backward = 2 × forward = %1 FLOP per token; 6ND = 6 · N · D</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kaplan et al. 2020, Table 1 (6ND); PaLM (Chowdhery et al. 2022), App. B; Korthikanti et al. 2022, App. A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>override</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dense %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C = %1 (%2), N_gpu = %3, peak = %4 per GPU (%5), MFU = %6</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>exact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FLOP/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MFU as defined by PaLM (Chowdhery et al. 2022), App. B; peak: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>N_gpu = %1, MFU %2, peak %3 (%4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>days = C / (N_gpu · peak · MFU) / 86,400 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPU-hours exactly</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPU-hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU-hours = N_gpu · C / (N_gpu · peak · MFU) / 3,600 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at %1 per GPU-hour (in your currency)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPU-hours, price %2 per GPU-hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cost = GPU-hours × price per GPU-hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The price is an input of the scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>weights %1 · gradients %2 · optimizer %3 · activations %4 · reserve %5 — ZeRO %6, pipeline stage %7</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory per GPU (most loaded GPU) vs capacity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ψ on this GPU = %1 parameters, ZeRO stage %2 over N_d = dp·cp = %3, %4 recomputation, FlashAttention %5, %6 in-flight micro-batches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>weights + gradients + optimizer states (ZeRO-0: (2 + 2 + K)Ψ; ZeRO-1: 4Ψ + KΨ/N_d; ZeRO-2: 2Ψ + (2 + K)Ψ/N_d; ZeRO-3: (4 + K)Ψ/N_d) + activations (per layer Korthikanti Table 2, × layers per stage × in-flight micro-batches) + framework reserve ≤ capacity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rajbhandari et al. 2019 (ZeRO) §3.1, §5; Korthikanti et al. 2022, Table 2 and §4.2.3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FITS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DOES NOT FIT</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run fits in GPU memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run does not fit in GPU memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a mixture-of-experts model with %2 parameters, of which %3 are used for each token.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a dense model with %2 parameters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training it on %1 tokens takes %2, which at %3 MFU on %4 × %5 is about %6 days (%7 GPU-hours, costing %8).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The most loaded GPU needs %1 of its %2, so the run fits in memory.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The most loaded GPU would need %1 but has %2, so the run does not fit: raise the ZeRO stage, tensor or pipeline parallelism, use recomputation or a smaller micro-batch.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 days&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This estimate uses a peak override of %1 per GPU: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This estimate uses the dense %1 peak of %2 per GPU: %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At the catalog&apos;s dense %1 peak of %2 the same run takes %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The headline tensor figure on the %1 datasheet, %2, is for 2:4 structured sparsity, twice the dense rate; at that figure the run would take %3 — a speed dense training never reaches.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1&apos;s vendor quotes 2:4-sparse tensor figures at twice the dense rate (assumed here: %2); at that figure the run would take %3 — a speed dense training never reaches.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Counting C = 6ND instead, as the course does, the sparse headline gives %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 publishes no 2:4-sparse headline figure, so there is no sparse figure to confuse with the dense peak.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The course example&apos;s 119 days assumed 2 PFLOP/s per H100 (the sparse headline); at the dense BF16 peak of 989 TFLOP/s the same run takes about twice as long.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dense peak %1, sparse headline %2, MFU %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>days = C / (N_gpu · peak · MFU) / 86,400 s; sparse headline = 2 × dense</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NVIDIA A100 Tensor Core GPU Architecture whitepaper (fine-grained structured sparsity); %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lse::gui::ScenarioDocument</name>
    <message>
        <source>Untitled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lse::gui::ScenarioEditor</name>
    <message>
        <source>Change %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. 15T, 300B, 4096</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; is not a whole number (examples: 4096, 15e12, 15T, 300B)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Custom</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load a published architecture; every field below stays editable.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load preset %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Transformer blocks (L).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>d_model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hidden size h: the width of the residual stream.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Query heads a.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key/value heads: equal to heads for MHA, 1 for MQA, in between for GQA.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head dim</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dimension of one attention head (usually d_model / heads).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>d_ff</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hidden size of the feed-forward layers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Vocabulary size V (embedding and head rows).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Maximum sequence length (learned position embeddings count it).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tied embeddings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The LM head reuses the token embedding matrix.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Q/K/V bias</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bias vectors on the Q, K and V projections.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output bias</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bias on the attention output projection.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MLP biases</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Biases on the feed-forward matrices.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Norm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LayerNorm has a gain and a bias; RMSNorm only a gain.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Norm placement</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pre-norm, post-norm, or norms on both sides of each sub-block (Gemma 2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Activation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gated activations (SwiGLU, GeGLU) use three d_model x d_ff matrices.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Positions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learned position embeddings add max_seq_len x d_model parameters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parallel block</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention and MLP read the same input (GPT-J, PaLM).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Experts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Routed experts per MoE layer (0: dense model).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Experts each token visits.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shared experts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Experts every token visits.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expert d_ff</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hidden size of one routed expert.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First MoE layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layers before it are dense.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MoE interval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every n-th layer from the first MoE layer is an MoE layer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Accelerator from the catalog (dense peaks, memory, links; datasheet in each entry).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total accelerators; dp·tp·pp·cp must equal it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs per node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Groups larger than a node talk over the network.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak override</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replaces the catalog&apos;s dense peak (0: use the catalog). The course&apos;s 119-day example assumed 2000 TFLOP/s per H100, the sparse headline figure.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> TFLOP/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Intra-node link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unidirectional bandwidth per GPU inside a node (NVLink: half the quoted bidirectional figure).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> GB/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inter-node link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unidirectional network bandwidth per GPU between nodes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Intra-node latency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Alpha of the alpha-beta model: paid once per ring step.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> µs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inter-node latency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Alpha of the alpha-beta model across nodes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Link efficiency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fraction of the line rate a collective achieves (nccl-tests bus bandwidth).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Price per GPU-hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Used for the cost figure.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total training tokens D (accepts 15T, 300B, 15e12).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sequence length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens per sequence s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Global batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sequences per optimizer step B.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Micro-batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sequences per forward pass per GPU b.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Precision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sets weight, gradient, activation and matmul dtypes; bf16-mixed keeps an fp32 master copy (16 bytes/parameter with Adam, ZeRO §3.1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradient dtype</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fp32 gradients give the 18-bytes-per-parameter convention (Megatron bf16).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FP32 master weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Without the master copy, mixed-precision Adam needs 12 bytes per parameter.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Adam/AdamW keep two fp32 moments; 8-bit Adam two bytes; Adafactor factored moments.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recomputation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Selective recomputes the attention core; full keeps only each layer&apos;s input (Korthikanti et al. 2022).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FlashAttention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The s x s score matrix is never stored (Dao et al. 2022).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dropout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dropout masks are saved activations (Korthikanti et al. count them).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention FLOPs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>full counts the whole s x s score matrix (the papers&apos; MFU); causal counts half (Megatron-LM).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exact operator count or 6·N·D (Kaplan et al. 2020).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MFU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model FLOPs utilization: achieved model FLOP/s over peak (PaLM App. B).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Framework reserve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory per GPU taken by the CUDA context, allocator slack and buffers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> GB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parallelism</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data-parallel degree.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tensor-parallel degree (Megatron column/row splits).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pipeline stages.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context-parallel degree (ring attention).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>EP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expert-parallel degree (MoE).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Virtual stages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Interleaved pipeline chunks per GPU (v).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ZeRO stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1: optimizer states, 2: + gradients, 3: + parameters sharded over DP (Rajbhandari et al. 2019).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sequence parallel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Splits norms and dropout along the sequence across TP ranks (Korthikanti et al. 2022).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>✓ The scenario is valid.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s); the pages show the last valid results.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::TimePage</name>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>days = C / (N_gpu · peak · MFU) / 86,400 s (perfect scaling: communication and bubbles are what MFU absorbs)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C: %1; MFU: PaLM (Chowdhery et al. 2022), App. B; peak: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>6ND, Kaplan et al. 2020</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>exact matmul FLOPs, PaLM App. B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs (log scale)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training time (days, log scale)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Days vs GPU count: no valid scenario yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Days vs GPU count: no GPU count gives a valid layout (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training days vs GPU count</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>N_gpu = %1 (dp = %2): %3 days, %4 GPU-hours, cost %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Current scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>N_gpu = %1: %2 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tp·pp·cp = %7·%8·%9 kept, dp scaled; C = %1 (%2), peak = %3 per GPU, MFU = %4, global batch %5, micro-batch %6</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FLOP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>6ND</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>exact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FLOP/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; skipped N_gpu = %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MFU (model FLOPs utilization, fraction of peak)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training time (days)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Days vs MFU: no valid scenario yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Days vs MFU: no valid point (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training days vs MFU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MFU %1: %2 days, %3 tokens/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MFU %1: %2 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C = %1 (%2), N_gpu = %3, peak = %4 per GPU (PaLM 540B reached an MFU of 46.2 %)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lse::gui::format</name>
    <message>
        <source>B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2 bytes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 T</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 M</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;i&gt;Inputs:&lt;/i&gt; %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;i&gt;Formula:&lt;/i&gt; %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;i&gt;Source:&lt;/i&gt; %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
