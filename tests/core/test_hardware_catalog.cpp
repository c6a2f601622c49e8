// SPDX-License-Identifier: GPL-3.0-or-later
#include "hardware/hardware_catalog.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <algorithm>
#include <string>

using namespace lse;

namespace {

constexpr double kTera = 1e12;
constexpr std::int64_t kGiB = std::int64_t(1) << 30;

QByteArray builtinCatalogBytes()
{
    QFile file(":/hardware/catalog.json");
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

// The figure a table row names, so each row can check one cell of cost-model-notes.md.
double figureOf(const Accelerator &accelerator, const QString &name)
{
    if (name == "bf16")
        return accelerator.dense_peak.bf16_flops_per_second;
    if (name == "fp16")
        return accelerator.dense_peak.fp16_flops_per_second;
    if (name == "fp8")
        return accelerator.dense_peak.fp8_flops_per_second;
    if (name == "tf32")
        return accelerator.dense_peak.tf32_flops_per_second;
    if (name == "fp32")
        return accelerator.dense_peak.fp32_flops_per_second;
    if (name == "memory")
        return double(accelerator.memory_bytes);
    if (name == "hbm")
        return accelerator.memory_bandwidth_bytes_per_second;
    if (name == "link")
        return accelerator.intra_node_bandwidth_bytes_per_second;
    if (name == "network")
        return accelerator.inter_node_bandwidth_bytes_per_second;
    if (name == "sms")
        return accelerator.sm_count;
    if (name == "sram")
        return double(accelerator.sram_bytes);
    if (name == "l2")
        return double(accelerator.l2_bytes);
    return -1;
}

bool hasProblem(const Problems &problems, const std::string &field, const std::string &rule)
{
    return std::any_of(problems.begin(), problems.end(),
                       [&](const Problem &p) { return p.field == field && p.rule == rule; });
}

QByteArray catalogWith(const QJsonArray &accelerators)
{
    QJsonObject root;
    root.insert("format", "llm-explorer-hardware");
    root.insert("version", 1);
    root.insert("accelerators", accelerators);
    return QJsonDocument(root).toJson();
}

}  // namespace

class TestHardwareCatalog : public QObject {
    Q_OBJECT

private slots:
    void builtinParsesWithoutProblems()
    {
        const QByteArray bytes = builtinCatalogBytes();
        QVERIFY2(!bytes.isEmpty(), "the catalog is not compiled into the resources");
        const Result<HardwareCatalog> catalog = parseHardwareCatalog(bytes);
        QVERIFY2(catalog.ok(), formatProblems(catalog.problems()).c_str());
        QCOMPARE(catalog->accelerators.size(), builtinHardwareCatalog().accelerators.size());
    }

    void everyEntryIsUsable_data()
    {
        QTest::addColumn<QString>("id");
        for (const char *id : {"a100-sxm-40gb", "a100-sxm-80gb", "h100-sxm", "h100-pcie", "h200-sxm", "b200", "mi300x",
                               "tpu-v5p", "l40s", "rtx-4090"})
            QTest::addRow("%s", id) << QString(id);
    }
    void everyEntryIsUsable()
    {
        QFETCH(QString, id);
        const Accelerator *accelerator = builtinHardwareCatalog().find(id.toStdString());
        QVERIFY2(accelerator != nullptr, "missing from the catalog");
        QVERIFY(!accelerator->name.empty());
        QVERIFY(!accelerator->vendor.empty());
        QVERIFY2(!accelerator->source.empty(), "every figure needs its datasheet");
        QVERIFY(!accelerator->note.empty());
        QVERIFY(accelerator->memory_bytes > 0);
        QVERIFY(accelerator->memory_bandwidth_bytes_per_second > 0);
        QVERIFY(accelerator->intra_node_bandwidth_bytes_per_second > 0);
        QVERIFY(accelerator->inter_node_bandwidth_bytes_per_second > 0);
        QVERIFY(accelerator->dense_peak.bf16_flops_per_second > 0);
        QVERIFY(accelerator->sm_count > 0);
        // Dense peaks never exceed the lower-precision rate of the same chip (a sparse figure
        // slipped in would break this).
        const PeakFlops &peak = accelerator->dense_peak;
        QVERIFY(peak.tf32_flops_per_second <= peak.bf16_flops_per_second);
        QVERIFY(peak.fp8_flops_per_second == 0 || peak.fp8_flops_per_second >= peak.bf16_flops_per_second);
    }

