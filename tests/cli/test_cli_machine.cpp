// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli machine`: JSON structure of a quick measurement, the cache being read, and
// exit 2 with nothing on stdout for bad options. No speed is asserted (the machine is noisy).
// LSE_CACHE_DIR points at a temporary folder, inherited by the CLI, so the user's cache is untouched.

#include "hardware/machine_roofline.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QTest>

#include "cli_run.h"

#include <cmath>

using namespace lse;

namespace {

using lse::test::Run;
using lse::test::runCli;

}  // namespace

class TestCliMachine : public QObject {
    Q_OBJECT

    QTemporaryDir cacheDir_;
    QString cacheFile() const { return cacheDir_.filePath(QStringLiteral("machine-roofline.json")); }

private slots:
    void initTestCase()
    {
        QVERIFY(cacheDir_.isValid());
        qputenv("LSE_CACHE_DIR", cacheDir_.path().toUtf8());
    }

    void init() { QFile::remove(cacheFile()); }

    void help()
    {
        const Run run = runCli({"machine", "--help"});
        QCOMPARE(run.exit_code, 0);
        QVERIFY(run.out.contains("Usage: llm-explorer-cli machine"));
        QVERIFY(runCli({"--help"}).out.contains("machine"));
    }

    void quickJson()
    {
        const Run run = runCli({"machine", "--json", "--quick"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(run.out, &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        const QJsonObject object = document.object();
        for (const char *key : {"peak_flops_per_s_one_core", "peak_flops_per_s_all_cores", "bandwidth_bytes_per_s_one_core",
                                "bandwidth_bytes_per_s_all_cores", "ridge_point_flop_per_byte", "sgemm_n", "stream_bytes",
                                "logical_cores", "threads_used"}) {
            const double value = object.value(QLatin1String(key)).toDouble(-1);
            QVERIFY2(std::isfinite(value) && value > 0, key);
        }
        for (const char *key : {"cpu_model", "build_flags", "measured_at", "cache_path"})
            QVERIFY2(!object.value(QLatin1String(key)).toString().isEmpty(), key);
        QCOMPARE(object.value("format").toString(), QStringLiteral("llm-explorer-machine-roofline"));
        QCOMPARE(object.value("quick").toBool(), true);
        QCOMPARE(object.value("from_cache").toBool(), false);
        QCOMPARE(object.value("cache_path").toString(), cacheFile());
        QVERIFY(run.err.contains("measuring"));  // progress goes to stderr, not into the JSON
        QVERIFY2(!QFile::exists(cacheFile()), "quick runs are never cached");
    }

    // Above one thread, each element-wise kernel class's parallel threshold from the measured
    // region (issue 35), in JSON and in the table.
    void quickThresholdsAboveOneThread()
    {
        if (QThread::idealThreadCount() < 2)
            QSKIP("one logical core: no second thread count to measure");
        const Run json = runCli({"machine", "--json", "--quick", "--threads", "2"});
        QVERIFY2(json.exit_code == 0, json.err.constData());
        const QJsonArray kernels = QJsonDocument::fromJson(json.out).object().value("kernels").toArray();
        QCOMPARE(kernels.size(), 2);
        QVERIFY(!kernels.at(0).toObject().contains("parallel_min_elements"));  // one thread never splits
        const QJsonObject thresholds = kernels.at(1).toObject().value("parallel_min_elements").toObject();
        for (const char *kernel : {"norm", "residual", "activation", "rope", "cross_entropy"}) {
            const double elements = thresholds.value(QLatin1String(kernel)).toDouble(-1);
            QVERIFY2(std::isfinite(elements) && elements >= 256, kernel);
        }
        const Run table = runCli({"machine", "--quick", "--threads", "2"});
        QVERIFY2(table.exit_code == 0, table.err.constData());
        QVERIFY2(table.out.contains("split over threads from"), table.out.constData());
    }

    void quickTable()
    {
        const Run run = runCli({"machine", "--quick"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        for (const char *text : {"GFLOP/s", "GB/s", "ridge point", "FLOP/B", "cpu", "build", "measured at", "QUICK"})
            QVERIFY2(run.out.contains(text), text);
    }

    void cachedEntryIsUsed()
    {
        // The test and the CLI link the same core library, so this identity is the CLI's too.
        MachineRoofline fake = currentMachineIdentity();
        fake.threads_used = 2;
        fake.peak_flops_per_s_one_core = 12.5e9;
        fake.peak_flops_per_s_all_cores = 25e9;
        fake.bandwidth_bytes_per_s_one_core = 5e9;
        fake.bandwidth_bytes_per_s_all_cores = 10e9;
        fake.measured_at = "2026-01-02T03:04:05Z";
        fake.sgemm_n = 2048;
        fake.sgemm_n_one_core = 1536;
        fake.stream_bytes = 1e9;
        const Result<std::string> saved = saveMachineRoofline(fake);
        QVERIFY2(saved.ok(), formatProblems(saved.problems()).c_str());

        const Run json = runCli({"machine", "--json"});
        QVERIFY2(json.exit_code == 0, json.err.constData());
        const QJsonObject object = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(object.value("from_cache").toBool(), true);
        QCOMPARE(object.value("peak_flops_per_s_all_cores").toDouble(), 25e9);
        QCOMPARE(object.value("ridge_point_flop_per_byte").toDouble(), 2.5);
        QCOMPARE(object.value("measured_at").toString(), QStringLiteral("2026-01-02T03:04:05Z"));
        QVERIFY(!json.err.contains("measuring"));

        const Run table = runCli({"machine"});
        QCOMPARE(table.exit_code, 0);
        QVERIFY(table.out.contains("25.0 GFLOP/s"));
        QVERIFY(table.out.contains("from cache"));
        QVERIFY(table.out.contains("2026-01-02T03:04:05Z"));
    }

    // Issue 13, item 10: a cached roofline measured under load (all cores slower than one) is
    // flagged with a re-measure hint, in the table and in JSON.
    void implausibleCacheIsFlagged()
    {
        MachineRoofline fake = currentMachineIdentity();
        fake.threads_used = 2;
        fake.peak_flops_per_s_one_core = 64.2e9;
        fake.peak_flops_per_s_all_cores = 57.7e9;
        fake.bandwidth_bytes_per_s_one_core = 5e9;
        fake.bandwidth_bytes_per_s_all_cores = 10e9;
        fake.measured_at = "2026-01-02T03:04:05Z";
        fake.load_average = 0;
        QVERIFY(saveMachineRoofline(fake).ok());
        const Run table = runCli({"machine"});
        QCOMPARE(table.exit_code, 0);
        QVERIFY2(table.out.contains("WARNING"), table.out.constData());
        QVERIFY(table.out.contains("57.7 GFLOP/s"));
        QVERIFY(table.out.contains("--remeasure"));
        QVERIFY(table.out.contains("2026-01-02T03:04:05Z"));
        const Run json = runCli({"machine", "--json"});
        QCOMPARE(json.exit_code, 0);
        const QJsonObject object = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(object.value("plausible").toBool(), false);
        const QJsonArray warnings = object.value("warnings").toArray();
        QCOMPARE(warnings.size(), 1);
        QCOMPARE(warnings.at(0).toObject().value("rule").toString(), QStringLiteral("all-cores-slower"));

        fake.peak_flops_per_s_all_cores = 120e9;  // plausible: no warning
        QVERIFY(saveMachineRoofline(fake).ok());
        const Run fine = runCli({"machine"});
        QVERIFY(!fine.out.contains("WARNING"));
        QCOMPARE(QJsonDocument::fromJson(runCli({"machine", "--json"}).out).object().value("plausible").toBool(), true);
    }

    void badOptions_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("unknown option") << QStringList{"machine", "--bogus"};
        QTest::newRow("positional") << QStringList{"machine", "extra"};
        QTest::newRow("value for a flag") << QStringList{"machine", "--json=yes"};
    }
    void badOptions()
    {
        QFETCH(QStringList, arguments);
        const Run run = runCli(arguments);
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.out.isEmpty(), run.out.constData());
        QVERIFY(run.err.contains("error"));
        QVERIFY(!run.err.contains("measuring"));
    }
};

QTEST_GUILESS_MAIN(TestCliMachine)
#include "test_cli_machine.moc"
