<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>lse::gui::ChartUnits</name>
    <message>
        <source>bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>days</source>
        <translation>天</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>token</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>块 GPU</translation>
    </message>
    <message>
        <source>fraction</source>
        <translation>比例</translation>
    </message>
    <message>
        <source>parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>FLOP</source>
        <translation>FLOP</translation>
    </message>
</context>
<context>
    <name>lse::gui::ChartView</name>
    <message>
        <source>No file name was given for the export.</source>
        <translation>未指定导出文件名。</translation>
    </message>
    <message>
        <source>Cannot write %1: the folder %2 does not exist.</source>
        <translation>无法写入 %1：文件夹 %2 不存在。</translation>
    </message>
    <message>
        <source>Cannot write %1: the folder %2 is not writable.</source>
        <translation>无法写入 %1：文件夹 %2 不可写。</translation>
    </message>
    <message>
        <source>Cannot write %1: it is a folder.</source>
        <translation>无法写入 %1：这是一个文件夹。</translation>
    </message>
    <message>
        <source>Cannot write %1: the file is read-only.</source>
        <translation>无法写入 %1：文件为只读。</translation>
    </message>
    <message>
        <source>Series %1</source>
        <translation>系列 %1</translation>
    </message>
    <message>
        <source>PNG image…</source>
        <translation>PNG 图像…</translation>
    </message>
    <message>
        <source>PDF document…</source>
        <translation>PDF 文档…</translation>
    </message>
    <message>
        <source>SVG vector image…</source>
        <translation>SVG 矢量图…</translation>
    </message>
    <message>
        <source>CSV data…</source>
        <translation>CSV 数据…</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the chart image (and its data as CSV) to the clipboard</source>
        <translation>将图表图像（及其 CSV 数据）复制到剪贴板</translation>
    </message>
    <message>
        <source>ƒ Formula</source>
        <translation>ƒ 公式</translation>
    </message>
    <message>
        <source>Show or hide the inputs, formula and source behind this chart</source>
        <translation>显示或隐藏此图表背后的输入、公式和来源</translation>
    </message>
    <message>
        <source>Reset view</source>
        <translation>重置视图</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Save this chart as PNG, PDF, SVG or CSV</source>
        <translation>将此图表保存为 PNG、PDF、SVG 或 CSV</translation>
    </message>
    <message>
        <source>Inputs:</source>
        <translation>输入：</translation>
    </message>
    <message>
        <source>Formula:</source>
        <translation>公式：</translation>
    </message>
    <message>
        <source>Source:</source>
        <translation>来源：</translation>
    </message>
    <message>
        <source>Stack total: %1</source>
        <translation>堆叠合计：%1</translation>
    </message>
    <message>
        <source>Export chart as PNG</source>
        <translation>将图表导出为 PNG</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Export chart as PDF</source>
        <translation>将图表导出为 PDF</translation>
    </message>
    <message>
        <source>PDF documents (*.pdf)</source>
        <translation>PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>Export chart as SVG</source>
        <translation>将图表导出为 SVG</translation>
    </message>
    <message>
        <source>SVG images (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>Export chart data as CSV</source>
        <translation>将图表数据导出为 CSV</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Cannot write %1: invalid scale factor %2.</source>
        <translation>无法写入 %1：缩放因子 %2 无效。</translation>
    </message>
    <message>
        <source>Could not write the PNG image %1.</source>
        <translation>无法写入 PNG 图像 %1。</translation>
    </message>
    <message>
        <source>Could not write the PDF document %1.</source>
        <translation>无法写入 PDF 文档 %1。</translation>
    </message>
    <message>
        <source>Could not write the SVG image %1.</source>
        <translation>无法写入 SVG 图像 %1。</translation>
    </message>
    <message>
        <source>Could not open %1 for writing: %2</source>
        <translation>无法打开 %1 进行写入：%2</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Cannot export to %1: the folder does not exist.</source>
        <translation>无法导出到 %1：文件夹不存在。</translation>
    </message>
    <message>
        <source>Cannot export to %1: the folder is not writable.</source>
        <translation>无法导出到 %1：文件夹不可写。</translation>
    </message>
</context>
<context>
    <name>lse::gui::ComputePage</name>
    <message>
        <source>Compute</source>
        <translation>计算量</translation>
    </message>
    <message>
        <source>Component</source>
        <translation>组件</translation>
    </message>
    <message>
        <source>Forward FLOPs per token</source>
        <translation>每 token 前向 FLOPs</translation>
    </message>
    <message>
        <source>FLOPs per token: no valid scenario yet</source>
        <translation>每 token FLOPs：尚无有效场景</translation>
    </message>
    <message>
        <source>FLOPs per token: %1</source>
        <translation>每 token FLOPs：%1</translation>
    </message>
    <message>
        <source>2·3·h·d_ff (gated: three matrices)</source>
        <translation>2·3·h·d_ff（门控：三个矩阵）</translation>
    </message>
    <message>
        <source>2·2·h·d_ff</source>
        <translation>2·2·h·d_ff</translation>
    </message>
    <message>
        <source>Projections</source>
        <translation>投影</translation>
    </message>
    <message>
        <source>Attention projections (Q, K, V, output)</source>
        <translation>注意力投影（Q、K、V、输出）</translation>
    </message>
    <message>
        <source>2·h·(q + 2·kv) for Q, K, V + 2·q·h for the output, per layer (q = %1, kv = %2)</source>
        <translation>每层：Q、K、V 为 2·h·(q + 2·kv)，输出为 2·q·h（q = %1，kv = %2）</translation>
    </message>
    <message>
        <source>Scores (s²)</source>
        <translation>分数 (s²)</translation>
    </message>
    <message>
        <source>Attention scores (QKᵀ and A·V)</source>
        <translation>注意力分数（QKᵀ 与 A·V）</translation>
    </message>
    <message>
        <source>(2·s·q for QKᵀ + 2·s·q for A·V) / 2 per layer: causal counting of the s² work</source>
        <translation>每层 (QKᵀ 的 2·s·q + A·V 的 2·s·q) / 2：s² 部分按因果方式计数</translation>
    </message>
    <message>
        <source>2·s·q for QKᵀ + 2·s·q for A·V per layer = 4·s·h for multi-head attention (full s²)</source>
        <translation>每层 QKᵀ 的 2·s·q + A·V 的 2·s·q = 4·s·h（多头注意力，完整 s²）</translation>
    </message>
    <message>
        <source>MLP</source>
        <translation>MLP</translation>
    </message>
    <message>
        <source>Dense MLP</source>
        <translation>稠密 MLP</translation>
    </message>
    <message>
        <source>%1 per dense layer</source>
        <translation>每个稠密层 %1</translation>
    </message>
    <message>
        <source>Router</source>
        <translation>路由器</translation>
    </message>
    <message>
        <source>MoE router</source>
        <translation>MoE 路由器</translation>
    </message>
    <message>
        <source>2·h·n_experts per MoE layer</source>
        <translation>每个 MoE 层 2·h·n_experts</translation>
    </message>
    <message>
        <source>Experts</source>
        <translation>专家</translation>
    </message>
    <message>
        <source>Routed experts</source>
        <translation>路由专家</translation>
    </message>
    <message>
        <source>top_k · %1·d_expert per MoE layer</source>
        <translation>每个 MoE 层 top_k · %1·d_expert</translation>
    </message>
    <message>
        <source>Shared exp.</source>
        <translation>共享专家</translation>
    </message>
    <message>
        <source>Shared experts</source>
        <translation>共享专家</translation>
    </message>
    <message>
        <source>n_shared · %1·d_shared per MoE layer</source>
        <translation>每个 MoE 层 n_shared · %1·d_shared</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>输出头</translation>
    </message>
    <message>
        <source>Vocabulary head</source>
        <translation>词表输出头</translation>
    </message>
    <message>
        <source>2·h·V, once per token</source>
        <translation>2·h·V，每 token 一次</translation>
    </message>
    <message>
        <source>%1FLOP per token</source>
        <translation>每 token %1FLOP</translation>
    </message>
    <message>
        <source>&lt;b&gt;%4&lt;/b&gt;: %1 per token, %2 of the forward pass&lt;br&gt;%3</source>
        <translation>&lt;b&gt;%4&lt;/b&gt;：每 token %1，占前向传播的 %2&lt;br&gt;%3</translation>
    </message>
    <message>
        <source>FLOP</source>
        <translation>FLOP</translation>
    </message>
    <message>
        <source>FLOPs per token by component</source>
        <translation>各组件每 token FLOPs</translation>
    </message>
    <message>
        <source>%9, %10 per token: L = %1, h = %2, heads = %3, KV heads = %4, head dim = %5, d_ff = %6, V = %7, s = %8</source>
        <translation>%9，每 token %10：L = %1，h = %2，头数 = %3，KV 头数 = %4，头维度 = %5，d_ff = %6，V = %7，s = %8</translation>
    </message>
    <message>
        <source>, %1 experts (top-%2, d_expert = %3, %4 shared)</source>
        <translation>，%1 个专家（top-%2，d_expert = %3，%4 个共享）</translation>
    </message>
    <message>
        <source>2·m·n·k per matmul; per layer and token: projections 2·h·(q + 2·kv) + 2·q·h, scores 4·s·q (%1), MLP %2; head 2·h·V; backward = 2 × forward</source>
        <translation>每次矩阵乘 2·m·n·k；每层每 token：投影 2·h·(q + 2·kv) + 2·q·h，分数 4·s·q（%1），MLP %2；输出头 2·h·V；反向 = 2 × 前向</translation>
    </message>
    <message>
        <source>halved for causal counting</source>
        <translation>按因果计数减半</translation>
    </message>
    <message>
        <source>full s², the papers&apos; MFU convention</source>
        <translation>完整 s²，即论文计算 MFU 的惯例</translation>
    </message>
    <message>
        <source>Kaplan et al. 2020, Table 1; PaLM (Chowdhery et al. 2022), App. B</source>
        <translation>Kaplan et al. 2020, Table 1; PaLM (Chowdhery et al. 2022), App. B</translation>
    </message>
    <message>
        <source>Parameters (log scale)</source>
        <translation>参数量（对数刻度）</translation>
    </message>
    <message>
        <source>Share of forward FLOPs (%)</source>
        <translation>前向 FLOPs 占比 (%)</translation>
    </message>
    <message>
        <source>Attention vs MLP share across models: no valid scenario yet</source>
        <translation>各模型的注意力与 MLP 占比：尚无有效场景</translation>
    </message>
    <message>
        <source>Attention vs MLP share across models: no preset has an estimate at s = %1</source>
        <translation>各模型的注意力与 MLP 占比：s = %1 时没有可估算的预设</translation>
    </message>
    <message>
        <source>Attention vs MLP share across models (s = %1)</source>
        <translation>各模型的注意力与 MLP 占比（s = %1）</translation>
    </message>
    <message>
        <source>Attention scores</source>
        <translation>注意力分数</translation>
    </message>
    <message>
        <source>MLP (incl. experts)</source>
        <translation>MLP（含专家）</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (%2)&lt;br&gt;%3 parameters, %4 active&lt;br&gt;attention scores %5 · MLP %6 · projections %7 · head %8</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; (%2)&lt;br&gt;总参数 %3，激活参数 %4&lt;br&gt;注意力分数 %5 · MLP %6 · 投影 %7 · 输出头 %8</translation>
    </message>
    <message>
        <source>Current model</source>
        <translation>当前模型</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: attention scores %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：注意力分数 %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: MLP %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：MLP %2</translation>
    </message>
    <message>
        <source>s = %1 for all %2 built-in presets (hover a point for its name)</source>
        <translation>全部 %2 个内置预设均取 s = %1（鼠标悬停在点上可查看名称）</translation>
    </message>
    <message>
        <source>; without an estimate: %1</source>
        <translation>；无法估算：%1</translation>
    </message>
    <message>
        <source>per layer and token: attention scores 4·s·h vs GeLU MLP 16·h²; the ratio s/(4h) shrinks as models widen, so compute moves from attention to the MLP</source>
        <translation>每层每 token：注意力分数 4·s·h 对比 GeLU MLP 16·h²；比值 s/(4h) 随模型变宽而缩小，因此计算量从注意力转向 MLP</translation>
    </message>
    <message>
        <source>Kaplan et al. 2020, Table 1; PaLM (Chowdhery et al. 2022), App. B; Stanford CS336</source>
        <translation>Kaplan et al. 2020, Table 1; PaLM (Chowdhery et al. 2022), App. B; Stanford CS336</translation>
    </message>
    <message>
        <source>Sequence length (tokens, log scale)</source>
        <translation>序列长度（token，对数刻度）</translation>
    </message>
    <message>
        <source>Share vs sequence length: no valid scenario yet</source>
        <translation>占比随序列长度的变化：尚无有效场景</translation>
    </message>
    <message>
        <source>Share vs sequence length: no valid point (%1)</source>
        <translation>占比随序列长度的变化：无有效数据点（%1）</translation>
    </message>
    <message>
        <source>Shares vs sequence length</source>
        <translation>各部分占比随序列长度的变化</translation>
    </message>
    <message>
        <source>Scores</source>
        <translation>分数</translation>
    </message>
    <message>
        <source>Attention projections</source>
        <translation>注意力投影</translation>
    </message>
    <message>
        <source>%4 at s = %1: %2 of %3 forward FLOPs per token</source>
        <translation>s = %1 时，%4 占每 token 前向 FLOPs（%3）的 %2</translation>
    </message>
    <message>
        <source>Current s</source>
        <translation>当前 s</translation>
    </message>
    <message>
        <source>s = %1: attention scores %2</source>
        <translation>s = %1：注意力分数 %2</translation>
    </message>
    <message>
        <source>s = %1: MLP %2</source>
        <translation>s = %1：MLP %2</translation>
    </message>
    <message>
        <source>%1: h = %2, L = %3, heads = %4, attention FLOPs counted %5</source>
        <translation>%1：h = %2，L = %3，头数 = %4，注意力 FLOPs 计数方式：%5</translation>
    </message>
    <message>
        <source>in full</source>
        <translation>完整</translation>
    </message>
    <message>
        <source>causally</source>
        <translation>因果</translation>
    </message>
    <message numerus="yes">
        <source>; %n sequence length(s) skipped: %1</source>
        <translation>
            <numerusform>；跳过了 %n 个序列长度：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>attention-score share = 4·s·q·L / forward FLOPs per token; the rest does not depend on s</source>
        <translation>注意力分数占比 = 4·s·q·L / 每 token 前向 FLOPs；其余部分与 s 无关</translation>
    </message>
</context>
<context>
    <name>lse::gui::EnumLabels</name>
    <message>
        <source>pre-norm</source>
        <translation>前置归一化</translation>
    </message>
    <message>
        <source>post-norm</source>
        <translation>后置归一化</translation>
    </message>
    <message>
        <source>both sides (sandwich)</source>
        <translation>两侧（三明治）</translation>
    </message>
    <message>
        <source>learned</source>
        <translation>可学习</translation>
    </message>
    <message>
        <source>sinusoidal</source>
        <translation>正弦</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>BF16 mixed</source>
        <translation>BF16 混合精度</translation>
    </message>
    <message>
        <source>FP16 mixed</source>
        <translation>FP16 混合精度</translation>
    </message>
    <message>
        <source>FP8 mixed</source>
        <translation>FP8 混合精度</translation>
    </message>
    <message>
        <source>SGD with momentum</source>
        <translation>带动量的 SGD</translation>
    </message>
    <message>
        <source>8-bit Adam</source>
        <translation>8 位 Adam</translation>
    </message>
    <message>
        <source>selective</source>
        <translation>选择性</translation>
    </message>
    <message>
        <source>full</source>
        <translation>完全</translation>
    </message>
    <message>
        <source>full s²</source>
        <translation>完整 s²</translation>
    </message>
    <message>
        <source>causal (half)</source>
        <translation>因果（一半）</translation>
    </message>
    <message>
        <source>exact count</source>
        <translation>精确计数</translation>
    </message>
</context>
<context>
    <name>lse::gui::MainWindow</name>
    <message>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>新建(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Import Hugging Face config.json…</source>
        <translation>导入 Hugging Face config.json(&amp;I)…</translation>
    </message>
    <message>
        <source>Ctrl+I</source>
        <translation>Ctrl+I</translation>
    </message>
    <message>
        <source>Import config.json</source>
        <translation>导入 config.json</translation>
    </message>
    <message>
        <source>Hugging Face config (*.json)</source>
        <translation>Hugging Face 配置 (*.json)</translation>
    </message>
    <message>
        <source>Cannot import %1</source>
        <translation>无法导入 %1</translation>
    </message>
    <message>
        <source>&amp;Export Current Page…</source>
        <translation>导出当前页面(&amp;E)…</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>Export &amp;All Pages…</source>
        <translation>导出所有页面(&amp;L)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+E</source>
        <translation>Ctrl+Shift+E</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Presentation Mode</source>
        <translation>演示模式(&amp;P)</translation>
    </message>
    <message>
        <source>Scenario &amp;Editor</source>
        <translation>场景编辑器(&amp;E)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+D</source>
        <translation>Ctrl+Shift+D</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>High Contrast</source>
        <translation>高对比度</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About</source>
        <translation>关于(&amp;A)</translation>
    </message>
    <message>
        <source>About LLM Systems Explorer</source>
        <translation>关于 LLM Systems Explorer</translation>
    </message>
    <message>
        <source>&lt;h3&gt;LLM Systems Explorer %1&lt;/h3&gt;&lt;p&gt;Parameters, FLOPs, memory, time and communication of training large language models, with every formula&apos;s source.&lt;/p&gt;&lt;p&gt;Licence: GPL-3.0-or-later.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;LLM Systems Explorer %1&lt;/h3&gt;&lt;p&gt;估算大语言模型训练的参数量、FLOPs、显存、时间和通信，每个公式都注明出处。&lt;/p&gt;&lt;p&gt;许可证：GPL-3.0-or-later。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Scenario valid.</source>
        <translation>场景有效。</translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s) in the scenario; the pages show the last valid results.</source>
        <translation>
            <numerusform>场景中有 %n 个问题；各页面显示的是上一次的有效结果。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1[*] — LLM Systems Explorer</source>
        <translation>%1[*] — LLM Systems Explorer</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>%1 has unsaved changes. Save them?</source>
        <translation>%1 有未保存的更改。是否保存？</translation>
    </message>
    <message>
        <source>Cannot save %1</source>
        <translation>无法保存 %1</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Save Scenario</source>
        <translation>保存场景</translation>
    </message>
    <message>
        <source>Scenarios (*.json)</source>
        <translation>场景 (*.json)</translation>
    </message>
    <message>
        <source>Open Scenario</source>
        <translation>打开场景</translation>
    </message>
    <message>
        <source>Scenarios and Hugging Face configs (*.json)</source>
        <translation>场景和 Hugging Face 配置 (*.json)</translation>
    </message>
    <message>
        <source>Cannot open %1</source>
        <translation>无法打开 %1</translation>
    </message>
    <message>
        <source>Cannot create the folder %1</source>
        <translation>无法创建文件夹 %1</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>Export %1 to folder</source>
        <translation>将“%1”导出到文件夹</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Exported %1 to %2</source>
        <translation>已将“%1”导出到 %2</translation>
    </message>
    <message>
        <source>Export all pages to folder</source>
        <translation>将所有页面导出到文件夹</translation>
    </message>
    <message>
        <source>Exported every page to %1</source>
        <translation>已将所有页面导出到 %1</translation>
    </message>
</context>
<context>
    <name>lse::gui::MemoryPage</name>
    <message>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>Configuration</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>Memory per GPU (GB)</source>
        <translation>每 GPU 显存 (GB)</translation>
    </message>
    <message>
        <source>Memory per GPU: no valid scenario yet</source>
        <translation>每 GPU 显存：尚无有效场景</translation>
    </message>
    <message>
        <source>Memory per GPU: ZeRO stages and inference</source>
        <translation>每 GPU 显存：各 ZeRO 阶段与推理</translation>
    </message>
    <message>
        <source>ZeRO %1 (current)</source>
        <translation>ZeRO %1（当前）</translation>
    </message>
    <message>
        <source>ZeRO %1</source>
        <translation>ZeRO %1</translation>
    </message>
    <message>
        <source>Inference</source>
        <translation>推理</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Optimizer states (incl. fp32 master)</source>
        <translation>优化器状态（含 fp32 主权重）</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活</translation>
    </message>
    <message>
        <source>KV cache (inference only)</source>
        <translation>KV 缓存（仅推理）</translation>
    </message>
    <message>
        <source>Framework reserve</source>
        <translation>框架预留</translation>
    </message>
    <message>
        <source>%1&lt;br&gt;%2</source>
        <translation>%1&lt;br&gt;%2</translation>
    </message>
    <message>
        <source>Ψ = %1 parameters on this GPU</source>
        <translation>此 GPU 上 Ψ = %1 个参数</translation>
    </message>
    <message>
        <source>No estimate at ZeRO %1: %2</source>
        <translation>ZeRO %1 下无法估算：%2</translation>
    </message>
    <message>
        <source>%1·Ψ / N_d (sharded over N_d = dp·cp = %2)</source>
        <translation>%1·Ψ / N_d（在 N_d = dp·cp = %2 个 rank 上分片）</translation>
    </message>
    <message>
        <source>%1·Ψ (replicated on every data-parallel rank)</source>
        <translation>%1·Ψ（每个数据并行 rank 上各存一份）</translation>
    </message>
    <message>
        <source>; %1</source>
        <translation>；%1</translation>
    </message>
    <message>
        <source>K = %1</source>
        <translation>K = %1</translation>
    </message>
    <message>
        <source>%1 per layer × layers of stage %2 × %3 in-flight micro-batches (Korthikanti et al. 2022, Table 2, §4.2.3)</source>
        <translation>每层 %1 × 流水线阶段 %2 的层数 × %3 个在途微批次（Korthikanti et al. 2022, Table 2, §4.2.3）</translation>
    </message>
    <message>
        <source>Training keeps no KV cache</source>
        <translation>训练不保留 KV 缓存</translation>
    </message>
    <message>
        <source>Framework reserve (CUDA context, allocator slack): an input</source>
        <translation>框架预留（CUDA 上下文、分配器余量）：输入项</translation>
    </message>
    <message>
        <source>weights of the most loaded pipeline stage at %1 B per parameter, tensor-parallel matrices split over t = %2 (no gradients or optimizer states)</source>
        <translation>负载最重的流水线阶段的权重，每参数 %1 B，张量并行矩阵按 t = %2 切分（无梯度和优化器状态）</translation>
    </message>
    <message>
        <source>Inference keeps no gradients</source>
        <translation>推理不保留梯度</translation>
    </message>
    <message>
        <source>Inference keeps no optimizer states</source>
        <translation>推理不保留优化器状态</translation>
    </message>
    <message>
        <source>Inference activations are transient and not counted</source>
        <translation>推理激活是临时的，不计入</translation>
    </message>
    <message>
        <source>2 (K and V) · %1 layers / p = %2 · ⌈%3 KV heads / t = %4⌉ · %5 head dim · %6 B · b = %7 · s = %8 (Kwon et al. 2023, vLLM §3)</source>
        <translation>2（K 和 V）· %1 层 / p = %2 · ⌈%3 个 KV 头 / t = %4⌉ · 头维度 %5 · %6 B · b = %7 · s = %8（Kwon et al. 2023, vLLM §3）</translation>
    </message>
    <message>
        <source>%1 capacity: %2</source>
        <translation>%1 容量：%2</translation>
    </message>
    <message>
        <source>%13 on %14 × %15; Ψ = %1 on the busiest GPU, N_d = dp·cp = %2, bytes per parameter: %3 weights, %4 gradients, K = %5 (%6); t = %7, p = %8, s = %9, b = %10, %11 recomputation, FlashAttention %12</source>
        <translation>%13，%14 × %15；最繁忙 GPU 上 Ψ = %1，N_d = dp·cp = %2，每参数字节数：权重 %3，梯度 %4，K = %5（%6）；t = %7，p = %8，s = %9，b = %10，重计算 %11，FlashAttention %12</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开启</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>ZeRO-0 (2+2+K)Ψ · ZeRO-1 4Ψ + KΨ/N_d · ZeRO-2 2Ψ + (2+K)Ψ/N_d · ZeRO-3 (4+K)Ψ/N_d; activations per layer as in Korthikanti Table 2; inference: weights/t + KV cache 2·(L/p)·(n_kv/t)·d_head·bytes·b·s</source>
        <translation>ZeRO-0 (2+2+K)Ψ · ZeRO-1 4Ψ + KΨ/N_d · ZeRO-2 2Ψ + (2+K)Ψ/N_d · ZeRO-3 (4+K)Ψ/N_d；每层激活按 Korthikanti Table 2；推理：权重/t + KV 缓存 2·(L/p)·(n_kv/t)·d_head·bytes·b·s</translation>
    </message>
    <message>
        <source>Rajbhandari et al. 2019 (ZeRO), §3.1 and §5; Korthikanti et al. 2022, Table 2 and §4.2.3; Kwon et al. 2023 (vLLM), §3</source>
        <translation>Rajbhandari et al. 2019 (ZeRO), §3.1 and §5; Korthikanti et al. 2022, Table 2 and §4.2.3; Kwon et al. 2023 (vLLM), §3</translation>
    </message>
    <message>
        <source>Sequence length (tokens, log scale)</source>
        <translation>序列长度（token，对数刻度）</translation>
    </message>
    <message>
        <source>Activation memory per GPU (GB, log scale)</source>
        <translation>每 GPU 激活显存（GB，对数刻度）</translation>
    </message>
    <message>
        <source>Activation memory: no valid scenario yet</source>
        <translation>激活显存：尚无有效场景</translation>
    </message>
    <message>
        <source>Activation memory: no sequence length gives a valid scenario (%1)</source>
        <translation>激活显存：没有任何序列长度能构成有效场景（%1）</translation>
    </message>
    <message>
        <source>Activation memory per GPU vs sequence length</source>
        <translation>每 GPU 激活显存随序列长度的变化</translation>
    </message>
    <message>
        <source>No recomputation</source>
        <translation>不重计算</translation>
    </message>
    <message>
        <source>sbh(34 + 5as/h) per layer: the s×s scores, softmax and dropout mask are stored</source>
        <translation>每层 sbh(34 + 5as/h)：保存 s×s 分数、softmax 和 dropout 掩码</translation>
    </message>
    <message>
        <source>Selective recomputation</source>
        <translation>选择性重计算</translation>
    </message>
    <message>
        <source>34·sbh per layer (÷ t with TP+SP): the attention core is recomputed</source>
        <translation>每层 34·sbh（TP+SP 时 ÷ t）：重计算注意力核心</translation>
    </message>
    <message>
        <source>Full recomputation</source>
        <translation>完全重计算</translation>
    </message>
    <message>
        <source>2sbh per layer (its input) + one layer&apos;s activations while it is recomputed</source>
        <translation>每层 2sbh（该层输入）+ 重计算时一层的激活</translation>
    </message>
    <message>
        <source>FlashAttention, no recomputation</source>
        <translation>FlashAttention，不重计算</translation>
    </message>
    <message>
        <source>≈ 34·sbh per layer: FlashAttention never materialises the s×s scores (Dao et al. 2022)</source>
        <translation>每层 ≈ 34·sbh：FlashAttention 从不显式生成 s×s 分数矩阵（Dao et al. 2022）</translation>
    </message>
    <message>
        <source>s = %1: %2&lt;br&gt;%3</source>
        <translation>s = %1：%2&lt;br&gt;%3</translation>
    </message>
    <message>
        <source>Current scenario</source>
        <translation>当前场景</translation>
    </message>
    <message>
        <source>s = %1, %2 recomputation, FlashAttention %3: %4</source>
        <translation>s = %1，重计算 %2，FlashAttention %3：%4</translation>
    </message>
    <message>
        <source>%10: h = %1, a = %2, L = %3, b = %4, t = %5%11, p = %6, cp = %7, activations %8, dropout %9</source>
        <translation>%10：h = %1，a = %2，L = %3，b = %4，t = %5%11，p = %6，cp = %7，激活 %8，dropout %9</translation>
    </message>
    <message>
        <source> with sequence parallelism</source>
        <translation>（含序列并行）</translation>
    </message>
    <message numerus="yes">
        <source>; %n sequence length(s) skipped: %1</source>
        <translation>
            <numerusform>；跳过了 %n 个序列长度：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>; learned positions are assumed to extend beyond %1 tokens</source>
        <translation>；假定可学习位置嵌入可扩展到 %1 个 token 以上</translation>
    </message>
    <message>
        <source>per layer: none sbh(34 + 5as/h) · selective 34·sbh · full 2sbh (÷ t with tensor + sequence parallelism), × L/p layers × in-flight micro-batches; GQA, gated MLPs and MoE change the 34</source>
        <translation>每层：不重计算 sbh(34 + 5as/h) · 选择性 34·sbh · 完全 2sbh（张量 + 序列并行时 ÷ t），× L/p 层 × 在途微批次数；GQA、门控 MLP 和 MoE 会改变系数 34</translation>
    </message>
    <message>
        <source>Korthikanti et al. 2022, Table 2 and §4.2.3; Dao et al. 2022 (FlashAttention)</source>
        <translation>Korthikanti et al. 2022, Table 2 and §4.2.3; Dao et al. 2022 (FlashAttention)</translation>
    </message>
</context>
<context>
    <name>lse::gui::OverviewPage</name>
    <message>
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <source>Sparse vs dense peak</source>
        <translation>稀疏峰值与稠密峰值</translation>
    </message>
    <message>
        <source>No valid scenario yet</source>
        <translation>尚无有效场景</translation>
    </message>
    <message>
        <source>Parameters (total)</source>
        <translation>总参数量</translation>
    </message>
    <message>
        <source>Active parameters per token</source>
        <translation>每 token 激活参数量</translation>
    </message>
    <message>
        <source>Training compute</source>
        <translation>训练计算量</translation>
    </message>
    <message>
        <source>Training time</source>
        <translation>训练时间</translation>
    </message>
    <message>
        <source>GPU-hours</source>
        <translation>GPU 小时</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>成本</translation>
    </message>
    <message>
        <source>Memory per GPU</source>
        <translation>每 GPU 显存</translation>
    </message>
    <message>
        <source>Fix the problems marked in the scenario editor to see the estimate.</source>
        <translation>请修正场景编辑器中标出的问题，以查看估算结果。</translation>
    </message>
    <message>
        <source>%1 — %2 × %3, %4 tokens</source>
        <translation>%1 — %2 × %3，%4 token</translation>
    </message>
    <message>
        <source>L = %1, h = %2, heads = %3 (KV heads %4, head dim %5), d_ff = %6, V = %7</source>
        <translation>L = %1，h = %2，头数 = %3（KV 头数 %4，头维度 %5），d_ff = %6，V = %7</translation>
    </message>
    <message>
        <source>; %1 routed experts (top-%2) of d_ff %3, %4 shared</source>
        <translation>；%1 个路由专家（top-%2），d_ff 为 %3，%4 个共享专家</translation>
    </message>
    <message>
        <source>%1 exactly</source>
        <translation>精确值 %1</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数量</translation>
    </message>
    <message>
        <source>Σ elements of every weight and bias tensor (embedding, attention, MLP or experts, norms, head); for a GPT-style model ≈ 12·L·h²·(1 + 13/(12h) + (V+s)/(12·L·h))</source>
        <translation>Σ 所有权重与偏置张量的元素数（嵌入、注意力、MLP 或专家、归一化、输出头）；GPT 类模型 ≈ 12·L·h²·(1 + 13/(12h) + (V+s)/(12·L·h))</translation>
    </message>
    <message>
        <source>Exact count from the model&apos;s tensor list (reproduces the model cards); the approximation is Narayanan et al. 2021, Eq. 2</source>
        <translation>根据模型的张量列表精确计数（与模型卡一致）；近似公式见 Narayanan et al. 2021, Eq. 2</translation>
    </message>
    <message>
        <source>top-%1 of %2 experts per token</source>
        <translation>每 token 使用 %2 个专家中的 top-%1</translation>
    </message>
    <message>
        <source>dense model: every parameter is used for every token</source>
        <translation>稠密模型：每个 token 都用到全部参数</translation>
    </message>
    <message>
        <source>Active parameters</source>
        <translation>激活参数量</translation>
    </message>
    <message>
        <source>total − routed expert weights × (1 − top_k / n_experts)</source>
        <translation>总数 − 路由专家权重 × (1 − top_k / n_experts)</translation>
    </message>
    <message>
        <source>Mixture-of-experts routing: Shazeer et al. 2017; Fedus et al. 2022 (Switch Transformer)</source>
        <translation>混合专家 (MoE) 路由：Shazeer et al. 2017; Fedus et al. 2022 (Switch Transformer)</translation>
    </message>
    <message>
        <source>FLOP</source>
        <translation>FLOP</translation>
    </message>
    <message>
        <source>= %1 FLOP · 6ND: %2 FLOP (exact / 6ND = %3×) · time uses %4</source>
        <translation>= %1 FLOP · 6ND：%2 FLOP（精确 / 6ND = %3×）· 计时依据：%4</translation>
    </message>
    <message>
        <source>6ND</source>
        <translation>6ND</translation>
    </message>
    <message>
        <source>the exact count</source>
        <translation>精确计数</translation>
    </message>
    <message>
        <source>Training FLOPs</source>
        <translation>训练 FLOPs</translation>
    </message>
    <message>
        <source>N = %1 active parameters, D = %2 tokens, s = %3, attention scores counted %4</source>
        <translation>N = %1 个激活参数，D = %2 个 token，s = %3，注意力分数计数方式：%4</translation>
    </message>
    <message>
        <source>in full (s²)</source>
        <translation>完整 (s²)</translation>
    </message>
    <message>
        <source>causally (s²/2)</source>
        <translation>因果 (s²/2)</translation>
    </message>
    <message>
        <source>exact = D × (forward + backward) matmul FLOPs per token, 2·m·n·k per matmul, backward = 2 × forward = %1 FLOP per token; 6ND = 6 · N · D</source>
        <translation>精确值 = D × 每 token（前向 + 反向）矩阵乘 FLOPs，每次矩阵乘 2·m·n·k，反向 = 2 × 前向，合计每 token %1 FLOP；6ND = 6 · N · D</translation>
    </message>
    <message>
        <source>Kaplan et al. 2020, Table 1 (6ND); PaLM (Chowdhery et al. 2022), App. B; Korthikanti et al. 2022, App. A</source>
        <translation>Kaplan et al. 2020, Table 1 (6ND); PaLM (Chowdhery et al. 2022), App. B; Korthikanti et al. 2022, App. A</translation>
    </message>
    <message>
        <source>override</source>
        <translation>覆盖值</translation>
    </message>
    <message>
        <source>dense %1</source>
        <translation>稠密 %1</translation>
    </message>
    <message>
        <source>C = %1 (%2), N_gpu = %3, peak = %4 per GPU (%5), MFU = %6</source>
        <translation>C = %1（%2），N_gpu = %3，每 GPU 峰值 = %4（%5），MFU = %6</translation>
    </message>
    <message>
        <source>exact</source>
        <translation>精确</translation>
    </message>
    <message>
        <source>FLOP/s</source>
        <translation>FLOP/s</translation>
    </message>
    <message>
        <source>MFU as defined by PaLM (Chowdhery et al. 2022), App. B; peak: %1</source>
        <translation>MFU 定义见 PaLM (Chowdhery et al. 2022), App. B；峰值：%1</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 天</translation>
    </message>
    <message>
        <source>N_gpu = %1, MFU %2, peak %3 (%4)</source>
        <translation>N_gpu = %1，MFU %2，峰值 %3（%4）</translation>
    </message>
    <message>
        <source>days = C / (N_gpu · peak · MFU) / 86,400 s</source>
        <translation>天数 = C / (N_gpu · 峰值 · MFU) / 86,400 s</translation>
    </message>
    <message>
        <source>%1 GPU-hours exactly</source>
        <translation>精确值 %1 GPU 小时</translation>
    </message>
    <message>
        <source>%1 GPU-hours</source>
        <translation>%1 GPU 小时</translation>
    </message>
    <message>
        <source>GPU-hours = N_gpu · C / (N_gpu · peak · MFU) / 3,600 s</source>
        <translation>GPU 小时 = N_gpu · C / (N_gpu · 峰值 · MFU) / 3,600 s</translation>
    </message>
    <message>
        <source>at %1 per GPU-hour (in your currency)</source>
        <translation>每 GPU 小时 %1（货币单位自定）</translation>
    </message>
    <message>
        <source>%1 GPU-hours, price %2 per GPU-hour</source>
        <translation>%1 GPU 小时，单价每 GPU 小时 %2</translation>
    </message>
    <message>
        <source>cost = GPU-hours × price per GPU-hour</source>
        <translation>成本 = GPU 小时 × 每 GPU 小时单价</translation>
    </message>
    <message>
        <source>The price is an input of the scenario</source>
        <translation>单价是场景的一项输入</translation>
    </message>
    <message>
        <source>weights %1 · gradients %2 · optimizer %3 · activations %4 · reserve %5 — ZeRO %6, pipeline stage %7</source>
        <translation>权重 %1 · 梯度 %2 · 优化器 %3 · 激活 %4 · 预留 %5 — ZeRO %6，流水线阶段 %7</translation>
    </message>
    <message>
        <source>Memory per GPU (most loaded GPU) vs capacity</source>
        <translation>每 GPU 显存（负载最重的 GPU）与容量</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Ψ on this GPU = %1 parameters, ZeRO stage %2 over N_d = dp·cp = %3, %4 recomputation, FlashAttention %5, %6 in-flight micro-batches</source>
        <translation>此 GPU 上 Ψ = %1 个参数，ZeRO 阶段 %2，N_d = dp·cp = %3，重计算 %4，FlashAttention %5，在途微批次 %6</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开启</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>weights + gradients + optimizer states (ZeRO-0: (2 + 2 + K)Ψ; ZeRO-1: 4Ψ + KΨ/N_d; ZeRO-2: 2Ψ + (2 + K)Ψ/N_d; ZeRO-3: (4 + K)Ψ/N_d) + activations (per layer Korthikanti Table 2, × layers per stage × in-flight micro-batches) + framework reserve ≤ capacity</source>
        <translation>权重 + 梯度 + 优化器状态（ZeRO-0: (2 + 2 + K)Ψ; ZeRO-1: 4Ψ + KΨ/N_d; ZeRO-2: 2Ψ + (2 + K)Ψ/N_d; ZeRO-3: (4 + K)Ψ/N_d）+ 激活（每层按 Korthikanti Table 2，× 每阶段层数 × 在途微批次数）+ 框架预留 ≤ 容量</translation>
    </message>
    <message>
        <source>Rajbhandari et al. 2019 (ZeRO) §3.1, §5; Korthikanti et al. 2022, Table 2 and §4.2.3</source>
        <translation>Rajbhandari et al. 2019 (ZeRO) §3.1, §5; Korthikanti et al. 2022, Table 2 and §4.2.3</translation>
    </message>
    <message>
        <source>FITS</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>DOES NOT FIT</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>The run fits in GPU memory</source>
        <translation>该训练任务能放入 GPU 显存</translation>
    </message>
    <message>
        <source>The run does not fit in GPU memory</source>
        <translation>该训练任务无法放入 GPU 显存</translation>
    </message>
    <message>
        <source>%1 is a mixture-of-experts model with %2 parameters, of which %3 are used for each token.</source>
        <translation>%1 是混合专家 (MoE) 模型，共 %2 参数，每个 token 使用其中 %3。</translation>
    </message>
    <message>
        <source>%1 is a dense model with %2 parameters.</source>
        <translation>%1 是稠密模型，共 %2 参数。</translation>
    </message>
    <message>
        <source>Training it on %1 tokens takes %2, which at %3 MFU on %4 × %5 is about %6 days (%7 GPU-hours, costing %8).</source>
        <translation>用 %1 token 训练它需要 %2 的计算量，在 %4 × %5 上以 %3 的 MFU 计算约需 %6 天（%7 GPU 小时，成本 %8）。</translation>
    </message>
    <message>
        <source>The most loaded GPU needs %1 of its %2, so the run fits in memory.</source>
        <translation>负载最重的 GPU 需要 %1（共 %2），因此显存放得下。</translation>
    </message>
    <message>
        <source>The most loaded GPU would need %1 but has %2, so the run does not fit: raise the ZeRO stage, tensor or pipeline parallelism, use recomputation or a smaller micro-batch.</source>
        <translation>负载最重的 GPU 需要 %1，但只有 %2，因此放不下：请提高 ZeRO 阶段、张量并行度或流水线并行度，启用重计算，或减小微批次。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 days&lt;/b&gt;</source>
        <translation>&lt;b&gt;%1 天&lt;/b&gt;</translation>
    </message>
    <message>
        <source>This estimate uses a peak override of %1 per GPU: %2.</source>
        <translation>此估算使用每 GPU %1 的峰值覆盖值：%2。</translation>
    </message>
    <message>
        <source>This estimate uses the dense %1 peak of %2 per GPU: %3.</source>
        <translation>此估算使用每 GPU %2 的稠密 %1 峰值：%3。</translation>
    </message>
    <message>
        <source>At the catalog&apos;s dense %1 peak of %2 the same run takes %3.</source>
        <translation>按硬件目录中 %2 的稠密 %1 峰值，同样的训练需要 %3。</translation>
    </message>
    <message>
        <source>The headline tensor figure on the %1 datasheet, %2, is for 2:4 structured sparsity, twice the dense rate; at that figure the run would take %3 — a speed dense training never reaches.</source>
        <translation>%1 数据手册上的标称张量算力 %2 是 2:4 结构化稀疏下的数值，为稠密速率的两倍；按此数值训练只需 %3——这是稠密训练永远达不到的速度。</translation>
    </message>
    <message>
        <source>%1&apos;s vendor quotes 2:4-sparse tensor figures at twice the dense rate (assumed here: %2); at that figure the run would take %3 — a speed dense training never reaches.</source>
        <translation>%1 的厂商按稠密速率的两倍给出 2:4 稀疏张量算力（此处假定为 %2）；按此数值训练只需 %3——这是稠密训练永远达不到的速度。</translation>
    </message>
    <message>
        <source>Counting C = 6ND instead, as the course does, the sparse headline gives %1.</source>
        <translation>若像课程那样改用 C = 6ND，按稀疏标称值计算得到 %1。</translation>
    </message>
    <message>
        <source>%1 publishes no 2:4-sparse headline figure, so there is no sparse figure to confuse with the dense peak.</source>
        <translation>%1 未公布 2:4 稀疏标称算力，因此不存在会与稠密峰值混淆的稀疏数值。</translation>
    </message>
    <message>
        <source>The course example&apos;s 119 days assumed 2 PFLOP/s per H100 (the sparse headline); at the dense BF16 peak of 989 TFLOP/s the same run takes about twice as long.</source>
        <translation>课程示例中的 119 天假定每块 H100 为 2 PFLOP/s（稀疏标称值）；按 989 TFLOP/s 的稠密 BF16 峰值，同样的训练约需两倍时间。</translation>
    </message>
    <message>
        <source>dense peak %1, sparse headline %2, MFU %3</source>
        <translation>稠密峰值 %1，稀疏标称值 %2，MFU %3</translation>
    </message>
    <message>
        <source>days = C / (N_gpu · peak · MFU) / 86,400 s; sparse headline = 2 × dense</source>
        <translation>天数 = C / (N_gpu · 峰值 · MFU) / 86,400 s；稀疏标称值 = 2 × 稠密峰值</translation>
    </message>
    <message>
        <source>NVIDIA A100 Tensor Core GPU Architecture whitepaper (fine-grained structured sparsity); %1</source>
        <translation>NVIDIA A100 Tensor Core GPU Architecture 白皮书（细粒度结构化稀疏）；%1</translation>
    </message>
</context>
<context>
    <name>lse::gui::ReferenceRunPage</name>
    <message>
        <source>Choose a text file</source>
        <translation>选择文本文件</translation>
    </message>
    <message>
        <source>Text files (*.txt *.md);;All files (*)</source>
        <translation>文本文件 (*.txt *.md);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Reference run</source>
        <translation>参考训练</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 layers, d_model %2, %3 heads (head dim %4), d_ff %5, context %6, batch %7 · %8 parameters at vocabulary %9</source>
        <translation>%1 层，d_model %2，%3 个注意力头（头维度 %4），d_ff %5，上下文 %6，批大小 %7 · 词表为 %9 时共 %8 个参数</translation>
    </message>
    <message>
        <source>Parameter count from the cost engine (core/cost/parameters): embeddings, attention, feed-forward, norms and LM head. The vocabulary is the BPE&apos;s, trained on the chosen text at Start.</source>
        <translation>参数量来自成本引擎（core/cost/parameters）：嵌入、注意力、前馈、归一化和 LM 输出头。词表大小取自开始时在所选文本上训练的 BPE。</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>The text is empty.</source>
        <translation>文本为空。</translation>
    </message>
    <message>
        <source>Cannot create a temporary folder: %1</source>
        <translation>无法创建临时文件夹：%1</translation>
    </message>
    <message>
        <source>Measuring this machine (%1 of %2): %3</source>
        <translation>正在测量本机（第 %1 步，共 %2 步）：%3</translation>
    </message>
    <message>
        <source>Generation failed: %1</source>
        <translation>生成失败：%1</translation>
    </message>
    <message>
        <source>Training and validation loss</source>
        <translation>训练损失与验证损失</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Loss (nats/token)</source>
        <translation>损失（nats/token）</translation>
    </message>
    <message>
        <source>Training loss (batch)</source>
        <translation>训练损失（批次）</translation>
    </message>
    <message>
        <source>Validation loss</source>
        <translation>验证损失</translation>
    </message>
    <message>
        <source>ln V = %1 (uniform guess)</source>
        <translation>ln V = %1（均匀猜测）</translation>
    </message>
    <message>
        <source>batch %1 × context %2 tokens per step, vocabulary %3</source>
        <translation>每步 批大小 %1 × 上下文 %2 个 token，词表 %3</translation>
    </message>
    <message>
        <source>loss = mean over the batch of −ln softmax(logits)[next token]; validation: mean over fixed windows of the held-out last 10% of the tokens</source>
        <translation>损失 = 批次内 −ln softmax(logits)[下一个 token] 的平均值；验证：在留出的最后 10% token 的固定窗口上取平均</translation>
    </message>
    <message>
        <source>Reference trainer (core/reference/trainer), CS336 assignment 1</source>
        <translation>参考训练器（core/reference/trainer），CS336 作业 1</translation>
    </message>
    <message>
        <source>Time per op in one training step</source>
        <translation>一个训练步中各算子的耗时</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Time (ms)</source>
        <translation>时间（毫秒）</translation>
    </message>
    <message>
        <source>Forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>Backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 (%2)&lt;/b&gt;&lt;br&gt;%3 ms, %4 of the step&apos;s op time&lt;br&gt;%5 in %6 calls%7</source>
        <translation>&lt;b&gt;%1（%2）&lt;/b&gt;&lt;br&gt;%3 毫秒，占该步算子时间的 %4&lt;br&gt;%6 次调用共 %5%7</translation>
    </message>
    <message>
        <source> (matmul)</source>
        <translation>（矩阵乘法）</translation>
    </message>
    <message>
        <source>%1 ops, %2 ms in total</source>
        <translation>%1 个算子，共 %2 毫秒</translation>
    </message>
    <message>
        <source>Wall time of each op&apos;s calls in the last training step without validation, measured with a steady clock around every forward and backward op</source>
        <translation>最近一个训练步（不含验证）中每个算子调用的实际耗时，用单调时钟包住每个前向和反向算子测得</translation>
    </message>
    <message>
        <source>Op profiler (core/reference/op_profiler); op names are the cost engine&apos;s</source>
        <translation>算子分析器（core/reference/op_profiler）；算子名称与成本引擎一致</translation>
    </message>
    <message>
        <source>FLOPs per step (matmuls)</source>
        <translation>每步 FLOPs（矩阵乘法）</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>Saved activations</source>
        <translation>保存的激活</translation>
    </message>
    <message>
        <source>Workspace (scratch)</source>
        <translation>工作区（临时缓冲）</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>每步时间</translation>
    </message>
    <message>
        <source>batch %1, sequence %2, fp32, AdamW</source>
        <translation>批大小 %1，序列长度 %2，fp32，AdamW</translation>
    </message>
    <message>
        <source>(measured − predicted) / predicted</source>
        <translation>（实测 − 预测）/ 预测</translation>
    </message>
    <message>
        <source>Cost engine: (forward + backward) matmul FLOPs per token × tokens per step, 2·m·n·k per product, backward = 2 × forward, full s² attention products (%1).</source>
        <translation>成本引擎：每 token（前向 + 反向）矩阵乘法 FLOPs × 每步 token 数，每个乘积 2·m·n·k，反向 = 2 × 前向，注意力乘积按完整 s² 计（%1）。</translation>
    </message>
    <message>
        <source>Op profiler: sum of the matmul FLOPs every forward and backward op of the last training step counted from its actual dimensions.</source>
        <translation>算子分析器：最近一个训练步中每个前向和反向算子按实际维度计数的矩阵乘法 FLOPs 之和。</translation>
    </message>
    <message>
        <source>Cost engine: parameters × 4 bytes (fp32 weights).</source>
        <translation>成本引擎：参数量 × 4 字节（fp32 权重）。</translation>
    </message>
    <message>
        <source>Reference model: size of the parameter arena.</source>
        <translation>参考模型：参数内存区的大小。</translation>
    </message>
    <message>
        <source>Cost engine: parameters × 4 bytes (fp32 gradients).</source>
        <translation>成本引擎：参数量 × 4 字节（fp32 梯度）。</translation>
    </message>
    <message>
        <source>Reference model: size of the gradient arena (same layout as the parameters).</source>
        <translation>参考模型：梯度内存区的大小（布局与参数相同）。</translation>
    </message>
    <message>
        <source>Cost engine: AdamW&apos;s two moments, 8 bytes per parameter, no master copy in fp32.</source>
        <translation>成本引擎：AdamW 的两个矩估计，每个参数 8 字节，fp32 下没有主权重副本。</translation>
    </message>
    <message>
        <source>Trainer: bytes of AdamW&apos;s first and second moments.</source>
        <translation>训练器：AdamW 一阶和二阶矩占用的字节数。</translation>
    </message>
    <message>
        <source>Cost engine: saved activations per layer × layers (Korthikanti et al. 2022, Table 2, fp32, no recomputation, attention probabilities kept) plus the head.</source>
        <translation>成本引擎：每层保存的激活 × 层数（Korthikanti 等 2022，表 2；fp32，无重计算，保留注意力概率）再加上输出头。</translation>
    </message>
    <message>
        <source>Reference model: buffers saved for the backward pass (per-layer buffers, final norm, logits).</source>
        <translation>参考模型：为反向传播保存的缓冲区（各层缓冲区、最终归一化、logits）。</translation>
    </message>
    <message>
        <source>The cost engine does not model scratch buffers.</source>
        <translation>成本引擎不对临时缓冲区建模。</translation>
    </message>
    <message>
        <source>Reference model: backward scratch and the attention probability gradient.</source>
        <translation>参考模型：反向传播的临时缓冲区和注意力概率的梯度。</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <source>Cost engine: FLOPs per step / (measured peak × MFU of the last step)%1.</source>
        <translation>成本引擎：每步 FLOPs /（实测峰值 × 最近一步的 MFU）%1。</translation>
    </message>
    <message>
        <source>; needs the measured peak</source>
        <translation>；需要实测峰值</translation>
    </message>
    <message>
        <source>Trainer: wall time of forward + backward + optimizer of the last step.</source>
        <translation>训练器：最近一步前向 + 反向 + 优化器的实际耗时。</translation>
    </message>
    <message>
        <source>Model: %1 parameters, %2 tokens from %3 bytes of text (BPE in %4 s).</source>
        <translation>模型：%1 个参数；%3 字节文本编码为 %2 个 token（BPE 用时 %4 秒）。</translation>
    </message>
    <message>
        <source>Press Start to tokenize the text and train the model.</source>
        <translation>按“开始”对文本分词并训练模型。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Step %1 of %2&lt;/b&gt; · loss %3</source>
        <translation>&lt;b&gt;第 %1 步，共 %2 步&lt;/b&gt; · 损失 %3</translation>
    </message>
    <message>
        <source> · validation %1</source>
        <translation> · 验证 %1</translation>
    </message>
    <message>
        <source> · %1 tokens/s · step %2 ms · %3 · lr %4</source>
        <translation> · %1 token/秒 · 每步 %2 毫秒 · %3 · 学习率 %4</translation>
    </message>
    <message>
        <source> · MFU %1</source>
        <translation> · MFU %1</translation>
    </message>
    <message>
        <source> · MFU: no measured peak</source>
        <translation> · MFU：无实测峰值</translation>
    </message>
    <message>
        <source>Train a real decoder-only transformer on this CPU (Eigen, float32, hand-written backward pass) and check the cost engine against it: the same model, batch and sequence length predicted and measured side by side. Pick a preset and a text, press Start; the page stays responsive while a worker thread trains.</source>
        <translation>在本机 CPU 上训练一个真正的仅解码器 Transformer（Eigen，float32，手写反向传播），并用它检验成本引擎：同一模型、批大小和序列长度的预测值与实测值并排显示。选择预设和文本后按“开始”；训练在工作线程中进行，页面始终保持响应。</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Preset:</source>
        <translation>预设：</translation>
    </message>
    <message>
        <source>Small training configurations (TrainConfig JSON) compiled into the app.</source>
        <translation>编译进应用的小型训练配置（TrainConfig JSON）。</translation>
    </message>
    <message>
        <source>Text:</source>
        <translation>文本：</translation>
    </message>
    <message>
        <source>Built-in sample (short stories)</source>
        <translation>内置示例（短篇故事）</translation>
    </message>
    <message>
        <source>The training text: a bundled sample or a file you choose. The last 10% of its tokens are held out for the validation loss.</source>
        <translation>训练文本：内置示例或你选择的文件。其最后 10% 的 token 留出用于计算验证损失。</translation>
    </message>
    <message>
        <source>Choose file…</source>
        <translation>选择文件…</translation>
    </message>
    <message>
        <source>BPE vocabulary:</source>
        <translation>BPE 词表：</translation>
    </message>
    <message>
        <source>A byte-level BPE with this many tokens (256 bytes + &lt;|endoftext|&gt; + merges) is trained on the text at Start. A small vocabulary keeps the LM head small.</source>
        <translation>开始时在文本上训练一个含这么多 token 的字节级 BPE（256 个字节 + &lt;|endoftext|&gt; + 合并）。词表小，LM 输出头也小。</translation>
    </message>
    <message>
        <source>Steps:</source>
        <translation>步数：</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Measuring…</source>
        <translation>正在测量…</translation>
    </message>
    <message>
        <source>Measure this machine</source>
        <translation>测量本机</translation>
    </message>
    <message>
        <source>Runs Eigen SGEMM on large square matrices and a STREAM triad in the worker (a few seconds) and caches the result for MFU.</source>
        <translation>在工作线程中对大方阵运行 Eigen SGEMM 和 STREAM triad（需几秒），并缓存结果用于计算 MFU。</translation>
    </message>
    <message>
        <source>Measured peak of this machine: %1 (SGEMM, all cores, cached); MFU is reported against it.</source>
        <translation>本机实测峰值：%1（SGEMM，全部核心，已缓存）；MFU 以此为基准。</translation>
    </message>
    <message>
        <source>No measured peak of this machine is cached, so MFU is not reported. Measure it once (applies from the next Start).</source>
        <translation>没有缓存本机的实测峰值，因此不报告 MFU。请测量一次（从下一次“开始”起生效）。</translation>
    </message>
    <message>
        <source>Ready.</source>
        <translation>就绪。</translation>
    </message>
    <message>
        <source>Training the BPE, encoding the text and building the model…</source>
        <translation>正在训练 BPE、编码文本并构建模型…</translation>
    </message>
    <message>
        <source>Training…</source>
        <translation>正在训练…</translation>
    </message>
    <message>
        <source>Paused: generate, or resume training.</source>
        <translation>已暂停：可以生成文本，或继续训练。</translation>
    </message>
    <message>
        <source>Finished all steps.</source>
        <translation>已完成全部步数。</translation>
    </message>
    <message>
        <source>Stopped. The model stays for generation; Start begins a new run.</source>
        <translation>已停止。模型保留用于生成；“开始”会启动新的训练。</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>Predicted (cost engine) vs measured (this run), for the same model, batch and sequence length. Hover a cell for its formula or source.</source>
        <translation>同一模型、批大小和序列长度下的预测值（成本引擎）与实测值（本次运行）。将鼠标悬停在单元格上可查看公式或来源。</translation>
    </message>
    <message>
        <source>Quantity</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Predicted</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>Difference</source>
        <translation>差异</translation>
    </message>
    <message>
        <source>Generate</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>Prompt:</source>
        <translation>提示词：</translation>
    </message>
    <message>
        <source>Max tokens:</source>
        <translation>最多 token：</translation>
    </message>
    <message>
        <source>Temperature:</source>
        <translation>温度：</translation>
    </message>
    <message>
        <source>Divides the logits before softmax; 0 is greedy.</source>
        <translation>在 softmax 之前用它除 logits；0 表示贪心解码。</translation>
    </message>
    <message>
        <source>Top-k:</source>
        <translation>Top-k：</translation>
    </message>
    <message>
        <source>Sample only among the k most likely tokens; 0 is off.</source>
        <translation>只在概率最高的 k 个 token 中采样；0 表示关闭。</translation>
    </message>
    <message>
        <source>Samples from the current model with its KV cache, between training steps or when paused or stopped; text is decoded with the run&apos;s BPE.</source>
        <translation>用当前模型（带 KV 缓存）采样，可在训练步之间、暂停或停止时进行；文本用本次运行的 BPE 解码。</translation>
    </message>
    <message>
        <source>Generated text appears here as tokens arrive.</source>
        <translation>生成的文本会随 token 逐个出现在这里。</translation>
    </message>
</context>
<context>
    <name>lse::gui::ScenarioDocument</name>
    <message>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>Import %1</source>
        <translation>导入 %1</translation>
    </message>
</context>
<context>
    <name>lse::gui::ScenarioEditor</name>
    <message>
        <source>Change %1</source>
        <translation>修改“%1”</translation>
    </message>
    <message>
        <source>e.g. 15T, 300B, 4096</source>
        <translation>例如 15T、300B、4096</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; is not a whole number (examples: 4096, 15e12, 15T, 300B)</source>
        <translation>%1：“%2”不是整数（示例：4096、15e12、15T、300B）</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <source>Load a published architecture; every field below stays editable.</source>
        <translation>加载已发布的模型架构；下方所有字段仍可编辑。</translation>
    </message>
    <message>
        <source>Load preset %1</source>
        <translation>加载预设 %1</translation>
    </message>
    <message>
        <source>Preset</source>
        <translation>预设</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>Transformer blocks (L).</source>
        <translation>Transformer 块数 (L)。</translation>
    </message>
    <message>
        <source>d_model</source>
        <translation>d_model</translation>
    </message>
    <message>
        <source>Hidden size h: the width of the residual stream.</source>
        <translation>隐藏维度 h：残差流的宽度。</translation>
    </message>
    <message>
        <source>Heads</source>
        <translation>头数</translation>
    </message>
    <message>
        <source>Query heads a.</source>
        <translation>查询头数 a。</translation>
    </message>
    <message>
        <source>KV heads</source>
        <translation>KV 头数</translation>
    </message>
    <message>
        <source>Key/value heads: equal to heads for MHA, 1 for MQA, in between for GQA.</source>
        <translation>键/值头数：MHA 等于头数，MQA 为 1，GQA 介于两者之间。</translation>
    </message>
    <message>
        <source>Head dim</source>
        <translation>头维度</translation>
    </message>
    <message>
        <source>Dimension of one attention head (usually d_model / heads).</source>
        <translation>单个注意力头的维度（通常为 d_model / 头数）。</translation>
    </message>
    <message>
        <source>d_ff</source>
        <translation>d_ff</translation>
    </message>
    <message>
        <source>Hidden size of the feed-forward layers.</source>
        <translation>前馈网络 (MLP) 的隐藏维度。</translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation>词表</translation>
    </message>
    <message>
        <source>Vocabulary size V (embedding and head rows).</source>
        <translation>词表大小 V（嵌入矩阵和输出头的行数）。</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>上下文长度</translation>
    </message>
    <message>
        <source>Maximum sequence length (learned position embeddings count it).</source>
        <translation>最大序列长度（可学习位置嵌入的参数量与之相关）。</translation>
    </message>
    <message>
        <source>Tied embeddings</source>
        <translation>共享嵌入</translation>
    </message>
    <message>
        <source>The LM head reuses the token embedding matrix.</source>
        <translation>LM 输出头复用 token 嵌入矩阵。</translation>
    </message>
    <message>
        <source>Q/K/V bias</source>
        <translation>Q/K/V 偏置</translation>
    </message>
    <message>
        <source>Bias vectors on the Q, K and V projections.</source>
        <translation>Q、K、V 投影上的偏置向量。</translation>
    </message>
    <message>
        <source>Output bias</source>
        <translation>输出偏置</translation>
    </message>
    <message>
        <source>Bias on the attention output projection.</source>
        <translation>注意力输出投影上的偏置。</translation>
    </message>
    <message>
        <source>MLP biases</source>
        <translation>MLP 偏置</translation>
    </message>
    <message>
        <source>Biases on the feed-forward matrices.</source>
        <translation>前馈网络矩阵上的偏置。</translation>
    </message>
    <message>
        <source>Norm</source>
        <translation>归一化</translation>
    </message>
    <message>
        <source>LayerNorm has a gain and a bias; RMSNorm only a gain.</source>
        <translation>LayerNorm 有增益和偏置；RMSNorm 只有增益。</translation>
    </message>
    <message>
        <source>Norm placement</source>
        <translation>归一化位置</translation>
    </message>
    <message>
        <source>Pre-norm, post-norm, or norms on both sides of each sub-block (Gemma 2).</source>
        <translation>前置归一化 (pre)、后置归一化 (post)，或在每个子块两侧都归一化（Gemma 2）。</translation>
    </message>
    <message>
        <source>Activation</source>
        <translation>激活函数</translation>
    </message>
    <message>
        <source>Gated activations (SwiGLU, GeGLU) use three d_model x d_ff matrices.</source>
        <translation>门控激活（SwiGLU、GeGLU）使用三个 d_model x d_ff 矩阵。</translation>
    </message>
    <message>
        <source>Positions</source>
        <translation>位置编码</translation>
    </message>
    <message>
        <source>Learned position embeddings add max_seq_len x d_model parameters.</source>
        <translation>可学习位置嵌入会增加 max_seq_len x d_model 个参数。</translation>
    </message>
    <message>
        <source>Parallel block</source>
        <translation>并行块</translation>
    </message>
    <message>
        <source>Attention and MLP read the same input (GPT-J, PaLM).</source>
        <translation>注意力和 MLP 读取相同的输入（GPT-J、PaLM）。</translation>
    </message>
    <message>
        <source>Experts</source>
        <translation>专家数</translation>
    </message>
    <message>
        <source>Routed experts per MoE layer (0: dense model).</source>
        <translation>每个 MoE 层的路由专家数（0：稠密模型）。</translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <source>Experts each token visits.</source>
        <translation>每个 token 经过的专家数。</translation>
    </message>
    <message>
        <source>Shared experts</source>
        <translation>共享专家数</translation>
    </message>
    <message>
        <source>Experts every token visits.</source>
        <translation>每个 token 都会经过的专家数。</translation>
    </message>
    <message>
        <source>Expert d_ff</source>
        <translation>专家 d_ff</translation>
    </message>
    <message>
        <source>Hidden size of one routed expert.</source>
        <translation>单个路由专家的隐藏维度。</translation>
    </message>
    <message>
        <source>First MoE layer</source>
        <translation>首个 MoE 层</translation>
    </message>
    <message>
        <source>Layers before it are dense.</source>
        <translation>在它之前的层都是稠密层。</translation>
    </message>
    <message>
        <source>MoE interval</source>
        <translation>MoE 间隔</translation>
    </message>
    <message>
        <source>Every n-th layer from the first MoE layer is an MoE layer.</source>
        <translation>从首个 MoE 层开始，每 n 层中有一层是 MoE 层。</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>Accelerator from the catalog (dense peaks, memory, links; datasheet in each entry).</source>
        <translation>从硬件目录选择加速器（稠密峰值、显存、互连；每项都附数据手册）。</translation>
    </message>
    <message>
        <source>Change GPU</source>
        <translation>更换 GPU</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>Total accelerators; dp·tp·pp·cp must equal it.</source>
        <translation>加速器总数；dp·tp·pp·cp 必须等于它。</translation>
    </message>
    <message>
        <source>GPUs per node</source>
        <translation>每节点 GPU 数</translation>
    </message>
    <message>
        <source>Groups larger than a node talk over the network.</source>
        <translation>超出单个节点的通信组经网络通信。</translation>
    </message>
    <message>
        <source>Peak override</source>
        <translation>峰值覆盖</translation>
    </message>
    <message>
        <source>Replaces the catalog&apos;s dense peak (0: use the catalog). The course&apos;s 119-day example assumed 2000 TFLOP/s per H100, the sparse headline figure.</source>
        <translation>替代硬件目录中的稠密峰值（0：使用目录值）。课程中 119 天的示例假定每块 H100 为 2000 TFLOP/s，即稀疏标称值。</translation>
    </message>
    <message>
        <source> TFLOP/s</source>
        <translation> TFLOP/s</translation>
    </message>
    <message>
        <source>Intra-node link</source>
        <translation>节点内互连</translation>
    </message>
    <message>
        <source>Unidirectional bandwidth per GPU inside a node (NVLink: half the quoted bidirectional figure).</source>
        <translation>节点内每 GPU 的单向带宽（NVLink：取标称双向带宽的一半）。</translation>
    </message>
    <message>
        <source> GB/s</source>
        <translation> GB/s</translation>
    </message>
    <message>
        <source>Inter-node link</source>
        <translation>节点间互连</translation>
    </message>
    <message>
        <source>Unidirectional network bandwidth per GPU between nodes.</source>
        <translation>节点间每 GPU 的单向网络带宽。</translation>
    </message>
    <message>
        <source>Intra-node latency</source>
        <translation>节点内延迟</translation>
    </message>
    <message>
        <source>Alpha of the alpha-beta model: paid once per ring step.</source>
        <translation>alpha-beta 模型中的 alpha：每个环形通信步骤计一次。</translation>
    </message>
    <message>
        <source> µs</source>
        <translation> µs</translation>
    </message>
    <message>
        <source>Inter-node latency</source>
        <translation>节点间延迟</translation>
    </message>
    <message>
        <source>Alpha of the alpha-beta model across nodes.</source>
        <translation>跨节点时 alpha-beta 模型中的 alpha。</translation>
    </message>
    <message>
        <source>Link efficiency</source>
        <translation>链路效率</translation>
    </message>
    <message>
        <source>Fraction of the line rate a collective achieves (nccl-tests bus bandwidth).</source>
        <translation>集合通信实际达到的线路速率比例（nccl-tests 总线带宽）。</translation>
    </message>
    <message>
        <source>Price per GPU-hour</source>
        <translation>每 GPU 小时单价</translation>
    </message>
    <message>
        <source>Used for the cost figure.</source>
        <translation>用于计算成本。</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>Token 数</translation>
    </message>
    <message>
        <source>Total training tokens D (accepts 15T, 300B, 15e12).</source>
        <translation>训练 token 总数 D（可输入 15T、300B、15e12）。</translation>
    </message>
    <message>
        <source>Sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>Tokens per sequence s.</source>
        <translation>每条序列的 token 数 s。</translation>
    </message>
    <message>
        <source>Global batch</source>
        <translation>全局批次</translation>
    </message>
    <message>
        <source>Sequences per optimizer step B.</source>
        <translation>每个优化器步的序列数 B。</translation>
    </message>
    <message>
        <source>Micro-batch</source>
        <translation>微批次</translation>
    </message>
    <message>
        <source>Sequences per forward pass per GPU b.</source>
        <translation>每 GPU 每次前向传播的序列数 b。</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>Sets weight, gradient, activation and matmul dtypes; bf16-mixed keeps an fp32 master copy (16 bytes/parameter with Adam, ZeRO §3.1).</source>
        <translation>设置权重、梯度、激活和矩阵乘的数据类型；bf16-mixed 保留一份 fp32 主权重副本（使用 Adam 时每参数 16 字节，ZeRO §3.1）。</translation>
    </message>
    <message>
        <source>Gradient dtype</source>
        <translation>梯度 dtype</translation>
    </message>
    <message>
        <source>fp32 gradients give the 18-bytes-per-parameter convention (Megatron bf16).</source>
        <translation>fp32 梯度对应每参数 18 字节的惯例（Megatron bf16）。</translation>
    </message>
    <message>
        <source>FP32 master weights</source>
        <translation>FP32 主权重</translation>
    </message>
    <message>
        <source>Without the master copy, mixed-precision Adam needs 12 bytes per parameter.</source>
        <translation>没有主权重副本时，混合精度 Adam 每参数需要 12 字节。</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Adam/AdamW keep two fp32 moments; 8-bit Adam two bytes; Adafactor factored moments.</source>
        <translation>Adam/AdamW 保存两个 fp32 矩估计；8-bit Adam 为两个字节；Adafactor 使用分解的矩估计。</translation>
    </message>
    <message>
        <source>Recomputation</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>Selective recomputes the attention core; full keeps only each layer&apos;s input (Korthikanti et al. 2022).</source>
        <translation>selective 只重计算注意力核心；full 只保存每层的输入（Korthikanti et al. 2022）。</translation>
    </message>
    <message>
        <source>FlashAttention</source>
        <translation>FlashAttention</translation>
    </message>
    <message>
        <source>The s x s score matrix is never stored (Dao et al. 2022).</source>
        <translation>从不存储 s x s 分数矩阵（Dao et al. 2022）。</translation>
    </message>
    <message>
        <source>Dropout</source>
        <translation>Dropout</translation>
    </message>
    <message>
        <source>Dropout masks are saved activations (Korthikanti et al. count them).</source>
        <translation>Dropout 掩码属于保存的激活（Korthikanti et al. 计入了它们）。</translation>
    </message>
    <message>
        <source>Attention FLOPs</source>
        <translation>注意力 FLOPs</translation>
    </message>
    <message>
        <source>full counts the whole s x s score matrix (the papers&apos; MFU); causal counts half (Megatron-LM).</source>
        <translation>full 计入整个 s x s 分数矩阵（论文中的 MFU 口径）；causal 只计一半（Megatron-LM）。</translation>
    </message>
    <message>
        <source>Time from</source>
        <translation>计时依据</translation>
    </message>
    <message>
        <source>Exact operator count or 6·N·D (Kaplan et al. 2020).</source>
        <translation>精确算子计数 (exact) 或 6·N·D（Kaplan et al. 2020）。</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>Model FLOPs utilization: achieved model FLOP/s over peak (PaLM App. B).</source>
        <translation>模型 FLOPs 利用率：实际达到的模型 FLOP/s 与峰值之比（PaLM App. B）。</translation>
    </message>
    <message>
        <source>Framework reserve</source>
        <translation>框架预留</translation>
    </message>
    <message>
        <source>Memory per GPU taken by the CUDA context, allocator slack and buffers.</source>
        <translation>CUDA 上下文、分配器余量和缓冲区占用的每 GPU 显存。</translation>
    </message>
    <message>
        <source> GB</source>
        <translation> GB</translation>
    </message>
    <message>
        <source>Parallelism</source>
        <translation>并行</translation>
    </message>
    <message>
        <source>DP</source>
        <translation>DP</translation>
    </message>
    <message>
        <source>Data-parallel degree.</source>
        <translation>数据并行度。</translation>
    </message>
    <message>
        <source>TP</source>
        <translation>TP</translation>
    </message>
    <message>
        <source>Tensor-parallel degree (Megatron column/row splits).</source>
        <translation>张量并行度（Megatron 列/行切分）。</translation>
    </message>
    <message>
        <source>PP</source>
        <translation>PP</translation>
    </message>
    <message>
        <source>Pipeline stages.</source>
        <translation>流水线并行阶段数。</translation>
    </message>
    <message>
        <source>CP</source>
        <translation>CP</translation>
    </message>
    <message>
        <source>Context-parallel degree (ring attention).</source>
        <translation>上下文并行度（ring attention）。</translation>
    </message>
    <message>
        <source>EP</source>
        <translation>EP</translation>
    </message>
    <message>
        <source>Expert-parallel degree (MoE).</source>
        <translation>专家并行度（MoE）。</translation>
    </message>
    <message>
        <source>Virtual stages</source>
        <translation>虚拟阶段</translation>
    </message>
    <message>
        <source>Interleaved pipeline chunks per GPU (v).</source>
        <translation>每 GPU 的交错流水线块数 (v)。</translation>
    </message>
    <message>
        <source>ZeRO stage</source>
        <translation>ZeRO 阶段</translation>
    </message>
    <message>
        <source>1: optimizer states, 2: + gradients, 3: + parameters sharded over DP (Rajbhandari et al. 2019).</source>
        <translation>1：分片优化器状态，2：再加梯度，3：再加参数，均在 DP 上分片（Rajbhandari et al. 2019）。</translation>
    </message>
    <message>
        <source>Sequence parallel</source>
        <translation>序列并行</translation>
    </message>
    <message>
        <source>Splits norms and dropout along the sequence across TP ranks (Korthikanti et al. 2022).</source>
        <translation>在 TP rank 间沿序列维度切分归一化和 dropout（Korthikanti et al. 2022）。</translation>
    </message>
    <message>
        <source>✓ The scenario is valid.</source>
        <translation>✓ 场景有效。</translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s); the pages show the last valid results.</source>
        <translation>
            <numerusform>%n 个问题；各页面显示的是上一次的有效结果。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::TimePage</name>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>days = C / (N_gpu · peak · MFU) / 86,400 s (perfect scaling: communication and bubbles are what MFU absorbs)</source>
        <translation>天数 = C / (N_gpu · 峰值 · MFU) / 86,400 s（理想扩展：通信和流水线气泡的损耗都由 MFU 吸收）</translation>
    </message>
    <message>
        <source>C: %1; MFU: PaLM (Chowdhery et al. 2022), App. B; peak: %2</source>
        <translation>C：%1；MFU：PaLM (Chowdhery et al. 2022), App. B；峰值：%2</translation>
    </message>
    <message>
        <source>6ND, Kaplan et al. 2020</source>
        <translation>6ND, Kaplan et al. 2020</translation>
    </message>
    <message>
        <source>exact matmul FLOPs, PaLM App. B</source>
        <translation>精确矩阵乘 FLOPs，PaLM App. B</translation>
    </message>
    <message>
        <source>GPUs (log scale)</source>
        <translation>GPU 数（对数刻度）</translation>
    </message>
    <message>
        <source>Training time (days, log scale)</source>
        <translation>训练时间（天，对数刻度）</translation>
    </message>
    <message>
        <source>Days vs GPU count: no valid scenario yet</source>
        <translation>天数随 GPU 数的变化：尚无有效场景</translation>
    </message>
    <message>
        <source>Days vs GPU count: no GPU count gives a valid layout (%1)</source>
        <translation>天数随 GPU 数的变化：没有任何 GPU 数能构成有效的并行布局（%1）</translation>
    </message>
    <message>
        <source>Training days vs GPU count</source>
        <translation>训练天数随 GPU 数的变化</translation>
    </message>
    <message>
        <source>Training time</source>
        <translation>训练时间</translation>
    </message>
    <message>
        <source>N_gpu = %1 (dp = %2): %3 days, %4 GPU-hours, cost %5</source>
        <translation>N_gpu = %1（dp = %2）：%3 天，%4 GPU 小时，成本 %5</translation>
    </message>
    <message>
        <source>Current scenario</source>
        <translation>当前场景</translation>
    </message>
    <message>
        <source>N_gpu = %1: %2 days</source>
        <translation>N_gpu = %1：%2 天</translation>
    </message>
    <message>
        <source>tp·pp·cp = %7·%8·%9 kept, dp scaled; C = %1 (%2), peak = %3 per GPU, MFU = %4, global batch %5, micro-batch %6</source>
        <translation>tp·pp·cp = %7·%8·%9 保持不变，缩放 dp；C = %1（%2），每 GPU 峰值 = %3，MFU = %4，全局批次 %5，微批次 %6</translation>
    </message>
    <message>
        <source>FLOP</source>
        <translation>FLOP</translation>
    </message>
    <message>
        <source>6ND</source>
        <translation>6ND</translation>
    </message>
    <message>
        <source>exact</source>
        <translation>精确</translation>
    </message>
    <message>
        <source>FLOP/s</source>
        <translation>FLOP/s</translation>
    </message>
    <message>
        <source>; skipped N_gpu = %1: %2</source>
        <translation>；跳过 N_gpu = %1：%2</translation>
    </message>
    <message>
        <source>MFU (model FLOPs utilization, fraction of peak)</source>
        <translation>MFU（模型 FLOPs 利用率，占峰值的比例）</translation>
    </message>
    <message>
        <source>Training time (days)</source>
        <translation>训练时间（天）</translation>
    </message>
    <message>
        <source>Days vs MFU: no valid scenario yet</source>
        <translation>天数随 MFU 的变化：尚无有效场景</translation>
    </message>
    <message>
        <source>Days vs MFU: no valid point (%1)</source>
        <translation>天数随 MFU 的变化：无有效数据点（%1）</translation>
    </message>
    <message>
        <source>Training days vs MFU</source>
        <translation>训练天数随 MFU 的变化</translation>
    </message>
    <message>
        <source>MFU %1: %2 days, %3 tokens/s</source>
        <translation>MFU %1：%2 天，%3 token/s</translation>
    </message>
    <message>
        <source>MFU %1: %2 days</source>
        <translation>MFU %1：%2 天</translation>
    </message>
    <message>
        <source>C = %1 (%2), N_gpu = %3, peak = %4 per GPU (PaLM 540B reached an MFU of 46.2 %)</source>
        <translation>C = %1（%2），N_gpu = %3，每 GPU 峰值 = %4（PaLM 540B 的 MFU 达到 46.2%）</translation>
    </message>
