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
    <name>lse::gui::AtlasSection</name>
    <message numerus="yes">
        <source>%n of %1 model(s)</source>
        <translation>
            <numerusform>%n of %1 model</numerusform>
            <numerusform>%n of %1 models</numerusform>
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
</context>
<context>
    <name>lse::gui::RooflinePage</name>
    <message numerus="yes">
        <source>%n operator(s) without FLOPs (lookups) are in the table only</source>
        <translation>
            <numerusform>%n operator without FLOPs (lookups) are in the table only</numerusform>
            <numerusform>%n operators without FLOPs (lookups) are in the table only</numerusform>
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
</TS>
