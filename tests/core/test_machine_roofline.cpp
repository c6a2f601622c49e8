// SPDX-License-Identifier: GPL-3.0-or-later
// This machine's roofline: a quick measurement is sane (never a speed target: the machine is
// shared and noisy), the JSON round-trips, and the per-machine cache honours its key and
// LSE_CACHE_DIR. Every test works in a temporary LSE_CACHE_DIR, never in the user's cache.

#include "hardware/machine_roofline.h"

#include <Eigen/Core>

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <vector>

using namespace lse;

namespace {

bool positiveFinite(double value) { return std::isfinite(value) && value > 0; }

bool hasProblem(const Problems &problems, const std::string &field, const std::string &rule)
{
    return std::any_of(problems.begin(), problems.end(),
                       [&](const Problem &p) { return p.field == field && p.rule == rule; });
}

// A full-size (not quick) measurement of this machine with made-up numbers, so cache tests do not
// have to measure.
MachineRoofline fakeRoofline()
{
    MachineRoofline r = currentMachineIdentity();
    r.threads_used = 2;
    r.peak_flops_per_s_one_core = 51.5e9;
    r.peak_flops_per_s_all_cores = 100.25e9;
    r.bandwidth_bytes_per_s_one_core = 12.5e9;
    r.bandwidth_bytes_per_s_all_cores = 20.0e9;
    r.measured_at = "2026-11-29T17:30:00Z";
    r.sgemm_n = 2048;
    r.sgemm_n_one_core = 1536;
    r.stream_bytes = 3.0 * 8 * 22369621;
    r.last_level_cache_bytes = 32.0 * 1024 * 1024;
    r.load_average = 0.75;
    return r;
}

void compareRooflines(const MachineRoofline &a, const MachineRoofline &b)
{
    QCOMPARE(a.cpu_model, b.cpu_model);
    QCOMPARE(a.logical_cores, b.logical_cores);
    QCOMPARE(a.build_flags, b.build_flags);
    QCOMPARE(a.threads_used, b.threads_used);
    QCOMPARE(a.peak_flops_per_s_one_core, b.peak_flops_per_s_one_core);
    QCOMPARE(a.peak_flops_per_s_all_cores, b.peak_flops_per_s_all_cores);
    QCOMPARE(a.bandwidth_bytes_per_s_one_core, b.bandwidth_bytes_per_s_one_core);
    QCOMPARE(a.bandwidth_bytes_per_s_all_cores, b.bandwidth_bytes_per_s_all_cores);
    QCOMPARE(a.measured_at, b.measured_at);
    QCOMPARE(a.sgemm_n, b.sgemm_n);
    QCOMPARE(a.sgemm_n_one_core, b.sgemm_n_one_core);
    QCOMPARE(a.stream_bytes, b.stream_bytes);
    QCOMPARE(a.last_level_cache_bytes, b.last_level_cache_bytes);
    QCOMPARE(a.quick, b.quick);
    QCOMPARE(a.load_average, b.load_average);
    QCOMPARE(a.previous_peak_flops_per_s_all_cores, b.previous_peak_flops_per_s_all_cores);
    QCOMPARE(a.previous_measured_at, b.previous_measured_at);
}

// The first field of /proc/loadavg; -1 when it cannot be read.
double oneMinuteLoadAverage()
{
    QFile f(QStringLiteral("/proc/loadavg"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    bool ok = false;
    const double load = f.readAll().split(' ').value(0).toDouble(&ok);
    return ok ? load : -1;
}

bool writeFile(const QString &path, const QByteArray &data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}

}  // namespace

class TestMachineRoofline : public QObject {
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

    void quickMeasurementIsSane()
    {
        Eigen::setNbThreads(1);
        std::vector<int> stages;
        MachineMeasureOptions options;
        options.quick = true;
        const MachineRoofline r = measureMachineRoofline(options, [&stages](std::string_view stage, int index, int count) {
            QVERIFY(!stage.empty());
            QCOMPARE(count, 5);
            stages.push_back(index);
        });
        QCOMPARE(stages, (std::vector<int>{0, 1, 2, 3, 4}));
        QCOMPARE(Eigen::nbThreads(), 1);  // the caller's Eigen setting is restored
        Eigen::setNbThreads(0);  // back to Eigen's default (all OpenMP threads)

        QVERIFY(!r.cpu_model.empty());
        QVERIFY(r.logical_cores >= 1);
        QVERIFY(r.threads_used >= 1);
        QVERIFY2(r.build_flags.find("SIMD") != std::string::npos, r.build_flags.c_str());
        QVERIFY(r.quick);
        QVERIFY(!r.from_cache);
        QVERIFY2(positiveFinite(r.peak_flops_per_s_one_core), std::to_string(r.peak_flops_per_s_one_core).c_str());
        QVERIFY2(positiveFinite(r.peak_flops_per_s_all_cores), std::to_string(r.peak_flops_per_s_all_cores).c_str());
        QVERIFY(positiveFinite(r.bandwidth_bytes_per_s_one_core));
        QVERIFY(positiveFinite(r.bandwidth_bytes_per_s_all_cores));
        // Speed is not asserted (the guide: ratios are printed by benchmarks, never timed in tests):
        // a parallel run that waits for a busy core says nothing about this code. The scaling of
        // this run is printed for whoever reads the log.
        qInfo("quick run at load %.2f on %d logical cores: all cores / one core = %.2f (SGEMM), %.2f (triad)",
              oneMinuteLoadAverage(), r.logical_cores, r.peak_flops_per_s_all_cores / r.peak_flops_per_s_one_core,
              r.bandwidth_bytes_per_s_all_cores / r.bandwidth_bytes_per_s_one_core);
        QCOMPARE(r.sgemm_n, 256.0);
        QCOMPARE(r.sgemm_n_one_core, 192.0);
        QVERIFY(r.stream_bytes > 0 && r.stream_bytes <= 6.0 * 1024 * 1024);
        QVERIFY(r.last_level_cache_bytes >= 0);
        QCOMPARE(r.ridge_point_flop_per_byte(), r.peak_flops_per_s_all_cores / r.bandwidth_bytes_per_s_all_cores);
        const QDateTime at = QDateTime::fromString(QString::fromStdString(r.measured_at), Qt::ISODate);
        QVERIFY2(at.isValid() && at.timeSpec() == Qt::UTC, r.measured_at.c_str());
        QVERIFY(std::llabs(at.secsTo(QDateTime::currentDateTimeUtc())) < 600);
    }

    // Issue 20: the GUI's Cancel. Raised during stage 1, the measurement stops before stage 2,
    // leaves the unmeasured figures 0 and machineRoofline() does not cache the partial result.
    void cancelStopsBeforeTheNextStageAndIsNotCached()
    {
        std::atomic<bool> cancel{false};
        MachineMeasureOptions options;
        options.sgemm_n_all_cores = 64;
        options.sgemm_n_one_core = 48;
        options.sgemm_repeats = 1;
        options.stream_bytes = 3 * 1024 * 1024;
        options.stream_repeats = 1;
        options.cancel = &cancel;
        std::vector<int> stages;
        const MachineRoofline r = machineRoofline(
            true,
            [&](std::string_view, int index, int) {
                stages.push_back(index);
                if (index == 1)
                    cancel = true;
            },
            nullptr, options);
        QCOMPARE(stages, (std::vector<int>{0, 1}));
        QVERIFY(measurementCancelled(options));
        QVERIFY(r.peak_flops_per_s_all_cores > 0);  // stage 0 ran in full
        QCOMPARE(r.bandwidth_bytes_per_s_all_cores, 0.0);
        QCOMPARE(r.bandwidth_bytes_per_s_one_core, 0.0);
        QVERIFY(!QFile::exists(cacheFile()));

        cancel = false;  // the same options without the flag raised measure and cache everything
        const MachineRoofline full = machineRoofline(true, {}, nullptr, options);
        QVERIFY(full.bandwidth_bytes_per_s_one_core > 0);
        QVERIFY(QFile::exists(cacheFile()));
    }

    void explicitSizesAreUsed()
    {
        MachineMeasureOptions options;
        options.sgemm_n_all_cores = 64;
        options.sgemm_n_one_core = 48;
        options.sgemm_repeats = 1;
        options.stream_bytes = 3 * 1024 * 1024;
        options.stream_repeats = 1;
        const MachineRoofline r = measureMachineRoofline(options);
        QCOMPARE(r.sgemm_n, 64.0);
        QCOMPARE(r.sgemm_n_one_core, 48.0);
        QVERIFY(r.stream_bytes > 2.9 * 1024 * 1024 && r.stream_bytes <= 3.0 * 1024 * 1024);
        QVERIFY(!r.quick);
        QVERIFY(positiveFinite(r.peak_flops_per_s_all_cores) && positiveFinite(r.bandwidth_bytes_per_s_one_core));
    }

    void identityIsStable()
    {
        QVERIFY(sameMachine(currentMachineIdentity(), currentMachineIdentity()));
        QVERIFY(detectLastLevelCacheBytes() >= 0);
    }

    void jsonRoundTrip()
    {
        const MachineRoofline original = fakeRoofline();
        const QByteArray json = machineRooflineToJson(original);
        const QJsonObject object = QJsonDocument::fromJson(json).object();
        for (const char *key : {"format", "version", "cpu_model", "logical_cores", "threads_used", "build_flags",
                                "peak_flops_per_s_one_core", "peak_flops_per_s_all_cores",
                                "bandwidth_bytes_per_s_one_core", "bandwidth_bytes_per_s_all_cores",
                                "ridge_point_flop_per_byte", "measured_at", "sgemm_n", "sgemm_n_one_core",
                                "stream_bytes", "last_level_cache_bytes", "quick", "load_average"})
            QVERIFY2(object.contains(QLatin1String(key)), key);
        QCOMPARE(object.value("ridge_point_flop_per_byte").toDouble(), 100.25e9 / 20.0e9);

        const Result<MachineRoofline> back = machineRooflineFromJson(json);
        QVERIFY2(back.ok(), formatProblems(back.problems()).c_str());
        compareRooflines(*back, original);
        QVERIFY(!back->from_cache);
    }

    void badJsonIsReported()
    {
        QJsonObject object = machineRooflineToJsonObject(fakeRoofline());
        object.remove("peak_flops_per_s_all_cores");
        object.insert("logical_cores", "two");
        const Result<MachineRoofline> bad = machineRooflineFromJson(QJsonDocument(object).toJson());
        QVERIFY(!bad.ok());
        QVERIFY2(hasProblem(bad.problems(), "peak_flops_per_s_all_cores", "required"), formatProblems(bad.problems()).c_str());
        QVERIFY(hasProblem(bad.problems(), "logical_cores", "type"));

        object = machineRooflineToJsonObject(fakeRoofline());
        object.insert("format", "llm-explorer-scenario");
        QVERIFY(hasProblem(machineRooflineFromJson(QJsonDocument(object).toJson()).problems(), "file", "format"));
        QVERIFY(hasProblem(machineRooflineFromJson("{ not json").problems(), "file", "json"));
    }

    void cacheDirIsRespected()
    {
        QCOMPARE(QString::fromStdString(machineRooflineCachePath()), cacheFile());
        const Result<std::string> saved = saveMachineRoofline(fakeRoofline());
        QVERIFY2(saved.ok(), formatProblems(saved.problems()).c_str());
        QCOMPARE(QString::fromStdString(*saved), cacheFile());
        QVERIFY(QFile::exists(cacheFile()));

        // Without the variable the file goes to the user's cache folder (only the path is checked).
        qunsetenv("LSE_CACHE_DIR");
        const QString userPath = QString::fromStdString(machineRooflineCachePath());
        qputenv("LSE_CACHE_DIR", cacheDir_.path().toUtf8());
        QVERIFY2(userPath.endsWith(QStringLiteral("/llm-systems-explorer/machine-roofline.json")), qPrintable(userPath));
        QVERIFY(!userPath.startsWith(cacheDir_.path()));
    }

    void cacheRoundTrip()
    {
        const MachineRoofline original = fakeRoofline();
        QVERIFY(saveMachineRoofline(original).ok());
        std::string whyNot;
        const std::optional<MachineRoofline> cached = loadCachedMachineRoofline(&whyNot);
        QVERIFY2(cached.has_value(), whyNot.c_str());
        compareRooflines(*cached, original);
        QVERIFY(cached->from_cache);

        // machineRoofline() takes the cached entry instead of measuring: the made-up numbers come back.
        const MachineRoofline viaLookup = machineRoofline(false);
        QVERIFY(viaLookup.from_cache);
        QCOMPARE(viaLookup.peak_flops_per_s_all_cores, original.peak_flops_per_s_all_cores);
    }

    void otherMachinesAreIgnored_data()
    {
        QTest::addColumn<QString>("what");
        QTest::newRow("cpu_model") << "cpu_model";
        QTest::newRow("logical_cores") << "logical_cores";
        QTest::newRow("build_flags") << "build_flags";
        QTest::newRow("quick") << "quick";
    }
    void otherMachinesAreIgnored()
    {
        QFETCH(QString, what);
        MachineRoofline other = fakeRoofline();
        if (what == "cpu_model")
            other.cpu_model = "Some Other CPU @ 1.00GHz";
        else if (what == "logical_cores")
            other.logical_cores += 7;
        else if (what == "build_flags")
            other.build_flags = "Eigen 3.4.0; SIMD: SSE, SSE2; unoptimised";
        else
            other.quick = true;
        QVERIFY(!sameMachine(other, currentMachineIdentity()) || other.quick);
        // Written directly: saveMachineRoofline() itself refuses quick runs.
        QVERIFY(writeFile(cacheFile(), machineRooflineToJson(other)));
        std::string whyNot;
        QVERIFY(!loadCachedMachineRoofline(&whyNot).has_value());
        QVERIFY(!whyNot.empty());
    }

    void brokenCacheIsIgnored()
    {
        QVERIFY(!loadCachedMachineRoofline().has_value());  // missing
        QVERIFY(writeFile(cacheFile(), "{ truncated"));
        std::string whyNot;
        QVERIFY(!loadCachedMachineRoofline(&whyNot).has_value());
        QVERIFY2(whyNot.find("JSON") != std::string::npos, whyNot.c_str());
    }

    // Issue 28, item 13: a corrupt cache is a stale one, said on one line (a line break split the
    // roofline command's message), and machineRoofline measures again instead of using it.
    void corruptCacheIsStale_data()
    {
        QTest::addColumn<QByteArray>("contents");
        QTest::addColumn<QString>("named");
        QTest::newRow("truncated JSON") << QByteArray("{\"format\": 3") << "not valid JSON";
        QTest::newRow("no fields") << QByteArray("{}") << "format";
        QTest::newRow("wrong types") << QByteArray(R"({"format": "llm-explorer-machine-roofline", "version": 1, "threads_used": "two"})")
                                     << "threads_used";
        QTest::newRow("a folder in its place") << QByteArray() << "not a regular file";
    }
    void corruptCacheIsStale()
    {
        QFETCH(QByteArray, contents);
        QFETCH(QString, named);
        QFile::remove(cacheFile());
        if (contents.isEmpty())
            QVERIFY(QDir().mkpath(cacheFile()));
        else
            QVERIFY(writeFile(cacheFile(), contents));
        const MachineRooflineCacheLookup lookup = lookUpMachineRooflineCache();
        QDir(cacheFile()).removeRecursively();
        QCOMPARE(lookup.status, MachineRooflineCacheLookup::Status::Stale);
        QVERIFY(!lookup.roofline.has_value());
        QVERIFY2(lookup.why.find('\n') == std::string::npos, lookup.why.c_str());
        QVERIFY2(lookup.why.find("stale cache") != std::string::npos && lookup.why.find(named.toStdString()) != std::string::npos &&
                     lookup.why.find(cacheFile().toStdString()) != std::string::npos,
                 lookup.why.c_str());
    }

    void staleCacheIsMeasuredAgain()
    {
        QVERIFY(writeFile(cacheFile(), "{ truncated"));
        MachineMeasureOptions quick;
        quick.quick = true;  // measured in well under a second, never cached
        const MachineRoofline measured = machineRoofline(false, {}, nullptr, quick);
        QVERIFY(!measured.from_cache);
        QVERIFY(measured.peak_flops_per_s_all_cores > 0);
        QFile::remove(cacheFile());
        QCOMPARE(lookUpMachineRooflineCache().status, MachineRooflineCacheLookup::Status::Missing);
    }

    void previousMeasurementRoundTrips()
    {
        MachineRoofline r = fakeRoofline();
        r.previous_peak_flops_per_s_all_cores = 98e9;
        r.previous_measured_at = "2026-11-28T09:00:00Z";
        const Result<MachineRoofline> back = machineRooflineFromJson(machineRooflineToJson(r));
        QVERIFY2(back.ok(), formatProblems(back.problems()).c_str());
        compareRooflines(*back, r);
        // A file written before these fields existed still reads, with no previous measurement.
        QJsonObject old = machineRooflineToJsonObject(fakeRoofline());
        QVERIFY(!old.contains("previous_peak_flops_per_s_all_cores"));
        QCOMPARE(machineRooflineFromJson(QJsonDocument(old).toJson())->previous_peak_flops_per_s_all_cores, 0.0);
    }

    // Issue 13, item 10: a roofline cached under load (all cores 57.7 < one core 64.2 GFLOP/s)
    // was shown without warning.
    void implausibleMeasurementsAreFlagged()
    {
        QVERIFY(machineRooflineWarnings(fakeRoofline()).empty());

        MachineRoofline loaded = fakeRoofline();
        loaded.peak_flops_per_s_one_core = 64.2e9;
        loaded.peak_flops_per_s_all_cores = 57.7e9;
        Problems warnings = machineRooflineWarnings(loaded);
        QVERIFY2(hasProblem(warnings, "peak_flops_per_s_all_cores", "all-cores-slower"), formatProblems(warnings).c_str());
        QVERIFY(warnings.front().message.find("57.7 GFLOP/s") != std::string::npos);
        QVERIFY(warnings.front().message.find("64.2 GFLOP/s") != std::string::npos);

        MachineRoofline one_thread = loaded;  // one thread cannot be slower than itself on more cores
        one_thread.threads_used = 1;
        QVERIFY(!hasProblem(machineRooflineWarnings(one_thread), "peak_flops_per_s_all_cores", "all-cores-slower"));

        MachineRoofline slow_memory = fakeRoofline();  // measured: 16.8 GB/s on 2 threads, 33.4 on one
        slow_memory.bandwidth_bytes_per_s_one_core = 33.4e9;
        slow_memory.bandwidth_bytes_per_s_all_cores = 16.8e9;
        QVERIFY(hasProblem(machineRooflineWarnings(slow_memory), "bandwidth_bytes_per_s_all_cores", "all-cores-slower"));
        slow_memory.bandwidth_bytes_per_s_all_cores = 31e9;  // saturated memory, not a stolen core
        QVERIFY(machineRooflineWarnings(slow_memory).empty());

        MachineRoofline busy = fakeRoofline();
        busy.load_average = busy.logical_cores + 0.5;
        QVERIFY(hasProblem(machineRooflineWarnings(busy), "load_average", "busy"));

        MachineRoofline changed = fakeRoofline();
        changed.previous_peak_flops_per_s_all_cores = changed.peak_flops_per_s_all_cores * 2;
        changed.previous_measured_at = "2026-11-28T09:00:00Z";
        warnings = machineRooflineWarnings(changed);
        QVERIFY(hasProblem(warnings, "peak_flops_per_s_all_cores", "changed"));
        QVERIFY(warnings.front().message.find("2026-11-28T09:00:00Z") != std::string::npos);
        changed.previous_peak_flops_per_s_all_cores = changed.peak_flops_per_s_all_cores / 2;
        QVERIFY(hasProblem(machineRooflineWarnings(changed), "peak_flops_per_s_all_cores", "changed"));
        changed.previous_peak_flops_per_s_all_cores = changed.peak_flops_per_s_all_cores * 1.05;  // run-to-run noise
        QVERIFY(machineRooflineWarnings(changed).empty());
    }

    void quickRunsAreNotSaved()
    {
        MachineRoofline quick = fakeRoofline();
        quick.quick = true;
        const Result<std::string> saved = saveMachineRoofline(quick);
        QVERIFY(!saved.ok());
        QCOMPARE(saved.problems().front().rule, std::string("quick"));
        QVERIFY(!QFile::exists(cacheFile()));
    }
};

QTEST_GUILESS_MAIN(TestMachineRoofline)
#include "test_machine_roofline.moc"
