<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AblationCharts</name>
    <message>
        <source>loss = mean cross-entropy of the next token (nats/token); training loss of each step&apos;s batch, validation loss on the last 10% of the tokens; every variant trains on the same batches (same tokens, same seed)</source>
        <translation>损失 = 下一个 token 的平均交叉熵（nats/token）；训练损失为每步所用批次上的损失，验证损失基于最后 10% 的 token；所有变体都在相同的批次上训练（相同的 token、相同的随机种子）</translation>
    </message>
    <message>
        <source>CPU reference transformer (CS336 assignment 1) trained here; variants as in CS336 lecture 3 (Xiong et al. 2020 pre-norm, Zhang &amp; Sennrich 2019 RMSNorm, Shazeer 2020 GLU, Su et al. 2021 RoPE, Wang &amp; Komatsuzaki 2021 parallel blocks)</source>
        <translation>在本机训练的 CPU 参考 Transformer（CS336 作业 1）；变体取自 CS336 第 3 讲（Xiong et al. 2020 pre-norm, Zhang &amp; Sennrich 2019 RMSNorm, Shazeer 2020 GLU, Su et al. 2021 RoPE, Wang &amp; Komatsuzaki 2021 parallel blocks）</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>diverged</source>
        <translation>已发散</translation>
    </message>
    <message>
        <source>%1 layers, d_model %2, %3 heads, context %4, vocabulary %5; %6 steps × %7 sequences, seed %8; %9 tokens from %10 of text</source>
        <translation>%1 层，d_model %2，%3 个头，上下文 %4，词表 %5；%6 步 × %7 条序列，随机种子 %8；%9 个 token，来自 %10 文本</translation>
    </message>
    <message>
        <source>Loss curves of the variants (same tokens and seed)</source>
        <translation>各变体的损失曲线（相同的 token 和随机种子）</translation>
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
        <source>steps</source>
        <translation>步</translation>
    </message>
    <message>
        <source>nats/token</source>
        <translation>nats/token</translation>
    </message>
    <message>
        <source>%1 — training</source>
        <translation>%1 — 训练</translation>
    </message>
    <message>
        <source>%1 — validation</source>
        <translation>%1 — 验证</translation>
    </message>
    <message>
        <source>%1, step %2: training loss %3</source>
        <translation>%1，第 %2 步：训练损失 %3</translation>
    </message>
    <message>
        <source>%1, step %2: validation loss %3</source>
        <translation>%1，第 %2 步：验证损失 %3</translation>
    </message>
    <message>
        <source>Final validation loss per variant</source>
        <translation>各变体的最终验证损失</translation>
    </message>
    <message>
        <source>Validation loss (nats/token)</source>
        <translation>验证损失（nats/token）</translation>
    </message>
    <message>
        <source>%1: final validation loss %2 after %3 steps (%4), %5 parameters, %6 tokens/s</source>
        <translation>%1：%3 步后最终验证损失 %2（%4），%5 个参数，%6 token/s</translation>
    </message>
    <message>
        <source>Pre-norm</source>
        <translation>前置归一化</translation>
    </message>
    <message>
        <source>Post-norm</source>
        <translation>后置归一化</translation>
    </message>
    <message>
        <source>No norm</source>
        <translation>无归一化</translation>
    </message>
    <message>
        <source>Learned</source>
        <translation>可学习</translation>
    </message>
    <message>
        <source>Sinusoidal</source>
        <translation>正弦</translation>
    </message>
    <message>
        <source>No position (NoPE)</source>
        <translation>无位置编码（NoPE）</translation>
    </message>
    <message>
        <source>Serial</source>
        <translation>串行</translation>
    </message>
    <message>
        <source>Parallel</source>
        <translation>并行</translation>
    </message>
</context>
<context>
    <name>AtlasCharts</name>
    <message>
        <source>RMSNorm</source>
        <translation>RMSNorm</translation>
    </message>
    <message>
        <source>Gated FFN (SwiGLU/GeGLU)</source>
        <translation>门控 FFN（SwiGLU/GeGLU）</translation>
    </message>
    <message>
        <source>RoPE</source>
        <translation>RoPE</translation>
    </message>
    <message>
        <source>Pre-norm</source>
        <translation>前置归一化</translation>
    </message>
    <message>
        <source>GQA or MQA</source>
        <translation>GQA 或 MQA</translation>
    </message>
    <message>
        <source>Mixture of experts</source>
        <translation>混合专家（MoE）</translation>
    </message>
    <message>
        <source>Parallel block</source>
        <translation>并行块</translation>
    </message>
    <message>
        <source>Tied embeddings</source>
        <translation>共享嵌入</translation>
    </message>
    <message numerus="yes">
        <source>%n model(s) of the atlas shown (%1); the table&apos;s filters apply</source>
        <translation>
            <numerusform>显示图谱中的 %n 个模型（%1）；表格的筛选条件同样适用</numerusform>
        </translation>
    </message>
    <message>
        <source>resources/atlas/models.json: each row&apos;s paper table or released config (hover a table row)</source>
        <translation>resources/atlas/models.json：每行对应的论文表格或公开发布的配置（将鼠标悬停在表格行上查看）</translation>
    </message>
    <message>
        <source>Share of the atlas&apos;s models using each choice, per year</source>
        <translation>图谱中采用各项选择的模型占比（按年份）</translation>
    </message>
    <message>
        <source>Year</source>
        <translation>年份</translation>
    </message>
    <message>
        <source>Share of models (%)</source>
        <translation>模型占比（%）</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1, %2&lt;/b&gt;: %3 of %n model(s) (%4)</source>
        <translation>
            <numerusform>&lt;b&gt;%1，%2&lt;/b&gt;：%n 个模型中有 %3 个（%4）</numerusform>
        </translation>
    </message>
    <message>
        <source>share = models of that year using the choice / models of that year (a year has 1–9 models: read the trend, not single points); pre-norm includes the sandwich (norms before and after)</source>
        <translation>占比 = 该年采用此选择的模型数 / 该年的模型数（每年有 1–9 个模型：请看趋势，而非单个点）；前置归一化包括三明治式（前后都有归一化）</translation>
    </message>
    <message>
        <source>FFN width d_ff / d_model over time</source>
        <translation>FFN 宽度 d_ff / d_model 随时间的变化</translation>
    </message>
    <message>
        <source>Publication date</source>
        <translation>发布日期</translation>
    </message>
    <message>
        <source>d_ff / d_model (log scale)</source>
        <translation>d_ff / d_model（对数坐标）</translation>
    </message>
    <message>
        <source>Ungated (ReLU/GeLU)</source>
        <translation>非门控（ReLU/GeLU）</translation>
    </message>
    <message>
        <source>Gated (SwiGLU/GeGLU)</source>
        <translation>门控（SwiGLU/GeGLU）</translation>
    </message>
    <message>
        <source>MoE: one routed expert</source>
        <translation>MoE：单个路由专家</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: d_ff / d_model = %2%3; as parameters, an ungated %4</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：d_ff / d_model = %2%3；按参数量相当于非门控的 %4</translation>
    </message>
    <message>
        <source> per routed expert</source>
        <translation>（每个路由专家）</translation>
    </message>
    <message>
        <source>4 (ungated, Vaswani et al. 2017)</source>
        <translation>4（非门控，Vaswani et al. 2017）</translation>
    </message>
    <message>
        <source>8/3 ≈ 2.67 (gated, same parameters as 4)</source>
        <translation>8/3 ≈ 2.67（门控，参数量与 4 相同）</translation>
    </message>
    <message>
        <source>ratio = d_ff / d_model; a gated FFN has 3 matrices of d_model × d_ff instead of 2, so gated 8/3 costs what ungated 4 costs (Shazeer 2020, &quot;GLU Variants Improve Transformer&quot;); MoE: one expert&apos;s width</source>
        <translation>比值 = d_ff / d_model；门控 FFN 有 3 个 d_model × d_ff 矩阵而不是 2 个，因此门控 8/3 的开销与非门控 4 相同（Shazeer 2020, &quot;GLU Variants Improve Transformer&quot;）；MoE：单个专家的宽度</translation>
    </message>
    <message>
        <source>Head dimension across the atlas</source>
        <translation>图谱中的头维度</translation>
    </message>
    <message>
        <source>Head dimension</source>
        <translation>头维度</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>模型数</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;head dim %1&lt;/b&gt;: %n model(s)&lt;br&gt;%2</source>
        <translation>
            <numerusform>&lt;b&gt;头维度 %1&lt;/b&gt;：%n 个模型&lt;br&gt;%2</numerusform>
        </translation>
    </message>
    <message>
        <source>head dim = the width of one attention head (usually d_model / heads; Gemma and PaLM choose 256, T5 128 with d_model 1024)</source>
        <translation>头维度 = 单个注意力头的宽度（通常为 d_model / 头数；Gemma 和 PaLM 选择 256，T5 在 d_model 1024 时选择 128）</translation>
    </message>
</context>
<context>
    <name>FlashAttentionCharts</name>
    <message>
        <source>standard forward</source>
        <translation>标准注意力前向</translation>
    </message>
    <message>
        <source>(4Nd + 4N²)·E: S and P written to HBM and read back (Dao et al. 2022, Algorithm 0)</source>
        <translation>(4Nd + 4N²)·E：S 和 P 写入 HBM 再读回（Dao et al. 2022，算法 0）</translation>
    </message>
    <message>
        <source>FlashAttention forward</source>
        <translation>FlashAttention 前向</translation>
    </message>
    <message>
        <source>[2Nd + T_c(2Nd + 2N)]·E read + [(Nd + 2N) + T_c(Nd + 2N)]·E written, T_c = ⌈N/B_c⌉, B_c = ⌈M/4dE⌉: Θ(N²d²/M) (Dao et al. 2022, Algorithm 1 and Theorem 2)</source>
        <translation>读 [2Nd + T_c(2Nd + 2N)]·E + 写 [(Nd + 2N) + T_c(Nd + 2N)]·E，T_c = ⌈N/B_c⌉，B_c = ⌈M/4dE⌉：Θ(N²d²/M)（Dao et al. 2022，算法 1 与定理 2）</translation>
    </message>
    <message>
        <source>FlashAttention-2 order forward</source>
        <translation>FlashAttention-2 循环顺序前向</translation>
    </message>
    <message>
        <source>(Nd + T_r·2Nd)·E read + (Nd + N)·E written: K and V re-read once per Q block (Dao 2023, Algorithm 1)</source>
        <translation>读 (Nd + T_r·2Nd)·E + 写 (Nd + N)·E：每个 Q 块重新读一遍 K 和 V（Dao 2023，算法 1）</translation>
    </message>
    <message>
        <source>standard backward</source>
        <translation>标准注意力反向</translation>
    </message>
    <message>
        <source>(5N² + 5Nd)·E read + (2N² + 3Nd)·E written: P, dP and dS through HBM (Dao et al. 2022, Algorithm 3)</source>
        <translation>读 (5N² + 5Nd)·E + 写 (2N² + 3Nd)·E：P、dP 和 dS 经过 HBM（Dao et al. 2022，算法 3）</translation>
    </message>
    <message>
        <source>FlashAttention backward</source>
        <translation>FlashAttention 反向</translation>
    </message>
    <message>
        <source>[2Nd + T_c(4Nd + 2N)]·E read + [5Nd + T_c·Nd]·E written: S and P recomputed from Q, K, ℓ, m (Dao et al. 2022, Algorithm 4)</source>
        <translation>读 [2Nd + T_c(4Nd + 2N)]·E + 写 [5Nd + T_c·Nd]·E：S 和 P 由 Q、K、ℓ、m 重新计算（Dao et al. 2022，算法 4）</translation>
    </message>
    <message>
        <source>d = %1, M = %2 bytes, E = %3 bytes%4</source>
        <translation>d = %1，M = %2 字节，E = %3 字节%4</translation>
    </message>
    <message>
        <source>, causal</source>
        <translation>，因果掩码</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;, %2 = %3&lt;br&gt;read %4 + written %5 = %6&lt;br&gt;%7</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;，%2 = %3&lt;br&gt;读 %4 + 写 %5 = %6&lt;br&gt;%7</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>HBM traffic over the sequence length N (one head)</source>
        <translation>HBM 流量随序列长度 N 的变化（单个头）</translation>
    </message>
    <message>
        <source>Sequence length N (log scale)</source>
        <translation>序列长度 N（对数坐标）</translation>
    </message>
    <message>
        <source>HBM bytes read + written (log scale)</source>
        <translation>HBM 读 + 写字节数（对数坐标）</translation>
    </message>
    <message>
        <source>standard grows as N² (S and P in HBM); FlashAttention as N²d²/M (each of the T_c ≈ 4NdE/M K/V blocks re-reads Q and O); the backward passes likewise</source>
        <translation>标准注意力按 N² 增长（S 和 P 在 HBM 中）；FlashAttention 按 N²d²/M 增长（T_c ≈ 4NdE/M 个 K/V 块各重读一遍 Q 和 O）；反向传播同理</translation>
    </message>
    <message>
        <source>Dao et al. 2022, Algorithms 0, 1, 3, 4 and Theorem 2; Dao 2023, Algorithm 1</source>
        <translation>Dao et al. 2022，算法 0、1、3、4 与定理 2；Dao 2023，算法 1</translation>
    </message>
    <message>
        <source>chosen N</source>
        <translation>所选 N</translation>
    </message>
    <message>
        <source>N = %1: %2</source>
        <translation>N = %1：%2</translation>
    </message>
    <message>
        <source>HBM traffic over the SRAM size M (N = %1)</source>
        <translation>HBM 流量随 SRAM 大小 M 的变化（N = %1）</translation>
    </message>
    <message>
        <source>SRAM per SM M, bytes (log scale)</source>
        <translation>每个 SM 的 SRAM M，字节（对数坐标）</translation>
    </message>
    <message>
        <source>N = %1, %2; M now: %3</source>
        <translation>N = %1，%2；当前 M：%3</translation>
    </message>
    <message>
        <source>FlashAttention&apos;s traffic falls as 1/M (T_c = ⌈N/B_c⌉ with B_c = ⌈M/4dE⌉) until one block holds the whole sequence; standard attention does not depend on M</source>
        <translation>FlashAttention 的流量按 1/M 下降（T_c = ⌈N/B_c⌉，B_c = ⌈M/4dE⌉），直到一个块装下整个序列；标准注意力与 M 无关</translation>
    </message>
    <message>
        <source>Dao et al. 2022, Algorithm 1 line 1 and Theorem 2</source>
        <translation>Dao et al. 2022，算法 1 第 1 行与定理 2</translation>
    </message>
    <message>
        <source>chosen M</source>
        <translation>所选 M</translation>
    </message>
    <message>
        <source>M = %1 (%2): FlashAttention forward %3</source>
        <translation>M = %1（%2）：FlashAttention 前向 %3</translation>
    </message>
    <message>
        <source>One attention head on the roofline of %1</source>
        <translation>单个注意力头在 %1 的屋顶线上</translation>
    </message>
    <message>
        <source>Arithmetic intensity, FLOP per HBM byte (log scale)</source>
        <translation>算术强度，每 HBM 字节的 FLOP（对数坐标）</translation>
    </message>
    <message>
        <source>Attainable FLOP/s (log scale)</source>
        <translation>可达 FLOP/s（对数坐标）</translation>
    </message>
    <message>
        <source>N = %1, %2; %3 peak %4, HBM %5/s</source>
        <translation>N = %1，%2；%3 峰值 %4，HBM %5/s</translation>
    </message>
    <message>
        <source>FLOP/s</source>
        <translation>FLOP/s</translation>
    </message>
    <message>
        <source>I = FLOPs / (HBM bytes read + written); attainable = min(peak, I · bandwidth); the roofline&apos;s time bound = max(FLOPs / peak, bytes / bandwidth)</source>
        <translation>I = FLOPs / (HBM 读 + 写字节数)；可达 = min(峰值, I · 带宽)；屋顶线的时间下界 = max(FLOPs / 峰值, 字节 / 带宽)</translation>
    </message>
    <message>
        <source>Williams, Waterman &amp; Patterson 2009 (eq. 1); counts: Dao et al. 2022 Algorithms 0, 1, 3, 4; Dao 2023 Algorithm 1</source>
        <translation>Williams, Waterman &amp; Patterson 2009（式 1）；计数：Dao et al. 2022 算法 0、1、3、4；Dao 2023 算法 1</translation>
    </message>
    <message>
        <source>%1 has no peak for this element size</source>
        <translation>%1 没有该元素大小的峰值</translation>
    </message>
    <message>
        <source>roofline, ridge %1 FLOP/byte</source>
        <translation>屋顶线，拐点 %1 FLOP/字节</translation>
    </message>
    <message>
        <source>I = %1 FLOP/byte: attainable min(%2, I · %3/s) = %4</source>
        <translation>I = %1 FLOP/字节：可达 min(%2, I · %3/s) = %4</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 FLOPs / %3 = %4 FLOP/byte: %5, at most %6; roofline time ≥ %7&lt;br&gt;%8</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 FLOPs / %3 = %4 FLOP/字节：%5，最多 %6；屋顶线时间 ≥ %7&lt;br&gt;%8</translation>
    </message>
    <message>
        <source>memory-bound</source>
        <translation>访存受限</translation>
    </message>
    <message>
        <source>compute-bound</source>
        <translation>计算受限</translation>
    </message>
</context>
<context>
    <name>FlashAttentionText</name>
    <message>
        <source>Standard attention</source>
        <translation>标准注意力</translation>
    </message>
    <message>
        <source>FlashAttention</source>
        <translation>FlashAttention</translation>
    </message>
    <message>
        <source>FlashAttention-2 loop order</source>
        <translation>FlashAttention-2 循环顺序</translation>
    </message>
    <message>
        <source>Dao et al. 2022, Algorithm 0</source>
        <translation>Dao et al. 2022，算法 0</translation>
    </message>
    <message>
        <source>Dao et al. 2022, Algorithm 1</source>
        <translation>Dao et al. 2022，算法 1</translation>
    </message>
    <message>
        <source>Dao 2023, Algorithm 1</source>
        <translation>Dao 2023，算法 1</translation>
    </message>
    <message>
        <source>%1 KiB</source>
        <translation>%1 KiB</translation>
    </message>
    <message>
        <source>N (sequence length)</source>
        <translation>N（序列长度）</translation>
    </message>
    <message>
        <source>d (head dimension)</source>
        <translation>d（头维度）</translation>
    </message>
    <message>
        <source>M (SRAM bytes)</source>
        <translation>M（SRAM 字节数）</translation>
    </message>
    <message>
        <source>element size</source>
        <translation>元素大小</translation>
    </message>
    <message>
        <source>B_r (query rows per block)</source>
        <translation>B_r（每块查询行数）</translation>
    </message>
    <message>
        <source>B_c (keys per block)</source>
        <translation>B_c（每块键数）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Before the first step&lt;/b&gt;: Q, K and V are in HBM, SRAM is empty and nothing has been read or written.</source>
        <translation>&lt;b&gt;第一步之前&lt;/b&gt;：Q、K、V 在 HBM 中，SRAM 为空，尚未读写任何数据。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Step %1 of %2&lt;/b&gt;: </source>
        <translation>&lt;b&gt;第 %1 步，共 %2 步&lt;/b&gt;：</translation>
    </message>
    <message>
        <source>read Q and K from HBM, compute S = QKᵀ and write the whole N×N matrix S to HBM (Algorithm 0 line 1).</source>
        <translation>从 HBM 读 Q 和 K，计算 S = QKᵀ，把整个 N×N 矩阵 S 写回 HBM（算法 0 第 1 行）。</translation>
    </message>
    <message>
        <source>read S back, compute P = softmax(S) row by row and write the N×N matrix P to HBM (line 2).</source>
        <translation>把 S 读回，逐行计算 P = softmax(S)，把 N×N 矩阵 P 写入 HBM（第 2 行）。</translation>
    </message>
    <message>
        <source>read P and V, compute O = PV and write O (line 3).</source>
        <translation>读 P 和 V，计算 O = PV 并写出 O（第 3 行）。</translation>
    </message>
    <message>
        <source>initialise O = 0, ℓ = 0 and m = −∞ in HBM (Algorithm 1 line 2).</source>
        <translation>在 HBM 中初始化 O = 0、ℓ = 0、m = −∞（算法 1 第 2 行）。</translation>
    </message>
    <message>
        <source>load K&lt;sub&gt;%1&lt;/sub&gt; and V&lt;sub&gt;%1&lt;/sub&gt; into SRAM; they stay there while the inner loop visits every Q block (line 6).</source>
        <translation>把 K&lt;sub&gt;%1&lt;/sub&gt; 和 V&lt;sub&gt;%1&lt;/sub&gt; 载入 SRAM；内层循环遍历所有 Q 块期间它们一直留在那里（第 6 行）。</translation>
    </message>
    <message>
        <source>block (%1, %2): load K&lt;sub&gt;%2&lt;/sub&gt; and V&lt;sub&gt;%2&lt;/sub&gt;; on chip S = Q&lt;sub&gt;%1&lt;/sub&gt;K&lt;sub&gt;%2&lt;/sub&gt;ᵀ, update m and ℓ, O&lt;sub&gt;%1&lt;/sub&gt; ← diag(e&lt;sup&gt;m_old − m_new&lt;/sup&gt;)O&lt;sub&gt;%1&lt;/sub&gt; + P̃V&lt;sub&gt;%2&lt;/sub&gt;; O&lt;sub&gt;%1&lt;/sub&gt; stays in SRAM (Dao 2023 Algorithm 1 lines 6–10).</source>
        <translation>块 (%1, %2)：载入 K&lt;sub&gt;%2&lt;/sub&gt; 和 V&lt;sub&gt;%2&lt;/sub&gt;；在片上计算 S = Q&lt;sub&gt;%1&lt;/sub&gt;K&lt;sub&gt;%2&lt;/sub&gt;ᵀ，更新 m 和 ℓ，O&lt;sub&gt;%1&lt;/sub&gt; ← diag(e&lt;sup&gt;m_old − m_new&lt;/sup&gt;)O&lt;sub&gt;%1&lt;/sub&gt; + P̃V&lt;sub&gt;%2&lt;/sub&gt;；O&lt;sub&gt;%1&lt;/sub&gt; 留在 SRAM 中（Dao 2023 算法 1 第 6–10 行）。</translation>
    </message>
    <message>
        <source>block (%1, %2): load Q&lt;sub&gt;%1&lt;/sub&gt;, O&lt;sub&gt;%1&lt;/sub&gt;, ℓ&lt;sub&gt;%1&lt;/sub&gt;, m&lt;sub&gt;%1&lt;/sub&gt;; on chip S = Q&lt;sub&gt;%1&lt;/sub&gt;K&lt;sub&gt;%2&lt;/sub&gt;ᵀ, the block&apos;s row max and sum, new m and ℓ, O&lt;sub&gt;%1&lt;/sub&gt; rescaled and P̃V&lt;sub&gt;%2&lt;/sub&gt; added; write O&lt;sub&gt;%1&lt;/sub&gt;, ℓ&lt;sub&gt;%1&lt;/sub&gt;, m&lt;sub&gt;%1&lt;/sub&gt; back (lines 8–13).</source>
        <translation>块 (%1, %2)：载入 Q&lt;sub&gt;%1&lt;/sub&gt;、O&lt;sub&gt;%1&lt;/sub&gt;、ℓ&lt;sub&gt;%1&lt;/sub&gt;、m&lt;sub&gt;%1&lt;/sub&gt;；在片上计算 S = Q&lt;sub&gt;%1&lt;/sub&gt;K&lt;sub&gt;%2&lt;/sub&gt;ᵀ、块内行最大值与行和、新的 m 和 ℓ，缩放 O&lt;sub&gt;%1&lt;/sub&gt; 并加上 P̃V&lt;sub&gt;%2&lt;/sub&gt;；把 O&lt;sub&gt;%1&lt;/sub&gt;、ℓ&lt;sub&gt;%1&lt;/sub&gt;、m&lt;sub&gt;%1&lt;/sub&gt; 写回（第 8–13 行）。</translation>
    </message>
    <message>
        <source>block (%1, %2) lies wholly above the diagonal: its first key comes after its last query, so the causal mask hides all of it. Nothing is loaded or computed.</source>
        <translation>块 (%1, %2) 完全位于对角线上方：它的第一个键在最后一个查询之后，因果掩码把它全部遮住。不载入也不计算任何数据。</translation>
    </message>
    <message>
        <source>load Q&lt;sub&gt;%1&lt;/sub&gt; into SRAM; O&lt;sub&gt;%1&lt;/sub&gt;, ℓ&lt;sub&gt;%1&lt;/sub&gt; and m&lt;sub&gt;%1&lt;/sub&gt; start on chip as 0, 0 and −∞ (Dao 2023 Algorithm 1 line 4).</source>
        <translation>把 Q&lt;sub&gt;%1&lt;/sub&gt; 载入 SRAM；O&lt;sub&gt;%1&lt;/sub&gt;、ℓ&lt;sub&gt;%1&lt;/sub&gt;、m&lt;sub&gt;%1&lt;/sub&gt; 在片上以 0、0、−∞ 开始（Dao 2023 算法 1 第 4 行）。</translation>
    </message>
    <message>
        <source>O&lt;sub&gt;%1&lt;/sub&gt; ← diag(ℓ&lt;sub&gt;%1&lt;/sub&gt;)⁻¹O&lt;sub&gt;%1&lt;/sub&gt; and L&lt;sub&gt;%1&lt;/sub&gt; = m&lt;sub&gt;%1&lt;/sub&gt; + log ℓ&lt;sub&gt;%1&lt;/sub&gt;, each written to HBM once (lines 12–15).</source>
        <translation>O&lt;sub&gt;%1&lt;/sub&gt; ← diag(ℓ&lt;sub&gt;%1&lt;/sub&gt;)⁻¹O&lt;sub&gt;%1&lt;/sub&gt;，L&lt;sub&gt;%1&lt;/sub&gt; = m&lt;sub&gt;%1&lt;/sub&gt; + log ℓ&lt;sub&gt;%1&lt;/sub&gt;，各写入 HBM 一次（第 12–15 行）。</translation>
    </message>
</context>
<context>
    <name>LessonControls</name>
    <message>
        <source>expected an integer from %1 to %2</source>
        <translation>应为 %1 到 %2 之间的整数</translation>
    </message>
    <message>
        <source>expected %1</source>
        <translation>应为 %1</translation>
    </message>
    <message>
        <source>expected one of %1</source>
        <translation>应为 %1 之一</translation>
    </message>
    <message>
        <source>expected a number from %1 to %2</source>
        <translation>应为 %1 到 %2 之间的数值</translation>
    </message>
    <message>
        <source>expected true or false</source>
        <translation>应为 true 或 false</translation>
    </message>
    <message>
        <source>expected a string</source>
        <translation>应为字符串</translation>
    </message>
    <message numerus="yes">
        <source>expected at most %n character(s)</source>
        <translation>
            <numerusform>应为最多 %n 个字符</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: this page has no settings a lesson can set</source>
        <translation>%1：此页面没有可由课程设置的选项</translation>
    </message>
    <message>
        <source>%1: unknown setting (expected %2)</source>
        <translation>%1：未知设置（应为 %2）</translation>
    </message>
    <message>
        <source>%1: %2, got %3</source>
        <translation>%1：%2，实际为 %3</translation>
    </message>
</context>
<context>
    <name>LessonSettingsReader</name>
    <message>
        <source>%1, got %2</source>
        <translation>%1，实际为 %2</translation>
    </message>
    <message>
        <source>expected an integer in %1..%2</source>
        <translation>应为 %1..%2 范围内的整数</translation>
    </message>
    <message>
        <source>expected a number in %1..%2</source>
        <translation>应为 %1..%2 范围内的数值</translation>
    </message>
    <message>
        <source>expected %1</source>
        <translation>应为 %1</translation>
    </message>
    <message>
        <source>expected true|false</source>
        <translation>应为 true|false</translation>
    </message>
    <message>
        <source>expected a text of at most %1 characters</source>
        <translation>应为最多 %1 个字符的文本</translation>
    </message>
    <message numerus="yes">
        <source>%n character(s)</source>
        <translation>
            <numerusform>%n 个字符</numerusform>
        </translation>
    </message>
    <message>
        <source>expected a list of distinct integers in %1..%2, at least one</source>
        <translation>应为 %1..%2 范围内互不相同的整数列表，至少一个</translation>
    </message>
    <message>
        <source>expected a list of distinct %1, at least one</source>
        <translation>应为互不相同的 %1 列表，至少一个</translation>
    </message>
    <message>
        <source>unknown setting on this page (known: %1)</source>
        <translation>此页面上的未知设置（已知：%1）</translation>
    </message>
</context>
<context>
    <name>MachineWarnings</name>
    <message>
        <source>all %1 threads reached %2 of memory bandwidth, far below one core&apos;s %3: other processes held cores</source>
        <translation>全部 %1 个线程只达到 %2 的内存带宽，远低于单核的 %3：有其他进程占用了核心</translation>
    </message>
    <message>
        <source>all %1 threads reached %2, less than one core&apos;s %3: other processes held cores</source>
        <translation>全部 %1 个线程只达到 %2，低于单核的 %3：有其他进程占用了核心</translation>
    </message>
    <message>
        <source>the load average was %1 on %2 logical cores before measuring</source>
        <translation>测量前系统平均负载为 %1（共 %2 个逻辑核心）</translation>
    </message>
    <message>
        <source>the all-cores peak %1 is far from the previous measurement&apos;s %2 (%3)</source>
        <translation>全核峰值 %1 与上次测量的 %2（%3）相差很大</translation>
    </message>
    <message>
        <source>Warning: this measurement looks wrong (%1). Re-measure on an idle machine.</source>
        <translation>警告：这次测量结果看起来有误（%1）。请在空闲的机器上重新测量。</translation>
    </message>
</context>
<context>
    <name>NumberFormatCharts</name>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>sign</source>
        <translation>符号</translation>
    </message>
    <message>
        <source>exponent</source>
        <translation>指数</translation>
    </message>
    <message>
        <source>mantissa</source>
        <translation>尾数</translation>
    </message>
    <message>
        <source>%1 (1 + %2)</source>
        <translation>%1（1 + %2）</translation>
    </message>
    <message>
        <source>%1 (1 + %2 + %3)</source>
        <translation>%1（1 + %2 + %3）</translation>
    </message>
    <message>
        <source>Sign, exponent and mantissa bits</source>
        <translation>符号位、指数位和尾数位</translation>
    </message>
    <message>
        <source>Bit (0 = sign)</source>
        <translation>位（0 = 符号位）</translation>
    </message>
    <message>
        <source>bits = 1 + e + m (TF32: 19 bits used of a 32-bit register)</source>
        <translation>bits = 1 + e + m（TF32：32 位寄存器中使用 19 位）</translation>
    </message>
    <message>
        <source>normal (−1)^s·1.m·2^(E−bias), subnormal (−1)^s·0.m·2^(1−bias), bias = 2^(e−1) − 1</source>
        <translation>正规数 (−1)^s·1.m·2^(E−bias)，次正规数 (−1)^s·0.m·2^(1−bias)，bias = 2^(e−1) − 1</translation>
    </message>
    <message>
        <source>IEEE 754-2019 §3.3–3.4; OCP 8-bit Floating Point Specification (OFP8) v1.0</source>
        <translation>IEEE 754-2019 §3.3–3.4; OCP 8-bit Floating Point Specification (OFP8) v1.0</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;, bit %2 of %3: %4&lt;br&gt;two&apos;s complement: value = −128·b0 + Σ b_i·2^(7−i)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;，第 %2 位（共 %3 位）：%4&lt;br&gt;二进制补码：value = −128·b0 + Σ b_i·2^(7−i)</translation>
    </message>
    <message>
        <source>value bit</source>
        <translation>数值位</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;, bit %2 of %3: %4&lt;br&gt;%5 exponent + %6 mantissa bits, bias %7</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;，第 %2 位（共 %3 位）：%4&lt;br&gt;%5 个指数位 + %6 个尾数位，偏置 %7</translation>
    </message>
    <message>
        <source>Number line: spacing between neighbouring values</source>
        <translation>数轴：相邻可表示值之间的间隔</translation>
    </message>
    <message>
        <source>Magnitude |x| (log scale)</source>
        <translation>绝对值 |x|（对数刻度）</translation>
    </message>
    <message>
        <source>Spacing to the next value, ulp(x) (log scale)</source>
        <translation>到下一个值的间隔 ulp(x)（对数刻度）</translation>
    </message>
    <message>
        <source>each line: smallest subnormal to largest finite value</source>
        <translation>每条线：从最小次正规数到最大有限值</translation>
    </message>
    <message>
        <source>ulp(x) = 2^(max(⌊log2 |x|⌋, emin) − m); INT8 (scale 1): 1</source>
        <translation>ulp(x) = 2^(max(⌊log2 |x|⌋, emin) − m)；INT8（缩放 1）：1</translation>
    </message>
    <message>
        <source>IEEE 754-2019 §2.1 (ulp) and §3.3; OCP OFP8 v1.0</source>
        <translation>IEEE 754-2019 §2.1 (ulp) and §3.3; OCP OFP8 v1.0</translation>
    </message>
    <message>
        <source>largest finite value</source>
        <translation>最大有限值</translation>
    </message>
    <message>
        <source>smallest subnormal</source>
        <translation>最小次正规数</translation>
    </message>
    <message>
        <source>your value %1</source>
        <translation>你的数值 %1</translation>
    </message>
    <message>
        <source>your value</source>
        <translation>你的数值</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: values near %2 are %3 apart</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：%2 附近的值间隔为 %3</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; largest finite value %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 最大有限值 %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; smallest subnormal %2 = %3</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 最小次正规数 %2 = %3</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; at |x| = %2: neighbours %3 apart</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 在 |x| = %2 处：相邻值间隔 %3</translation>
    </message>
    <message>
        <source>Relative spacing: precision (height) over the range (width)</source>
        <translation>相对间隔：精度（高度）与范围（宽度）</translation>
    </message>
    <message>
        <source>ulp(x) / |x| (log scale)</source>
        <translation>ulp(x) / |x|（对数刻度）</translation>
    </message>
    <message>
        <source>normal range: between ε/2 and ε = 2^−m; subnormals rise to 1</source>
        <translation>正规数范围：介于 ε/2 与 ε = 2^−m 之间；次正规数区间升至 1</translation>
    </message>
    <message>
        <source>ulp(x) / |x|; INT8 (scale 1): 1 / |x|</source>
        <translation>ulp(x) / |x|；INT8（缩放 1）：1 / |x|</translation>
    </message>
    <message>
        <source>IEEE 754-2019 §2.1 and §3.3; OCP OFP8 v1.0</source>
        <translation>IEEE 754-2019 §2.1 and §3.3; OCP OFP8 v1.0</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; at %2: neighbours %3 of the value apart</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 在 %2 处：相邻值相差该值的 %3</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; at |x| = %2: ulp/|x| = %3</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 在 |x| = %2 处：ulp/|x| = %3</translation>
    </message>
</context>
<context>
    <name>PredictionBandText</name>
    <message>
        <source> (± %1)</source>
        <translation> (± %1)</translation>
    </message>
    <message>
        <source> (error unknown)</source>
        <translation>（误差未知）</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>band p = the accelerator&apos;s leave-one-source-out 90th-percentile step-time error (each published run predicted with factors fitted without its source); a prediction t puts the actual value in [t/(1+p), t/(1−p)]</source>
        <translation>误差带 p = 该加速器留一来源（leave-one-source-out）步时误差的第 90 百分位（每个公开运行都用不含其来源拟合的系数预测）；预测值 t 意味着实际值位于 [t/(1+p), t/(1−p)]</translation>
    </message>
    <message numerus="yes">
        <source>%n published run(s) from %1 sources: held-out mean |error| %2, worst %3, 90th percentile %4 (the band); error on the runs the factors were fitted to %5</source>
        <translation>
            <numerusform>来自 %1 个来源的 %n 个公开运行：留出平均 |误差| %2，最差 %3，第 90 百分位 %4（即误差带）；在拟合系数所用运行上的误差 %5</numerusform>
        </translation>
    </message>
    <message>
        <source>no published runs: error unknown</source>
        <translation>无公开运行：误差未知</translation>
    </message>
    <message>
        <source>&lt;b&gt;± %1&lt;/b&gt;: the actual value likely lies between %2 and %3.</source>
        <translation>&lt;b&gt;± %1&lt;/b&gt;：实际值很可能介于 %2 与 %3 之间。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Error unknown&lt;/b&gt;: no error band for this accelerator.</source>
        <translation>&lt;b&gt;误差未知&lt;/b&gt;：此加速器没有误差带。</translation>
    </message>
    <message>
        <source>Basis: %1</source>
        <translation>依据：%1</translation>
    </message>
</context>
<context>
    <name>ServingCharts</name>
    <message>
        <source>tokens/s</source>
        <translation>词元/秒</translation>
    </message>
    <message>
        <source>total = weights (linear layers at the weight format, embedding and norms 16-bit, ÷ tp, the most loaded pipeline stage) + KV cache (2 · layers · ⌈KV heads / tp⌉ · head_dim · bytes · (prompt + output) · batch) + workspace (the largest prefill operator&apos;s activations and the residual stream of a micro-batch) + framework reserve; fits when total ≤ capacity</source>
        <translation>总计 = 权重（线性层按权重格式，嵌入与归一化 16 位，÷ tp，取负载最重的流水线阶段）+ KV 缓存（2 · 层数 · ⌈KV 头数 / tp⌉ · head_dim · 字节 · (提示 + 输出) · 批量）+ 工作区（最大预填充算子的激活与一个微批次的残差流）+ 框架预留；总计 ≤ 容量时可容纳</translation>
    </message>
    <message>
        <source>KV cache: Kwon et al. 2023 (vLLM) §3; int4 scales: Frantar et al. 2023 (GPTQ) §5, Lin et al. 2024 (AWQ); capacity: the accelerator&apos;s datasheet (hardware catalog); core/inference/serving_model</source>
        <translation>KV 缓存：Kwon et al. 2023（vLLM）§3；int4 缩放因子：Frantar et al. 2023（GPTQ）§5，Lin et al. 2024（AWQ）；容量：加速器数据手册（硬件目录）；core/inference/serving_model</translation>
    </message>
    <message>
        <source>Memory per GPU</source>
        <translation>每 GPU 内存</translation>
    </message>
    <message>
        <source>Batch</source>
        <translation>批量</translation>
    </message>
    <message>
        <source>Memory per GPU (GB)</source>
        <translation>每 GPU 内存（GB）</translation>
    </message>
    <message>
        <source>batch %1 (chosen)</source>
        <translation>批量 %1（所选）</translation>
    </message>
    <message>
        <source>batch %1 (largest that fits)</source>
        <translation>批量 %1（可容纳的最大值）</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>Workspace (activations)</source>
        <translation>工作区（激活）</translation>
    </message>
    <message>
        <source>Framework reserve</source>
        <translation>框架预留</translation>
    </message>
    <message>
        <source>weights at %1 (%2 bytes per weight), tp %3, pp %4</source>
        <translation>权重格式 %1（每个权重 %2 字节），tp %3，pp %4</translation>
    </message>
    <message>
        <source>%1 per token and sequence × (%2 + %3 tokens) × batch %4, at %5</source>
        <translation>每词元每序列 %1 × (%2 + %3 个词元) × 批量 %4，格式 %5</translation>
    </message>
    <message>
        <source>the largest prefill operator&apos;s activations and the residual stream of a micro-batch of %1</source>
        <translation>最大预填充算子的激活与 %1 个序列的微批次的残差流</translation>
    </message>
    <message>
        <source>the scenario&apos;s framework reserve (CUDA context, allocator)</source>
        <translation>场景的框架预留（CUDA 上下文、分配器）</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2&lt;br&gt;%3&lt;br&gt;total %4 of %5 (%6)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：%2&lt;br&gt;%3&lt;br&gt;总计 %4 / %5（%6）</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>可容纳</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>capacity %1</source>
        <translation>容量 %1</translation>
    </message>
    <message>
        <source>%1 on %2 × %3, tp %4, pp %5; weights %6, KV cache %7, activations %8</source>
        <translation>%1 运行于 %2 × %3，tp %4，pp %5；权重 %6，KV 缓存 %7，激活 %8</translation>
    </message>
    <message>
        <source>each point one batch b (1, 2, 4, … the largest that fits): TPOT = decode time / (output − 1) steps; output tokens/s per GPU = replicas · b · output / (TTFT + decode) / GPUs; decode&apos;s weight matmuls are compute-bound from the roofline&apos;s crossover batch (ridge point / intensity per sequence)</source>
        <translation>每个点是一个批量 b（1、2、4、… 直到可容纳的最大值）：TPOT = 解码时间 / (输出 − 1) 步；每 GPU 输出词元/秒 = 副本数 · b · 输出 / (TTFT + 解码) / GPU 数；从 roofline 的交叉批量（脊点 / 每序列强度）起，解码的权重矩阵乘为计算受限</translation>
    </message>
    <message>
        <source>core/inference sweepBatch over serve(); crossover: core/roofline decodeCrossoverBatch (Williams et al. 2009); latency–throughput trade-off as in Yu et al. 2022 (Orca) and Kwon et al. 2023 (vLLM)</source>
        <translation>core/inference 在 serve() 上的 sweepBatch；交叉点：core/roofline decodeCrossoverBatch（Williams et al. 2009）；延迟–吞吐权衡同 Yu et al. 2022（Orca）与 Kwon et al. 2023（vLLM）</translation>
    </message>
    <message>
        <source>Output tokens/s per GPU</source>
        <translation>每 GPU 输出词元/秒</translation>
    </message>
    <message>
        <source>Time per output token (ms)</source>
        <translation>每个输出词元的时间（ms）</translation>
    </message>
    <message>
        <source>Latency vs throughput: no batch fits in memory</source>
        <translation>延迟与吞吐：没有可放入内存的批量</translation>
    </message>
    <message>
        <source>Latency vs throughput over the batch (1 → %1)</source>
        <translation>延迟与吞吐随批量变化（1 → %1）</translation>
    </message>
    <message>
        <source>batch 1 → %1</source>
        <translation>批量 1 → %1</translation>
    </message>
    <message>
        <source>decode memory-bound</source>
        <translation>解码受内存限制</translation>
    </message>
    <message>
        <source>decode compute-bound</source>
        <translation>解码受计算限制</translation>
    </message>
    <message>
        <source>&lt;b&gt;batch %1&lt;/b&gt;&lt;br&gt;TPOT %2, TTFT %3, end to end %4&lt;br&gt;%5 per GPU (%6 in all)&lt;br&gt;memory %7, MBU %8, MFU %9&lt;br&gt;decode %10</source>
        <translation>&lt;b&gt;批量 %1&lt;/b&gt;&lt;br&gt;TPOT %2，TTFT %3，端到端 %4&lt;br&gt;每 GPU %5（总计 %6）&lt;br&gt;内存 %7，MBU %8，MFU %9&lt;br&gt;解码 %10</translation>
    </message>
    <message>
        <source>compute-bound</source>
        <translation>计算受限</translation>
    </message>
    <message>
        <source>memory-bound</source>
        <translation>内存受限</translation>
    </message>
    <message>
        <source>b=%1</source>
        <translation>b=%1</translation>
    </message>
    <message>
        <source>chosen batch %1</source>
        <translation>所选批量 %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;chosen batch %1&lt;/b&gt;&lt;br&gt;TPOT %2, %3 per GPU</source>
        <translation>&lt;b&gt;所选批量 %1&lt;/b&gt;&lt;br&gt;TPOT %2，每 GPU %3</translation>
    </message>
    <message>
        <source>decode crossover, batch %1</source>
        <translation>解码交叉点，批量 %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;decode crossover: batch %1&lt;/b&gt;&lt;br&gt;from here every decode weight matmul is compute-bound on the roofline; TPOT %2, %3 per GPU</source>
        <translation>&lt;b&gt;解码交叉点：批量 %1&lt;/b&gt;&lt;br&gt;从这里起，每个解码权重矩阵乘在 roofline 上都受计算限制；TPOT %2，每 GPU %3</translation>
    </message>
    <message>
        <source>largest batch %1, decode crossover %2; %3 prompt + %4 output tokens</source>
        <translation>最大批量 %1，解码交叉点 %2；%3 个提示 + %4 个输出词元</translation>
    </message>
    <message>
        <source>none up to 2²⁴</source>
        <translation>直到 2²⁴ 都没有</translation>
    </message>
    <message>
        <source>attainable = min(peak, I · bandwidth), I = FLOPs / bytes of one GPU&apos;s share of the operator; time = max(FLOPs / (peak · compute_fraction), bytes / (bandwidth · bandwidth_fraction))</source>
        <translation>可达性能 = min(峰值, I · 带宽)，I = 单 GPU 所分得算子的 FLOPs / 字节；时间 = max(FLOPs / (峰值 · compute_fraction), 字节 / (带宽 · bandwidth_fraction))</translation>
    </message>
    <message>
        <source>Williams, Waterman &amp; Patterson 2009 (Roofline), eq. 1; operators: core/roofline&apos;s prefill and decode phases from the one operator list (core/ops) at the serving formats; factors: resources/hardware/serving_efficiency.json</source>
        <translation>Williams, Waterman &amp; Patterson 2009（Roofline），式 1；算子：core/roofline 在服务格式下的预填充与解码阶段，来自唯一的算子列表（core/ops）；系数：resources/hardware/serving_efficiency.json</translation>
    </message>
    <message>
        <source>Arithmetic intensity (FLOP/byte, log scale)</source>
        <translation>算术强度（FLOP/字节，对数坐标）</translation>
    </message>
    <message>
        <source>Attainable FLOP/s (log scale)</source>
        <translation>可达 FLOP/s（对数坐标）</translation>
    </message>
    <message>
        <source>Prefill: batch %1 × %2 prompt tokens</source>
        <translation>预填充：批量 %1 × %2 个提示词元</translation>
    </message>
    <message>
        <source>Decode: one step of batch %1 at the mean context</source>
        <translation>解码：批量 %1 在平均上下文处的一步</translation>
    </message>
    <message>
        <source>roof at %1 (weight matmuls), ridge %2</source>
        <translation>%1 屋顶（权重矩阵乘），脊点 %2</translation>
    </message>
    <message>
        <source>16-bit roof (attention, element-wise), ridge %1</source>
        <translation>16 位屋顶（注意力、逐元素），脊点 %1</translation>
    </message>
    <message>
        <source>%1&lt;br&gt;I = %2 FLOP/B: min(%3, I · %4) = %5</source>
        <translation>%1&lt;br&gt;I = %2 FLOP/B：min(%3, I · %4) = %5</translation>
    </message>
    <message>
        <source>FLOP/s</source>
        <translation>FLOP/s</translation>
    </message>
    <message>
        <source>memory-bound operators</source>
        <translation>内存受限算子</translation>
    </message>
    <message>
        <source>compute-bound operators</source>
        <translation>计算受限算子</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (×%2)&lt;br&gt;shape %3&lt;br&gt;FLOPs %4, bytes %5, intensity %6 FLOP/B&lt;br&gt;time %7 (%8 of the pass), %9-bound at the serving factors</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;（×%2）&lt;br&gt;形状 %3&lt;br&gt;FLOPs %4，字节 %5，强度 %6 FLOP/B&lt;br&gt;时间 %7（占该遍的 %8），按服务系数为%9受限</translation>
    </message>
    <message>
        <source>FLOP</source>
        <translation>FLOP</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>内存</translation>
    </message>
    <message numerus="yes">
        <source>%1: %2 at %3, HBM %4; %n operator(s) without FLOPs (lookups) left out</source>
        <translation>
            <numerusform>%1：%2，%3 格式，HBM %4；省略了 %n 个没有 FLOPs 的算子（查表）</numerusform>
        </translation>
    </message>
    <message>
        <source>speedup = (1 − α^(γ+1)) / ((1 − α)(γc + 1)); expected tokens per target step (1 − α^(γ+1)) / (1 − α); c = draft TPOT / target TPOT on the same GPUs</source>
        <translation>加速比 = (1 − α^(γ+1)) / ((1 − α)(γc + 1))；每个目标步的期望词元数 (1 − α^(γ+1)) / (1 − α)；c = 草稿 TPOT / 目标 TPOT（同一组 GPU）</translation>
    </message>
    <message>
        <source>Leviathan, Kalman &amp; Matias 2023, &apos;Fast Inference from Transformers via Speculative Decoding&apos;, eq. 1 and Theorem 3.8 (α i.i.d.; the target checks γ + 1 tokens in one memory-bound step)</source>
        <translation>Leviathan, Kalman &amp; Matias 2023，《Fast Inference from Transformers via Speculative Decoding》，式 1 与定理 3.8（α 独立同分布；目标模型在一个内存受限的步内检查 γ + 1 个词元）</translation>
    </message>
    <message>
        <source>Acceptance rate α</source>
        <translation>接受率 α</translation>
    </message>
    <message>
        <source>Expected speedup of decode (×)</source>
        <translation>解码的期望加速比（×）</translation>
    </message>
    <message>
        <source>Speculative decoding: choose a draft model</source>
        <translation>推测解码：请选择草稿模型</translation>
    </message>
    <message>
        <source>Speculative decoding with %1: speedup over α</source>
        <translation>使用 %1 的推测解码：加速比随 α 变化</translation>
    </message>
    <message>
        <source>γ = %1 (chosen)</source>
        <translation>γ = %1（所选）</translation>
    </message>
    <message>
        <source>γ = %1</source>
        <translation>γ = %1</translation>
    </message>
    <message>
        <source>α = %1, γ = %2, c = %3: %4 tokens per target step, speedup %5×</source>
        <translation>α = %1，γ = %2，c = %3：每个目标步 %4 个词元，加速比 %5×</translation>
    </message>
    <message>
        <source>chosen α = %1</source>
        <translation>所选 α = %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;α = %1, γ = %2&lt;/b&gt;&lt;br&gt;%3 tokens per target step; c = %4 / %5 = %6&lt;br&gt;speedup %7×: TPOT %8 instead of %9</source>
        <translation>&lt;b&gt;α = %1，γ = %2&lt;/b&gt;&lt;br&gt;每个目标步 %3 个词元；c = %4 / %5 = %6&lt;br&gt;加速比 %7×：TPOT 为 %8 而非 %9</translation>
    </message>
    <message>
        <source>no speedup</source>
        <translation>无加速</translation>
    </message>
    <message>
        <source>draft %1 (TPOT %2), target TPOT %3, c = %4, γ = %5, α = %6</source>
        <translation>草稿 %1（TPOT %2），目标 TPOT %3，c = %4，γ = %5，α = %6</translation>
    </message>
</context>
<context>
    <name>TraceCharts</name>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Communication (exposed)</source>
        <translation>通信（未被掩盖）</translation>
    </message>
    <message>
        <source>Memory copies</source>
        <translation>内存拷贝</translation>
    </message>
    <message>
        <source>Idle, host-bound</source>
        <translation>空闲，受主机限制</translation>
    </message>
    <message>
        <source>Idle, waiting</source>
        <translation>空闲，等待中</translation>
    </message>
    <message>
        <source>Where each step&apos;s GPU time went</source>
        <translation>每一步的 GPU 时间去了哪里</translation>
    </message>
    <message>
        <source>Step (communication overlapped with compute)</source>
        <translation>步（通信与计算的重叠）</translation>
    </message>
    <message>
        <source>Time (ms)</source>
        <translation>时间（ms）</translation>
    </message>
    <message>
        <source>time at least one compute kernel runs (every class but NCCL, copies, memsets)</source>
        <translation>至少有一个计算内核在运行的时间（除 NCCL、拷贝、memset 外的所有类别）</translation>
    </message>
    <message>
        <source>time NCCL kernels run and no compute kernel does</source>
        <translation>NCCL 内核在运行而没有计算内核运行的时间</translation>
    </message>
    <message>
        <source>time copies or memsets run and neither compute nor NCCL kernels do</source>
        <translation>拷贝或 memset 在运行而计算内核和 NCCL 内核都没有运行的时间</translation>
    </message>
    <message>
        <source>no GPU activity and nothing queued: the CPU had not launched the next kernel yet</source>
        <translation>GPU 无活动且队列为空：CPU 还没有发射下一个内核</translation>
    </message>
    <message>
        <source>no GPU activity although work was launched and not started: waiting on an event, a synchronisation or another rank</source>
        <translation>GPU 无活动，但已有工作发射而未开始：在等待事件、同步或另一个 rank</translation>
    </message>
    <message>
        <source>#%1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>whole trace</source>
        <translation>整个 trace</translation>
    </message>
    <message>
        <source>%1 (overlap %2)</source>
        <translation>%1（重叠 %2）</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1, step %2&lt;/b&gt;&lt;br&gt;%3 ms = %4 of the step&apos;s GPU window (%5 ms)&lt;br&gt;%6</source>
        <translation>&lt;b&gt;%1，第 %2 步&lt;/b&gt;&lt;br&gt;%3 ms = 该步 GPU 窗口（%5 ms）的 %4&lt;br&gt;%6</translation>
    </message>
    <message>
        <source>&lt;br&gt;overlap = NCCL time under compute ÷ all NCCL time = %1 of %2 ms</source>
        <translation>&lt;br&gt;重叠 = 与计算同时的 NCCL 时间 ÷ 全部 NCCL 时间 = %2 ms 中的 %1</translation>
    </message>
    <message numerus="yes">
        <source>%Ln step(s); window = first start to last end of the GPU activities launched in the ProfilerStep range</source>
        <translation>
            <numerusform>%Ln 步；窗口 = 在 ProfilerStep 区间内发射的 GPU 活动从最早开始到最晚结束</numerusform>
        </translation>
    </message>
    <message>
        <source>compute + exposed communication + memory copies + idle = window, over the union of all streams (two kernels at once count once); idle = host-bound (nothing queued) + waiting (launched, not started); overlap % = NCCL time under compute ÷ NCCL time</source>
        <translation>计算 + 未掩盖的通信 + 内存拷贝 + 空闲 = 窗口，按所有流的并集计（同时运行的两个内核只计一次）；空闲 = 受主机限制（队列为空）+ 等待（已发射未开始）；重叠 % = 与计算同时的 NCCL 时间 ÷ NCCL 时间</translation>
    </message>
    <message>
        <source>GPU time per kernel class</source>
        <translation>各内核类别的 GPU 时间</translation>
    </message>
    <message>
        <source>Kernel class</source>
        <translation>内核类别</translation>
    </message>
    <message>
        <source>Summed duration (ms)</source>
        <translation>时长之和（ms）</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 activities, %3 ms summed = %4 of all GPU activity time</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 个活动，合计 %3 ms = 全部 GPU 活动时间的 %4</translation>
    </message>
    <message>
        <source>summed durations of the class&apos;s kernels (not a union: kernels on different streams at once both count)</source>
        <translation>该类别内核的时长之和（不是并集：不同流上同时运行的内核各自计入）</translation>
    </message>
    <message>
        <source>kernel classes from the kernel names and the launching CPU operators (core/traces/kernel_classifier)</source>
        <translation>内核类别来自内核名称和发射它的 CPU 算子（core/traces/kernel_classifier）</translation>
    </message>
    <message>
        <source>Summed duration</source>
        <translation>时长之和</translation>
    </message>
</context>
<context>
    <name>TraceTimelineLayer</name>
    <message>
        <source>GEMM</source>
        <translation>GEMM 矩阵乘</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>convolution</source>
        <translation>卷积</translation>
    </message>
    <message>
        <source>communication (NCCL)</source>
        <translation>通信（NCCL）</translation>
    </message>
    <message>
        <source>normalisation</source>
        <translation>归一化</translation>
    </message>
    <message>
        <source>reduction</source>
        <translation>归约</translation>
    </message>
    <message>
        <source>element-wise</source>
        <translation>逐元素</translation>
    </message>
    <message>
        <source>memory copy</source>
        <translation>内存拷贝</translation>
    </message>
    <message>
        <source>memset</source>
        <translation>内存置值（memset）</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>CPU: ProfilerStep</source>
        <translation>CPU：ProfilerStep 步</translation>
    </message>
    <message>
        <source>GPU %1 · stream %2</source>
        <translation>GPU %1 · 流 %2</translation>
    </message>
    <message>
        <source>ProfilerStep (CPU)</source>
        <translation>ProfilerStep 步（CPU）</translation>
    </message>
    <message>
        <source>&lt;b&gt;ProfilerStep#%1&lt;/b&gt; on the CPU&lt;br&gt;%2 ms to %3 ms (%4 ms)</source>
        <translation>&lt;b&gt;ProfilerStep#%1&lt;/b&gt;（CPU 上）&lt;br&gt;%2 ms 至 %3 ms（%4 ms）</translation>
    </message>
    <message>
        <source>Time since the trace&apos;s first event (ms; scroll to zoom, drag to pan, double-click to reset)</source>
        <translation>自 trace 第一个事件起的时间（ms；滚轮缩放，拖动平移，双击复位）</translation>
    </message>
    <message>
        <source>Timeline: no trace loaded</source>
        <translation>时间线：未加载 trace</translation>
    </message>
    <message numerus="yes">
        <source>Timeline of %1: %Ln GPU activities</source>
        <translation>
            <numerusform>%1 的时间线：%Ln 个 GPU 活动</numerusform>
        </translation>
    </message>
    <message>
        <source>One bar per GPU activity (kernel, memory copy, memset) from its ts to ts + dur, on its stream&apos;s row; class from the kernel name and the CPU operator that launched it; achieved FLOP/s = FLOPs of the linked operator&apos;s shapes / duration</source>
        <translation>每个 GPU 活动（内核、内存拷贝、memset）一条横条，从 ts 到 ts + dur，位于其所在流的行；类别来自内核名称和发射它的 CPU 算子；实际 FLOP/s = 关联算子形状的 FLOPs / 时长</translation>
    </message>
    <message>
        <source>PyTorch profiler (Kineto) Chrome-trace events; classes as in docs/user-guide/traces.md</source>
        <translation>PyTorch 性能分析器（Kineto）的 Chrome-trace 事件；类别见 docs/user-guide/traces.md</translation>
    </message>
    <message>
        <source>class: %1</source>
        <translation>类别：%1</translation>
    </message>
    <message>
        <source>start %1 ms, duration %2 µs, GPU %3 stream %4</source>
        <translation>开始 %1 ms，时长 %2 µs，GPU %3 流 %4</translation>
    </message>
    <message>
        <source>operator: %1</source>
        <translation>算子：%1</translation>
    </message>
    <message>
        <source>shape: %1 %2</source>
        <translation>形状：%1 %2</translation>
    </message>
    <message>
        <source>FLOPs %1, bytes %2</source>
        <translation>FLOPs %1，字节 %2</translation>
    </message>
    <message>
        <source>FLOP</source>
        <translation>FLOP</translation>
    </message>
    <message>
        <source>achieved %1 = FLOPs / duration; intensity %2 FLOP/B</source>
        <translation>实际达到 %1 = FLOPs / 时长；算术强度 %2 FLOP/B</translation>
    </message>
    <message>
        <source>FLOP/s</source>
        <translation>FLOP/s</translation>
    </message>
    <message>
        <source>bytes %1, %2</source>
        <translation>字节 %1，%2</translation>
    </message>
    <message>
        <source>FLOPs unknown (no linked operator with recorded shapes)</source>
        <translation>FLOPs 未知（没有记录了形状的关联算子）</translation>
    </message>
    <message>
        <source>CPU thread %1 · communication</source>
        <translation>CPU 线程 %1 · 通信</translation>
    </message>
    <message>
        <source>CPU thread %1 · top level</source>
        <translation>CPU 线程 %1 · 顶层</translation>
    </message>
    <message>
        <source>CPU thread %1 · one level in</source>
        <translation>CPU 线程 %1 · 下一层</translation>
    </message>
    <message>
        <source>communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>CPU ranges (annotations)</source>
        <translation>CPU 区间（标注）</translation>
    </message>
    <message>
        <source>a range the program annotated (user_annotation)</source>
        <translation>程序标注的区间（user_annotation）</translation>
    </message>
    <message>
        <source>start %1 ms, duration %2 µs, CPU thread %3</source>
        <translation>开始 %1 ms，时长 %2 µs，CPU 线程 %3</translation>
    </message>
    <message>
        <source>achieved %1 = FLOPs / duration</source>
        <translation>实际达到 %1 = FLOPs / 时长</translation>
    </message>
    <message>
        <source>bytes %1</source>
        <translation>字节 %1</translation>
    </message>
    <message>
        <source>FLOPs not counted (no recorded count, or no rule for this operator&apos;s shapes)</source>
        <translation>未计 FLOPs（没有记录的计数，或没有适用于该算子形状的规则）</translation>
    </message>
    <message numerus="yes">
        <source>Timeline of %1 (CPU only): %Ln operators</source>
        <translation>
            <numerusform>%1 的时间线（仅 CPU）：%Ln 个算子</numerusform>
        </translation>
    </message>
    <message>
        <source>No GPU activity: one bar per CPU operator from its ts to ts + dur, on its thread&apos;s rows (the top-level operators, and those one level inside them); class as the producer recorded it, else from the operator&apos;s name; achieved FLOP/s = FLOPs (recorded, or from the shapes) / duration</source>
        <translation>没有 GPU 活动：每个 CPU 算子一条，从 ts 到 ts + dur，画在其线程的行上（顶层算子，以及它们内部下一层的算子）；类别取生成者记录的类别，否则由算子名称判断；实际 FLOP/s = FLOPs（记录值，或由形状算出）/ 时长</translation>
    </message>
</context>
<context>
    <name>UnderflowCharts</name>
    <message numerus="yes">
        <source>%n step(s) of the reference transformer trained in FP32; each step&apos;s real gradients multiplied by the scale and cast to FP16 (simulated, round to nearest even)</source>
        <translation>
            <numerusform>参考 Transformer 以 FP32 训练的 %n 步；每步的真实梯度乘以缩放系数后转换为 FP16（模拟，就近舍入到偶数）</numerusform>
        </translation>
    </message>
    <message>
        <source>overflow (any scaled gradient inf/NaN in FP16): skip the step, scale × 0.5; after N good steps in a row: scale × 2</source>
        <translation>上溢（任一缩放后的梯度在 FP16 中为 inf/NaN）：跳过该步，缩放系数 × 0.5；连续 N 个正常步后：缩放系数 × 2</translation>
    </message>
    <message>
        <source>Micikevicius et al. 2018, Mixed Precision Training, §3.2; PyTorch GradScaler</source>
        <translation>Micikevicius et al. 2018, Mixed Precision Training, §3.2; PyTorch GradScaler</translation>
    </message>
    <message>
        <source>2^%1 = %2</source>
        <translation>2^%1 = %2</translation>
    </message>
    <message>
        <source>Gradients × S (S = %1) in log2 buckets</source>
        <translation>梯度 × S（S = %1）按 log2 分桶</translation>
    </message>
    <message>
        <source>k = floor(log2 |g × S|)</source>
        <translation>k = floor(log2 |g × S|)</translation>
    </message>
    <message>
        <source>Gradient elements</source>
        <translation>梯度元素</translation>
    </message>
    <message>
        <source>log2</source>
        <translation>log2</translation>
    </message>
    <message>
        <source>elements</source>
        <translation>元素数</translation>
    </message>
    <message>
        <source>→ 0 in %1</source>
        <translation>在 %1 中 → 0</translation>
    </message>
    <message>
        <source>%1 flushes to zero</source>
        <translation>%1 冲刷为零</translation>
    </message>
    <message>
        <source>|x| &lt; 2^%1 (half of %2&apos;s smallest subnormal 2^%3) rounds to zero</source>
        <translation>|x| &lt; 2^%1（%2 最小次正规数 2^%3 的一半）舍入为零</translation>
    </message>
    <message>
        <source>%1 subnormal</source>
        <translation>%1 次正规数</translation>
    </message>
    <message>
        <source>2^%1 ≤ |x| &lt; 2^%2: %3 subnormals, fewer significant bits</source>
        <translation>2^%1 ≤ |x| &lt; 2^%2：%3 次正规数，有效位更少</translation>
    </message>
    <message>
        <source>%1 normal</source>
        <translation>%1 正规数</translation>
    </message>
    <message>
        <source>2^%1 ≤ |x| ≤ %2: %3 normal numbers</source>
        <translation>2^%1 ≤ |x| ≤ %2：%3 正规数</translation>
    </message>
    <message>
        <source>%1 normal from 2^%2, beyond the left edge</source>
        <translation>%1 正规数自 2^%2 起，超出左边界</translation>
    </message>
    <message>
        <source>%1 keeps FP32&apos;s 8 exponent bits: normal from 2^%2 to %3, subnormal down to 2^%4</source>
        <translation>%1 保留 FP32 的 8 位指数：正规数范围 2^%2 至 %3，次正规数低至 2^%4</translation>
    </message>
    <message>
        <source>2^%1 ≤ |g × S| &lt; 2^%2: %3 elements</source>
        <translation>2^%1 ≤ |g × S| &lt; 2^%2：%3 个元素</translation>
    </message>
    <message>
        <source>Exactly zero (any format keeps it)</source>
        <translation>恰好为零（任何格式都能保留）</translation>
    </message>
    <message>
        <source>g = 0: %1 elements</source>
        <translation>g = 0：%1 个元素</translation>
    </message>
    <message>
        <source>= 0</source>
        <translation>= 0</translation>
    </message>
    <message>
        <source>%1 max %2: larger values overflow</source>
        <translation>%1 最大值 %2：更大的值会上溢</translation>
    </message>
    <message>
        <source>%1 gradient elements of the reference transformer after FP32 training steps, multiplied by the loss scale S = %2</source>
        <translation>参考 Transformer 经过 FP32 训练步后的 %1 个梯度元素，乘以损失缩放系数 S = %2</translation>
    </message>
    <message>
        <source>bucket k = floor(log2 |g·S|); %1: subnormal from 2^%2, normal from 2^%3, max %4; %5: normal from 2^%6</source>
        <translation>桶 k = floor(log2 |g·S|)；%1：次正规数自 2^%2 起，正规数自 2^%3 起，最大值 %4；%5：正规数自 2^%6 起</translation>
    </message>
    <message>
        <source>IEEE 754-2019 binary16; bfloat16; Micikevicius et al. 2018, Mixed Precision Training, Fig. 3 (the same histogram for an SSD network)</source>
        <translation>IEEE 754-2019 binary16; bfloat16; Micikevicius et al. 2018, Mixed Precision Training, Fig. 3 (the same histogram for an SSD network)</translation>
    </message>
    <message>
        <source>Dynamic loss scale (FP16 simulated on real gradients)</source>
        <translation>动态损失缩放（在真实梯度上模拟 FP16）</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Loss scale</source>
        <translation>损失缩放系数</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Loss scale used</source>
        <translation>实际使用的损失缩放系数</translation>
    </message>
    <message>
        <source>Overflow: step skipped, scale halved</source>
        <translation>上溢：跳过该步，缩放系数减半</translation>
    </message>
    <message>
        <source>step %1: scale %2, %3 of non-zero gradients flushed to zero in FP16 (%4 without scaling)</source>
        <translation>第 %1 步：缩放系数 %2，FP16 中 %3 的非零梯度被冲刷为零（不缩放时为 %4）</translation>
    </message>
    <message>
        <source>step %1: overflow at scale %2 (%3 of gradients inf in FP16); the step is skipped</source>
        <translation>第 %1 步：缩放系数 %2 下发生上溢（FP16 中 %3 的梯度为 inf）；跳过该步</translation>
    </message>
    <message>
        <source>Training loss (FP32 reference run)</source>
        <translation>训练损失（FP32 参考运行）</translation>
    </message>
    <message>
        <source>Loss (nats/token)</source>
        <translation>损失（nats/token）</translation>
    </message>
    <message>
        <source>nats/token</source>
        <translation>nats/token</translation>
    </message>
    <message>
        <source>Training loss</source>
        <translation>训练损失</translation>
    </message>
    <message>
        <source>Steps FP16 training would skip</source>
        <translation>FP16 训练会跳过的步</translation>
    </message>
    <message>
        <source>step %1: loss %2</source>
        <translation>第 %1 步：损失 %2</translation>
    </message>
    <message>
        <source>step %1: skipped in FP16 training (the FP32 reference takes it)</source>
        <translation>第 %1 步：FP16 训练中被跳过（FP32 参考运行照常执行）</translation>
    </message>
    <message>
        <source>Gradients flushed to zero by the FP16 cast</source>
        <translation>被 FP16 转换冲刷为零的梯度</translation>
    </message>
    <message>
        <source>Non-zero gradients flushed (%)</source>
        <translation>被冲刷为零的非零梯度（%）</translation>
    </message>
    <message>
        <source>%</source>
        <translation>%</translation>
    </message>
    <message>
        <source>With the dynamic loss scale</source>
        <translation>使用动态损失缩放</translation>
    </message>
    <message>
        <source>Without scaling</source>
        <translation>不缩放</translation>
    </message>
    <message>
        <source>step %1, scale %2: %3 flushed</source>
        <translation>第 %1 步，缩放系数 %2：%3 被冲刷为零</translation>
    </message>
    <message>
        <source>step %1, no scaling: %2 flushed</source>
        <translation>第 %1 步，不缩放：%2 被冲刷为零</translation>
    </message>
</context>
<context>
    <name>ValidationCharts</name>
    <message>
        <source>GEMM</source>
        <translation>GEMM</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>Memory-bound</source>
        <translation>访存受限</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>TP comm.</source>
        <translation>TP 通信</translation>
    </message>
    <message>
        <source>CP comm.</source>
        <translation>CP 通信</translation>
    </message>
    <message>
        <source>EP comm.</source>
        <translation>EP 通信</translation>
    </message>
    <message>
        <source>PP comm.</source>
        <translation>PP 通信</translation>
    </message>
    <message>
        <source>DP comm.</source>
        <translation>DP 通信</translation>
    </message>
    <message>
        <source>Bubble</source>
        <translation>气泡</translation>
    </message>
    <message>
        <source>Published step (s, log scale)</source>
        <translation>公布的单步时间（s，对数刻度）</translation>
    </message>
    <message>
        <source>Predicted step (s, log scale)</source>
        <translation>预测的单步时间（s，对数刻度）</translation>
    </message>
    <message>
        <source>Predicted vs published step time: no runs</source>
        <translation>预测与公布的单步时间对比：无运行记录</translation>
    </message>
    <message>
        <source>Predicted = published</source>
        <translation>预测 = 公布</translation>
    </message>
    <message>
        <source>+%1</source>
        <translation>+%1</translation>
    </message>
    <message>
        <source>−%1</source>
        <translation>−%1</translation>
    </message>
    <message>
        <source>Selected run</source>
        <translation>选中的运行</translation>
    </message>
    <message>
        <source>%1: error %2</source>
        <translation>%1：误差 %2</translation>
    </message>
    <message>
        <source>Part of the step</source>
        <translation>单步组成部分</translation>
    </message>
    <message>
        <source>Seconds per step</source>
        <translation>每步秒数</translation>
    </message>
    <message>
        <source>Predicted seconds</source>
        <translation>预测秒数</translation>
    </message>
    <message>
        <source>Stragglers</source>
        <translation>掉队者</translation>
    </message>
    <message>
        <source>Weight matmuls of the busiest stage (forward, backward, recomputation, every micro-batch): 2·m·n·k / (peak · peak fraction · tile × wave quantisation · k / (k + k₀)). Source: NVIDIA Deep Learning Performance Guide, &quot;Matrix Multiplication Background&quot;; shapes: Shoeybi et al. 2019 §3.</source>
        <translation>最忙阶段的权重矩阵乘（前向、反向、重计算，每个微批次）：2·m·n·k / (峰值 · 峰值比例 · 分块 × 波次量化 · k / (k + k₀))。来源：NVIDIA Deep Learning Performance Guide，“Matrix Multiplication Background”；形状：Shoeybi et al. 2019 §3。</translation>
    </message>
    <message>
        <source>Attention core: FlashAttention-2/3 kernels at a fitted fraction of peak, with causal block skipping and a key-length depth factor (Dao 2023; Shah et al. 2024), or the unfused score and context matmuls.</source>
        <translation>注意力核心：FlashAttention-2/3 内核，按拟合的峰值比例计，含因果块跳过和键长深度因子（Dao 2023；Shah et al. 2024），或未融合的分数与上下文矩阵乘。</translation>
    </message>
    <message>
        <source>Norms, softmax, activations, residuals, dropout, embedding and loss: bytes / (HBM bandwidth · streaming fraction), fused element-wise chains counted once when training.fused_elementwise is on.</source>
        <translation>归一化、softmax、激活、残差、dropout、嵌入与损失：字节数 / (HBM 带宽 · 流式比例)；开启 training.fused_elementwise 时，融合的逐元素链只计一次。</translation>
    </message>
    <message>
        <source>The optimizer step: a streaming kernel over the GPU&apos;s shard of weights, gradients and states.</source>
        <translation>优化器步：在该 GPU 的权重、梯度与状态分片上运行的流式内核。</translation>
    </message>
    <message>
        <source>TP/SP collectives compute cannot hide: all of them without tp_comm_overlap; with it each is split into tp chunks pipelined with its GEMM, max(T / tp, T − GEMM time) stays exposed. Source: Wang et al. 2023 (ASPLOS), Megatron-Core --tp-comm-overlap.</source>
        <translation>计算无法隐藏的 TP/SP 集合通信：未开启 tp_comm_overlap 时全部暴露；开启时每个集合通信拆成 tp 块与其 GEMM 流水，暴露 max(T / tp, T − GEMM 时间)。来源：Wang et al. 2023 (ASPLOS)，Megatron-Core --tp-comm-overlap。</translation>
    </message>
    <message>
        <source>Ring attention: each KV block&apos;s transfer overlaps the attention on the previous block, max(T / cp, T − attention) stays exposed. Source: Liu et al. 2023, Ring Attention §3.</source>
        <translation>环形注意力：每个 KV 块的传输与上一块的注意力计算重叠，暴露 max(T / cp, T − 注意力时间)。来源：Liu et al. 2023，Ring Attention §3。</translation>
    </message>
    <message>
        <source>Expert-parallel all-to-all: exposed (it feeds the experts directly).</source>
        <translation>专家并行 all-to-all：暴露（它直接为专家提供输入）。</translation>
    </message>
    <message>
        <source>Pipeline sends and receives: exposed; with pp_comm_overlap only the first and last of the step&apos;s 2·m·v transfers, T / (m·v). Source: Megatron-Core overlap_p2p_comm.</source>
        <translation>流水线发送与接收：暴露；开启 pp_comm_overlap 时只暴露该步 2·m·v 次传输中的首末两次，T / (m·v)。来源：Megatron-Core overlap_p2p_comm。</translation>
    </message>
    <message>
        <source>Gradient reduction in buckets during the last micro-batch&apos;s backward (the last bucket stays exposed; hierarchical collectives over nodes, a latency per bucket); with ZeRO-1/2 the parameter all-gather hides in the first forward when dp_param_gather_overlap is on. Source: Li et al. 2020 §3.2.3 (PyTorch DDP); Megatron-Core overlap_grad_reduce / overlap_param_gather.</source>
        <translation>梯度归约在最后一个微批次的反向过程中分桶进行（最后一个桶暴露；跨节点使用分层集合通信，每个桶一次延迟）；ZeRO-1/2 下开启 dp_param_gather_overlap 时，参数 all-gather 隐藏在第一次前向中。来源：Li et al. 2020 §3.2.3（PyTorch DDP）；Megatron-Core overlap_grad_reduce / overlap_param_gather。</translation>
    </message>
    <message>
        <source>Pipeline fill and drain: (pp − 1) / v busiest-stage micro-batch times. Source: Narayanan et al. 2021 §2.2.</source>
        <translation>流水线填充与排空：(pp − 1) / v 个最忙阶段微批次时间。来源：Narayanan et al. 2021 §2.2。</translation>
    </message>
    <message>
        <source>Waiting for the slowest GPU: compute · σ · z(N), z(N) the expected largest of N standard normals, Φ⁻¹((N − 0.375)/(N + 0.25)) (Blom 1958); σ = gpu_speed_spread, the spread of GPU speeds measured by Sinha et al. 2022.</source>
        <translation>等待最慢的 GPU：计算 · σ · z(N)，z(N) 为 N 个标准正态样本最大值的期望，Φ⁻¹((N − 0.375)/(N + 0.25))（Blom 1958）；σ = gpu_speed_spread，即 Sinha et al. 2022 测得的 GPU 速度离散度。</translation>
    </message>
    <message>
        <source>step = Σ kernels (forward, backward, recomputation of the busiest stage) + optimizer + exposed communication + bubble + stragglers (compute · σ · z(N)); GEMM efficiency = peak fraction × tile × wave quantisation × k / (k + k₀); streaming kernels at a fraction of HBM bandwidth; bubble = (pp − 1) / v micro-batch times</source>
        <translation>步时 = Σ 内核（最忙阶段的前向、反向、重计算）+ 优化器 + 暴露通信 + 气泡 + 掉队者（计算 · σ · z(N)）；GEMM 效率 = 峰值比例 × 分块 × 波次量化 × k / (k + k₀)；流式内核按 HBM 带宽的一定比例计；气泡 = (pp − 1) / v 个微批次时间</translation>
    </message>
    <message>
        <source>Kernel shapes: Shoeybi et al. 2019 §3; tile and wave quantisation: NVIDIA Deep Learning Performance Guide, &quot;Matrix Multiplication Background&quot;; bubble: Narayanan et al. 2021 §2.2; communication: alpha-beta collectives over NVLink / InfiniBand; stragglers: Blom 1958, σ from Sinha et al. 2022; MFU and HFU: PaLM (Chowdhery et al. 2022), App. B; factors: the hardware catalog&apos;s efficiency entry per accelerator (not fitted per run)</source>
        <translation>内核形状：Shoeybi et al. 2019 §3；分块与波次量化：NVIDIA Deep Learning Performance Guide，“Matrix Multiplication Background”；气泡：Narayanan et al. 2021 §2.2；通信：NVLink / InfiniBand 上的 alpha-beta 集合通信；掉队者：Blom 1958，σ 取自 Sinha et al. 2022；MFU 与 HFU：PaLM (Chowdhery et al. 2022)，附录 B；系数：硬件目录中每个加速器的效率条目（不按运行拟合）</translation>
    </message>
    <message>
        <source>Predicted vs published step time, by accelerator</source>
        <translation>预测与公开步时对比（按加速器）</translation>
    </message>
    <message>
        <source>unknown accelerator</source>
        <translation>未知加速器</translation>
    </message>
    <message>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (%2, %3)&lt;br&gt;published %4 s, predicted %5 s, error %6 (fitted), held out %7&lt;br&gt;predicted MFU %8, HFU %9</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;（%2，%3）&lt;br&gt;公开 %4 秒，预测 %5 秒，误差 %6（拟合），留出 %7&lt;br&gt;预测 MFU %8，HFU %9</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n run(s))</source>
        <translation>
            <numerusform>%1（%n 个运行）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n run(s); mean |error| %1, worst %2 (%3) with the catalog&apos;s factors, fitted to these runs; the held-out errors are in the table and the summary above</source>
        <translation>
            <numerusform>%n 个运行；使用目录系数（在这些运行上拟合）时平均 |误差| %1，最差 %2（%3）；留出误差见表格和上方摘要</numerusform>
        </translation>
    </message>
    <message>
        <source>Predicted step of %1: %2</source>
        <translation>%1 的预测步时：%2</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 s (%3 of the step)&lt;br&gt;%4</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：%2 秒（占该步 %3）&lt;br&gt;%4</translation>
    </message>
    <message numerus="yes">
        <source>busiest stage %1 (%n layer(s)), micro-batches per step %2; compute %3 s, exposed communication %4 s, bubble %5 s, optimizer %6 s, stragglers %9 s; MFU %7, HFU %8</source>
        <translation>
            <numerusform>最忙阶段 %1（%n 层），每步微批次 %2；计算 %3 秒，暴露通信 %4 秒，气泡 %5 秒，优化器 %6 秒，掉队者 %9 秒；MFU %7，HFU %8</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui</name>
    <message>
        <source>all-reduce</source>
        <translation>all-reduce</translation>
    </message>
    <message>
        <source>reduce-scatter</source>
        <translation>reduce-scatter</translation>
    </message>
    <message>
        <source>all-gather</source>
        <translation>all-gather</translation>
    </message>
    <message>
        <source>broadcast</source>
        <translation>broadcast</translation>
    </message>
    <message>
        <source>reduce</source>
        <translation>reduce</translation>
    </message>
    <message>
        <source>all-to-all</source>
        <translation>all-to-all</translation>
    </message>
    <message>
        <source>ring</source>
        <translation>环形 (ring)</translation>
    </message>
    <message>
        <source>tree (halving / doubling)</source>
        <translation>树形（折半 / 倍增）</translation>
    </message>
    <message>
        <source>GPipe</source>
        <translation>GPipe</translation>
    </message>
    <message>
        <source>1F1B</source>
        <translation>1F1B</translation>
    </message>
    <message>
        <source>Interleaved 1F1B</source>
        <translation>交错式 1F1B</translation>
    </message>
    <message>
        <source>ZB-H1 (zero bubble)</source>
        <translation>ZB-H1（零气泡）</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>B (input grad)</source>
        <translation>B（输入梯度）</translation>
    </message>
    <message>
        <source>W (weight grad)</source>
        <translation>W（权重梯度）</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>0 s</source>
        <translation>0 s</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>Framework reserve (CUDA context, NCCL buffers, allocator fragmentation): an input; the default is %1</source>
        <translation>框架预留（CUDA 上下文、NCCL 缓冲区、分配器碎片）：输入值；默认 %1</translation>
    </message>
    <message>
        <source>Framework reserve, the default: CUDA context %1 + NCCL buffers %2 + allocator fragmentation %3 (%4)</source>
        <translation>框架预留（默认）：CUDA 上下文 %1 + NCCL 缓冲区 %2 + 分配器碎片 %3（%4）</translation>
    </message>
    <message>
        <source>Hugging Face, “Model training anatomy”; NVIDIA/nccl #964; PyTorch’s out-of-memory report in vllm-project/compressed-tensors #587</source>
        <translation>Hugging Face《Model training anatomy》；NVIDIA/nccl #964；vllm-project/compressed-tensors #587 中 PyTorch 的显存不足报告</translation>
    </message>
    <message>
        <source>elements</source>
        <translation>个元素</translation>
    </message>
    <message>
        <source>parameters</source>
        <translation>个参数</translation>
    </message>
    <message>
        <source>tiles</source>
        <translation>分块</translation>
    </message>
    <message>
        <source>scores</source>
        <translation>个分数</translation>
    </message>
    <message>
        <source>recompute</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
</context>
<context>
    <name>lse::gui::AblationSection</name>
    <message>
        <source>Ablations</source>
        <translation>消融实验</translation>
    </message>
    <message>
        <source>Train variants of a small transformer with the CPU reference implementation, one after the other, on the same tokens (a byte-level BPE of the built-in TinyStories-style sample) and the same seed, so every variant sees the same batches and only the architecture differs. The studies shipped with the program are shown until you run your own.</source>
        <translation>使用 CPU 参考实现依次训练一个小型 Transformer 的各个变体，使用相同的 token（内置 TinyStories 风格样本的字节级 BPE）和相同的随机种子，因此每个变体看到的批完全相同，只有架构不同。在你运行自己的实验之前，显示程序自带的研究结果。</translation>
    </message>
    <message>
        <source>&amp;Study:</source>
        <translation>研究(&amp;S)：</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>模型(&amp;M)：</translation>
    </message>
    <message>
        <source>S&amp;teps per variant:</source>
        <translation>每个变体的步数(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;Variants:</source>
        <translation>变体(&amp;V)：</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Save results…</source>
        <translation>保存结果(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Open results…</source>
        <translation>打开结果(&amp;O)…</translation>
    </message>
    <message>
        <source>%1 layers, d_model %2, context %3</source>
        <translation>%1 层，d_model %2，上下文 %3</translation>
    </message>
    <message>
        <source>Ablation tiny (%1)</source>
        <translation>消融实验 tiny（%1）</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Variant</source>
        <translation>变体</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>改动</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation>token/s</translation>
    </message>
    <message>
        <source>Final validation loss</source>
        <translation>最终验证损失</translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation>墙钟时间</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Training tokens per second of the fastest tenth of the steps: other programs on the machine slow some steps down, the fast steps measure the variant itself. Validation is not included.</source>
        <translation>最快的十分之一步的每秒训练 token 数：机器上的其他程序会拖慢部分步，最快的步反映变体本身的速度。不包括验证。</translation>
    </message>
    <message>
        <source>finished, cancelled (the steps done before Cancel are kept) or diverged (a NaN or infinite loss)</source>
        <translation>已完成、已取消（保留取消前已完成的步）或已发散（出现 NaN 或无穷大的损失）</translation>
    </message>
    <message>
        <source>Norm type: RMSNorm vs LayerNorm vs none</source>
        <translation>归一化类型：RMSNorm vs LayerNorm vs 无</translation>
    </message>
    <message>
        <source>Activation at equal parameters: SwiGLU vs GeLU vs ReLU vs SiLU</source>
        <translation>参数相同时的激活函数：SwiGLU vs GeLU vs ReLU vs SiLU</translation>
    </message>
    <message>
        <source>Positional encoding: RoPE vs learned vs sinusoidal vs none</source>
        <translation>位置编码：RoPE vs 可学习 vs 正弦 vs 无</translation>
    </message>
    <message>
        <source>Norm placement: pre-norm vs post-norm</source>
        <translation>归一化位置：前置归一化 vs 后置归一化</translation>
    </message>
    <message>
        <source>Block: serial vs parallel attention and MLP</source>
        <translation>块结构：注意力与 MLP 串行 vs 并行</translation>
    </message>
    <message>
        <source>Showing the study shipped with the program (resources/ablations/%1), trained on a 2-core machine with: llm-explorer-cli ablate --study %2 --steps %3 --threads 1 --out %1. %4</source>
        <translation>显示程序自带的研究（resources/ablations/%1），在 2 核机器上用以下命令训练：llm-explorer-cli ablate --study %2 --steps %3 --threads 1 --out %1。%4</translation>
    </message>
    <message>
        <source>Showing this run%1. %2</source>
        <translation>显示本次运行%1。%2</translation>
    </message>
    <message>
        <source> (cancelled: the variants finished are kept)</source>
        <translation>（已取消：保留已完成的变体）</translation>
    </message>
    <message>
        <source>Showing %1. %2</source>
        <translation>显示 %1。%2</translation>
    </message>
    <message>
        <source>No results for this study yet: press Run.</source>
        <translation>该研究尚无结果：请点击“运行”。</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>diverged: %1</source>
        <translation>已发散：%1</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n step(s))</source>
        <translation>
            <numerusform>%1（%n 步）</numerusform>
        </translation>
    </message>
    <message>
        <source>Tick at least one variant to run.</source>
        <translation>请至少勾选一个要运行的变体。</translation>
    </message>
    <message>
        <source>Tokenizing the text…</source>
        <translation>正在对文本进行分词…</translation>
    </message>
    <message>
        <source>Cancelling after the current step…</source>
        <translation>将在当前步结束后取消…</translation>
    </message>
    <message>
        <source>Variant %1/%2 (%3): step %4/%5, loss %6</source>
        <translation>变体 %1/%2（%3）：第 %4/%5 步，损失 %6</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Cancelled: the variants finished before Cancel are kept.</source>
        <translation>已取消：保留取消前已完成的变体。</translation>
    </message>
    <message numerus="yes">
        <source>Finished: %n variant(s) trained.</source>
        <translation>
            <numerusform>已完成：训练了 %n 个变体。</numerusform>
        </translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>The run ended without a result.</source>
        <translation>运行结束，但没有结果。</translation>
    </message>
    <message>
        <source>Results saved to %1.</source>
        <translation>结果已保存到 %1。</translation>
    </message>
    <message>
        <source>the results file %1</source>
        <translation>结果文件 %1</translation>
    </message>
    <message>
        <source>Opened %1.</source>
        <translation>已打开 %1。</translation>
    </message>
    <message>
        <source>Save ablation results</source>
        <translation>保存消融实验结果</translation>
    </message>
    <message>
        <source>Ablation results (*.json)</source>
        <translation>消融实验结果 (*.json)</translation>
    </message>
    <message>
        <source>Cannot save the results</source>
        <translation>无法保存结果</translation>
    </message>
    <message>
        <source>Open ablation results</source>
        <translation>打开消融实验结果</translation>
    </message>
    <message>
        <source>Ablation results (*.json);;All files (*)</source>
        <translation>消融实验结果 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot open the results</source>
        <translation>无法打开结果</translation>
    </message>
    <message>
        <source>expected %1</source>
        <translation>应为 %1</translation>
    </message>
</context>
<context>
    <name>lse::gui::AccessOrderSection</name>
    <message>
        <source>A·B, B contiguous (column-major)</source>
        <translation>A·B，B 连续（列主序）</translation>
    </message>
    <message>
        <source>A·B, B a transposed view (row-major)</source>
        <translation>A·B，B 为转置视图（行主序）</translation>
    </message>
    <message>
        <source>Copy B to contiguous</source>
        <translation>先将 B 复制为连续</translation>
    </message>
    <message>
        <source>Loop by rows (stride 1)</source>
        <translation>按行遍历（步长 1）</translation>
    </message>
    <message>
        <source>Loop by columns (strided)</source>
        <translation>按列遍历（跨步）</translation>
    </message>
    <message>
        <source>Copy matrix to column order</source>
        <translation>将矩阵复制为列序</translation>
    </message>
    <message>
        <source>A·B contiguous</source>
        <translation>A·B 连续</translation>
    </message>
    <message>
        <source>A·B view</source>
        <translation>A·B 视图</translation>
    </message>
    <message>
        <source>copy B</source>
        <translation>复制 B</translation>
    </message>
    <message>
        <source>by rows</source>
        <translation>按行</translation>
    </message>
    <message>
        <source>by columns</source>
        <translation>按列</translation>
    </message>
    <message>
        <source>copy matrix</source>
        <translation>复制矩阵</translation>
    </message>
    <message>
        <source>Why layout matters</source>
        <translation>为何布局很重要</translation>
    </message>
    <message>
        <source>Timing the access orders on this CPU (one thread)…</source>
        <translation>正在本 CPU 上（单线程）测量各访问顺序的耗时…</translation>
    </message>
    <message>
        <source>Cancelled; the table keeps the last finished measurement.</source>
        <translation>已取消；表格保留上一次完成的测量结果。</translation>
    </message>
    <message>
        <source>The same arithmetic over the same bytes, read in two orders, timed on this CPU with one thread (median of the timed calls after one warm-up call). A transposed tensor is a view: same storage, swapped strides, so its inner loop jumps a whole row between neighbours. .contiguous() is a copy that reads and writes every element once; it pays for itself when the strided reads cost more than the copy does.</source>
        <translation>相同的运算、相同的字节，以两种顺序读取，在本 CPU 上单线程计时（一次预热调用后各次计时调用的中位数）。转置后的张量是一个视图：存储相同，步长互换，因此其内层循环在相邻元素之间要跳过整整一行。.contiguous() 是一次复制，每个元素读写各一次；当跨步读取的代价高于复制本身时，复制就物有所值。</translation>
    </message>
    <message>
        <source>Product n:</source>
        <translation>乘积 n：</translation>
    </message>
    <message>
        <source>Loop rows:</source>
        <translation>遍历行数：</translation>
    </message>
    <message>
        <source>Loop columns:</source>
        <translation>遍历列数：</translation>
    </message>
    <message>
        <source>Timed calls:</source>
        <translation>计时调用次数：</translation>
    </message>
    <message>
        <source>Measure</source>
        <translation>测量</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>&lt;b&gt;Why:&lt;/b&gt; memory moves in 64-byte cache lines. Reading by rows uses all 16 floats of each line; reading by columns uses one float per line, and once a column&apos;s lines no longer fit in the cache, every read fetches a new line: up to 16× the traffic, plus a TLB miss per 4 KiB page (Drepper 2007, &lt;i&gt;What Every Programmer Should Know About Memory&lt;/i&gt;, §6.2). Eigen stores matrices column-major by default and a row-major Map over the same buffer is the transpose without a copy (Eigen documentation, &lt;i&gt;Storage orders&lt;/i&gt;). Its matrix product copies blocks of both operands into packed, contiguous panels before multiplying (Goto &amp; van de Geijn 2008), so the product barely notices the operand&apos;s order: the copy is already inside the GEMM. A plain loop has no such packing, and there the order decides.</source>
        <translation>&lt;b&gt;原因：&lt;/b&gt;内存以 64 字节的缓存行为单位移动。按行读取会用到每行全部 16 个 float；按列读取每行只用到一个 float，而一旦一列所占的缓存行无法再装入缓存，每次读取都要取一个新行：流量最多可达 16×，另外每个 4 KiB 页还会产生一次 TLB 未命中（Drepper 2007, &lt;i&gt;What Every Programmer Should Know About Memory&lt;/i&gt;, §6.2）。Eigen 默认以列主序存储矩阵，而在同一缓冲区上建立行主序的 Map 即可得到转置，无需复制（Eigen documentation, &lt;i&gt;Storage orders&lt;/i&gt;）。其矩阵乘法在相乘之前会把两个操作数的分块复制到打包的连续面板中（Goto &amp; van de Geijn 2008），因此乘积几乎不受操作数存储顺序的影响：复制已经包含在 GEMM 内部。普通循环没有这种打包，此时顺序起决定作用。</translation>
    </message>
    <message numerus="yes">
        <source>C = A·B with n = %1 (fp32, %2 per matrix); loop over a %3 × %4 fp32 matrix (%5); %n timed call(s) per variant</source>
        <translation>
            <numerusform>C = A·B，n = %1（fp32，每个矩阵 %2）；遍历 %3 × %4 的 fp32 矩阵（%5）；每个变体计时调用 %n 次</numerusform>
        </translation>
    </message>
    <message>
        <source>Variant</source>
        <translation>变体</translation>
    </message>
    <message>
        <source>Median (ms)</source>
        <translation>中位数（ms）</translation>
    </message>
    <message>
        <source>Bytes read + written</source>
        <translation>读取 + 写入字节数</translation>
    </message>
    <message>
        <source>Inner-loop stride</source>
        <translation>内层循环步长</translation>
    </message>
    <message>
        <source>GB/s</source>
        <translation>GB/s</translation>
    </message>
    <message>
        <source>GFLOP/s</source>
        <translation>GFLOP/s</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 字节</translation>
    </message>
    <message>
        <source>Press Measure to time the six variants.</source>
        <translation>按“测量”对六个变体计时。</translation>
    </message>
    <message>
        <source>%1: copying first and then reading contiguously is &lt;b&gt;%2 ms faster&lt;/b&gt; than reading the view in place — the copy pays for itself.</source>
        <translation>%1：先复制再连续读取，比原地读取视图&lt;b&gt;快 %2 ms&lt;/b&gt;——复制物有所值。</translation>
    </message>
    <message>
        <source>%1: copying first costs &lt;b&gt;%2 ms more&lt;/b&gt; than reading the view in place — for one read the copy does not pay for itself.</source>
        <translation>%1：先复制比原地读取视图&lt;b&gt;多花 %2 ms&lt;/b&gt;——只读一次时，复制得不偿失。</translation>
    </message>
    <message numerus="yes">
        <source>A tensor read %n time(s) or more repays its copy.</source>
        <translation>
            <numerusform>张量读取 %n 次或以上即可收回复制的成本。</numerusform>
        </translation>
    </message>
    <message>
        <source>The strided read is no slower here, so the copy never repays itself.</source>
        <translation>此处跨步读取并不更慢，因此复制永远收不回成本。</translation>
    </message>
    <message>
        <source>Product</source>
        <translation>乘积</translation>
    </message>
    <message>
        <source>Loop</source>
        <translation>循环</translation>
    </message>
    <message>
        <source>Median time per call on this CPU</source>
        <translation>本 CPU 上每次调用的中位时间</translation>
    </message>
    <message>
        <source>Bytes each variant reads and writes</source>
        <translation>各变体读写的字节数</translation>
    </message>
    <message>
        <source>Median time (ms)</source>
        <translation>中位时间（ms）</translation>
    </message>
    <message>
        <source>Bytes read + written (MB)</source>
        <translation>读取 + 写入字节数（MB）</translation>
    </message>
    <message>
        <source>median of the timed calls after one warm-up call (std::chrono::steady_clock)</source>
        <translation>一次预热调用后各次计时调用的中位数（std::chrono::steady_clock）</translation>
    </message>
    <message>
        <source>product: read A and B, write C = 3·n²·4 bytes; loop: rows·cols·4; copy: 2× the matrix</source>
        <translation>乘积：读 A 和 B、写 C = 3·n²·4 字节；循环：rows·cols·4；复制：矩阵的 2×</translation>
    </message>
    <message>
        <source>core/tensors/access_timing.cpp; Drepper 2007 §6.2</source>
        <translation>core/tensors/access_timing.cpp; Drepper 2007 §6.2</translation>
    </message>
    <message>
        <source>contiguous read</source>
        <translation>连续读取</translation>
    </message>
    <message>
        <source>strided read</source>
        <translation>跨步读取</translation>
    </message>
    <message>
        <source>copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>%1: %2 ms, %3, stride %4 bytes</source>
        <translation>%1：%2 ms，%3，步长 %4 字节</translation>
    </message>
    <message>
        <source>Achieved bandwidth: bytes read + written / median time</source>
        <translation>实测带宽：读取 + 写入字节数 / 中位时间</translation>
    </message>
    <message>
        <source>Achieved bandwidth: press Measure</source>
        <translation>实测带宽：请按“测量”</translation>
    </message>
    <message>
        <source>GB/s = (bytes each element is read and written once) / median time; the strided variants move whole 64-byte lines, so their real traffic is higher</source>
        <translation>GB/s = （每个元素读写各一次的字节数）/ 中位时间；跨步变体移动的是整条 64 字节缓存行，因此实际流量更高</translation>
    </message>
    <message>
        <source>%1: %2 GB/s, %3 GFLOP/s</source>
        <translation>%1：%2 GB/s，%3 GFLOP/s</translation>
    </message>
</context>
<context>
    <name>lse::gui::ArchitecturePage</name>
    <message>
        <source>Architecture</source>
        <translation>架构</translation>
    </message>
</context>
<context>
    <name>lse::gui::AtlasSection</name>
    <message>
        <source>Model atlas</source>
        <translation>模型图谱</translation>
    </message>
    <message>
        <source>Filter by model, organisation or family</source>
        <translation>按模型、机构或系列筛选</translation>
    </message>
    <message>
        <source>All families</source>
        <translation>所有系列</translation>
    </message>
    <message>
        <source>Show one family of models</source>
        <translation>只显示一个模型系列</translation>
    </message>
    <message>
        <source>Years</source>
        <translation>年份</translation>
    </message>
    <message>
        <source>Load as scenario model</source>
        <translation>载入为场景模型</translation>
    </message>
    <message>
        <source>Replace the scenario&apos;s model with the selected row (one undo step); settings the model rules out adapt as when a preset is chosen</source>
        <translation>用所选行替换场景中的模型（可一步撤销）；与该模型不兼容的设置会像选择预设时一样自动调整</translation>
    </message>
    <message>
        <source>Double-click a row or press Enter to load it; hover a row for its source and notes. Bold: the current scenario&apos;s model.</source>
        <translation>双击某行或按 Enter 载入；鼠标悬停在行上可查看其来源和备注。粗体：当前场景的模型。</translation>
    </message>
    <message>
        <source>Load %1 from the model atlas</source>
        <translation>从模型图谱载入 %1</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n model(s)</source>
        <translation>
            <numerusform>%1 / %n 个模型</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::AtlasTableModel</name>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>QKV</source>
        <translation>QKV</translation>
    </message>
    <message>
        <source>out</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>MLP</source>
        <translation>MLP</translation>
    </message>
    <message>
        <source>head</source>
        <translation>输出头</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>%1 per expert</source>
        <translation>每个专家 %1</translation>
    </message>
    <message>
        <source>%1 / top-%2 / %3 shared</source>
        <translation>%1 / top-%2 / %3 共享</translation>
    </message>
    <message>
        <source>Engine: %1 parameters</source>
        <translation>引擎：%1 参数</translation>
    </message>
    <message>
        <source> (%1 active per token)</source>
        <translation>（每 token 激活 %1）</translation>
    </message>
    <message>
        <source>Published: %1</source>
        <translation>公布的：%1</translation>
    </message>
    <message>
        <source>Published: no count given</source>
        <translation>公布的：未给出数量</translation>
    </message>
    <message>
        <source>Source:</source>
        <translation>来源：</translation>
    </message>
    <message>
        <source>Note:</source>
        <translation>注：</translation>
    </message>
    <message>
        <source>This is the current scenario&apos;s model.</source>
        <translation>这是当前场景的模型。</translation>
    </message>
    <message>
        <source>d_ff / d_model (a MoE model: one routed expert&apos;s width / d_model). A gated FFN (SwiGLU, GeGLU) has three matrices instead of two, so 8/3 ≈ 2.67 gated has the parameters of 4 ungated.</source>
        <translation>d_ff / d_model（MoE 模型：单个路由专家的宽度 / d_model）。门控 FFN（SwiGLU、GeGLU）有三个矩阵而不是两个，因此门控 8/3 ≈ 2.67 的参数量相当于非门控 4。</translation>
    </message>
    <message>
        <source>The cost engine&apos;s exact count of the row&apos;s shapes (core/cost/parameters).</source>
        <translation>成本引擎对该行各形状的精确计数（core/cost/parameters）。</translation>
    </message>
    <message>
        <source>The count the authors publish (model card, paper table or checkpoint).</source>
        <translation>作者公布的数量（模型卡、论文表格或检查点）。</translation>
    </message>
    <message>
        <source>(engine − published) / published</source>
        <translation>（引擎 − 公布）/ 公布</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Organisation</source>
        <translation>机构</translation>
    </message>
    <message>
        <source>Family</source>
        <translation>系列</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>d_model</source>
        <translation>d_model</translation>
    </message>
    <message>
        <source>Heads</source>
        <translation>头数</translation>
    </message>
    <message>
        <source>KV heads</source>
        <translation>KV 头数</translation>
    </message>
    <message>
        <source>Head dim</source>
        <translation>头维度</translation>
    </message>
    <message>
        <source>d_ff</source>
        <translation>d_ff</translation>
    </message>
    <message>
        <source>FFN ratio</source>
        <translation>FFN 比值</translation>
    </message>
    <message>
        <source>Expert d_ff</source>
        <translation>专家 d_ff</translation>
    </message>
    <message>
        <source>Experts</source>
        <translation>专家数</translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation>词表</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>上下文长度</translation>
    </message>
    <message>
        <source>Norm</source>
        <translation>归一化</translation>
    </message>
    <message>
        <source>Norm placement</source>
        <translation>归一化位置</translation>
    </message>
    <message>
        <source>Activation</source>
        <translation>激活函数</translation>
    </message>
    <message>
        <source>Positions</source>
        <translation>位置编码</translation>
    </message>
    <message>
        <source>Parallel block</source>
        <translation>并行块</translation>
    </message>
    <message>
        <source>Tied embeddings</source>
        <translation>共享嵌入</translation>
    </message>
    <message>
        <source>Biases</source>
        <translation>偏置</translation>
    </message>
    <message>
        <source>Engine params</source>
        <translation>引擎参数量</translation>
    </message>
    <message>
        <source>Published params</source>
        <translation>公布的参数量</translation>
    </message>
    <message>
        <source>Difference</source>
        <translation>差异</translation>
    </message>
</context>
<context>
    <name>lse::gui::AutosaveFormat</name>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>not valid JSON (%1 at offset %2)</source>
        <translation>不是有效的 JSON（%1，位于偏移 %2）</translation>
    </message>
    <message>
        <source>an autosave must be a JSON object</source>
        <translation>自动保存文件必须是一个 JSON 对象</translation>
    </message>
    <message>
        <source>&quot;format&quot; must be &quot;%1&quot;</source>
        <translation>&quot;format&quot; 必须为 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>&quot;format_version&quot; must be 1 to %1</source>
        <translation>&quot;format_version&quot; 必须为 1 到 %1</translation>
    </message>
    <message>
        <source>&quot;document_path&quot; must be a string (empty for an untitled document)</source>
        <translation>&quot;document_path&quot; 必须是字符串（未命名文档为空）</translation>
    </message>
    <message>
        <source>&quot;saved_at&quot; must be an ISO 8601 time</source>
        <translation>&quot;saved_at&quot; 必须是 ISO 8601 时间</translation>
    </message>
    <message>
        <source>&quot;scenario&quot; must be a scenario object</source>
        <translation>&quot;scenario&quot; 必须是场景对象</translation>
    </message>
    <message>
        <source>&quot;scenario&quot; is not a valid scenario: %1</source>
        <translation>&quot;scenario&quot; 不是有效的场景：%1</translation>
    </message>
</context>
<context>
    <name>lse::gui::AutosaveSlot</name>
    <message>
        <source>cannot create the autosave folder %1</source>
        <translation>无法创建自动保存文件夹 %1</translation>
    </message>
    <message>
        <source>cannot create a lock file in the autosave folder %1</source>
        <translation>无法在自动保存文件夹 %1 中创建锁文件</translation>
    </message>
    <message>
        <source>%1: larger than %2 MB; an autosave holds one scenario of a few kilobytes</source>
        <translation>%1：大于 %2 MB；自动保存文件仅包含一个几 KB 大小的场景</translation>
    </message>
    <message>
        <source>%1: cannot be read (%2)</source>
        <translation>%1：无法读取（%2）</translation>
    </message>
</context>
<context>
    <name>lse::gui::CalibrationDialog</name>
    <message>
        <source>Calibrate %1</source>
        <translation>校准 %1</translation>
    </message>
    <message>
        <source>Measured step time (s)</source>
        <translation>实测单步时间（s）</translation>
    </message>
    <message>
        <source>Measured model TFLOP/s per GPU</source>
        <translation>实测每 GPU 模型 TFLOP/s</translation>
    </message>
    <message>
        <source>Model TFLOP/s count matmul FLOPs without recomputation, as this app&apos;s MFU does</source>
        <translation>模型 TFLOP/s 只计矩阵乘法 FLOPs，不含重计算，与本应用的 MFU 口径一致</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>拟合</translation>
    </message>
    <message>
        <source>%1 (calibrated)</source>
        <translation>%1（已校准）</translation>
    </message>
    <message>
        <source>Save as new hardware entry</source>
        <translation>另存为新的硬件条目</translation>
    </message>
    <message>
        <source>Appends the accelerator with the fitted factor to %1 and uses it in the scenario</source>
        <translation>将带有拟合因子的加速器追加到 %1，并在场景中使用它</translation>
    </message>
    <message>
        <source>Measurement</source>
        <translation>测量值</translation>
    </message>
    <message>
        <source>Name of the new entry</source>
        <translation>新条目名称</translation>
    </message>
    <message>
        <source>catalog default</source>
        <translation>目录默认值</translation>
    </message>
    <message numerus="yes">
        <source>Current scenario on %1 (%n GPU(s)): predicted step %2 s, MFU %3, with GEMM peak fraction %4 (%5).</source>
        <translation>
            <numerusform>当前场景在 %1（%n 个 GPU）上：预测单步时间 %2 s，MFU %3，GEMM 峰值比例 %4（%5）。</numerusform>
        </translation>
    </message>
    <message>
        <source>The current scenario cannot be predicted:
%1</source>
        <translation>无法预测当前场景：
%1</translation>
    </message>
    <message>
        <source>%1: enter a value</source>
        <translation>%1：请输入数值</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; is not a number</source>
        <translation>%1：“%2”不是数字</translation>
    </message>
    <message>
        <source>%1: must be greater than 0 (got %2)</source>
        <translation>%1：必须大于 0（当前为 %2）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: the fit failed:
%2</source>
        <translation>%1：拟合失败：
%2</translation>
    </message>
    <message>
        <source>The fitted factor cannot be used:
%1</source>
        <translation>拟合得到的因子无法使用：
%1</translation>
    </message>
    <message>
        <source>%1 model TFLOP/s per GPU (a step of %2 s)</source>
        <translation>每 GPU %1 模型 TFLOP/s（单步 %2 s）</translation>
    </message>
    <message>
        <source>a step of %1 s</source>
        <translation>单步 %1 s</translation>
    </message>
    <message>
        <source>Measured step %1 s. Fitted GEMM peak fraction %2 (was %3); predicted step %4 s (was %5 s), MFU %6; remaining error %7.</source>
        <translation>实测单步 %1 s。拟合得到 GEMM 峰值比例 %2（原为 %3）；预测单步 %4 s（原为 %5 s），MFU %6；剩余误差 %7。</translation>
    </message>
    <message>
        <source>Fit first: enter a measurement and press Fit</source>
        <translation>请先拟合：输入测量值并点击“拟合”</translation>
    </message>
    <message>
        <source>Name of the new entry: enter a name</source>
        <translation>新条目名称：请输入名称</translation>
    </message>
    <message>
        <source>Not saved; the hardware file was left as it is:
%1</source>
        <translation>未保存；硬件文件保持不变：
%1</translation>
    </message>
    <message>
        <source>Not saved:
%1</source>
        <translation>未保存：
%1</translation>
    </message>
    <message>
        <source>Saved as %1 in %2</source>
        <translation>已保存为 %1，位于 %2</translation>
    </message>
    <message>
        <source>Use calibrated accelerator %1</source>
        <translation>使用已校准的加速器 %1</translation>
    </message>
</context>
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
        <source>Could not write the PDF document %1.</source>
        <translation>无法写入 PDF 文档 %1。</translation>
    </message>
    <message>
        <source>Could not write the SVG image %1.</source>
        <translation>无法写入 SVG 图像 %1。</translation>
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
    <message>
        <source>Drawn on the same points as “%1” (dashed where one lies on the other)</source>
        <translation>与“%1”画在相同的点上（两线重合处以虚线显示）</translation>
    </message>
    <message>
        <source>Could not write the PNG image %1: %2</source>
        <translation>无法写入 PNG 图像 %1：%2</translation>
    </message>
</context>
<context>
    <name>lse::gui::CollectiveWhere</name>
    <message>
        <source>MLP backward: gradient of down-proj output</source>
        <translation>MLP 反向：down-proj 输出的梯度</translation>
    </message>
    <message>
        <source>MLP backward: input gradient of up-proj</source>
        <translation>MLP 反向：up-proj 的输入梯度</translation>
    </message>
    <message>
        <source>MLP backward: input gradient of up-proj (column-parallel)</source>
        <translation>MLP 反向：up-proj 的输入梯度（列并行）</translation>
    </message>
    <message>
        <source>MLP forward: after down-proj (row-parallel)</source>
        <translation>MLP 前向：down-proj 之后（行并行）</translation>
    </message>
    <message>
        <source>MLP forward: after down-proj (tensor -&gt; sequence parallel)</source>
        <translation>MLP 前向：down-proj 之后（张量并行 -&gt; 序列并行）</translation>
    </message>
    <message>
        <source>MLP forward: before up-proj (sequence -&gt; tensor parallel)</source>
        <translation>MLP 前向：up-proj 之前（序列并行 -&gt; 张量并行）</translation>
    </message>
    <message>
        <source>MoE backward: gradients of the combine</source>
        <translation>MoE 反向：合并的梯度</translation>
    </message>
    <message>
        <source>MoE backward: gradients of the dispatch</source>
        <translation>MoE 反向：分发的梯度</translation>
    </message>
    <message>
        <source>MoE forward: combine expert outputs</source>
        <translation>MoE 前向：合并专家输出</translation>
    </message>
    <message>
        <source>MoE forward: dispatch tokens to experts</source>
        <translation>MoE 前向：把 token 分发给专家</translation>
    </message>
    <message>
        <source>after the optimizer step: updated parameter shards</source>
        <translation>优化器步之后：更新后的参数分片</translation>
    </message>
    <message>
        <source>attention backward: gradient of out-proj output</source>
        <translation>注意力反向：out-proj 输出的梯度</translation>
    </message>
    <message>
        <source>attention backward: input gradient of QKV</source>
        <translation>注意力反向：QKV 的输入梯度</translation>
    </message>
    <message>
        <source>attention backward: input gradient of QKV (column-parallel)</source>
        <translation>注意力反向：QKV 的输入梯度（列并行）</translation>
    </message>
    <message>
        <source>attention forward: after out-proj (row-parallel)</source>
        <translation>注意力前向：out-proj 之后（行并行）</translation>
    </message>
    <message>
        <source>attention forward: after out-proj (tensor -&gt; sequence parallel)</source>
        <translation>注意力前向：out-proj 之后（张量并行 -&gt; 序列并行）</translation>
    </message>
    <message>
        <source>attention forward: before QKV (sequence -&gt; tensor parallel)</source>
        <translation>注意力前向：QKV 之前（序列并行 -&gt; 张量并行）</translation>
    </message>
    <message>
        <source>backward: gradient buckets (overlaps with backward)</source>
        <translation>反向：梯度桶（与反向计算重叠）</translation>
    </message>
    <message>
        <source>backward: gradient buckets to their shard owners</source>
        <translation>反向：梯度桶发往其分片所有者</translation>
    </message>
    <message>
        <source>backward: gradient shards</source>
        <translation>反向：梯度分片</translation>
    </message>
    <message>
        <source>backward: parameters of each layer again</source>
        <translation>反向：再次收集每层参数</translation>
    </message>
    <message>
        <source>backward: this rank&apos;s 1/tp slice of the activation gradients to the previous stage</source>
        <translation>反向：本 rank 的 1/tp 份激活梯度发往上一阶段</translation>
    </message>
    <message>
        <source>forward: parameters of each layer (ZeRO-3 prefetch)</source>
        <translation>前向：每层参数（ZeRO-3 预取）</translation>
    </message>
    <message>
        <source>forward: this rank&apos;s 1/tp slice of the activations to the next stage</source>
        <translation>前向：本 rank 的 1/tp 份激活发往下一阶段</translation>
    </message>
    <message>
        <source>recomputed MLP forward: after down-proj</source>
        <translation>重计算的 MLP 前向：down-proj 之后</translation>
    </message>
    <message>
        <source>recomputed MLP forward: before up-proj</source>
        <translation>重计算的 MLP 前向：up-proj 之前</translation>
    </message>
    <message>
        <source>recomputed attention forward: after out-proj</source>
        <translation>重计算的注意力前向：out-proj 之后</translation>
    </message>
    <message>
        <source>recomputed attention forward: before QKV</source>
        <translation>重计算的注意力前向：QKV 之前</translation>
    </message>
    <message>
        <source>LM head backward: input gradient (column-parallel over the vocabulary)</source>
        <translation>LM 头反向：输入梯度（按词表列并行）</translation>
    </message>
    <message>
        <source>LM head backward: input gradient to the sequence shards</source>
        <translation>LM 头反向：输入梯度归约分散到序列分片</translation>
    </message>
    <message>
        <source>LM head forward: input rows from the sequence shards</source>
        <translation>LM 头前向：从序列分片收集输入行</translation>
    </message>
    <message>
        <source>after backward: gradients of the weights every tp rank holds whole (norms)</source>
        <translation>反向之后：每个 tp rank 完整持有的权重（归一化层）的梯度</translation>
    </message>
    <message>
        <source>embedding backward: output gradient from the sequence shards</source>
        <translation>嵌入层反向：从序列分片收集输出梯度</translation>
    </message>
    <message>
        <source>embedding forward: partial rows of the vocabulary-parallel lookup</source>
        <translation>嵌入层前向：词表并行查表的部分行</translation>
    </message>
    <message>
        <source>embedding forward: partial rows to the sequence shards</source>
        <translation>嵌入层前向：部分行归约分散到序列分片</translation>
    </message>
    <message>
        <source>loss forward: logit of the target (vocabulary-parallel cross-entropy)</source>
        <translation>损失前向：目标词的 logit（词表并行交叉熵）</translation>
    </message>
    <message>
        <source>loss forward: row maximum of the logits (vocabulary-parallel cross-entropy)</source>
        <translation>损失前向：每行 logits 的最大值（词表并行交叉熵）</translation>
    </message>
    <message>
        <source>loss forward: sum of exponentials (vocabulary-parallel cross-entropy)</source>
        <translation>损失前向：指数和（词表并行交叉熵）</translation>
    </message>
</context>
<context>
    <name>lse::gui::CollectivesMeasurementSection</name>
    <message>
        <source>mpiexec was not found: install Open MPI (apt-get install openmpi-bin) to measure this machine.</source>
        <translation>未找到 mpiexec：请安装 Open MPI（apt-get install openmpi-bin）以测量本机。</translation>
    </message>
    <message>
        <source>llm-explorer-cli was not found next to the app or on PATH; the worker processes run it.</source>
        <translation>在应用旁边或 PATH 中未找到 llm-explorer-cli；工作进程需要运行它。</translation>
    </message>
    <message numerus="yes">
        <source>Measuring the link between %n process(es) on this machine…</source>
        <translation>
            <numerusform>正在测量本机 %n 个进程之间的链路…</numerusform>
        </translation>
    </message>
    <message>
        <source>Measurement cancelled; the saved profile is unchanged.</source>
        <translation>测量已取消；已保存的配置保持不变。</translation>
    </message>
    <message>
        <source>The measurement failed (%1): %2</source>
        <translation>测量失败（%1）：%2</translation>
    </message>
    <message>
        <source>mpiexec ended without a message.</source>
        <translation>mpiexec 已结束，未输出任何消息。</translation>
    </message>
    <message>
        <source>The measurement ran but its profile was not saved: %1</source>
        <translation>测量已完成，但其配置未能保存：%1</translation>
    </message>
    <message numerus="yes">
        <source>Measured and saved for %n rank(s); this page now shows another rank count.</source>
        <translation>
            <numerusform>已为 %n 个 rank 测量并保存；本页当前显示的是另一个 rank 数。</numerusform>
        </translation>
    </message>
    <message>
        <source>The measurement finished but its saved profile could not be read back.</source>
        <translation>测量已完成，但无法读回其已保存的配置。</translation>
    </message>
    <message numerus="yes">
        <source>No measurement of this machine for %n rank(s) yet.</source>
        <translation>
            <numerusform>尚未针对 %n 个 rank 测量本机。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>This machine, %n rank(s), measured %1: α = %2 per ring step, β = %3/s per rank.</source>
        <translation>
            <numerusform>本机，%n 个 rank，测量于 %1：α = %2（每个环步），β = %3/s（每个 rank）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Measure on this machine&lt;/b&gt; — a ping-pong and ring all-reduce sweep between %n local process(es) over MPI, as nccl-tests measures; train --dp %n predicts its collectives with the fit.</source>
        <translation>
            <numerusform>&lt;b&gt;在本机上测量&lt;/b&gt; — 通过 MPI 在 %n 个本地进程之间进行 ping-pong 和环形 all-reduce 扫描，测量方式同 nccl-tests；train --dp %n 使用拟合结果预测其集合通信。</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Measure on this machine</source>
        <translation>在本机上测量(&amp;M)</translation>
    </message>
    <message>
        <source>Runs mpiexec -np %1 llm-explorer-cli links --json and saves the fitted α and β as this machine&apos;s link profile for %1 ranks.</source>
        <translation>运行 mpiexec -np %1 llm-explorer-cli links --json，并将拟合的 α 和 β 保存为本机 %1 个 rank 的链路配置（link profile）。</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Message size S (bytes, log scale)</source>
        <translation>消息大小 S（字节，对数刻度）</translation>
    </message>
    <message>
        <source>Time (s, log scale)</source>
        <translation>时间（秒，对数刻度）</translation>
    </message>
    <message>
        <source>Ring all-reduce on this machine vs the model, n = %1</source>
        <translation>本机上的环形 all-reduce 与模型对比，n = %1</translation>
    </message>
    <message>
        <source>t = 2(n−1)α + 2(n−1)/n·S/β (ring all-reduce, Patarasuk &amp; Yuan 2009)</source>
        <translation>t = 2(n−1)α + 2(n−1)/n·S/β（环形 all-reduce，Patarasuk &amp; Yuan 2009）</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;S = %2: t = %3&lt;br&gt;%4</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;S = %2：t = %3&lt;br&gt;%4</translation>
    </message>
    <message>
        <source>fitted to this machine (α = %1, β = %2/s)</source>
        <translation>拟合本机（α = %1，β = %2/s）</translation>
    </message>
    <message>
        <source>model: %1 link (α = %2, β = %3/s)</source>
        <translation>模型：%1 链路（α = %2，β = %3/s）</translation>
    </message>
    <message>
        <source>measured on this machine (%1)</source>
        <translation>本机实测（%1）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Measured&lt;/b&gt;&lt;br&gt;S = %1: t = %2 (median)&lt;br&gt;algbw %3/s, busbw %4/s</source>
        <translation>&lt;b&gt;实测&lt;/b&gt;&lt;br&gt;S = %1：t = %2（中位数）&lt;br&gt;algbw %3/s，busbw %4/s</translation>
    </message>
    <message>
        <source>n = %1; this machine: α = %2, β = %3/s (least-squares fit of the sweep, measured %4); %5 link: α = %6, β = %7/s</source>
        <translation>n = %1；本机：α = %2，β = %3/s（扫描结果的最小二乘拟合，测量于 %4）；%5 链路：α = %6，β = %7/s</translation>
    </message>
    <message>
        <source>n = %1; %2 link: α = %3, β = %4/s; this machine not measured yet</source>
        <translation>n = %1；%2 链路：α = %3，β = %4/s；尚未测量本机</translation>
    </message>
    <message>
        <source>Patarasuk &amp; Yuan 2009 (ring all-reduce); sweep and bandwidths as nccl-tests (doc/PERFORMANCE.md); fit: core/distributed/link_measurement</source>
        <translation>Patarasuk &amp; Yuan 2009 (ring all-reduce); sweep and bandwidths as nccl-tests (doc/PERFORMANCE.md); fit: core/distributed/link_measurement</translation>
    </message>
</context>
<context>
    <name>lse::gui::CollectivesPage</name>
    <message>
        <source>Collectives</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <source>A collective moves a message of S bytes between n ranks in steps; in each step every rank sends at most one message. Step through the algorithm (Space plays or pauses, Left/Right step) to see which block goes where, and compare the closed-form time on the cluster&apos;s NVLink-class and network links.</source>
        <translation>集合通信在若干步内把 S 字节的消息在 n 个 rank 之间传递；每一步中每个 rank 至多发送一条消息。逐步执行算法（空格键播放或暂停，左/右方向键单步），查看每个数据块的去向，并比较在集群的 NVLink 类链路和网络链路上的闭式时间。</translation>
    </message>
    <message>
        <source>&amp;Operation:</source>
        <translation>操作(&amp;O)：</translation>
    </message>
    <message>
        <source>&amp;Algorithm:</source>
        <translation>算法(&amp;A)：</translation>
    </message>
    <message>
        <source>&amp;Ranks n:</source>
        <translation>rank 数 n(&amp;R)：</translation>
    </message>
    <message>
        <source>&amp;Message S:</source>
        <translation>消息 S(&amp;M)：</translation>
    </message>
    <message>
        <source>&amp;Link:</source>
        <translation>链路(&amp;L)：</translation>
    </message>
    <message>
        <source>intra-node</source>
        <translation>节点内</translation>
    </message>
    <message>
        <source>inter-node</source>
        <translation>节点间</translation>
    </message>
    <message>
        <source>Message size follows nccl-tests: all-reduce, broadcast and reduce move S bytes; all-gather&apos;s S is the full output, reduce-scatter&apos;s the full input, all-to-all&apos;s each rank&apos;s send buffer.</source>
        <translation>消息大小沿用 nccl-tests 的约定：all-reduce、broadcast 和 reduce 传输 S 字节；all-gather 的 S 是完整输出，reduce-scatter 的 S 是完整输入，all-to-all 的 S 是每个 rank 的发送缓冲区。</translation>
    </message>
    <message>
        <source>Ring (Patarasuk &amp; Yuan 2009): n−1 steps of S/n per phase. Tree: recursive halving / doubling and binomial trees (Thakur, Rabenseifner &amp; Gropp 2005).</source>
        <translation>Ring（Patarasuk &amp; Yuan 2009）：每个阶段 n−1 步，每步 S/n。Tree：递归减半/倍增与二项树（Thakur, Rabenseifner &amp; Gropp 2005）。</translation>
    </message>
    <message>
        <source>Number of ranks taking part (2–%1 for a readable diagram).</source>
        <translation>参与的 rank 数（2–%1，以保证示意图清晰可读）。</translation>
    </message>
    <message>
        <source>Which link of the scenario&apos;s cluster the step simulation uses: intra-node (NVLink / Infinity Fabric / ICI) or inter-node (network per GPU).</source>
        <translation>单步模拟使用场景集群中的哪条链路：节点内（NVLink / Infinity Fabric / ICI）或节点间（每 GPU 的网络）。</translation>
    </message>
    <message>
        <source>Previous step (Left)</source>
        <translation>上一步（左方向键）</translation>
    </message>
    <message>
        <source>Next step (Right)</source>
        <translation>下一步（右方向键）</translation>
    </message>
    <message>
        <source>Step 0 shows the buffers before the collective</source>
        <translation>第 0 步显示集合通信开始前的缓冲区</translation>
    </message>
    <message>
        <source>t = 2(n−1)·α + 2(n−1)/n · S/β (reduce-scatter, then all-gather)</source>
        <translation>t = 2(n−1)·α + 2(n−1)/n · S/β（先 reduce-scatter，再 all-gather）</translation>
    </message>
    <message>
        <source>t = 2·log₂p·α + 2(p−1)/p · S/β, p = n for a power of two (Rabenseifner: halving then doubling); otherwise + 2(α + S/β) to fold the extra ranks</source>
        <translation>t = 2·log₂p·α + 2(p−1)/p · S/β，n 为 2 的幂时 p = n（Rabenseifner：先减半再倍增）；否则再加 2(α + S/β) 以折叠多出的 rank</translation>
    </message>
    <message>
        <source>t = (n−1)·α + (n−1)/n · S/β</source>
        <translation>t = (n−1)·α + (n−1)/n · S/β</translation>
    </message>
    <message>
        <source>t = log₂n·α + (n−1)/n · S/β for a power of two n (recursive halving / doubling)</source>
        <translation>t = log₂n·α + (n−1)/n · S/β，n 为 2 的幂（递归减半/倍增）</translation>
    </message>
    <message>
        <source>t = 2(n−1)·(α + S/(n·β)) (pipelined chain of n blocks)</source>
        <translation>t = 2(n−1)·(α + S/(n·β))（n 个数据块的流水线链）</translation>
    </message>
    <message>
        <source>t = ⌈log₂n⌉·(α + S/β) (binomial tree)</source>
        <translation>t = ⌈log₂n⌉·(α + S/β)（二项树）</translation>
    </message>
    <message>
        <source>t = (n−1)·α + (n−1)/n · S/β (n−1 exchanges of S/n)</source>
        <translation>t = (n−1)·α + (n−1)/n · S/β（n−1 次交换，每次 S/n）</translation>
    </message>
    <message>
        <source>Cannot simulate: %1</source>
        <translation>无法模拟：%1</translation>
    </message>
    <message>
        <source>Nothing to send with one rank.</source>
        <translation>只有一个 rank，无需发送。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Before step 1&lt;/b&gt; of %1: every rank holds its own buffer of %2 blocks.</source>
        <translation>&lt;b&gt;第 1 步之前&lt;/b&gt;（共 %1 步）：每个 rank 持有自己的缓冲区，含 %2 个数据块。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Step %1 of %2&lt;/b&gt;: %3 messages, up to %4 each, %5 (α + bytes/β of the busiest rank); %6 of %7 done.</source>
        <translation>&lt;b&gt;第 %1 步，共 %2 步&lt;/b&gt;：%3 条消息，每条至多 %4，耗时 %5（最繁忙 rank 的 α + 字节数/β）；已完成 %6 / %7。</translation>
    </message>
    <message>
        <source>Total %1 in %2 steps; each rank sends up to %3. &lt;b&gt;Algorithm bandwidth&lt;/b&gt; S/t = %4/s, &lt;b&gt;bus bandwidth&lt;/b&gt; = algbw × %5 = %6/s (nccl-tests PERFORMANCE.md; compare with the link&apos;s β = %7/s).</source>
        <translation>总计 %1，共 %2 步；每个 rank 至多发送 %3。&lt;b&gt;算法带宽&lt;/b&gt; S/t = %4/s，&lt;b&gt;总线带宽&lt;/b&gt; = algbw × %5 = %6/s（见 nccl-tests PERFORMANCE.md；可与链路的 β = %7/s 比较）。</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1, %2 ranks, S = %3: before the first step</source>
        <translation>%1，%2 个 rank，S = %3：第一步之前</translation>
    </message>
    <message>
        <source>%1, %2 ranks, S = %3: step %4 of %5</source>
        <translation>%1，%2 个 rank，S = %3：第 %4 步，共 %5 步</translation>
    </message>
    <message>
        <source>rank %1 (root)</source>
        <translation>rank %1（根）</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rank %1&lt;/b&gt;&lt;br&gt;%2 blocks of %3</source>
        <translation>&lt;b&gt;Rank %1&lt;/b&gt;&lt;br&gt;%2 个数据块，每块 %3</translation>
    </message>
    <message>
        <source>sent and summed into the receiver&apos;s block</source>
        <translation>发送并累加到接收方的数据块</translation>
    </message>
    <message>
        <source>sent and copied</source>
        <translation>发送并复制</translation>
    </message>
    <message>
        <source>%1 +</source>
        <translation>%1 +</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rank %1 → rank %2&lt;/b&gt;&lt;br&gt;block %3, %4&lt;br&gt;%5&lt;br&gt;step time %6 = α + %7 / β</source>
        <translation>&lt;b&gt;Rank %1 → rank %2&lt;/b&gt;&lt;br&gt;数据块 %3，%4&lt;br&gt;%5&lt;br&gt;单步时间 %6 = α + %7 / β</translation>
    </message>
    <message>
        <source>added to the receiver&apos;s partial sum</source>
        <translation>加到接收方的部分和上</translation>
    </message>
    <message>
        <source>copied over the receiver&apos;s block</source>
        <translation>覆盖接收方的数据块</translation>
    </message>
    <message>
        <source>n = %1, S = %2, α = %3, β = %4/s</source>
        <translation>n = %1，S = %2，α = %3，β = %4/s</translation>
    </message>
    <message>
        <source>Patarasuk &amp; Yuan 2009 (ring); Thakur, Rabenseifner &amp; Gropp 2005 §4 (tree)</source>
        <translation>Patarasuk &amp; Yuan 2009 (ring); Thakur, Rabenseifner &amp; Gropp 2005 §4 (tree)</translation>
    </message>
    <message>
        <source>Buffers: %1</source>
        <translation>缓冲区：%1</translation>
    </message>
    <message>
        <source>Each rank&apos;s buffer, block by block</source>
        <translation>每个 rank 的缓冲区（按数据块）</translation>
    </message>
    <message>
        <source>before</source>
        <translation>之前</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rank %1, block %2&lt;/b&gt; before: %3</source>
        <translation>&lt;b&gt;Rank %1，数据块 %2&lt;/b&gt; 之前：%3</translation>
    </message>
    <message>
        <source>adds the block from rank %1</source>
        <translation>加上来自 rank %1 的数据块</translation>
    </message>
    <message>
        <source>receives the block from rank %1</source>
        <translation>接收来自 rank %1 的数据块</translation>
    </message>
    <message>
        <source>sends it to rank %1</source>
        <translation>发送给 rank %1</translation>
    </message>
    <message>
        <source>idle in this step</source>
        <translation>本步空闲</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rank %1, %2 %3&lt;/b&gt; in step %4: %5</source>
        <translation>&lt;b&gt;Rank %1，%2 %3&lt;/b&gt; 在第 %4 步：%5</translation>
    </message>
    <message>
        <source>slot</source>
        <translation>槽位</translation>
    </message>
    <message>
        <source>block</source>
        <translation>数据块</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rank %1, %2 %3&lt;/b&gt; after: %4</source>
        <translation>&lt;b&gt;Rank %1，%2 %3&lt;/b&gt; 之后：%4</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rank %1, block %2&lt;/b&gt; after: %3 — not part of the result (what the algorithm left there)</source>
        <translation>&lt;b&gt;Rank %1，数据块 %2&lt;/b&gt; 之后：%3 — 不属于结果（算法留在此处的值）</translation>
    </message>
    <message>
        <source>■ sends</source>
        <translation>■ 发送</translation>
    </message>
    <message>
        <source>■ receives and adds</source>
        <translation>■ 接收并累加</translation>
    </message>
    <message>
        <source>■ receives a copy</source>
        <translation>■ 接收副本</translation>
    </message>
    <message>
        <source>■ part of the result</source>
        <translation>■ 结果的一部分</translation>
    </message>
    <message>
        <source>n = %1 ranks, %2 blocks of %3; rank r&apos;s block i starts as (r+1)·1000 + i</source>
        <translation>n = %1 个 rank，%2 个数据块，每块 %3；rank r 的第 i 块初始值为 (r+1)·1000 + i</translation>
    </message>
    <message>
        <source>Values are core&apos;s simulation: every transfer of a step reads the buffers as they were before the step; a reducing transfer adds, others copy.</source>
        <translation>数值来自 core 的模拟：一步中的每次传输读取的都是该步之前的缓冲区；归约型传输做加法，其余做复制。</translation>
    </message>
    <message>
        <source>Patarasuk &amp; Yuan 2009; Thakur, Rabenseifner &amp; Gropp 2005 §4</source>
        <translation>Patarasuk &amp; Yuan 2009; Thakur, Rabenseifner &amp; Gropp 2005 §4</translation>
    </message>
    <message>
        <source>Message size S (bytes, log scale)</source>
        <translation>消息大小 S（字节，对数刻度）</translation>
    </message>
    <message>
        <source>Time (s, log scale)</source>
        <translation>时间（秒，对数刻度）</translation>
    </message>
    <message>
        <source>%1 %2 time vs message size, n = %3</source>
        <translation>%1 %2 时间随消息大小的变化，n = %3</translation>
    </message>
    <message>
        <source>inter-node (β = %1/s, α = %2)</source>
        <translation>节点间（β = %1/s，α = %2）</translation>
    </message>
    <message>
        <source>intra-node (β = %1/s, α = %2)</source>
        <translation>节点内（β = %1/s，α = %2）</translation>
    </message>
    <message>
        <source>algbw %1/s, busbw %2/s</source>
        <translation>algbw %1/s，busbw %2/s</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;S = %2: t = %3&lt;br&gt;%4</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;S = %2：t = %3&lt;br&gt;%4</translation>
    </message>
    <message>
        <source>inter-node: %1/s × efficiency %2, α = %3</source>
        <translation>节点间：%1/s × 效率 %2，α = %3</translation>
    </message>
    <message>
        <source>intra-node: %1/s × efficiency %2, α = %3</source>
        <translation>节点内：%1/s × 效率 %2，α = %3</translation>
    </message>
    <message>
        <source>Simulated above (S = %1)</source>
        <translation>上方模拟（S = %1）</translation>
    </message>
    <message>
        <source>Step simulation: %1 in %2 steps</source>
        <translation>单步模拟：%1，共 %2 步</translation>
    </message>
    <message>
        <source>%1 (%2); n = %3</source>
        <translation>%1（%2）；n = %3</translation>
    </message>
    <message>
        <source> — latency dominates small messages, bandwidth large ones</source>
        <translation> — 小消息由延迟主导，大消息由带宽主导</translation>
    </message>
    <message>
        <source>Alpha-beta model: Thakur, Rabenseifner &amp; Gropp 2005; ring: Patarasuk &amp; Yuan 2009; bandwidths: %1</source>
        <translation>Alpha-beta 模型：Thakur, Rabenseifner &amp; Gropp 2005；ring：Patarasuk &amp; Yuan 2009；带宽：%1</translation>
    </message>
    <message>
        <source>expected one of %1, got %2</source>
        <translation>应为 %1 之一，实际为 %2</translation>
    </message>
    <message>
        <source>expected an integer in 0..%1 for this collective, got %2</source>
        <translation>对此集合通信应为 0..%1 范围内的整数，实际为 %2</translation>
    </message>
    <message>
        <source>send (before)</source>
        <translation>发送（之前）</translation>
    </message>
    <message>
        <source>step —</source>
        <translation>步骤 —</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>receive (after)</source>
        <translation>接收（之后）</translation>
    </message>
    <message>
        <source>after</source>
        <translation>之后</translation>
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
    <message>
        <source>s = %1 for all %2 built-in presets (labels that would overlap are left out; hover a point for its name)</source>
        <translation>全部 %2 个内置预设均取 s = %1（会重叠的标签已省略；鼠标悬停在点上可查看名称）</translation>
    </message>
</context>
<context>
    <name>lse::gui::CpuMeasurementSection</name>
    <message>
        <source>&lt;b&gt;This CPU: decode measured&lt;/b&gt; — the reference transformer (untrained, the chosen preset) generates %1 tokens after a %2-token prompt for a batch of 1, 8 and 32 sequences on this machine, beside the prediction from this CPU&apos;s kernel factors.</source>
        <translation>&lt;b&gt;本机 CPU：实测解码&lt;/b&gt;——参考 Transformer（未训练，所选预设）在本机上以 1、8、32 条序列的批量，在 %2 个词元的提示之后生成 %1 个词元，并与根据本机 CPU 内核系数得到的预测并列。</translation>
    </message>
    <message>
        <source>At batch 1 every decode step reads all the weights from memory to make one token per sequence: the step is memory-bound and tokens/s grows almost in proportion to the batch. Each weight read then serves more tokens, until the matrix products reach what the cores can compute: decode turns compute-bound and tokens/s levels off. Prefill is compute-bound from the start: its time grows with the batch.</source>
        <translation>批量为 1 时，每个解码步都要从内存读取全部权重，只为每条序列产生一个词元：这一步受内存带宽限制，词元/秒几乎与批量成正比增长。随着批量增大，每次读取的权重服务更多词元，直到矩阵乘法达到核心的计算能力：解码转为受计算限制，词元/秒趋于平稳。预填充从一开始就受计算限制：其耗时随批量增长。</translation>
    </message>
    <message>
        <source>Decode from memory-bound to compute-bound</source>
        <translation>解码从受内存限制转为受计算限制</translation>
    </message>
    <message>
        <source>decode step ≈ max(weight bytes / memory bandwidth, 2 · parameters · B / FLOP rate) + attention over the KV cache; tokens/s = B / step time; the crossover where weight bytes / bandwidth = 2 · parameters · B / FLOP rate</source>
        <translation>解码步 ≈ max(权重字节 / 内存带宽, 2 · 参数量 · B / FLOP 速率) + 对 KV 缓存的注意力；词元/秒 = B / 步时间；转折点：权重字节 / 带宽 = 2 · 参数量 · B / FLOP 速率</translation>
    </message>
    <message>
        <source>Williams et al. 2009 (roofline); Pope et al. 2022 (Efficiently scaling transformer inference) §2; predictor: core/performance/cpu_inference_prediction with this CPU&apos;s kernel factors (Machine page)</source>
        <translation>Williams et al. 2009（屋顶线模型）；Pope et al. 2022（Efficiently scaling transformer inference）§2；预测器：core/performance/cpu_inference_prediction，使用本机 CPU 的内核系数（机器页面）</translation>
    </message>
    <message>
        <source>Reference model:</source>
        <translation>参考模型：</translation>
    </message>
    <message>
        <source>The bundled reference preset generated with (untrained: the speed depends on the shapes, not on the weights).</source>
        <translation>用于生成的内置参考预设（未训练：速度取决于形状，而非权重）。</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Measure this CPU: the kernel factors first when none are cached (a few seconds), then one batched generation per batch.</source>
        <translation>测量本机 CPU：若无缓存，先测量内核系数（几秒钟），然后每个批量进行一次批量生成。</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Batch</source>
        <translation>批量</translation>
    </message>
    <message>
        <source>Generating at batch %1…</source>
        <translation>正在以批量 %1 生成…</translation>
    </message>
    <message>
        <source>Measuring this CPU&apos;s kernel factors (once; then cached): %1…</source>
        <translation>正在测量本机 CPU 的内核系数（仅一次，之后缓存）：%1…</translation>
    </message>
    <message>
        <source>Preparing: this CPU&apos;s kernel factors…</source>
        <translation>准备中：本机 CPU 的内核系数…</translation>
    </message>
    <message>
        <source>Press Start to measure decode and prefill on this CPU (a few seconds to a minute; the kernel factors are measured first when none are cached).</source>
        <translation>按“开始”在本机 CPU 上测量解码和预填充（几秒到一分钟；若无缓存，先测量内核系数）。</translation>
    </message>
    <message numerus="yes">
        <source>Cancelled after %n batch(es).</source>
        <translation>
            <numerusform>已在 %n 个批量后取消。</numerusform>
        </translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation>运行失败：%1</translation>
    </message>
    <message>
        <source>Measured at %1; kernel factors of %2.</source>
        <translation>测量条件：%1；内核系数测于 %2。</translation>
    </message>
    <message>
        <source>none (no prediction)</source>
        <translation>无（没有预测）</translation>
    </message>
    <message>
        <source>prefill: the batched forward pass of every prompt and the first token&apos;s sampling, after one untimed warm-up (core/reference/batch_generation)</source>
        <translation>预填充：所有提示的批量前向传播及第一个词元的采样，在一次不计时的预热之后（core/reference/batch_generation）</translation>
    </message>
    <message>
        <source>decode tokens/s = batch · decode steps / decode time (every sequence&apos;s tokens)</source>
        <translation>解码词元/秒 = 批量 · 解码步数 / 解码时间（所有序列的词元）</translation>
    </message>
    <message>
        <source>predicted: core/performance/cpu_inference_prediction with this CPU&apos;s kernel factors; measured: core/reference/batch_generation</source>
        <translation>预测：core/performance/cpu_inference_prediction，使用本机 CPU 的内核系数；实测：core/reference/batch_generation</translation>
    </message>
    <message>
        <source>Decode tokens/s on this CPU</source>
        <translation>本机 CPU 的解码词元/秒</translation>
    </message>
    <message>
        <source>Decode tokens/s on this CPU: press Start to measure</source>
        <translation>本机 CPU 的解码词元/秒：按“开始”测量</translation>
    </message>
    <message>
        <source>Batch (sequences)</source>
        <translation>批量（序列数）</translation>
    </message>
    <message>
        <source>Decode tokens/s (all sequences)</source>
        <translation>解码词元/秒（所有序列）</translation>
    </message>
    <message>
        <source>tokens/s = batch · decode steps / decode time</source>
        <translation>词元/秒 = 批量 · 解码步数 / 解码时间</translation>
    </message>
    <message>
        <source>Prefill time on this CPU</source>
        <translation>本机 CPU 的预填充时间</translation>
    </message>
    <message>
        <source>Prefill time on this CPU: press Start to measure</source>
        <translation>本机 CPU 的预填充时间：按“开始”测量</translation>
    </message>
    <message>
        <source>Prefill time (ms)</source>
        <translation>预填充时间（毫秒）</translation>
    </message>
    <message>
        <source>prefill = one forward pass of batch × prompt tokens + the first token&apos;s sampling</source>
        <translation>预填充 = 批量 × 提示词元的一次前向传播 + 第一个词元的采样</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>Predicted</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>batch %1: %2 tokens/s measured</source>
        <translation>批量 %1：实测 %2 词元/秒</translation>
    </message>
    <message>
        <source>batch %1: %2 measured</source>
        <translation>批量 %1：实测 %2</translation>
    </message>
    <message>
        <source>batch %1: %2 tokens/s predicted</source>
        <translation>批量 %1：预测 %2 词元/秒</translation>
    </message>
    <message>
        <source>batch %1: %2 predicted</source>
        <translation>批量 %1：预测 %2</translation>
    </message>
    <message>
        <source>Decode tokens/s
measured</source>
        <translation>解码词元/秒
实测</translation>
    </message>
    <message>
        <source>Decode tokens/s
predicted</source>
        <translation>解码词元/秒
预测</translation>
    </message>
    <message>
        <source>Decode
measured / predicted</source>
        <translation>解码
实测 / 预测</translation>
    </message>
    <message>
        <source>Prefill
measured</source>
        <translation>预填充
实测</translation>
    </message>
    <message>
        <source>Prefill
predicted</source>
        <translation>预填充
预测</translation>
    </message>
    <message>
        <source>Prefill
measured / predicted</source>
        <translation>预填充
实测 / 预测</translation>
    </message>
    <message>
        <source>From batch %1 to %2 (%3× the sequences) decode tokens/s grew %4× measured</source>
        <translation>从批量 %1 到 %2（序列数 %3 倍），解码词元/秒实测增长 %4 倍</translation>
    </message>
    <message>
        <source>, %1× predicted</source>
        <translation>，预测增长 %1 倍</translation>
    </message>
    <message>
        <source>: far less than the batch once decode is compute-bound.</source>
        <translation>：一旦解码受计算限制，增长就远小于批量的增长。</translation>
    </message>
    <message>
        <source>Warning: %1. The prediction is too slow; the next run measures them again.</source>
        <translation>警告：%1。预测偏慢；下次运行会重新测量内核因子。</translation>
    </message>
</context>
<context>
    <name>lse::gui::DesignAxisText</name>
    <message>
        <source>Norm type: LayerNorm vs RMSNorm</source>
        <translation>归一化类型：LayerNorm 与 RMSNorm</translation>
    </message>
    <message>
        <source>Norm placement: pre vs post vs sandwich</source>
        <translation>归一化位置：前置、后置与三明治</translation>
    </message>
    <message>
        <source>Activation: ReLU vs GeLU vs SwiGLU vs GeGLU</source>
        <translation>激活函数：ReLU、GeLU、SwiGLU 与 GeGLU</translation>
    </message>
    <message>
        <source>Block: serial vs parallel</source>
        <translation>块结构：串行与并行</translation>
    </message>
    <message>
        <source>Positional encoding</source>
        <translation>位置编码</translation>
    </message>
    <message>
        <source>Attention: MHA vs GQA vs MQA</source>
        <translation>注意力：MHA、GQA 与 MQA</translation>
    </message>
    <message>
        <source>FFN ratio: d_ff / d_model</source>
        <translation>FFN 比例：d_ff / d_model</translation>
    </message>
    <message>
        <source>Embeddings: tied vs untied</source>
        <translation>嵌入：共享与不共享</translation>
    </message>
    <message>
        <source>Pre-norm (x + f(norm(x))) keeps an identity path through the residual stream and trains stably without warm-up; post-norm (norm(x + f(x))) was the original Transformer&apos;s. The sandwich (Gemma 2) adds a second norm after each sub-block: one more memory-bound pass and parameter vector per sub-block. Pre and post cost the same here. Source: Xiong et al. 2020, &quot;On Layer Normalization in the Transformer Architecture&quot;; Gemma Team 2024.</source>
        <translation>前置归一化（x + f(norm(x))）在残差流中保留一条恒等路径，无需预热即可稳定训练；后置归一化（norm(x + f(x))）是原始 Transformer 的做法。三明治结构（Gemma 2）在每个子块之后再加一个归一化：每个子块多一次访存受限的遍历和一个参数向量。此处前置与后置的成本相同。来源：Xiong et al. 2020, &quot;On Layer Normalization in the Transformer Architecture&quot;; Gemma Team 2024。</translation>
    </message>
    <message>
        <source>Gated units (GLU variants) multiply two up-projections: three d×d_ff matrices instead of two. At equal parameters d_ff shrinks to 2/3 (8/3·d instead of 4·d), rounded up to a multiple of 256 as Llama does (a smaller power of two where 256 would add 1 % or more). Matmul FLOPs and saved activations stay within that 1 %; the element-wise work differs. Source: Shazeer 2020, &quot;GLU Variants Improve Transformer&quot;; Touvron et al. 2023 (Llama).</source>
        <translation>门控单元（GLU 变体）将两个上投影相乘：三个 d×d_ff 矩阵而非两个。在参数相同时，d_ff 缩小到 2/3（8/3·d 而非 4·d），并像 Llama 那样向上取整到 256 的倍数（若取 256 会增加 1 % 或更多，则改用更小的 2 的幂）。矩阵乘 FLOPs 和保存的激活相差不超过这 1 %；逐元素计算量则不同。来源：Shazeer 2020, &quot;GLU Variants Improve Transformer&quot;; Touvron et al. 2023 (Llama)。</translation>
    </message>
    <message>
        <source>A parallel block computes x + Attention(Norm₁(x)) + MLP(Norm₂(x)) (GPT-NeoX; GPT-J and PaLM share one norm, one d_model vector fewer per layer): both norms read the block input, so only one norm pass stands before the matmuls and x is kept once for the backward pass; one residual add of three inputs; the QKV and MLP up-projections can run as one fused matmul. Same parameters; PaLM reports ~15 % faster training at large scale and a small quality cost at small scale. Source: Chowdhery et al. 2022 (PaLM) §2; Black et al. 2022 (GPT-NeoX) §2.1; Wang &amp;amp; Komatsuzaki 2021 (GPT-J).</source>
        <translation>并行块计算 x + Attention(Norm₁(x)) + MLP(Norm₂(x))（GPT-NeoX；GPT-J 和 PaLM 共用一个归一化，每层少一个 d_model 向量）：两个归一化都读取块的输入，因此矩阵乘之前只有一次归一化遍历，且 x 只需为反向传播保存一次；一次三输入的残差相加；QKV 与 MLP 的上投影可以合并为一次融合矩阵乘。参数相同；PaLM 报告在大规模下训练快约 15 %，在小规模下质量略有损失。来源：Chowdhery et al. 2022 (PaLM) §2; Black et al. 2022 (GPT-NeoX) §2.1; Wang &amp;amp; Komatsuzaki 2021 (GPT-J)。</translation>
    </message>
    <message>
        <source>Learned positions add a max_seq_len×d table (parameters) and an add; sinusoids add without parameters; RoPE rotates q and k (3 FLOPs per element, no parameters); ALiBi adds −m·(i−j) to the scores (inside the attention kernel here); none relies on the causal mask alone. See the Positional encodings tab. Source: Vaswani et al. 2017; Su et al. 2021; Press et al. 2022; Haviv et al. 2022.</source>
        <translation>可学习位置编码增加一张 max_seq_len×d 的表（参数）和一次加法；正弦编码的加法不带参数；RoPE 旋转 q 和 k（每个元素 3 次 FLOPs，无参数）；ALiBi 在分数上加 −m·(i−j)（此处在注意力内核内部完成）；“无”则仅依赖因果掩码。参见“位置编码”选项卡。来源：Vaswani et al. 2017; Su et al. 2021; Press et al. 2022; Haviv et al. 2022。</translation>
    </message>
    <message>
        <source>Grouped-query attention shares each K/V head among a group of query heads; MQA keeps one. The KV cache, read in full at every decode step, shrinks by n_heads / n_kv_heads, so long-context decoding moves fewer bytes. KV cache per token = 2·L·n_kv_heads·head_dim·bytes. Source: Shazeer 2019 (MQA); Ainslie et al. 2023 (GQA); Kwon et al. 2023 (vLLM) §3.</source>
        <translation>分组查询注意力让每个 K/V 头由一组查询头共享；MQA 只保留一个。解码时每一步都要完整读取的 KV 缓存缩小 n_heads / n_kv_heads 倍，因此长上下文解码搬运的字节更少。每 token 的 KV 缓存 = 2·L·n_kv_heads·head_dim·bytes。来源：Shazeer 2019 (MQA); Ainslie et al. 2023 (GQA); Kwon et al. 2023 (vLLM) §3。</translation>
    </message>
    <message>
        <source>The feed-forward width sets two thirds of a dense layer&apos;s weights. GPT-2 and the original Transformer use 4·d; gated models ≈ 8/3·d so that their three matrices weigh what two of 4·d do. The widths here keep the scenario&apos;s activation. Source: Vaswani et al. 2017; Touvron et al. 2023.</source>
        <translation>前馈宽度决定了稠密层三分之二的权重。GPT-2 和原始 Transformer 使用 4·d；门控模型约为 8/3·d，使其三个矩阵的大小与两个 4·d 矩阵相当。此处的宽度沿用场景中的激活函数。来源：Vaswani et al. 2017; Touvron et al. 2023。</translation>
    </message>
    <message>
        <source>Tied embeddings use the token-embedding matrix as the output projection too: V·d parameters (and their optimizer states) fewer, the same FLOPs. Source: Press &amp;amp; Wolf 2017, &quot;Using the Output Embedding to Improve Language Models&quot;.</source>
        <translation>共享嵌入把 token 嵌入矩阵同时用作输出投影：少 V·d 个参数（及其优化器状态），FLOPs 不变。来源：Press &amp;amp; Wolf 2017, &quot;Using the Output Embedding to Improve Language Models&quot;。</translation>
    </message>
    <message>
        <source>LayerNorm</source>
        <translation>LayerNorm</translation>
    </message>
    <message>
        <source>RMSNorm</source>
        <translation>RMSNorm</translation>
    </message>
    <message>
        <source>no norm</source>
        <translation>无归一化</translation>
    </message>
    <message>
        <source>pre-norm</source>
        <translation>前置归一化</translation>
    </message>
    <message>
        <source>post-norm</source>
        <translation>后置归一化</translation>
    </message>
    <message>
        <source>sandwich (pre + post)</source>
        <translation>三明治（前置 + 后置）</translation>
    </message>
    <message>
        <source>%1, d_ff %2</source>
        <translation>%1，d_ff %2</translation>
    </message>
    <message>
        <source>parallel</source>
        <translation>并行</translation>
    </message>
    <message>
        <source>serial</source>
        <translation>串行</translation>
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
        <source>RoPE</source>
        <translation>RoPE</translation>
    </message>
    <message>
        <source>ALiBi</source>
        <translation>ALiBi</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message numerus="yes">
        <source>MHA, %n KV head(s)</source>
        <translation>
            <numerusform>MHA，%n 个 KV 头</numerusform>
        </translation>
    </message>
    <message>
        <source>MQA, 1 KV head</source>
        <translation>MQA，1 个 KV 头</translation>
    </message>
    <message numerus="yes">
        <source>GQA, %n KV head(s)</source>
        <translation>
            <numerusform>GQA，%n 个 KV 头</numerusform>
        </translation>
    </message>
    <message>
        <source>d_ff %1 (%2·d)</source>
        <translation>d_ff %1（%2·d）</translation>
    </message>
    <message>
        <source>tied</source>
        <translation>共享</translation>
    </message>
    <message>
        <source>untied</source>
        <translation>不共享</translation>
    </message>
    <message>
        <source>RMSNorm drops LayerNorm&apos;s mean subtraction and its bias: per element 4 instead of 7 FLOPs and one parameter vector fewer per norm. Both are memory-bound (one or two FLOPs per byte): on a GPU their time is set by the bytes they move, which are nearly the same, and norms cost time at all because they move as many bytes as a matmul&apos;s input while doing almost no FLOPs (the data-movement line below). Measure both on this CPU below. Source: Zhang &amp;amp; Sennrich 2019, &quot;Root Mean Square Layer Normalization&quot;; Ba et al. 2016.</source>
        <translation>RMSNorm 去掉了 LayerNorm 的减均值和偏置：每个元素 4 次而非 7 次 FLOPs，每个归一化少一个参数向量。两者都是访存受限（每字节一到两次 FLOPs）：在 GPU 上它们的时间由搬运的字节数决定，而两者的字节数几乎相同；归一化之所以耗时，是因为它搬运的字节与一次矩阵乘法的输入一样多，却几乎不做 FLOPs（见下方的数据搬运一行）。请在下方于本机 CPU 上测量两者。来源：Zhang &amp;amp; Sennrich 2019, &quot;Root Mean Square Layer Normalization&quot;; Ba et al. 2016。</translation>
    </message>
</context>
<context>
    <name>lse::gui::DesignChoicesSection</name>
    <message>
        <source>Choice by choice</source>
        <translation>逐项比较设计选择</translation>
    </message>
    <message>
        <source>Apply %1</source>
        <translation>应用 %1</translation>
    </message>
    <message>
        <source>The scenario against the same scenario with one design choice changed, everything else equal, through the cost engine: parameters, FLOPs per token (all operators of the operator list; training = forward + backward ≈ 3× forward), saved activation bytes per layer (the memory estimate&apos;s figure) and bytes moved per token (Σ bytes read + written of the forward operator list).</source>
        <translation>将场景与仅改变一项设计选择、其余完全相同的同一场景进行比较，均经由成本引擎计算：参数、每 token FLOPs（算子列表中的全部算子；训练 = 前向 + 反向 ≈ 3× 前向）、每层保存的激活字节数（显存估算中的数值）以及每 token 搬运的字节数（前向算子列表中读取 + 写入字节数之和 Σ）。</translation>
    </message>
    <message>
        <source>Design axis:</source>
        <translation>设计维度：</translation>
    </message>
    <message>
        <source>Alternative:</source>
        <translation>替代方案：</translation>
    </message>
    <message>
        <source>Apply this choice to the scenario</source>
        <translation>将此选择应用到场景</translation>
    </message>
    <message>
        <source>Decode batch (sequences):</source>
        <translation>解码批大小（序列数）：</translation>
    </message>
    <message>
        <source>The scenario cannot be estimated: %1</source>
        <translation>无法估算该场景：%1</translation>
    </message>
    <message>
        <source>No valid scenario yet.</source>
        <translation>尚无有效场景。</translation>
    </message>
    <message>
        <source>Choice</source>
        <translation>选择</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Forward FLOPs / token</source>
        <translation>前向 FLOPs / token</translation>
    </message>
    <message>
        <source>Training FLOPs / token</source>
        <translation>训练 FLOPs / token</translation>
    </message>
    <message>
        <source>Activations / layer</source>
        <translation>激活 / 层</translation>
    </message>
    <message>
        <source>Bytes moved / token</source>
        <translation>搬运字节数 / token</translation>
    </message>
    <message>
        <source>KV cache / token</source>
        <translation>KV 缓存 / token</translation>
    </message>
    <message>
        <source>%1 (scenario)</source>
        <translation>%1（场景）</translation>
    </message>
    <message>
        <source>not valid on this layout: %1</source>
        <translation>在此布局下无效：%1</translation>
    </message>
    <message>
        <source>Parallel block, per layer: norms on the critical path %1 → %2 (both norms read the block input, which is kept once); operators that go away: %3; new: %4 (x + attention + MLP in one pass). Matmuls on the critical path %5 → %6: the MLP up-projection joins QKV in one fused matmul of %7 columns and the MLP runs beside attention. The cost: the MLP no longer sees the attention output of its own layer.</source>
        <translation>并行块，每层：关键路径上的归一化 %1 → %2（两个归一化都读取块输入，该输入只保存一份）；去掉的算子：%3；新增：%4（x + 注意力 + MLP 一次完成）。关键路径上的矩阵乘法 %5 → %6：MLP 的上投影与 QKV 合并为一次 %7 列的融合矩阵乘法，MLP 与注意力并行运行。代价：MLP 不再能看到本层注意力的输出。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>%1: relative to the scenario</source>
        <translation>%1：相对于场景</translation>
    </message>
    <message>
        <source>% of the scenario&apos;s figure</source>
        <translation>占场景数值的 %</translation>
    </message>
    <message>
        <source>params</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>fwd FLOPs</source>
        <translation>前向 FLOPs</translation>
    </message>
    <message>
        <source>train FLOPs</source>
        <translation>训练 FLOPs</translation>
    </message>
    <message>
        <source>act./layer</source>
        <translation>激活/层</translation>
    </message>
    <message>
        <source>bytes moved</source>
        <translation>搬运字节数</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>per token, except parameters and activations per layer</source>
        <translation>均为每 token 数值，参数和每层激活除外</translation>
    </message>
    <message>
        <source>100 % · variant / scenario, everything but the chosen axis equal</source>
        <translation>100 % · 变体 / 场景，除所选维度外其余均相同</translation>
    </message>
    <message>
        <source>cost engine estimate() (Korthikanti et al. 2022 Table 2 for activations; vLLM §3 for the KV cache) and the operator list (core/ops/operator_list.cpp)</source>
        <translation>成本引擎 estimate()（激活参见 Korthikanti et al. 2022 Table 2；KV 缓存参见 vLLM §3）以及算子列表（core/ops/operator_list.cpp）</translation>
    </message>
    <message>
        <source>scenario: %1 parameters, %2 training FLOPs/token</source>
        <translation>场景：%1 参数，%2 训练 FLOPs/token</translation>
    </message>
    <message>
        <source>scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>%1 — %2: %3 (%4)</source>
        <translation>%1 — %2：%3（%4）</translation>
    </message>
    <message>
        <source>KV cache of the decode batch vs context</source>
        <translation>解码批的 KV 缓存随上下文的变化</translation>
    </message>
    <message>
        <source>Context (tokens in the KV cache, log scale)</source>
        <translation>上下文（KV 缓存中的 token 数，对数坐标）</translation>
    </message>
    <message>
        <source>KV cache (bytes, log scale)</source>
        <translation>KV 缓存（字节，对数坐标）</translation>
    </message>
    <message>
        <source>KV cache = batch · context · 2·L·n_kv_heads·head_dim·bytes</source>
        <translation>KV 缓存 = batch · context · 2·L·n_kv_heads·head_dim·bytes</translation>
    </message>
    <message>
        <source>Kwon et al. 2023 (vLLM) §3; Shazeer 2019; Ainslie et al. 2023</source>
        <translation>Kwon et al. 2023 (vLLM) §3; Shazeer 2019; Ainslie et al. 2023</translation>
    </message>
    <message>
        <source>batch %1</source>
        <translation>批 %1</translation>
    </message>
    <message>
        <source>%1: %2 per token</source>
        <translation>%1：每 token %2</translation>
    </message>
    <message>
        <source>context %1: %2</source>
        <translation>上下文 %1：%2</translation>
    </message>
    <message>
        <source>Decode time per token vs context on %1</source>
        <translation>%1 上每 token 解码时间随上下文的变化</translation>
    </message>
    <message>
        <source>Time per decode step (ms; one token per sequence)</source>
        <translation>每个解码步的时间（ms；每个序列一个 token）</translation>
    </message>
    <message>
        <source>step time = Σ over the decode operators of max(FLOPs / peak, bytes / bandwidth)</source>
        <translation>步时间 = 对所有解码算子求和 Σ max(FLOPs / 峰值, 字节数 / 带宽)</translation>
    </message>
    <message>
        <source>roofline (Williams et al. 2009) over the operator list, decode phase (vLLM §3)</source>
        <translation>基于算子列表的屋顶线模型（Williams et al. 2009），解码阶段（vLLM §3）</translation>
    </message>
    <message>
        <source>batch %1, one accelerator, no tensor/pipeline split</source>
        <translation>批 %1，单个加速器，不做张量/流水线切分</translation>
    </message>
    <message>
        <source> (%1)</source>
        <translation>（%1）</translation>
    </message>
    <message>
        <source>context %1: %2 ms per step, %3 tokens/s</source>
        <translation>上下文 %1：每步 %2 ms，%3 token/s</translation>
    </message>
</context>
<context>
    <name>lse::gui::DistributedRunFiles</name>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>lse::gui::DistributedRunPage</name>
    <message>
        <source>%1: the setup cannot change while a run is going</source>
        <translation>%1：运行期间不能更改设置</translation>
    </message>
    <message>
        <source>Choose a text file</source>
        <translation>选择文本文件</translation>
    </message>
    <message>
        <source>Text files (*.txt *.md);;All files (*)</source>
        <translation>文本文件 (*.txt *.md);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Distributed run</source>
        <translation>分布式运行</translation>
    </message>
    <message>
        <source>Text: choose a training text.</source>
        <translation>文本：请选择训练文本。</translation>
    </message>
    <message>
        <source>Text: cannot read %1: %2</source>
        <translation>文本：无法读取 %1：%2</translation>
    </message>
    <message>
        <source>Text: the text is empty.</source>
        <translation>文本：文本为空。</translation>
    </message>
    <message>
        <source>Cannot create a temporary folder: %1</source>
        <translation>无法创建临时文件夹：%1</translation>
    </message>
    <message>
        <source>%1 tokens, vocabulary %2</source>
        <translation>%1 个 token，词表 %2</translation>
    </message>
    <message>
        <source>mpiexec ended without a message.</source>
        <translation>mpiexec 已结束，未输出任何消息。</translation>
    </message>
    <message>
        <source>Setup</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Ranks:</source>
        <translation>Rank 数：</translation>
    </message>
    <message>
        <source>Processes (data-parallel ranks); they share this machine&apos;s cores, one thread each.</source>
        <translation>进程数（数据并行 rank）；它们共享本机的 CPU 核心，每个进程一个线程。</translation>
    </message>
    <message>
        <source>Mode:</source>
        <translation>模式：</translation>
    </message>
    <message>
        <source>naive DP</source>
        <translation>朴素 DP</translation>
    </message>
    <message>
        <source>One all-reduce of every gradient after backward.</source>
        <translation>反向传播之后对每个梯度做一次 all-reduce。</translation>
    </message>
    <message>
        <source>bucketed DP</source>
        <translation>分桶 DP</translation>
    </message>
    <message>
        <source>All-reduce gradients in buckets while backward still runs (PyTorch DDP).</source>
        <translation>在反向传播仍在进行时按桶对梯度做 all-reduce（PyTorch DDP）。</translation>
    </message>
    <message>
        <source>ZeRO-1</source>
        <translation>ZeRO-1</translation>
    </message>
    <message>
        <source>Optimizer states sharded: reduce-scatter gradients, all-gather parameters.</source>
        <translation>优化器状态分片：对梯度做 reduce-scatter，对参数做 all-gather。</translation>
    </message>
    <message>
        <source>ZeRO-2</source>
        <translation>ZeRO-2</translation>
    </message>
    <message>
        <source>Gradients sharded too: each rank keeps only its shard after the reduce-scatter.</source>
        <translation>梯度也分片：reduce-scatter 之后每个 rank 只保留自己的分片。</translation>
    </message>
    <message>
        <source>Bucket:</source>
        <translation>桶：</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>Bucketed mode: gradients are all-reduced in buckets of this size as backward produces them (PyTorch DDP&apos;s bucket_cap_mb, default 25).</source>
        <translation>分桶模式：反向传播产生梯度时，按此大小的桶对梯度做 all-reduce（PyTorch DDP 的 bucket_cap_mb，默认 25）。</translation>
    </message>
    <message>
        <source>Steps:</source>
        <translation>步数：</translation>
    </message>
    <message>
        <source>Global batch:</source>
        <translation>全局批：</translation>
    </message>
    <message>
        <source>Sequences per step over all ranks; it must be divisible by the ranks.</source>
        <translation>所有 rank 合计每步的序列数；必须能被 rank 数整除。</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>Text:</source>
        <translation>文本：</translation>
    </message>
    <message>
        <source>File…</source>
        <translation>文件…</translation>
    </message>
    <message>
        <source>Tokenizer:</source>
        <translation>分词器：</translation>
    </message>
    <message>
        <source>bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>256 byte ids and &lt;|endoftext|&gt;: no merges.</source>
        <translation>256 个字节 id 加 &lt;|endoftext|&gt;：无合并。</translation>
    </message>
    <message>
        <source>BPE (%1 ids)</source>
        <translation>BPE（%1 个 id）</translation>
    </message>
    <message>
        <source>A byte-level BPE trained on the text, as the Reference run page does.</source>
        <translation>在该文本上训练的字节级 BPE，与参考运行页面相同。</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>mpiexec was not found: install Open MPI (apt-get install openmpi-bin) to run distributed training.</source>
        <translation>未找到 mpiexec：请安装 Open MPI（apt-get install openmpi-bin）以运行分布式训练。</translation>
    </message>
    <message>
        <source>llm-explorer-cli was not found next to the app or on PATH; the ranks run it.</source>
        <translation>在应用旁边和 PATH 中均未找到 llm-explorer-cli；各 rank 需要运行它。</translation>
    </message>
    <message>
        <source>Runs %1 with %2.</source>
        <translation>以 %2 运行 %1。</translation>
    </message>
    <message>
        <source>Check the setup and start the ranks.</source>
        <translation>检查设置并启动各 rank。</translation>
    </message>
    <message>
        <source>Set up a run and press Start.</source>
        <translation>设置运行参数，然后按“开始”。</translation>
    </message>
    <message>
        <source>Tokenizing the text and writing the run&apos;s files…</source>
        <translation>正在对文本分词并写入运行所需的文件…</translation>
    </message>
    <message numerus="yes">
        <source>Running %n rank(s): step %1 of %2</source>
        <translation>
            <numerusform>正在运行 %n 个 rank：第 %1 步，共 %2 步</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Finished %n step(s).</source>
        <translation>
            <numerusform>已完成 %n 步。</numerusform>
        </translation>
    </message>
    <message>
        <source>Cancelled: the run was stopped.</source>
        <translation>已取消：运行已停止。</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>Per step (rank 0): bytes sent per rank, measured and as the engine predicts</source>
        <translation>每步（rank 0）：每个 rank 发送的字节数，实测值与引擎预测值</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Step (ms)</source>
        <translation>步时间 (ms)</translation>
    </message>
    <message>
        <source>Sent per rank</source>
        <translation>每个 rank 发送量</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>Equal</source>
        <translation>一致</translation>
    </message>
    <message>
        <source>Exposed (ms)</source>
        <translation>暴露的通信 (ms)</translation>
    </message>
    <message>
        <source>Memory per rank (last step)</source>
        <translation>每个 rank 的内存（最后一步）</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>%1 ranks, mode %2, global batch %3 (%4 per rank).</source>
        <translation>%1 个 rank，模式 %2，全局批 %3（每个 rank %4）。</translation>
    </message>
    <message numerus="yes">
        <source>%n step(s) of %1 sent exactly the bytes per rank the engine predicts.</source>
        <translation>
            <numerusform>%1 步中有 %n 步每个 rank 发送的字节数与引擎预测完全一致。</numerusform>
        </translation>
    </message>
    <message>
        <source>parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>optimizer states (AdamW m, v)</source>
        <translation>优化器状态（AdamW m, v）</translation>
    </message>
    <message>
        <source>gradient arena (backward)</source>
        <translation>梯度区（反向传播）</translation>
    </message>
    <message>
        <source>Parallelism:</source>
        <translation>并行方式：</translation>
    </message>
    <message>
        <source>data parallel</source>
        <translation>数据并行</translation>
    </message>
    <message>
        <source>tensor parallel</source>
        <translation>张量并行</translation>
    </message>
    <message>
        <source>pipeline parallel</source>
        <translation>流水线并行</translation>
    </message>
    <message>
        <source>dp × tp</source>
        <translation>dp × tp</translation>
    </message>
    <message>
        <source>dp × pp</source>
        <translation>dp × pp</translation>
    </message>
    <message>
        <source>Every rank trains its slice of the global batch and the ranks average the gradients (train --dp N).</source>
        <translation>每个 rank 在全局批中属于自己的切片上训练，各 rank 对梯度求平均（train --dp N）。</translation>
    </message>
    <message>
        <source>Megatron-LM&apos;s split of every layer over the ranks: each rank holds its heads and its slice of d_ff, and all-reduces the partial sums (train --tp T, T = ranks).</source>
        <translation>Megatron-LM 把每一层切分到各 rank 上：每个 rank 持有自己的注意力头和 d_ff 的一段，并对部分和做 all-reduce（train --tp T，T = rank 数）。</translation>
    </message>
    <message>
        <source>The layers split into stages, one per rank; micro-batches flow through them in the GPipe or 1F1B order (train --pp P, P = ranks).</source>
        <translation>各层被分成若干阶段，每个 rank 一个阶段；微批按 GPipe 或 1F1B 的顺序流经各阶段（train --pp P，P = rank 数）。</translation>
    </message>
    <message>
        <source>dp replicas of a tp-way tensor-parallel split; ranks = dp × tp (train --dp D --tp T).</source>
        <translation>dp 个副本，每个副本是 tp 路张量并行切分；rank 数 = dp × tp（train --dp D --tp T）。</translation>
    </message>
    <message>
        <source>dp pipelines of pp stages; ranks = dp × pp (train --dp D --pp P).</source>
        <translation>dp 条流水线，每条 pp 个阶段；rank 数 = dp × pp（train --dp D --pp P）。</translation>
    </message>
    <message>
        <source>DP degree:</source>
        <translation>DP 度：</translation>
    </message>
    <message>
        <source>TP degree:</source>
        <translation>TP 度：</translation>
    </message>
    <message>
        <source>Sequence parallel</source>
        <translation>序列并行</translation>
    </message>
    <message>
        <source>PP stages:</source>
        <translation>PP 阶段数：</translation>
    </message>
    <message>
        <source>Schedule:</source>
        <translation>调度：</translation>
    </message>
    <message>
        <source>GPipe</source>
        <translation>GPipe</translation>
    </message>
    <message>
        <source>Every forward, then every backward (Huang et al. 2019).</source>
        <translation>先做全部前向，再做全部反向（Huang 等，2019）。</translation>
    </message>
    <message>
        <source>1F1B</source>
        <translation>1F1B</translation>
    </message>
    <message>
        <source>Stage s runs p − s − 1 warm-up forwards, then one forward and one backward in turn (Narayanan et al. 2021 §2.2).</source>
        <translation>阶段 s 先做 p − s − 1 次预热前向，然后前向与反向交替各做一次（Narayanan 等，2021，§2.2）。</translation>
    </message>
    <message>
        <source>Micro-batches:</source>
        <translation>微批数：</translation>
    </message>
    <message>
        <source>Not used by data parallelism alone, nor by tensor or pipeline parallelism alone: there the Ranks field is the degree.</source>
        <translation>单独的数据并行、张量并行或流水线并行都不使用此项：这些情况下“Rank 数”就是并行度。</translation>
    </message>
    <message>
        <source>Only dp × tp and dp × pp set the data-parallel degree here; data parallel alone runs dp = ranks, tensor or pipeline parallel alone dp = 1.</source>
        <translation>只有 dp × tp 和 dp × pp 在此设置数据并行度；单独的数据并行时 dp = rank 数，单独的张量或流水线并行时 dp = 1。</translation>
    </message>
    <message>
        <source>How the ranks reduce their gradients.</source>
        <translation>各 rank 归约梯度的方式。</translation>
    </message>
    <message>
        <source>Tensor- and pipeline-parallel runs have no ZeRO or buckets here: dp × tp and dp × pp all-reduce the gradients over the dp group once after backward.</source>
        <translation>张量并行和流水线并行运行在这里不支持 ZeRO 或分桶：dp × tp 和 dp × pp 在反向传播之后对 dp 组做一次梯度 all-reduce。</translation>
    </message>
    <message>
        <source>Only the bucketed data-parallel mode uses buckets.</source>
        <translation>只有分桶的数据并行模式使用桶。</translation>
    </message>
    <message>
        <source>Data-parallel replicas; ranks = dp × %1, and the global batch is split over the replicas.</source>
        <translation>数据并行副本数；rank 数 = dp × %1，全局批在各副本之间切分。</translation>
    </message>
    <message>
        <source>tp must divide n_heads (%1), n_kv_heads (%2) and d_ff (%3) of the model.</source>
        <translation>tp 必须整除模型的 n_heads（%1）、n_kv_heads（%2）和 d_ff（%3）。</translation>
    </message>
    <message>
        <source>Ranks per tensor-parallel group; ranks = dp × tp.</source>
        <translation>每个张量并行组的 rank 数；rank 数 = dp × tp。</translation>
    </message>
    <message>
        <source>Tensor parallel alone: tp = ranks.</source>
        <translation>单独的张量并行：tp = rank 数。</translation>
    </message>
    <message>
        <source>Only the tensor-parallel layouts split the layers over ranks.</source>
        <translation>只有张量并行布局把各层切分到多个 rank 上。</translation>
    </message>
    <message>
        <source>Korthikanti et al. 2022 §4.2.2: the norms and residuals run on 1/tp of the tokens, and each all-reduce becomes an all-gather and a reduce-scatter of the same bytes. The context (%1) must be divisible by tp.</source>
        <translation>Korthikanti 等，2022，§4.2.2：归一化和残差只在 1/tp 的 token 上计算，每次 all-reduce 变成字节数相同的一次 all-gather 和一次 reduce-scatter。上下文长度（%1）必须能被 tp 整除。</translation>
    </message>
    <message>
        <source>Sequence parallelism comes with tensor parallelism: choose tensor parallel or dp × tp.</source>
        <translation>序列并行需配合张量并行：请选择张量并行或 dp × tp。</translation>
    </message>
    <message>
        <source>Every stage needs a layer: pp ≤ n_layers (%1).</source>
        <translation>每个阶段至少需要一层：pp ≤ n_layers（%1）。</translation>
    </message>
    <message>
        <source>Stages per pipeline; ranks = dp × pp.</source>
        <translation>每条流水线的阶段数；rank 数 = dp × pp。</translation>
    </message>
    <message>
        <source>Pipeline parallel alone: pp = ranks.</source>
        <translation>单独的流水线并行：pp = rank 数。</translation>
    </message>
    <message>
        <source>Only the pipeline layouts split the layers into stages.</source>
        <translation>只有流水线布局把各层分成阶段。</translation>
    </message>
    <message>
        <source>The order of each stage&apos;s forwards and backwards, as the Pipeline page simulates it.</source>
        <translation>各阶段前向与反向的顺序，与流水线页面的模拟相同。</translation>
    </message>
    <message>
        <source>Only the pipeline layouts have a schedule.</source>
        <translation>只有流水线布局有调度方式。</translation>
    </message>
    <message>
        <source>m micro-batches per step: the global batch must be divisible by dp × m. Bubble (p − 1)/(m + p − 1): more micro-batches, a smaller bubble.</source>
        <translation>每步 m 个微批：全局批必须能被 dp × m 整除。气泡 (p − 1)/(m + p − 1)：微批越多，气泡越小。</translation>
    </message>
    <message>
        <source>Only the pipeline layouts split the batch into micro-batches.</source>
        <translation>只有流水线布局把批切分成微批。</translation>
    </message>
    <message>
        <source>Sequences per step; every rank runs all of them through its part of each layer.</source>
        <translation>每步的序列数；每个 rank 都让全部序列经过自己负责的那部分层。</translation>
    </message>
    <message>
        <source>Processes: the tensor-parallel degree tp.</source>
        <translation>进程数：即张量并行度 tp。</translation>
    </message>
    <message>
        <source>Sequences per step; it must be divisible by the micro-batches m.</source>
        <translation>每步的序列数；必须能被微批数 m 整除。</translation>
    </message>
    <message>
        <source>Processes: the pipeline stages pp.</source>
        <translation>进程数：即流水线阶段数 pp。</translation>
    </message>
    <message>
        <source>Sequences per step over all replicas; it must be divisible by dp.</source>
        <translation>所有副本合计每步的序列数；必须能被 dp 整除。</translation>
    </message>
    <message>
        <source>Processes: they must equal dp × tp.</source>
        <translation>进程数：必须等于 dp × tp。</translation>
    </message>
    <message>
        <source>Sequences per step over all replicas; it must be divisible by dp × m.</source>
        <translation>所有副本合计每步的序列数；必须能被 dp × m 整除。</translation>
    </message>
    <message>
        <source>Processes: they must equal dp × pp.</source>
        <translation>进程数：必须等于 dp × pp。</translation>
    </message>
    <message>
        <source>By purpose, step %1 (rank 0): each collective&apos;s bytes; the engine predicts the step&apos;s total above, not each collective.</source>
        <translation>按用途，第 %1 步（rank 0）：每种集合通信的字节数；引擎预测的是上表中整步的总量，而不是每次集合通信。</translation>
    </message>
    <message>
        <source>this run</source>
        <translation>本次运行</translation>
    </message>
    <message>
        <source>Train the reference transformer with several processes on this machine, as a cluster does across GPUs: mpiexec starts one llm-explorer-cli per rank. Data parallelism gives each rank a slice of the global batch and averages gradients (all-reduce, or ZeRO&apos;s reduce-scatter + all-gather); tensor parallelism splits every layer over the ranks; pipeline parallelism gives each rank a stage of layers; dp × tp and dp × pp combine them. Each step&apos;s bytes sent per rank are set beside the cost engine&apos;s communication volume.</source>
        <translation>在本机上用多个进程训练参考 Transformer，如同集群在多个 GPU 上所做的那样：mpiexec 为每个 rank 启动一个 llm-explorer-cli。数据并行让每个 rank 处理全局批的一个切片并对梯度求平均（all-reduce，或 ZeRO 的 reduce-scatter + all-gather）；张量并行把每一层切分到各 rank；流水线并行让每个 rank 负责一段层；dp × tp 和 dp × pp 把它们组合起来。每步每个 rank 发送的字节数与成本引擎的通信量并列显示。</translation>
    </message>
    <message>
        <source>Per step (rank 0): bytes of every tensor-parallel collective (the layers&apos;, the embedding&apos;s, the LM head&apos;s and the loss&apos;s) sent per rank, measured and as the engine predicts</source>
        <translation>每步（rank 0）：每个 rank 在全部张量并行集合通信（各层、嵌入层、LM 头与损失）中发送的字节数，实测值与引擎预测值</translation>
    </message>
    <message>
        <source>Per step: bytes rank 0 (the first stage) sent to the next stage, measured and as the engine predicts for those sends</source>
        <translation>每步：rank 0（第一阶段）发送给下一阶段的字节数，实测值与引擎对这些发送的预测值</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Purpose</source>
        <translation>用途</translation>
    </message>
    <message>
        <source>Collective</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <source>Transfers</source>
        <translation>传输次数</translation>
    </message>
    <message>
        <source>No results yet: the tables and the charts fill when a run finishes.</source>
        <translation>尚无结果：运行结束后会填充表格和图表。</translation>
    </message>
    <message>
        <source>%1 ranks: dp %2 × pp %3, schedule %4, %5 micro-batches, global batch %6.</source>
        <translation>%1 个 rank：dp %2 × pp %3，调度 %4，%5 个微批，全局批 %6。</translation>
    </message>
    <message>
        <source>%1 ranks: dp %2 × tp %3%4, global batch %5.</source>
        <translation>%1 个 rank：dp %2 × tp %3%4，全局批 %5。</translation>
    </message>
    <message>
        <source> with sequence parallelism</source>
        <translation>（含序列并行）</translation>
    </message>
    <message>
        <source>activations (saved for backward)</source>
        <translation>激活（为反向传播保存）</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>By purpose, step %1: every listed rank&apos;s traffic beside the engine&apos;s bytes for the same events (— where the engine has no such event: the loss, the norm, the barrier, sequence parallelism&apos;s extra gathers).</source>
        <translation>按用途，第 %1 步：所列每个 rank 的通信量，旁边是引擎对相同事件预测的字节数（— 表示引擎没有这类事件：损失、范数、同步屏障、序列并行额外的 all-gather）。</translation>
    </message>
    <message>
        <source>ZeRO-3</source>
        <translation>ZeRO-3</translation>
    </message>
    <message>
        <source>Parameters sharded too: each layer is all-gathered before its forward and again before its backward, its gradients reduce-scattered: 1.5× the traffic of DP (ZeRO §7.2.2).</source>
        <translation>参数也被切分：每层在前向之前 all-gather 一次、在反向之前再 all-gather 一次，其梯度做 reduce-scatter：通信量是 DP 的 1.5 倍（ZeRO §7.2.2）。</translation>
    </message>
    <message>
        <source>Memory of rank 0, pipeline stage 0 (last step)</source>
        <translation>rank 0（流水线第 0 段）的显存（最后一步）</translation>
    </message>
    <message>
        <source>stage inputs kept for backward</source>
        <translation>为反向保留的阶段输入</translation>
    </message>
    <message>
        <source>resident peak (ZeRO-3)</source>
        <translation>驻留峰值（ZeRO-3）</translation>
    </message>
    <message>
        <source>What the kernel held at the step&apos;s peak: the resident pages of the parameter and gradient arenas (mincore) plus the optimizer&apos;s shard. Each layer&apos;s gathered copy is handed back after use (madvise), so this falls as ranks grow; accounted by elements it is %1.</source>
        <translation>步内峰值时内核实际持有的内存：参数与梯度区的驻留页（mincore）加上优化器分片。每层收集来的副本用后即归还（madvise），因此随 rank 增多而下降；按元素记账为 %1。</translation>
    </message>
</context>
<context>
    <name>lse::gui::DistributedRunResults</name>
    <message>
        <source>The run printed no results (%1).</source>
        <translation>运行没有输出任何结果（%1）。</translation>
    </message>
</context>
<context>
    <name>lse::gui::DistributedRunSetup</name>
    <message>
        <source>Ranks: %1 is outside %2–%3.</source>
        <translation>Rank 数：%1 超出 %2–%3 范围。</translation>
    </message>
    <message>
        <source>Steps: %1 must be at least 1.</source>
        <translation>步数：%1 必须至少为 1。</translation>
    </message>
    <message>
        <source>Global batch: %1 must be at least 1.</source>
        <translation>全局批：%1 必须至少为 1。</translation>
    </message>
    <message>
        <source>Global batch: %1 is not divisible by %2 ranks; each rank trains on an equal slice of it.</source>
        <translation>全局批：%1 不能被 %2 个 rank 整除；每个 rank 在其中相等的一份上训练。</translation>
    </message>
    <message>
        <source>Bucket size: %1 MiB must be at least 1 in the bucketed mode.</source>
        <translation>桶大小：分桶模式下 %1 MiB 必须至少为 1。</translation>
    </message>
    <message>
        <source>TP degree</source>
        <translation>TP 度</translation>
    </message>
    <message>
        <source>Ranks (tp = ranks)</source>
        <translation>Rank 数（tp = rank 数）</translation>
    </message>
    <message>
        <source>PP stages</source>
        <translation>PP 阶段数</translation>
    </message>
    <message>
        <source>Ranks (pp = ranks)</source>
        <translation>Rank 数（pp = rank 数）</translation>
    </message>
    <message>
        <source>DP degree: %1 must be at least 2 in a combined layout (with dp 1, choose %2 alone).</source>
        <translation>DP 度：组合布局中 %1 必须至少为 2（dp 为 1 时，请单独选择%2）。</translation>
    </message>
    <message>
        <source>tensor parallel</source>
        <translation>张量并行</translation>
    </message>
    <message>
        <source>pipeline parallel</source>
        <translation>流水线并行</translation>
    </message>
    <message>
        <source>TP degree: %1 must be at least 2 in dp × tp (with tp 1, choose data parallel).</source>
        <translation>TP 度：dp × tp 中 %1 必须至少为 2（tp 为 1 时，请选择数据并行）。</translation>
    </message>
    <message>
        <source>PP stages: %1 must be at least 2 in dp × pp (with pp 1, choose data parallel).</source>
        <translation>PP 阶段数：dp × pp 中 %1 必须至少为 2（pp 为 1 时，请选择数据并行）。</translation>
    </message>
    <message>
        <source>Ranks: %1 must equal dp × tp = %2 × %3 = %4; mpiexec starts one process per rank of the mesh.</source>
        <translation>Rank 数：%1 必须等于 dp × tp = %2 × %3 = %4；mpiexec 为网格中的每个 rank 启动一个进程。</translation>
    </message>
    <message>
        <source>Ranks: %1 must equal dp × pp = %2 × %3 = %4; mpiexec starts one process per rank of the mesh.</source>
        <translation>Rank 数：%1 必须等于 dp × pp = %2 × %3 = %4；mpiexec 为网格中的每个 rank 启动一个进程。</translation>
    </message>
    <message>
        <source>Global batch: %1 is not divisible by dp %2; each replica trains on an equal slice of it.</source>
        <translation>全局批：%1 不能被 dp %2 整除；每个副本在其中相等的一份上训练。</translation>
    </message>
    <message>
        <source>Micro-batches: %1 must be at least 1.</source>
        <translation>微批数：%1 必须至少为 1。</translation>
    </message>
    <message>
        <source>Global batch: %1 is not divisible by dp × micro-batches = %2 × %3 = %4; every micro-batch holds batch / (dp·m) sequences.</source>
        <translation>全局批：%1 不能被 dp × 微批数 = %2 × %3 = %4 整除；每个微批包含 batch / (dp·m) 个序列。</translation>
    </message>
    <message>
        <source>Model: its embeddings are tied; pipeline stages need untied ones (the first stage&apos;s embedding and the last stage&apos;s LM head would share one matrix).</source>
        <translation>模型：其嵌入是共享（tied）的；流水线各阶段需要不共享的嵌入（否则第一阶段的嵌入和最后阶段的 LM 头会共用一个矩阵）。</translation>
    </message>
    <message>
        <source>Mode: ZeRO-3 needs a model with untied embeddings; it gathers one layer at a time, and a tied LM head reads the embedding&apos;s matrix inside its own layer.</source>
        <translation>模式：ZeRO-3 需要不共享嵌入的模型；它一次只 gather 一层，而共享的 LM head 会在自己那一层里读取嵌入矩阵。</translation>
    </message>
</context>
<context>
    <name>lse::gui::DistributedRunTimeline</name>
    <message>
        <source>Time since the first step (ms)</source>
        <translation>自第一步起的时间 (ms)</translation>
    </message>
    <message>
        <source>Rank 0 timeline: no run yet</source>
        <translation>Rank 0 时间线：尚无运行</translation>
    </message>
    <message>
        <source>Rank 0 timeline: %1 ranks, %2</source>
        <translation>Rank 0 时间线：%1 个 rank，%2</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步时间</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>exposed communication</source>
        <translation>暴露的通信</translation>
    </message>
    <message>
        <source>communication overlapped with compute</source>
        <translation>与计算重叠的通信</translation>
    </message>
    <message>
        <source>&lt;b&gt;Step %1: compute&lt;/b&gt;&lt;br&gt;%2 ms = step %3 ms − exposed %4 ms</source>
        <translation>&lt;b&gt;第 %1 步：计算&lt;/b&gt;&lt;br&gt;%2 ms = 步时间 %3 ms − 暴露的 %4 ms</translation>
    </message>
    <message>
        <source>&lt;b&gt;Step %1: exposed communication&lt;/b&gt;&lt;br&gt;%2 ms waited for collectives</source>
        <translation>&lt;b&gt;第 %1 步：暴露的通信&lt;/b&gt;&lt;br&gt;等待集合通信 %2 ms</translation>
    </message>
    <message>
        <source>&lt;b&gt;Step %1: %2&lt;/b&gt;&lt;br&gt;%3 ms, %4 ms of it exposed; %5 sent by this rank</source>
        <translation>&lt;b&gt;第 %1 步：%2&lt;/b&gt;&lt;br&gt;%3 ms，其中 %4 ms 暴露；本 rank 发送 %5</translation>
    </message>
    <message>
        <source>rank 0 of %1, global batch %2, %3 steps</source>
        <translation>rank 0（共 %1 个），全局批 %2，%3 步</translation>
    </message>
    <message>
        <source>compute = step time − Σ exposed collective time; overlapped = collective time − exposed</source>
        <translation>计算 = 步时间 − Σ 暴露的集合通信时间；重叠 = 集合通信时间 − 暴露的时间</translation>
    </message>
    <message>
        <source>measured by llm-explorer-cli train --dp (DataParallelStepReport); Li et al. 2020 (PyTorch DDP) §3.2</source>
        <translation>由 llm-explorer-cli train --dp 测得（DataParallelStepReport）；Li et al. 2020 (PyTorch DDP) §3.2</translation>
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
    <message>
        <source>given</source>
        <translation>给定</translation>
    </message>
    <message>
        <source>predicted</source>
        <translation>预测的</translation>
    </message>
    <message>
        <source>FlashAttention-2</source>
        <translation>FlashAttention-2</translation>
    </message>
    <message>
        <source>FlashAttention-3</source>
        <translation>FlashAttention-3</translation>
    </message>
</context>
<context>
    <name>lse::gui::FlashAttentionAnimation</name>
    <message>
        <source>No animation for these inputs (see the message above).</source>
        <translation>这些输入没有动画（见上方说明）。</translation>
    </message>
    <message>
        <source>HBM (off-chip memory)</source>
        <translation>HBM（片外显存）</translation>
    </message>
    <message>
        <source>Q, K, V, O: %1 × %2</source>
        <translation>Q、K、V、O：%1 × %2</translation>
    </message>
    <message>
        <source>; S, P: %1 × %1</source>
        <translation>；S、P：%1 × %1</translation>
    </message>
    <message>
        <source>; ℓ, m: %1</source>
        <translation>；ℓ、m：%1</translation>
    </message>
    <message>
        <source>; L: %1</source>
        <translation>；L：%1</translation>
    </message>
    <message>
        <source>read %1</source>
        <translation>读 %1</translation>
    </message>
    <message>
        <source>written %1</source>
        <translation>写 %1</translation>
    </message>
    <message>
        <source>SRAM of one SM</source>
        <translation>一个 SM 的 SRAM</translation>
    </message>
    <message>
        <source>M = %1</source>
        <translation>M = %1</translation>
    </message>
    <message>
        <source>in use %1 (%2 of M)</source>
        <translation>占用 %1（M 的 %2）</translation>
    </message>
    <message>
        <source>Standard attention keeps nothing on chip between its steps: S and P go to HBM and back.</source>
        <translation>标准注意力在各步之间不在片上保留任何数据：S 和 P 写到 HBM 再读回。</translation>
    </message>
    <message>
        <source>Nothing resident.</source>
        <translation>片上没有数据。</translation>
    </message>
    <message>
        <source>%1: %2 each</source>
        <translation>%1：各 %2</translation>
    </message>
    <message>
        <source>%1: %2 × %3</source>
        <translation>%1：%2 × %3</translation>
    </message>
    <message>
        <source>Score matrix S (N × N)</source>
        <translation>分数矩阵 S（N × N）</translation>
    </message>
    <message>
        <source>Score blocks: %1 × %2</source>
        <translation>分数块：%1 × %2</translation>
    </message>
    <message>
        <source>computed</source>
        <translation>已计算</translation>
    </message>
    <message>
        <source>this step</source>
        <translation>本步</translation>
    </message>
    <message>
        <source>skipped (causal)</source>
        <translation>跳过（因果）</translation>
    </message>
    <message>
        <source>to come</source>
        <translation>待计算</translation>
    </message>
    <message>
        <source>in use %1 (%2 of M: Algorithm 1&apos;s Q, K, V, O tiles alone fill M)</source>
        <translation>已用 %1（M 的 %2：按算法 1 的分块，仅 Q、K、V、O 分块就占满 M）</translation>
    </message>
</context>
<context>
    <name>lse::gui::FlashAttentionCounters</name>
    <message>
        <source>HBM traffic</source>
        <translation>HBM 流量</translation>
    </message>
    <message>
        <source>This step</source>
        <translation>本步</translation>
    </message>
    <message>
        <source>So far</source>
        <translation>累计</translation>
    </message>
    <message>
        <source>Whole pass</source>
        <translation>整个前向</translation>
    </message>
    <message>
        <source>Standard attention</source>
        <translation>标准注意力</translation>
    </message>
    <message>
        <source>Read</source>
        <translation>读</translation>
    </message>
    <message>
        <source>Written</source>
        <translation>写</translation>
    </message>
    <message>
        <source>Read + written</source>
        <translation>读 + 写</translation>
    </message>
    <message>
        <source>FLOPs</source>
        <translation>FLOPs</translation>
    </message>
    <message>
        <source>FLOP per byte</source>
        <translation>每字节 FLOP</translation>
    </message>
    <message>
        <source>The cumulative counts of every step up to this one</source>
        <translation>截至本步所有步骤的累计计数</translation>
    </message>
    <message>
        <source>The whole forward pass of %1 (%2), in closed form</source>
        <translation>%1 整个前向传播的闭式计数（%2）</translation>
    </message>
    <message>
        <source>The whole forward pass of standard attention (Dao et al. 2022 Algorithm 0): (4Nd + 4N²)·E bytes, 4N²d + 5N² FLOPs</source>
        <translation>标准注意力整个前向传播（Dao et al. 2022 算法 0）：(4Nd + 4N²)·E 字节，4N²d + 5N² FLOPs</translation>
    </message>
    <message>
        <source>&lt;b&gt;Softmax&lt;/b&gt; (Algorithm 0 line 2): each row&apos;s max m and sum ℓ over all N keys at once, after the whole row of S is in HBM.</source>
        <translation>&lt;b&gt;Softmax&lt;/b&gt;（算法 0 第 2 行）：在 S 的整行写入 HBM 之后，一次性求出每行在全部 N 个键上的最大值 m 与和 ℓ。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Online softmax&lt;/b&gt; (Milakov &amp;amp; Gimelshein 2018): each row&apos;s running max m and sum ℓ after this step; when a larger score arrives, everything accumulated so far is multiplied by e&lt;sup&gt;m_before − m_after&lt;/sup&gt;.</source>
        <translation>&lt;b&gt;在线 softmax&lt;/b&gt;（Milakov &amp;amp; Gimelshein 2018）：本步之后每行的滑动最大值 m 与和 ℓ；当更大的分数到来时，之前累积的一切都乘以 e&lt;sup&gt;m_before − m_after&lt;/sup&gt;。</translation>
    </message>
    <message>
        <source>Row</source>
        <translation>行</translation>
    </message>
    <message>
        <source>m before</source>
        <translation>之前 m</translation>
    </message>
    <message>
        <source>m after</source>
        <translation>之后 m</translation>
    </message>
    <message>
        <source>ℓ before</source>
        <translation>之前 ℓ</translation>
    </message>
    <message>
        <source>ℓ after</source>
        <translation>之后 ℓ</translation>
    </message>
    <message>
        <source>O scaled by</source>
        <translation>O 缩放系数</translation>
    </message>
    <message>
        <source>e^(m_before − m_after): the factor the output accumulated so far is multiplied by (Algorithm 1 line 12)</source>
        <translation>e^(m_before − m_after)：之前累积的输出所乘的系数（算法 1 第 12 行）</translation>
    </message>
    <message>
        <source>FLOP</source>
        <translation>FLOP</translation>
    </message>
    <message>
        <source>%1 FLOPs</source>
        <translation>%1 FLOPs</translation>
    </message>
    <message>
        <source>FLOPs ÷ HBM bytes read and written</source>
        <translation>FLOPs ÷ HBM 读写字节数</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more row(s) updated in this step.</source>
        <translation>
            <numerusform>……本步还更新了另外 %n 行。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::FlashAttentionSection</name>
    <message>
        <source>expected 1 (fp8), 2 (fp16/bf16) or 4 (fp32)</source>
        <translation>应为 1（fp8）、2（fp16/bf16）或 4（fp32）</translation>
    </message>
    <message>
        <source>expected an integer in 0..%1 for these inputs, got %2</source>
        <translation>对这些输入应为 0..%1 的整数，实际为 %2</translation>
    </message>
    <message>
        <source>these inputs have no animation (%1)</source>
        <translation>这些输入没有动画（%1）</translation>
    </message>
    <message>
        <source>FlashAttention</source>
        <translation>FlashAttention</translation>
    </message>
    <message>
        <source>%1: %2 [%3]</source>
        <translation>%1：%2 [%3]</translation>
    </message>
    <message>
        <source>m and ℓ are shown for a small example with random Q, K, V: N ≤ %1, d ≤ %2 and N²·d ≤ %3.</source>
        <translation>只对随机 Q、K、V 的小例子显示 m 和 ℓ：N ≤ %1，d ≤ %2，且 N²·d ≤ %3。</translation>
    </message>
    <message>
        <source>No animation: %1 takes %2 steps here (T_r × T_c = %3 × %4 blocks), more than the %5 an animation is limited to. The totals and the charts below still follow the closed forms; a shorter N or a larger M gives fewer, larger blocks.</source>
        <translation>没有动画：%1 在这里需要 %2 步（T_r × T_c = %3 × %4 个块），超过动画上限 %5 步。总计和下方的图表仍按闭式公式计算；缩短 N 或增大 M 会得到更少、更大的块。</translation>
    </message>
    <message>
        <source>set by hand (the catalog has no shared memory per SM for %1)</source>
        <translation>手动设置（目录中没有 %1 的每 SM 共享内存）</translation>
    </message>
    <message>
        <source>shared memory per SM of %1: %2</source>
        <translation>%1 每个 SM 的共享内存：%2</translation>
    </message>
    <message>
        <source>set by hand; the shared memory per SM of %1 is %2</source>
        <translation>手动设置；%1 每个 SM 的共享内存为 %2</translation>
    </message>
    <message numerus="yes">
        <source>M = %1, %2 (the catalog&apos;s on-chip SRAM ÷ %n SM(s); CUDA C++ Programming Guide, compute capabilities). Edit M to see what a larger or smaller SRAM would do; ↺ puts the accelerator&apos;s back.</source>
        <translation>
            <numerusform>M = %1，%2（目录中的片上 SRAM ÷ %n 个 SM；CUDA C++ 编程指南，计算能力）。修改 M 可以看到更大或更小的 SRAM 会怎样；↺ 恢复加速器的值。</numerusform>
        </translation>
    </message>
    <message>
        <source>The catalog gives no shared memory per SM for %1 (%2), so M is yours to set; it starts at %3.</source>
        <translation>目录中没有 %1 的每 SM 共享内存（%2），因此 M 需要自行设置；初始值为 %3。</translation>
    </message>
    <message>
        <source>Blocks (Algorithm 1 line 1): B_c = ⌈M / 4dE⌉ = %1 keys, B_r = min(B_c, d) = %2 queries; T_r × T_c = %3 × %4 blocks, %5 computed, %6 skipped by the causal mask. Beyond Q, K, V and O, standard attention keeps S and P in HBM (%7), FlashAttention only ℓ and m (%8).</source>
        <translation>分块（算法 1 第 1 行）：B_c = ⌈M / 4dE⌉ = %1 个键，B_r = min(B_c, d) = %2 个查询；T_r × T_c = %3 × %4 个块，计算 %5 个，因果掩码跳过 %6 个。除 Q、K、V、O 外，标准注意力在 HBM 中保存 S 和 P（%7），FlashAttention 只保存 ℓ 和 m（%8）。</translation>
    </message>
    <message>
        <source>HBM traffic over N</source>
        <translation>HBM 流量随 N 的变化</translation>
    </message>
    <message>
        <source>HBM traffic over M</source>
        <translation>HBM 流量随 M 的变化</translation>
    </message>
    <message>
        <source>Roofline</source>
        <translation>屋顶线</translation>
    </message>
    <message>
        <source>Attention reads Q, K and V and writes O, each N × d. Standard attention also writes the N × N scores S and probabilities P to HBM and reads them back. FlashAttention cuts the work into blocks that fit the SRAM of one SM and never writes S or P: the online softmax&apos;s running max m and sum ℓ combine the blocks exactly. Step through one head&apos;s forward pass and watch the counters (Space plays, ← and → step).</source>
        <translation>注意力读取 Q、K、V 并写出 O，它们都是 N × d。标准注意力还要把 N × N 的分数 S 和概率 P 写入 HBM 再读回。FlashAttention 把计算切成能放进一个 SM 的 SRAM 的块，从不写出 S 或 P：在线 softmax 的滑动最大值 m 与和 ℓ 把各块精确地合并起来。逐步查看一个头的前向传播，观察计数器（空格播放，← 和 → 单步）。</translation>
    </message>
    <message>
        <source>&amp;N:</source>
        <translation>&amp;N：</translation>
    </message>
    <message>
        <source>Sequence length N (tokens of one sequence, one head)</source>
        <translation>序列长度 N（一个序列的词元数，单个头）</translation>
    </message>
    <message>
        <source>&amp;d:</source>
        <translation>&amp;d：</translation>
    </message>
    <message>
        <source>Head dimension d</source>
        <translation>头维度 d</translation>
    </message>
    <message>
        <source>&amp;M (bytes):</source>
        <translation>&amp;M（字节）：</translation>
    </message>
    <message>
        <source>SRAM M of one SM in bytes: the tiles Q_i, K_j, V_j, O_i must fit (B_c = ⌈M / 4dE⌉)</source>
        <translation>一个 SM 的 SRAM M（字节）：必须装下分块 Q_i、K_j、V_j、O_i（B_c = ⌈M / 4dE⌉）</translation>
    </message>
    <message>
        <source>Back to the shared memory per SM of the scenario&apos;s accelerator</source>
        <translation>恢复为场景中加速器每个 SM 的共享内存</translation>
    </message>
    <message>
        <source>&amp;Element:</source>
        <translation>元素(&amp;E)：</translation>
    </message>
    <message>
        <source>fp16 / bf16 (2 bytes)</source>
        <translation>fp16 / bf16（2 字节）</translation>
    </message>
    <message>
        <source>fp32 (4 bytes)</source>
        <translation>fp32（4 字节）</translation>
    </message>
    <message>
        <source>fp8 (1 byte)</source>
        <translation>fp8（1 字节）</translation>
    </message>
    <message>
        <source>Bytes per element E of Q, K, V, O, S, P, ℓ and m; also the peak the roofline uses</source>
        <translation>Q、K、V、O、S、P、ℓ 和 m 每个元素的字节数 E；也决定屋顶线使用的峰值</translation>
    </message>
    <message>
        <source>&amp;Causal mask</source>
        <translation>因果掩码(&amp;C)</translation>
    </message>
    <message>
        <source>Blocks wholly above the diagonal are neither loaded nor computed (Dao 2023 §3.1.1); standard attention masks the whole N × N matrix after computing it</source>
        <translation>完全位于对角线上方的块既不载入也不计算（Dao 2023 §3.1.1）；标准注意力先算出整个 N × N 矩阵再加掩码</translation>
    </message>
    <message>
        <source>&amp;Algorithm:</source>
        <translation>算法(&amp;A)：</translation>
    </message>
    <message>
        <source>Standard: Dao et al. 2022 Algorithm 0; FlashAttention: Algorithm 1 (outer loop over K/V blocks); FlashAttention-2 loop order: Dao 2023 Algorithm 1 (outer loop over Q blocks)</source>
        <translation>标准：Dao et al. 2022 算法 0；FlashAttention：算法 1（外层循环遍历 K/V 块）；FlashAttention-2 循环顺序：Dao 2023 算法 1（外层循环遍历 Q 块）</translation>
    </message>
    <message>
        <source>Previous step (Left)</source>
        <translation>上一步（←）</translation>
    </message>
    <message>
        <source>Next step (Right)</source>
        <translation>下一步（→）</translation>
    </message>
    <message>
        <source>Step through the forward pass: each step loads, computes or writes one block</source>
        <translation>逐步查看前向传播：每一步载入、计算或写出一个块</translation>
    </message>
    <message>
        <source>&lt;b&gt;The closed forms.&lt;/b&gt; The counters above, summed over every step, equal these curves at the chosen N and M. Hover a point for its formula and source.</source>
        <translation>&lt;b&gt;闭式公式。&lt;/b&gt;上面的计数器把每一步加起来，等于这些曲线在所选 N 和 M 处的值。把鼠标悬停在点上可查看公式和出处。</translation>
    </message>
</context>
<context>
    <name>lse::gui::FusionSection</name>
    <message>
        <source>bias</source>
        <translation>偏置</translation>
    </message>
    <message>
        <source>GeLU</source>
        <translation>GeLU</translation>
    </message>
    <message>
        <source>dropout</source>
        <translation>dropout</translation>
    </message>
    <message>
        <source>residual</source>
        <translation>残差</translation>
    </message>
    <message>
        <source>core/kernels/fusion_chain (bytes: ops/byte_rules elementwiseForward; FLOPs: ops/flop_rules; time: performance/kernel_time streamingTime); fused accounting as roofline/fusion.cpp</source>
        <translation>core/kernels/fusion_chain（字节：ops/byte_rules elementwiseForward；FLOPs：ops/flop_rules；时间：performance/kernel_time streamingTime）；融合的计法同 roofline/fusion.cpp</translation>
    </message>
    <message>
        <source>Kernel fusion</source>
        <translation>算子融合</translation>
    </message>
    <message>
        <source>unfused total</source>
        <translation>未融合合计</translation>
    </message>
    <message>
        <source>fused kernel</source>
        <translation>融合内核</translation>
    </message>
    <message>
        <source>On the scenario&apos;s accelerator: &lt;b&gt;%1&lt;/b&gt;, %2 HBM, %3 fp32 vector peak</source>
        <translation>在场景的加速器上：&lt;b&gt;%1&lt;/b&gt;，HBM %2，fp32 向量峰值 %3</translation>
    </message>
    <message>
        <source>%1 × %2 %3%4. &lt;b&gt;Unfused&lt;/b&gt;: %5 kernels move %6 (%7 FLOP/byte) in %8. &lt;b&gt;Fused&lt;/b&gt;: one kernel moves %9 (%10 FLOP/byte) in %11 — &lt;b&gt;%12× faster&lt;/b&gt;, the same %13 FLOP.</source>
        <translation>%1 × %2 %3%4。&lt;b&gt;未融合&lt;/b&gt;：%5 个内核搬运 %6（%7 FLOP/字节），用时 %8。&lt;b&gt;融合&lt;/b&gt;：一个内核搬运 %9（%10 FLOP/字节），用时 %11——&lt;b&gt;快 %12 倍&lt;/b&gt;，FLOP 同为 %13。</translation>
    </message>
    <message>
        <source>, training (GeLU&apos;s input is kept for the backward pass)</source>
        <translation>，训练（GeLU 的输入为反向传播保留）</translation>
    </message>
    <message>
        <source>Speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <source>unfused time / fused time; each kernel&apos;s time = max(FLOPs / vector peak, bytes / (bandwidth · memory efficiency)) + launch overhead</source>
        <translation>未融合时间 / 融合时间；每个内核的时间 = max(FLOPs / 向量峰值, 字节 / (带宽 · 内存效率)) + 启动开销</translation>
    </message>
    <message>
        <source>HBM bytes per kernel</source>
        <translation>每个内核的 HBM 字节</translation>
    </message>
    <message>
        <source>Bytes moved (MB)</source>
        <translation>搬运字节（MB）</translation>
    </message>
    <message>
        <source>%1 × %2, %3 bytes per element</source>
        <translation>%1 × %2，每元素 %3 字节</translation>
    </message>
    <message>
        <source>each kernel reads its inputs and writes its output (tokens · width · E each; the residual add reads two); fused: the intermediates stay in registers</source>
        <translation>每个内核读取输入并写回输出（各为 tokens · width · E；残差加法读两个）；融合后中间结果留在寄存器中</translation>
    </message>
    <message>
        <source>read</source>
        <translation>读取</translation>
    </message>
    <message>
        <source>written</source>
        <translation>写入</translation>
    </message>
    <message>
        <source>%1: reads %2, writes %3</source>
        <translation>%1：读取 %2，写入 %3</translation>
    </message>
    <message>
        <source>unfused: %1 in all</source>
        <translation>未融合：共 %1</translation>
    </message>
    <message>
        <source>fused: %1 in all</source>
        <translation>融合：共 %1</translation>
    </message>
    <message>
        <source>Predicted time per kernel on %1</source>
        <translation>%1 上每个内核的预测时间</translation>
    </message>
    <message>
        <source>Time (µs)</source>
        <translation>时间（µs）</translation>
    </message>
    <message>
        <source>max(FLOPs / vector peak, bytes / (HBM bandwidth · memory efficiency)) + launch overhead, per kernel; unfused = the sum of the four</source>
        <translation>每个内核 max(FLOPs / 向量峰值, 字节 / (HBM 带宽 · 内存效率)) + 启动开销；未融合 = 四者之和</translation>
    </message>
    <message>
        <source>one operator&apos;s kernel</source>
        <translation>单个算子的内核</translation>
    </message>
    <message>
        <source>whole chain</source>
        <translation>整条链</translation>
    </message>
    <message>
        <source>%1: %2, %3</source>
        <translation>%1：%2，%3</translation>
    </message>
    <message>
        <source>memory bound</source>
        <translation>受内存限制</translation>
    </message>
    <message>
        <source>compute bound</source>
        <translation>受计算限制</translation>
    </message>
    <message>
        <source>unfused: %1 in %2 kernels</source>
        <translation>未融合：%2 个内核共 %1</translation>
    </message>
    <message>
        <source>fused: %1 in one kernel (%2× faster)</source>
        <translation>融合：一个内核 %1（快 %2 倍）</translation>
    </message>
    <message>
        <source>The chain on the roofline of %1 (vector units)</source>
        <translation>这条链在 %1 的 Roofline 上（向量单元）</translation>
    </message>
    <message>
        <source>Arithmetic intensity (FLOP/byte)</source>
        <translation>算术强度（FLOP/字节）</translation>
    </message>
    <message>
        <source>Attainable TFLOP/s</source>
        <translation>可达 TFLOP/s</translation>
    </message>
    <message>
        <source>peak %1, bandwidth %2, ridge %3 FLOP/byte</source>
        <translation>峰值 %1，带宽 %2，拐点 %3 FLOP/字节</translation>
    </message>
    <message>
        <source>attainable = min(peak, intensity · bandwidth); intensity = FLOPs / HBM bytes</source>
        <translation>可达 = min(峰值, 强度 · 带宽)；强度 = FLOPs / HBM 字节</translation>
    </message>
    <message>
        <source>Williams, Waterman &amp; Patterson 2009, &quot;Roofline&quot;; core/kernels/kernel_roofline</source>
        <translation>Williams, Waterman &amp; Patterson 2009，“Roofline”；core/kernels/kernel_roofline</translation>
    </message>
    <message>
        <source>roofline</source>
        <translation>Roofline</translation>
    </message>
    <message>
        <source>%1: %2 FLOP/byte, %3 TFLOP/s attainable</source>
        <translation>%1：%2 FLOP/字节，可达 %3 TFLOP/s</translation>
    </message>
    <message>
        <source>%1: %2 FLOP / %3 = %4 FLOP/byte, %5 TFLOP/s attainable (%6)</source>
        <translation>%1：%2 FLOP / %3 = %4 FLOP/字节，可达 %5 TFLOP/s（%6）</translation>
    </message>
    <message>
        <source>unfused chain</source>
        <translation>未融合的链</translation>
    </message>
    <message>
        <source>Running the chain on this CPU: %1 × %2 float32, unfused and fused alternating…</source>
        <translation>正在本机 CPU 上运行这条链：%1 × %2 float32，未融合与融合交替…</translation>
    </message>
    <message>
        <source>Cancelled; the table keeps the last finished measurement.</source>
        <translation>已取消；表格保留上一次完成的测量。</translation>
    </message>
    <message numerus="yes">
        <source>Measured %1 × %2 float32 on %n thread(s), median of %3 alternating runs each.</source>
        <translation>
            <numerusform>已测量 %1 × %2 float32，%n 个线程，各取 %3 次交替运行的中位数。</numerusform>
        </translation>
    </message>
    <message>
        <source>Not measured yet.</source>
        <translation>尚未测量。</translation>
    </message>
    <message>
        <source>Variant</source>
        <translation>变体</translation>
    </message>
    <message>
        <source>Predicted on %1</source>
        <translation>%1 上的预测</translation>
    </message>
    <message>
        <source>Measured here</source>
        <translation>本机实测</translation>
    </message>
    <message>
        <source>Bytes (model, 4 B)</source>
        <translation>字节（模型，4 B）</translation>
    </message>
    <message>
        <source>GB/s here</source>
        <translation>本机 GB/s</translation>
    </message>
    <message>
        <source>fused (one loop)</source>
        <translation>融合（一个循环）</translation>
    </message>
    <message>
        <source>unfused (one pass per operator)</source>
        <translation>未融合（每个算子一遍）</translation>
    </message>
    <message>
        <source>Measured speedup here: &lt;b&gt;%1×&lt;/b&gt; (predicted on %2: %3×; the model&apos;s bytes fall %4×). Outputs %5.</source>
        <translation>本机实测加速比：&lt;b&gt;%1 倍&lt;/b&gt;（%2 上预测：%3 倍；模型的字节减少 %4 倍）。输出%5。</translation>
    </message>
    <message>
        <source>bitwise equal</source>
        <translation>逐位相同</translation>
    </message>
    <message>
        <source>differ by up to %1</source>
        <translation>最多相差 %1</translation>
    </message>
    <message>
        <source>After the MLP&apos;s matmul come four element-wise operators: add the bias, GeLU, dropout, add the residual. Each does about one FLOP per byte it moves, so each is memory bound. Run as four kernels, every intermediate goes to HBM and back; fused into one kernel, the element stays in a register through the whole chain and only the input, the residual and the result cross HBM.</source>
        <translation>MLP 的矩阵乘法之后是四个逐元素算子：加偏置、GeLU、dropout、加残差。每个算子每搬运一个字节只做约一次 FLOP，因此都受内存限制。作为四个内核运行时，每个中间结果都要写入 HBM 再读回；融合成一个内核后，元素在整条链中都留在寄存器里，只有输入、残差和结果经过 HBM。</translation>
    </message>
    <message>
        <source>Tokens:</source>
        <translation>词元数：</translation>
    </message>
    <message>
        <source>Width:</source>
        <translation>宽度：</translation>
    </message>
    <message>
        <source>Type:</source>
        <translation>类型：</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>The backward pass keeps GeLU&apos;s input (Korthikanti et al. 2022 §4.1), so the fused kernel still writes it</source>
        <translation>反向传播需要保留 GeLU 的输入（Korthikanti 等 2022 §4.1），因此融合内核仍要写出它</translation>
    </message>
    <message>
        <source>Rows: micro-batch × sequence length</source>
        <translation>行：微批次 × 序列长度</translation>
    </message>
    <message>
        <source>Columns: d_model, or d_ff after the up projection</source>
        <translation>列：d_model，或上投影之后的 d_ff</translation>
    </message>
    <message>
        <source>&lt;b&gt;Measured on this CPU.&lt;/b&gt; The same chain in float32 on tokens × width: four passes over memory (the reference transformer&apos;s GeLU and residual kernels) vs one fused loop, timed alternately. The bytes are the model&apos;s count at 4 bytes per element, not a hardware counter; the outputs are compared bit for bit.</source>
        <translation>&lt;b&gt;在本机 CPU 上测量。&lt;/b&gt;同一条链，float32，tokens × width：四遍内存遍历（参考 Transformer 的 GeLU 与残差内核）对比一个融合循环，交替计时。字节数是模型按每元素 4 字节的计数，不是硬件计数器；输出逐位比较。</translation>
    </message>
    <message>
        <source>Runs:</source>
        <translation>运行次数：</translation>
    </message>
    <message>
        <source>Measure on this CPU</source>
        <translation>在本机 CPU 上测量</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>&lt;b&gt;Sources:&lt;/b&gt; %1; the roofline: Williams, Waterman &amp; Patterson 2009. The CPU run: core/reference/fusion_measurement.</source>
        <translation>&lt;b&gt;来源：&lt;/b&gt;%1；Roofline：Williams, Waterman &amp; Patterson 2009。CPU 运行：core/reference/fusion_measurement。</translation>
    </message>
</context>
<context>
    <name>lse::gui::GemmTileGrid</name>
    <message>
        <source>No tiles to draw: see the message above.</source>
        <translation>没有可画的分块：见上方提示。</translation>
    </message>
    <message>
        <source>%1 tiles: too many to draw one by one (up to %2 are drawn). The figures beside are exact.</source>
        <translation>%1 个分块：太多，无法逐个绘制（最多绘制 %2 个）。旁边的数字是精确的。</translation>
    </message>
    <message>
        <source>Wave %1 of %2 on the %3 SMs: %4 busy, %5 idle</source>
        <translation>第 %1 / %2 波，%3 个 SM：%4 个忙，%5 个空闲</translation>
    </message>
    <message>
        <source>wave %1</source>
        <translation>第 %1 波</translation>
    </message>
    <message>
        <source>wave %1: colours repeat</source>
        <translation>第 %1 波：颜色循环</translation>
    </message>
    <message>
        <source>waves %1–%2: colours repeat</source>
        <translation>第 %1–%2 波：颜色循环</translation>
    </message>
    <message>
        <source>wave %1: partial</source>
        <translation>第 %1 波：不满</translation>
    </message>
    <message>
        <source>idle SM / padding outside C</source>
        <translation>空闲 SM / C 之外的填充</translation>
    </message>
</context>
<context>
    <name>lse::gui::GemmWavesSection</name>
    <message>
        <source>NVIDIA Deep Learning Performance Guide, &quot;Matrix Multiplication Background&quot; (tile and wave quantisation); core/performance/kernel_time (gemmTiling, gemmEfficiency, gemmTime)</source>
        <translation>NVIDIA Deep Learning Performance Guide，“Matrix Multiplication Background”（分块量化与波次量化）；core/performance/kernel_time（gemmTiling、gemmEfficiency、gemmTime）</translation>
    </message>
    <message>
        <source>GEMM tiles and waves</source>
        <translation>GEMM 分块与波次</translation>
    </message>
    <message>
        <source>Why a big matrix product reaches only part of the peak. The GPU cuts C = A·B into thread-block tiles and runs one tile per SM at a time: a &lt;i&gt;wave&lt;/i&gt;. When M or N is not a multiple of the tile, the edge tiles compute padding (tile quantisation); when the tiles are not a multiple of the SMs, the last wave leaves SMs idle (wave quantisation). Change N by a few columns and the time jumps: the saw-tooth below. Click it to pick an N.</source>
        <translation>为什么大矩阵乘法只能达到峰值的一部分。GPU 把 C = A·B 切成线程块分块，每个 SM 一次运行一个分块：这就是一个&lt;i&gt;波次&lt;/i&gt;。M 或 N 不是分块大小的倍数时，边缘分块要计算填充（分块量化）；分块数不是 SM 数的倍数时，最后一波会让部分 SM 空闲（波次量化）。把 N 改动几列，时间就会跳变：见下方的锯齿图。点击图可选取 N。</translation>
    </message>
    <message>
        <source>M:</source>
        <translation>M：</translation>
    </message>
    <message>
        <source>N:</source>
        <translation>N：</translation>
    </message>
    <message>
        <source>K:</source>
        <translation>K：</translation>
    </message>
    <message>
        <source>Type:</source>
        <translation>类型：</translation>
    </message>
    <message>
        <source>Rows of A and C</source>
        <translation>A 和 C 的行数</translation>
    </message>
    <message>
        <source>Columns of B and C</source>
        <translation>B 和 C 的列数</translation>
    </message>
    <message>
        <source>Columns of A, rows of B: the depth each tile loops over</source>
        <translation>A 的列数、B 的行数：每个分块循环的深度</translation>
    </message>
    <message>
        <source>Accelerator</source>
        <translation>加速器</translation>
    </message>
    <message>
        <source>Thread-block tile</source>
        <translation>线程块分块</translation>
    </message>
    <message>
        <source>Tiles of C</source>
        <translation>C 的分块</translation>
    </message>
    <message>
        <source>Waves</source>
        <translation>波次</translation>
    </message>
    <message>
        <source>Last wave</source>
        <translation>最后一波</translation>
    </message>
    <message>
        <source>Tile quantisation</source>
        <translation>分块量化</translation>
    </message>
    <message>
        <source>Wave quantisation</source>
        <translation>波次量化</translation>
    </message>
    <message>
        <source>Depth (K) factor</source>
        <translation>深度（K）系数</translation>
    </message>
    <message>
        <source>Total efficiency</source>
        <translation>总效率</translation>
    </message>
    <message>
        <source>Predicted time</source>
        <translation>预测时间</translation>
    </message>
    <message>
        <source>Achieved</source>
        <translation>实际达到</translation>
    </message>
    <message>
        <source>Dense peak</source>
        <translation>稠密峰值</translation>
    </message>
    <message>
        <source>&lt;b&gt;Source:&lt;/b&gt; %1. Tiles run in row-major order, tile t on SM t mod SMs in wave ⌊t / SMs⌋; the efficiencies multiply into the time the step-time model predicts for this product.</source>
        <translation>&lt;b&gt;来源：&lt;/b&gt;%1。分块按行优先顺序运行，分块 t 在第 ⌊t / SMs⌋ 波中运行于 SM t mod SMs；各项效率相乘，得到步时模型为这个乘法预测的时间。</translation>
    </message>
    <message>
        <source>On the scenario&apos;s accelerator: &lt;b&gt;%1&lt;/b&gt;, %2 SMs, %3 dense %4</source>
        <translation>在场景的加速器上：&lt;b&gt;%1&lt;/b&gt;，%2 个 SM，稠密 %4 %3</translation>
    </message>
    <message>
        <source>%1 (%2 SMs)</source>
        <translation>%1（%2 个 SM）</translation>
    </message>
    <message>
        <source>The model&apos;s thread-block tile, %1 × %2 from the catalog&apos;s efficiency factors; a side shrinks to the next power of two ≥ 16 of a skinny dimension</source>
        <translation>模型的线程块分块，%1 × %2，来自目录的效率系数；细长维度上的边缩小到不小于 16 的下一个 2 的幂</translation>
    </message>
    <message>
        <source>tiles = ⌈M / tile rows⌉ · ⌈N / tile columns⌉</source>
        <translation>分块数 = ⌈M / 分块行数⌉ · ⌈N / 分块列数⌉</translation>
    </message>
    <message>
        <source>%1 (%2 full)</source>
        <translation>%1（%2 波满）</translation>
    </message>
    <message>
        <source>waves = ⌈tiles / SMs⌉ = ⌈%1 / %2⌉</source>
        <translation>波次 = ⌈分块数 / SM 数⌉ = ⌈%1 / %2⌉</translation>
    </message>
    <message>
        <source>%1 of %2 SMs busy, %3 idle</source>
        <translation>%2 个 SM 中 %1 个忙，%3 个空闲</translation>
    </message>
    <message>
        <source>last wave&apos;s tiles = tiles − (waves − 1) · SMs</source>
        <translation>最后一波的分块数 = 分块数 − (波次 − 1) · SM 数</translation>
    </message>
    <message>
        <source>M·N / (⌈M / tile rows⌉·tile rows · ⌈N / tile columns⌉·tile columns): the share of the computed tiles that lies inside C</source>
        <translation>M·N / (⌈M / 分块行数⌉·分块行数 · ⌈N / 分块列数⌉·分块列数)：所计算的分块中落在 C 内的比例</translation>
    </message>
    <message>
        <source>tiles / (waves · SMs): the share of SM slots that get a tile</source>
        <translation>分块数 / (波次 · SM 数)：分到分块的 SM 槽位比例</translation>
    </message>
    <message>
        <source>K / (K + %1): a tile&apos;s fixed prologue and epilogue against its main loop over K</source>
        <translation>K / (K + %1)：分块固定的前序与收尾开销相对于其沿 K 的主循环</translation>
    </message>
    <message>
        <source>tile · wave · depth · the catalog&apos;s GEMM peak fraction (%1)</source>
        <translation>分块 · 波次 · 深度 · 目录中的 GEMM 峰值比例（%1）</translation>
    </message>
    <message>
        <source> (memory bound)</source>
        <translation>（受内存限制）</translation>
    </message>
    <message>
        <source> (compute bound)</source>
        <translation>（受计算限制）</translation>
    </message>
    <message>
        <source>max(2·M·N·K / (peak · total efficiency), bytes / (bandwidth · memory efficiency)) + kernel overhead; 2·M·N·K = %1 FLOP, %2 moved</source>
        <translation>max(2·M·N·K / (峰值 · 总效率), 字节 / (带宽 · 内存效率)) + 内核开销；2·M·N·K = %1 FLOP，搬运 %2</translation>
    </message>
    <message>
        <source>%1 (%2 of peak)</source>
        <translation>%1（峰值的 %2）</translation>
    </message>
    <message>
        <source>2·M·N·K / predicted time</source>
        <translation>2·M·N·K / 预测时间</translation>
    </message>
    <message>
        <source>The catalog&apos;s dense %1 peak: %2</source>
        <translation>目录中的稠密 %1 峰值：%2</translation>
    </message>
    <message>
        <source>Achieved TFLOP/s over N (M = %1, K = %2, %3): the wave saw-tooth</source>
        <translation>实际 TFLOP/s 随 N 变化（M = %1，K = %2，%3）：波次锯齿</translation>
    </message>
    <message>
        <source>N (columns of C)</source>
        <translation>N（C 的列数）</translation>
    </message>
    <message>
        <source>Achieved TFLOP/s</source>
        <translation>实际 TFLOP/s</translation>
    </message>
    <message>
        <source>M = %1, K = %2, N from %3 to %4 in steps of %5, %6 (%7 SMs)</source>
        <translation>M = %1，K = %2，N 从 %3 到 %4，步长 %5，%6（%7 个 SM）</translation>
    </message>
    <message>
        <source>achieved = 2·M·N·K / time, time = 2·M·N·K / (peak · tile · wave · depth · peak fraction) (or the bytes&apos; time when memory bound) + overhead</source>
        <translation>实际 = 2·M·N·K / 时间，时间 = 2·M·N·K / (峰值 · 分块 · 波次 · 深度 · 峰值比例)（受内存限制时取字节的时间）+ 开销</translation>
    </message>
    <message>
        <source>achieved TFLOP/s</source>
        <translation>实际 TFLOP/s</translation>
    </message>
    <message>
        <source>N = %1: %2 TFLOP/s, %3 waves, tile %4, wave %5</source>
        <translation>N = %1：%2 TFLOP/s，%3 波，分块 %4，波次 %5</translation>
    </message>
    <message>
        <source>this N</source>
        <translation>当前 N</translation>
    </message>
    <message>
        <source>N = %1: %2, %3 waves</source>
        <translation>N = %1：%2，%3 波</translation>
    </message>
    <message>
        <source>dense peak %1</source>
        <translation>稠密峰值 %1</translation>
    </message>
</context>
<context>
    <name>lse::gui::HardwarePage</name>
    <message>
        <source>not published</source>
        <translation>未公布</translation>
    </message>
    <message>
        <source>%1 KiB</source>
        <translation>%1 KiB</translation>
    </message>
    <message>
        <source>SRAM</source>
        <translation>SRAM</translation>
    </message>
    <message>
        <source>L2</source>
        <translation>L2</translation>
    </message>
    <message>
        <source>HBM</source>
        <translation>HBM</translation>
    </message>
    <message>
        <source>NVMe</source>
        <translation>NVMe</translation>
    </message>
    <message>
        <source>hands</source>
        <translation>双手</translation>
    </message>
    <message>
        <source>cutting board</source>
        <translation>砧板</translation>
    </message>
    <message>
        <source>spice rack</source>
        <translation>调料架</translation>
    </message>
    <message>
        <source>prep table</source>
        <translation>备菜台</translation>
    </message>
    <message>
        <source>counter</source>
        <translation>台面</translation>
    </message>
    <message>
        <source>pantry</source>
        <translation>储藏室</translation>
    </message>
    <message>
        <source>delivery van</source>
        <translation>送货车</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; of %2 — %3&lt;br&gt;capacity %4 per GPU&lt;br&gt;bandwidth %5&lt;br&gt;latency ~%6&lt;br&gt;&lt;small&gt;%7&lt;/small&gt;</source>
        <translation>%2 的 &lt;b&gt;%1&lt;/b&gt; — %3&lt;br&gt;每 GPU 容量 %4&lt;br&gt;带宽 %5&lt;br&gt;延迟 ~%6&lt;br&gt;&lt;small&gt;%7&lt;/small&gt;</translation>
    </message>
    <message>
        <source>a link, not a store</source>
        <translation>是链路，不是存储</translation>
    </message>
    <message>
        <source>Registers</source>
        <translation>寄存器</translation>
    </message>
    <message>
        <source>SRAM (shared mem / L1)</source>
        <translation>SRAM（共享内存 / L1）</translation>
    </message>
    <message>
        <source>L2 cache</source>
        <translation>L2 缓存</translation>
    </message>
    <message>
        <source>HBM (VRAM)</source>
        <translation>HBM（显存）</translation>
    </message>
    <message>
        <source>Host RAM</source>
        <translation>主机内存</translation>
    </message>
    <message>
        <source>NVMe SSD</source>
        <translation>NVMe SSD</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>the chef&apos;s hands</source>
        <translation>厨师的双手</translation>
    </message>
    <message>
        <source>the cutting board</source>
        <translation>砧板</translation>
    </message>
    <message>
        <source>the spice rack</source>
        <translation>调料架</translation>
    </message>
    <message>
        <source>the chef&apos;s prep table</source>
        <translation>厨师的备菜台</translation>
    </message>
    <message>
        <source>the kitchen counter</source>
        <translation>厨房台面</translation>
    </message>
    <message>
        <source>the pantry</source>
        <translation>储藏室</translation>
    </message>
    <message>
        <source>the delivery van</source>
        <translation>送货车</translation>
    </message>
    <message>
        <source>Hardware</source>
        <translation>硬件</translation>
    </message>
    <message>
        <source>What one accelerator is made of and where its data lives. Each level of the memory hierarchy is larger and slower than the one above it; training spends its time moving tensors between them (the roofline page shows when that, not the math, sets the pace).</source>
        <translation>一块加速器由什么组成，它的数据存放在哪里。存储层次中每一级都比上一级更大、更慢；训练的大部分时间都花在这些层级之间搬运张量上（Roofline 页面展示了何时由数据搬运而非计算决定速度）。</translation>
    </message>
    <message>
        <source>&amp;Accelerator</source>
        <translation>加速器(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Compare with</source>
        <translation>对比(&amp;C)</translation>
    </message>
    <message>
        <source>&lt;b&gt;The kitchen&lt;/b&gt; (CS336): a chef (the SMs) cooks fast only with ingredients within reach.&lt;ul&gt;</source>
        <translation>&lt;b&gt;厨房类比&lt;/b&gt;（CS336）：厨师（SM）只有在食材触手可及时才能做得快。&lt;ul&gt;</translation>
    </message>
    <message>
        <source>&lt;li&gt;&lt;b&gt;%1&lt;/b&gt; = %2&lt;/li&gt;</source>
        <translation>&lt;li&gt;&lt;b&gt;%1&lt;/b&gt; = %2&lt;/li&gt;</translation>
    </message>
    <message>
        <source>&lt;/ul&gt;Fetching from one step further away costs roughly 10× more time per byte; good kernels keep the ingredients on the cutting board and the spice rack. Figures marked ≈ are estimates (hover for the source).</source>
        <translation>&lt;/ul&gt;每往外多取一级，每字节的耗时大约增加 10 倍；好的 kernel 会把食材留在砧板和调料架上。标有 ≈ 的数值为估计值（悬停可查看来源）。</translation>
    </message>
    <message>
        <source>Scenario: %1</source>
        <translation>场景：%1</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Compute units (SMs / CUs)</source>
        <translation>计算单元（SM / CU）</translation>
    </message>
    <message>
        <source>Streaming multiprocessors (NVIDIA), compute units (AMD), TensorCores (TPU)</source>
        <translation>流式多处理器（NVIDIA）、计算单元（AMD）、TensorCore（TPU）</translation>
    </message>
    <message>
        <source>Matrix units</source>
        <translation>矩阵单元</translation>
    </message>
    <message>
        <source>Tensor cores / matrix cores / MXUs: per SM × SMs</source>
        <translation>Tensor Core / 矩阵核心 / MXU：每 SM 数量 × SM 数</translation>
    </message>
    <message>
        <source>Clock (implied)</source>
        <translation>时钟频率（推算）</translation>
    </message>
    <message>
        <source>FP32 peak / (SMs × FP32 FLOP per clock per SM)</source>
        <translation>FP32 峰值 / (SM 数 × 每 SM 每时钟周期 FP32 FLOP)</translation>
    </message>
    <message>
        <source>Register file per SM</source>
        <translation>每 SM 寄存器文件</translation>
    </message>
    <message>
        <source>64 K 32-bit registers = 256 KiB on NVIDIA (CUDA C++ Programming Guide)</source>
        <translation>NVIDIA 上为 64 K 个 32 位寄存器 = 256 KiB（CUDA C++ Programming Guide）</translation>
    </message>
    <message>
        <source>SRAM per SM</source>
        <translation>每 SM 的 SRAM</translation>
    </message>
    <message>
        <source>Shared memory / L1 (or LDS) per SM = catalog SRAM / SMs</source>
        <translation>每 SM 的共享内存 / L1（或 LDS）= 目录中的 SRAM / SM 数</translation>
    </message>
    <message>
        <source>SRAM total</source>
        <translation>SRAM 总量</translation>
    </message>
    <message>
        <source>Catalog sram_bytes</source>
        <translation>目录中的 sram_bytes</translation>
    </message>
    <message>
        <source>Catalog l2_bytes</source>
        <translation>目录中的 l2_bytes</translation>
    </message>
    <message>
        <source>HBM capacity</source>
        <translation>HBM 容量</translation>
    </message>
    <message>
        <source>Catalog memory_bytes</source>
        <translation>目录中的 memory_bytes</translation>
    </message>
    <message>
        <source>HBM bandwidth</source>
        <translation>HBM 带宽</translation>
    </message>
    <message>
        <source>Catalog memory bandwidth</source>
        <translation>目录中的显存带宽</translation>
    </message>
    <message>
        <source>Dense BF16 peak</source>
        <translation>稠密 BF16 峰值</translation>
    </message>
    <message>
        <source>Catalog dense (not 2:4 sparse) peak</source>
        <translation>目录中的稠密（非 2:4 稀疏）峰值</translation>
    </message>
    <message>
        <source>Ridge point (BF16)</source>
        <translation>脊点（BF16）</translation>
    </message>
    <message>
        <source>peak / HBM bandwidth (Williams et al. 2009): intensity above which a kernel is compute-bound</source>
        <translation>峰值 / HBM 带宽（Williams et al. 2009）：算术强度高于此值时，kernel 受算力限制</translation>
    </message>
    <message>
        <source>Scale-up link</source>
        <translation>Scale-up 互连</translation>
    </message>
    <message>
        <source>NVLink / Infinity Fabric / ICI per GPU, one direction</source>
        <translation>每 GPU 的 NVLink / Infinity Fabric / ICI，单向</translation>
    </message>
    <message>
        <source>Host link (PCIe)</source>
        <translation>主机链路（PCIe）</translation>
    </message>
    <message>
        <source>PCIe to the CPU, one direction (PCI Express Base Specification)</source>
        <translation>到 CPU 的 PCIe，单向（PCI Express Base Specification）</translation>
    </message>
    <message>
        <source>Network per GPU</source>
        <translation>每 GPU 网络</translation>
    </message>
    <message>
        <source>NIC bandwidth per GPU, one direction (catalog note)</source>
        <translation>每 GPU 的网卡带宽，单向（目录注释）</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>%1 (%2 per %3)</source>
        <translation>%1（每 %3 %2 个）</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <source>FLOP/s</source>
        <translation>FLOP/s</translation>
    </message>
    <message>
        <source>FLOP/B</source>
        <translation>FLOP/B</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>%1&lt;br&gt;&lt;small&gt;%2&lt;/small&gt;</source>
        <translation>%1&lt;br&gt;&lt;small&gt;%2&lt;/small&gt;</translation>
    </message>
    <message>
        <source>Memory hierarchy: %1 vs %2</source>
        <translation>存储层次：%1 对比 %2</translation>
    </message>
    <message>
        <source>Memory hierarchy of %1</source>
        <translation>%1 的存储层次</translation>
    </message>
    <message>
        <source>Capacity per GPU (bytes, log scale)</source>
        <translation>每 GPU 容量（字节，对数刻度）</translation>
    </message>
    <message>
        <source>Bandwidth to the SMs (bytes/s, log scale)</source>
        <translation>到 SM 的带宽（字节/秒，对数刻度）</translation>
    </message>
    <message>
        <source>one point per level: (capacity, bandwidth); the network is a link (dashed line), not a store</source>
        <translation>每个层级一个点：（容量，带宽）；网络是链路（虚线），不是存储</translation>
    </message>
    <message>
        <source>catalog datasheets; register file, shared-memory and L2 bandwidth: CUDA C++ Programming Guide, NVIDIA A100/H100 whitepapers, AMD CDNA 3 white paper (≈ estimates); host: DGX user guides, PCI Express Base Specification; latency: Jia et al. 2018/2019, Luo et al. 2024 (orders of magnitude)</source>
        <translation>目录中的数据手册；寄存器文件、共享内存和 L2 带宽：CUDA C++ Programming Guide、NVIDIA A100/H100 白皮书、AMD CDNA 3 白皮书（≈ 估计值）；主机：DGX 用户指南、PCI Express Base Specification；延迟：Jia et al. 2018/2019、Luo et al. 2024（数量级）</translation>
    </message>
    <message>
        <source>%1%2 · %3</source>
        <translation>%1%2 · %3</translation>
    </message>
    <message>
        <source>%1: %2 levels plotted%3</source>
        <translation>%1：已绘制 %2 个层级%3</translation>
    </message>
    <message>
        <source> (not published: %1)</source>
        <translation>（未公布：%1）</translation>
    </message>
    <message>
        <source>network per GPU (%1): %2</source>
        <translation>每 GPU 网络（%1）：%2</translation>
    </message>
    <message>
        <source>↑ faster   larger →</source>
        <translation>↑ 更快   更大 →</translation>
    </message>
    <message>
        <source>Bandwidth by level</source>
        <translation>各层级带宽</translation>
    </message>
    <message>
        <source>Capacity by level (per GPU)</source>
        <translation>各层级容量（每 GPU）</translation>
    </message>
    <message>
        <source>Level (fast → slow)</source>
        <translation>层级（快 → 慢）</translation>
    </message>
    <message>
        <source>Bandwidth (bytes/s, log scale)</source>
        <translation>带宽（字节/秒，对数刻度）</translation>
    </message>
    <message>
        <source>Capacity (bytes, log scale)</source>
        <translation>容量（字节，对数刻度）</translation>
    </message>
    <message>
        <source>bandwidth each level delivers to the SMs, one direction</source>
        <translation>各层级向 SM 提供的单向带宽</translation>
    </message>
    <message>
        <source>capacity per GPU (a node&apos;s RAM and drives divided by its GPUs)</source>
        <translation>每 GPU 容量（节点的内存和硬盘除以 GPU 数）</translation>
    </message>
    <message>
        <source>see the memory-hierarchy chart; hover a bar for its source</source>
        <translation>见存储层次图；悬停在柱上可查看来源</translation>
    </message>
    <message>
        <source>%1 vs %2</source>
        <translation>%1 对比 %2</translation>
    </message>
</context>
<context>
    <name>lse::gui::KernelsPage</name>
    <message>
        <source>Inside the GPU</source>
        <translation>GPU 内部</translation>
    </message>
</context>
<context>
    <name>lse::gui::LayoutPage</name>
    <message>
        <source>Layout</source>
        <translation>并行布局</translation>
    </message>
    <message>
        <source>&amp;Colour GPUs by:</source>
        <translation>GPU 着色依据(&amp;C)：</translation>
    </message>
    <message>
        <source>&amp;Outline groups of rank:</source>
        <translation>框出该 rank 所在的组(&amp;O)：</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Outline every GPU that shares a TP, CP, EP, DP or PP group with this rank (hovering a GPU does the same)</source>
        <translation>框出与该 rank 同属一个 TP、CP、EP、DP 或 PP 组的所有 GPU（鼠标悬停在 GPU 上效果相同）</translation>
    </message>
    <message>
        <source>GPUs of the same group along this dimension share a colour. TP: tensor parallel (splits every matmul), CP: context parallel (splits the sequence), EP: expert parallel (splits the MoE experts), DP: data parallel (replicas), PP: pipeline parallel (splits the layers).</source>
        <translation>沿该维度同属一组的 GPU 颜色相同。TP：张量并行（切分每个矩阵乘），CP：上下文并行（切分序列），EP：专家并行（切分 MoE 专家），DP：数据并行（副本），PP：流水线并行（切分层）。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Collectives of one step on the most loaded GPU&lt;/b&gt; (hover the headers for the formulas)</source>
        <translation>&lt;b&gt;负载最重的 GPU 上一步中的集合通信&lt;/b&gt;（鼠标悬停在表头上可查看公式）</translation>
    </message>
    <message>
        <source>Dim</source>
        <translation>维度</translation>
    </message>
    <message>
        <source>Collective</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <source>Per step</source>
        <translation>每步次数</translation>
    </message>
    <message>
        <source>Bytes each</source>
        <translation>每次字节数</translation>
    </message>
    <message>
        <source>Crosses nodes</source>
        <translation>跨节点</translation>
    </message>
    <message>
        <source>Time each</source>
        <translation>每次耗时</translation>
    </message>
    <message>
        <source>Time per step</source>
        <translation>每步耗时</translation>
    </message>
    <message>
        <source>Overlaps compute</source>
        <translation>与计算重叠</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>The parallel dimension whose group runs the collective</source>
        <translation>由哪个并行维度的组执行该集合通信</translation>
    </message>
    <message>
        <source>The NCCL collective</source>
        <translation>NCCL 集合通信操作</translation>
    </message>
    <message>
        <source>How many times one GPU runs it per optimizer step</source>
        <translation>每个优化器步中一块 GPU 执行它的次数</translation>
    </message>
    <message>
        <source>Bytes one GPU sends per occurrence, with the nccl-tests bus-bandwidth factors: all-reduce 2(n−1)/n·S, all-gather and reduce-scatter (n−1)/n·S, all-to-all (n−1)/n·S, send/recv S</source>
        <translation>一块 GPU 每次发送的字节数，采用 nccl-tests 总线带宽系数：all-reduce 2(n−1)/n·S，all-gather 和 reduce-scatter (n−1)/n·S，all-to-all (n−1)/n·S，send/recv S</translation>
    </message>
    <message>
        <source>Whether the group spans nodes, so the inter-node link (and its latency) limits it</source>
        <translation>该组是否跨节点；若跨节点，则受节点间互连（及其延迟）限制</translation>
    </message>
    <message>
        <source>Alpha-beta model: t = steps·α + bytes / (link bandwidth · link efficiency); α and the bandwidth are the intra- or inter-node figures of the cluster</source>
        <translation>alpha-beta 模型：t = 步骤数·α + 字节数 / (链路带宽 · 链路效率)；α 和带宽取集群的节点内或节点间数值</translation>
    </message>
    <message>
        <source>Time each × per step: what it costs if nothing overlaps</source>
        <translation>每次耗时 × 每步次数：完全不重叠时的开销</translation>
    </message>
    <message>
        <source>Whether it can overlap with compute (DP gradient buckets, ZeRO-3 parameter prefetch)</source>
        <translation>能否与计算重叠（DP 梯度分桶、ZeRO-3 参数预取）</translation>
    </message>
    <message>
        <source>Where in the step it runs</source>
        <translation>在一步中的哪个阶段执行</translation>
    </message>
    <message>
        <source>No device mesh: %1</source>
        <translation>无设备网格：%1</translation>
    </message>
    <message>
        <source>No valid scenario yet</source>
        <translation>尚无有效场景</translation>
    </message>
    <message>
        <source>Device mesh: %1</source>
        <translation>设备网格：%1</translation>
    </message>
    <message>
        <source>Device mesh: no valid scenario yet</source>
        <translation>设备网格：尚无有效场景</translation>
    </message>
    <message>
        <source>%1 = %2 crosses nodes (%3 GPUs per node): each %1 group spans %4 nodes, so its collectives, which run on every layer, go over the inter-node network instead of NVLink. Keep %1 within a node (Narayanan et al. 2021 §3.2).</source>
        <translation>%1 = %2 跨越了节点（每节点 %3 块 GPU）：每个 %1 组横跨 %4 个节点，因此它每层都要执行的集合通信走节点间网络而非 NVLink。应让 %1 保持在单个节点内（Narayanan et al. 2021 §3.2）。</translation>
    </message>
    <message>
        <source>group of %1 GPUs</source>
        <translation>%1 块 GPU 组成的组</translation>
    </message>
    <message>
        <source>%1 per occurrence; %2 per step</source>
        <translation>每次 %1；每步 %2</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>can hide behind compute</source>
        <translation>可隐藏在计算之后</translation>
    </message>
    <message>
        <source>on the critical path</source>
        <translation>在关键路径上</translation>
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
        <source>Memory of the most loaded GPU (pipeline stage %1 of %2)</source>
        <translation>负载最重的 GPU 的显存（流水线阶段 %1，共 %2 个）</translation>
    </message>
    <message>
        <source>stage %1</source>
        <translation>阶段 %1</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Ψ = %1 parameters on this GPU × bytes per weight (÷ N_d with ZeRO-3)</source>
        <translation>Ψ = 此 GPU 上的 %1 个参数 × 每个权重的字节数（ZeRO-3 时 ÷ N_d）</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Ψ × bytes per gradient (÷ N_d with ZeRO-2 and 3)</source>
        <translation>Ψ × 每个梯度的字节数（ZeRO-2 和 3 时 ÷ N_d）</translation>
    </message>
    <message>
        <source>Optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>Ψ × K optimizer bytes (fp32 master and moments; ÷ N_d with ZeRO-1 to 3)</source>
        <translation>Ψ × K 个优化器字节（fp32 主权重和矩估计；ZeRO-1 到 3 时 ÷ N_d）</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活</translation>
    </message>
    <message>
        <source>%1 per layer × layers of the stage × %2 in-flight micro-batches (Korthikanti et al. 2022, Table 2, §4.2.3)</source>
        <translation>每层 %1 × 该阶段的层数 × %2 个在途微批次（Korthikanti et al. 2022, Table 2, §4.2.3）</translation>
    </message>
    <message>
        <source>Framework reserve</source>
        <translation>框架预留</translation>
    </message>
    <message>
        <source>%1: %2&lt;br&gt;%3</source>
        <translation>%1：%2&lt;br&gt;%3</translation>
    </message>
    <message>
        <source>%1 capacity: %2</source>
        <translation>%1 容量：%2</translation>
    </message>
    <message>
        <source>total %1 of %2 (%3); ZeRO stage %4, N_d = dp·cp = %5; the engine reports the most loaded pipeline stage only</source>
        <translation>合计 %1 / %2（%3）；ZeRO 阶段 %4，N_d = dp·cp = %5；引擎只报告负载最重的流水线阶段</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>memory = weights + gradients + optimizer states + activations + reserve</source>
        <translation>显存 = 权重 + 梯度 + 优化器状态 + 激活 + 预留</translation>
    </message>
    <message>
        <source>Rajbhandari et al. 2020 (ZeRO) §3.1, §5; Korthikanti et al. 2022, Table 2</source>
        <translation>Rajbhandari et al. 2020 (ZeRO) §3.1, §5; Korthikanti et al. 2022, Table 2</translation>
    </message>
    <message numerus="yes">
        <source>%1 × %2 on %Ln node(s) of %3 GPUs: dp %4 · tp %5 · pp %6 · cp %7 · ep %8</source>
        <translation>
            <numerusform>%1 × %2，共 %Ln 个节点，每节点 %3 块 GPU：dp %4 · tp %5 · pp %6 · cp %7 · ep %8</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::LessonBar</name>
    <message>
        <source>Reveal</source>
        <translation>显示答案</translation>
    </message>
    <message>
        <source>Show the answer (Next, Space, Page Down)</source>
        <translation>显示答案（Next、Space、Page Down）</translation>
    </message>
    <message>
        <source>Previous step (Page Up, Left, Up)</source>
        <translation>上一步骤（Page Up、Left、Up）</translation>
    </message>
    <message>
        <source>Next step (Page Down, Right, Down, Space)</source>
        <translation>下一步骤（Page Down、Right、Down、Space）</translation>
    </message>
    <message>
        <source>Back to the first step (Home)</source>
        <translation>回到第一个步骤（Home）</translation>
    </message>
    <message>
        <source>Leave the lesson (Esc); P toggles the big pointer</source>
        <translation>退出课程（Esc）；按 P 切换大指针</translation>
    </message>
    <message>
        <source>Previous step</source>
        <translation>上一步骤</translation>
    </message>
    <message>
        <source>Next step</source>
        <translation>下一步骤</translation>
    </message>
    <message>
        <source>Restart the lesson</source>
        <translation>从头开始课程</translation>
    </message>
    <message>
        <source>Leave the lesson</source>
        <translation>退出课程</translation>
    </message>
    <message>
        <source>Step %1/%2</source>
        <translation>第 %1/%2 步</translation>
    </message>
    <message>
        <source>Question: %1</source>
        <translation>问题：%1</translation>
    </message>
    <message>
        <source>Answer: %1</source>
        <translation>答案：%1</translation>
    </message>
</context>
<context>
    <name>lse::gui::LessonController</name>
    <message>
        <source>step %1 is out of range: the lesson has steps 1 to %2</source>
        <translation>步骤 %1 超出范围：本课程的步骤为 1 到 %2</translation>
    </message>
    <message>
        <source>steps[%1]: %2</source>
        <translation>steps[%1]: %2</translation>
    </message>
</context>
<context>
    <name>lse::gui::LessonHandout</name>
    <message>
        <source>Step %1/%2</source>
        <translation>第 %1/%2 步</translation>
    </message>
    <message>
        <source>Question: %1</source>
        <translation>问题：%1</translation>
    </message>
    <message>
        <source>Answer: %1</source>
        <translation>答案：%1</translation>
    </message>
    <message>
        <source>Cannot write &quot;%1&quot;: the lesson has no steps.</source>
        <translation>无法写入“%1”：课程没有步骤。</translation>
    </message>
    <message>
        <source>Writing &quot;%1&quot; was cancelled; nothing was written.</source>
        <translation>写入“%1”已取消；未写入任何内容。</translation>
    </message>
    <message>
        <source>Cannot write &quot;%1&quot;: %2</source>
        <translation>无法写入“%1”：%2</translation>
    </message>
    <message>
        <source>Cannot write slides to &quot;%1&quot;: the lesson has no steps.</source>
        <translation>无法将幻灯片写入“%1”：课程没有步骤。</translation>
    </message>
    <message>
        <source>Cannot write slides named after the lesson id &quot;%1&quot;: it must be a plain file name.</source>
        <translation>无法以课程 id“%1”命名幻灯片：它必须是一个普通文件名。</translation>
    </message>
    <message>
        <source>Cannot write slides to &quot;%1&quot;: the folder does not exist.</source>
        <translation>无法将幻灯片写入“%1”：文件夹不存在。</translation>
    </message>
    <message>
        <source>Writing slides to &quot;%1&quot; was cancelled; nothing was written.</source>
        <translation>将幻灯片写入“%1”已取消；未写入任何内容。</translation>
    </message>
    <message>
        <source>Cannot write slides to &quot;%1&quot;: %2</source>
        <translation>无法将幻灯片写入“%1”：%2</translation>
    </message>
</context>
<context>
    <name>lse::gui::LessonRecorder</name>
    <message>
        <source>Cannot save the lesson to &quot;%1&quot;:
%2</source>
        <translation>无法将课程保存到“%1”：
%2</translation>
    </message>
    <message>
        <source>Cannot open the lesson &quot;%1&quot;:
%2</source>
        <translation>无法打开课程“%1”：
%2</translation>
    </message>
</context>
<context>
    <name>lse::gui::LessonRecorderDialog</name>
    <message>
        <source>Record a lesson</source>
        <translation>录制课程</translation>
    </message>
    <message>
        <source>The lesson&apos;s name for --lesson: lower-case letters, digits and &apos;-&apos;.</source>
        <translation>课程在 --lesson 中使用的名称：小写字母、数字和“-”。</translation>
    </message>
    <message>
        <source>The lesson&apos;s title in English (required).</source>
        <translation>课程的英文标题（必填）。</translation>
    </message>
    <message>
        <source>The lesson&apos;s title in Simplified Chinese (optional).</source>
        <translation>课程的简体中文标题（可选）。</translation>
    </message>
    <message>
        <source>Which lecture of the course the lesson follows.</source>
        <translation>该课程对应课堂上的哪一讲。</translation>
    </message>
    <message>
        <source>The recorded steps: page, number of scenario changes, first words of the text.</source>
        <translation>已录制的步骤：页面、场景更改次数、文本开头几个词。</translation>
    </message>
    <message>
        <source>Record step</source>
        <translation>录制步骤</translation>
    </message>
    <message>
        <source>Add the page shown now, its settings and the scenario&apos;s changes since the last step, with a text you write.</source>
        <translation>添加当前显示的页面、其设置以及自上一步骤以来的场景更改，并附上你撰写的文本。</translation>
    </message>
    <message>
        <source>Edit step…</source>
        <translation>编辑步骤…</translation>
    </message>
    <message>
        <source>Change the selected step&apos;s text, question and highlight.</source>
        <translation>修改所选步骤的文本、问题和高亮。</translation>
    </message>
    <message>
        <source>Move up</source>
        <translation>上移</translation>
    </message>
    <message>
        <source>Show the selected step one step earlier.</source>
        <translation>将所选步骤提前一步显示。</translation>
    </message>
    <message>
        <source>Move down</source>
        <translation>下移</translation>
    </message>
    <message>
        <source>Show the selected step one step later.</source>
        <translation>将所选步骤推后一步显示。</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Remove the selected step (Delete key).</source>
        <translation>删除所选步骤（Delete 键）。</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <source>Write the lesson file.</source>
        <translation>写入课程文件。</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>打开…</translation>
    </message>
    <message>
        <source>Continue a lesson from its file.</source>
        <translation>从文件继续编辑课程。</translation>
    </message>
    <message>
        <source>Export PDF…</source>
        <translation>导出 PDF…</translation>
    </message>
    <message>
        <source>A handout with one page per step: the page, the text, the question and its answer.</source>
        <translation>讲义，每个步骤一页：页面、文本、问题及其答案。</translation>
    </message>
    <message>
        <source>Export slides…</source>
        <translation>导出幻灯片…</translation>
    </message>
    <message>
        <source>One PNG per step in a folder, for slides.</source>
        <translation>每个步骤一张 PNG，保存到文件夹中，用于幻灯片。</translation>
    </message>
    <message>
        <source>Id:</source>
        <translation>Id：</translation>
    </message>
    <message>
        <source>Title (English):</source>
        <translation>标题（英文）：</translation>
    </message>
    <message>
        <source>Title (Chinese):</source>
        <translation>标题（中文）：</translation>
    </message>
    <message>
        <source>Lecture:</source>
        <translation>讲次：</translation>
    </message>
    <message>
        <source>Recorded step %1 on page %2.</source>
        <translation>已在页面 %2 上录制步骤 %1。</translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation>已保存 %1。</translation>
    </message>
    <message>
        <source>Opened %1.</source>
        <translation>已打开 %1。</translation>
    </message>
    <message>
        <source>Save lesson</source>
        <translation>保存课程</translation>
    </message>
    <message>
        <source>Lesson files (*.json)</source>
        <translation>课程文件 (*.json)</translation>
    </message>
    <message>
        <source>Open lesson</source>
        <translation>打开课程</translation>
    </message>
    <message>
        <source>Cannot show step %1 for the handout.</source>
        <translation>无法为讲义显示步骤 %1。</translation>
    </message>
    <message>
        <source>Wrote %1.</source>
        <translation>已写入 %1。</translation>
    </message>
    <message numerus="yes">
        <source>Wrote %n slide(s) to %1.</source>
        <translation>
            <numerusform>已将 %n 张幻灯片写入 %1。</numerusform>
        </translation>
    </message>
    <message>
        <source>Export handout</source>
        <translation>导出讲义</translation>
    </message>
    <message>
        <source>PDF files (*.pdf)</source>
        <translation>PDF 文件 (*.pdf)</translation>
    </message>
    <message>
        <source>Writing the handout…</source>
        <translation>正在写入讲义…</translation>
    </message>
    <message>
        <source>Export slides to</source>
        <translation>导出幻灯片到</translation>
    </message>
    <message>
        <source>Writing the slides…</source>
        <translation>正在写入幻灯片…</translation>
    </message>
    <message>
        <source>%1. %2 · %3 · %4</source>
        <translation>%1. %2 · %3 · %4</translation>
    </message>
    <message numerus="yes">
        <source>%n change(s)</source>
        <translation>
            <numerusform>%n 处更改</numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing to record: no page is shown, or the scenario is not valid (fix it first).</source>
        <translation>无可录制的内容：没有显示页面，或场景无效（请先修正）。</translation>
    </message>
</context>
<context>
    <name>lse::gui::LessonRecorderStepEditor</name>
    <message>
        <source>Record step on page %1</source>
        <translation>在页面 %1 上录制步骤</translation>
    </message>
    <message>
        <source>2–5 sentences in English (required). Cite engine figures as {time.days}.</source>
        <translation>2–5 句英文（必填）。引用引擎数值时写作 {time.days}。</translation>
    </message>
    <message>
        <source>The same text in Simplified Chinese (optional; English is shown where missing).</source>
        <translation>相同内容的简体中文文本（可选；缺失时显示英文）。</translation>
    </message>
    <message>
        <source>An optional question; the next key reveals its answer.</source>
        <translation>可选的问题；按下一个键显示答案。</translation>
    </message>
    <message>
        <source>The answer, hidden until revealed (required with a question).</source>
        <translation>答案，显示前隐藏（有问题时必填）。</translation>
    </message>
    <message>
        <source>What the step points at on the page.</source>
        <translation>该步骤在页面上指向的内容。</translation>
    </message>
    <message>
        <source>Nothing</source>
        <translation>无</translation>
    </message>
    <message>
        <source>The targets this page offers for the chosen kind.</source>
        <translation>此页面为所选类型提供的目标。</translation>
    </message>
    <message>
        <source>Text (English):</source>
        <translation>文本（英文）：</translation>
    </message>
    <message>
        <source>Text (Chinese):</source>
        <translation>文本（中文）：</translation>
    </message>
    <message>
        <source>Question (English):</source>
        <translation>问题（英文）：</translation>
    </message>
    <message>
        <source>Question (Chinese):</source>
        <translation>问题（中文）：</translation>
    </message>
    <message>
        <source>Answer (English):</source>
        <translation>答案（英文）：</translation>
    </message>
    <message>
        <source>Answer (Chinese):</source>
        <translation>答案（中文）：</translation>
    </message>
    <message>
        <source>Highlight:</source>
        <translation>高亮：</translation>
    </message>
    <message>
        <source>Target:</source>
        <translation>目标：</translation>
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
    <message>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Actual Size</source>
        <translation>实际大小(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Go</source>
        <translation>转到(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Previous Page</source>
        <translation>上一页(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Next Page</source>
        <translation>下一页(&amp;N)</translation>
    </message>
    <message>
        <source>Exporting pages…</source>
        <translation>正在导出页面…</translation>
    </message>
    <message>
        <source>Export All Pages</source>
        <translation>导出所有页面</translation>
    </message>
    <message>
        <source>Exporting page %1 of %2: %3</source>
        <translation>正在导出第 %1 页，共 %2 页：%3</translation>
    </message>
    <message numerus="yes">
        <source>Export cancelled; %n page(s) written to %1</source>
        <translation>
            <numerusform>导出已取消；已将 %n 个页面写入 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Lessons</source>
        <translation>课程(&amp;L)</translation>
    </message>
    <message>
        <source>Cannot start the lesson</source>
        <translation>无法开始课程</translation>
    </message>
    <message>
        <source>&amp;Open Lesson File…</source>
        <translation>打开课程文件(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Leave Lesson</source>
        <translation>退出课程(&amp;L)</translation>
    </message>
    <message>
        <source>Export &amp;Handout…</source>
        <translation>导出讲义(&amp;H)…</translation>
    </message>
    <message>
        <source>A PDF of the running lesson: one page per step with the page, its text, question and answer</source>
        <translation>当前课程的 PDF：每个步骤一页，包含页面、说明文字、问题和答案</translation>
    </message>
    <message>
        <source>&amp;Record Steps…</source>
        <translation>录制步骤(&amp;R)…</translation>
    </message>
    <message>
        <source>Cannot show step %1 of the lesson for the handout.</source>
        <translation>无法为讲义显示课程的第 %1 步。</translation>
    </message>
    <message>
        <source>Cannot create the folder %1.</source>
        <translation>无法创建文件夹 %1。</translation>
    </message>
    <message>
        <source>No lesson</source>
        <translation>没有课程</translation>
    </message>
    <message>
        <source>Start a lesson (Lessons menu) to export its handout.</source>
        <translation>请先开始一个课程（“课程”菜单），再导出讲义。</translation>
    </message>
    <message>
        <source>Export Handout</source>
        <translation>导出讲义</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Writing the handout…</source>
        <translation>正在写入讲义…</translation>
    </message>
    <message>
        <source>Cannot export the handout</source>
        <translation>无法导出讲义</translation>
    </message>
    <message>
        <source>Scenario (lesson)</source>
        <translation>场景（课程）</translation>
    </message>
    <message>
        <source>page: &apos;%1&apos; is not a page</source>
        <translation>page：&apos;%1&apos; 不是页面</translation>
    </message>
    <message>
        <source>page_settings: %1</source>
        <translation>page_settings：%1</translation>
    </message>
    <message>
        <source>Open Lesson</source>
        <translation>打开课程</translation>
    </message>
    <message>
        <source>Lessons (*.json)</source>
        <translation>课程 (*.json)</translation>
    </message>
    <message>
        <source>Cannot open lesson %1</source>
        <translation>无法打开课程 %1</translation>
    </message>
    <message>
        <source>Cannot start lesson %1</source>
        <translation>无法开始课程 %1</translation>
    </message>
    <message>
        <source>steps[%1].page: &apos;%2&apos; is not a page of this app (see --list-pages)</source>
        <translation>steps[%1].page：“%2”不是本应用的页面（见 --list-pages）</translation>
    </message>
    <message>
        <source>Autosave failed: %1</source>
        <translation>自动保存失败：%1</translation>
    </message>
    <message numerus="yes">
        <source>Recovered %n document(s) from autosave</source>
        <translation>
            <numerusform>已从自动保存中恢复 %n 个文档</numerusform>
        </translation>
    </message>
    <message>
        <source>Save Recovered Document</source>
        <translation>保存恢复的文档</translation>
    </message>
    <message>
        <source>This document was recovered from an autosave. Replace %1 with it?</source>
        <translation>此文档是从自动保存中恢复的。是否用它替换 %1？</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Open &amp;Trace…</source>
        <translation>打开性能追踪(&amp;T)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+O</source>
        <translation>Ctrl+Shift+O</translation>
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
        <source>sbh(34 + 5as/h) per layer: the s×s scores, softmax and dropout mask are stored</source>
        <translation>每层 sbh(34 + 5as/h)：保存 s×s 分数、softmax 和 dropout 掩码</translation>
    </message>
    <message>
        <source>34·sbh per layer (÷ t with TP+SP): the attention core is recomputed</source>
        <translation>每层 34·sbh（TP+SP 时 ÷ t）：重计算注意力核心</translation>
    </message>
    <message>
        <source>2sbh per layer (its input) + one layer&apos;s activations while it is recomputed</source>
        <translation>每层 2sbh（该层输入）+ 重计算时一层的激活</translation>
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
        <source>Korthikanti et al. 2022, Table 2 and §4.2.3; Dao et al. 2022 (FlashAttention)</source>
        <translation>Korthikanti et al. 2022, Table 2 and §4.2.3; Dao et al. 2022 (FlashAttention)</translation>
    </message>
    <message>
        <source>No recomputation, FlashAttention on</source>
        <translation>不重计算，FlashAttention 开启</translation>
    </message>
    <message>
        <source>No recomputation, FlashAttention off</source>
        <translation>不重计算，FlashAttention 关闭</translation>
    </message>
    <message>
        <source>Selective recomputation, FlashAttention on</source>
        <translation>选择性重计算，FlashAttention 开启</translation>
    </message>
    <message>
        <source>Selective recomputation, FlashAttention off</source>
        <translation>选择性重计算，FlashAttention 关闭</translation>
    </message>
    <message>
        <source>Full recomputation, FlashAttention on</source>
        <translation>完全重计算，FlashAttention 开启</translation>
    </message>
    <message>
        <source>Full recomputation, FlashAttention off</source>
        <translation>完全重计算，FlashAttention 关闭</translation>
    </message>
    <message>
        <source>2 (K and V) · %1 layers (the most loaded of p = %2 stages) · ⌈%3 KV heads / t = %4⌉ · %5 head dim · %6 B · b = %7 · s = %8 (Kwon et al. 2023, vLLM §3)</source>
        <translation>2（K 和 V）· %1 层（p = %2 个流水线级中负载最重的一级）· ⌈%3 个 KV 头 / t = %4⌉ · %5 头维度 · %6 B · b = %7 · s = %8（Kwon et al. 2023, vLLM §3）</translation>
    </message>
    <message>
        <source>per layer: none sbh(34 + 5as/h) · selective 34·sbh · full 2sbh (÷ t with tensor + sequence parallelism), × the stage&apos;s layers (L/p when p divides L) × in-flight micro-batches; GQA, gated MLPs and MoE change the 34</source>
        <translation>每层：不重计算 sbh(34 + 5as/h) · 选择性重计算 34·sbh · 完全重计算 2sbh（使用张量并行 + 序列并行时 ÷ t），× 该级层数（p 整除 L 时为 L/p）× 同时在途的微批数；GQA、门控 MLP 和 MoE 会改变系数 34</translation>
    </message>
    <message>
        <source>ZeRO-0 (2+2+K)Ψ · ZeRO-1 4Ψ + KΨ/N_d · ZeRO-2 2Ψ + (2+K)Ψ/N_d · ZeRO-3 (4+K)Ψ/N_d; activations per layer as in Korthikanti Table 2; inference: weights/t + KV cache 2·L_s·(n_kv/t)·d_head·bytes·b·s, L_s the layers of the most loaded pipeline stage (L/p when p divides L); every bar + framework reserve R = %1 (CUDA context, NCCL buffers, allocator fragmentation)</source>
        <translation>ZeRO-0 (2+2+K)Ψ · ZeRO-1 4Ψ + KΨ/N_d · ZeRO-2 2Ψ + (2+K)Ψ/N_d · ZeRO-3 (4+K)Ψ/N_d；每层激活按 Korthikanti Table 2 计算；推理：权重/t + KV 缓存 2·L_s·(n_kv/t)·d_head·bytes·b·s，其中 L_s 为负载最重的流水线级的层数（p 整除 L 时为 L/p）；每根柱另加框架预留 R = %1（CUDA 上下文、NCCL 缓冲区、分配器碎片）</translation>
    </message>
    <message>
        <source>Rajbhandari et al. 2019 (ZeRO), §3.1 and §5; Korthikanti et al. 2022, Table 2 and §4.2.3; Kwon et al. 2023 (vLLM), §3; R: %1</source>
        <translation>Rajbhandari et al. 2019 (ZeRO), §3.1 and §5; Korthikanti et al. 2022, Table 2 and §4.2.3; Kwon et al. 2023 (vLLM), §3；R：%1</translation>
    </message>
</context>
<context>
    <name>lse::gui::MeshGridChart</name>
    <message>
        <source>%1 group %2</source>
        <translation>%1 组 %2</translation>
    </message>
    <message>
        <source>, … (%1 GPUs)</source>
        <translation>，…（%1 块 GPU）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rank %1&lt;/b&gt;: node %2, GPU %3 of the node</source>
        <translation>&lt;b&gt;Rank %1&lt;/b&gt;：节点 %2，该节点上的 GPU %3</translation>
    </message>
    <message>
        <source>Coordinates: %1</source>
        <translation>坐标：%1</translation>
    </message>
    <message numerus="yes">
        <source>%1 group: %2 (on %n node(s))</source>
        <translation>
            <numerusform>%1 组：%2（分布在 %n 个节点上）</numerusform>
        </translation>
    </message>
    <message>
        <source> (first %1 of %2 nodes shown)</source>
        <translation>（显示 %2 个节点中的前 %1 个）</translation>
    </message>
    <message>
        <source>; %1 %2 groups, colours repeat</source>
        <translation>；%1 个 %2 组，颜色会重复</translation>
    </message>
    <message>
        <source>GPU within the node</source>
        <translation>节点内的 GPU</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>node %1</source>
        <translation>节点 %1</translation>
    </message>
    <message>
        <source>Hovered: rank %1</source>
        <translation>悬停：rank %1</translation>
    </message>
    <message>
        <source>Rank %1&apos;s %2 group</source>
        <translation>rank %1 的 %2 组</translation>
    </message>
    <message>
        <source>Hovered GPU</source>
        <translation>悬停的 GPU</translation>
    </message>
    <message>
        <source>Rank 0 (hover a GPU)</source>
        <translation>rank 0（鼠标悬停在 GPU 上）</translation>
    </message>
    <message>
        <source>dp = %1, tp = %2, pp = %3, cp = %4, ep = %5; %6 GPUs per node; axis order (innermost first) %7</source>
        <translation>dp = %1，tp = %2，pp = %3，cp = %4，ep = %5；每节点 %6 块 GPU；轴顺序（最内层在前）%7</translation>
    </message>
    <message>
        <source>rank = %1; node = ⌊rank / %2⌋; a group holds the ranks that differ only in its own coordinate (EP: blocks of ep consecutive dp×cp indices)</source>
        <translation>rank = %1；节点 = ⌊rank / %2⌋；一个组包含仅在该组自身坐标上不同的 rank（EP：由 ep 个连续 dp×cp 索引组成的块）</translation>
    </message>
    <message>
        <source>Megatron-LM parallel_state.py RankGenerator (order tp-cp-ep-dp-pp); Dubey et al. 2024 (Llama 3) §3.3.2</source>
        <translation>Megatron-LM parallel_state.py RankGenerator (order tp-cp-ep-dp-pp); Dubey et al. 2024 (Llama 3) §3.3.2</translation>
    </message>
    <message numerus="yes">
        <source>Device mesh: %1 GPUs on %Ln node(s) of %2, coloured by %3 group</source>
        <translation>
            <numerusform>设备网格：%1 块 GPU，%Ln 个节点，每节点 %2 块，按 %3 组着色</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::MixedPrecisionSection</name>
    <message>
        <source>Weights (working copy)</source>
        <translation>权重（工作副本）</translation>
    </message>
    <message>
        <source>Matmul operands</source>
        <translation>矩阵乘法操作数</translation>
    </message>
    <message>
        <source>Master weights</source>
        <translation>主权重</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Gradient accumulator</source>
        <translation>梯度累加器</translation>
    </message>
    <message>
        <source>Momentum</source>
        <translation>动量</translation>
    </message>
    <message>
        <source>First moment m</source>
        <translation>一阶矩 m</translation>
    </message>
    <message>
        <source>Factored second moment</source>
        <translation>分解的二阶矩</translation>
    </message>
    <message>
        <source>Second moment v</source>
        <translation>二阶矩 v</translation>
    </message>
    <message>
        <source>Saved activations</source>
        <translation>保存的激活</translation>
    </message>
    <message>
        <source>Loss scale</source>
        <translation>损失缩放因子</translation>
    </message>
    <message>
        <source>Per-tensor scales (FP8)</source>
        <translation>逐张量缩放因子（FP8）</translation>
    </message>
    <message>
        <source>bytes per parameter = bytes of weight_dtype (memory engine, modelStateBytes)</source>
        <translation>每参数字节数 = weight_dtype 的字节数（显存引擎，modelStateBytes）</translation>
    </message>
    <message>
        <source>matmul_dtype selects the tensor-core peak; the cast is transient, not model state</source>
        <translation>matmul_dtype 决定所用的 Tensor Core 峰值；该类型转换是临时的，不属于模型状态</translation>
    </message>
    <message>
        <source>4 bytes per parameter when master_weights is on: the optimizer updates an fp32 copy so small updates are not lost to 16-bit rounding</source>
        <translation>启用 master_weights 时每参数 4 字节：优化器更新一份 fp32 副本，使微小的更新不会因 16 位舍入而丢失</translation>
    </message>
    <message>
        <source>bytes per parameter = bytes of gradient_dtype</source>
        <translation>每参数字节数 = gradient_dtype 的字节数</translation>
    </message>
    <message>
        <source>4 more bytes per parameter when fp32_gradient_accumulation is on</source>
        <translation>启用 fp32_gradient_accumulation 时每参数再加 4 字节</translation>
    </message>
    <message>
        <source>optimizer states per parameter (optimizerStateBytesPerParameter): Adam 4 + 4, momentum 4, 8-bit Adam 1 + 1 plus block scales</source>
        <translation>每参数的优化器状态（optimizerStateBytesPerParameter）：Adam 4 + 4，动量 4，8-bit Adam 1 + 1 外加分块缩放因子</translation>
    </message>
    <message>
        <source>activation_dtype: bytes per saved element, counted per token on the Memory page</source>
        <translation>activation_dtype：每个保存元素的字节数，在显存页面按每 token 计算</translation>
    </message>
    <message>
        <source>one fp32 scalar: the loss is multiplied by it before backward and the gradients divided by it before the update</source>
        <translation>一个 fp32 标量：反向传播前损失乘以它，更新前梯度再除以它</translation>
    </message>
    <message>
        <source>one fp32 scale (from the amax history) per FP8 tensor</source>
        <translation>每个 FP8 张量一个 fp32 缩放因子（由 amax 历史得出）</translation>
    </message>
    <message>
        <source>Micikevicius et al. 2018, Mixed Precision Training, §3.1–3.2</source>
        <translation>Micikevicius et al. 2018, Mixed Precision Training, §3.1–3.2</translation>
    </message>
    <message>
        <source>Micikevicius et al. 2022, FP8 Formats for Deep Learning; NVIDIA Transformer Engine</source>
        <translation>Micikevicius et al. 2022, FP8 Formats for Deep Learning; NVIDIA Transformer Engine</translation>
    </message>
    <message>
        <source>cost-model-notes.md: the 20 bytes per parameter convention</source>
        <translation>cost-model-notes.md：每参数 20 字节的约定</translation>
    </message>
    <message>
        <source>Korthikanti et al. 2022, Table 2</source>
        <translation>Korthikanti et al. 2022, Table 2</translation>
    </message>
    <message>
        <source>Rajbhandari et al. 2020, ZeRO §3: 2 + 2 + 12 = 16 bytes per parameter for mixed-precision Adam</source>
        <translation>Rajbhandari et al. 2020, ZeRO §3：混合精度 Adam 每参数 2 + 2 + 12 = 16 字节</translation>
    </message>
    <message>
        <source>Mixed precision</source>
        <translation>混合精度</translation>
    </message>
    <message>
        <source>Which tensor of a training run lives in which number format, and what each costs per parameter. Matmuls run in a narrow format for tensor-core speed, while the optimizer keeps an FP32 master copy and FP32 moments so that small updates are not rounded away (Micikevicius et al. 2018). FP16 needs a loss scale to keep small gradients from flushing to zero; BF16 has FP32&apos;s exponent range and does not; FP8 needs a scale per tensor (Micikevicius et al. 2022). The bytes are the memory engine&apos;s own, for the scenario&apos;s optimizer, so this tab and the Memory page cannot disagree.</source>
        <translation>训练中的每个张量采用哪种数值格式，以及各自每参数的开销。矩阵乘法使用窄格式以获得 Tensor Core 速度，而优化器保留 FP32 主副本和 FP32 矩，使微小的更新不会被舍入掉（Micikevicius et al. 2018）。FP16 需要损失缩放，以防小梯度被冲刷为零；BF16 具有与 FP32 相同的指数范围，因此不需要；FP8 需要逐张量缩放因子（Micikevicius et al. 2022）。字节数直接取自显存引擎，并按场景的优化器计算，因此本标签页与显存页面不会出现矛盾。</translation>
    </message>
    <message>
        <source>Use this recipe</source>
        <translation>使用此方案</translation>
    </message>
    <message>
        <source>Set the scenario&apos;s precision to this recipe&apos;s defaults, as the editor&apos;s recipe field does (one undo step)</source>
        <translation>将场景的精度设置为此方案的默认值，与编辑器中的方案字段效果相同（一次撤销步骤）</translation>
    </message>
    <message>
        <source>Precision recipe: %1</source>
        <translation>精度方案：%1</translation>
    </message>
    <message>
        <source>This scenario&apos;s settings</source>
        <translation>此场景的设置</translation>
    </message>
    <message>
        <source>%1: %2 bytes per parameter</source>
        <translation>%1：每参数 %2 字节</translation>
    </message>
    <message>
        <source> → %1 for %2 parameters</source>
        <translation> → %2 个参数共 %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;This scenario&lt;/b&gt;: %1 parameters, optimizer %2, recipe field %3. Model state &lt;b&gt;%4 bytes per parameter&lt;/b&gt; = &lt;b&gt;%5&lt;/b&gt; for all parameters on one GPU, before the Memory page divides it over the parallel layout and ZeRO.</source>
        <translation>&lt;b&gt;此场景&lt;/b&gt;：%1 个参数，优化器 %2，方案字段 %3。模型状态&lt;b&gt;每参数 %4 字节&lt;/b&gt;，全部参数在单个 GPU 上共 &lt;b&gt;%5&lt;/b&gt;；这是显存页面按并行布局和 ZeRO 进行划分之前的数值。</translation>
    </message>
    <message>
        <source> Adafactor&apos;s factored statistics depend on the tensor shapes, not on the parameter count: the Memory page adds them; they are not in the per-parameter figures here.</source>
        <translation> Adafactor 的分解统计量取决于张量形状，而非参数数量：显存页面会将其计入；此处的每参数数值不包含它们。</translation>
    </message>
    <message>
        <source>Tensor</source>
        <translation>张量</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>Bytes per element</source>
        <translation>每元素字节数</translation>
    </message>
    <message>
        <source>Bytes per parameter</source>
        <translation>每参数字节数</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source>Model state per parameter by tensor</source>
        <translation>按张量划分的每参数模型状态</translation>
    </message>
    <message>
        <source>This scenario</source>
        <translation>此场景</translation>
    </message>
    <message>
        <source>optimizer %1; the scenario&apos;s precision fields for the last bar</source>
        <translation>优化器 %1；最后一栏使用场景的精度字段</translation>
    </message>
    <message>
        <source>bytes per parameter = weight_dtype + gradient_dtype (+4 fp32 accumulation) + 4 master (if kept) + optimizer states (memory engine, modelStateBytes)</source>
        <translation>每参数字节数 = weight_dtype + gradient_dtype（+4 fp32 累加）+ 4 主权重（若保留）+ 优化器状态（显存引擎，modelStateBytes）</translation>
    </message>
    <message>
        <source>Rajbhandari et al. 2020 (ZeRO §3); Micikevicius et al. 2018; Micikevicius et al. 2022</source>
        <translation>Rajbhandari et al. 2020 (ZeRO §3); Micikevicius et al. 2018; Micikevicius et al. 2022</translation>
    </message>
    <message>
        <source>%1 bytes per parameter</source>
        <translation>每参数 %1 字节</translation>
    </message>
    <message>
        <source>%1 B</source>
        <translation>%1 B</translation>
    </message>
</context>
<context>
    <name>lse::gui::NormTimingPanel</name>
    <message>
        <source>%1 backward</source>
        <translation>%1 反向</translation>
    </message>
    <message>
        <source>%1 forward</source>
        <translation>%1 前向</translation>
    </message>
    <message>
        <source>Timing LayerNorm and RMSNorm on this CPU…</source>
        <translation>正在此 CPU 上测量 LayerNorm 和 RMSNorm 的耗时…</translation>
    </message>
    <message>
        <source>Cancelled; the table keeps the last finished measurement.</source>
        <translation>已取消；表格保留上一次完成的测量结果。</translation>
    </message>
    <message>
        <source>Measure</source>
        <translation>测量</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Input (N, D) = (%1, %2), fp32, %3 timed calls per kernel</source>
        <translation>输入 (N, D) = (%1, %2)，fp32，每个内核计时调用 %3 次</translation>
    </message>
    <message>
        <source> — N reduced from the scenario&apos;s micro-batch · sequence so that N·D ≤ %1 elements (16 MiB per tensor, beyond the caches)</source>
        <translation> — N 已从场景的微批 · 序列长度缩减，使 N·D ≤ %1 个元素（每个张量 16 MiB，超出缓存容量）</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Median (ms)</source>
        <translation>中位数（ms）</translation>
    </message>
    <message>
        <source>GB/s</source>
        <translation>GB/s</translation>
    </message>
    <message>
        <source>GFLOP/s</source>
        <translation>GFLOP/s</translation>
    </message>
    <message>
        <source>FLOPs (op list)</source>
        <translation>FLOPs（算子列表）</translation>
    </message>
    <message>
        <source>Bytes (op list)</source>
        <translation>字节数（算子列表）</translation>
    </message>
    <message>
        <source>FLOPs per byte</source>
        <translation>每字节 FLOPs</translation>
    </message>
    <message>
        <source>FLOP</source>
        <translation>FLOP</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>N = %1 rows, D = %2, fp32</source>
        <translation>N = %1 行，D = %2，fp32</translation>
    </message>
    <message>
        <source>Kernels: core/reference/ops/norms.h; bytes: core/ops/operator_list.cpp (roofline backward bytes); Zhang &amp; Sennrich 2019</source>
        <translation>内核：core/reference/ops/norms.h；字节数：core/ops/operator_list.cpp（屋顶线反向字节数）；Zhang &amp; Sennrich 2019</translation>
    </message>
    <message>
        <source>LayerNorm vs RMSNorm on this CPU: achieved bandwidth</source>
        <translation>此 CPU 上的 LayerNorm 与 RMSNorm：实测带宽</translation>
    </message>
    <message>
        <source>Achieved bandwidth (GB/s)</source>
        <translation>实测带宽（GB/s）</translation>
    </message>
    <message>
        <source>GB/s = (bytes read + written of the pass, operator list) / median time</source>
        <translation>GB/s =（该遍历读取 + 写入的字节数，来自算子列表）/ 中位时间</translation>
    </message>
    <message>
        <source>LayerNorm vs RMSNorm: bytes per pass (operator list); press Measure for the times</source>
        <translation>LayerNorm 与 RMSNorm：每次遍历的字节数（算子列表）；点击“测量”获取耗时</translation>
    </message>
    <message>
        <source>Bytes read + written per pass (MB)</source>
        <translation>每次遍历读取 + 写入的字节数（MB）</translation>
    </message>
    <message>
        <source>forward: read x and the parameters, write y; backward: read y, dy and x, write dx (LayerNorm 7, RMSNorm 4 FLOPs per element forward)</source>
        <translation>前向：读取 x 和参数，写入 y；反向：读取 y、dy 和 x，写入 dx（前向每元素 FLOPs：LayerNorm 7 次，RMSNorm 4 次）</translation>
    </message>
    <message>
        <source>%1: %2 ms, %3 GB/s, %4, %5</source>
        <translation>%1：%2 ms，%3 GB/s，%4，%5</translation>
    </message>
    <message>
        <source>%1: %2, %3</source>
        <translation>%1：%2，%3</translation>
    </message>
    <message>
        <source>Measured on this CPU with the reference transformer&apos;s norm kernels (fp32, all threads): median of the timed calls after one warm-up call, next to the FLOPs and bytes the operator list declares for the same pass. Both norms move the same bytes at under one or two FLOPs per byte, far left of any GPU&apos;s ridge point: there they run at memory bandwidth, and the time goes to moving data. A CPU kernel that reads each row twice (LayerNorm&apos;s mean, then its variance) can show more of a difference than the bytes alone.</source>
        <translation>在本机 CPU 上用参考 Transformer 的归一化内核测量（fp32，全部线程）：一次预热调用后各次计时调用的中位数，旁边是算子列表为同一遍计算声明的 FLOPs 和字节数。两种归一化搬运的字节相同，每字节不到一到两次 FLOPs，远在任何 GPU 的拐点左侧：在 GPU 上它们以显存带宽运行，时间花在搬运数据上。把每一行读两遍的 CPU 内核（LayerNorm 先求均值、再求方差）可能显出比字节数本身更大的差别。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Data movement:&lt;/b&gt; in one layer of the scenario the norms are &lt;b&gt;%1&lt;/b&gt; of the FLOPs but &lt;b&gt;%2&lt;/b&gt; of the bytes moved and &lt;b&gt;%3&lt;/b&gt; of the time at each operator&apos;s roofline bound on %4 (Ivanov et al. 2021, &quot;Data Movement Is All You Need&quot;, Table 1: 0.17% of a BERT layer&apos;s FLOPs, 25% of its runtime).</source>
        <translation>&lt;b&gt;数据搬运：&lt;/b&gt;在场景的一层中，归一化只占 FLOPs 的 &lt;b&gt;%1&lt;/b&gt;，却占搬运字节的 &lt;b&gt;%2&lt;/b&gt;，并按每个算子的 Roofline 上界计占 %4 上时间的 &lt;b&gt;%3&lt;/b&gt;（Ivanov et al. 2021, &quot;Data Movement Is All You Need&quot;, Table 1：BERT 一层中归一化占 FLOPs 的 0.17%，运行时间的 25%）。</translation>
    </message>
</context>
<context>
    <name>lse::gui::NumberFormatsSection</name>
    <message>
        <source>Formats</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>Every format is a sign, an exponent that sets the range and a mantissa that sets the precision. BF16 keeps FP32&apos;s 8 exponent bits (same range, 3 significant digits); FP16 spends bits on the mantissa instead (more precision, but nothing above 65,504 and nothing below 6·10⁻⁸), which is why FP16 training needs loss scaling. Every figure below is computed from the formats&apos; definitions.</source>
        <translation>每种格式都由符号位、决定范围的指数和决定精度的尾数组成。BF16 保留了 FP32 的 8 位指数（范围相同，约 3 位有效数字）；FP16 则把位数花在尾数上（精度更高，但无法表示大于 65,504 或小于 6·10⁻⁸ 的数），因此 FP16 训练需要损失缩放。下面所有数值均由各格式的定义计算得出。</translation>
    </message>
    <message>
        <source>&amp;Value:</source>
        <translation>数值(&amp;V)：</translation>
    </message>
    <message>
        <source>A decimal number (0.1, -3.5e-6, 464, 1.5K); it is rounded to every format to nearest, ties to even, and overflow is decided after rounding (IEEE 754-2019 §4.3.1, §7.4).</source>
        <translation>一个十进制数（0.1、-3.5e-6、464、1.5K）；它会按“就近舍入，平局取偶”舍入到每种格式，并在舍入之后判断是否上溢（IEEE 754-2019 §4.3.1、§7.4）。</translation>
    </message>
    <message>
        <source>Saturating E4M3</source>
        <translation>饱和 E4M3</translation>
    </message>
    <message>
        <source>OCP OFP8 v1.0 offers two conversions to E4M3, which has no infinity: the non-saturating one turns an overflow into NaN (480 → NaN), the saturating one clamps it to ±448.</source>
        <translation>OCP OFP8 v1.0 为没有无穷大的 E4M3 提供两种转换：非饱和转换将上溢变为 NaN（480 → NaN），饱和转换将其钳制到 ±448。</translation>
    </message>
    <message>
        <source>IEEE 754-2019 §3.3; OCP OFP8 v1.0 for FP8</source>
        <translation>IEEE 754-2019 §3.3; OCP OFP8 v1.0 for FP8</translation>
    </message>
    <message>
        <source>Format (1 + e + m)</source>
        <translation>格式（1 + e + m）</translation>
    </message>
    <message>
        <source>Layout</source>
        <translation>位布局</translation>
    </message>
    <message>
        <source>e exponent bits, m mantissa (fraction) bits</source>
        <translation>e 个指数位，m 个尾数（小数）位</translation>
    </message>
    <message>
        <source>bits = 1 + e + m</source>
        <translation>bits = 1 + e + m</translation>
    </message>
    <message>
        <source>Bias</source>
        <translation>偏置</translation>
    </message>
    <message>
        <source>Exponent bias</source>
        <translation>指数偏置</translation>
    </message>
    <message>
        <source>bias = 2^(e−1) − 1</source>
        <translation>bias = 2^(e−1) − 1</translation>
    </message>
    <message>
        <source>Largest finite</source>
        <translation>最大有限值</translation>
    </message>
    <message>
        <source>Largest finite value</source>
        <translation>最大有限值</translation>
    </message>
    <message>
        <source>emax = 2^e − 2 − bias (IEEE: the all-ones exponent is inf/NaN)</source>
        <translation>emax = 2^e − 2 − bias（IEEE：全 1 指数表示 inf/NaN）</translation>
    </message>
    <message>
        <source>max = (2 − 2^−m) · 2^emax; E4M3: only S.1111.111 is NaN, so emax = 2^e − 1 − bias and max = (2 − 2^(1−m)) · 2^emax = 448; INT8: 2^7 − 1</source>
        <translation>max = (2 − 2^−m) · 2^emax；E4M3：只有 S.1111.111 是 NaN，因此 emax = 2^e − 1 − bias，max = (2 − 2^(1−m)) · 2^emax = 448；INT8：2^7 − 1</translation>
    </message>
    <message>
        <source>Smallest normal</source>
        <translation>最小正规数</translation>
    </message>
    <message>
        <source>Smallest normal value</source>
        <translation>最小正规数</translation>
    </message>
    <message>
        <source>min normal = 2^emin, emin = 1 − bias</source>
        <translation>min normal = 2^emin, emin = 1 − bias</translation>
    </message>
    <message>
        <source>Smallest subnormal</source>
        <translation>最小次正规数</translation>
    </message>
    <message>
        <source>Smallest subnormal value</source>
        <translation>最小次正规数</translation>
    </message>
    <message>
        <source>exponent field 0: no implicit leading 1</source>
        <translation>指数字段为 0：没有隐含的前导 1</translation>
    </message>
    <message>
        <source>min subnormal = 2^(emin − m)</source>
        <translation>min subnormal = 2^(emin − m)</translation>
    </message>
    <message>
        <source>Machine epsilon</source>
        <translation>机器精度 ε</translation>
    </message>
    <message>
        <source>the gap between 1 and the next larger value</source>
        <translation>1 与下一个更大可表示值之间的间隔</translation>
    </message>
    <message>
        <source>ε = 2^−m</source>
        <translation>ε = 2^−m</translation>
    </message>
    <message>
        <source>Decimal digits</source>
        <translation>十进制位数</translation>
    </message>
    <message>
        <source>Significant decimal digits</source>
        <translation>有效十进制位数</translation>
    </message>
    <message>
        <source>digits = (m + 1) · log10 2</source>
        <translation>digits = (m + 1) · log10 2</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>Stored value</source>
        <translation>存储值</translation>
    </message>
    <message>
        <source>The value the format holds: round to nearest, ties to even; overflow after rounding</source>
        <translation>该格式实际保存的值：就近舍入，平局取偶；舍入后判断上溢</translation>
    </message>
    <message>
        <source>Bits</source>
        <translation>位</translation>
    </message>
    <message>
        <source>Sign, exponent and mantissa bits of the stored value</source>
        <translation>存储值的符号位、指数位和尾数位</translation>
    </message>
    <message>
        <source>Abs. error</source>
        <translation>绝对误差</translation>
    </message>
    <message>
        <source>Absolute error</source>
        <translation>绝对误差</translation>
    </message>
    <message>
        <source>|stored − x|</source>
        <translation>|stored − x|</translation>
    </message>
    <message>
        <source>Rel. error</source>
        <translation>相对误差</translation>
    </message>
    <message>
        <source>Relative error</source>
        <translation>相对误差</translation>
    </message>
    <message>
        <source>|stored − x| / |x|; at most ε/2 for a normal result</source>
        <translation>|stored − x| / |x|；正规数结果至多为 ε/2</translation>
    </message>
    <message>
        <source>Flags</source>
        <translation>标志</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>2^7 − 1 = 127 (lowest −128)</source>
        <translation>2^7 − 1 = 127（最小 −128）</translation>
    </message>
    <message>
        <source>(2 − 2^−%1) · 2^%2</source>
        <translation>(2 − 2^−%1) · 2^%2</translation>
    </message>
    <message>
        <source>Type a value to see how each format stores it.</source>
        <translation>输入一个数值，查看各格式如何存储它。</translation>
    </message>
    <message>
        <source>%1 as each format stores it:</source>
        <translation>%1 在各格式中的存储值：</translation>
    </message>
    <message>
        <source>Value: &apos;%1&apos; is not a finite decimal number (examples: 0.1, -3.5e-6, 464, 1.5K).</source>
        <translation>数值：“%1”不是有限的十进制数（示例：0.1、-3.5e-6、464、1.5K）。</translation>
    </message>
    <message>
        <source>overflow → clamped to the limit</source>
        <translation>上溢 → 钳制到上限</translation>
    </message>
    <message>
        <source>overflow → NaN (no infinity)</source>
        <translation>上溢 → NaN（无无穷大）</translation>
    </message>
    <message>
        <source>overflow → ∞</source>
        <translation>上溢 → ∞</translation>
    </message>
    <message>
        <source>underflow → 0</source>
        <translation>下溢 → 0</translation>
    </message>
    <message>
        <source>subnormal (fewer significant bits)</source>
        <translation>次正规数（有效位更少）</translation>
    </message>
    <message>
        <source>exact</source>
        <translation>精确</translation>
    </message>
</context>
<context>
    <name>lse::gui::NumbersPage</name>
    <message>
        <source>Numbers</source>
        <translation>数值</translation>
    </message>
</context>
<context>
    <name>lse::gui::OutputFile</name>
    <message>
        <source>Could not encode the image for %1.</source>
        <translation>无法为 %1 编码图像。</translation>
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
    <message>
        <source>Training it on %1 tokens takes %2, which at the scenario&apos;s assumed %3 MFU on %4 × %5 is about %6 days (%7 GPU-hours, costing %8).</source>
        <translation>用 %1 个 token 训练它需要 %2，按场景假定的 %3 MFU 在 %4 × %5 上约需 %6 天（%7 GPU 小时，花费 %8）。</translation>
    </message>
    <message>
        <source>Counting C = 6ND instead, as the course does, gives %1 at the dense peak and %2 at the sparse headline.</source>
        <translation>若像课程那样改用 C = 6ND 计算，按稠密峰值需 %1，按稀疏标称值需 %2。</translation>
    </message>
    <message>
        <source>Counting C = 6ND instead, as the course does, gives %1 at the dense peak.</source>
        <translation>若像课程那样改用 C = 6ND 计算，按稠密峰值需 %1。</translation>
    </message>
    <message>
        <source>C = %1 (%2), N_gpu = %3, peak = %4 per GPU (%5), MFU = %6 (%7)</source>
        <translation>C = %1（%2），N_gpu = %3，峰值 = 每 GPU %4（%5），MFU = %6（%7）</translation>
    </message>
    <message>
        <source>MFU predicted from the step time (operator-level kernel times + exposed communication + pipeline bubble; Validation page), as defined by PaLM (Chowdhery et al. 2022), App. B; peak: %1</source>
        <translation>MFU 由单步时间预测得出（算子级内核时间 + 暴露的通信 + 流水线气泡；见“验证”页），定义见 PaLM (Chowdhery et al. 2022), App. B；峰值：%1</translation>
    </message>
    <message>
        <source>N_gpu = %1, MFU %2 (%5), peak %3 (%4)</source>
        <translation>N_gpu = %1，MFU %2（%5），峰值 %3（%4）</translation>
    </message>
    <message>
        <source>Training it on %1 tokens takes %2, which at the predicted %3 MFU on %4 × %5 is about %6 days (%7 GPU-hours, costing %8).</source>
        <translation>在 %1 个 token 上训练它需要 %2，按预测的 %3 MFU 在 %4 × %5 上约需 %6 天（%7 GPU 小时，成本 %8）。</translation>
    </message>
    <message>
        <source>N_gpu = %1, predicted step %2, MFU %3, peak %4 (%5)</source>
        <translation>N_gpu = %1，预测步时 %2，MFU %3，峰值 %4（%5）</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>; %1</source>
        <translation>；%1</translation>
    </message>
    <message>
        <source>Step %1 s in [%2 s, %3 s]; MFU %4 in [%5, %6]</source>
        <translation>步时 %1 秒，区间 [%2 秒, %3 秒]；MFU %4，区间 [%5, %6]</translation>
    </message>
    <message>
        <source>; each ± %1</source>
        <translation>；各 ± %1</translation>
    </message>
</context>
<context>
    <name>lse::gui::Page</name>
    <message>
        <source>%1: this page has no settings a lesson can set</source>
        <translation>%1：此页面没有可由课程设置的选项</translation>
    </message>
</context>
<context>
    <name>lse::gui::PageNavigator</name>
    <message>
        <source>Cost</source>
        <translation>成本</translation>
    </message>
    <message>
        <source>Hardware</source>
        <translation>硬件</translation>
    </message>
    <message>
        <source>Parallelism</source>
        <translation>并行</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Foundations</source>
        <translation>基础</translation>
    </message>
</context>
<context>
    <name>lse::gui::PageSection</name>
    <message>
        <source>%1: this page has no settings a lesson can set</source>
        <translation>%1：此页面没有可由课程设置的选项</translation>
    </message>
</context>
<context>
    <name>lse::gui::PipelineMeasuredPanel</name>
    <message>
        <source>Load measured run…</source>
        <translation>载入实测运行…</translation>
    </message>
    <message>
        <source>The JSON of `llm-explorer-cli train --pp P --json` (or dist-train --pp): its last step&apos;s passes on every rank, drawn on the run&apos;s common clock</source>
        <translation>`llm-explorer-cli train --pp P --json`（或 dist-train --pp）输出的 JSON：最后一步中每个 rank 的各次前向和反向，按该运行的公共时钟绘制</translation>
    </message>
    <message>
        <source>Load a measured pipeline run</source>
        <translation>载入一次实测的流水线运行</translation>
    </message>
    <message>
        <source>Pipeline run JSON (*.json)</source>
        <translation>流水线运行 JSON (*.json)</translation>
    </message>
    <message>
        <source>%1: cannot be read (%2).</source>
        <translation>%1：无法读取（%2）。</translation>
    </message>
    <message>
        <source>Measured %1, p = %2, m = %3 (%4, step %5): bubble (idle ÷ step time, mean over ranks) %6 measured, %7 by (p − 1)/(m + p − 1).</source>
        <translation>实测 %1，p = %2，m = %3（%4，第 %5 步）：气泡（空闲 ÷ 步时间，各 rank 平均）实测 %6，按 (p − 1)/(m + p − 1) 为 %7。</translation>
    </message>
    <message>
        <source>No measured run loaded: run `llm-explorer-cli dist-train --np P --pp P --json &gt; run.json` and load run.json to see its Gantt chart here.</source>
        <translation>尚未载入实测运行：运行 `llm-explorer-cli dist-train --np P --pp P --json &gt; run.json`，再载入 run.json，即可在此看到它的甘特图。</translation>
    </message>
    <message>
        <source>Measured: %1, p = %2, m = %3, step %4: bubble (idle ÷ step time) %5, formula %6</source>
        <translation>实测：%1，p = %2，m = %3，第 %4 步：气泡（空闲 ÷ 步时间）%5，公式 %6</translation>
    </message>
    <message>
        <source>Time since the step&apos;s start (ms, common clock)</source>
        <translation>自该步开始的时间（毫秒，公共时钟）</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>backward (recomputes its forward)</source>
        <translation>反向（先重算其前向）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rank %1: %2 of micro-batch %3&lt;/b&gt;&lt;br&gt;from %4 to %5 ms</source>
        <translation>&lt;b&gt;Rank %1：微批次 %3 的%2&lt;/b&gt;&lt;br&gt;从 %4 到 %5 毫秒</translation>
    </message>
    <message>
        <source>idle (bubble, waiting for a neighbour)</source>
        <translation>空闲（气泡，等待相邻阶段）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rank %1 idle&lt;/b&gt; from %2 to %3 ms</source>
        <translation>&lt;b&gt;Rank %1 空闲&lt;/b&gt;：从 %2 到 %3 毫秒</translation>
    </message>
    <message>
        <source>p = %1, m = %2, step time %3 ms</source>
        <translation>p = %1，m = %2，步时间 %3 毫秒</translation>
    </message>
    <message>
        <source>bubble = mean over ranks of (step time − the rank&apos;s busy time) / step time; formula (p − 1)/(m + p − 1) = %1</source>
        <translation>气泡 = 各 rank 的 (步时间 − 该 rank 的忙碌时间) / 步时间 的平均；公式 (p − 1)/(m + p − 1) = %1</translation>
    </message>
    <message>
        <source>Huang et al. 2019 §2.3 (GPipe); Narayanan et al. 2021 §2.2.1 (1F1B)</source>
        <translation>Huang et al. 2019 §2.3（GPipe）；Narayanan et al. 2021 §2.2.1（1F1B）</translation>
    </message>
</context>
<context>
    <name>lse::gui::PipelinePage</name>
    <message>
        <source>Pipeline</source>
        <translation>流水线</translation>
    </message>
    <message>
        <source>Pipeline parallelism splits the layers into p stages; a step&apos;s batch is cut into m micro-batches that flow through them. Stages wait at the start and the end of the step: the bubble. Schedules differ in how long they wait and how many micro-batches&apos; activations each stage keeps.</source>
        <translation>流水线并行把各层划分为 p 个阶段；每一步的批次被切成 m 个微批次，依次流经这些阶段。各阶段在一步的开头和结尾都要等待：这就是气泡。不同调度的区别在于等待多久，以及每个阶段要保留多少个微批次的激活。</translation>
    </message>
    <message>
        <source>S&amp;chedule:</source>
        <translation>调度(&amp;C)：</translation>
    </message>
    <message>
        <source>&amp;Stages p:</source>
        <translation>阶段数 p(&amp;S)：</translation>
    </message>
    <message>
        <source>&amp;Micro-batches m:</source>
        <translation>微批次数 m(&amp;M)：</translation>
    </message>
    <message>
        <source>&amp;Chunks per stage v:</source>
        <translation>每阶段块数 v(&amp;C)：</translation>
    </message>
    <message>
        <source>GPipe (Huang et al. 2019), 1F1B (PipeDream-Flush, Narayanan et al. 2021 §2.2), interleaved 1F1B (§2.2.2), ZB-H1 (Qi et al. 2023 §3)</source>
        <translation>GPipe (Huang et al. 2019), 1F1B (PipeDream-Flush, Narayanan et al. 2021 §2.2), interleaved 1F1B (§2.2.2), ZB-H1 (Qi et al. 2023 §3)</translation>
    </message>
    <message>
        <source>Pipeline stages p (the scenario&apos;s pp)</source>
        <translation>流水线阶段数 p（场景中的 pp）</translation>
    </message>
    <message>
        <source>Micro-batches per step m = global batch / (micro-batch · dp), capped here so the chart stays readable</source>
        <translation>每步微批次数 m = 全局批大小 / (微批次 · dp)，此处设有上限以保持图表清晰可读</translation>
    </message>
    <message>
        <source>Model chunks per stage v (interleaved 1F1B only; m must be a multiple of p)</source>
        <translation>每阶段的模型块数 v（仅用于交错式 1F1B；m 必须是 p 的倍数）</translation>
    </message>
    <message>
        <source>(p−1)/m</source>
        <translation>(p−1)/m</translation>
    </message>
    <message>
        <source>(p−1)/(v·m)</source>
        <translation>(p−1)/(v·m)</translation>
    </message>
    <message>
        <source>(p−1)(t_F + t_B − t_W)/(m(t_F + t_B + t_W))</source>
        <translation>(p−1)(t_F + t_B − t_W)/(m(t_F + t_B + t_W))</translation>
    </message>
    <message>
        <source>Cannot build this schedule: %1</source>
        <translation>无法构建此调度：%1</translation>
    </message>
    <message>
        <source>p = %1, m = %2, v = %3; t_F = 1 unit, t_B = 2 units per micro-batch and stage (split over v chunks, later chunks in a lighter shade; ZB-H1: B = W = 1)</source>
        <translation>p = %1，m = %2，v = %3；每个微批次在每个阶段上 t_F = 1 单位，t_B = 2 单位（分摊到 v 个块上，靠后的块颜色较浅；ZB-H1：B = W = 1）</translation>
    </message>
    <message>
        <source>Time (units of one micro-batch&apos;s forward on one stage)</source>
        <translation>时间（单位：一个微批次在一个阶段上的前向耗时）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>stage %1</source>
        <translation>阶段 %1</translation>
    </message>
    <message>
        <source>, v = %1</source>
        <translation>，v = %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Stage %1: %2 of micro-batch %3&lt;/b&gt;%4&lt;br&gt;from %5 to %6</source>
        <translation>&lt;b&gt;阶段 %1：微批次 %3 的%2&lt;/b&gt;%4&lt;br&gt;从 %5 到 %6</translation>
    </message>
    <message>
        <source>, model chunk %1 (layers of virtual stage %2)</source>
        <translation>，模型块 %1（虚拟阶段 %2 的层）</translation>
    </message>
    <message>
        <source>idle (bubble)</source>
        <translation>空闲（气泡）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Stage %1 idle&lt;/b&gt; from %2 to %3</source>
        <translation>&lt;b&gt;阶段 %1 空闲&lt;/b&gt;，从 %2 到 %3</translation>
    </message>
    <message>
        <source>bubble = (step time − busy time) / busy time, measured on the chart; analytic %1 = %2</source>
        <translation>气泡 = (每步时间 − 忙碌时间) / 忙碌时间，在图上测得；解析值 %1 = %2</translation>
    </message>
    <message>
        <source>Narayanan et al. 2021 §2.2 (1F1B, interleaved); Huang et al. 2019 (GPipe); Qi et al. 2023 §3 (ZB-H1)</source>
        <translation>Narayanan et al. 2021 §2.2 (1F1B, interleaved); Huang et al. 2019 (GPipe); Qi et al. 2023 §3 (ZB-H1)</translation>
    </message>
    <message>
        <source>Pipeline stage</source>
        <translation>流水线阶段</translation>
    </message>
    <message>
        <source>Micro-batches in flight: %1</source>
        <translation>在途微批次：%1</translation>
    </message>
    <message numerus="yes">
        <source>stage %1 (%n in flight)</source>
        <translation>
            <numerusform>阶段 %1（%n 个在途）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n</source>
        <translation>
            <numerusform>%1：%n</numerusform>
        </translation>
    </message>
    <message>
        <source>Peak activation memory per stage (%1 layers of %2)</source>
        <translation>每阶段的峰值激活显存（%2 的 %1 层）</translation>
    </message>
    <message>
        <source>Saved activations (%1B)</source>
        <translation>保存的激活（%1B）</translation>
    </message>
    <message>
        <source>activation memory</source>
        <translation>激活显存</translation>
    </message>
    <message>
        <source>&lt;b&gt;Stage %1&lt;/b&gt;: up to %2 micro-batch chunks in flight × %3 = %4</source>
        <translation>&lt;b&gt;阶段 %1&lt;/b&gt;：至多 %2 个微批次块在途 × %3 = %4</translation>
    </message>
    <message>
        <source>; %1 per layer and micro-batch (from the estimate), L = %2</source>
        <translation>；每层每个微批次 %1（来自估算），L = %2</translation>
    </message>
    <message>
        <source>Peak micro-batches in flight per stage</source>
        <translation>每阶段在途微批次的峰值</translation>
    </message>
    <message>
        <source>Micro-batches in flight</source>
        <translation>在途微批次</translation>
    </message>
    <message>
        <source>in flight</source>
        <translation>在途</translation>
    </message>
    <message>
        <source>&lt;b&gt;Stage %1&lt;/b&gt;: up to %2 micro-batch chunks in flight</source>
        <translation>&lt;b&gt;阶段 %1&lt;/b&gt;：至多 %2 个微批次块在途</translation>
    </message>
    <message>
        <source>in flight = forwards done whose backward has not finished; activation memory = peak in flight × one micro-batch&apos;s activations on the stage (1F1B: p − s on stage s; GPipe: m)</source>
        <translation>在途 = 已完成前向但反向尚未完成的微批次；激活显存 = 在途峰值 × 一个微批次在该阶段上的激活（1F1B：阶段 s 上为 p − s；GPipe：m）</translation>
    </message>
    <message>
        <source>Narayanan et al. 2021 §2.2; Korthikanti et al. 2022 §4.2.3</source>
        <translation>Narayanan et al. 2021 §2.2; Korthikanti et al. 2022 §4.2.3</translation>
    </message>
    <message>
        <source>Earlier in the step (Left)</source>
        <translation>后退到本步中更早的时刻（左方向键）</translation>
    </message>
    <message>
        <source>Later in the step (Right)</source>
        <translation>前进到本步中更晚的时刻（右方向键）</translation>
    </message>
    <message>
        <source>Step through the schedule: each step moves to the next time a task starts or ends</source>
        <translation>逐步查看调度：每按一次就移动到下一个有任务开始或结束的时刻</translation>
    </message>
    <message>
        <source>analytic %1 = %2</source>
        <translation>解析值 %1 = %2</translation>
    </message>
    <message>
        <source>the analytic %1 does not apply here (it assumes %2)</source>
        <translation>解析式 %1 在此不适用（它假定 %2）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Bubble&lt;/b&gt; (idle ÷ busy time per stage): measured &lt;b&gt;%1&lt;/b&gt;, %2; idle share of the step %3. Step time %4 units for %5 units of work per stage.</source>
        <translation>&lt;b&gt;气泡&lt;/b&gt;（每个阶段的空闲时间 ÷ 忙碌时间）：实测 &lt;b&gt;%1&lt;/b&gt;，%2；空闲时间占每步的 %3。每步时间为 %4 单位，每个阶段的工作量为 %5 单位。</translation>
    </message>
    <message>
        <source> — at t = %1</source>
        <translation> — t = %1 时</translation>
    </message>
    <message>
        <source>bubble = (step time − busy time) / busy time, measured on the chart; the analytic %1 assumes %2, which does not hold here</source>
        <translation>气泡 = (每步时间 − 忙碌时间) / 忙碌时间，在图上测得；解析式 %1 假定 %2，此处不成立</translation>
    </message>
    <message>
        <source>%1–%2</source>
        <translation>%1–%2</translation>
    </message>
    <message>
        <source>expected an integer in 0..%1 for this schedule, got %2</source>
        <translation>对于此调度方式，应为 0..%1 范围内的整数，实际为 %2</translation>
    </message>
    <message>
        <source>%1, p = %2, m = %3%4: bubble (idle ÷ busy) %5</source>
        <translation>%1，p = %2，m = %3%4：气泡（空闲 ÷ 忙碌）%5</translation>
    </message>
</context>
<context>
    <name>lse::gui::PositionalEncodingSection</name>
    <message>
        <source>Positional encodings</source>
        <translation>位置编码</translation>
    </message>
    <message>
        <source>How each family tells attention where a token is. Sinusoids are added to the embeddings (fast dimensions first, slow ones last); RoPE rotates each (q, k) dimension pair by an angle proportional to the position, so q·k depends on the distance only; ALiBi subtracts a per-head multiple of the distance from the scores. The sizes follow the scenario&apos;s model.</source>
        <translation>各类方法如何告诉注意力 token 所在的位置。正弦编码加到嵌入上（快变维度在前，慢变维度在后）；RoPE 将每个 (q, k) 维度对旋转一个与位置成正比的角度，使 q·k 只取决于距离；ALiBi 从注意力分数中减去距离的一个按头而定的倍数。尺寸沿用场景中的模型。</translation>
    </message>
    <message>
        <source>d_model:</source>
        <translation>d_model：</translation>
    </message>
    <message>
        <source>head_dim:</source>
        <translation>head_dim：</translation>
    </message>
    <message>
        <source>heads:</source>
        <translation>头数：</translation>
    </message>
    <message>
        <source>positions:</source>
        <translation>位置数：</translation>
    </message>
    <message>
        <source>RoPE base:</source>
        <translation>RoPE 基数：</translation>
    </message>
    <message>
        <source>Sinusoidal encoding PE(position, dimension), %1 of %2 dimensions (evenly spread pairs)</source>
        <translation>正弦位置编码 PE(位置, 维度)，%2 个维度中的 %1 个（均匀分布的维度对）</translation>
    </message>
    <message>
        <source>Sinusoidal encoding PE(position, dimension)</source>
        <translation>正弦位置编码 PE(位置, 维度)</translation>
    </message>
    <message>
        <source>Position</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Dimension (blue −1 … red +1)</source>
        <translation>维度（蓝 −1 … 红 +1）</translation>
    </message>
    <message>
        <source>d_model = %1, positions 0–%2</source>
        <translation>d_model = %1，位置 0–%2</translation>
    </message>
    <message>
        <source>PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(pos / 10000^(2i/d))</source>
        <translation>PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(pos / 10000^(2i/d))</translation>
    </message>
    <message>
        <source>Vaswani et al. 2017, §3.5</source>
        <translation>Vaswani et al. 2017, §3.5</translation>
    </message>
    <message>
        <source>PE(%1, %2) = %3</source>
        <translation>PE(%1, %2) = %3</translation>
    </message>
    <message>
        <source>RoPE rotation frequency per dimension pair</source>
        <translation>每个维度对的 RoPE 旋转频率</translation>
    </message>
    <message>
        <source>Dimension pair i</source>
        <translation>维度对 i</translation>
    </message>
    <message>
        <source>θ_i (radians per position, log scale)</source>
        <translation>θ_i（每个位置的弧度，对数刻度）</translation>
    </message>
    <message>
        <source>head_dim = %1, base = %2</source>
        <translation>head_dim = %1，base = %2</translation>
    </message>
    <message>
        <source>θ_i = base^(−2i/d), i = 0 … d/2 − 1; wavelength 2π/θ_i positions</source>
        <translation>θ_i = base^(−2i/d)，i = 0 … d/2 − 1；波长为 2π/θ_i 个位置</translation>
    </message>
    <message>
        <source>Su et al. 2021 (RoFormer), eq. 15</source>
        <translation>Su et al. 2021 (RoFormer), eq. 15</translation>
    </message>
    <message>
        <source>θ_i</source>
        <translation>θ_i</translation>
    </message>
    <message>
        <source>pair %1: θ = %2 rad/position, one turn every %3 positions</source>
        <translation>维度对 %1：θ = %2 rad/位置，每 %3 个位置转一整圈</translation>
    </message>
    <message>
        <source>RoPE rotation angle of a few pairs vs position</source>
        <translation>若干维度对的 RoPE 旋转角随位置的变化</translation>
    </message>
    <message>
        <source>Position (log scale)</source>
        <translation>位置（对数刻度）</translation>
    </message>
    <message>
        <source>Angle pos·θ_i (radians, log scale)</source>
        <translation>角度 pos·θ_i（弧度，对数刻度）</translation>
    </message>
    <message>
        <source>one full turn (2π)</source>
        <translation>一整圈（2π）</translation>
    </message>
    <message>
        <source>angle = pos · θ_i, θ_i = base^(−2i/d); each pair (x_2i, x_2i+1) is rotated by it</source>
        <translation>角度 = pos · θ_i，θ_i = base^(−2i/d)；每个维度对 (x_2i, x_2i+1) 按此角度旋转</translation>
    </message>
    <message>
        <source>pair %1</source>
        <translation>维度对 %1</translation>
    </message>
    <message>
        <source>pair %1, position %2: %3 rad</source>
        <translation>维度对 %1，位置 %2：%3 rad</translation>
    </message>
    <message>
        <source>ALiBi bias per head vs distance</source>
        <translation>各头 ALiBi 偏置随距离的变化</translation>
    </message>
    <message>
        <source>Distance i − j (tokens)</source>
        <translation>距离 i − j（token）</translation>
    </message>
    <message>
        <source>Bias added to the attention score</source>
        <translation>加到注意力分数上的偏置</translation>
    </message>
    <message numerus="yes">
        <source>%n head(s)</source>
        <translation>
            <numerusform>%n 个头</numerusform>
        </translation>
    </message>
    <message>
        <source>bias(i, j) = −m_h · (i − j), m_h = 2^(−8h/H) (H a power of two; else the paper&apos;s interleaving)</source>
        <translation>bias(i, j) = −m_h · (i − j)，m_h = 2^(−8h/H)（H 为 2 的幂；否则按论文中的交错方式）</translation>
    </message>
    <message>
        <source>Press et al. 2022 (ALiBi), §3</source>
        <translation>Press et al. 2022 (ALiBi), §3</translation>
    </message>
    <message>
        <source>head %1 (m = %2)</source>
        <translation>头 %1（m = %2）</translation>
    </message>
</context>
<context>
    <name>lse::gui::RecoveryDialog</name>
    <message>
        <source>Recover Unsaved Work</source>
        <translation>恢复未保存的工作</translation>
    </message>
    <message numerus="yes">
        <source>LLM Systems Explorer did not quit cleanly last time. %n document(s) with unsaved changes were autosaved:</source>
        <translation>
            <numerusform>LLM Systems Explorer 上次未正常退出。有 %n 个含未保存更改的文档已自动保存：</numerusform>
        </translation>
    </message>
    <message>
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>Autosaved</source>
        <translation>自动保存时间</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>Unreadable: %1</source>
        <translation>无法读取：%1</translation>
    </message>
    <message>
        <source>Recover</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>丢弃</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>稍后</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Decide Later</source>
        <translation>稍后决定</translation>
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
    <message>
        <source>FLOPs per step (all operators)</source>
        <translation>每步 FLOPs（所有算子）</translation>
    </message>
    <message>
        <source>Cost engine: every operator&apos;s forward and backward FLOPs (core/ops/flop_rules.h: norms, softmax, RoPE, activations, residual adds, cross-entropy, the embedding&apos;s scatter-add) plus the matmuls.</source>
        <translation>成本引擎：每个算子的前向和反向 FLOPs（core/ops/flop_rules.h：归一化、softmax、RoPE、激活函数、残差加法、交叉熵、嵌入层的 scatter-add）加上矩阵乘法。</translation>
    </message>
    <message>
        <source>Op profiler: sum of every op&apos;s FLOPs in the last training step, by the same rules.</source>
        <translation>算子分析器：按相同规则统计上一个训练步中所有算子的 FLOPs 之和。</translation>
    </message>
    <message>
        <source>Needs this machine&apos;s measured roofline: press &quot;Measure this machine&quot; before Start.</source>
        <translation>需要本机的实测屋顶线：请在按“开始”之前先按“测量本机”。</translation>
    </message>
    <message>
        <source>Trainer: median wall time of forward + backward + optimizer over the latest %1 steps, leaving out the first (which pays page faults and cold caches).</source>
        <translation>训练器：最近 %1 步中前向 + 反向 + 优化器的实际耗时中位数，不计第一步（它要承担缺页和冷缓存的开销）。</translation>
    </message>
    <message>
        <source> · MFU exceeds the measured peak — re-measure this machine</source>
        <translation> · MFU 超过了实测峰值——请重新测量本机</translation>
    </message>
    <message numerus="yes">
        <source> · %n thread(s)</source>
        <translation>
            <numerusform> · %n 个线程</numerusform>
        </translation>
    </message>
    <message>
        <source> (requested)</source>
        <translation>（按指定）</translation>
    </message>
    <message numerus="yes">
        <source> (%1 of %n core(s) busy with other work)</source>
        <translation>
            <numerusform>（%n 个核心中有 %1 个正忙于其他任务）</numerusform>
        </translation>
    </message>
    <message>
        <source>Re-measure this machine</source>
        <translation>重新测量本机</translation>
    </message>
    <message>
        <source>No measured roofline of this machine is cached, so MFU and the predicted step time are not reported. Measure it once (applies from the next Start).</source>
        <translation>本机没有缓存的实测屋顶线，因此不报告 MFU 和预测的每步时间。请测量一次（从下一次“开始”起生效）。</translation>
    </message>
    <message>
        <source>cannot change while a run is in progress (stop it first)</source>
        <translation>运行进行中时无法更改（请先停止）</translation>
    </message>
    <message>
        <source>%1 ops, %2 ms of op time in the last step (forward and backward ops; the optimizer and the time between ops make up the rest of the step)</source>
        <translation>%1 个算子，上一步中算子耗时 %2 毫秒（前向和反向算子；优化器和算子之间的时间构成该步的其余部分）</translation>
    </message>
    <message>
        <source>Step time (median)</source>
        <translation>每步时间（中位数）</translation>
    </message>
    <message>
        <source> · %1 tokens/s · last step %2 ms (median %5 ms) · %3 · lr %4</source>
        <translation> · %1 token/秒 · 上一步 %2 毫秒（中位数 %5 毫秒） · %3 · 学习率 %4</translation>
    </message>
    <message>
        <source>Runs Eigen SGEMM on large square matrices and a STREAM triad in the worker (a few seconds) and caches the result for MFU; the step time is predicted from this CPU&apos;s kernel factors, measured at Start when none are cached for the run&apos;s threads.</source>
        <translation>在后台线程中运行大方阵的 Eigen SGEMM 和 STREAM triad（几秒钟），并缓存结果用于 MFU；步时间由本机 CPU 的内核因子预测，若缓存中没有本次运行线程数的内核因子，则在开始时测量。</translation>
    </message>
    <message>
        <source>Measured roofline of this machine: %1 peak on all cores, %2 on one core (SGEMM), %3 bandwidth, measured %4; MFU uses it (from the next Start).</source>
        <translation>本机实测屋顶线：全部核心峰值 %1，单核 %2（SGEMM），带宽 %3，测量于 %4；MFU 使用它（从下次开始起）。</translation>
    </message>
    <message>
        <source>Each operator&apos;s time in the last step: predicted by the operator-level step predictor from this CPU&apos;s measured kernel factors, and measured by the op profiler; largest differences first.</source>
        <translation>上一步中每个算子的时间：由算子级步时间预测器根据本机 CPU 实测的内核因子预测，并由算子分析器测量；差异最大的排在最前。</translation>
    </message>
    <message>
        <source>Pass</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Predicted (ms)</source>
        <translation>预测（毫秒）</translation>
    </message>
    <message>
        <source>Measured (ms)</source>
        <translation>实测（毫秒）</translation>
    </message>
    <message>
        <source>This CPU&apos;s kernel factors could not be measured.</source>
        <translation>无法测量本机 CPU 的内核因子。</translation>
    </message>
    <message numerus="yes">
        <source>Operator-level step predictor (the GPUs&apos; predictor) with this CPU&apos;s kernel factors at %n thread(s), measured %1: each operator&apos;s kernels timed from the measured matrix-product rates by shape, element-wise rates and bandwidth, call and parallel-region costs. %2 ms on idle cores + %3 ms while other processes held the cores (%4 of them ours while measuring). It does not use the run.</source>
        <translation>
            <numerusform>算子级步时间预测器（与 GPU 相同的预测器），使用本机 CPU 在 %n 个线程下的内核因子，测量于 %1：每个算子的内核时间由按形状实测的矩阵乘法速率、逐元素速率与带宽、调用和并行区域开销得出。空闲核心上 %2 毫秒 + 其他进程占用核心时 %3 毫秒（测量时我们获得了 %4 的核心时间）。它不使用本次运行的数据。</numerusform>
        </translation>
    </message>
    <message>
        <source>optimizer and the rest</source>
        <translation>优化器及其余部分</translation>
    </message>
    <message>
        <source>AdamW, gradient zeroing, norm and clipping, the finite check and batch sampling: measured as the step less the timed operators</source>
        <translation>AdamW、梯度清零、范数与裁剪、有限值检查和批次采样：实测值为整步时间减去已计时的算子</translation>
    </message>
    <message>
        <source>Measuring this CPU&apos;s kernel factors (%1 of %2): %3</source>
        <translation>正在测量本机 CPU 的内核因子（第 %1 项，共 %2 项）：%3</translation>
    </message>
    <message>
        <source>Kernel factors measured again: %1</source>
        <translation>已重新测量内核因子：%1</translation>
    </message>
    <message>
        <source>No trace yet: it is recorded once steps %1 to %2 of a run have been taken.</source>
        <translation>尚无追踪：运行完成第 %1 到第 %2 步后才会记录。</translation>
    </message>
    <message>
        <source>Could not save the trace %1.</source>
        <translation>无法保存追踪文件 %1。</translation>
    </message>
    <message>
        <source>Save trace</source>
        <translation>保存追踪</translation>
    </message>
    <message>
        <source>Chrome trace (*.json)</source>
        <translation>Chrome 追踪文件 (*.json)</translation>
    </message>
    <message>
        <source>Save trace…</source>
        <translation>保存追踪…</translation>
    </message>
    <message>
        <source>Saves steps %1 to %2 of this run as a Chrome trace (JSON): one event per operator call with its class, shape, FLOPs and bytes, inside forward, backward and optimizer ranges. Open it in Perfetto (ui.perfetto.dev) or chrome://tracing.</source>
        <translation>将本次运行的第 %1 到第 %2 步保存为 Chrome 追踪文件（JSON）：每次算子调用一个事件，附带其类别、形状、FLOPs 和字节数，位于前向、反向和优化器区间之内。可在 Perfetto（ui.perfetto.dev）或 chrome://tracing 中打开。</translation>
    </message>
    <message numerus="yes">
        <source>Every run records %n step(s) as a Chrome trace, after the first step (cold caches) when the run is longer; this button saves them once they are taken.</source>
        <translation>
            <numerusform>每次运行都会把 %n 个步骤记录为 Chrome 追踪（运行更长时跳过第一步，因其缓存尚冷）；这些步骤完成后即可用此按钮保存。</numerusform>
        </translation>
    </message>
    <message>
        <source>Warning: %1. The prediction is too slow; the next run measures them again.</source>
        <translation>警告：%1。预测偏慢；下次运行会重新测量内核因子。</translation>
    </message>
</context>
<context>
    <name>lse::gui::RooflinePage</name>
    <message>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>recompute</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>compute-bound</source>
        <translation>计算受限</translation>
    </message>
    <message>
        <source>memory-bound</source>
        <translation>访存受限</translation>
    </message>
    <message>
        <source>FLOP/B</source>
        <translation>FLOP/B</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;I = %2: attainable min(%3, I · %4) = %5</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;I = %2：可达性能 min(%3, I · %4) = %5</translation>
    </message>
    <message>
        <source>FLOP/s</source>
        <translation>FLOP/s</translation>
    </message>
    <message>
        <source>Export operators as CSV</source>
        <translation>将算子导出为 CSV</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Roofline</source>
        <translation>Roofline 屋顶线</translation>
    </message>
    <message>
        <source>A kernel that performs I FLOPs per byte it moves to or from main memory runs at most at min(peak, I · bandwidth) (the roofline, Williams, Waterman &amp; Patterson 2009). Left of a machine&apos;s ridge point (peak / bandwidth) it waits for memory; right of it, for its math units. Points are the scenario&apos;s operators on its accelerator; hover for the numbers.</source>
        <translation>若一个 kernel 每从主存读取或向主存写入一个字节执行 I 次 FLOP，则其速度至多为 min(峰值, I · 带宽)（屋顶线模型，Williams, Waterman &amp; Patterson 2009）。在机器脊点（峰值 / 带宽）左侧，它在等待内存；在右侧，它在等待运算单元。图中的点是场景中的算子在其加速器上的位置；鼠标悬停可查看数值。</translation>
    </message>
    <message>
        <source>Rooflines:</source>
        <translation>屋顶线：</translation>
    </message>
    <message>
        <source>This CPU (measured)</source>
        <translation>本机 CPU（实测）</translation>
    </message>
    <message>
        <source>This machine&apos;s measured roofline (float32): needs a measurement, see &quot;Measure this machine&quot; below the table.</source>
        <translation>本机实测屋顶线（float32）：需要先测量，见表格下方的“测量本机”。</translation>
    </message>
    <message>
        <source>&amp;Precision</source>
        <translation>精度(&amp;P)</translation>
    </message>
    <message>
        <source>P&amp;hase</source>
        <translation>阶段(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;FlashAttention</source>
        <translation>&amp;FlashAttention</translation>
    </message>
    <message>
        <source>FlashAttention (Dao et al. 2022) tiles QKᵀ, softmax and P·V in on-chip SRAM: the s×s score matrix never reaches HBM, so attention moves far fewer bytes.</source>
        <translation>FlashAttention（Dao et al. 2022）在片上 SRAM 中分块计算 QKᵀ、softmax 和 P·V：s×s 分数矩阵从不写入 HBM，因此注意力搬运的字节数大大减少。</translation>
    </message>
    <message>
        <source>F&amp;used element-wise</source>
        <translation>融合逐元素算子(&amp;U)</translation>
    </message>
    <message>
        <source>A fused kernel runs a chain of element-wise operators (residual add, norm, activation) in one pass: it reads the chain&apos;s inputs and writes its outputs once.</source>
        <translation>融合 kernel 一次执行一串逐元素算子（残差相加、归一化、激活函数）：只读取这串算子的输入、写出其输出各一次。</translation>
    </message>
    <message>
        <source>&amp;Batch</source>
        <translation>批大小(&amp;B)</translation>
    </message>
    <message>
        <source>Sequences per step (log-spaced 1 … 1,024). In decode every sequence adds one token per weight read: intensity ≈ batch FLOP/B per weight byte, so larger batches move the weight matmuls from memory-bound toward the ridge point.</source>
        <translation>每步的序列数（对数间隔 1 … 1,024）。解码时每读一次权重，每条序列只新增一个 token：算术强度 ≈ 批大小 FLOP/B（按权重字节计），因此增大批大小会使权重矩阵乘从访存受限移向脊点。</translation>
    </message>
    <message>
        <source>Scenario&apos;s matmul dtype</source>
        <translation>场景的矩阵乘 dtype</translation>
    </message>
    <message>
        <source>Training step</source>
        <translation>训练步</translation>
    </message>
    <message>
        <source>Prefill (prompt)</source>
        <translation>预填充（提示词）</translation>
    </message>
    <message>
        <source>Decode (one token)</source>
        <translation>解码（一个 token）</translation>
    </message>
    <message>
        <source>Training: forward + backward + optimizer of one micro-batch. Prefill: the forward pass over the prompts. Decode: one new token per sequence against a KV cache of seq_len tokens (Kwon et al. 2023).</source>
        <translation>训练：一个微批次的前向 + 反向 + 优化器。预填充：对提示词做一次前向传播。解码：每条序列基于 seq_len 个 token 的 KV 缓存生成一个新 token（Kwon et al. 2023）。</translation>
    </message>
    <message>
        <source>Export &amp;CSV…</source>
        <translation>导出 CSV(&amp;C)…</translation>
    </message>
    <message>
        <source>Write the operator table (raw numbers) to a CSV file.</source>
        <translation>将算子表（原始数值）写入 CSV 文件。</translation>
    </message>
    <message>
        <source>&amp;Measure this machine</source>
        <translation>测量本机(&amp;M)</translation>
    </message>
    <message>
        <source>Measure this CPU&apos;s float32 GEMM peak and STREAM triad bandwidth (a few seconds, in the background) and cache the result, as `llm-explorer-cli machine` does.</source>
        <translation>测量本机 CPU 的 float32 GEMM 峰值和 STREAM triad 带宽（在后台运行，需几秒）并缓存结果，与 `llm-explorer-cli machine` 相同。</translation>
    </message>
    <message>
        <source>Measure &amp;reference ops</source>
        <translation>测量参考算子(&amp;R)</translation>
    </message>
    <message>
        <source>Train the tiny reference transformer for a few steps with the op profiler on (in the background) and plot each operator&apos;s achieved FLOP/s.</source>
        <translation>开启算子分析器，将微型参考 Transformer 训练几步（在后台运行），并绘制每个算子实际达到的 FLOP/s。</translation>
    </message>
    <message>
        <source>&lt;b&gt;This machine&lt;/b&gt;: the CPU&apos;s measured roofline (float32 SGEMM peak, STREAM triad bandwidth) with the reference transformer&apos;s operators at the FLOP/s they achieved.</source>
        <translation>&lt;b&gt;本机&lt;/b&gt;：CPU 的实测屋顶线（float32 SGEMM 峰值、STREAM triad 带宽），以及参考 Transformer 各算子实际达到的 FLOP/s。</translation>
    </message>
    <message>
        <source>Decode: the weight matmuls of this model stay memory-bound on %1 up to a batch of 2²⁴ sequences.</source>
        <translation>解码：直到批大小达到 2²⁴ 条序列，该模型的权重矩阵乘在 %1 上仍受内存带宽限制。</translation>
    </message>
    <message>
        <source>Decode crossover: from a batch of &lt;b&gt;%1&lt;/b&gt; sequences every weight matmul is compute-bound on %2 (ridge point %3). Current batch %4: %5.</source>
        <translation>解码转折点：批大小达到 &lt;b&gt;%1&lt;/b&gt; 条序列起，每个权重矩阵乘在 %2 上都受算力限制（脊点 %3）。当前批大小 %4：%5。</translation>
    </message>
    <message>
        <source>Decode crossover on %1: batch %2 (choose the decode phase to move the matmuls with the slider).</source>
        <translation>%1 上的解码转折点：批大小 %2（选择解码阶段后，可用滑块移动矩阵乘的位置）。</translation>
    </message>
    <message>
        <source>No valid scenario yet.</source>
        <translation>尚无有效场景。</translation>
    </message>
    <message>
        <source>Arithmetic intensity (FLOP per byte of memory traffic, log scale)</source>
        <translation>算术强度（每字节内存访问的 FLOP 数，对数刻度）</translation>
    </message>
    <message>
        <source>Attainable FLOP/s (log scale)</source>
        <translation>可达 FLOP/s（对数刻度）</translation>
    </message>
    <message>
        <source>attainable = min(peak, I · bandwidth); I = FLOPs / (bytes read + bytes written); ridge point = peak / bandwidth; time = max(FLOPs / peak, bytes / bandwidth)</source>
        <translation>可达性能 = min(峰值, I · 带宽)；I = FLOPs / (读取字节 + 写入字节)；脊点 = 峰值 / 带宽；时间 = max(FLOPs / 峰值, 字节 / 带宽)</translation>
    </message>
    <message>
        <source>Williams, Waterman &amp; Patterson 2009, &apos;Roofline&apos; (CACM 52(4)), eq. 1; peaks and bandwidths: hardware catalog datasheets; operator FLOPs: the cost engine&apos;s operator list (PaLM App. B conventions)</source>
        <translation>Williams, Waterman &amp; Patterson 2009, &apos;Roofline&apos; (CACM 52(4)), eq. 1；峰值和带宽：硬件目录中的数据手册；算子 FLOPs：成本引擎的算子列表（PaLM App. B 约定）</translation>
    </message>
    <message>
        <source>Roofline: no valid scenario yet</source>
        <translation>屋顶线：尚无有效场景</translation>
    </message>
    <message>
        <source>%1, scenario</source>
        <translation>%1，场景</translation>
    </message>
    <message>
        <source>This CPU (fp32, all cores)</source>
        <translation>本机 CPU（fp32，全部核心）</translation>
    </message>
    <message>
        <source>Ridge points</source>
        <translation>脊点</translation>
    </message>
    <message>
        <source>%1, ridge %2</source>
        <translation>%1，脊点 %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;Ridge point of %1&lt;/b&gt;&lt;br&gt;peak / bandwidth = %2 / %3 = %4</source>
        <translation>&lt;b&gt;%1 的脊点&lt;/b&gt;&lt;br&gt;峰值 / 带宽 = %2 / %3 = %4</translation>
    </message>
    <message>
        <source>%1: peak %2, bandwidth %3, ridge %4</source>
        <translation>%1：峰值 %2，带宽 %3，脊点 %4</translation>
    </message>
    <message>
        <source>no %1 peak: %2</source>
        <translation>无 %1 峰值：%2</translation>
    </message>
    <message>
        <source>Roofline (%1): the operators cannot be placed: %2</source>
        <translation>屋顶线（%1）：无法放置算子：%2</translation>
    </message>
    <message>
        <source>Compute-bound operators</source>
        <translation>计算受限的算子</translation>
    </message>
    <message>
        <source>Memory-bound operators</source>
        <translation>访存受限的算子</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (%2, ×%3)&lt;br&gt;shape %4&lt;br&gt;FLOPs %5, bytes %6&lt;br&gt;intensity %7&lt;br&gt;attainable %8 → %9&lt;br&gt;time %10 (%11 of the step)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;（%2，×%3）&lt;br&gt;形状 %4&lt;br&gt;FLOPs %5，字节 %6&lt;br&gt;算术强度 %7&lt;br&gt;可达性能 %8 → %9&lt;br&gt;时间 %10（占该步的 %11）</translation>
    </message>
    <message>
        <source>FLOP</source>
        <translation>FLOP</translation>
    </message>
    <message>
        <source>%1, batch %2, on %3</source>
        <translation>%1，批大小 %2，在 %3 上</translation>
    </message>
    <message>
        <source>%1, batch %2%3, FlashAttention %4, fused element-wise %5</source>
        <translation>%1，批大小 %2%3，FlashAttention %4，融合逐元素算子 %5</translation>
    </message>
    <message>
        <source>, KV cache %1 tokens</source>
        <translation>，KV 缓存 %1 个 token</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开启</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message numerus="yes">
        <source>%n operator(s) without FLOPs (lookups) are in the table only</source>
        <translation>
            <numerusform>%n 个没有 FLOPs 的算子（查表操作）仅列在表格中</numerusform>
        </translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Pass</source>
        <translation>过程</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>次数</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>FLOPs</source>
        <translation>FLOPs</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>Intensity</source>
        <translation>算术强度</translation>
    </message>
    <message>
        <source>Attainable</source>
        <translation>可达性能</translation>
    </message>
    <message>
        <source>Bound</source>
        <translation>瓶颈</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Share of step</source>
        <translation>占步时间比例</translation>
    </message>
    <message>
        <source>FLOPs / (bytes read + bytes written)</source>
        <translation>FLOPs / (读取字节 + 写入字节)</translation>
    </message>
    <message>
        <source>min(peak, intensity · bandwidth) (Williams et al. 2009)</source>
        <translation>min(峰值, 算术强度 · 带宽)（Williams et al. 2009）</translation>
    </message>
    <message>
        <source>max(FLOPs / peak, bytes / bandwidth), all instances</source>
        <translation>max(FLOPs / 峰值, 字节 / 带宽)，所有实例合计</translation>
    </message>
    <message>
        <source>&lt;b&gt;Operators&lt;/b&gt;: no valid scenario yet.</source>
        <translation>&lt;b&gt;算子&lt;/b&gt;：尚无有效场景。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Operators of one %1&lt;/b&gt; on %2 (click a header to sort):</source>
        <translation>&lt;b&gt;单次%1的算子&lt;/b&gt;，在 %2 上（点击表头排序）：</translation>
    </message>
    <message>
        <source>Step time from the roofline (Σ operators, one after another): &lt;b&gt;%1&lt;/b&gt; (compute-bound %2, memory-bound %3). </source>
        <translation>由屋顶线模型得到的步时间（Σ 各算子，依次执行）：&lt;b&gt;%1&lt;/b&gt;（计算受限 %2，访存受限 %3）。</translation>
    </message>
    <message>
        <source>MFU-based time (model FLOPs %1 / (peak · MFU %2)): &lt;b&gt;%3&lt;/b&gt;. Implied MFU of the roofline time: &lt;b&gt;%4&lt;/b&gt; — the roofline is an upper bound on speed, so real MFU is lower.</source>
        <translation>基于 MFU 的时间（模型 FLOPs %1 / (峰值 · MFU %2)）：&lt;b&gt;%3&lt;/b&gt;。屋顶线时间对应的 MFU：&lt;b&gt;%4&lt;/b&gt;——屋顶线是速度的上限，因此实际 MFU 更低。</translation>
    </message>
    <message>
        <source>no operators to export</source>
        <translation>没有可导出的算子</translation>
    </message>
    <message>
        <source>none set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <source>This machine has not been measured yet (%1). Measure it to draw its roofline; the reference operators can be measured either way.</source>
        <translation>本机尚未测量（%1）。测量后即可绘制其屋顶线；无论是否测量，都可以测量参考算子。</translation>
    </message>
    <message>
        <source>no cache</source>
        <translation>无缓存</translation>
    </message>
    <message>
        <source>Last measurement failed: %1</source>
        <translation>上次测量失败：%1</translation>
    </message>
    <message>
        <source>Arithmetic intensity (FLOP/B, log scale)</source>
        <translation>算术强度（FLOP/B，对数刻度）</translation>
    </message>
    <message>
        <source>FLOP/s (log scale)</source>
        <translation>FLOP/s（对数刻度）</translation>
    </message>
    <message>
        <source>Williams et al. 2009; peak: Eigen SGEMM, bandwidth: STREAM triad (McCalpin 1995), both measured by `llm-explorer-cli machine`; operators: the reference transformer&apos;s op profiler</source>
        <translation>Williams et al. 2009；峰值：Eigen SGEMM，带宽：STREAM triad（McCalpin 1995），均由 `llm-explorer-cli machine` 测得；算子：参考 Transformer 的算子分析器</translation>
    </message>
    <message>
        <source>This machine: not measured yet</source>
        <translation>本机：尚未测量</translation>
    </message>
    <message>
        <source>One core</source>
        <translation>单核</translation>
    </message>
    <message>
        <source>%1: peak %2 (one core %3), bandwidth %4 (one core %5), ridge %6</source>
        <translation>%1：峰值 %2（单核 %3），带宽 %4（单核 %5），脊点 %6</translation>
    </message>
    <message>
        <source>Measured forward operators</source>
        <translation>实测前向算子</translation>
    </message>
    <message>
        <source>Measured backward operators</source>
        <translation>实测反向算子</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (%2)&lt;br&gt;FLOPs %3, bytes %4 over %5 steps&lt;br&gt;intensity %6&lt;br&gt;time %7 → achieved %8</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;（%2）&lt;br&gt;FLOPs %3，字节 %4（%5 步合计）&lt;br&gt;算术强度 %6&lt;br&gt;时间 %7 → 实际 %8</translation>
    </message>
    <message>
        <source>&lt;br&gt;%1 of the measured peak</source>
        <translation>&lt;br&gt;达到实测峰值的 %1</translation>
    </message>
    <message>
        <source>reference preset &apos;%1&apos;: %2 layers, d_model %3, batch %4 × %5 tokens, fp32, %6 measured steps after one warm-up step</source>
        <translation>参考预设“%1”：%2 层，d_model %3，批大小 %4 × %5 个 token，fp32，预热一步后测量 %6 步</translation>
    </message>
    <message>
        <source>This machine&apos;s roofline (press &quot;Measure reference ops&quot; for operator points)</source>
        <translation>本机屋顶线（按“测量参考算子”可添加算子数据点）</translation>
    </message>
    <message>
        <source>This machine: reference transformer operators at their achieved FLOP/s</source>
        <translation>本机：参考 Transformer 算子及其实际达到的 FLOP/s</translation>
    </message>
    <message>
        <source>Measuring this machine…</source>
        <translation>正在测量本机…</translation>
    </message>
    <message>
        <source>Measuring this machine (%1 of %2): %3</source>
        <translation>正在测量本机（第 %1 步，共 %2 步）：%3</translation>
    </message>
    <message>
        <source>Training the tiny reference transformer with the op profiler on…</source>
        <translation>正在开启算子分析器训练微型参考 Transformer…</translation>
    </message>
    <message>
        <source>&lt;br&gt;above the measured peak: re-measure this machine</source>
        <translation>&lt;br&gt;超过实测峰值：请重新测量本机</translation>
    </message>
    <message>
        <source>expected a power of two from 1 to %1</source>
        <translation>应为 1 到 %1 之间的 2 的幂</translation>
    </message>
    <message>
        <source>expected an array of %1</source>
        <translation>应为 %1 数组</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop the measurement before its next stage; nothing is kept or cached.</source>
        <translation>在进入下一阶段前停止测量；不保留也不缓存任何结果。</translation>
    </message>
    <message numerus="yes">
        <source>%1: %2 peak (SGEMM n = %3, %Ln thread(s)), %4 bandwidth, measured %5.</source>
        <translation>
            <numerusform>%1：峰值 %2（SGEMM n = %3，%Ln 个线程），带宽 %4，测于 %5。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>All %Ln thread(s)</source>
        <translation>
            <numerusform>全部 %Ln 个线程</numerusform>
        </translation>
    </message>
    <message>
        <source>The last measurement was cancelled; nothing of it was kept.</source>
        <translation>上次测量已取消，未保留任何结果。</translation>
    </message>
    <message>
        <source>roof = min(peak, I · bandwidth); a measured operator sits at achieved = FLOPs / seconds, at I = FLOPs / bytes with bytes = predicted bytes · measured FLOPs / predicted FLOPs; its predicted ring at FLOPs / predicted seconds</source>
        <translation>屋顶 = min(峰值, I · 带宽)；实测算子位于 达到值 = FLOPs / 秒，I = FLOPs / 字节，其中 字节 = 预测字节 · 实测 FLOPs / 预测 FLOPs；其预测圆环位于 FLOPs / 预测秒数</translation>
    </message>
    <message>
        <source>Predicted operators (kernel factors)</source>
        <translation>预测算子（内核因子）</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (%2), predicted&lt;br&gt;%3 per step predicted, %4 measured (%5)&lt;br&gt;predicted %6</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;（%2），预测&lt;br&gt;每步预测 %3，实测 %4（%5）&lt;br&gt;预测 %6</translation>
    </message>
    <message numerus="yes">
        <source>predicted operators: the operator-level step predictor with this CPU&apos;s kernel factors at %Ln thread(s), measured %1</source>
        <translation>
            <numerusform>预测算子：算子级步时间预测器，使用本机 CPU 在 %Ln 个线程下的内核因子，测量于 %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>no predicted operators: no kernel factors cached for %Ln thread(s) (run `llm-explorer-cli machine`, or train on the Reference run page)</source>
        <translation>
            <numerusform>无预测算子：没有缓存 %Ln 个线程的内核因子（运行 `llm-explorer-cli machine`，或在“参考运行”页面训练）</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Your trace</source>
        <translation>你的追踪(&amp;Y)</translation>
    </message>
    <message>
        <source>The kernels of the trace loaded on the Trace page with known FLOPs and bytes, at their achieved FLOP/s (FLOPs ÷ duration) and intensity (FLOPs ÷ bytes); click a point to name its kernel</source>
        <translation>“追踪”页面加载的 trace 中已知 FLOPs 和字节数的内核，按其实际 FLOP/s（FLOPs ÷ 时长）和算术强度（FLOPs ÷ 字节）绘制；点击一个点可显示其内核名称</translation>
    </message>
    <message>
        <source>Your trace</source>
        <translation>你的追踪</translation>
    </message>
    <message numerus="yes">
        <source>Your trace: %1 (%Ln kernel(s))</source>
        <translation>
            <numerusform>你的追踪：%1（%Ln 个内核）</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;br&gt;(click the point to name it below the chart)</source>
        <translation>&lt;br&gt;（点击该点，在图表下方显示其名称）</translation>
    </message>
    <message>
        <source>no shape</source>
        <translation>无形状</translation>
    </message>
    <message>
        <source>no linked operator</source>
        <translation>无关联算子</translation>
    </message>
    <message>
        <source>ProfilerStep#%1</source>
        <translation>ProfilerStep#%1 步</translation>
    </message>
    <message>
        <source>the trace</source>
        <translation>整个 trace</translation>
    </message>
    <message>
        <source>Predicted counterpart: none yet (a GEMM call gets one on the Trace page&apos;s &lt;i&gt;Measured vs predicted&lt;/i&gt; tab).</source>
        <translation>预测对应项：暂无（GEMM 调用在“追踪”页面的&lt;i&gt;实测与预测&lt;/i&gt;标签页上得到对应项）。</translation>
    </message>
    <message>
        <source>Predicted counterpart on %1: %2 µs per call for %3 (measured ÷ predicted %4).</source>
        <translation>在 %1 上的预测对应项：%3 每次调用 %2 µs（实测 ÷ 预测 %4）。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Your trace:&lt;/b&gt; %1 (%2) from %3, shape %4: %5 µs = %6 of %7&apos;s GPU window; %8 at %9 FLOP/B. %10</source>
        <translation>&lt;b&gt;你的追踪：&lt;/b&gt;%1（%2），来自 %3，形状 %4：%5 µs = %7 的 GPU 窗口的 %6；%8，算术强度 %9 FLOP/B。%10</translation>
    </message>
</context>
<context>
    <name>lse::gui::ScalingCharts</name>
    <message>
        <source>FLOP</source>
        <translation>FLOP</translation>
    </message>
    <message>
        <source>C = %1 FLOP</source>
        <translation>C = %1 FLOP</translation>
    </message>
    <message>
        <source>L(N, D) = E + A/N&lt;sup&gt;α&lt;/sup&gt; + B/D&lt;sup&gt;β&lt;/sup&gt;; C = 6·N·D; N&lt;sub&gt;opt&lt;/sub&gt; = G·(C/6)&lt;sup&gt;β/(α+β)&lt;/sup&gt;, D&lt;sub&gt;opt&lt;/sub&gt; = G&lt;sup&gt;−1&lt;/sup&gt;·(C/6)&lt;sup&gt;α/(α+β)&lt;/sup&gt;, G = (αA/(βB))&lt;sup&gt;1/(α+β)&lt;/sup&gt;</source>
        <translation>L(N, D) = E + A/N&lt;sup&gt;α&lt;/sup&gt; + B/D&lt;sup&gt;β&lt;/sup&gt;; C = 6·N·D; N&lt;sub&gt;opt&lt;/sub&gt; = G·(C/6)&lt;sup&gt;β/(α+β)&lt;/sup&gt;, D&lt;sub&gt;opt&lt;/sub&gt; = G&lt;sup&gt;−1&lt;/sup&gt;·(C/6)&lt;sup&gt;α/(α+β)&lt;/sup&gt;, G = (αA/(βB))&lt;sup&gt;1/(α+β)&lt;/sup&gt;</translation>
    </message>
    <message>
        <source>Hoffmann et al. 2022, &quot;Training Compute-Optimal Large Language Models&quot;: eq. 10 and Appendix D.2 (E 1.69, A 406.4, B 410.7, α 0.34, β 0.28), eq. 4 (optimum); C ≈ 6ND: Kaplan et al. 2020 §2.1</source>
        <translation>Hoffmann et al. 2022, &quot;Training Compute-Optimal Large Language Models&quot;: eq. 10 and Appendix D.2 (E 1.69, A 406.4, B 410.7, α 0.34, β 0.28), eq. 4 (optimum); C ≈ 6ND: Kaplan et al. 2020 §2.1</translation>
    </message>
    <message>
        <source>Why they differ: approach 1 fits power laws to the lowest loss each budget reached in training (Table 2: N&lt;sub&gt;opt&lt;/sub&gt; ∝ C&lt;sup&gt;0.50&lt;/sup&gt;, D&lt;sub&gt;opt&lt;/sub&gt; ∝ C&lt;sup&gt;0.50&lt;/sup&gt;); approach 3 fits L(N, D) to every run, and its optimum grows more slowly in N (Table 2: C&lt;sup&gt;0.46&lt;/sup&gt; and C&lt;sup&gt;0.54&lt;/sup&gt;; the rounded constants printed in the paper give 0.45 and 0.55). The gap between the exponents compounds with the budget, and the runs behind both fits stop at 16 B parameters, so at Gopher&apos;s budget the two answers are about a factor of two apart.</source>
        <translation>为何两者不同：方法 1 对每个预算在训练中达到的最低损失拟合幂律（Table 2：N&lt;sub&gt;opt&lt;/sub&gt; ∝ C&lt;sup&gt;0.50&lt;/sup&gt;，D&lt;sub&gt;opt&lt;/sub&gt; ∝ C&lt;sup&gt;0.50&lt;/sup&gt;）；方法 3 用所有训练运行拟合 L(N, D)，其最优点随 N 增长得更慢（Table 2：C&lt;sup&gt;0.46&lt;/sup&gt; 和 C&lt;sup&gt;0.54&lt;/sup&gt;；按论文中印出的取整常数计算则为 0.45 和 0.55）。指数之间的差距随预算累积放大，而两种拟合所依据的运行最大只到 16 B 参数，因此在 Gopher 的预算下，两个答案相差约两倍。</translation>
    </message>
    <message>
        <source>Gopher&apos;s budget, %1: eq. 4 gives %2 parameters on %3 tokens; Table 3 (approach 1) gives %4 on %5.</source>
        <translation>Gopher 的预算 %1：eq. 4 给出 %2 参数、%3 token；Table 3（方法 1）给出 %4 参数、%5 token。</translation>
    </message>
    <message>
        <source>Iso-FLOP curves: loss against model size at fixed training compute</source>
        <translation>等算力 (iso-FLOP) 曲线：固定训练算力下损失随模型规模的变化</translation>
    </message>
    <message>
        <source>Parameters N (log scale)</source>
        <translation>参数量 N（对数刻度）</translation>
    </message>
    <message>
        <source>Loss L(N, C/6N) (nats per token)</source>
        <translation>损失 L(N, C/6N)（每 token 奈特）</translation>
    </message>
    <message>
        <source>Compute-optimal (eq. 4)</source>
        <translation>计算最优（eq. 4）</translation>
    </message>
    <message>
        <source>20 tokens per parameter</source>
        <translation>每参数 20 个 token</translation>
    </message>
    <message>
        <source>%1 (scenario)</source>
        <translation>%1（场景）</translation>
    </message>
    <message>
        <source>C = %1: N = %2, D = %3 (%4 tokens/parameter), L = %5</source>
        <translation>C = %1：N = %2，D = %3（每参数 %4 个 token），L = %5</translation>
    </message>
    <message>
        <source>Compute-optimal at C = %1</source>
        <translation>C = %1 时的计算最优</translation>
    </message>
    <message>
        <source>N&lt;sub&gt;opt&lt;/sub&gt; = %1 parameters, D&lt;sub&gt;opt&lt;/sub&gt; = %2 tokens (%3 tokens/parameter)</source>
        <translation>N&lt;sub&gt;opt&lt;/sub&gt; = %1 参数，D&lt;sub&gt;opt&lt;/sub&gt; = %2 token（每参数 %3 个 token）</translation>
    </message>
    <message>
        <source>L = %1</source>
        <translation>L = %1</translation>
    </message>
    <message>
        <source>20 tokens/parameter at C = %1: N = %2, D = %3, L = %4 (+%5 above the optimum)</source>
        <translation>C = %1 时每参数 20 个 token：N = %2，D = %3，L = %4（比最优高 %5）</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>Scenario: N = %1 (engine count), D = %2 (%3 tokens/parameter), C = %4, L = %5</source>
        <translation>场景：N = %1（引擎计数），D = %2（每参数 %3 个 token），C = %4，L = %5</translation>
    </message>
    <message>
        <source>Scenario: N = %1, D = %2, C = 6ND = %3; its optimum N = %4, D = %5</source>
        <translation>场景：N = %1，D = %2，C = 6ND = %3；其最优点 N = %4，D = %5</translation>
    </message>
    <message>
        <source>; Table 2 and Table 3 (approach 1)</source>
        <translation>；Table 2 和 Table 3（方法 1）</translation>
    </message>
    <message>
        <source>Loss surface L(N, D): iso-loss contours, iso-FLOP lines and the compute-optimal frontier</source>
        <translation>损失曲面 L(N, D)：等损失等高线、等算力 (iso-FLOP) 线与计算最优前沿</translation>
    </message>
    <message>
        <source>Training tokens D (log scale)</source>
        <translation>训练 token 数 D（对数刻度）</translation>
    </message>
    <message>
        <source>L = %1 (the optimum&apos;s loss)</source>
        <translation>L = %1（最优点的损失）</translation>
    </message>
    <message>
        <source>L(N, D) = %1 at N = %2, D = %3 (C = %4)</source>
        <translation>L(N, D) = %1，N = %2，D = %3（C = %4）</translation>
    </message>
    <message>
        <source>Iso-FLOP line of the scenario&apos;s C = %1</source>
        <translation>场景 C = %1 的等算力 (iso-FLOP) 线</translation>
    </message>
    <message>
        <source>C = %1: N = %2, D = %3, L = %4</source>
        <translation>C = %1：N = %2，D = %3，L = %4</translation>
    </message>
    <message>
        <source>Compute-optimal frontier (eq. 4)</source>
        <translation>计算最优前沿（eq. 4）</translation>
    </message>
    <message>
        <source>Optimum at C = %1: N = %2, D = %3 (%4 tokens/parameter), L = %5</source>
        <translation>C = %1 时的最优点：N = %2，D = %3（每参数 %4 个 token），L = %5</translation>
    </message>
    <message>
        <source>D = 20·N (approaches 1/2)</source>
        <translation>D = 20·N（方法 1/2）</translation>
    </message>
    <message>
        <source>20 tokens/parameter: N = %1, D = %2, L = %3</source>
        <translation>每参数 20 个 token：N = %1，D = %2，L = %3</translation>
    </message>
    <message>
        <source>Optimum for the scenario&apos;s C</source>
        <translation>场景 C 下的最优点</translation>
    </message>
    <message>
        <source>optimum</source>
        <translation>最优</translation>
    </message>
    <message>
        <source>Optimum for C = %1: N = %2, D = %3, L = %4</source>
        <translation>C = %1 的最优点：N = %2，D = %3，L = %4</translation>
    </message>
    <message>
        <source>Scenario: N = %1, D = %2, C = %3, L = %4</source>
        <translation>场景：N = %1，D = %2，C = %3，L = %4</translation>
    </message>
    <message>
        <source>Contours: D(N) = (B / (L − E − A/N&lt;sup&gt;α&lt;/sup&gt;))&lt;sup&gt;1/β&lt;/sup&gt; for each level L; iso-FLOP lines D = C / 6N</source>
        <translation>等高线：对每个水平 L，D(N) = (B / (L − E − A/N&lt;sup&gt;α&lt;/sup&gt;))&lt;sup&gt;1/β&lt;/sup&gt;；等算力 (iso-FLOP) 线 D = C / 6N</translation>
    </message>
    <message>
        <source>Over-training at the scenario&apos;s compute: loss paid against inference saved</source>
        <translation>在场景算力下过度训练：付出的损失与节省的推理</translation>
    </message>
    <message>
        <source>Training tokens per parameter (log scale)</source>
        <translation>每参数训练 token 数（对数刻度）</translation>
    </message>
    <message>
        <source>Percent of the compute-optimal model&apos;s figure</source>
        <translation>相对计算最优模型的百分比</translation>
    </message>
    <message>
        <source>Loss above the optimum (%)</source>
        <translation>高于最优的损失（%）</translation>
    </message>
    <message>
        <source>Inference FLOPs saved per generated token (%)</source>
        <translation>每生成一个 token 节省的推理 FLOPs（%）</translation>
    </message>
    <message>
        <source>%1 tokens/parameter at C = %2: N = %3 on D = %4</source>
        <translation>C = %2 时每参数 %1 个 token：N = %3，D = %4</translation>
    </message>
    <message>
        <source>Loss penalty</source>
        <translation>损失代价</translation>
    </message>
    <message>
        <source>L(N, D) − L(N&lt;sub&gt;opt&lt;/sub&gt;, D&lt;sub&gt;opt&lt;/sub&gt;)</source>
        <translation>L(N, D) − L(N&lt;sub&gt;opt&lt;/sub&gt;, D&lt;sub&gt;opt&lt;/sub&gt;)</translation>
    </message>
    <message>
        <source>L = %1, %2 above the optimum&apos;s %3 (%4)</source>
        <translation>L = %1，比最优点的 %3 高 %2（%4）</translation>
    </message>
    <message>
        <source>Inference saving</source>
        <translation>推理节省</translation>
    </message>
    <message>
        <source>2·N FLOPs per generated token; saved = 2·(N&lt;sub&gt;opt&lt;/sub&gt; − N)</source>
        <translation>每生成一个 token 需 2·N FLOPs；节省 = 2·(N&lt;sub&gt;opt&lt;/sub&gt; − N)</translation>
    </message>
    <message>
        <source>Kaplan et al. 2020, §2.1 (forward pass 2N)</source>
        <translation>Kaplan et al. 2020, §2.1 (forward pass 2N)</translation>
    </message>
    <message>
        <source>%1 per token instead of %2: %3 saved (%4)</source>
        <translation>每 token %1，而非 %2：节省 %3（%4）</translation>
    </message>
    <message>
        <source>Scenario: %1 tokens/parameter; loss +%2, inference FLOPs per token %3 of the optimum&apos;s</source>
        <translation>场景：每参数 %1 个 token；损失 +%2，每 token 推理 FLOPs 为最优点的 %3</translation>
    </message>
    <message>
        <source>C = %1 fixed; N = √(C / 6r), D = r·N for r tokens per parameter; optimum at r = %2</source>
        <translation>C = %1 固定；每参数 r 个 token 时 N = √(C / 6r)，D = r·N；最优点在 r = %2</translation>
    </message>
    <message>
        <source>loss penalty = L(N, D)/L(N&lt;sub&gt;opt&lt;/sub&gt;, D&lt;sub&gt;opt&lt;/sub&gt;) − 1; inference saved = 1 − N/N&lt;sub&gt;opt&lt;/sub&gt; (2·N FLOPs per generated token)</source>
        <translation>损失代价 = L(N, D)/L(N&lt;sub&gt;opt&lt;/sub&gt;, D&lt;sub&gt;opt&lt;/sub&gt;) − 1；推理节省 = 1 − N/N&lt;sub&gt;opt&lt;/sub&gt;（每生成一个 token 需 2·N FLOPs）</translation>
    </message>
</context>
<context>
    <name>lse::gui::ScalingPage</name>
    <message>
        <source>FLOP</source>
        <translation>FLOP</translation>
    </message>
    <message>
        <source>Scaling</source>
        <translation>缩放定律</translation>
    </message>
    <message>
        <source>Use the compute-optimal model</source>
        <translation>使用计算最优模型</translation>
    </message>
    <message>
        <source>&lt;b&gt;How big a model does the scenario&apos;s training compute buy?&lt;/b&gt; Chinchilla&apos;s approach 3 (Hoffmann et al. 2022) against the scenario: the loss its N and D reach, and the model size and token count that minimise the loss for the same C = 6·N·D.</source>
        <translation>&lt;b&gt;场景的训练算力能买到多大的模型？&lt;/b&gt;将 Chinchilla 的方法 3（Hoffmann et al. 2022）与场景对比：场景的 N 和 D 所达到的损失，以及在相同 C = 6·N·D 下使损失最小的模型规模和 token 数。</translation>
    </message>
    <message>
        <source>No valid scenario yet.</source>
        <translation>尚无有效场景。</translation>
    </message>
    <message>
        <source>No valid scenario yet</source>
        <translation>尚无有效场景</translation>
    </message>
    <message>
        <source>Replace the model by %1 and the tokens by %2 (one undo step)</source>
        <translation>将模型替换为 %1，token 数替换为 %2（可一步撤销）</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>Compute-optimal (eq. 4)</source>
        <translation>计算最优（eq. 4）</translation>
    </message>
    <message>
        <source>20 tokens/parameter</source>
        <translation>每参数 20 个 token</translation>
    </message>
    <message>
        <source>Parameters N</source>
        <translation>参数量 N</translation>
    </message>
    <message>
        <source>%1 (engine count)</source>
        <translation>%1（引擎计数）</translation>
    </message>
    <message>
        <source>%1 (family model: %2)</source>
        <translation>%1（同系列模型：%2）</translation>
    </message>
    <message>
        <source>Training tokens D</source>
        <translation>训练 token 数 D</translation>
    </message>
    <message>
        <source>%1 (trained: %2)</source>
        <translation>%1（已训练：%2）</translation>
    </message>
    <message>
        <source>Tokens per parameter</source>
        <translation>每参数 token 数</translation>
    </message>
    <message>
        <source>Training compute C = 6ND</source>
        <translation>训练算力 C = 6ND</translation>
    </message>
    <message>
        <source>Loss L(N, D)</source>
        <translation>损失 L(N, D)</translation>
    </message>
    <message>
        <source>Training days (engine)</source>
        <translation>训练天数（引擎）</translation>
    </message>
    <message>
        <source>GPU-hours (engine)</source>
        <translation>GPU 小时（引擎）</translation>
    </message>
    <message>
        <source>Cost (engine)</source>
        <translation>成本（引擎）</translation>
    </message>
    <message>
        <source>Both on the scenario&apos;s cluster: %1 × %2, MFU %3.</source>
        <translation>两者均在场景的集群上：%1 × %2，MFU %3。</translation>
    </message>
    <message>
        <source>The engine&apos;s time uses C = 6ND here, so both take the same time up to the layout.</source>
        <translation>此处引擎的时间使用 C = 6ND，因此除并行布局外两者耗时相同。</translation>
    </message>
    <message>
        <source>The engine&apos;s time counts each model&apos;s exact matmul FLOPs, so the days differ slightly although 6ND is the same.</source>
        <translation>引擎的时间按每个模型精确的矩阵乘法 FLOPs 计算，因此尽管 6ND 相同，天数仍略有差异。</translation>
    </message>
    <message>
        <source>For this mixture of experts N is the active parameter count (%1 of %2 in all); the law was fitted on dense models.</source>
        <translation>对于此混合专家模型，N 为激活参数量（总计 %2 中的 %1）；该定律是在稠密模型上拟合的。</translation>
    </message>
    <message>
        <source>Layout adapted for the optimal model: %1.</source>
        <translation>已为最优模型调整并行布局：%1。</translation>
    </message>
    <message>
        <source>No engine estimate of the optimal model: %1</source>
        <translation>无法用引擎估算最优模型：%1</translation>
    </message>
    <message>
        <source>The scenario&apos;s compute is Table 3&apos;s row &quot;%1&quot;: %2 parameters on %3 tokens.</source>
        <translation>场景的算力对应 Table 3 中的“%1”行：%2 参数、%3 token。</translation>
    </message>
    <message>
        <source>Use the compute-optimal model (%1 parameters, %2 tokens)</source>
        <translation>使用计算最优模型（%1 参数，%2 token）</translation>
    </message>
    <message>
        <source>predicted for each model</source>
        <translation>按每个模型预测</translation>
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
    <message>
        <source>Adapted to %1: %2</source>
        <translation>已按 %1 调整：%2</translation>
    </message>
    <message>
        <source>Fix: %1</source>
        <translation>修复：%1</translation>
    </message>
    <message>
        <source>Fixed: %1</source>
        <translation>已修复：%1</translation>
    </message>
    <message>
        <source>Fix all problems</source>
        <translation>修复全部问题</translation>
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
    <message>
        <source>Fix</source>
        <translation>修复</translation>
    </message>
    <message>
        <source>Apply the repair of the selected problem (undoable).</source>
        <translation>对所选问题应用修复（可撤销）。</translation>
    </message>
    <message>
        <source>Fix all</source>
        <translation>全部修复</translation>
    </message>
    <message>
        <source>Apply every repair on offer, one undo step.</source>
        <translation>应用所有可用的修复，作为一步撤销。</translation>
    </message>
    <message>
        <source>Fix: %1</source>
        <translation>修复：%1</translation>
    </message>
    <message>
        <source>No automatic fix; change the field by hand.</source>
        <translation>没有自动修复；请手动修改该字段。</translation>
    </message>
    <message numerus="yes">
        <source>Fix all (%n)</source>
        <translation>
            <numerusform>全部修复（%n）</numerusform>
        </translation>
    </message>
    <message>
        <source>No automatic fix</source>
        <translation>无自动修复</translation>
    </message>
    <message>
        <source>Intra-node Gbit/s</source>
        <translation>节点内 Gbit/s</translation>
    </message>
    <message>
        <source>Link bandwidth per GPU inside a node, one direction, in Gbit/s; empty (catalog) = the accelerator&apos;s value from the hardware catalog (intra-node link above). DGX A100: NVLink3 300 GB/s = 2400 Gbit/s; DGX H100: NVLink4 450 GB/s = 3600 Gbit/s (NVIDIA datasheets, hardware catalog).</source>
        <translation>节点内每 GPU 的单向链路带宽，单位 Gbit/s；留空（目录）= 硬件目录中该加速器的数值（见上方的节点内链路）。DGX A100：NVLink3 300 GB/s = 2400 Gbit/s；DGX H100：NVLink4 450 GB/s = 3600 Gbit/s（NVIDIA 数据手册，硬件目录）。</translation>
    </message>
    <message>
        <source> Gbit/s</source>
        <translation> Gbit/s</translation>
    </message>
    <message>
        <source>catalog</source>
        <translation>目录</translation>
    </message>
    <message>
        <source>Inter-node Gbit/s</source>
        <translation>节点间 Gbit/s</translation>
    </message>
    <message>
        <source>Network bandwidth per GPU across nodes, one direction, in Gbit/s; empty (catalog) = the accelerator&apos;s value from the hardware catalog (inter-node link above). DGX A100: HDR InfiniBand 200 Gbit/s; DGX H100: NDR 400 Gbit/s (NVIDIA DGX datasheets).</source>
        <translation>跨节点每 GPU 的单向网络带宽，单位 Gbit/s；留空（目录）= 硬件目录中该加速器的数值（见上方的节点间链路）。DGX A100：HDR InfiniBand 200 Gbit/s；DGX H100：NDR 400 Gbit/s（NVIDIA DGX 数据手册）。</translation>
    </message>
    <message>
        <source>DP overlap</source>
        <translation>DP 通信重叠</translation>
    </message>
    <message>
        <source>Gradient all-reduce runs in buckets during the backward pass (PyTorch DDP, Megatron overlap_grad_reduce); only the last bucket stays exposed. Off: all of it follows backward, as older Megatron runs did. Default: on.</source>
        <translation>梯度 all-reduce 在反向传播期间分桶进行（PyTorch DDP、Megatron overlap_grad_reduce）；只有最后一个桶仍然暴露。关闭：全部在反向传播之后进行，如早期的 Megatron 训练。默认：开启。</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; is not a comma-separated list of layer counts (example: 5,6,6,5; empty: as even as possible)</source>
        <translation>%1：&apos;%2&apos; 不是以逗号分隔的层数列表（示例：5,6,6,5；留空：尽可能均匀）</translation>
    </message>
    <message>
        <source>MFU from</source>
        <translation>MFU 来源</translation>
    </message>
    <message>
        <source>given: the MFU typed below drives the time. predicted: the MFU follows from the predicted step time (operator-level kernel times + exposed communication + pipeline bubble; see the Validation page).</source>
        <translation>给定：由下方输入的 MFU 决定时间。预测：MFU 由预测的单步时间得出（算子级 kernel 时间 + 暴露的通信 + 流水线气泡；参见验证页）。</translation>
    </message>
    <message>
        <source>Layers per stage</source>
        <translation>每级层数</translation>
    </message>
    <message>
        <source>Transformer layers on each pipeline stage, stage 0 first, e.g. 7,8,8,7: one count per stage, summing to the model&apos;s layers. Empty: as even as possible, the extra layers on the middle stages so the first (embedding) and last (head, loss) are lighter, as Llama 3 405B ran 126 layers on 16 stages. Memory and time use the most loaded stage.</source>
        <translation>每个流水线级上的 Transformer 层数，从第 0 级开始，例如 7,8,8,7：每级一个数，总和等于模型层数。留空：尽可能均匀，多出的层放在中间各级，使第一级（嵌入）和最后一级（头、损失）更轻，正如 Llama 3 405B 将 126 层分布在 16 个级上。显存和时间按负载最重的一级计算。</translation>
    </message>
    <message>
        <source>automatic: as even as possible</source>
        <translation>自动：尽可能均匀</translation>
    </message>
    <message>
        <source>automatic: %1</source>
        <translation>自动：%1</translation>
    </message>
    <message>
        <source>Predicted MFU%1: model FLOPs / (GPUs · peak · predicted step time), the step from operator-level kernel times + exposed communication + pipeline bubble (see the Validation page). Choose &quot;given&quot; under &quot;MFU from&quot; to type an MFU; the typed value (%2) is kept.</source>
        <translation>预测的 MFU%1：模型 FLOPs / (GPU 数 · 峰值 · 预测的单步时间)，单步时间由算子级 kernel 时间 + 暴露的通信 + 流水线气泡得出（参见验证页）。在“MFU 来源”中选择“给定”即可输入 MFU；已输入的值（%2）会保留。</translation>
    </message>
    <message>
        <source>Memory per GPU the framework holds besides the model states and activations: the CUDA context, NCCL buffers and allocator fragmentation (default 4.1 GB, from published measurements; 0 counts the model&apos;s own memory only).</source>
        <translation>框架在模型状态和激活之外占用的每 GPU 显存：CUDA 上下文、NCCL 缓冲区和分配器碎片（默认 4.1 GB，取自公开测量；0 表示只计模型本身的显存）。</translation>
    </message>
    <message>
        <source>Attention kernel</source>
        <translation>注意力内核</translation>
    </message>
    <message>
        <source>The FlashAttention generation the step-time prediction times (with FlashAttention on): FlashAttention-2 (Dao 2023) or FlashAttention-3, Hopper&apos;s asynchronous warp-specialised kernel (Shah et al. 2024), each at its own fitted fraction of peak. Memory does not depend on it.</source>
        <translation>步时预测所用的 FlashAttention 版本（开启 FlashAttention 时）：FlashAttention-2（Dao 2023）或 FlashAttention-3，即 Hopper 上异步、warp 专用化的内核（Shah et al. 2024），各自按拟合的峰值比例计。内存不受其影响。</translation>
    </message>
    <message>
        <source>Fused element-wise</source>
        <translation>融合逐元素运算</translation>
    </message>
    <message>
        <source>On: element-wise chains (bias+GeLU, bias+dropout+add, scale+mask+softmax, norms) run as fused kernels whose intermediates stay on chip (Megatron-LM and Transformer Engine fused kernels, torch.compile); the predicted step streams each chain&apos;s bytes once. Off: one kernel per operator, as in eager PyTorch.</source>
        <translation>开启：逐元素链（bias+GeLU、bias+dropout+add、scale+mask+softmax、归一化）作为融合内核运行，中间结果留在片上（Megatron-LM 与 Transformer Engine 的融合内核，torch.compile）；预测步时对每条链的字节只流式读写一次。关闭：每个算子一个内核，如 eager 模式的 PyTorch。</translation>
    </message>
    <message>
        <source>Param gather overlap</source>
        <translation>参数收集重叠</translation>
    </message>
    <message>
        <source>ZeRO-1/2: the all-gather of the updated parameters runs bucket by bucket during the next step&apos;s first forward pass (Megatron-Core overlap_param_gather). Off: it follows the optimizer step, exposed. Default: on.</source>
        <translation>ZeRO-1/2：更新后参数的 all-gather 在下一步的第一次前向中逐桶进行（Megatron-Core overlap_param_gather）。关闭：它在优化器步之后进行，完全暴露。默认：开启。</translation>
    </message>
    <message>
        <source>TP comm overlap</source>
        <translation>TP 通信重叠</translation>
    </message>
    <message>
        <source>Each TP collective is split into tp chunks pipelined with the GEMM that produces or consumes it (Megatron-Core --tp-comm-overlap, PyTorch async TP; Wang et al. 2023): exposed = max(traffic / tp, traffic − the GEMMs&apos; time). Off: all of it is exposed, as in Megatron-LM of 2021/22. Default: off.</source>
        <translation>每个 TP 集合通信拆成 tp 块，与产生或使用它的 GEMM 流水进行（Megatron-Core --tp-comm-overlap，PyTorch 异步 TP；Wang et al. 2023）：暴露 = max(通信量 / tp, 通信量 − GEMM 时间)。关闭：全部暴露，如 2021/22 年的 Megatron-LM。默认：关闭。</translation>
    </message>
    <message>
        <source>PP comm overlap</source>
        <translation>PP 通信重叠</translation>
    </message>
    <message>
        <source>Pipeline sends and receives run while the next model chunk computes (Megatron-Core overlap_p2p_comm, interleaved schedule): only the first send of the step and the last receive are exposed. Default: off.</source>
        <translation>流水线发送与接收在下一个模型块计算时进行（Megatron-Core overlap_p2p_comm，交错调度）：只有该步的第一次发送和最后一次接收暴露。默认：关闭。</translation>
    </message>
</context>
<context>
    <name>lse::gui::SearchPage</name>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>Search options</source>
        <translation>搜索选项</translation>
    </message>
    <message>
        <source>&amp;Top:</source>
        <translation>显示前(&amp;T)：</translation>
    </message>
    <message>
        <source>How many of the fastest fitting layouts the table lists</source>
        <translation>表格列出多少个放得下的最快并行布局</translation>
    </message>
    <message>
        <source>ZeRO:</source>
        <translation>ZeRO：</translation>
    </message>
    <message>
        <source>ZeRO stages to try: 1 shards the optimizer states, 2 also the gradients, 3 also the weights over the data-parallel ranks (Rajbhandari et al. 2020)</source>
        <translation>要尝试的 ZeRO 阶段：1 在数据并行 rank 上分片优化器状态，2 再分片梯度，3 再分片权重（Rajbhandari et al. 2020）</translation>
    </message>
    <message>
        <source>Recompute:</source>
        <translation>重计算：</translation>
    </message>
    <message>
        <source>Try activation recomputation &apos;%1&apos; (Korthikanti et al. 2022: selective recomputes the attention core, full keeps only each layer&apos;s input)</source>
        <translation>尝试激活重计算“%1”（Korthikanti et al. 2022：选择性重计算只重算注意力核心，完全重计算只保存每层的输入）</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>&amp;Apply selected layout</source>
        <translation>应用所选并行布局(&amp;A)</translation>
    </message>
    <message>
        <source>Make the selected layout the scenario&apos;s (one undoable step); double-clicking a row does the same</source>
        <translation>将所选并行布局设为场景的并行布局（一步可撤销的操作）；双击某行效果相同</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>dp</source>
        <translation>dp</translation>
    </message>
    <message>
        <source>tp</source>
        <translation>tp</translation>
    </message>
    <message>
        <source>pp</source>
        <translation>pp</translation>
    </message>
    <message>
        <source>cp</source>
        <translation>cp</translation>
    </message>
    <message>
        <source>ep</source>
        <translation>ep</translation>
    </message>
    <message>
        <source>v</source>
        <translation>v</translation>
    </message>
    <message>
        <source>sp</source>
        <translation>sp</translation>
    </message>
    <message>
        <source>ZeRO</source>
        <translation>ZeRO</translation>
    </message>
    <message>
        <source>mb</source>
        <translation>微批</translation>
    </message>
    <message>
        <source>recomp.</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>mem/GPU</source>
        <translation>显存/GPU</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步时间</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>token/s</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>Data-parallel replicas</source>
        <translation>数据并行副本数</translation>
    </message>
    <message>
        <source>Tensor-parallel degree (Megatron column/row-parallel matmuls)</source>
        <translation>张量并行度（Megatron 列/行并行矩阵乘）</translation>
    </message>
    <message>
        <source>Pipeline stages</source>
        <translation>流水线阶段数</translation>
    </message>
    <message>
        <source>Context-parallel degree (sequence split in attention)</source>
        <translation>上下文并行度（在注意力中切分序列）</translation>
    </message>
    <message>
        <source>Expert-parallel degree (carved out of dp × cp)</source>
        <translation>专家并行度（从 dp × cp 中划分）</translation>
    </message>
    <message>
        <source>Virtual pipeline stages per GPU (interleaved 1F1B)</source>
        <translation>每 GPU 的虚拟流水线阶段数（交错式 1F1B）</translation>
    </message>
    <message>
        <source>Sequence parallelism (norms and dropout split over tp)</source>
        <translation>序列并行（归一化和 dropout 在 tp 上切分）</translation>
    </message>
    <message>
        <source>ZeRO stage over the data-parallel group</source>
        <translation>数据并行组上的 ZeRO 阶段</translation>
    </message>
    <message>
        <source>Micro-batch: sequences per forward pass per GPU</source>
        <translation>微批次：每 GPU 每次前向传播的序列数</translation>
    </message>
    <message>
        <source>Activation recomputation</source>
        <translation>激活重计算</translation>
    </message>
    <message>
        <source>The engine&apos;s memory per GPU (most loaded pipeline stage)</source>
        <translation>引擎估算的每 GPU 显存（负载最重的流水线阶段）</translation>
    </message>
    <message>
        <source>global batch · sequence length / step time</source>
        <translation>全局批大小 · 序列长度 / 步时间</translation>
    </message>
    <message>
        <source>%1 / %2 layouts</source>
        <translation>%1 / %2 个并行布局</translation>
    </message>
    <message>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>%1 (current)</source>
        <translation>%1（当前）</translation>
    </message>
    <message>
        <source>Apply layout %1</source>
        <translation>应用并行布局 %1</translation>
    </message>
    <message>
        <source>Memory per GPU vs throughput: no valid scenario yet</source>
        <translation>每 GPU 显存与吞吐量：尚无有效场景</translation>
    </message>
    <message>
        <source>The search could not run: %1</source>
        <translation>搜索无法运行：%1</translation>
    </message>
    <message>
        <source>Not run yet.</source>
        <translation>尚未运行。</translation>
    </message>
    <message>
        <source>No valid scenario yet.</source>
        <translation>尚无有效场景。</translation>
    </message>
    <message>
        <source>⚠ The scenario or the options changed since this search (it took %1 s, too long to re-run on every edit): the table shows the old results. Press Re-run.</source>
        <translation>⚠ 本次搜索之后场景或选项已更改（搜索耗时 %1 s，太久，无法在每次编辑后重新运行）：表格显示的是旧结果。请按“重新运行”。</translation>
    </message>
    <message>
        <source>⚠ The scenario or the options changed since this search: the table shows the old results. Press Re-run.</source>
        <translation>⚠ 本次搜索之后场景或选项已更改：表格显示的是旧结果。请按“重新运行”。</translation>
    </message>
    <message>
        <source>Current layout: %1</source>
        <translation>当前并行布局：%1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Current layout&lt;/b&gt; %1: step %2, %3 tokens/s, MFU %4, %5 per GPU (%6)</source>
        <translation>&lt;b&gt;当前并行布局&lt;/b&gt; %1：步时间 %2，%3 token/s，MFU %4，每 GPU %5（%6）</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>&amp;Re-run search</source>
        <translation>重新运行搜索(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Run search</source>
        <translation>运行搜索(&amp;R)</translation>
    </message>
    <message>
        <source>Ranked by the predicted step time: operator-level kernel times + exposed communication + pipeline bubble (the model the Validation page checks against published runs).</source>
        <translation>按预测的单步时间排序：算子级 kernel 时间 + 暴露的通信 + 流水线气泡（验证页将此模型与公布的训练运行进行对照）。</translation>
    </message>
    <message>
        <source>Every layout&apos;s memory is the engine&apos;s; the layouts that could rank are predicted with the accelerator&apos;s efficiency factors (hardware catalog), the rest are skipped by a lower bound on their step time.</source>
        <translation>每种布局的显存均由引擎计算；可能进入排名的布局使用加速器的效率因子（硬件目录）进行预测，其余布局根据单步时间下界直接跳过。</translation>
    </message>
    <message>
        <source>Evaluate every valid (dp, tp, pp, cp, ep, v, sp, ZeRO, micro-batch, recomputation) layout of the scenario&apos;s GPUs with the engine and rank them by predicted step time</source>
        <translation>用引擎评估场景中 GPU 的每一种有效布局（dp、tp、pp、cp、ep、v、sp、ZeRO、微批、重计算），并按预测的单步时间排序</translation>
    </message>
    <message>
        <source>Rank by predicted step time among the fitting layouts</source>
        <translation>在显存放得下的布局中按预测的单步时间排序</translation>
    </message>
    <message>
        <source>Predicted step: kernel times (compute) + optimizer + exposed communication + pipeline bubble</source>
        <translation>预测的单步时间：kernel 时间（计算）+ 优化器 + 暴露的通信 + 流水线气泡</translation>
    </message>
    <message>
        <source>Predicted MFU: model FLOPs / (GPUs · peak · predicted step time)</source>
        <translation>预测的 MFU：模型 FLOPs / (GPU 数 · 峰值 · 预测的单步时间)</translation>
    </message>
    <message>
        <source>%1 valid layouts evaluated in %2 s (%3 fit in memory, %4 predicted); the table lists the %5 fastest by predicted step time.</source>
        <translation>在 %2 s 内评估了 %1 种有效布局（%3 种放得下显存，%4 种已预测）；表中列出预测单步时间最快的 %5 种。</translation>
    </message>
    <message>
        <source>Time models: the predicted step implies &lt;b&gt;%1 MFU&lt;/b&gt;, about %2 days for the run; the Overview and Time pages use the scenario&apos;s &lt;b&gt;%3 MFU %4&lt;/b&gt;: %5 days.</source>
        <translation>时间模型：预测的单步时间对应 &lt;b&gt;%1 MFU&lt;/b&gt;，整个训练约需 %2 天；概览页和时间页使用场景的 &lt;b&gt;%3 MFU %4&lt;/b&gt;：%5 天。</translation>
    </message>
    <message numerus="yes">
        <source>Searching every layout of %Ln GPU(s)…</source>
        <translation>
            <numerusform>正在搜索 %Ln 块 GPU 的所有布局…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Cancelled after %Ln layout(s): partial results.</source>
        <translation>
            <numerusform>已在 %Ln 个布局后取消：结果不完整。</numerusform>
        </translation>
    </message>
    <message>
        <source>vs best</source>
        <translation>与最优比</translation>
    </message>
    <message>
        <source>≈ best: the predicted step is within the accelerator&apos;s error band p of the best layout&apos;s, t ≤ t_best · (1 + p), so the prediction cannot rank it below the best; p is the accelerator&apos;s leave-one-source-out 90th-percentile error (0 without published runs: only ties are marked)</source>
        <translation>≈ 最优：预测步时与最优布局的差距在加速器误差带 p 之内，t ≤ t_best · (1 + p)，预测无法判定它慢于最优；p 为该加速器留一来源误差的第 90 百分位（无公开运行时为 0：只标记并列）</translation>
    </message>
    <message>
        <source>best</source>
        <translation>最优</translation>
    </message>
    <message>
        <source>≈ best</source>
        <translation>≈ 最优</translation>
    </message>
    <message numerus="yes">
        <source>%n of them (≈ best) are within the prediction&apos;s error band (± %1) of the best: it cannot rank those apart.</source>
        <translation>
            <numerusform>其中 %n 个（≈ 最优）与最优的差距在预测误差带（± %1）之内：预测无法区分它们的先后。</numerusform>
        </translation>
    </message>
    <message>
        <source>No error band for this accelerator (%1): only ties with the best are marked.</source>
        <translation>此加速器没有误差带（%1）：只标记与最优并列的布局。</translation>
    </message>
</context>
<context>
    <name>lse::gui::SearchScatterChart</name>
    <message>
        <source>fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>Throughput (tokens/s)</source>
        <translation>吞吐量（token/s）</translation>
    </message>
    <message>
        <source>Memory per GPU (GB, log scale)</source>
        <translation>每 GPU 显存（GB，对数刻度）</translation>
    </message>
    <message>
        <source>Does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>Fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>Current layout</source>
        <translation>当前并行布局</translation>
    </message>
    <message>
        <source>#%1 fastest fitting layout</source>
        <translation>放得下的最快并行布局 #%1</translation>
    </message>
    <message>
        <source>Top %1</source>
        <translation>前 %1</translation>
    </message>
    <message>
        <source>capacity %1</source>
        <translation>容量 %1</translation>
    </message>
    <message>
        <source>Memory per GPU vs throughput: the search has not run yet (current layout only)</source>
        <translation>每 GPU 显存与吞吐量：尚未运行搜索（仅显示当前并行布局）</translation>
    </message>
    <message>
        <source>Memory per GPU vs throughput: %1 of %2 valid layouts fit; %3 sampled points</source>
        <translation>每 GPU 显存与吞吐量：%2 个有效并行布局中有 %1 个放得下；采样 %3 个点</translation>
    </message>
    <message>
        <source> (cancelled: partial)</source>
        <translation>（已取消：结果不完整）</translation>
    </message>
    <message>
        <source>predicted step = Σ kernel times of the busiest stage (forward, backward, recomputation) + optimizer + exposed communication + bubble (p − 1)/v · one micro-batch; tokens/s = global batch · s / step; memory = the engine&apos;s per-GPU total</source>
        <translation>预测单步时间 = 最繁忙流水线级的 Σ 内核时间（前向、反向、重计算）+ 优化器 + 暴露的通信 + 气泡 (p − 1)/v · 一个 micro-batch 时间；token/s = 全局批 · s / 单步时间；显存 = 引擎给出的每 GPU 总量</translation>
    </message>
    <message>
        <source>operator-level model, checked on published runs (Validation page); Narayanan et al. 2021 §2.2 (interleaved 1F1B bubble); Korthikanti et al. 2022 (activations, sequence parallelism); Rajbhandari et al. 2020 (ZeRO)</source>
        <translation>算子级模型，已用公布的运行验证（见“验证”页）；Narayanan et al. 2021 §2.2 (interleaved 1F1B bubble)；Korthikanti et al. 2022 (activations, sequence parallelism)；Rajbhandari et al. 2020 (ZeRO)</translation>
    </message>
    <message numerus="yes">
        <source>%Ln GPU(s), global batch %1 × %2 tokens, efficiency factors of %3 (hardware catalog)</source>
        <translation>
            <numerusform>%Ln 块 GPU，全局批 %1 × %2 个 token，效率因子取自 %3（硬件目录）</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;Within the band of the best&lt;/b&gt;: its predicted step is at most %1 slower than the best layout&apos;s, less than the prediction&apos;s error band, so the prediction cannot rank the two apart.</source>
        <translation>&lt;b&gt;在最优的误差带之内&lt;/b&gt;：其预测步时比最优布局最多慢 %1，小于预测的误差带，因此预测无法区分两者先后。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2&lt;br&gt;predicted step %3 = compute %4 + optimizer %11 + exposed communication %5 + bubble %6 + stragglers %12&lt;br&gt;%7 tokens/s, predicted MFU %8&lt;br&gt;memory %9 per GPU (%10)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2&lt;br&gt;预测步时 %3 = 计算 %4 + 优化器 %11 + 暴露通信 %5 + 气泡 %6 + 掉队者 %12&lt;br&gt;%7 token/秒，预测 MFU %8&lt;br&gt;每 GPU 内存 %9（%10）</translation>
    </message>
    <message>
        <source>Within ± %1 of the best (%2)</source>
        <translation>与最优相差 ± %1 以内（%2）</translation>
    </message>
    <message>
        <source>Ties with the best (no error band) (%1)</source>
        <translation>与最优并列（无误差带）（%1）</translation>
    </message>
</context>
<context>
    <name>lse::gui::ServingPage</name>
    <message>
        <source>Serve on %1</source>
        <translation>在 %1 上服务</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>GPUs: %1 is not a multiple of tp × pp = %2 (each replica of the model takes tp × pp GPUs)</source>
        <translation>GPU 数：%1 不是 tp × pp = %2 的倍数（每个模型副本占用 tp × pp 个 GPU）</translation>
    </message>
    <message>
        <source>Serving one model: prefill reads the prompt in one pass (time to first token), then every decode step reads all weights and the KV cache to make one token per sequence (time per output token). Decode is memory-bound until the batch is large enough; the model, the GPU and its price are the scenario&apos;s, the rest is set here. Hover any figure for its formula and source.</source>
        <translation>服务一个模型：预填充一次读完提示（首词元时间），之后每个解码步都要读取全部权重和 KV 缓存，为每个序列生成一个词元（每输出词元时间）。在批量足够大之前，解码受内存限制；模型、GPU 及其价格取自场景，其余在此设置。将鼠标悬停在任一数字上可查看其公式和来源。</translation>
    </message>
    <message>
        <source>&amp;GPU</source>
        <translation>GPU 型号(&amp;G)</translation>
    </message>
    <message>
        <source>The scenario&apos;s accelerator (changing it here changes the scenario, one undo step): dense peak per format, HBM capacity and bandwidth from its datasheet, and its serving factors (resources/hardware/serving_efficiency.json).</source>
        <translation>场景的加速器（在此修改会改变场景，可一步撤销）：各格式的稠密峰值、HBM 容量与带宽来自其数据手册，服务系数来自 resources/hardware/serving_efficiency.json。</translation>
    </message>
    <message>
        <source>GP&amp;Us</source>
        <translation>GPU 数(&amp;U)</translation>
    </message>
    <message>
        <source>GPUs in all: replicas × tp × pp. Replicas serve side by side, so tokens/s grows with them and tokens/s per GPU does not.</source>
        <translation>GPU 总数：副本数 × tp × pp。副本并排服务，因此词元/秒随副本数增长，而每 GPU 词元/秒不变。</translation>
    </message>
    <message>
        <source>&amp;tp</source>
        <translation>tp(&amp;T)</translation>
    </message>
    <message>
        <source>Tensor parallelism: each layer&apos;s heads and FFN split over tp GPUs, two all-reduces of batch × d_model activations per layer and step (Shoeybi et al. 2019 §3); ring all-reduce time 2(tp−1)·latency + 2(tp−1)/tp · bytes / bandwidth (Patarasuk &amp; Yuan 2009). tp must divide the heads.</source>
        <translation>张量并行：每层的头和 FFN 切分到 tp 个 GPU 上，每层每步两次对 批量 × d_model 激活的 all-reduce（Shoeybi et al. 2019 §3）；环形 all-reduce 时间 2(tp−1)·延迟 + 2(tp−1)/tp · 字节 / 带宽（Patarasuk &amp; Yuan 2009）。tp 必须整除头数。</translation>
    </message>
    <message>
        <source>&amp;pp</source>
        <translation>pp(&amp;P)</translation>
    </message>
    <message>
        <source>Pipeline parallelism: the layers in pp stages one after another for a request; the batch is cut into micro-batches that fill the stages (GPipe, Huang et al. 2019; hand-offs: Narayanan et al. 2021 §4.1).</source>
        <translation>流水线并行：对单个请求，各层分成 pp 个阶段依次执行；批量被切成微批次来填满各阶段（GPipe，Huang et al. 2019；交接：Narayanan et al. 2021 §4.1）。</translation>
    </message>
    <message>
        <source>&amp;Batch</source>
        <translation>批量(&amp;B)</translation>
    </message>
    <message>
        <source>Concurrent sequences per replica (a static batch). Decode reads the weights once per step for the whole batch: intensity ≈ batch FLOP/B per weight byte, so the weight matmuls turn compute-bound at the roofline&apos;s crossover batch. The KV cache grows with it: 2 · layers · KV heads · head_dim · (prompt + output) · bytes per sequence (Kwon et al. 2023 §3).</source>
        <translation>每个副本的并发序列数（静态批量）。解码每步为整个批量只读一次权重：强度 ≈ 每权重字节 批量 FLOP/B，因此权重矩阵乘在 roofline 的交叉批量处变为计算受限。KV 缓存随之增长：每序列 2 · 层数 · KV 头数 · head_dim · (提示 + 输出) · 字节（Kwon et al. 2023 §3）。</translation>
    </message>
    <message>
        <source>P&amp;rompt tokens</source>
        <translation>提示词元(&amp;R)</translation>
    </message>
    <message>
        <source>Tokens per prompt: prefill processes them in one pass (compute-bound GEMMs of batch × prompt rows).</source>
        <translation>每个提示的词元数：预填充一次处理完（批量 × 提示 行的计算受限 GEMM）。</translation>
    </message>
    <message>
        <source>&amp;Output tokens</source>
        <translation>输出词元(&amp;O)</translation>
    </message>
    <message>
        <source>Tokens generated per sequence: the first comes with prefill, each further one is a decode step attending to the prompt and the tokens so far.</source>
        <translation>每个序列生成的词元数：第一个随预填充产生，之后每个都是一个解码步，关注提示及已生成的词元。</translation>
    </message>
    <message>
        <source>&amp;Weights</source>
        <translation>权重(&amp;W)</translation>
    </message>
    <message>
        <source>Format the linear layers&apos; weights are stored in (embedding and norms stay 16-bit). INT4 (g128) stores 4 bits plus one fp16 scale per 128 weights = 0.515625 bytes (GPTQ, Frantar et al. 2023 §5; AWQ, Lin et al. 2024); int8 one scale per output channel (LLM.int8(), Dettmers et al. 2022).</source>
        <translation>线性层权重的存储格式（嵌入与归一化保持 16 位）。INT4 (g128) 存 4 位，外加每 128 个权重一个 fp16 缩放因子 = 0.515625 字节（GPTQ，Frantar et al. 2023 §5；AWQ，Lin et al. 2024）；int8 每个输出通道一个缩放因子（LLM.int8()，Dettmers et al. 2022）。</translation>
    </message>
    <message>
        <source>&amp;Activations</source>
        <translation>激活(&amp;A)</translation>
    </message>
    <message>
        <source>Format of the activations. With 8-bit weights and activations the matmuls run at the 8-bit tensor-core peak (W8A8, SmoothQuant, Xiao et al. 2023); otherwise weights are dequantised in the kernel and multiplied in 16 bits.</source>
        <translation>激活的格式。权重和激活都是 8 位时，矩阵乘以 8 位张量核心峰值运行（W8A8，SmoothQuant，Xiao et al. 2023）；否则权重在 kernel 中反量化，并以 16 位相乘。</translation>
    </message>
    <message>
        <source>&amp;KV cache</source>
        <translation>KV 缓存(&amp;K)</translation>
    </message>
    <message>
        <source>Format of the cached keys and values: 8 bits halve the KV bytes decode reads each step and the memory each sequence holds (vLLM, Kwon et al. 2023).</source>
        <translation>缓存的键和值的格式：8 位使解码每步读取的 KV 字节和每个序列占用的内存减半（vLLM，Kwon et al. 2023）。</translation>
    </message>
    <message>
        <source>&amp;FlashAttention</source>
        <translation>&amp;FlashAttention</translation>
    </message>
    <message>
        <source>FlashAttention (Dao et al. 2022) keeps the score matrix in on-chip SRAM: prefill attention moves far fewer bytes, and the workspace has no s × s scores.</source>
        <translation>FlashAttention（Dao et al. 2022）把得分矩阵留在片上 SRAM：预填充注意力移动的字节少得多，工作区也没有 s × s 的得分。</translation>
    </message>
    <message>
        <source>KV read per &amp;query head</source>
        <translation>按查询头读取 KV(&amp;Q)</translation>
    </message>
    <message>
        <source>Decode attention reads the KV cache once per query head (FasterTransformer, TensorRT-LLM&apos;s masked MHA before XQA) instead of once per KV head (vLLM, FlashDecoding, XQA): n_heads / n_kv_heads times the KV traffic of a grouped-query model.</source>
        <translation>解码注意力对每个查询头读一次 KV 缓存（FasterTransformer、XQA 之前的 TensorRT-LLM masked MHA），而不是对每个 KV 头读一次（vLLM、FlashDecoding、XQA）：对分组查询模型，KV 流量是 n_heads / n_kv_heads 倍。</translation>
    </message>
    <message>
        <source>&amp;Draft model</source>
        <translation>草稿模型(&amp;D)</translation>
    </message>
    <message>
        <source>Speculative decoding (Leviathan, Kalman &amp; Matias 2023): a small draft model proposes γ tokens, the target checks them in one step. Its step time, on the same GPUs, gives c = draft TPOT / target TPOT.</source>
        <translation>推测解码（Leviathan, Kalman &amp; Matias 2023）：小的草稿模型提出 γ 个词元，目标模型在一步内检查它们。草稿在同一组 GPU 上的步时给出 c = 草稿 TPOT / 目标 TPOT。</translation>
    </message>
    <message>
        <source>&amp;γ</source>
        <translation>&amp;γ</translation>
    </message>
    <message>
        <source>γ: tokens the draft proposes per target step. Expected tokens per target step (1 − α^(γ+1)) / (1 − α) (Leviathan et al. 2023, eq. 1).</source>
        <translation>γ：每个目标步草稿提出的词元数。每个目标步的期望词元数 (1 − α^(γ+1)) / (1 − α)（Leviathan et al. 2023，式 1）。</translation>
    </message>
    <message>
        <source>α (acc&amp;eptance)</source>
        <translation>α（接受率）(&amp;E)</translation>
    </message>
    <message>
        <source>α: probability the target keeps a drafted token (i.i.d., Leviathan et al. 2023 §3.1). Speedup (1 − α^(γ+1)) / ((1 − α)(γc + 1)) (their Theorem 3.8). α depends on how well the draft matches the target on your traffic: measure it.</source>
        <translation>α：目标模型保留一个草稿词元的概率（独立同分布，Leviathan et al. 2023 §3.1）。加速比 (1 − α^(γ+1)) / ((1 − α)(γc + 1))（其定理 3.8）。α 取决于草稿在你的流量上与目标的匹配程度：请实测。</translation>
    </message>
    <message>
        <source>expected grouped|per-query-head</source>
        <translation>应为 grouped|per-query-head</translation>
    </message>
    <message>
        <source>Serving</source>
        <translation>服务</translation>
    </message>
    <message>
        <source>No valid scenario yet: fix the scenario in the editor.</source>
        <translation>尚无有效场景：请在编辑器中修正场景。</translation>
    </message>
    <message>
        <source>Choose a draft model to see the speculative speedup.</source>
        <translation>选择一个草稿模型以查看推测解码的加速比。</translation>
    </message>
    <message>
        <source>Latency vs throughput: no sweep</source>
        <translation>延迟与吞吐：无扫描结果</translation>
    </message>
    <message>
        <source>Serving: %1</source>
        <translation>服务：%1</translation>
    </message>
    <message>
        <source>Speculative decoding: %1</source>
        <translation>推测解码：%1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Prefill and decode on the roofline&lt;/b&gt;: one GPU&apos;s share of each operator. Prefill&apos;s matmuls sit right of the ridge (compute-bound); at small batches decode&apos;s sit far left of it, waiting for the weights to stream from HBM.</source>
        <translation>&lt;b&gt;预填充与解码在 roofline 上&lt;/b&gt;：每个算子在单 GPU 上的份额。预填充的矩阵乘位于脊点右侧（计算受限）；小批量时解码的矩阵乘远在其左侧，等待权重从 HBM 流入。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Quantisation&lt;/b&gt;: what the chosen formats save and cost in bytes against 16-bit storage of the same model on the same GPUs.</source>
        <translation>&lt;b&gt;量化&lt;/b&gt;：与同一模型在同一组 GPU 上的 16 位存储相比，所选格式在字节上节省和付出的代价。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Speculative decoding&lt;/b&gt;: the draft proposes γ tokens, the target checks them in one step. The speedup needs a high acceptance α and a cheap draft (small c); below the dashed line it slows decode down.</source>
        <translation>&lt;b&gt;推测解码&lt;/b&gt;：草稿提出 γ 个词元，目标在一步内检查它们。加速需要高接受率 α 和廉价的草稿（小的 c）；低于虚线时它反而会拖慢解码。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Where the end-to-end time goes&lt;/b&gt;: the named parts add up to the latency of one request (TTFT + decode); hover a row for its formula and source.</source>
        <translation>&lt;b&gt;端到端时间花在哪里&lt;/b&gt;：各命名部分相加即为一个请求的延迟（TTFT + 解码）；将鼠标悬停在某行上可查看其公式和来源。</translation>
    </message>
    <message>
        <source>Cannot serve this: %1</source>
        <translation>无法服务：%1</translation>
    </message>
    <message numerus="yes">
        <source>%1 on %2 × %3 (tp %4, pp %5, %n replica(s)); matmuls at the %6 peak; serving factors: %7.</source>
        <translation>
            <numerusform>%1 运行于 %2 × %3（tp %4，pp %5，%n 个副本）；矩阵乘按 %6 峰值；服务系数：%7。</numerusform>
        </translation>
    </message>
    <message>
        <source>fitted on published measurements</source>
        <translation>在公开测量上拟合</translation>
    </message>
    <message>
        <source>not calibrated (defaults)</source>
        <translation>未校准（默认值）</translation>
    </message>
    <message>
        <source>The model does not fit even at batch 1: %1 of weights, KV cache, workspace and reserve per GPU against %2. Use more tp or pp, or a smaller weight format.</source>
        <translation>即使批量为 1 模型也放不下：每 GPU 需要 %1 的权重、KV 缓存、工作区和预留，而容量为 %2。请增大 tp 或 pp，或使用更小的权重格式。</translation>
    </message>
    <message>
        <source>Batch %1 does not fit: %2 per GPU against %3. The largest batch that fits is %4; the figures below are for batch %1 as if it did.</source>
        <translation>批量 %1 放不下：每 GPU %2，而容量为 %3。可容纳的最大批量为 %4；下方数字按批量 %1 假设能放下计算。</translation>
    </message>
    <message>
        <source>Time to first token</source>
        <translation>首词元时间</translation>
    </message>
    <message>
        <source>Time per output token</source>
        <translation>每输出词元时间</translation>
    </message>
    <message>
        <source>Output tokens/s per GPU</source>
        <translation>每 GPU 输出词元/秒</translation>
    </message>
    <message>
        <source>Largest batch that fits</source>
        <translation>可容纳的最大批量</translation>
    </message>
    <message>
        <source>Cost per million output tokens</source>
        <translation>每百万输出词元成本</translation>
    </message>
    <message>
        <source>Memory per GPU</source>
        <translation>每 GPU 内存</translation>
    </message>
    <message>
        <source>compute_fraction %1, bandwidth_fraction %2, kernel launch %3, host step %4 (%5)</source>
        <translation>compute_fraction %1，bandwidth_fraction %2，kernel 启动 %3，主机步 %4（%5）</translation>
    </message>
    <message>
        <source>Williams et al. 2009 (roofline); operators: core/roofline from core/ops</source>
        <translation>Williams et al. 2009（roofline）；算子：core/roofline，来自 core/ops</translation>
    </message>
    <message>
        <source>prefill of %1 × %2 tokens</source>
        <translation>预填充 %1 × %2 个词元</translation>
    </message>
    <message>
        <source>TTFT = (m + pp − 1)/pp · (Σ prefill operators max(FLOPs / (peak · compute_fraction), bytes / (bandwidth · bandwidth_fraction)) + 2 · layers · tp all-reduce + kernels · launch) + hand-offs + host step</source>
        <translation>TTFT = (m + pp − 1)/pp · (Σ 预填充算子 max(FLOPs / (峰值 · compute_fraction), 字节 / (带宽 · bandwidth_fraction)) + 2 · 层数 · tp all-reduce + kernel 数 · 启动) + 交接 + 主机步</translation>
    </message>
    <message numerus="yes">
        <source>mean over %n decode step(s)</source>
        <translation>
            <numerusform>%n 个解码步的平均值</numerusform>
        </translation>
    </message>
    <message>
        <source>with the draft: %1 (%2× faster)</source>
        <translation>使用草稿：%1（快 %2×）</translation>
    </message>
    <message>
        <source>TPOT = decode time / (output − 1); a decode step = Σ operators max(compute, memory) at its context + 2 · layers · tp all-reduce + pp hand-offs + kernels · launch + host step; batch 1 is at least weights / HBM bandwidth</source>
        <translation>TPOT = 解码时间 / (输出 − 1)；一个解码步 = 在其上下文处 Σ 算子 max(计算, 内存) + 2 · 层数 · tp all-reduce + pp 交接 + kernel 数 · 启动 + 主机步；批量 1 至少为 权重 / HBM 带宽</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>词元/秒</translation>
    </message>
    <message>
        <source>%1 in all; MBU %2, MFU %3</source>
        <translation>总计 %1；MBU %2，MFU %3</translation>
    </message>
    <message>
        <source>output tokens/s = replicas · batch · output tokens / (TTFT + decode); per GPU ÷ GPUs. MBU = decode bytes / (decode time · HBM bandwidth · GPUs); MFU = matmul FLOPs / (time · peak · GPUs)</source>
        <translation>输出词元/秒 = 副本数 · 批量 · 输出词元 / (TTFT + 解码)；每 GPU 再 ÷ GPU 数。MBU = 解码字节 / (解码时间 · HBM 带宽 · GPU 数)；MFU = 矩阵乘 FLOPs / (时间 · 峰值 · GPU 数)</translation>
    </message>
    <message>
        <source>MBU: Databricks 2023, &apos;LLM inference performance engineering&apos;; MFU: Chowdhery et al. 2022 (PaLM) App. B</source>
        <translation>MBU：Databricks 2023，《LLM inference performance engineering》；MFU：Chowdhery et al. 2022（PaLM）附录 B</translation>
    </message>
    <message>
        <source>decode compute-bound from batch %1</source>
        <translation>从批量 %1 起解码受计算限制</translation>
    </message>
    <message>
        <source>decode memory-bound up to 2²⁴</source>
        <translation>直到 2²⁴ 解码都受内存限制</translation>
    </message>
    <message>
        <source>the largest batch whose weights + KV cache at prompt + output tokens + workspace + reserve ≤ the GPU&apos;s memory; crossover: the batch from which every decode weight matmul&apos;s intensity reaches the ridge point</source>
        <translation>满足 权重 + 提示加输出词元下的 KV 缓存 + 工作区 + 预留 ≤ GPU 内存 的最大批量；交叉点：从该批量起，每个解码权重矩阵乘的强度都达到脊点</translation>
    </message>
    <message>
        <source>KV cache: Kwon et al. 2023 (vLLM) §3; ridge point: Williams et al. 2009</source>
        <translation>KV 缓存：Kwon et al. 2023（vLLM）§3；脊点：Williams et al. 2009</translation>
    </message>
    <message numerus="yes">
        <source>at %1 per GPU-hour × %n GPU(s)</source>
        <translation>
            <numerusform>每 GPU 小时 %1 × %n 个 GPU</numerusform>
        </translation>
    </message>
    <message>
        <source>cost = price per GPU-hour · GPUs / 3600 / output tokens/s · 10⁶</source>
        <translation>成本 = 每 GPU 小时价格 · GPU 数 / 3600 / 输出词元每秒 · 10⁶</translation>
    </message>
    <message>
        <source>the scenario&apos;s GPU price (Cluster → price per GPU-hour)</source>
        <translation>场景的 GPU 价格（集群 → 每 GPU 小时价格）</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>可容纳</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>weights %1, KV cache %2, workspace %3, reserve %4</source>
        <translation>权重 %1，KV 缓存 %2，工作区 %3，预留 %4</translation>
    </message>
    <message>
        <source>tensor-parallel all-reduces</source>
        <translation>张量并行 all-reduce</translation>
    </message>
    <message>
        <source>pipeline hand-offs</source>
        <translation>流水线交接</translation>
    </message>
    <message>
        <source>kernel launches</source>
        <translation>kernel 启动</translation>
    </message>
    <message>
        <source>host overhead per step</source>
        <translation>每步主机开销</translation>
    </message>
    <message>
        <source>prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <source>decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <source>weight matmuls</source>
        <translation>权重矩阵乘</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>element-wise, norms, embedding</source>
        <translation>逐元素、归一化、嵌入</translation>
    </message>
    <message>
        <source>compute-bound</source>
        <translation>计算受限</translation>
    </message>
    <message>
        <source>memory-bound</source>
        <translation>内存受限</translation>
    </message>
    <message>
        <source>%1: %2 (%3)</source>
        <translation>%1：%2（%3）</translation>
    </message>
    <message>
        <source>Part</source>
        <translation>部分</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Share of end to end</source>
        <translation>占端到端比例</translation>
    </message>
    <message>
        <source>End to end</source>
        <translation>端到端</translation>
    </message>
    <message>
        <source>TTFT + decode = the sum of the parts</source>
        <translation>TTFT + 解码 = 各部分之和</translation>
    </message>
    <message>
        <source>core/inference serve()</source>
        <translation>core/inference serve()</translation>
    </message>
    <message>
        <source>end to end (TTFT %1 + decode %2)</source>
        <translation>端到端（TTFT %1 + 解码 %2）</translation>
    </message>
    <message>
        <source>Tensor</source>
        <translation>张量</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>Bytes per element</source>
        <translation>每元素字节</translation>
    </message>
    <message>
        <source>Per GPU</source>
        <translation>每 GPU</translation>
    </message>
    <message>
        <source>16-bit per GPU</source>
        <translation>16 位时每 GPU</translation>
    </message>
    <message>
        <source>Saved per GPU</source>
        <translation>每 GPU 节省</translation>
    </message>
    <message>
        <source>weights (linear layers)</source>
        <translation>权重（线性层）</translation>
    </message>
    <message>
        <source>KV cache (end of generation)</source>
        <translation>KV 缓存（生成结束时）</translation>
    </message>
    <message>
        <source>activation workspace</source>
        <translation>激活工作区</translation>
    </message>
    <message>
        <source>INT4 (g128): 4 bits + one fp16 scale per 128 weights = 0.515625 bytes (GPTQ §5, AWQ); int8 and fp8: 1 byte (per-channel scales, under 0.05 %, left out); embedding and norms stay 16-bit</source>
        <translation>INT4 (g128)：4 位 + 每 128 个权重一个 fp16 缩放因子 = 0.515625 字节（GPTQ §5，AWQ）；int8 和 fp8：1 字节（逐通道缩放因子不到 0.05 %，忽略）；嵌入和归一化保持 16 位</translation>
    </message>
    <message>
        <source>2 · layers · ⌈KV heads / tp⌉ · head_dim · bytes per element · (prompt + output) · batch (Kwon et al. 2023, vLLM §3)</source>
        <translation>2 · 层数 · ⌈KV 头数 / tp⌉ · head_dim · 每元素字节 · (提示 + 输出) · 批量（Kwon et al. 2023，vLLM §3）</translation>
    </message>
    <message>
        <source>the largest prefill operator&apos;s activations and the residual stream at the activation format</source>
        <translation>最大预填充算子的激活与残差流，按激活格式</translation>
    </message>
    <message>
        <source>%1 (16-bit: %2)</source>
        <translation>%1（16 位：%2）</translation>
    </message>
    <message>
        <source>costs %1</source>
        <translation>多占 %1</translation>
    </message>
    <message>
        <source>Against 16-bit: largest batch %1 instead of %2; TTFT %3 instead of %4; TPOT %5 instead of %6 (matmuls at %7 instead of %8).</source>
        <translation>与 16 位相比：最大批量 %1（16 位为 %2）；TTFT %3（16 位为 %4）；TPOT %5（16 位为 %6）（矩阵乘按 %7，16 位为 %8）。</translation>
    </message>
    <message>
        <source>4-bit weights need a careful method (GPTQ, AWQ: error-compensating rounding, activation-aware scales); their papers report small losses on large models, larger ones on small models and on some tasks such as code, maths and long contexts.</source>
        <translation>4 位权重需要细致的方法（GPTQ、AWQ：误差补偿的舍入、感知激活的缩放）；其论文报告大模型上损失很小，小模型以及代码、数学和长上下文等任务上损失更大。</translation>
    </message>
    <message>
        <source>8-bit weights with per-channel (int8) or per-tensor (fp8) scales are usually close to 16-bit.</source>
        <translation>采用逐通道（int8）或逐张量（fp8）缩放的 8 位权重通常接近 16 位。</translation>
    </message>
    <message>
        <source>int8 activations meet outlier channels (Dettmers et al. 2022): they need smoothing (SmoothQuant) or mixed precision, or quality drops.</source>
        <translation>int8 激活会遇到离群通道（Dettmers et al. 2022）：需要平滑（SmoothQuant）或混合精度，否则质量下降。</translation>
    </message>
    <message>
        <source>fp8 activations need scales calibrated on representative data.</source>
        <translation>fp8 激活需要在有代表性的数据上校准缩放因子。</translation>
    </message>
    <message>
        <source>An 8-bit KV cache adds a rounding error to every cached key and value; its effect grows with the context length.</source>
        <translation>8 位 KV 缓存给每个缓存的键和值带来舍入误差；其影响随上下文长度增长。</translation>
    </message>
    <message>
        <source>All 16-bit: no quantisation error to weigh against the bytes.</source>
        <translation>全部 16 位：没有需要与字节权衡的量化误差。</translation>
    </message>
    <message>
        <source>Accuracy (no figure here: it depends on the model, the method and the task; measure it on your own evaluation): %1</source>
        <translation>精度（此处不给数字：它取决于模型、方法和任务；请在你自己的评测上测量）：%1</translation>
    </message>
</context>
<context>
    <name>lse::gui::ServingValidationView</name>
    <message>
        <source>first-token latency (ms)</source>
        <translation>首词元延迟（ms）</translation>
    </message>
    <message>
        <source>output tokens/s per GPU</source>
        <translation>每 GPU 输出词元/秒</translation>
    </message>
    <message>
        <source>decode latency per token (ms)</source>
        <translation>每词元解码延迟（ms）</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>The serving model (the Serving page, `llm-explorer-cli infer`) against published inference measurements: TensorRT-LLM&apos;s static-batch throughput and batch-1 first-token latency on A100, H100, H200 and L40S, and kipply&apos;s FasterTransformer 13B latencies. Each figure is one comparison; the serving factors are one set per accelerator and precision, fitted on these figures, so the held-out error (each source predicted by factors fitted without it) is the one to expect on a new setup.</source>
        <translation>服务模型（服务页面，`llm-explorer-cli infer`）对比公开的推理测量：TensorRT-LLM 在 A100、H100、H200 和 L40S 上的静态批量吞吐和批量 1 首词元延迟，以及 kipply 的 FasterTransformer 13B 延迟。每个数字是一次比较；服务系数每个加速器和精度一组，在这些数字上拟合，因此留出误差（每个来源用不含它拟合的系数预测）才是新配置上应预期的误差。</translation>
    </message>
    <message>
        <source>Figure</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Accelerator / precision</source>
        <translation>加速器 / 精度</translation>
    </message>
    <message>
        <source>Published</source>
        <translation>公开值</translation>
    </message>
    <message>
        <source>Predicted</source>
        <translation>预测值</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>误差</translation>
    </message>
    <message>
        <source>Held out</source>
        <translation>留出</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Compute held-out errors</source>
        <translation>计算留出误差</translation>
    </message>
    <message>
        <source>Stop the leave-one-source-out fits before the next source</source>
        <translation>在下一个来源之前停止留一来源拟合</translation>
    </message>
    <message>
        <source>Fit the serving factors once per source without that source&apos;s figures and predict them (about a second per source, in the background)</source>
        <translation>每次去掉一个来源的数字拟合服务系数并预测它们（每个来源约一秒，在后台进行）</translation>
    </message>
    <message>
        <source>Leave one source out: %v / %m sources</source>
        <translation>留一来源：%v / %m 个来源</translation>
    </message>
    <message>
        <source>The serving validation could not be computed: %1</source>
        <translation>无法计算服务验证：%1</translation>
    </message>
    <message>
        <source>Serving validation: computed when the tab is shown</source>
        <translation>服务验证：在显示此标签页时计算</translation>
    </message>
    <message>
        <source>Predicted vs published serving figures: not computed yet</source>
        <translation>预测与公开的服务数字：尚未计算</translation>
    </message>
    <message>
        <source>error = (predicted − published) / published</source>
        <translation>误差 = (预测 − 公开) / 公开</translation>
    </message>
    <message>
        <source>resources/validation/published_inference.json</source>
        <translation>resources/validation/published_inference.json</translation>
    </message>
    <message numerus="yes">
        <source>%n published figure(s): mean |error| %1, worst %2 (%3) with the catalog&apos;s serving factors (fitted to these figures)</source>
        <translation>
            <numerusform>%n 个公开数字：使用目录服务系数（在这些数字上拟合）时平均 |误差| %1，最差 %2（%3）</numerusform>
        </translation>
    </message>
    <message>
        <source>held out (leave one source out): computing…</source>
        <translation>留出（留一来源）：计算中…</translation>
    </message>
    <message numerus="yes">
        <source>held out (leave one source out, %n figure(s)): mean %1, worst %2 (%3)</source>
        <translation>
            <numerusform>留出（留一来源，%n 个数字）：平均 %1，最差 %2（%3）</numerusform>
        </translation>
    </message>
    <message>
        <source>held out: not computed (%1)</source>
        <translation>留出：未计算（%1）</translation>
    </message>
    <message>
        <source>show this tab to start</source>
        <translation>显示此标签页即开始</translation>
    </message>
    <message>
        <source>Figures</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>Mean / worst</source>
        <translation>平均 / 最差</translation>
    </message>
    <message>
        <source>held out: %1</source>
        <translation>留出：%1</translation>
    </message>
    <message numerus="yes">
        <source>Serving: predicted vs published (%n figure(s))</source>
        <translation>
            <numerusform>服务：预测与公开（%n 个数字）</numerusform>
        </translation>
    </message>
    <message>
        <source>Published (ms or tokens/s, log scale)</source>
        <translation>公开值（ms 或词元/秒，对数坐标）</translation>
    </message>
    <message>
        <source>Predicted (same unit, log scale)</source>
        <translation>预测值（同一单位，对数坐标）</translation>
    </message>
    <message>
        <source>error = (predicted − published) / published; the model: serve() with the catalog&apos;s serving factors per accelerator and precision</source>
        <translation>误差 = (预测 − 公开) / 公开；模型：serve()，按加速器和精度使用目录的服务系数</translation>
    </message>
    <message>
        <source>resources/validation/published_inference.json (TensorRT-LLM performance.md and blogs, kipply 2022, LLM-Viewer issue #4); core/validation/serving_validation</source>
        <translation>resources/validation/published_inference.json（TensorRT-LLM performance.md 与博客、kipply 2022、LLM-Viewer issue #4）；core/validation/serving_validation</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2: published %3, predicted %4, error %5%6</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2：公开 %3，预测 %4，误差 %5%6</translation>
    </message>
    <message>
        <source>; held out %1</source>
        <translation>；留出 %1</translation>
    </message>
    <message>
        <source>y = x</source>
        <translation>y = x</translation>
    </message>
    <message>
        <source>±10 %</source>
        <translation>±10 %</translation>
    </message>
    <message numerus="yes">
        <source>%n figure(s) from %1 source(s)</source>
        <translation>
            <numerusform>%n 个数字，来自 %1 个来源</numerusform>
        </translation>
    </message>
    <message>
        <source>several</source>
        <translation>若干</translation>
    </message>
    <message>
        <source>%1&lt;br&gt;source: %2</source>
        <translation>%1&lt;br&gt;来源：%2</translation>
    </message>
    <message>
        <source>computing…</source>
        <translation>计算中…</translation>
    </message>
</context>
<context>
    <name>lse::gui::StaleBanner</name>
    <message numerus="yes">
        <source>Showing the last valid scenario — %n problem(s) in the current one (see the editor).</source>
        <translation>
            <numerusform>正在显示上一个有效场景——当前场景中有 %n 个问题（见编辑器）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>No valid scenario yet — %n problem(s) in the current one (see the editor).</source>
        <translation>
            <numerusform>尚无有效场景——当前场景中有 %n 个问题（见编辑器）。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::StaleTemporaryPrompt</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Files left by an interrupted run</source>
        <translation>中断的运行留下的文件</translation>
    </message>
    <message numerus="yes">
        <source>%n unfinished file(s) from an interrupted save or export are lying beside the file being written. They are not used by anything. Remove them?</source>
        <translation>
            <numerusform>正在写入的文件旁边有 %n 个中断的保存或导出留下的未完成文件，它们不被任何东西使用。要删除吗？</numerusform>
        </translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Keep</source>
        <translation>保留</translation>
    </message>
    <message>
        <source>Some files were not removed</source>
        <translation>有些文件未被删除</translation>
    </message>
</context>
<context>
    <name>lse::gui::StepPlayer</name>
    <message>
        <source>◀ Back</source>
        <translation>◀ 上一步</translation>
    </message>
    <message>
        <source>Step ▶</source>
        <translation>下一步 ▶</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <source>Play or pause the animation (Space)</source>
        <translation>播放或暂停动画（空格键）</translation>
    </message>
</context>
<context>
    <name>lse::gui::TensorErrorText</name>
    <message>
        <source>the view&apos;s sizes and strides do not fit the input: dimension %1 (size %2, stride %3) cannot be merged with dimension(s) %4 (%5 elements, innermost stride %6): merging needs stride[%1] = %7 × %8 = %9, but it is %10, so no single stride walks the new dimension %11 (size %12) across them. Use reshape (which copies) or contiguous() first</source>
        <translation>view 的尺寸和步长与输入不匹配：维度 %1（大小 %2，步长 %3）无法与维度 %4（%5 个元素，最内层步长 %6）合并：合并要求 stride[%1] = %7 × %8 = %9，但实际为 %10，因此没有一个步长能跨越它们遍历新维度 %11（大小 %12）。请先用 reshape（会复制）或 contiguous()</translation>
    </message>
    <message>
        <source>the view&apos;s sizes and strides do not fit the input: the new shape %1 has dimensions left over</source>
        <translation>view 的尺寸和步长与输入不匹配：新形状 %1 有多余的维度</translation>
    </message>
    <message>
        <source>%1 = %2 is out of range for a %3-dimensional tensor (expected %4 to %5)</source>
        <translation>%1 = %2 超出 %3 维张量的范围（应为 %4 到 %5）</translation>
    </message>
    <message>
        <source>permute needs one dim per dimension (%1), got %2</source>
        <translation>permute 需要为每个维度给出一个 dim（%1 个），实际给了 %2 个</translation>
    </message>
    <message>
        <source>dimension %1 appears twice; permute needs each once</source>
        <translation>维度 %1 出现了两次；permute 要求每个维度恰好出现一次</translation>
    </message>
    <message>
        <source>a 0-dimensional tensor cannot be sliced</source>
        <translation>0 维张量不能切片</translation>
    </message>
    <message>
        <source>step = %1 must be positive (PyTorch has no negative strides)</source>
        <translation>step = %1 必须为正（PyTorch 没有负步长）</translation>
    </message>
    <message>
        <source>step = %1 makes the stride larger than 2^41</source>
        <translation>step = %1 使步长超过 2^41</translation>
    </message>
    <message>
        <source>a 0-dimensional tensor cannot be narrowed</source>
        <translation>0 维张量不能 narrow</translation>
    </message>
    <message>
        <source>start = %1 is out of range for dimension %2 of size %3</source>
        <translation>start = %1 超出维度 %2（大小 %3）的范围</translation>
    </message>
    <message>
        <source>start (%1) + length (%2) exceeds the size %4 of dimension %3 (or length is negative)</source>
        <translation>start（%1）+ length（%2）超过维度 %3 的大小 %4（或 length 为负）</translation>
    </message>
    <message>
        <source>the number of sizes (%1) must be at least the tensor&apos;s dimensions (%2)</source>
        <translation>尺寸个数（%1）不能少于张量的维数（%2）</translation>
    </message>
    <message>
        <source>at most %1 dimensions</source>
        <translation>最多 %1 个维度</translation>
    </message>
    <message>
        <source>size %1 at position %2 must equal the existing size %3 of dimension %4 (only size-1 dimensions can be expanded)</source>
        <translation>位置 %2 的大小 %1 必须等于维度 %4 现有的大小 %3（只有大小为 1 的维度可以 expand）</translation>
    </message>
    <message>
        <source>-1 is not allowed at position %1, a new leading dimension (there is no size to keep)</source>
        <translation>位置 %1 是新的前导维度，不能用 -1（没有可保留的大小）</translation>
    </message>
    <message>
        <source>size %1 at position %2 is negative</source>
        <translation>位置 %2 的大小 %1 为负</translation>
    </message>
    <message>
        <source>the expanded tensor would have more than 2^40 elements</source>
        <translation>expand 后的张量将超过 2^40 个元素</translation>
    </message>
    <message>
        <source>start_dim (%1) must not come after end_dim (%2)</source>
        <translation>start_dim（%1）不能在 end_dim（%2）之后</translation>
    </message>
    <message>
        <source>t() expects a tensor with at most 2 dimensions, but this one has %1 (use transpose or permute)</source>
        <translation>t() 要求张量最多 2 维，但此张量有 %1 维（请用 transpose 或 permute）</translation>
    </message>
    <message>
        <source>only one dimension can be inferred (-1), but shape %1 has two</source>
        <translation>只能推断一个维度（-1），但形状 %1 有两个</translation>
    </message>
    <message>
        <source>size %1 of dimension %2 is invalid (sizes are ≥ 0, or -1 to infer)</source>
        <translation>维度 %2 的大小 %1 无效（大小应 ≥ 0，或用 -1 推断）</translation>
    </message>
    <message>
        <source>cannot reshape a tensor of %1 elements into shape %2 because the -1 could be any value</source>
        <translation>无法把 %1 个元素的张量 reshape 为形状 %2，因为 -1 可以是任意值</translation>
    </message>
    <message>
        <source>shape %1 is invalid for input of size %2 (%3 is not a multiple of %4)</source>
        <translation>形状 %1 对大小为 %2 的输入无效（%3 不是 %4 的倍数）</translation>
    </message>
    <message>
        <source>shape %1 is invalid for input of size %2 (it has %3 elements)</source>
        <translation>形状 %1 对大小为 %2 的输入无效（它有 %3 个元素）</translation>
    </message>
    <message>
        <source>shape %1 is invalid for input of size %2</source>
        <translation>形状 %1 对大小为 %2 的输入无效</translation>
    </message>
    <message>
        <source>unknown operation</source>
        <translation>未知操作</translation>
    </message>
</context>
<context>
    <name>lse::gui::TensorLayoutChart</name>
    <message>
        <source>%1 → storage index = offset + Σ i·stride = %2 = %3</source>
        <translation>%1 → 存储索引 = offset + Σ i·stride = %2 = %3</translation>
    </message>
    <message>
        <source>%1 elements over a storage of %2: too large to draw (the table lists every step)</source>
        <translation>%1 个元素，存储大小 %2：过大无法绘制（表格列出了每一步）</translation>
    </message>
    <message>
        <source>logical view: shape %1, strides %2, offset %3</source>
        <translation>逻辑视图：形状 %1，步长 %2，偏移 %3</translation>
    </message>
    <message>
        <source>value %1</source>
        <translation>值 %1</translation>
    </message>
    <message>
        <source>element of the view</source>
        <translation>视图的元素</translation>
    </message>
    <message>
        <source>storage[%1] = %2, read by %3</source>
        <translation>storage[%1] = %2，被 %3 读取</translation>
    </message>
    <message>
        <source>storage[%1] = %2, not used by this view</source>
        <translation>storage[%1] = %2，此视图未使用</translation>
    </message>
    <message>
        <source>storage used by the view</source>
        <translation>视图使用的存储</translation>
    </message>
    <message>
        <source>storage not used by the view</source>
        <translation>视图未使用的存储</translation>
    </message>
    <message numerus="yes">
        <source>original storage (%n element(s)): no longer used, the view reads a copy</source>
        <translation>
            <numerusform>原始存储（%n 个元素）：已不再使用，视图读取的是副本</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>storage of copy #%1 (%n element(s)), contiguous</source>
        <translation>
            <numerusform>副本 #%1 的存储（%n 个元素），连续</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>storage (%n element(s)), shared with the original tensor</source>
        <translation>
            <numerusform>存储（%n 个元素），与原张量共享</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::TensorViewsSection</name>
    <message>
        <source>Export the steps as CSV</source>
        <translation>将步骤导出为 CSV</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Views and copies</source>
        <translation>视图与复制</translation>
    </message>
    <message>
        <source>A tensor is a strided view of a 1-D storage: element (i, j, …) lives at offset + i·stride₀ + j·stride₁ + …. transpose, permute, slice, expand and friends only change shape, strides and offset. view must express the new shape with strides over the same elements, so it can only merge dimensions that are contiguous with each other; reshape copies where view cannot, and contiguous() copies only when the layout is not already row-major. Type an op and press Enter.</source>
        <translation>张量是一维存储上的跨步视图：元素 (i, j, …) 位于 offset + i·stride₀ + j·stride₁ + …。transpose、permute、slice、expand 等操作只改变形状、步长和偏移。view 必须在相同元素上用步长表达新形状，因此只能合并彼此连续的维度；view 做不到时 reshape 会复制，而 contiguous() 仅在布局不是行主序时才复制。输入一个操作并按 Enter。</translation>
    </message>
    <message>
        <source>Shape:</source>
        <translation>形状：</translation>
    </message>
    <message>
        <source>Up to %1 dimensions and %2 elements, e.g. 2,3,4</source>
        <translation>最多 %1 个维度、%2 个元素，例如 2,3,4</translation>
    </message>
    <message>
        <source>Strides:</source>
        <translation>步长：</translation>
    </message>
    <message>
        <source>contiguous</source>
        <translation>连续</translation>
    </message>
    <message>
        <source>Strides in elements, one per dimension; empty for row-major (contiguous)</source>
        <translation>以元素为单位的步长，每个维度一个；留空表示行主序（连续）</translation>
    </message>
    <message>
        <source>Offset:</source>
        <translation>偏移：</translation>
    </message>
    <message>
        <source>Bytes per element:</source>
        <translation>每元素字节数：</translation>
    </message>
    <message>
        <source>Op:</source>
        <translation>操作：</translation>
    </message>
    <message>
        <source>e.g. transpose(0,1), view(6,4), slice(1,0,3,2), expand(2,-1,-1), .T</source>
        <translation>例如 transpose(0,1)、view(6,4)、slice(1,0,3,2)、expand(2,-1,-1)、.T</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Remove last</source>
        <translation>移除最后一个</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <source>Export table (CSV)…</source>
        <translation>导出表格（CSV）…</translation>
    </message>
    <message>
        <source>Shape &apos;%1&apos; must be sizes separated by commas, e.g. 2,3,4</source>
        <translation>形状“%1”必须是以逗号分隔的尺寸，例如 2,3,4</translation>
    </message>
    <message>
        <source>Strides &apos;%1&apos; must be integers separated by commas, or empty for contiguous</source>
        <translation>步长“%1”必须是以逗号分隔的整数，或留空表示连续</translation>
    </message>
    <message>
        <source>Shape %1 has %2 dimensions; this tab draws up to %3</source>
        <translation>形状 %1 有 %2 个维度；本页最多绘制 %3 个</translation>
    </message>
    <message>
        <source>Shape %1 has %2 elements over a storage of %3; this tab draws up to %4 elements and a storage of %5 (the CLI&apos;s tensor command takes any size)</source>
        <translation>形状 %1 有 %2 个元素，存储大小为 %3；本页最多绘制 %4 个元素、存储大小 %5（CLI 的 tensor 命令不限大小）</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Strides</source>
        <translation>步长</translation>
    </message>
    <message>
        <source>Offset</source>
        <translation>偏移</translation>
    </message>
    <message>
        <source>Contiguous</source>
        <translation>连续</translation>
    </message>
    <message>
        <source>Shares storage</source>
        <translation>共享存储</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>已复制</translation>
    </message>
    <message>
        <source>Copy traffic</source>
        <translation>复制流量</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>start</source>
        <translation>起始</translation>
    </message>
    <message>
        <source>%1 read + %2 written</source>
        <translation>读取 %1 + 写入 %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;Why %1 is impossible:&lt;/b&gt; %2</source>
        <translation>&lt;b&gt;为何 %1 不可行：&lt;/b&gt;%2</translation>
    </message>
    <message>
        <source>%1 would copy here instead: %2 read and %3 written.</source>
        <translation>此处 %1 会改为复制：读取 %2，写入 %3。</translation>
    </message>
    <message numerus="yes">
        <source>%n later op(s) not applied: the chain stops at the error.</source>
        <translation>
            <numerusform>后续 %n 个操作未执行：操作链在错误处停止。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 copied into a new storage: %2 read and %3 written (%4 bytes per element).</source>
        <translation>%1 已复制到新存储：读取 %2，写入 %3（每元素 %4 字节）。</translation>
    </message>
    <message>
        <source>The starting tensor and its storage</source>
        <translation>起始张量及其存储</translation>
    </message>
    <message>
        <source>Step %1, %2, is impossible: the input it was applied to</source>
        <translation>第 %1 步（%2）不可行：其所作用的输入</translation>
    </message>
    <message>
        <source>After step %1, %2</source>
        <translation>第 %1 步（%2）之后</translation>
    </message>
    <message>
        <source>shape %1, strides %2 (elements), offset %3</source>
        <translation>形状 %1，步长 %2（元素），偏移 %3</translation>
    </message>
    <message>
        <source>address(i₀, …, iₙ₋₁) = offset + Σₖ iₖ·strideₖ; view needs strideₖ = sizeₖ₊₁·strideₖ₊₁ between every pair of dimensions it merges</source>
        <translation>address(i₀, …, iₙ₋₁) = offset + Σₖ iₖ·strideₖ；view 要求在其合并的每对相邻维度之间满足 strideₖ = sizeₖ₊₁·strideₖ₊₁</translation>
    </message>
    <message>
        <source>PyTorch ATen: computeStride (TensorUtils.cpp), is_contiguous</source>
        <translation>PyTorch ATen: computeStride (TensorUtils.cpp), is_contiguous</translation>
    </message>
    <message>
        <source>%1: %2, got %3</source>
        <translation>%1：%2，实际为 %3</translation>
    </message>
    <message>
        <source>%1: unknown setting (expected %2)</source>
        <translation>%1：未知设置（应为 %2）</translation>
    </message>
    <message>
        <source>expected sizes separated by commas, e.g. &quot;2,3,4&quot;</source>
        <translation>应为以逗号分隔的尺寸，例如 &quot;2,3,4&quot;</translation>
    </message>
    <message>
        <source>expected strides separated by commas, or &quot;&quot; for contiguous</source>
        <translation>应为以逗号分隔的步长，或用 &quot;&quot; 表示连续</translation>
    </message>
    <message>
        <source>expected an integer from %1 to %2</source>
        <translation>应为 %1 到 %2 之间的整数</translation>
    </message>
    <message>
        <source>expected an array of operations such as &quot;transpose(0, 1)&quot;</source>
        <translation>应为操作数组，例如 &quot;transpose(0, 1)&quot;</translation>
    </message>
    <message>
        <source>expected an array of strings</source>
        <translation>应为字符串数组</translation>
    </message>
    <message>
        <source>expected an integer from 0 (the start) to %1</source>
        <translation>应为 0（开头）到 %1 之间的整数</translation>
    </message>
</context>
<context>
    <name>lse::gui::TensorsPage</name>
    <message>
        <source>Tensors</source>
        <translation>张量</translation>
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
        <source>Current scenario</source>
        <translation>当前场景</translation>
    </message>
    <message>
        <source>N_gpu = %1: %2 days</source>
        <translation>N_gpu = %1：%2 天</translation>
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
        <source>C = %1 (%2), N_gpu = %3, peak = %4 per GPU (PaLM 540B reached an MFU of 46.2 %)</source>
        <translation>C = %1（%2），N_gpu = %3，每 GPU 峰值 = %4（PaLM 540B 的 MFU 达到 46.2%）</translation>
    </message>
    <message>
        <source>Calibrate MFU…</source>
        <translation>校准 MFU…</translation>
    </message>
    <message>
        <source>Fit the accelerator&apos;s efficiency to a step time or TFLOP/s you measured</source>
        <translation>根据你实测的单步时间或 TFLOP/s 拟合加速器的效率</translation>
    </message>
    <message>
        <source>days = C / (N_gpu · peak · MFU) / 86,400 s, the MFU predicted at each GPU count (operator-level kernel times + exposed communication + pipeline bubble; see the Validation page)</source>
        <translation>天数 = C / (N_gpu · peak · MFU) / 86,400 s，MFU 为各 GPU 数量下的预测值（算子级 kernel 时间 + 暴露的通信 + 流水线气泡；参见验证页）</translation>
    </message>
    <message>
        <source>N_gpu = %1 (dp = %2): %3 days, %4 GPU-hours, cost %5, MFU %6 (%7)</source>
        <translation>N_gpu = %1 (dp = %2)：%3 天，%4 GPU 小时，成本 %5，MFU %6（%7）</translation>
    </message>
    <message>
        <source>tp·pp·cp = %7·%8·%9 kept, dp scaled; C = %1 (%2), peak = %3 per GPU, MFU = %4 (%10), global batch %5, micro-batch %6</source>
        <translation>保持 tp·pp·cp = %7·%8·%9，缩放 dp；C = %1（%2），每 GPU 峰值 = %3，MFU = %4（%10），全局批大小 %5，微批 %6</translation>
    </message>
    <message>
        <source>MFU %1 (%3): %2 days</source>
        <translation>MFU %1（%3）：%2 天</translation>
    </message>
    <message>
        <source> — current: step %1 s, %2 days%3</source>
        <translation> — 当前：步时 %1 秒，%2 天%3</translation>
    </message>
    <message>
        <source>; error band ± %1 (%2)</source>
        <translation>；误差带 ± %1（%2）</translation>
    </message>
    <message>
        <source>; %1</source>
        <translation>；%1</translation>
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
        <source>HF: %1</source>
        <translation>HF：%1</translation>
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
    <message>
        <source>the merge replay needs a trained tokenizer (&quot;train&quot;: true in an earlier step)</source>
        <translation>合并重放需要已训练的分词器（在之前的步骤中设置 &quot;train&quot;: true）</translation>
    </message>
    <message>
        <source>a training is already running</source>
        <translation>已有训练正在运行</translation>
    </message>
    <message>
        <source>GPT-2 (bundled)</source>
        <translation>GPT-2（内置）</translation>
    </message>
    <message>
        <source>Not available: the bundled GPT-2 files could not be copied to %1.</source>
        <translation>不可用：无法将内置的 GPT-2 文件复制到 %1。</translation>
    </message>
</context>
<context>
    <name>lse::gui::TracePage</name>
    <message>
        <source>Trace</source>
        <translation>性能追踪</translation>
    </message>
    <message>
        <source>Open Trace…</source>
        <translation>打开追踪…</translation>
    </message>
    <message>
        <source>Open one PyTorch profiler trace (.json or .json.gz), or several: one rank each (Ctrl+Shift+O; or drop the files on this page)</source>
        <translation>打开一个 PyTorch 性能分析器 trace（.json 或 .json.gz），或多个：每个文件一个 rank（Ctrl+Shift+O；或把文件拖放到本页）</translation>
    </message>
    <message>
        <source>Open the Sample Trace</source>
        <translation>打开示例追踪</translation>
    </message>
    <message>
        <source>Rank 0 of a 128-GPU training job (NVIDIA A100, NCCL, shapes recorded), from Holistic Trace Analysis&apos;s test data (MIT licence)</source>
        <translation>一个 128 GPU 训练任务的 rank 0（NVIDIA A100，NCCL，记录了形状），来自 Holistic Trace Analysis 的测试数据（MIT 许可）</translation>
    </message>
    <message>
        <source>&amp;Rank:</source>
        <translation>进程号(&amp;R)：</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>Breakdown</source>
        <translation>时间分解</translation>
    </message>
    <message>
        <source>Kernels and operators</source>
        <translation>内核与算子</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>次数</translation>
    </message>
    <message>
        <source>Time (ms)</source>
        <translation>时间（ms）</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>FLOPs</source>
        <translation>浮点运算数</translation>
    </message>
    <message>
        <source>Achieved FLOP/s</source>
        <translation>实际 FLOP/s</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>The sample trace is missing from the resources (%1).</source>
        <translation>资源中缺少示例 trace（%1）。</translation>
    </message>
    <message>
        <source>Open Trace</source>
        <translation>打开追踪</translation>
    </message>
    <message>
        <source>PyTorch profiler traces (*.json *.json.gz *.pt.trace.json *.pt.trace.json.gz);;All files (*)</source>
        <translation>PyTorch 性能分析器 trace (*.json *.json.gz *.pt.trace.json *.pt.trace.json.gz);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Loading %1 was cancelled; the trace shown before is kept.</source>
        <translation>已取消加载 %1；保留之前显示的 trace。</translation>
    </message>
    <message>
        <source>%1 could not be read; the trace shown before is kept:</source>
        <translation>无法读取 %1；保留之前显示的 trace：</translation>
    </message>
    <message>
        <source>rank %1 · %2</source>
        <translation>rank %1 · %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;Open a PyTorch profiler trace&lt;/b&gt; to see where a real run&apos;s time went: the timeline of every GPU stream, each step split into compute, exposed communication, memory copies and idle time (host-bound or waiting), the kernels and operators that took the time, and on the Roofline page the kernels beside the prediction.&lt;br&gt;Record one with &lt;code&gt;torch.profiler.profile(activities=[CPU, CUDA], record_shapes=True)&lt;/code&gt; and &lt;code&gt;prof.export_chrome_trace(&quot;trace.json&quot;)&lt;/code&gt; (or its tensorboard handler&apos;s &lt;code&gt;.pt.trace.json.gz&lt;/code&gt;). Open or drop one file, or several (one rank each), or start with the sample.</source>
        <translation>&lt;b&gt;打开一个 PyTorch 性能分析器 trace&lt;/b&gt;，看看真实运行的时间花在哪里：每个 GPU 流的时间线，每一步拆分为计算、未掩盖的通信、内存拷贝和空闲时间（受主机限制或等待），占用时间的内核和算子，以及在“屋顶线”页面上与预测并列的内核。&lt;br&gt;用 &lt;code&gt;torch.profiler.profile(activities=[CPU, CUDA], record_shapes=True)&lt;/code&gt; 和 &lt;code&gt;prof.export_chrome_trace(&quot;trace.json&quot;)&lt;/code&gt;（或其 tensorboard 处理器写出的 &lt;code&gt;.pt.trace.json.gz&lt;/code&gt;）录制。打开或拖放一个文件，或多个（每个一个 rank），或从示例开始。</translation>
    </message>
    <message>
        <source>A PyTorch profiler trace: the GPU&apos;s time per step after Holistic Trace Analysis, the kernels by class and the operators that launched them. Hover a bar for its figures.</source>
        <translation>一个 PyTorch 性能分析器 trace：按 Holistic Trace Analysis 的方法分解每一步的 GPU 时间，按类别列出内核以及发射它们的算子。把鼠标停在横条上可查看数值。</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>rank %1 of %2</source>
        <translation>rank %1 / 共 %2 个</translation>
    </message>
    <message numerus="yes">
        <source>%Ln ProfilerStep(s)</source>
        <translation>
            <numerusform>%Ln 个 ProfilerStep 步</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 kernels (%2 ms summed)</source>
        <translation>%1 个内核（合计 %2 ms）</translation>
    </message>
    <message>
        <source>GPU busy %1 of the window, communication overlap %2</source>
        <translation>GPU 忙碌占窗口的 %1，通信重叠 %2</translation>
    </message>
    <message>
        <source>none (no NCCL kernels)</source>
        <translation>无（没有 NCCL 内核）</translation>
    </message>
    <message>
        <source>CPU-only trace: no GPU activity, the operators are timed on the CPU</source>
        <translation>仅 CPU 的 trace：没有 GPU 活动，算子按 CPU 上的时间计</translation>
    </message>
    <message>
        <source>recorded without shapes: no FLOPs</source>
        <translation>录制时未记录形状：没有 FLOPs</translation>
    </message>
    <message>
        <source>&lt;b&gt;Classification:&lt;/b&gt; %1 of %2 GPU activities unknown (%3): their names match no rule and no matrix-multiply or attention operator launched them.</source>
        <translation>&lt;b&gt;分类：&lt;/b&gt;%2 个 GPU 活动中有 %1 个未知（%3）：它们的名称不匹配任何规则，也不是由矩阵乘或注意力算子发射的。</translation>
    </message>
    <message>
        <source>tab: expected %1, got &apos;%2&apos;</source>
        <translation>tab：应为 %1，实际为“%2”</translation>
    </message>
    <message>
        <source>rank: expected an index from 0, got &apos;%1&apos;</source>
        <translation>rank：应为从 0 开始的索引，实际为“%1”</translation>
    </message>
    <message>
        <source>sample: expected true or false</source>
        <translation>sample：应为 true 或 false</translation>
    </message>
    <message>
        <source>FLOP</source>
        <translation>FLOP</translation>
    </message>
    <message>
        <source>FLOP/s</source>
        <translation>FLOP/s</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Top %Ln kernel(s) by GPU time&lt;/b&gt; (share of all GPU activity time; achieved FLOP/s = FLOPs of the linked operators&apos; shapes ÷ summed duration):</source>
        <translation>
            <numerusform>&lt;b&gt;按 GPU 时间排名前 %Ln 的内核&lt;/b&gt;（占全部 GPU 活动时间的比例；实际 FLOP/s = 关联算子形状的 FLOPs ÷ 时长之和）：</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Operators&lt;/b&gt; by the GPU time of the kernels they launched (%Ln row(s), one per name, class and shape):</source>
        <translation>
            <numerusform>&lt;b&gt;算子&lt;/b&gt;，按其发射的内核的 GPU 时间排序（%Ln 行，每个名称、类别和形状一行）：</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Operators&lt;/b&gt; by their self time on the CPU (%Ln row(s), one per name and shape):</source>
        <translation>
            <numerusform>&lt;b&gt;算子&lt;/b&gt;，按其在 CPU 上的自身时间排序（%Ln 行，每个名称和形状一行）：</numerusform>
        </translation>
    </message>
    <message>
        <source>Measured vs predicted</source>
        <translation>实测与预测</translation>
    </message>
    <message>
        <source>%1: not a setting of this page (tab, rank, sample, accelerator, compare)</source>
        <translation>%1：不是本页面的设置（tab、rank、sample、accelerator、compare）</translation>
    </message>
    <message>
        <source>compare: expected true or false</source>
        <translation>compare：应为 true 或 false</translation>
    </message>
    <message>
        <source>accelerator: expected trace or a hardware catalog id, got &apos;%1&apos;</source>
        <translation>accelerator：应为 trace 或硬件目录中的 id，实际为“%1”</translation>
    </message>
    <message numerus="yes">
        <source>communication on the CPU: %Ln call(s), %1 ms, %2</source>
        <translation>
            <numerusform>CPU 上的通信：%Ln 次调用，%1 ms，%2</numerusform>
        </translation>
    </message>
    <message>
        <source>CPU operators</source>
        <translation>CPU 算子</translation>
    </message>
    <message>
        <source>Also draw each CPU thread&apos;s top-level operators and those one level in on the timeline (a CPU-only trace always shows them)</source>
        <translation>在时间线上同时画出每个 CPU 线程的顶层算子及其下一层算子（仅 CPU 的 trace 总是显示它们）</translation>
    </message>
</context>
<context>
    <name>lse::gui::TracePredictionSection</name>
    <message>
        <source>GEMM</source>
        <translation>GEMM 矩阵乘</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>memory-bound</source>
        <translation>受内存带宽限制</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>other kernels</source>
        <translation>其他内核</translation>
    </message>
    <message>
        <source>communication (exposed)</source>
        <translation>通信（未被掩盖）</translation>
    </message>
    <message>
        <source>memory copies</source>
        <translation>内存拷贝</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>convolution</source>
        <translation>卷积</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Predicted kernels</source>
        <translation>预测的内核</translation>
    </message>
    <message>
        <source>Slower than predicted</source>
        <translation>比预测更慢</translation>
    </message>
    <message>
        <source>Kernels the model lacks</source>
        <translation>模型中没有的内核</translation>
    </message>
    <message>
        <source>Concurrent kernels</source>
        <translation>并发内核</translation>
    </message>
    <message>
        <source>Exposed communication</source>
        <translation>未掩盖的通信</translation>
    </message>
    <message>
        <source>Memory copies</source>
        <translation>内存拷贝</translation>
    </message>
    <message>
        <source>Idle, host-bound</source>
        <translation>空闲，受主机限制</translation>
    </message>
    <message>
        <source>Idle, waiting</source>
        <translation>空闲，等待中</translation>
    </message>
    <message>
        <source>&amp;Accelerator:</source>
        <translation>加速器(&amp;A)：</translation>
    </message>
    <message>
        <source>The trace&apos;s device: %1</source>
        <translation>追踪中的设备：%1</translation>
    </message>
    <message>
        <source>The trace&apos;s device (not in the catalog: pick one)</source>
        <translation>追踪中的设备（不在目录中：请选择一个）</translation>
    </message>
    <message>
        <source>The GPU whose predicted GEMM kernel times the trace&apos;s calls are compared with: the trace&apos;s deviceProperties name when the hardware catalog has it</source>
        <translation>与追踪中的调用相比较的预测 GEMM 内核时间所用的 GPU：硬件目录中有该型号时，使用追踪的 deviceProperties 名称</translation>
    </message>
    <message>
        <source>&amp;Compare with the current scenario</source>
        <translation>与当前场景比较(&amp;C)</translation>
    </message>
    <message>
        <source>Match the trace&apos;s kernels to the operators of the scenario&apos;s predicted step (model, layout and accelerator from the editor): by class and shape, per step</source>
        <translation>把追踪中的内核与场景预测的一步中的算子对应起来（模型、并行布局和加速器取自编辑器）：按类别和形状，逐步进行</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>调用次数</translation>
    </message>
    <message>
        <source>Measured (ms)</source>
        <translation>实测（ms）</translation>
    </message>
    <message>
        <source>Predicted (ms)</source>
        <translation>预测（ms）</translation>
    </message>
    <message>
        <source>Measured ÷ predicted</source>
        <translation>实测 ÷ 预测</translation>
    </message>
    <message>
        <source>Achieved FLOP/s</source>
        <translation>实际 FLOP/s</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Predicted calls</source>
        <translation>预测调用次数</translation>
    </message>
    <message>
        <source>Measured calls</source>
        <translation>实测调用次数</translation>
    </message>
    <message>
        <source>The trace&apos;s device &apos;%1&apos; is not in the hardware catalog: pick the accelerator to predict its GEMM calls on.</source>
        <translation>追踪中的设备“%1”不在硬件目录中：请选择用于预测其 GEMM 调用的加速器。</translation>
    </message>
    <message>
        <source>A CPU-only trace has no GPU kernels to compare with a GPU prediction.</source>
        <translation>仅 CPU 的追踪没有可与 GPU 预测比较的 GPU 内核。</translation>
    </message>
    <message>
        <source>&lt;b&gt;GEMM calls on %1:&lt;/b&gt; none with recorded shapes (record_shapes=True) and a floating-point type.</source>
        <translation>&lt;b&gt;%1 上的 GEMM 调用：&lt;/b&gt;没有记录了形状（record_shapes=True）且为浮点类型的调用。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 GEMM calls on %2&lt;/b&gt; beside the engine&apos;s GEMM kernel time (tiles, waves, the catalog&apos;s efficiency): measured %3 ms, predicted %4 ms; measured ÷ predicted per call: median %5 (10th–90th percentile %6–%7, extremes %8–%9)%10.</source>
        <translation>&lt;b&gt;%2 上的 %1 次 GEMM 调用&lt;/b&gt;与引擎的 GEMM 内核时间（分块、波次、目录中的效率）并列：实测 %3 ms，预测 %4 ms；每次调用的实测 ÷ 预测：中位数 %5（第 10–90 百分位 %6–%7，极值 %8–%9）%10。</translation>
    </message>
    <message>
        <source>; %1 calls without a usable shape or type skipped</source>
        <translation>；跳过了 %1 次没有可用形状或类型的调用</translation>
    </message>
    <message>
        <source>FLOP/s</source>
        <translation>FLOP/s</translation>
    </message>
    <message>
        <source>GEMM calls: measured against predicted</source>
        <translation>GEMM 调用：实测对比预测</translation>
    </message>
    <message>
        <source>Predicted per call (µs, log scale)</source>
        <translation>每次调用的预测时间（µs，对数刻度）</translation>
    </message>
    <message>
        <source>Measured per call (µs, log scale)</source>
        <translation>每次调用的实测时间（µs，对数刻度）</translation>
    </message>
    <message>
        <source>predicted = the engine&apos;s GEMM kernel time for (batch, m, n, k) and the kernel&apos;s dtype peak; measured = summed durations of the GEMM kernels the call launched</source>
        <translation>预测 = 引擎对 (batch, m, n, k) 和该内核数据类型峰值给出的 GEMM 内核时间；实测 = 该调用发射的 GEMM 内核时长之和</translation>
    </message>
    <message>
        <source>core/traces/trace_vs_prediction (performance::gemmTime; catalog efficiency factors)</source>
        <translation>core/traces/trace_vs_prediction（performance::gemmTime；目录中的效率系数）</translation>
    </message>
    <message>
        <source>GEMM shapes</source>
        <translation>GEMM 形状</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 %2&lt;/b&gt; (%3, ×%4)&lt;br&gt;predicted %5 µs, measured %6 µs per call: ratio %7&lt;br&gt;%8</source>
        <translation>&lt;b&gt;%1 %2&lt;/b&gt;（%3，×%4）&lt;br&gt;每次调用预测 %5 µs，实测 %6 µs：比值 %7&lt;br&gt;%8</translation>
    </message>
    <message>
        <source>measured = predicted</source>
        <translation>实测 = 预测</translation>
    </message>
    <message>
        <source>Check &lt;i&gt;Compare with the current scenario&lt;/i&gt; to match the trace&apos;s kernels to the predicted step of the scenario in the editor (set its model, layout and accelerator to the traced run&apos;s).</source>
        <translation>勾选&lt;i&gt;与当前场景比较&lt;/i&gt;，把追踪中的内核与编辑器中场景的预测步对应起来（请把场景的模型、并行布局和加速器设为被追踪运行的配置）。</translation>
    </message>
    <message>
        <source>No trace with GPU kernels to compare.</source>
        <translation>没有含 GPU 内核的追踪可供比较。</translation>
    </message>
    <message>
        <source>The comparison cannot be made: %1</source>
        <translation>无法进行比较：%1</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Beside the predicted step&lt;/b&gt; (%1 on %2, %3; %Ln step(s) averaged): measured step %4 ms, predicted %5 ms; MFU (matrix-multiply FLOPs at %6): measured %7, predicted %8.</source>
        <translation>
            <numerusform>&lt;b&gt;与预测步并列&lt;/b&gt;（%1 在 %2 上，%3；对 %Ln 步取平均）：实测每步 %4 ms，预测 %5 ms；MFU（矩阵乘 FLOPs，峰值 %6）：实测 %7，预测 %8。</numerusform>
        </translation>
    </message>
    <message>
        <source>forward pass</source>
        <translation>前向传播</translation>
    </message>
    <message>
        <source>training step</source>
        <translation>训练步</translation>
    </message>
    <message>
        <source> (split)</source>
        <translation>（拆分）</translation>
    </message>
    <message>
        <source>Per class, per step: measured and predicted</source>
        <translation>按类别、每步：实测与预测</translation>
    </message>
    <message>
        <source>Time per step (ms)</source>
        <translation>每步时间（ms）</translation>
    </message>
    <message>
        <source>measured = summed kernel durations per step (communication and copies exposed, as in the breakdown); predicted = the scenario&apos;s predicted operators of that class</source>
        <translation>实测 = 每步内核时长之和（通信和拷贝按未掩盖部分计，与时间分解相同）；预测 = 场景中该类别的预测算子</translation>
    </message>
    <message>
        <source>core/traces/trace_vs_prediction (compareWithPrediction, performance::predictStep)</source>
        <translation>core/traces/trace_vs_prediction（compareWithPrediction，performance::predictStep）</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>Predicted</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 %3 ms per step</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：%2 每步 %3 ms</translation>
    </message>
    <message>
        <source>core/traces/trace_vs_prediction (MissingTime); idle split after Holistic Trace Analysis</source>
        <translation>core/traces/trace_vs_prediction（MissingTime）；空闲的拆分参照 Holistic Trace Analysis</translation>
    </message>
    <message>
        <source>Where the measured step went</source>
        <translation>实测的一步时间去了哪里</translation>
    </message>
    <message>
        <source>Where the measured step went: %1 ms measured, %2 ms predicted</source>
        <translation>实测的一步时间去了哪里：实测 %1 ms，预测 %2 ms</translation>
    </message>
    <message>
        <source>Part of the measured step</source>
        <translation>实测步的组成部分</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 ms per step = %3 of the measured step</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：每步 %2 ms = 实测步的 %3</translation>
    </message>
    <message>
        <source>Kernels queued before the trace began (%1 ms) belong to no step and are left out of both.</source>
        <translation>在追踪开始前已排队的内核（%1 ms）不属于任何一步，两边都不计入。</translation>
    </message>
    <message>
        <source>measured step = predicted kernels + slower than predicted + kernels the model lacks + concurrent kernels (≤ 0) + exposed communication + memory copies + idle host-bound + idle waiting</source>
        <translation>实测步 = 预测的内核 + 比预测更慢 + 模型中没有的内核 + 并发内核（≤ 0）+ 未掩盖的通信 + 内存拷贝 + 受主机限制的空闲 + 等待中的空闲</translation>
    </message>
</context>
<context>
    <name>lse::gui::UnderflowSection</name>
    <message>
        <source>Underflow and loss scaling</source>
        <translation>下溢与损失缩放</translation>
    </message>
    <message numerus="yes">
        <source>Gradients of a real network span many powers of two, and FP16 covers few of them: its smallest subnormal is 2^%1 and a value below half of it rounds to zero. Run trains the CPU reference transformer (%2 layers, d_model %3, on the built-in sample text) for %n step(s) in FP32 and histograms every element of its gradients. The FP16 cast is simulated on these real gradients (round to nearest even); the training itself stays FP32. Move the loss scale to see which gradients a scale rescues from zero and which it pushes into overflow.</source>
        <translation>
            <numerusform>真实网络的梯度跨越许多个 2 的幂次，而 FP16 只覆盖其中很少一部分：它最小的次正规数是 2^%1，小于其一半的值会舍入为零。点击“运行”将以 FP32 训练 CPU 参考 Transformer（%2 层，d_model %3，使用内置示例文本）%n 步，并对其梯度的每个元素绘制直方图。FP16 转换是在这些真实梯度上模拟的（就近舍入到偶数）；训练本身仍为 FP32。移动损失缩放因子，观察缩放能把哪些梯度从零中挽救出来，又会把哪些推向上溢。</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Loss scale S:</source>
        <translation>损失缩放因子 S(&amp;L)：</translation>
    </message>
    <message>
        <source>Dynamic loss scaling (Micikevicius et al. 2018, §3.2; the rule of PyTorch&apos;s GradScaler): each step the gradients are multiplied by the scale and cast to FP16; if any becomes inf or NaN the step is skipped and the scale halves, and after N good steps in a row it doubles. Simulated over a fresh FP32 training run of the reference transformer: a skipped step is one FP16 training would skip, the FP32 run still takes it.</source>
        <translation>动态损失缩放（Micikevicius et al. 2018, §3.2；即 PyTorch GradScaler 的规则）：每一步将梯度乘以缩放因子并转换为 FP16；若有任何值变为 inf 或 NaN，则跳过该步并将缩放因子减半；连续 N 个正常步之后缩放因子加倍。在参考 Transformer 的一次全新 FP32 训练上模拟：被跳过的步是 FP16 训练会跳过的步，而 FP32 训练仍会执行它。</translation>
    </message>
    <message>
        <source>&amp;Initial scale:</source>
        <translation>初始缩放因子(&amp;I)：</translation>
    </message>
    <message>
        <source>&amp;Growth interval N:</source>
        <translation>增长间隔 N(&amp;G)：</translation>
    </message>
    <message>
        <source> steps</source>
        <translation> 步</translation>
    </message>
    <message>
        <source>S&amp;teps:</source>
        <translation>步数(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;Simulate</source>
        <translation>模拟(&amp;S)</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message numerus="yes">
        <source>Cancelled after %n step(s).</source>
        <translation>
            <numerusform>在 %n 步后取消。</numerusform>
        </translation>
    </message>
    <message>
        <source>Training…</source>
        <translation>训练中…</translation>
    </message>
    <message>
        <source>Press Run to train and collect the gradients.</source>
        <translation>点击“运行”进行训练并收集梯度。</translation>
    </message>
    <message numerus="yes">
        <source>%1 gradient elements after %n step(s) (loss %2), %3 exactly zero. Cast to FP16 without scaling: %4 of the non-zero gradients flush to zero and %5 become subnormal (BF16: %6 flush). × %7: %8 flush to zero, %9 overflow.</source>
        <translation>
            <numerusform>%n 步后共 %1 个梯度元素（损失 %2），其中 %3 个恰好为零。不缩放直接转换为 FP16：非零梯度中 %4 被冲刷为零，%5 变为次正规数（BF16：%6 被冲刷为零）。× %7：%8 被冲刷为零，%9 上溢。</numerusform>
        </translation>
    </message>
    <message>
        <source>Simulating…</source>
        <translation>模拟中…</translation>
    </message>
    <message>
        <source>Press Simulate to train the reference transformer and run the scaler.</source>
        <translation>点击“模拟”以训练参考 Transformer 并运行缩放器。</translation>
    </message>
    <message>
        <source>Tokenizing the sample text and building the model…</source>
        <translation>正在对示例文本进行分词并构建模型…</translation>
    </message>
    <message>
        <source>Training step %1 of %2…</source>
        <translation>训练第 %1 步，共 %2 步…</translation>
    </message>
    <message>
        <source>Simulating step %1 of %2…</source>
        <translation>模拟第 %1 步，共 %2 步…</translation>
    </message>
    <message numerus="yes">
        <source>%n step(s) simulated: %1 skipped; final scale %2, flushing %3 of the non-zero gradients (%4 without scaling).</source>
        <translation>
            <numerusform>已模拟 %n 步：跳过 %1；最终缩放 %2，非零梯度中有 %3 被冲为零（不缩放时为 %4）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n overflow step(s)</source>
        <translation>
            <numerusform>%n 个溢出步</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::ValidationPage</name>
    <message>
        <source>Validation</source>
        <translation>验证</translation>
    </message>
    <message>
        <source>Load published run %1</source>
        <translation>载入公布的训练运行 %1</translation>
    </message>
    <message>
        <source>Calibrate…</source>
        <translation>校准…</translation>
    </message>
    <message>
        <source>Fit the current scenario&apos;s accelerator to a step time or TFLOP/s you measured, and save it as a new hardware entry</source>
        <translation>根据你实测的单步时间或 TFLOP/s 拟合当前场景的加速器，并保存为新的硬件条目</translation>
    </message>
    <message>
        <source>Load this run</source>
        <translation>载入此运行</translation>
    </message>
    <message>
        <source>Replace the scenario with the selected published run (one undo step)</source>
        <translation>用所选的公布训练运行替换当前场景（可一步撤销）</translation>
    </message>
    <message>
        <source>Select a run to see its predicted step below; double-click or press Enter to load it. Hover a row for its source.</source>
        <translation>选择一个运行即可在下方查看其预测的单步时间；双击或按 Enter 载入。将鼠标悬停在某行上可查看其来源。</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Pass</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Shape on one GPU</source>
        <translation>单 GPU 上的形状</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>调用次数</translation>
    </message>
    <message>
        <source>Seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>Efficiency</source>
        <translation>效率</translation>
    </message>
    <message>
        <source>Predicted step: select a run</source>
        <translation>预测的单步时间：请选择一个运行</translation>
    </message>
    <message>
        <source>The validation table could not be computed: %1</source>
        <translation>无法计算验证表：%1</translation>
    </message>
    <message>
        <source>Validation: computed when the page is shown</source>
        <translation>验证：在显示此页面时计算</translation>
    </message>
    <message>
        <source>The efficiency factors are one set per accelerator, taken from the hardware catalog&apos;s efficiency entry; they are not fitted per run.</source>
        <translation>效率因子每个加速器只有一组，取自硬件目录中的效率条目；并非针对每个运行单独拟合。</translation>
    </message>
    <message>
        <source>GEMM peak fraction %1, k₀ %2, HBM fraction %3, FlashAttention fraction %4; source: %5</source>
        <translation>GEMM 峰值比例 %1，k₀ %2，HBM 比例 %3，FlashAttention 比例 %4；来源：%5</translation>
    </message>
    <message numerus="yes">
        <source>Slowest %n operator(s) of %1 (kernels of the busiest GPU over the whole step)</source>
        <translation>
            <numerusform>%1 中最慢的 %n 个算子（最繁忙 GPU 在整个步中的 kernel）</numerusform>
        </translation>
    </message>
    <message>
        <source>expected a published run id (%1)</source>
        <translation>应为公布的运行 id（%1）</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>unknown accelerator</source>
        <translation>未知加速器</translation>
    </message>
    <message numerus="yes">
        <source>Step time over %n published run(s): mean |error| %1, worst %2 (%3) with the catalog&apos;s factors (fitted to these runs)</source>
        <translation>
            <numerusform>%n 个公开运行上的步时：使用目录系数（在这些运行上拟合）时平均 |误差| %1，最差 %2（%3）</numerusform>
        </translation>
    </message>
    <message>
        <source>held out (leave one source out): computing…</source>
        <translation>留出（留一来源）：计算中…</translation>
    </message>
    <message numerus="yes">
        <source>held out (leave one source out, %n run(s)): mean %1, worst %2, 90th percentile %3</source>
        <translation>
            <numerusform>留出（留一来源，%n 个运行）：平均 %1，最差 %2，第 90 百分位 %3</numerusform>
        </translation>
    </message>
    <message>
        <source>held out: not computed (%1)</source>
        <translation>留出：未计算（%1）</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Compute held-out errors again</source>
        <translation>重新计算留出误差</translation>
    </message>
    <message>
        <source>Stop the leave-one-source-out fits (the held-out column stays empty)</source>
        <translation>停止留一来源拟合（留出列保持为空）</translation>
    </message>
    <message>
        <source>Fit each accelerator&apos;s factors once per source without that source&apos;s runs and predict them (a few seconds)</source>
        <translation>对每个加速器，每次去掉一个来源的运行来拟合系数并预测这些运行（需几秒）</translation>
    </message>
    <message>
        <source>Leave one source out: %v / %m runs</source>
        <translation>留一来源：%v / %m 个运行</translation>
    </message>
    <message>
        <source>Per accelerator: fitting each accelerator without each of its sources…</source>
        <translation>按加速器：正在对每个加速器逐一去掉其各来源进行拟合…</translation>
    </message>
    <message>
        <source>Accelerator</source>
        <translation>加速器</translation>
    </message>
    <message>
        <source>Runs / sources</source>
        <translation>运行 / 来源</translation>
    </message>
    <message>
        <source>Fitted: mean / worst</source>
        <translation>拟合：平均 / 最差</translation>
    </message>
    <message>
        <source>Held out: mean / worst / 90th pct. (the band)</source>
        <translation>留出：平均 / 最差 / 第 90 百分位（误差带）</translation>
    </message>
    <message>
        <source>none: all runs from one source, no band</source>
        <translation>无：所有运行来自同一来源，无误差带</translation>
    </message>
    <message>
        <source>Fitted: the runs predicted with the catalog&apos;s factors, which were fitted to them. Held out: each source&apos;s runs predicted with factors fitted on the accelerator&apos;s other sources only, the error to expect on a new setup.</source>
        <translation>拟合：用目录系数预测这些运行，而系数正是在它们上面拟合的。留出：每个来源的运行用只在该加速器其他来源上拟合的系数预测，这是新配置上应预期的误差。</translation>
    </message>
    <message>
        <source>Training step time</source>
        <translation>训练步时</translation>
    </message>
    <message>
        <source>Serving</source>
        <translation>服务</translation>
    </message>
</context>
<context>
    <name>lse::gui::ValidationRunsModel</name>
    <message>
        <source>Tensor · pipeline · data parallel degree</source>
        <translation>张量 · 流水线 · 数据并行度</translation>
    </message>
    <message>
        <source>Micro-batch / global batch (sequences)</source>
        <translation>micro-batch / 全局批（序列数）</translation>
    </message>
    <message>
        <source>The paper&apos;s iteration time, or its TFLOP/s per GPU converted with the paper&apos;s own FLOP formula</source>
        <translation>论文报告的迭代时间，或按论文自身的 FLOP 公式由其每 GPU TFLOP/s 换算得到</translation>
    </message>
    <message>
        <source>Model FLOPs (matmuls, no recomputation) / (GPUs · peak · predicted step time)</source>
        <translation>模型 FLOPs（矩阵乘法，不含重计算）/（GPU 数 · 峰值 · 预测单步时间）</translation>
    </message>
    <message>
        <source>Executed matmul FLOPs (with recomputation) / (GPUs · peak · predicted step time)</source>
        <translation>实际执行的矩阵乘法 FLOPs（含重计算）/（GPU 数 · 峰值 · 预测单步时间）</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>tp/pp/dp</source>
        <translation>tp/pp/dp</translation>
    </message>
    <message>
        <source>Micro/global batch</source>
        <translation>micro/全局批</translation>
    </message>
    <message>
        <source>Recomputation</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>Published (s)</source>
        <translation>公布（s）</translation>
    </message>
    <message>
        <source>Predicted (s)</source>
        <translation>预测（s）</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>误差</translation>
    </message>
    <message>
        <source>Predicted MFU</source>
        <translation>预测 MFU</translation>
    </message>
    <message>
        <source>Predicted HFU</source>
        <translation>预测 HFU</translation>
    </message>
    <message>
        <source>Source: %1, %2</source>
        <translation>来源：%1，%2</translation>
    </message>
    <message>
        <source>Links: %1</source>
        <translation>链接：%1</translation>
    </message>
    <message>
        <source>Verified: %1</source>
        <translation>已核实：%1</translation>
    </message>
    <message>
        <source>The run&apos;s id (hover a row for its name and source)</source>
        <translation>运行的 id（悬停某行可见其名称和来源）</translation>
    </message>
    <message>
        <source>The accelerator of the run, as in the hardware catalog</source>
        <translation>该运行的加速器（同硬件目录）</translation>
    </message>
    <message>
        <source>(predicted − published) / published with the catalog&apos;s factors, which were fitted to these runs; marked beyond ±%1. The held-out error beside it is the one to expect on a new run.</source>
        <translation>(预测 − 公开) / 公开，使用在这些运行上拟合的目录系数；超过 ±%1 时标出。旁边的留出误差才是新运行上应预期的误差。</translation>
    </message>
    <message>
        <source>Leave one source out: the run predicted with factors fitted on its accelerator&apos;s other sources only (as `validate --leave-one-paper-out` prints); – when all of the accelerator&apos;s runs come from one source</source>
        <translation>留一来源：用只在该加速器其他来源上拟合的系数预测此运行（与 `validate --leave-one-paper-out` 输出一致）；若该加速器的所有运行都来自同一来源则为 –</translation>
    </message>
    <message>
        <source>Accelerator</source>
        <translation>加速器</translation>
    </message>
    <message>
        <source>Held out</source>
        <translation>留出</translation>
    </message>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <source>Accelerator: %1</source>
        <translation>加速器：%1</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>Published %1 s, predicted %2, error %3 (catalog factors, fitted to these runs)</source>
        <translation>公开 %1 秒，预测 %2，误差 %3（目录系数，在这些运行上拟合）</translation>
    </message>
    <message>
        <source>Held out (factors fitted without this run&apos;s source): error %1</source>
        <translation>留出（系数拟合时不含此运行的来源）：误差 %1</translation>
    </message>
    <message>
        <source>Held out: none (all of this accelerator&apos;s runs come from one source)</source>
        <translation>留出：无（该加速器的所有运行都来自同一来源）</translation>
    </message>
</context>
<context>
    <name>lse::gui::WorkProgressDialog</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>lse::gui::ZeroPage</name>
    <message>
        <source>ZeRO</source>
        <translation>ZeRO</translation>
    </message>
    <message>
        <source>ZeRO partitions the model states over the N data-parallel ranks instead of replicating them: stage 1 the optimizer states, stage 2 also the gradients, stage 3 also the parameters. Each bar below is the flattened parameter vector; the filled part is the slice a rank keeps.</source>
        <translation>ZeRO 把模型状态分片到 N 个数据并行 rank 上，而不是在每个 rank 上复制一份：阶段 1 分片优化器状态，阶段 2 再加上梯度，阶段 3 再加上参数。下方每个条形表示展平后的参数向量；填充部分是某个 rank 保留的切片。</translation>
    </message>
    <message>
        <source>&amp;Stage:</source>
        <translation>阶段(&amp;S)：</translation>
    </message>
    <message>
        <source>&amp;Data-parallel ranks N:</source>
        <translation>数据并行 rank 数 N(&amp;D)：</translation>
    </message>
    <message>
        <source>0 — plain data parallelism</source>
        <translation>0 — 普通数据并行</translation>
    </message>
    <message>
        <source>1 — optimizer states (P_os)</source>
        <translation>1 — 优化器状态 (P_os)</translation>
    </message>
    <message>
        <source>2 — + gradients (P_os+g)</source>
        <translation>2 — + 梯度 (P_os+g)</translation>
    </message>
    <message>
        <source>3 — + parameters (P_os+g+p)</source>
        <translation>3 — + 参数 (P_os+g+p)</translation>
    </message>
    <message>
        <source>Rajbhandari et al. 2020 §5: P_os, P_os+g, P_os+g+p</source>
        <translation>Rajbhandari et al. 2020 §5: P_os, P_os+g, P_os+g+p</translation>
    </message>
    <message>
        <source>The data-parallel group the states are sharded over (defaults to the scenario&apos;s dp)</source>
        <translation>对状态进行分片的数据并行组（默认为场景中的 dp）</translation>
    </message>
    <message>
        <source>Ψ = %1 parameters per GPU (the model after tp·pp = %2·%3), N = %4, weights %5, gradients %6, master copy %7, optimizer %8</source>
        <translation>Ψ = 每 GPU %1 个参数（模型经 tp·pp = %2·%3 切分后），N = %4，权重 %5，梯度 %6，主副本 %7，优化器 %8</translation>
    </message>
    <message>
        <source>fp32</source>
        <translation>fp32</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Cannot lay out ZeRO: %1</source>
        <translation>无法布局 ZeRO：%1</translation>
    </message>
    <message>
        <source>&lt;b&gt;ZeRO-%1&lt;/b&gt;: each rank holds %2 of model states (parameters %3, gradients %4, optimizer %5) and sends %6 per step = %7 Ψ in ZeRO §7&apos;s units.&lt;br&gt;%8</source>
        <translation>&lt;b&gt;ZeRO-%1&lt;/b&gt;：每个 rank 持有 %2 的模型状态（参数 %3，梯度 %4，优化器 %5），每步发送 %6（按 ZeRO §7 的单位为 %7 Ψ）。&lt;br&gt;%8</translation>
    </message>
    <message>
        <source>One rank: nothing to communicate.</source>
        <translation>只有一个 rank：无需通信。</translation>
    </message>
    <message>
        <source>ZeRO shards: %1</source>
        <translation>ZeRO 分片：%1</translation>
    </message>
    <message>
        <source>What each rank holds at ZeRO-%1 (N = %2)</source>
        <translation>ZeRO-%1 下每个 rank 持有的内容（N = %2）</translation>
    </message>
    <message>
        <source>parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rank %1, %2&lt;/b&gt;: the whole vector is Ψ = %3 elements</source>
        <translation>&lt;b&gt;Rank %1，%2&lt;/b&gt;：整个向量为 Ψ = %3 个元素</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rank %1 holds %2 [%3, %4)&lt;/b&gt; of the flattened vector: %5&lt;br&gt;%6&lt;br&gt;ZeRO §5: sharded states take 1/N of their bytes on each rank</source>
        <translation>&lt;b&gt;Rank %1 持有展平向量中 %2 的 [%3, %4)&lt;/b&gt;：%5&lt;br&gt;%6&lt;br&gt;ZeRO §5：分片后的状态在每个 rank 上只占其字节数的 1/N</translation>
    </message>
    <message>
        <source>sharded: 1/%1 of the vector</source>
        <translation>分片：向量的 1/%1</translation>
    </message>
    <message>
        <source>replicated on every rank</source>
        <translation>在每个 rank 上复制</translation>
    </message>
    <message>
        <source>… rank %1</source>
        <translation>… rank %1</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message>
        <source>per rank: 2Ψ + 2Ψ + KΨ bytes at stage 0 (bf16 weights and gradients, K = 12 for Adam with fp32 master copy); stage 1 (2 + 2 + K/N)Ψ, stage 2 (2 + (2 + K)/N)Ψ, stage 3 (2 + 2 + K)Ψ/N</source>
        <translation>每个 rank：阶段 0 为 2Ψ + 2Ψ + KΨ 字节（bf16 权重和梯度，Adam 带 fp32 主副本时 K = 12）；阶段 1 为 (2 + 2 + K/N)Ψ，阶段 2 为 (2 + (2 + K)/N)Ψ，阶段 3 为 (2 + 2 + K)Ψ/N</translation>
    </message>
    <message>
        <source>Rajbhandari et al. 2020 (ZeRO), §5.1–5.3, Figure 1</source>
        <translation>Rajbhandari et al. 2020 (ZeRO), §5.1–5.3, Figure 1</translation>
    </message>
    <message>
        <source>Model states per rank (bytes)</source>
        <translation>每 rank 的模型状态（字节）</translation>
    </message>
    <message>
        <source>ZeRO stage</source>
        <translation>ZeRO 阶段</translation>
    </message>
    <message>
        <source>ZeRO-%1</source>
        <translation>ZeRO-%1</translation>
    </message>
    <message>
        <source>Memory per rank: %1</source>
        <translation>每 rank 显存：%1</translation>
    </message>
    <message>
        <source>Model-state memory per rank by ZeRO stage (N = %1)</source>
        <translation>各 ZeRO 阶段下每 rank 的模型状态显存（N = %1）</translation>
    </message>
    <message>
        <source>Model states per rank (%1B)</source>
        <translation>每 rank 的模型状态（%1B）</translation>
    </message>
    <message>
        <source>&lt;b&gt;ZeRO-%1, %2&lt;/b&gt;: %3 per rank (total %4)</source>
        <translation>&lt;b&gt;ZeRO-%1，%2&lt;/b&gt;：每 rank %3（合计 %4）</translation>
    </message>
    <message>
        <source>stage 0: (2 + 2 + K)Ψ; stage 1: (2 + 2 + K/N)Ψ; stage 2: (2 + (2 + K)/N)Ψ; stage 3: (2 + 2 + K)Ψ/N bytes (bf16 weights and gradients; K = optimizer bytes per parameter)</source>
        <translation>阶段 0：(2 + 2 + K)Ψ；阶段 1：(2 + 2 + K/N)Ψ；阶段 2：(2 + (2 + K)/N)Ψ；阶段 3：(2 + 2 + K)Ψ/N 字节（bf16 权重和梯度；K = 每个参数的优化器字节数）</translation>
    </message>
    <message>
        <source>Rajbhandari et al. 2020 (ZeRO), §5 and Figure 1; same bytes as the Memory page</source>
        <translation>Rajbhandari et al. 2020 (ZeRO), §5 and Figure 1；字节数与“显存”页面相同</translation>
    </message>
    <message>
        <source>Communication per rank per step (bytes)</source>
        <translation>每 rank 每步通信量（字节）</translation>
    </message>
    <message>
        <source>Memory vs communication: %1</source>
        <translation>显存与通信：%1</translation>
    </message>
    <message>
        <source>Memory vs communication per rank (N = %1)</source>
        <translation>每 rank 的显存与通信量（N = %1）</translation>
    </message>
    <message>
        <source>ZeRO stages</source>
        <translation>ZeRO 阶段</translation>
    </message>
    <message>
        <source>ZeRO-%1 (%2 Ψ)</source>
        <translation>ZeRO-%1（%2 Ψ）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>&lt;b&gt;ZeRO-%1&lt;/b&gt;&lt;br&gt;memory %2 per rank&lt;br&gt;communication %3 per step (%4)&lt;br&gt;ZeRO §7: %5 Ψ</source>
        <translation>&lt;b&gt;ZeRO-%1&lt;/b&gt;&lt;br&gt;每 rank 显存 %2&lt;br&gt;每步通信 %3（%4）&lt;br&gt;ZeRO §7：%5 Ψ</translation>
    </message>
    <message>
        <source>communication per rank with ring collectives: stage 0 all-reduce 2(N−1)/N·Ψ·b; stages 1–2 reduce-scatter + all-gather, also 2(N−1)/N·Ψ·b; stage 3 two all-gathers + one reduce-scatter, 3(N−1)/N·Ψ·b (1.5× data parallelism)</source>
        <translation>使用 ring 集合通信时每个 rank 的通信量：阶段 0 为 all-reduce，2(N−1)/N·Ψ·b；阶段 1–2 为 reduce-scatter + all-gather，同样是 2(N−1)/N·Ψ·b；阶段 3 为两次 all-gather + 一次 reduce-scatter，3(N−1)/N·Ψ·b（数据并行的 1.5 倍）</translation>
    </message>
    <message>
        <source>Rajbhandari et al. 2020 (ZeRO), §7.1–7.2; ring volumes Patarasuk &amp; Yuan 2009</source>
        <translation>Rajbhandari et al. 2020 (ZeRO), §7.1–7.2；ring 通信量：Patarasuk &amp; Yuan 2009</translation>
    </message>
    <message>
        <source>all-reduce</source>
        <translation>all-reduce</translation>
    </message>
    <message>
        <source>reduce-scatter</source>
        <translation>reduce-scatter</translation>
    </message>
    <message>
        <source>all-gather</source>
        <translation>all-gather</translation>
    </message>
    <message>
        <source>Each step, every rank all-reduces the gradients after the backward pass (%1 per rank).</source>
        <translation>每一步中，每个 rank 在反向传播之后对梯度做 all-reduce（每 rank %1）。</translation>
    </message>
    <message>
        <source>Each step, every rank reduce-scatters the gradients after the backward pass (%1 per rank) and all-gathers the updated parameters after the optimizer step (%2 per rank).</source>
        <translation>每一步中，每个 rank 在反向传播之后对梯度做 reduce-scatter（每 rank %1），并在优化器更新之后对更新后的参数做 all-gather（每 rank %2）。</translation>
    </message>
    <message>
        <source>Each step, every rank all-gathers the parameters before each layer&apos;s forward pass (%1 per rank) and again before its backward pass (%2 per rank), and reduce-scatters the gradients after each layer&apos;s backward pass (%3 per rank).</source>
        <translation>每一步中，每个 rank 在每层前向传播之前对参数做 all-gather（每 rank %1），在该层反向传播之前再做一次（每 rank %2），并在每层反向传播之后对梯度做 reduce-scatter（每 rank %3）。</translation>
    </message>
    <message>
        <source>%1: %2 per rank</source>
        <translation>%1：每 rank %2</translation>
    </message>
    <message>
        <source>Each step, every rank sends: %1.</source>
        <translation>每一步中，每个 rank 发送：%1。</translation>
    </message>
    <message>
        <source>Previous stage (Left)</source>
        <translation>上一阶段（左方向键）</translation>
    </message>
    <message>
        <source>Next stage (Right)</source>
        <translation>下一阶段（右方向键）</translation>
    </message>
    <message>
        <source>is the ZeRO stage here and must equal stage (%1), got %2</source>
        <translation>在此表示 ZeRO 阶段，必须等于 stage（%1），实际为 %2</translation>
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