    void everyEntryRoundTripsThroughJson_data()
    {
        QTest::addColumn<int>("index");
        const auto &accelerators = builtinHardwareCatalog().accelerators;
        for (std::size_t i = 0; i < accelerators.size(); ++i)
            QTest::addRow("%s", accelerators[i].id.c_str()) << int(i);
    }
    void everyEntryRoundTripsThroughJson()
    {
        QFETCH(int, index);
        const Accelerator &original = builtinHardwareCatalog().accelerators[std::size_t(index)];
        const QJsonObject json = acceleratorToJson(original);
        const Result<Accelerator> back = acceleratorFromJson(json, "accelerator");
        QVERIFY2(back.ok(), formatProblems(back.problems()).c_str());
        QCOMPARE(acceleratorToJson(*back), json);
        QCOMPARE(back->memory_bytes, original.memory_bytes);
        QCOMPARE(back->dense_peak.fp8_flops_per_second, original.dense_peak.fp8_flops_per_second);
        QCOMPARE(back->source, original.source);
    }

    // One row per cell of the hardware table in cost-model-notes.md (plus the H100 PCIe figures the
    // brief gives), named after the datasheet the cell comes from.
    void figuresMatchTheNotes_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("figure");
        QTest::addColumn<double>("expected");

        QTest::addRow("A100 SXM 40GB bf16 312 TFLOPS (NVIDIA A100 datasheet)") << "a100-sxm-40gb" << "bf16" << 312 * kTera;
        QTest::addRow("A100 SXM 40GB tf32 156 TFLOPS (NVIDIA A100 datasheet)") << "a100-sxm-40gb" << "tf32" << 156 * kTera;
        QTest::addRow("A100 SXM 40GB fp32 19.5 TFLOPS (NVIDIA A100 datasheet)") << "a100-sxm-40gb" << "fp32" << 19.5 * kTera;
        QTest::addRow("A100 SXM 40GB no fp8 (NVIDIA A100 datasheet)") << "a100-sxm-40gb" << "fp8" << 0.0;
        QTest::addRow("A100 SXM 40GB 40 GB (NVIDIA A100 datasheet)") << "a100-sxm-40gb" << "memory" << 40e9;
        QTest::addRow("A100 SXM 40GB 1555 GB/s (NVIDIA A100 datasheet)") << "a100-sxm-40gb" << "hbm" << 1555e9;
        QTest::addRow("A100 SXM 40GB NVLink3 600 GB/s bidirectional (NVIDIA A100 datasheet)") << "a100-sxm-40gb" << "link" << 300e9;
        QTest::addRow("A100 SXM 80GB bf16 312 TFLOPS (NVIDIA A100 datasheet)") << "a100-sxm-80gb" << "bf16" << 312 * kTera;
        QTest::addRow("A100 SXM 80GB 80 GB (NVIDIA A100 datasheet)") << "a100-sxm-80gb" << "memory" << 80e9;
        QTest::addRow("A100 SXM 80GB 2039 GB/s (NVIDIA A100 datasheet)") << "a100-sxm-80gb" << "hbm" << 2039e9;
        QTest::addRow("A100 SXM 80GB NVLink3 600 GB/s bidirectional (NVIDIA A100 datasheet)") << "a100-sxm-80gb" << "link" << 300e9;

        QTest::addRow("H100 SXM bf16 989.4 TFLOPS (NVIDIA H100 datasheet, dense)") << "h100-sxm" << "bf16" << 989.4 * kTera;
        QTest::addRow("H100 SXM fp16 989.4 TFLOPS (NVIDIA H100 datasheet, dense)") << "h100-sxm" << "fp16" << 989.4 * kTera;
        QTest::addRow("H100 SXM fp8 1978.9 TFLOPS (NVIDIA H100 datasheet, dense)") << "h100-sxm" << "fp8" << 1978.9 * kTera;
        QTest::addRow("H100 SXM tf32 494.7 TFLOPS (NVIDIA H100 datasheet, dense)") << "h100-sxm" << "tf32" << 494.7 * kTera;
        QTest::addRow("H100 SXM fp32 66.9 TFLOPS (NVIDIA H100 whitepaper)") << "h100-sxm" << "fp32" << 66.9 * kTera;
        QTest::addRow("H100 SXM 80 GB (NVIDIA H100 datasheet)") << "h100-sxm" << "memory" << 80e9;
        QTest::addRow("H100 SXM 3.35 TB/s (NVIDIA H100 datasheet)") << "h100-sxm" << "hbm" << 3.35e12;
        QTest::addRow("H100 SXM NVLink4 900 GB/s bidirectional (NVIDIA H100 datasheet)") << "h100-sxm" << "link" << 450e9;
        QTest::addRow("H100 SXM 400 Gb/s NIC per GPU (DGX H100 user guide)") << "h100-sxm" << "network" << 50e9;
        QTest::addRow("H100 SXM 132 SMs (NVIDIA H100 whitepaper)") << "h100-sxm" << "sms" << 132.0;
        QTest::addRow("H100 SXM 132 x 228 KiB shared memory (CUDA programming guide cc 9.0)") << "h100-sxm" << "sram" << 132.0 * 228 * 1024;
        QTest::addRow("H100 SXM 50 MiB L2 (NVIDIA H100 whitepaper)") << "h100-sxm" << "l2" << 50.0 * 1024 * 1024;

