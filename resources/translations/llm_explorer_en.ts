<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
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
