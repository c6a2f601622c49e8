// SPDX-License-Identifier: GPL-3.0-or-later
#include "hardware/hardware_catalog.h"
#include "hardware/memory_hierarchy.h"

#include <QTest>

#include <cmath>

using namespace lse;

namespace {

const MemoryLevel *levelOf(const std::vector<MemoryLevel> &levels, MemoryLevelKind kind)
{
    for (const MemoryLevel &level : levels)
        if (level.kind == kind)
            return &level;
    return nullptr;
}

}  // namespace

class TestMemoryHierarchy : public QObject {
    Q_OBJECT
private slots:
    void everyCatalogAccelerator_data();
    void everyCatalogAccelerator();
    void publishedAnatomy_data();
    void publishedAnatomy();
    void pcieAndNetwork();
    void unknownAcceleratorHasNoInventedFigures();
};

void TestMemoryHierarchy::everyCatalogAccelerator_data()
{
    QTest::addColumn<QString>("id");
    for (const Accelerator &accelerator : builtinHardwareCatalog().accelerators)
        QTest::addRow("%s", accelerator.id.c_str()) << QString::fromStdString(accelerator.id);
}

void TestMemoryHierarchy::everyCatalogAccelerator()
{
    QFETCH(QString, id);
    const Accelerator &accelerator = *builtinHardwareCatalog().find(id.toStdString());
    const std::vector<MemoryLevel> levels = memoryHierarchy(accelerator);
    QCOMPARE(int(levels.size()), 7);

    // Bandwidth falls from the registers down to NVMe (known figures only).
    double previous_bandwidth = 0;
    for (const MemoryLevel &level : levels) {
        if (level.kind == MemoryLevelKind::Network || level.bandwidth_bytes_per_second <= 0)
            continue;
        if (previous_bandwidth > 0)
            QVERIFY2(level.bandwidth_bytes_per_second < previous_bandwidth, level.name.c_str());
        previous_bandwidth = level.bandwidth_bytes_per_second;
    }
    // Capacity rises from SRAM down to NVMe (the register file is bigger than shared memory).
    double previous_capacity = 0;
    for (const MemoryLevel &level : levels) {
        if (level.kind == MemoryLevelKind::Registers || level.kind == MemoryLevelKind::Network ||
            level.capacity_bytes <= 0)
            continue;
        QVERIFY2(level.capacity_bytes > previous_capacity, level.name.c_str());
        previous_capacity = level.capacity_bytes;
    }
    // HBM is the catalog's memory and bandwidth.
    const MemoryLevel *hbm = levelOf(levels, MemoryLevelKind::Hbm);
    QVERIFY(hbm != nullptr);
    QCOMPARE(hbm->capacity_bytes, double(accelerator.memory_bytes));
    QCOMPARE(hbm->bandwidth_bytes_per_second, accelerator.memory_bandwidth_bytes_per_second);
    QVERIFY(!hbm->approximate);
    // SRAM per SM x SMs = the catalog SRAM (the catalog stores SMs x shared memory per SM).
    const AcceleratorAnatomy anatomy = anatomyOf(accelerator);
    if (accelerator.sram_bytes > 0)
        QCOMPARE(anatomy.sram_bytes_per_sm * accelerator.sm_count, accelerator.sram_bytes);
    // Estimates say so.
    for (const MemoryLevel &level : levels) {
        QVERIFY(!level.analogy.empty());
        if (level.approximate && level.bandwidth_bytes_per_second > 0)
            QVERIFY2(level.source.find("approximate") != std::string::npos, level.name.c_str());
    }
}