        QTest::addRow("H100 PCIe bf16 756 TFLOPS (NVIDIA H100 datasheet, dense)") << "h100-pcie" << "bf16" << 756 * kTera;
        QTest::addRow("H100 PCIe fp8 1513 TFLOPS (NVIDIA H100 datasheet, dense)") << "h100-pcie" << "fp8" << 1513 * kTera;
        QTest::addRow("H100 PCIe tf32 378 TFLOPS (NVIDIA H100 datasheet, dense)") << "h100-pcie" << "tf32" << 378 * kTera;
        QTest::addRow("H100 PCIe fp32 51.2 TFLOPS (NVIDIA H100 datasheet)") << "h100-pcie" << "fp32" << 51.2 * kTera;
        QTest::addRow("H100 PCIe 80 GB (NVIDIA H100 datasheet)") << "h100-pcie" << "memory" << 80e9;
        QTest::addRow("H100 PCIe 2.0 TB/s (NVIDIA H100 datasheet)") << "h100-pcie" << "hbm" << 2.0e12;
        QTest::addRow("H100 PCIe NVLink bridge 600 GB/s bidirectional (NVIDIA H100 datasheet)") << "h100-pcie" << "link" << 300e9;
        QTest::addRow("H100 PCIe 114 SMs (NVIDIA H100 whitepaper)") << "h100-pcie" << "sms" << 114.0;

        QTest::addRow("H200 SXM bf16 989.4 TFLOPS (NVIDIA H200 datasheet, dense)") << "h200-sxm" << "bf16" << 989.4 * kTera;
        QTest::addRow("H200 SXM fp8 1978.9 TFLOPS (NVIDIA H200 datasheet, dense)") << "h200-sxm" << "fp8" << 1978.9 * kTera;
        QTest::addRow("H200 SXM tf32 494.7 TFLOPS (NVIDIA H200 datasheet, dense)") << "h200-sxm" << "tf32" << 494.7 * kTera;
        QTest::addRow("H200 SXM fp32 66.9 TFLOPS (NVIDIA H200 datasheet)") << "h200-sxm" << "fp32" << 66.9 * kTera;
        QTest::addRow("H200 SXM 141 GB (NVIDIA H200 datasheet)") << "h200-sxm" << "memory" << 141e9;
        QTest::addRow("H200 SXM 4.8 TB/s (NVIDIA H200 datasheet)") << "h200-sxm" << "hbm" << 4.8e12;
        QTest::addRow("H200 SXM NVLink 900 GB/s bidirectional (NVIDIA H200 datasheet)") << "h200-sxm" << "link" << 450e9;

        QTest::addRow("B200 bf16 2250 TFLOPS (NVIDIA HGX B200 specifications, dense)") << "b200" << "bf16" << 2250 * kTera;
        QTest::addRow("B200 fp8 4500 TFLOPS (NVIDIA HGX B200 specifications, dense)") << "b200" << "fp8" << 4500 * kTera;
        QTest::addRow("B200 tf32 1100 TFLOPS (NVIDIA Blackwell datasheet, dense)") << "b200" << "tf32" << 1100 * kTera;
        QTest::addRow("B200 fp32 75 TFLOPS (NVIDIA HGX B200 specifications)") << "b200" << "fp32" << 75 * kTera;
        QTest::addRow("B200 180 GB (NVIDIA HGX B200 specifications)") << "b200" << "memory" << 180e9;
        QTest::addRow("B200 8 TB/s (NVIDIA HGX B200 specifications)") << "b200" << "hbm" << 8e12;
        QTest::addRow("B200 NVLink5 1.8 TB/s bidirectional (NVIDIA HGX B200 specifications)") << "b200" << "link" << 900e9;