</context>
<context>
    <name>lse::gui::TokenizationPage</name>
    <message>
        <source>Train on text files</source>
        <translation>在文本文件上训练</translation>
    </message>
    <message>
        <source>Tokenization</source>
        <translation>分词</translation>
    </message>
    <message>
        <source>A language model never sees characters: a tokenizer turns the text into integer ids. Edit the text, pick a tokenizer, hover a token for its id, bytes and the merge that formed it, or train your own byte-level BPE and replay it merge by merge.</source>
        <translation>语言模型从不直接看到字符：分词器把文本变成整数 id。可以编辑文本、选择分词器、把鼠标悬停在 token 上查看其 id、字节以及形成它的合并，或者训练自己的字节级 BPE 并逐条回放合并。</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>Compare with B:</source>
        <translation>与 B 比较：</translation>
    </message>
    <message>
        <source>Show whitespace</source>
        <translation>显示空白字符</translation>
    </message>
    <message>
        <source>Tokenizer</source>
        <translation>分词器</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>Token 数</translation>
    </message>
    <message>
        <source>Bytes/token</source>
        <translation>字节/token</translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation>词表</translation>
    </message>
    <message>
        <source>Train a byte-level BPE</source>
        <translation>训练字节级 BPE</translation>
    </message>
    <message>
        <source>Vocabulary size:</source>
        <translation>词表大小：</translation>
    </message>
    <message>
        <source>Special token:</source>
        <translation>特殊 token：</translation>
    </message>
    <message>
        <source>Train on text</source>
        <translation>在文本上训练</translation>
    </message>
    <message>
        <source>Train on files…</source>
        <translation>在文件上训练…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Merges (k: left + right → merged)</source>
        <translation>合并（k：左 + 右 → 合并结果）</translation>
    </message>
    <message>
        <source>Replay: train a tokenizer to step through its merges one by one.</source>
        <translation>回放：先训练一个分词器，再逐条查看它的合并。</translation>
    </message>
    <message>
        <source>Not trained yet.</source>
        <translation>尚未训练。</translation>
    </message>
    <message>
        <source>Training…</source>
        <translation>训练中…</translation>
    </message>
    <message>
        <source>Training was cancelled.</source>
        <translation>训练已取消。</translation>
    </message>
    <message>
        <source>Training failed: %1</source>
        <translation>训练失败：%1</translation>
    </message>
    <message>
        <source>Trained in app (%1 tokens)</source>
        <translation>应用内训练（%1 个 token）</translation>
    </message>
    <message>
        <source>Loaded: %1</source>
        <translation>已加载：%1</translation>
    </message>
    <message>
        <source>Bytes (UTF-8)</source>
        <translation>字节（UTF-8）</translation>
    </message>
    <message>
        <source>Characters</source>
        <translation>字符</translation>
    </message>
    <message>
        <source>Words (GPT-2 pre-tokens)</source>
        <translation>词（GPT-2 预分词）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Token %1&lt;/b&gt;</source>
        <translation>&lt;b&gt;Token %1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>id %1</source>
        <translation>id %1</translation>
    </message>
    <message>
        <source>text: %1</source>
        <translation>文本：%1</translation>
    </message>
    <message>
        <source>bytes (hex): %1</source>
        <translation>字节（十六进制）：%1</translation>
    </message>
    <message>
        <source>Part of a UTF-8 character: the bytes of one character were split across tokens.</source>
        <translation>UTF-8 字符的一部分：一个字符的字节被拆到了多个 token 中。</translation>
    </message>
    <message>
        <source>Special token: never merged, matched before pre-tokenization.</source>
        <translation>特殊 token：从不参与合并，在预分词之前匹配。</translation>
    </message>
    <message>
        <source>Formed by merge %1: %2 + %3</source>
        <translation>由第 %1 次合并形成：%2 + %3</translation>
    </message>
    <message>
        <source>A single byte: in the vocabulary from the start.</source>
        <translation>单个字节：从一开始就在词表中。</translation>
    </message>
    <message>
        <source>Unicode</source>
        <translation>Unicode</translation>
    </message>
    <message>
        <source>open</source>
        <translation>开放</translation>
    </message>
    <message>
        <source>&lt;b&gt;Sequence length and attention cost.&lt;/b&gt; %1 tokens → the attention score matrix QKᵀ has n² = %2 entries per head and layer; self-attention costs O(n²·d) (Vaswani et al. 2017).</source>
        <translation>&lt;b&gt;序列长度与注意力开销。&lt;/b&gt;%1 个 token → 注意力分数矩阵 QKᵀ 每个头每层有 n² = %2 个元素；自注意力的开销为 O(n²·d)（Vaswani et al. 2017）。</translation>
    </message>
    <message>
        <source>As raw bytes (%1 tokens) it would be %2 entries, %3× more: compression of %4 bytes/token saves %3× in attention scores.</source>
        <translation>若按原始字节（%1 个 token）则为 %2 个元素，多 %3 倍：每 token %4 字节的压缩率使注意力分数减少 %3 倍。</translation>
    </message>
    <message>
        <source>At 2× more compression (%1 tokens) it would be %2 entries, 4× fewer.</source>
        <translation>若压缩率再提高 2 倍（%1 个 token），则为 %2 个元素，减少到 1/4。</translation>
    </message>
    <message>
        <source>Trained %1 merges (vocabulary %2) in %3 s pre-tokenization + %4 s merging.</source>
        <translation>已训练 %1 次合并（词表 %2），预分词 %3 秒 + 合并 %4 秒。</translation>
    </message>
    <message>
        <source>Replay: segmentation after the first %1 of %2 merges</source>
        <translation>回放：应用 %2 次合并中前 %1 次后的切分</translation>
    </message>
    <message>
        <source>Load a tokenizer file</source>
        <translation>加载分词器文件</translation>
    </message>
    <message>
        <source>Tokenizer files (*.json *.tiktoken merges.txt);;All files (*)</source>
        <translation>分词器文件 (*.json *.tiktoken merges.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Load a tokenizer folder</source>
        <translation>加载分词器文件夹</translation>
    </message>
    <message>
        <source>Tokenizer A:</source>
        <translation>分词器 A：</translation>
    </message>
    <message>
        <source>Load tokenizer file/folder…</source>
        <translation>加载分词器文件/文件夹…</translation>
    </message>
    <message>
        <source>A folder with tokenizer.json, vocab.json + merges.txt or one *.tiktoken file, or one of those files. It becomes tokenizer A.</source>
        <translation>包含 tokenizer.json、vocab.json + merges.txt 或一个 *.tiktoken 文件的文件夹，或其中某个文件。加载后成为分词器 A。</translation>
    </message>
    <message>
        <source>File (tokenizer.json, *.tiktoken, vocab.json)…</source>
        <translation>文件（tokenizer.json、*.tiktoken、vocab.json）…</translation>
    </message>
    <message>
        <source>Folder…</source>
        <translation>文件夹…</translation>
    </message>
    <message>
        <source>Loading a tokenizer…</source>
        <translation>正在加载分词器…</translation>
    </message>
    <message>
        <source>GPT-2 (course files)</source>
        <translation>GPT-2（课程文件）</translation>
    </message>
    <message>
        <source>HF: %1</source>
        <translation>HF：%1</translation>
    </message>
    <message>
        <source>Not found: no gpt2_vocab.json + gpt2_merges.txt in cs336/tokenizer under %1 (set LSE_SHARED_DIR to the course&apos;s shared folder).</source>
        <translation>未找到：%1 下的 cs336/tokenizer 中没有 gpt2_vocab.json + gpt2_merges.txt（请把 LSE_SHARED_DIR 设为课程的 shared 文件夹）。</translation>
    </message>
    <message>
        <source>Tokens as coloured spans (hover one for its id, bytes and merge; &lt;e4 bd&gt; marks bytes of a character split across tokens)</source>
        <translation>token 以彩色片段显示（悬停查看 id、字节和合并；&lt;e4 bd&gt; 表示被拆到多个 token 中的字符字节）</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 · %2&lt;/b&gt;: %3 tokens, %4 bytes/token</source>
        <translation>&lt;b&gt;%1 · %2&lt;/b&gt;：%3 个 token，每 token %4 字节</translation>
    </message>
    <message>
        <source>(the first %1 are shown)</source>
        <translation>（仅显示前 %1 个）</translation>
    </message>
    <message>
        <source>Still loading %1; choose again when it is done.</source>
        <translation>仍在加载 %1；加载完成后请重新选择。</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <source>Could not load %1 (the previous tokenizer stays): %2</source>
        <translation>无法加载 %1（保留之前的分词器）：%2</translation>
    </message>
    <message>
        <source>Loaded %1 from %2: %3 tokens, %4 merges, in %5 s.</source>
        <translation>已从 %2 加载 %1：%3 个 token，%4 条合并，用时 %5 秒。</translation>
    </message>
    <message>
        <source>Another tokenizer is still loading.</source>
        <translation>另一个分词器仍在加载。</translation>
    </message>
</context>
<context>
    <name>lse::gui::format</name>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>%1 (%2 bytes)</source>
        <translation>%1（%2 字节）</translation>
    </message>
    <message>
        <source>%1 T</source>
        <translation>%1 T</translation>
    </message>
    <message>
        <source>%1 B</source>
        <translation>%1 B</translation>
    </message>
    <message>
        <source>%1 M</source>
        <translation>%1 M</translation>
    </message>
    <message>
        <source>%1 k</source>
        <translation>%1 k</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>&lt;i&gt;Inputs:&lt;/i&gt; %1</source>
        <translation>&lt;i&gt;输入：&lt;/i&gt;%1</translation>
    </message>
    <message>
        <source>&lt;i&gt;Formula:&lt;/i&gt; %1</source>
        <translation>&lt;i&gt;公式：&lt;/i&gt;%1</translation>
    </message>
    <message>
        <source>&lt;i&gt;Source:&lt;/i&gt; %1</source>
        <translation>&lt;i&gt;来源：&lt;/i&gt;%1</translation>
    </message>
</context>
</TS>
