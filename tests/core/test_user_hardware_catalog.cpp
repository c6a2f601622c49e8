// SPDX-License-Identifier: GPL-3.0-or-later
// The user's hardware catalog file: round trip, append, unique calibrated ids, and a broken file
// refused and left exactly as it was.
#include "hardware/user_hardware_catalog.h"

#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace lse;

namespace {

Accelerator calibratedA100(const std::string &id)
{
    Accelerator accelerator = *builtinHardwareCatalog().find("a100-sxm-80gb");
    accelerator.id = id;
    accelerator.name = "NVIDIA A100 SXM4 80GB (calibrated)";
    accelerator.efficiency.gemm_peak_fraction = 0.6125;
    accelerator.efficiency.source = "fitted to a measured step of 12.5 s";
    accelerator.source = "calibrated from a100-sxm-80gb";
    return accelerator;
}

QByteArray fileBytes(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool hasProblem(const Problems &problems, const std::string &field, const std::string &rule)
{
    return std::any_of(problems.begin(), problems.end(),
                       [&](const Problem &p) { return p.field == field && p.rule == rule; });
}

}  // namespace

class TestUserHardwareCatalog : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void pathIsInTheAppDataFolder()
    {
        const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
        QCOMPARE(QString::fromStdString(userHardwareCatalogPath()), folder + QStringLiteral("/hardware.json"));
    }

    void missingFileIsAnEmptyCatalog()
    {
        QTemporaryDir dir;
        const Result<HardwareCatalog> catalog = loadUserHardwareCatalog(dir.filePath("none/hardware.json").toStdString());
        QVERIFY(catalog.ok());
        QVERIFY(catalog->accelerators.empty());
    }

    void appendRoundTripsAndKeepsEarlierEntries()
    {
        QTemporaryDir dir;
        // A folder that does not exist yet, as AppDataLocation on first use.
        const std::string path = dir.filePath("app/hardware.json").toStdString();
        const Result<HardwareCatalog> first = appendToUserHardwareCatalog(path, calibratedA100("a100-sxm-80gb-calibrated-1"));
        QVERIFY2(first.ok(), formatProblems(first.problems()).c_str());
        const Result<HardwareCatalog> second = appendToUserHardwareCatalog(path, calibratedA100("a100-sxm-80gb-calibrated-2"));
        QVERIFY2(second.ok(), formatProblems(second.problems()).c_str());

        const Result<HardwareCatalog> loaded = loadUserHardwareCatalog(path);
        QVERIFY2(loaded.ok(), formatProblems(loaded.problems()).c_str());
        QCOMPARE(loaded->accelerators.size(), std::size_t(2));
        const Accelerator expected = calibratedA100("a100-sxm-80gb-calibrated-2");
        const Accelerator &read = loaded->accelerators[1];
        QCOMPARE(read.id, expected.id);
        QCOMPARE(read.name, expected.name);
        QCOMPARE(read.efficiency, expected.efficiency);
        QCOMPARE(read.dense_peak.bf16_flops_per_second, expected.dense_peak.bf16_flops_per_second);
        QCOMPARE(read.memory_bandwidth_bytes_per_second, expected.memory_bandwidth_bytes_per_second);
        QCOMPARE(read.sm_count, expected.sm_count);
        QCOMPARE(read.source, expected.source);
        // Same format as the built-in catalog: the catalog parser reads it.
        QVERIFY(parseHardwareCatalog(fileBytes(QString::fromStdString(path))).ok());
    }

    void duplicateIdIsRefusedAndNothingWritten()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("hardware.json").toStdString();
        QVERIFY(appendToUserHardwareCatalog(path, calibratedA100("mine")).ok());
        const QByteArray before = fileBytes(QString::fromStdString(path));

        const Result<HardwareCatalog> again = appendToUserHardwareCatalog(path, calibratedA100("mine"));
        QVERIFY(!again.ok());
        QVERIFY(hasProblem(again.problems(), "id", "duplicate"));
        // A built-in id is taken too.
        QVERIFY(hasProblem(appendToUserHardwareCatalog(path, calibratedA100("h100-sxm")).problems(), "id", "duplicate"));
        Accelerator unsourced = calibratedA100("other");
        unsourced.source.clear();
        QVERIFY(hasProblem(appendToUserHardwareCatalog(path, unsourced).problems(), "source", "required"));
        QCOMPARE(fileBytes(QString::fromStdString(path)), before);
    }

    void brokenFileIsRefusedAndLeftUntouched_data()
    {
        QTest::addColumn<QByteArray>("contents");
        QTest::newRow("not json") << QByteArray("{ \"format\": \"llm-explorer-hardware\", ");
        QTest::newRow("other format") << QByteArray(R"({"format": "llm-explorer-scenario", "version": 1})");
        QTest::newRow("entry without source")
            << QByteArray(R"({"format": "llm-explorer-hardware", "version": 1, "accelerators": [{"id": "x"}]})");
    }

    void brokenFileIsRefusedAndLeftUntouched()
    {
        QFETCH(QByteArray, contents);
        QTemporaryDir dir;
        const QString path = dir.filePath("hardware.json");
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            QCOMPARE(file.write(contents), contents.size());
        }
        const Result<HardwareCatalog> loaded = loadUserHardwareCatalog(path.toStdString());
        QVERIFY(!loaded.ok());
        QVERIFY2(loaded.problems().front().message.find(path.toStdString()) != std::string::npos,
                 loaded.problems().front().message.c_str());

        const Result<HardwareCatalog> appended = appendToUserHardwareCatalog(path.toStdString(), calibratedA100("mine"));
        QVERIFY(!appended.ok());
        QCOMPARE(fileBytes(path), contents);
    }

    void calibratedIdsAreNumberedAndUnique()
    {
        HardwareCatalog user;
        QCOMPARE(nextCalibratedAcceleratorId("h100-sxm", user), std::string("h100-sxm-calibrated-1"));
        user.accelerators.push_back(calibratedA100("h100-sxm-calibrated-1"));
        QCOMPARE(nextCalibratedAcceleratorId("h100-sxm", user), std::string("h100-sxm-calibrated-2"));
        // Calibrating a calibrated entry numbers from the original id.
        QCOMPARE(nextCalibratedAcceleratorId("h100-sxm-calibrated-1", user), std::string("h100-sxm-calibrated-2"));
    }
};

QTEST_GUILESS_MAIN(TestUserHardwareCatalog)
#include "test_user_hardware_catalog.moc"