void TestMemoryHierarchy::publishedAnatomy_data()
{
    // Whitepaper figures, independent of the catalog: SM count, matrix units, shared memory per SM
    // (CUDA C++ Programming Guide: 164 KB on 8.0, 228 KB on 9.0, 100 KB on 8.9; ROCm: 64 KB LDS),
    // register file (64 K 32-bit registers = 256 KB per SM; CDNA3 512 KB VGPR per CU), boost clock.
    QTest::addColumn<QString>("id");
    QTest::addColumn<int>("sms");
    QTest::addColumn<int>("matrix_units");
    QTest::addColumn<qint64>("sram_per_sm");
    QTest::addColumn<qint64>("registers_per_sm");
    QTest::addColumn<double>("clock_ghz");
    // A100 whitepaper: 432 tensor cores, boost 1,410 MHz.
    QTest::addRow("a100") << "a100-sxm-80gb" << 108 << 432 << qint64(164 * 1024) << qint64(256 * 1024) << 1.41;
    // H100 whitepaper: 528 tensor cores on SXM5; FP32 66.9 TFLOPS at 1,980 MHz boost.
    QTest::addRow("h100") << "h100-sxm" << 132 << 528 << qint64(228 * 1024) << qint64(256 * 1024) << 1.98;
    // Ada whitepaper: RTX 4090 has 512 tensor cores, boost 2,520 MHz.
    QTest::addRow("rtx4090") << "rtx-4090" << 128 << 512 << qint64(100 * 1024) << qint64(256 * 1024) << 2.52;
    // AMD MI300X data sheet: 1,216 matrix cores, peak engine clock 2,100 MHz.
    QTest::addRow("mi300x") << "mi300x" << 304 << 1216 << qint64(64 * 1024) << qint64(512 * 1024) << 2.1;
}

void TestMemoryHierarchy::publishedAnatomy()
{
    QFETCH(QString, id);
    QFETCH(int, sms);
    QFETCH(int, matrix_units);
    QFETCH(qint64, sram_per_sm);
    QFETCH(qint64, registers_per_sm);
    QFETCH(double, clock_ghz);
    const AcceleratorAnatomy anatomy = anatomyOf(*builtinHardwareCatalog().find(id.toStdString()));
    QCOMPARE(anatomy.sm_count, sms);
    QCOMPARE(anatomy.matrix_units, matrix_units);
    QCOMPARE(qint64(anatomy.sram_bytes_per_sm), sram_per_sm);
    QCOMPARE(qint64(anatomy.register_bytes_per_sm), registers_per_sm);
    QVERIFY2(std::abs(anatomy.clock_hz / 1e9 - clock_ghz) < 0.01, qPrintable(QString::number(anatomy.clock_hz)));
}

void TestMemoryHierarchy::pcieAndNetwork()
{
    // PCIe spec: Gen5 x16 = 32 GT/s x 16 lanes x 128/130 / 8 = 63.0 GB/s per direction.
    const Accelerator &h100 = *builtinHardwareCatalog().find("h100-sxm");
    const std::vector<MemoryLevel> levels = memoryHierarchy(h100);
    QVERIFY(std::abs(levelOf(levels, MemoryLevelKind::HostRam)->bandwidth_bytes_per_second - 63.0e9) < 0.1e9);
    // DGX H100: 2 TB RAM over 8 GPUs.
    QCOMPARE(levelOf(levels, MemoryLevelKind::HostRam)->capacity_bytes, 250e9);
    // The network is one 400 Gb/s NIC per GPU: 50 GB/s, a link rather than a store.
    QCOMPARE(levelOf(levels, MemoryLevelKind::Network)->bandwidth_bytes_per_second, 50e9);
    QCOMPARE(levelOf(levels, MemoryLevelKind::Network)->capacity_bytes, 0.0);
    // A100: Gen4 x16 = 31.5 GB/s; L2 5,120 B/clk at 1.41 GHz = 7.2 TB/s (A100 whitepaper).
    const std::vector<MemoryLevel> a100 = memoryHierarchy(*builtinHardwareCatalog().find("a100-sxm-40gb"));
    QVERIFY(std::abs(levelOf(a100, MemoryLevelKind::HostRam)->bandwidth_bytes_per_second - 31.5e9) < 0.1e9);
    QVERIFY(std::abs(levelOf(a100, MemoryLevelKind::L2)->bandwidth_bytes_per_second - 7.22e12) < 0.05e12);
}

void TestMemoryHierarchy::unknownAcceleratorHasNoInventedFigures()
{
    Accelerator custom = customAccelerator();
    const std::vector<MemoryLevel> levels = memoryHierarchy(custom);
    QCOMPARE(levelOf(levels, MemoryLevelKind::Registers)->capacity_bytes, 0.0);
    QCOMPARE(levelOf(levels, MemoryLevelKind::L2)->bandwidth_bytes_per_second, 0.0);
    QCOMPARE(levelOf(levels, MemoryLevelKind::HostRam)->capacity_bytes, 0.0);
    QCOMPARE(levelOf(levels, MemoryLevelKind::Hbm)->capacity_bytes, double(custom.memory_bytes));
    QCOMPARE(anatomyOf(custom).matrix_units, 0);
}

QTEST_GUILESS_MAIN(TestMemoryHierarchy)
#include "test_memory_hierarchy.moc"