        QTest::addRow("MI300X bf16 1307.4 TFLOPS (AMD MI300X data sheet)") << "mi300x" << "bf16" << 1307.4 * kTera;
        QTest::addRow("MI300X fp8 2614.9 TFLOPS (AMD MI300X data sheet)") << "mi300x" << "fp8" << 2614.9 * kTera;
        QTest::addRow("MI300X tf32 653.7 TFLOPS (AMD MI300X data sheet)") << "mi300x" << "tf32" << 653.7 * kTera;
        QTest::addRow("MI300X fp32 163.4 TFLOPS (AMD MI300X data sheet)") << "mi300x" << "fp32" << 163.4 * kTera;
        QTest::addRow("MI300X 192 GiB (AMD ROCm GPU specifications)") << "mi300x" << "memory" << double(192 * kGiB);
        QTest::addRow("MI300X 5.3 TB/s (AMD MI300X data sheet)") << "mi300x" << "hbm" << 5.3e12;
        QTest::addRow("MI300X Infinity Fabric 896 GB/s bidirectional (AMD MI300X data sheet)") << "mi300x" << "link" << 448e9;
        QTest::addRow("MI300X 304 CUs (AMD ROCm GPU specifications)") << "mi300x" << "sms" << 304.0;

        QTest::addRow("TPU v5p bf16 459 TFLOPS (Google Cloud TPU v5p documentation)") << "tpu-v5p" << "bf16" << 459 * kTera;
        QTest::addRow("TPU v5p no fp32 matrix rate (Google Cloud TPU v5p documentation)") << "tpu-v5p" << "fp32" << 0.0;
        QTest::addRow("TPU v5p 95 GiB (Google Cloud TPU v5p documentation)") << "tpu-v5p" << "memory" << double(95 * kGiB);
        QTest::addRow("TPU v5p 2765 GB/s (Google Cloud TPU v5p documentation)") << "tpu-v5p" << "hbm" << 2765e9;

        QTest::addRow("L40S bf16 362.05 TFLOPS (NVIDIA L40S datasheet, dense)") << "l40s" << "bf16" << 362.05 * kTera;
        QTest::addRow("L40S fp8 733 TFLOPS (NVIDIA L40S datasheet, dense)") << "l40s" << "fp8" << 733 * kTera;
        QTest::addRow("L40S 48 GB (NVIDIA L40S datasheet)") << "l40s" << "memory" << 48e9;
        QTest::addRow("L40S 864 GB/s (NVIDIA L40S datasheet)") << "l40s" << "hbm" << 864e9;
        QTest::addRow("L40S PCIe 4.0 x16 31.5 GB/s per direction (PCIe 4.0 specification)") << "l40s" << "link" << 31.5e9;
        QTest::addRow("RTX 4090 bf16 165.2 TFLOPS fp32 accumulate (NVIDIA Ada whitepaper)") << "rtx-4090" << "bf16" << 165.2 * kTera;
        QTest::addRow("RTX 4090 fp8 330.3 TFLOPS (NVIDIA Ada whitepaper)") << "rtx-4090" << "fp8" << 330.3 * kTera;
        QTest::addRow("RTX 4090 tf32 82.6 TFLOPS (NVIDIA Ada whitepaper)") << "rtx-4090" << "tf32" << 82.6 * kTera;
        QTest::addRow("RTX 4090 fp32 82.6 TFLOPS (NVIDIA Ada whitepaper)") << "rtx-4090" << "fp32" << 82.6 * kTera;
        QTest::addRow("RTX 4090 24 GB (NVIDIA Ada whitepaper)") << "rtx-4090" << "memory" << 24e9;
        QTest::addRow("RTX 4090 1008 GB/s (NVIDIA Ada whitepaper)") << "rtx-4090" << "hbm" << 1008e9;
        QTest::addRow("RTX 4090 PCIe 4.0 x16 31.5 GB/s per direction (PCIe 4.0 specification)") << "rtx-4090" << "link" << 31.5e9;
    }
    void figuresMatchTheNotes()
    {
        QFETCH(QString, id);
        QFETCH(QString, figure);
        QFETCH(double, expected);
        const Accelerator *accelerator = builtinHardwareCatalog().find(id.toStdString());
        QVERIFY(accelerator != nullptr);
        QCOMPARE(figureOf(*accelerator, figure), expected);
    }

    void unknownIdIsNotFound() { QVERIFY(builtinHardwareCatalog().find("h100") == nullptr); }

