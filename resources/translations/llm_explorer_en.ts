<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>AtlasCharts</name>
    <message numerus="yes">
        <source>%n model(s) of the atlas shown (%1); the table&apos;s filters apply</source>
        <translation>
            <numerusform>%n model of the atlas shown (%1); the table&apos;s filters apply</numerusform>
            <numerusform>%n models of the atlas shown (%1); the table&apos;s filters apply</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1, %2&lt;/b&gt;: %3 of %n model(s) (%4)</source>
        <translation>
            <numerusform>&lt;b&gt;%1, %2&lt;/b&gt;: %3 of %n model (%4)</numerusform>
            <numerusform>&lt;b&gt;%1, %2&lt;/b&gt;: %3 of %n models (%4)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;head dim %1&lt;/b&gt;: %n model(s)&lt;br&gt;%2</source>
        <translation>
            <numerusform>&lt;b&gt;head dim %1&lt;/b&gt;: %n model&lt;br&gt;%2</numerusform>
            <numerusform>&lt;b&gt;head dim %1&lt;/b&gt;: %n models&lt;br&gt;%2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LessonControls</name>
    <message numerus="yes">
        <source>expected at most %n character(s)</source>
        <translation>
            <numerusform>expected at most %n character</numerusform>
            <numerusform>expected at most %n characters</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LessonSettingsReader</name>
    <message numerus="yes">
        <source>%n character(s)</source>
        <translation>
            <numerusform>%n character</numerusform>
            <numerusform>%n characters</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PredictionBandText</name>
    <message numerus="yes">
        <source>%n published run(s) from %1 sources: held-out mean |error| %2, worst %3, 90th percentile %4 (the band); error on the runs the factors were fitted to %5</source>
        <translation>
            <numerusform>%n published run from %1 sources: held-out mean |error| %2, worst %3, 90th percentile %4 (the band); error on the run the factors were fitted to %5</numerusform>
            <numerusform>%n published runs from %1 sources: held-out mean |error| %2, worst %3, 90th percentile %4 (the band); error on the runs the factors were fitted to %5</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ServingCharts</name>
    <message numerus="yes">
        <source>%1: %2 at %3, HBM %4; %n operator(s) without FLOPs (lookups) left out</source>
        <translation>
            <numerusform>%1: %2 at %3, HBM %4; %n operator without FLOPs (lookups) left out</numerusform>
            <numerusform>%1: %2 at %3, HBM %4; %n operators without FLOPs (lookups) left out</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TraceCharts</name>
    <message numerus="yes">
        <source>%Ln step(s); window = first start to last end of the GPU activities launched in the ProfilerStep range</source>
        <translation>
            <numerusform>%Ln step; window = first start to last end of the GPU activities launched in the ProfilerStep range</numerusform>
            <numerusform>%Ln steps; window = first start to last end of the GPU activities launched in the ProfilerStep range</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TraceTimelineLayer</name>
    <message numerus="yes">
        <source>Timeline of %1: %Ln GPU activities</source>
        <translation>
            <numerusform>Timeline of %1: %Ln GPU activity</numerusform>
            <numerusform>Timeline of %1: %Ln GPU activities</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Timeline of %1 (CPU only): %Ln operators</source>
        <translation>
            <numerusform>Timeline of %1 (CPU only): %Ln operator</numerusform>
            <numerusform>Timeline of %1 (CPU only): %Ln operators</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>UnderflowCharts</name>
    <message numerus="yes">
        <source>%n step(s) of the reference transformer trained in FP32; each step&apos;s real gradients multiplied by the scale and cast to FP16 (simulated, round to nearest even)</source>
        <translation>
            <numerusform>%n step of the reference transformer trained in FP32; each step&apos;s real gradients multiplied by the scale and cast to FP16 (simulated, round to nearest even)</numerusform>
            <numerusform>%n steps of the reference transformer trained in FP32; each step&apos;s real gradients multiplied by the scale and cast to FP16 (simulated, round to nearest even)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ValidationCharts</name>
    <message numerus="yes">
        <source>%1 (%n run(s))</source>
        <translation>
            <numerusform>%1 (%n run)</numerusform>
            <numerusform>%1 (%n runs)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n run(s); mean |error| %1, worst %2 (%3) with the catalog&apos;s factors, fitted to these runs; the held-out errors are in the table and the summary above</source>
        <translation>
            <numerusform>%n run; mean |error| %1, worst %2 (%3) with the catalog&apos;s factors, fitted to this run; the held-out errors are in the table and the summary above</numerusform>
            <numerusform>%n runs; mean |error| %1, worst %2 (%3) with the catalog&apos;s factors, fitted to these runs; the held-out errors are in the table and the summary above</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>busiest stage %1 (%n layer(s)), micro-batches per step %2; compute %3 s, exposed communication %4 s, bubble %5 s, optimizer %6 s, stragglers %9 s; MFU %7, HFU %8</source>
        <translation>
            <numerusform>busiest stage %1 (%n layer), micro-batches per step %2; compute %3 s, exposed communication %4 s, bubble %5 s, optimizer %6 s, stragglers %9 s; MFU %7, HFU %8</numerusform>
            <numerusform>busiest stage %1 (%n layers), micro-batches per step %2; compute %3 s, exposed communication %4 s, bubble %5 s, optimizer %6 s, stragglers %9 s; MFU %7, HFU %8</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::AblationSection</name>
    <message numerus="yes">
        <source>%1 (%n step(s))</source>
        <translation>
            <numerusform>%1 (%n step)</numerusform>
            <numerusform>%1 (%n steps)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Finished: %n variant(s) trained.</source>
        <translation>
            <numerusform>Finished: %n variant trained.</numerusform>
            <numerusform>Finished: %n variants trained.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::AccessOrderSection</name>
    <message numerus="yes">
        <source>C = A·B with n = %1 (fp32, %2 per matrix); loop over a %3 × %4 fp32 matrix (%5); %n timed call(s) per variant</source>
        <translation>
            <numerusform>C = A·B with n = %1 (fp32, %2 per matrix); loop over a %3 × %4 fp32 matrix (%5); %n timed call per variant</numerusform>
            <numerusform>C = A·B with n = %1 (fp32, %2 per matrix); loop over a %3 × %4 fp32 matrix (%5); %n timed calls per variant</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>A tensor read %n time(s) or more repays its copy.</source>
        <translation>
            <numerusform>A tensor read %n time or more repays its copy.</numerusform>
            <numerusform>A tensor read %n times or more repays its copy.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::AtlasSection</name>
    <message numerus="yes">
        <source>%1 of %n model(s)</source>
        <translation>
            <numerusform>%1 of %n model</numerusform>
            <numerusform>%1 of %n models</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::CalibrationDialog</name>
    <message numerus="yes">
        <source>Current scenario on %1 (%n GPU(s)): predicted step %2 s, MFU %3, with GEMM peak fraction %4 (%5).</source>
        <translation>
            <numerusform>Current scenario on %1 (%n GPU): predicted step %2 s, MFU %3, with GEMM peak fraction %4 (%5).</numerusform>
            <numerusform>Current scenario on %1 (%n GPUs): predicted step %2 s, MFU %3, with GEMM peak fraction %4 (%5).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::CollectivesMeasurementSection</name>
    <message numerus="yes">
        <source>Measuring the link between %n process(es) on this machine…</source>
        <translation>
            <numerusform>Measuring the link between %n process on this machine…</numerusform>
            <numerusform>Measuring the link between %n processes on this machine…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Measured and saved for %n rank(s); this page now shows another rank count.</source>
        <translation>
            <numerusform>Measured and saved for %n rank; this page now shows another rank count.</numerusform>
            <numerusform>Measured and saved for %n ranks; this page now shows another rank count.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>No measurement of this machine for %n rank(s) yet.</source>
        <translation>
            <numerusform>No measurement of this machine for %n rank yet.</numerusform>
            <numerusform>No measurement of this machine for %n ranks yet.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>This machine, %n rank(s), measured %1: α = %2 per ring step, β = %3/s per rank.</source>
        <translation>
            <numerusform>This machine, %n rank, measured %1: α = %2 per ring step, β = %3/s per rank.</numerusform>
            <numerusform>This machine, %n ranks, measured %1: α = %2 per ring step, β = %3/s per rank.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Measure on this machine&lt;/b&gt; — a ping-pong and ring all-reduce sweep between %n local process(es) over MPI, as nccl-tests measures; train --dp %n predicts its collectives with the fit.</source>
        <translation>
            <numerusform>&lt;b&gt;Measure on this machine&lt;/b&gt; — a ping-pong and ring all-reduce sweep between %n local process over MPI, as nccl-tests measures; train --dp %n predicts its collectives with the fit.</numerusform>
            <numerusform>&lt;b&gt;Measure on this machine&lt;/b&gt; — a ping-pong and ring all-reduce sweep between %n local processes over MPI, as nccl-tests measures; train --dp %n predicts its collectives with the fit.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::ComputePage</name>
    <message numerus="yes">
        <source>; %n sequence length(s) skipped: %1</source>
        <translation>
            <numerusform>; %n sequence length skipped: %1</numerusform>
            <numerusform>; %n sequence lengths skipped: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::CpuMeasurementSection</name>
    <message numerus="yes">
        <source>Cancelled after %n batch(es).</source>
        <translation>
            <numerusform>Cancelled after %n batch.</numerusform>
            <numerusform>Cancelled after %n batches.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::DesignAxisText</name>
    <message numerus="yes">
        <source>MHA, %n KV head(s)</source>
        <translation>
            <numerusform>MHA, %n KV head</numerusform>
            <numerusform>MHA, %n KV heads</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>GQA, %n KV head(s)</source>
        <translation>
            <numerusform>GQA, %n KV head</numerusform>
            <numerusform>GQA, %n KV heads</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::DistributedRunPage</name>
    <message numerus="yes">
        <source>Running %n rank(s): step %1 of %2</source>
        <translation>
            <numerusform>Running %n rank: step %1 of %2</numerusform>
            <numerusform>Running %n ranks: step %1 of %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Finished %n step(s).</source>
        <translation>
            <numerusform>Finished %n step.</numerusform>
            <numerusform>Finished %n steps.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n step(s) of %1 sent exactly the bytes per rank the engine predicts.</source>
        <translation>
            <numerusform>%n step of %1 sent exactly the bytes per rank the engine predicts.</numerusform>
            <numerusform>%n steps of %1 sent exactly the bytes per rank the engine predicts.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::FlashAttentionCounters</name>
    <message numerus="yes">
        <source>… and %n more row(s) updated in this step.</source>
        <translation>
            <numerusform>… and %n more row updated in this step.</numerusform>
            <numerusform>… and %n more rows updated in this step.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::FlashAttentionSection</name>
    <message numerus="yes">
        <source>M = %1, %2 (the catalog&apos;s on-chip SRAM ÷ %n SM(s); CUDA C++ Programming Guide, compute capabilities). Edit M to see what a larger or smaller SRAM would do; ↺ puts the accelerator&apos;s back.</source>
        <translation>
            <numerusform>M = %1, %2 (the catalog&apos;s on-chip SRAM ÷ %n SM; CUDA C++ Programming Guide, compute capabilities). Edit M to see what a larger or smaller SRAM would do; ↺ puts the accelerator&apos;s back.</numerusform>
            <numerusform>M = %1, %2 (the catalog&apos;s on-chip SRAM ÷ %n SMs; CUDA C++ Programming Guide, compute capabilities). Edit M to see what a larger or smaller SRAM would do; ↺ puts the accelerator&apos;s back.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::FusionSection</name>
    <message numerus="yes">
        <source>Measured %1 × %2 float32 on %n thread(s), median of %3 alternating runs each.</source>
        <translation>
            <numerusform>Measured %1 × %2 float32 on %n thread, median of %3 alternating runs each.</numerusform>
            <numerusform>Measured %1 × %2 float32 on %n threads, median of %3 alternating runs each.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::LayoutPage</name>
    <message numerus="yes">
        <source>%1 × %2 on %Ln node(s) of %3 GPUs: dp %4 · tp %5 · pp %6 · cp %7 · ep %8</source>
        <translation>
            <numerusform>%1 × %2 on %Ln node of %3 GPUs: dp %4 · tp %5 · pp %6 · cp %7 · ep %8</numerusform>
            <numerusform>%1 × %2 on %Ln nodes of %3 GPUs: dp %4 · tp %5 · pp %6 · cp %7 · ep %8</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::LessonRecorderDialog</name>
    <message numerus="yes">
        <source>Wrote %n slide(s) to %1.</source>
        <translation>
            <numerusform>Wrote %n slide to %1.</numerusform>
            <numerusform>Wrote %n slides to %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n change(s)</source>
        <translation>
            <numerusform>%n change</numerusform>
            <numerusform>%n changes</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::MainWindow</name>
    <message numerus="yes">
        <source>%n problem(s) in the scenario; the pages show the last valid results.</source>
        <translation>
            <numerusform>%n problem in the scenario; the pages show the last valid results.</numerusform>
            <numerusform>%n problems in the scenario; the pages show the last valid results.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Export cancelled; %n page(s) written to %1</source>
        <translation>
            <numerusform>Export cancelled; %n page written to %1</numerusform>
            <numerusform>Export cancelled; %n pages written to %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Recovered %n document(s) from autosave</source>
        <translation>
            <numerusform>Recovered %n document from autosave</numerusform>
            <numerusform>Recovered %n documents from autosave</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::MemoryPage</name>
    <message numerus="yes">
        <source>; %n sequence length(s) skipped: %1</source>
        <translation>
            <numerusform>; %n sequence length skipped: %1</numerusform>
            <numerusform>; %n sequence lengths skipped: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::MeshGridChart</name>
    <message numerus="yes">
        <source>%1 group: %2 (on %n node(s))</source>
        <translation>
            <numerusform>%1 group: %2 (on %n node)</numerusform>
            <numerusform>%1 group: %2 (on %n nodes)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Device mesh: %1 GPUs on %Ln node(s) of %2, coloured by %3 group</source>
        <translation>
            <numerusform>Device mesh: %1 GPUs on %Ln node of %2, coloured by %3 group</numerusform>
            <numerusform>Device mesh: %1 GPUs on %Ln nodes of %2, coloured by %3 group</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::PipelinePage</name>
    <message numerus="yes">
        <source>stage %1 (%n in flight)</source>
        <translation>
            <numerusform>stage %1 (%n in flight)</numerusform>
            <numerusform>stage %1 (%n in flight)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n</source>
        <translation>
            <numerusform>%1: %n</numerusform>
            <numerusform>%1: %n</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::PositionalEncodingSection</name>
    <message numerus="yes">
        <source>%n head(s)</source>
        <translation>
            <numerusform>%n head</numerusform>
            <numerusform>%n heads</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::RecoveryDialog</name>
    <message numerus="yes">
        <source>LLM Systems Explorer did not quit cleanly last time. %n document(s) with unsaved changes were autosaved:</source>
        <translation>
            <numerusform>LLM Systems Explorer did not quit cleanly last time. %n document with unsaved changes was autosaved:</numerusform>
            <numerusform>LLM Systems Explorer did not quit cleanly last time. %n documents with unsaved changes were autosaved:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::ReferenceRunPage</name>
    <message numerus="yes">
        <source> · %n thread(s)</source>
        <translation>
            <numerusform> · %n thread</numerusform>
            <numerusform> · %n threads</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> (%1 of %n core(s) busy with other work)</source>
        <translation>
            <numerusform> (%1 of %n core busy with other work)</numerusform>
            <numerusform> (%1 of %n cores busy with other work)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Operator-level step predictor (the GPUs&apos; predictor) with this CPU&apos;s kernel factors at %n thread(s), measured %1: each operator&apos;s kernels timed from the measured matrix-product rates by shape, element-wise rates and bandwidth, call and parallel-region costs. %2 ms on idle cores + %3 ms while other processes held the cores (%4 of them ours while measuring). It does not use the run.</source>
        <translation>
            <numerusform>Operator-level step predictor (the GPUs&apos; predictor) with this CPU&apos;s kernel factors at %n thread, measured %1: each operator&apos;s kernels timed from the measured matrix-product rates by shape, element-wise rates and bandwidth, call and parallel-region costs. %2 ms on idle cores + %3 ms while other processes held the cores (%4 of them ours while measuring). It does not use the run.</numerusform>
            <numerusform>Operator-level step predictor (the GPUs&apos; predictor) with this CPU&apos;s kernel factors at %n threads, measured %1: each operator&apos;s kernels timed from the measured matrix-product rates by shape, element-wise rates and bandwidth, call and parallel-region costs. %2 ms on idle cores + %3 ms while other processes held the cores (%4 of them ours while measuring). It does not use the run.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Every run records %n step(s) as a Chrome trace, after the first step (cold caches) when the run is longer; this button saves them once they are taken.</source>
        <translation>
            <numerusform>Every run records %n step as a Chrome trace, after the first step (cold caches) when the run is longer; this button saves it once it is taken.</numerusform>
            <numerusform>Every run records %n steps as a Chrome trace, after the first step (cold caches) when the run is longer; this button saves them once they are taken.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::RooflinePage</name>
    <message numerus="yes">
        <source>%n operator(s) without FLOPs (lookups) are in the table only</source>
        <translation>
            <numerusform>%n operator without FLOPs (a lookup) is in the table only</numerusform>
            <numerusform>%n operators without FLOPs (lookups) are in the table only</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %2 peak (SGEMM n = %3, %Ln thread(s)), %4 bandwidth, measured %5.</source>
        <translation>
            <numerusform>%1: %2 peak (SGEMM n = %3, %Ln thread), %4 bandwidth, measured %5.</numerusform>
            <numerusform>%1: %2 peak (SGEMM n = %3, %Ln threads), %4 bandwidth, measured %5.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>All %Ln thread(s)</source>
        <translation>
            <numerusform>%Ln thread</numerusform>
            <numerusform>All %Ln threads</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>predicted operators: the operator-level step predictor with this CPU&apos;s kernel factors at %Ln thread(s), measured %1</source>
        <translation>
            <numerusform>predicted operators: the operator-level step predictor with this CPU&apos;s kernel factors at %Ln thread, measured %1</numerusform>
            <numerusform>predicted operators: the operator-level step predictor with this CPU&apos;s kernel factors at %Ln threads, measured %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>no predicted operators: no kernel factors cached for %Ln thread(s) (run `llm-explorer-cli machine`, or train on the Reference run page)</source>
        <translation>
            <numerusform>no predicted operators: no kernel factors cached for %Ln thread (run `llm-explorer-cli machine`, or train on the Reference run page)</numerusform>
            <numerusform>no predicted operators: no kernel factors cached for %Ln threads (run `llm-explorer-cli machine`, or train on the Reference run page)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Your trace: %1 (%Ln kernel(s))</source>
        <translation>
            <numerusform>Your trace: %1 (%Ln kernel)</numerusform>
            <numerusform>Your trace: %1 (%Ln kernels)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::ScenarioEditor</name>
    <message numerus="yes">
        <source>%n problem(s); the pages show the last valid results.</source>
        <translation>
            <numerusform>%n problem; the pages show the last valid results.</numerusform>
            <numerusform>%n problems; the pages show the last valid results.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Fix all (%n)</source>
        <translation>
            <numerusform>Fix all (%n)</numerusform>
            <numerusform>Fix all (%n)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::SearchPage</name>
    <message numerus="yes">
        <source>Searching every layout of %Ln GPU(s)…</source>
        <translation>
            <numerusform>Searching every layout of %Ln GPU…</numerusform>
            <numerusform>Searching every layout of %Ln GPUs…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Cancelled after %Ln layout(s): partial results.</source>
        <translation>
            <numerusform>Cancelled after %Ln layout: partial results.</numerusform>
            <numerusform>Cancelled after %Ln layouts: partial results.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n of them (≈ best) are within the prediction&apos;s error band (± %1) of the best: it cannot rank those apart.</source>
        <translation>
            <numerusform>%n of them (≈ best) is within the prediction&apos;s error band (± %1) of the best: it cannot rank the two apart.</numerusform>
            <numerusform>%n of them (≈ best) are within the prediction&apos;s error band (± %1) of the best: it cannot rank those apart.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::SearchScatterChart</name>
    <message numerus="yes">
        <source>%Ln GPU(s), global batch %1 × %2 tokens, efficiency factors of %3 (hardware catalog)</source>
        <translation>
            <numerusform>%Ln GPU, global batch %1 × %2 tokens, efficiency factors of %3 (hardware catalog)</numerusform>
            <numerusform>%Ln GPUs, global batch %1 × %2 tokens, efficiency factors of %3 (hardware catalog)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::ServingPage</name>
    <message numerus="yes">
        <source>%1 on %2 × %3 (tp %4, pp %5, %n replica(s)); matmuls at the %6 peak; serving factors: %7.</source>
        <translation>
            <numerusform>%1 on %2 × %3 (tp %4, pp %5, %n replica); matmuls at the %6 peak; serving factors: %7.</numerusform>
            <numerusform>%1 on %2 × %3 (tp %4, pp %5, %n replicas); matmuls at the %6 peak; serving factors: %7.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>mean over %n decode step(s)</source>
        <translation>
            <numerusform>mean over %n decode step</numerusform>
            <numerusform>mean over %n decode steps</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>at %1 per GPU-hour × %n GPU(s)</source>
        <translation>
            <numerusform>at %1 per GPU-hour × %n GPU</numerusform>
            <numerusform>at %1 per GPU-hour × %n GPUs</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::ServingValidationView</name>
    <message numerus="yes">
        <source>%n published figure(s): mean |error| %1, worst %2 (%3) with the catalog&apos;s serving factors (fitted to these figures)</source>
        <translation>
            <numerusform>%n published figure: mean |error| %1, worst %2 (%3) with the catalog&apos;s serving factors (fitted to these figures)</numerusform>
            <numerusform>%n published figures: mean |error| %1, worst %2 (%3) with the catalog&apos;s serving factors (fitted to these figures)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>held out (leave one source out, %n figure(s)): mean %1, worst %2 (%3)</source>
        <translation>
            <numerusform>held out (leave one source out, %n figure): mean %1, worst %2 (%3)</numerusform>
            <numerusform>held out (leave one source out, %n figures): mean %1, worst %2 (%3)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Serving: predicted vs published (%n figure(s))</source>
        <translation>
            <numerusform>Serving: predicted vs published (%n figure)</numerusform>
            <numerusform>Serving: predicted vs published (%n figures)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n figure(s) from %1 source(s)</source>
        <translation>
            <numerusform>%n figure from %1 source</numerusform>
            <numerusform>%n figures from %1 sources</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::StaleBanner</name>
    <message numerus="yes">
        <source>Showing the last valid scenario — %n problem(s) in the current one (see the editor).</source>
        <translation>
            <numerusform>Showing the last valid scenario — %n problem in the current one (see the editor).</numerusform>
            <numerusform>Showing the last valid scenario — %n problems in the current one (see the editor).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>No valid scenario yet — %n problem(s) in the current one (see the editor).</source>
        <translation>
            <numerusform>No valid scenario yet — %n problem in the current one (see the editor).</numerusform>
            <numerusform>No valid scenario yet — %n problems in the current one (see the editor).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::StaleTemporaryPrompt</name>
    <message numerus="yes">
        <source>%n unfinished file(s) from an interrupted save or export are lying beside the file being written. They are not used by anything. Remove them?</source>
        <translation>
            <numerusform>%n unfinished file from an interrupted save or export is lying beside the file being written. It is not used by anything. Remove it?</numerusform>
            <numerusform>%n unfinished files from an interrupted save or export are lying beside the file being written. They are not used by anything. Remove them?</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::TensorLayoutChart</name>
    <message numerus="yes">
        <source>original storage (%n element(s)): no longer used, the view reads a copy</source>
        <translation>
            <numerusform>original storage (%n element): no longer used, the view reads a copy</numerusform>
            <numerusform>original storage (%n elements): no longer used, the view reads a copy</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>storage of copy #%1 (%n element(s)), contiguous</source>
        <translation>
            <numerusform>storage of copy #%1 (%n element), contiguous</numerusform>
            <numerusform>storage of copy #%1 (%n elements), contiguous</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>storage (%n element(s)), shared with the original tensor</source>
        <translation>
            <numerusform>storage (%n element), shared with the original tensor</numerusform>
            <numerusform>storage (%n elements), shared with the original tensor</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::TensorViewsSection</name>
    <message numerus="yes">
        <source>%n later op(s) not applied: the chain stops at the error.</source>
        <translation>
            <numerusform>%n later op not applied: the chain stops at the error.</numerusform>
            <numerusform>%n later ops not applied: the chain stops at the error.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::TracePage</name>
    <message numerus="yes">
        <source>%Ln ProfilerStep(s)</source>
        <translation>
            <numerusform>%Ln ProfilerStep</numerusform>
            <numerusform>%Ln ProfilerSteps</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Top %Ln kernel(s) by GPU time&lt;/b&gt; (share of all GPU activity time; achieved FLOP/s = FLOPs of the linked operators&apos; shapes ÷ summed duration):</source>
        <translation>
            <numerusform>&lt;b&gt;Top %Ln kernel by GPU time&lt;/b&gt; (share of all GPU activity time; achieved FLOP/s = FLOPs of the linked operators&apos; shapes ÷ summed duration):</numerusform>
            <numerusform>&lt;b&gt;Top %Ln kernels by GPU time&lt;/b&gt; (share of all GPU activity time; achieved FLOP/s = FLOPs of the linked operators&apos; shapes ÷ summed duration):</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Operators&lt;/b&gt; by the GPU time of the kernels they launched (%Ln row(s), one per name, class and shape):</source>
        <translation>
            <numerusform>&lt;b&gt;Operators&lt;/b&gt; by the GPU time of the kernels they launched (%Ln row, one per name, class and shape):</numerusform>
            <numerusform>&lt;b&gt;Operators&lt;/b&gt; by the GPU time of the kernels they launched (%Ln rows, one per name, class and shape):</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Operators&lt;/b&gt; by their self time on the CPU (%Ln row(s), one per name and shape):</source>
        <translation>
            <numerusform>&lt;b&gt;Operators&lt;/b&gt; by their self time on the CPU (%Ln row, one per name and shape):</numerusform>
            <numerusform>&lt;b&gt;Operators&lt;/b&gt; by their self time on the CPU (%Ln rows, one per name and shape):</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>communication on the CPU: %Ln call(s), %1 ms, %2</source>
        <translation>
            <numerusform>communication on the CPU: %Ln call, %1 ms, %2</numerusform>
            <numerusform>communication on the CPU: %Ln calls, %1 ms, %2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::TracePredictionSection</name>
    <message numerus="yes">
        <source>&lt;b&gt;Beside the predicted step&lt;/b&gt; (%1 on %2, %3; %Ln step(s) averaged): measured step %4 ms, predicted %5 ms; MFU (matrix-multiply FLOPs at %6): measured %7, predicted %8.</source>
        <translation>
            <numerusform>&lt;b&gt;Beside the predicted step&lt;/b&gt; (%1 on %2, %3; %Ln step averaged): measured step %4 ms, predicted %5 ms; MFU (matrix-multiply FLOPs at %6): measured %7, predicted %8.</numerusform>
            <numerusform>&lt;b&gt;Beside the predicted step&lt;/b&gt; (%1 on %2, %3; %Ln steps averaged): measured step %4 ms, predicted %5 ms; MFU (matrix-multiply FLOPs at %6): measured %7, predicted %8.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::UnderflowSection</name>
    <message numerus="yes">
        <source>Gradients of a real network span many powers of two, and FP16 covers few of them: its smallest subnormal is 2^%1 and a value below half of it rounds to zero. Run trains the CPU reference transformer (%2 layers, d_model %3, on the built-in sample text) for %n step(s) in FP32 and histograms every element of its gradients. The FP16 cast is simulated on these real gradients (round to nearest even); the training itself stays FP32. Move the loss scale to see which gradients a scale rescues from zero and which it pushes into overflow.</source>
        <translation>
            <numerusform>Gradients of a real network span many powers of two, and FP16 covers few of them: its smallest subnormal is 2^%1 and a value below half of it rounds to zero. Run trains the CPU reference transformer (%2 layers, d_model %3, on the built-in sample text) for %n step in FP32 and histograms every element of its gradients. The FP16 cast is simulated on these real gradients (round to nearest even); the training itself stays FP32. Move the loss scale to see which gradients a scale rescues from zero and which it pushes into overflow.</numerusform>
            <numerusform>Gradients of a real network span many powers of two, and FP16 covers few of them: its smallest subnormal is 2^%1 and a value below half of it rounds to zero. Run trains the CPU reference transformer (%2 layers, d_model %3, on the built-in sample text) for %n steps in FP32 and histograms every element of its gradients. The FP16 cast is simulated on these real gradients (round to nearest even); the training itself stays FP32. Move the loss scale to see which gradients a scale rescues from zero and which it pushes into overflow.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Cancelled after %n step(s).</source>
        <translation>
            <numerusform>Cancelled after %n step.</numerusform>
            <numerusform>Cancelled after %n steps.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 gradient elements after %n step(s) (loss %2), %3 exactly zero. Cast to FP16 without scaling: %4 of the non-zero gradients flush to zero and %5 become subnormal (BF16: %6 flush). × %7: %8 flush to zero, %9 overflow.</source>
        <translation>
            <numerusform>%1 gradient elements after %n step (loss %2), %3 exactly zero. Cast to FP16 without scaling: %4 of the non-zero gradients flush to zero and %5 become subnormal (BF16: %6 flush). × %7: %8 flush to zero, %9 overflow.</numerusform>
            <numerusform>%1 gradient elements after %n steps (loss %2), %3 exactly zero. Cast to FP16 without scaling: %4 of the non-zero gradients flush to zero and %5 become subnormal (BF16: %6 flush). × %7: %8 flush to zero, %9 overflow.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n step(s) simulated: %1 skipped; final scale %2, flushing %3 of the non-zero gradients (%4 without scaling).</source>
        <translation>
            <numerusform>%n step simulated: %1 skipped; final scale %2, flushing %3 of the non-zero gradients (%4 without scaling).</numerusform>
            <numerusform>%n steps simulated: %1 skipped; final scale %2, flushing %3 of the non-zero gradients (%4 without scaling).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n overflow step(s)</source>
        <translation>
            <numerusform>%n overflow step</numerusform>
            <numerusform>%n overflow steps</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lse::gui::ValidationPage</name>
    <message numerus="yes">
        <source>Slowest %n operator(s) of %1 (kernels of the busiest GPU over the whole step)</source>
        <translation>
            <numerusform>Slowest %n operator of %1 (kernels of the busiest GPU over the whole step)</numerusform>
            <numerusform>Slowest %n operators of %1 (kernels of the busiest GPU over the whole step)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Step time over %n published run(s): mean |error| %1, worst %2 (%3) with the catalog&apos;s factors (fitted to these runs)</source>
        <translation>
            <numerusform>Step time over %n published run: mean |error| %1, worst %2 (%3) with the catalog&apos;s factors (fitted to this run)</numerusform>
            <numerusform>Step time over %n published runs: mean |error| %1, worst %2 (%3) with the catalog&apos;s factors (fitted to these runs)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>held out (leave one source out, %n run(s)): mean %1, worst %2, 90th percentile %3</source>
        <translation>
            <numerusform>held out (leave one source out, %n run): mean %1, worst %2, 90th percentile %3</numerusform>
            <numerusform>held out (leave one source out, %n runs): mean %1, worst %2, 90th percentile %3</numerusform>
        </translation>
    </message>
</context>
</TS>
