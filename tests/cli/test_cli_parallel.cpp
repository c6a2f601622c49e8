// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli collective` and `pipeline`: JSON consistent with the published closed forms,
// the text output's Gantt chart, and exit 2 naming the flag for bad input.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "cli_run.h"

#include <cmath>

namespace {

using lse::test::Run;
using lse::test::runCli;

QJsonObject jsonOf(const Run &run)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(run.out, &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("not JSON: %s", run.out.left(200).constData());
    return document.object();
}

bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b)); }

}  // namespace

class TestCliParallel : public QObject {
    Q_OBJECT
private slots:
    void help()
    {
        const Run collective = runCli({"collective", "--help"});
        QCOMPARE(collective.exit_code, 0);
        QVERIFY(collective.out.contains("Usage: llm-explorer-cli collective"));
        QVERIFY(collective.out.contains("--link-gbps"));
        const Run pipeline = runCli({"pipeline", "--help"});
        QCOMPARE(pipeline.exit_code, 0);
        QVERIFY(pipeline.out.contains("--microbatches"));
        const Run usage = runCli({"--help"});
        QVERIFY(usage.out.contains("collective") && usage.out.contains("pipeline"));
    }

    // Ring all-reduce on 8 ranks: 2(n-1) = 14 steps, 2(n-1)/n·S sent per rank,
    // time 2(n-1)α + 2(n-1)/n·S/β (Patarasuk & Yuan 2009), busbw = algbw·2(n-1)/n (nccl-tests).
    void ringAllReduceJson()
    {
        const Run run = runCli({"collective", "--op", "allreduce", "--algo", "ring", "--ranks", "8", "--bytes", "1G",
                                "--link-gbps", "800", "--latency-us", "5", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject o = jsonOf(run);
        QCOMPARE(o["op"].toString(), QStringLiteral("allreduce"));
        QCOMPARE(o["algorithm"].toString(), QStringLiteral("ring"));
        QCOMPARE(o["ranks"].toInt(), 8);
        QCOMPARE(o["bytes"].toDouble(), 1e9);
        const QJsonArray steps = o["steps"].toArray();
        QCOMPARE(steps.size(), 14);
        const double beta = 800e9 / 8, alpha = 5e-6, S = 1e9, n = 8;
        QVERIFY(near(o["seconds"].toDouble(), 2 * (n - 1) * alpha + 2 * (n - 1) / n * S / beta));
        QVERIFY(near(o["bytes_sent_per_rank"].toDouble(), 2 * (n - 1) / n * S));
        const double algbw = o["algorithm_bandwidth_bytes_per_s"].toDouble();
        QVERIFY(near(algbw, S / o["seconds"].toDouble()));
        QVERIFY(near(o["bus_bandwidth_bytes_per_s"].toDouble(), algbw * 2 * (n - 1) / n));
        double sum = 0;
        for (const QJsonValue &step : steps) {
            sum += step["seconds"].toDouble();
            const QJsonArray transfers = step["transfers"].toArray();
            QCOMPARE(transfers.size(), 8);
            for (const QJsonValue &t : transfers) {
                QCOMPARE(t["to"].toInt(), (t["from"].toInt() + 1) % 8);
                QVERIFY(near(t["bytes"].toDouble(), S / n));
            }
        }
        QVERIFY(near(sum, o["seconds"].toDouble()));
        QVERIFY(steps[0]["transfers"][0]["reduces"].toBool());
        QVERIFY(!steps[13]["transfers"][0]["reduces"].toBool());
    }

    // Binomial-tree broadcast: ceil(log2 n) steps of the whole message.
    void treeBroadcastText()
    {
        const Run run = runCli({"collective", "--op", "broadcast", "--algo", "tree", "--ranks", "5", "--bytes", "256M",
                                "--root", "2", "--steps"});
        QCOMPARE(run.exit_code, 0);
        QVERIFY(run.out.contains("root 2"));
        QVERIFY(run.out.contains("step 3"));
        QVERIFY(!run.out.contains("step 4"));
        QVERIFY(run.out.contains("r2 → r3"));
        QVERIFY(run.out.contains("(copy) 256.0 MB"));
    }

    void pipelineJson_data()
    {
        QTest::addColumn<QString>("schedule");
        QTest::addColumn<int>("p");
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("v");
        QTest::addColumn<double>("bubble");
        QTest::addRow("gpipe") << "gpipe" << 4 << 8 << 1 << 3.0 / 8;
        QTest::addRow("1f1b") << "1f1b" << 4 << 8 << 1 << 3.0 / 8;
        QTest::addRow("interleaved v=2") << "interleaved" << 4 << 8 << 2 << 3.0 / 16;
        QTest::addRow("zb (a third of 1F1B)") << "zb" << 4 << 8 << 1 << 1.0 / 8;
    }
    void pipelineJson()
    {
        QFETCH(QString, schedule);
        QFETCH(int, p);
        QFETCH(int, m);
        QFETCH(int, v);
        QFETCH(double, bubble);
        const Run run = runCli({"pipeline", "--schedule", schedule, "--stages", QString::number(p), "--microbatches",
                                QString::number(m), "--chunks", QString::number(v), "--forward-ms", "1",
                                "--backward-ms", "2", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject o = jsonOf(run);
        QCOMPARE(o["schedule"].toString(), schedule);
        QCOMPARE(o["stages"].toInt(), p);
        QCOMPARE(o["microbatches"].toInt(), m);
        QCOMPARE(o["chunks"].toInt(), v);
        QVERIFY(near(o["bubble_fraction"].toDouble(), bubble));
        QVERIFY(near(o["analytic_bubble_fraction"].toDouble(), bubble));
        // busy = m (t_f + t_b) = 3m ms per stage, makespan = busy (1 + bubble).
        QVERIFY(near(o["makespan_seconds"].toDouble(), m * 3e-3 * (1 + bubble)));
        const QJsonArray peaks = o["peak_in_flight"].toArray();
        QCOMPARE(peaks.size(), p);
        if (schedule == QLatin1String("gpipe"))
            QCOMPARE(peaks[0].toInt(), m);
        if (schedule == QLatin1String("1f1b"))
            for (int s = 0; s < p; ++s)
                QCOMPARE(peaks[s].toInt(), p - s);
        const QJsonArray tasks = o["tasks"].toArray();
        QCOMPARE(tasks.size(), p * m * v * (schedule == QLatin1String("zb") ? 3 : 2));
        double last_end = 0;
        for (const QJsonValue &t : tasks) {
            QVERIFY(t["end"].toDouble() > t["start"].toDouble());
            QVERIFY(t["stage"].toInt() >= 0 && t["stage"].toInt() < p);
            QVERIFY(t["microbatch"].toInt() >= 0 && t["microbatch"].toInt() < m);
            QVERIFY(t["chunk"].toInt() >= 0 && t["chunk"].toInt() < v);
            QVERIFY(!t["kind"].toString().isEmpty());
            last_end = std::max(last_end, t["end"].toDouble());
        }
        QVERIFY(near(last_end, o["makespan_seconds"].toDouble()));
    }

    // ZB-H1 with fewer micro-batches than stages: the closed form does not hold, and the output
    // says so instead of printing it as "analytic" beside the measured bubble.
    void zeroBubbleWithFewMicroBatchesFlagsTheFormula()
    {
        const Run text = runCli({"pipeline", "--schedule", "zb", "--stages", "4", "--microbatches", "2"});
        QCOMPARE(text.exit_code, 0);
        QVERIFY2(!text.out.contains("analytic\n"), qPrintable(text.out));
        QVERIFY2(text.out.contains("assumes m >= p and t_W <= t_B, which does not hold here"), qPrintable(text.out));
        const Run json = runCli({"pipeline", "--schedule", "zb", "--stages", "4", "--microbatches", "2", "--json"});
        QCOMPARE(json.exit_code, 0);
        QCOMPARE(jsonOf(json)["analytic_bubble_applies"].toBool(true), false);
        const Run enough = runCli({"pipeline", "--schedule", "zb", "--stages", "4", "--microbatches", "8", "--json"});
        QCOMPARE(jsonOf(enough)["analytic_bubble_applies"].toBool(false), true);
    }

    void pipelineTextHasGantt()
    {
        const Run run = runCli({"pipeline", "--schedule", "1f1b", "--stages", "4", "--microbatches", "8"});
        QCOMPARE(run.exit_code, 0);
        QVERIFY(run.out.contains("0.3750 measured, 0.3750 analytic"));
        QVERIFY(run.out.contains("peak in flight per stage   4 3 2 1"));
        // The last stage starts after 3 forwards' wait and alternates F and B (B takes 2 columns).
        QVERIFY(run.out.contains("stage 3   |...FBBFBBFBB"));
    }

    void badInputExitsTwoNamingTheFlag_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("flag");
        QTest::addRow("collective ranks 0") << QStringList{"collective", "--op", "allreduce", "--ranks", "0", "--bytes", "1M"} << "--ranks";
        QTest::addRow("collective ranks 2000") << QStringList{"collective", "--op", "allreduce", "--ranks", "2000", "--bytes", "1M"} << "--ranks";
        QTest::addRow("collective bytes 0") << QStringList{"collective", "--op", "allreduce", "--ranks", "8", "--bytes", "0"} << "--bytes";
        QTest::addRow("collective bytes text") << QStringList{"collective", "--op", "allreduce", "--ranks", "8", "--bytes", "lots"} << "--bytes";
        QTest::addRow("collective unknown op") << QStringList{"collective", "--op", "allsum", "--ranks", "8", "--bytes", "1M"} << "--op";
        QTest::addRow("collective missing op") << QStringList{"collective", "--ranks", "8", "--bytes", "1M"} << "--op";
        QTest::addRow("collective unknown algo") << QStringList{"collective", "--op", "allreduce", "--algo", "star", "--ranks", "8", "--bytes", "1M"} << "--algo";
        QTest::addRow("collective zero bandwidth") << QStringList{"collective", "--op", "allreduce", "--ranks", "8", "--bytes", "1M", "--link-gbps", "0"} << "--link-gbps";
        QTest::addRow("collective root out of range") << QStringList{"collective", "--op", "broadcast", "--ranks", "8", "--bytes", "1M", "--root", "8"} << "--root";
        QTest::addRow("pipeline stages 0") << QStringList{"pipeline", "--stages", "0", "--microbatches", "8"} << "--stages";
        QTest::addRow("pipeline missing microbatches") << QStringList{"pipeline", "--stages", "4"} << "--microbatches";
        QTest::addRow("pipeline interleaved m not multiple of p") << QStringList{"pipeline", "--schedule", "interleaved", "--stages", "4", "--microbatches", "6"} << "--microbatches";
        QTest::addRow("pipeline interleaved 1 chunk") << QStringList{"pipeline", "--schedule", "interleaved", "--stages", "4", "--microbatches", "8", "--chunks", "1"} << "--chunks";
        QTest::addRow("pipeline unknown schedule") << QStringList{"pipeline", "--schedule", "pipedream", "--stages", "4", "--microbatches", "8"} << "--schedule";
        QTest::addRow("pipeline negative forward") << QStringList{"pipeline", "--stages", "4", "--microbatches", "8", "--forward-ms", "-1"} << "--forward-ms";
    }
    void badInputExitsTwoNamingTheFlag()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, flag);
        const Run run = runCli(arguments);
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        // Each problem line starts with the flag ("--ranks: ..." or "--op must be ...").
        QVERIFY2(run.err.contains(("\n" + flag).toUtf8()), run.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliParallel)
#include "test_cli_parallel.moc"