    void customAcceleratorStartsFromH100()
    {
        const Accelerator custom = customAccelerator();
        QCOMPARE(custom.id, std::string("custom"));
        QVERIFY(!custom.name.empty());
        QVERIFY(!custom.source.empty());
        const Accelerator *h100 = builtinHardwareCatalog().find("h100-sxm");
        QVERIFY(h100 != nullptr);
        QCOMPARE(custom.dense_peak.bf16_flops_per_second, h100->dense_peak.bf16_flops_per_second);
        QCOMPARE(custom.memory_bytes, h100->memory_bytes);
        QVERIFY(custom.intra_node_bandwidth_bytes_per_second > 0);
        QVERIFY(builtinHardwareCatalog().find("custom") == nullptr);
    }

    void badCatalogs_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("rule");

        QJsonObject good = acceleratorToJson(*builtinHardwareCatalog().find("h100-sxm"));
        QTest::addRow("not JSON") << QByteArray("{\"format\": ") << "file" << "json";
        QTest::addRow("top level is an array") << QByteArray("[]") << "file" << "format";
        QTest::addRow("wrong format") << QByteArray(R"({"format": "llm-explorer-scenario", "version": 1})") << "file"
                                      << "format";
        QTest::addRow("newer version") << QByteArray(R"({"format": "llm-explorer-hardware", "version": 2})") << "file"
                                       << "version";
        QTest::addRow("accelerators not an array")
            << QByteArray(R"({"format": "llm-explorer-hardware", "version": 1, "accelerators": {}})") << "accelerators"
            << "type";
        QTest::addRow("entry not an object") << catalogWith({good, 42}) << "accelerators[1]" << "type";

        QJsonObject text = good;
        text.insert("memory_bytes", "80GB");
        QTest::addRow("memory as text") << catalogWith({good, text}) << "accelerators[1].memory_bytes" << "type";

        QJsonObject fraction = good;
        fraction.insert("sm_count", 131.5);
        QTest::addRow("fractional SM count") << catalogWith({fraction}) << "accelerators[0].sm_count" << "integer";

        QJsonObject negative = good;
        QJsonObject peak = negative.value("dense_peak").toObject();
        peak.insert("bf16", -1);
        negative.insert("dense_peak", peak);
        QTest::addRow("negative peak") << catalogWith({negative}) << "accelerators[0].dense_peak.bf16" << "range";

        QJsonObject peakText = good;
        peakText.insert("dense_peak", "989 TFLOPS");
        QTest::addRow("dense_peak not an object") << catalogWith({peakText}) << "accelerators[0].dense_peak" << "type";

        QTest::addRow("duplicate id") << catalogWith({good, good}) << "accelerators[1].id" << "duplicate";

        QJsonObject unsourced = good;
        unsourced.remove("source");
        QTest::addRow("no source") << catalogWith({unsourced}) << "accelerators[0].source" << "required";

        QJsonObject anonymous = good;
        anonymous.insert("id", "");
        QTest::addRow("empty id") << catalogWith({anonymous}) << "accelerators[0].id" << "required";
    }
    void badCatalogs()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, field);
        QFETCH(QString, rule);
        const Result<HardwareCatalog> catalog = parseHardwareCatalog(json);
        QVERIFY(!catalog.ok());
        QVERIFY2(hasProblem(catalog.problems(), field.toStdString(), rule.toStdString()),
                 formatProblems(catalog.problems()).c_str());
        for (const Problem &problem : catalog.problems())
            QVERIFY2(problem.message.rfind(problem.field + ": ", 0) == 0, "messages start with their field");
    }

    void everyProblemIsReported()
    {
        QJsonObject entry = acceleratorToJson(*builtinHardwareCatalog().find("b200"));
        entry.insert("memory_bytes", "lots");
        entry.insert("sm_count", -1);
        entry.insert("source", 3);
        const Result<HardwareCatalog> catalog = parseHardwareCatalog(catalogWith({entry, entry}));
        QVERIFY(!catalog.ok());
        QCOMPARE(catalog.problems().size(), std::size_t(6));
        QVERIFY(hasProblem(catalog.problems(), "accelerators[1].memory_bytes", "type"));
        QVERIFY(hasProblem(catalog.problems(), "accelerators[1].sm_count", "range"));
        QVERIFY(hasProblem(catalog.problems(), "accelerators[0].source", "type"));
    }
};

QTEST_GUILESS_MAIN(TestHardwareCatalog)
#include "test_hardware_catalog.moc"
